// View ops that would move data between threads are refused by name (the
// conversion then reports the op it could not legalize).
// RUN: musa-opt %s -split-input-file -convert-tritongpu-to-musa=arch=mp_31 -verify-diagnostics

#src = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#dst = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @reshape_moves(%x: tensor<64xi32, #src>) -> tensor<8x8xi32, #dst> {
    // expected-error @below {{'tt.reshape' from 'tensor<64xi32, #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>>' to 'tensor<8x8xi32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [0, 1]}>>' moves data between threads, which is not supported by --convert-tritongpu-to-musa yet}}
    %r = tt.reshape %x : tensor<64xi32, #src> -> tensor<8x8xi32, #dst>
    tt.return %r : tensor<8x8xi32, #dst>
  }
}

// -----

#src = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#dst = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @join_across_lanes(%a: tensor<32xf32, #src>, %b: tensor<32xf32, #src>) -> tensor<32x2xf32, #dst> {
    // The two halves of a row sit in neighbouring lanes.
    // expected-error @below {{'tt.join' from}}
    %j = tt.join %a, %b : tensor<32xf32, #src> -> tensor<32x2xf32, #dst>
    tt.return %j : tensor<32x2xf32, #dst>
  }
}

// -----

#src = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 1], order = [1, 0]}>
#dst = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @split_across_lanes(%x: tensor<32x2xf32, #src>) -> tensor<32xf32, #dst> {
    // expected-error @below {{'tt.split' from}}
    %lo, %hi = tt.split %x : tensor<32x2xf32, #src> -> tensor<32xf32, #dst>
    tt.return %lo : tensor<32xf32, #dst>
  }
}
