// mp_22 (128-lane warps) kernels of ../scan.mlir, in the same order.

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [128], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 16 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @cumsum(%x: tensor<1024xi32, #blocked>) -> tensor<1024xi32, #blocked> {
    %c = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: i32, %b: i32):
      %t = arith.addi %a, %b : i32
      tt.scan.return %t : i32
    }) {allocation.offset = 0 : i32} : (tensor<1024xi32, #blocked>) -> tensor<1024xi32, #blocked>
    tt.return %c : tensor<1024xi32, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 128], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @reverse_cumprod(%x: tensor<4x128xf32, #blocked>) -> tensor<4x128xf32, #blocked> {
    %c = "tt.scan"(%x) <{axis = 1 : i32, reverse = true}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.mulf %a, %b : f32
      tt.scan.return %t : f32
    }) : (tensor<4x128xf32, #blocked>) -> tensor<4x128xf32, #blocked>
    tt.return %c : tensor<4x128xf32, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [1, 128], warpsPerCTA = [1, 4], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @recurrence(%a: tensor<4x128xf32, #blocked>, %b: tensor<4x128xf32, #blocked>) -> tensor<4x128xf32, #blocked> {
    %c:2 = "tt.scan"(%a, %b) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a0: f32, %b0: f32, %a1: f32, %b1: f32):
      %m = arith.mulf %a0, %a1 : f32
      %n = arith.mulf %b0, %a1 : f32
      %s = arith.addf %n, %b1 : f32
      tt.scan.return %m, %s : f32, f32
    }) : (tensor<4x128xf32, #blocked>, tensor<4x128xf32, #blocked>) -> (tensor<4x128xf32, #blocked>, tensor<4x128xf32, #blocked>)
    tt.return %c#1 : tensor<4x128xf32, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [128], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 32 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @cumsum_chunks(%x: tensor<1024xi32, #blocked>) -> tensor<1024xi32, #blocked> {
    %c = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: i32, %b: i32):
      %t = arith.addi %a, %b : i32
      tt.scan.return %t : i32
    }) {allocation.offset = 0 : i32} : (tensor<1024xi32, #blocked>) -> tensor<1024xi32, #blocked>
    tt.return %c : tensor<1024xi32, #blocked>
  }
}
