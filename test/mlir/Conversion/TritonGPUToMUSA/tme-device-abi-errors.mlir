// A host-encoded TME descriptor parameter (marked musagpu.tme_descriptor)
// holds an opaque MUtensorDescriptor: only TME ops may use it. A use on the
// path without TME (which would read the descriptor as the tensor's base
// address) is an error naming the op and the parameter.
// RUN: not musa-opt %s -convert-tritongpu-to-musa=arch=mp_31 2>&1 | FileCheck %s

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK: error: 'llvm.getelementptr' uses the host-encoded TME descriptor parameter 0 of 'plain_use' as a tensor address; only TME ops may use it
  tt.func public @plain_use(%d: !tt.tensordesc<tensor<16x32xf16>> {musagpu.tme_descriptor}, %m: i32, %n: i32, %sm: i64, %sn: i64, %i: i32) -> tensor<16x32xf16, #blocked> {
    %t = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<16x32xf16>> -> tensor<16x32xf16, #blocked>
    tt.return %t : tensor<16x32xf16, #blocked>
  }
}
