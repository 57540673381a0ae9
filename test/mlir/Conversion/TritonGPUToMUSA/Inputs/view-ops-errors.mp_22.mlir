// view-ops-errors.mlir for mp_22.
// View ops that would move data between threads are refused by name (the
// conversion then reports the op it could not legalize).

#src = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [128], warpsPerCTA = [1], order = [0]}>
#dst = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 16], warpsPerCTA = [1, 1], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @reshape_moves(%x: tensor<256xi32, #src>) -> tensor<16x16xi32, #dst> {
    // expected-error @below {{'tt.reshape' from}}
    %r = tt.reshape %x : tensor<256xi32, #src> -> tensor<16x16xi32, #dst>
    tt.return %r : tensor<16x16xi32, #dst>
  }
}

// -----

#src = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [128], warpsPerCTA = [1], order = [0]}>
#dst = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [64, 2], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @join_across_lanes(%a: tensor<128xf32, #src>, %b: tensor<128xf32, #src>) -> tensor<128x2xf32, #dst> {
    // The two halves of a row sit in neighbouring lanes.
    // expected-error @below {{'tt.join' from}}
    %j = tt.join %a, %b : tensor<128xf32, #src> -> tensor<128x2xf32, #dst>
    tt.return %j : tensor<128x2xf32, #dst>
  }
}

// -----

#src = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [64, 2], warpsPerCTA = [1, 1], order = [1, 0]}>
#dst = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [128], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @split_across_lanes(%x: tensor<128x2xf32, #src>) -> tensor<128xf32, #dst> {
    // expected-error @below {{'tt.split' from}}
    %lo, %hi = tt.split %x : tensor<128x2xf32, #src> -> tensor<128xf32, #dst>
    tt.return %lo : tensor<128xf32, #dst>
  }
}
