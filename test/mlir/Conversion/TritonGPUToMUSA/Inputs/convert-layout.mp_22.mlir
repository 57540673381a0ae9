#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [128], warpsPerCTA = [4], order = [0]}>
#linear = #ttg.linear<{register = [[1024], [1]], lane = [[2], [4], [8], [16], [32], [64], [128]], warp = [[256], [512]], block = []}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 128 : i32, ttg.target = "musa:mp_22"} {
  tt.func public @registers(%x: tensor<2048xf32, #blocked>) -> tensor<2048xf32, #linear> {
    %y = ttg.convert_layout %x : tensor<2048xf32, #blocked> -> tensor<2048xf32, #linear>
    tt.return %y : tensor<2048xf32, #linear>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 32], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 128 : i32, ttg.target = "musa:mp_22"} {
  tt.func public @shared(%x: tensor<128x16xf32, #blocked>) -> tensor<128x16xf32, #blocked1> {
    %y = ttg.convert_layout %x : tensor<128x16xf32, #blocked> -> tensor<128x16xf32, #blocked1>
    tt.return %y : tensor<128x16xf32, #blocked1>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [16, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 128 : i32, ttg.target = "musa:mp_22"} {
  tt.func public @vectorized(%x: tensor<128x32xf32, #blocked>) -> tensor<128x32xf32, #blocked1> {
    %y = ttg.convert_layout %x : tensor<128x32xf32, #blocked> -> tensor<128x32xf32, #blocked1>
    tt.return %y : tensor<128x32xf32, #blocked1>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [128], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [128], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 128 : i32, ttg.target = "musa:mp_22"} {
  tt.func public @bool_broadcast(%x: tensor<256xi1, #blocked>) -> tensor<256xi1, #blocked1> {
    %y = ttg.convert_layout %x : tensor<256xi1, #blocked> -> tensor<256xi1, #blocked1>
    tt.return %y : tensor<256xi1, #blocked1>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [128], warpsPerCTA = [4], order = [0]}>
#linear = #ttg.linear<{register = [], lane = [[64], [32], [16], [8], [4], [2], [1]], warp = [[128], [256]], block = []}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 128 : i32, ttg.target = "musa:mp_22"} {
  tt.func public @lane_reverse(%x: tensor<512xf16, #blocked>) -> tensor<512xf16, #linear> {
    %y = ttg.convert_layout %x : tensor<512xf16, #blocked> -> tensor<512xf16, #linear>
    tt.return %y : tensor<512xf16, #linear>
  }
}
