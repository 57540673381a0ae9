// tt.reshape, tt.trans, tt.join, tt.split, tt.cat: register-only; the result
// registers are the source registers in the order the linear layouts give.

#src = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [128], warpsPerCTA = [1], order = [0]}>
#dst = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [128, 1], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @join_split(%a: tensor<64xf32, #src>, %b: tensor<64xf32, #src>) -> tensor<64xf32, #src> {
    %j = tt.join %a, %b : tensor<64xf32, #src> -> tensor<64x2xf32, #dst>
    %lo, %hi = tt.split %j : tensor<64x2xf32, #dst> -> tensor<64xf32, #src>
    %p = arith.mulf %lo, %hi : tensor<64xf32, #src>
    tt.return %p : tensor<64xf32, #src>
  }
}

// -----

#src = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [2, 64], warpsPerCTA = [1, 1], order = [1, 0]}>
#dst = #ttg.linear<{register = [[0, 1], [1, 0]], lane = [[2, 0], [4, 0], [8, 0], [16, 0], [32, 0], [64, 0], [0, 2]], warp = [], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @trans(%x: tensor<4x128xf32, #src>) -> tensor<128x4xf32, #dst> {
    %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<4x128xf32, #src> -> tensor<128x4xf32, #dst>
    tt.return %t : tensor<128x4xf32, #dst>
  }
}

// -----

#src = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 32], warpsPerCTA = [1, 1], order = [0, 1]}>
#dst = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [128], warpsPerCTA = [1], order = [0]}>
#src1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [128], warpsPerCTA = [1], order = [0]}>
#dst1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 16], warpsPerCTA = [1, 1], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @reshape(%x: tensor<8x2xf32, #src>) -> tensor<16xf32, #dst> {
    %r = tt.reshape %x : tensor<8x2xf32, #src> -> tensor<16xf32, #dst>
    tt.return %r : tensor<16xf32, #dst>
  }

  tt.func public @reshape_reorder(%x: tensor<256xi32, #src1>) -> tensor<16x16xi32, #dst1> {
    %r = tt.reshape %x allow_reorder : tensor<256xi32, #src1> -> tensor<16x16xi32, #dst1>
    tt.return %r : tensor<16x16xi32, #dst1>
  }
}

// -----

#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [128], warpsPerCTA = [4], order = [0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [128], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @cat(%a: tensor<64xf16, #blocked1>, %b: tensor<64xf16, #blocked1>) -> tensor<128xf16, #blocked2> {
    %c = tt.cat %a, %b : tensor<64xf16, #blocked1> -> tensor<128xf16, #blocked2>
    tt.return %c : tensor<128xf16, #blocked2>
  }
}
