// ttg.fp4_to_fp layouts the lowering refuses: the two values of a byte must
// stay in the thread that holds the byte.
// RUN: musa-opt %s -convert-tritongpu-to-musa=arch=mp_31 -verify-diagnostics

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @split_bytes(%x: tensor<128x1xi8, #blocked>) -> tensor<128x2xbf16, #blocked1> {
    // expected-error @below {{splits bytes between threads}}
    %y = ttg.fp4_to_fp %x {axis = 1 : i32} : tensor<128x1xi8, #blocked> -> tensor<128x2xbf16, #blocked1>
    tt.return %y : tensor<128x2xbf16, #blocked1>
  }
}
