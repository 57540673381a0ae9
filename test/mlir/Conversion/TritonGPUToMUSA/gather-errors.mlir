// tt.gather that --convert-tritongpu-to-musa refuses, with an error naming
// the op and the reason.
// RUN: musa-opt %s -split-input-file -convert-tritongpu-to-musa=arch=mp_31 -verify-diagnostics

#blocked = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @no_allocation(%src: tensor<32x64xf32, #blocked>, %idx: tensor<32x64xi32, #blocked>) {
    // expected-error @below {{'tt.gather' needs shared memory but has no "allocation.offset"; run --musa-allocate-shared-memory first}}
    %g = tt.gather %src[%idx] {axis = 1 : i32} : (tensor<32x64xf32, #blocked>, tensor<32x64xi32, #blocked>) -> tensor<32x64xf32, #blocked>
    tt.return
  }
}
