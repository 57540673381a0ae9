// tt.reduce that --convert-tritongpu-to-musa refuses, with an error naming
// the op and the reason.
// RUN: musa-opt %s -split-input-file -convert-tritongpu-to-musa=arch=mp_31 -verify-diagnostics

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @no_allocation(%x: tensor<128xf32, #blocked>) -> f32 {
    // Four warps hold parts of the sum: it needs scratch shared memory.
    // expected-error @below {{'tt.reduce' needs shared memory but has no "allocation.offset"; run --musa-allocate-shared-memory first}}
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<128xf32, #blocked>) -> f32
    tt.return %s : f32
  }
}

