// mp_22 (128-lane warps) kernels of ../reduce.mlir, in the same order.

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 128], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @row_sum(%x: tensor<4x512xf32, #blocked>) -> tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>> {
    %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<4x512xf32, #blocked>) -> tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    tt.return %s : tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [128], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 32 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @sum_to_scalar(%x: tensor<1024xf32, #blocked>) -> f32 {
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) {allocation.offset = 16 : i32} : (tensor<1024xf32, #blocked>) -> f32
    tt.return %s : f32
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 128], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @argmax(%v: tensor<4x128xf32, #blocked>, %i: tensor<4x128xi32, #blocked>) -> tensor<4xi32, #ttg.slice<{dim = 1, parent = #blocked}>> {
    %r:2 = "tt.reduce"(%v, %i) <{axis = 1 : i32}> ({
    ^bb0(%av: f32, %ai: i32, %bv: f32, %bi: i32):
      %gt = arith.cmpf ogt, %av, %bv : f32
      %eq = arith.cmpf oeq, %av, %bv : f32
      %lt = arith.cmpi slt, %ai, %bi : i32
      %tie = arith.andi %eq, %lt : i1
      %keep = arith.ori %gt, %tie : i1
      %rv = arith.select %keep, %av, %bv : f32
      %ri = arith.select %keep, %ai, %bi : i32
      tt.reduce.return %rv, %ri : f32, i32
    }) : (tensor<4x128xf32, #blocked>, tensor<4x128xi32, #blocked>) -> (tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<4xi32, #ttg.slice<{dim = 1, parent = #blocked}>>)
    tt.return %r#1 : tensor<4xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [1, 128], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 2048 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @column_max(%x: tensor<8x128xf32, #blocked>) -> tensor<128xf32, #ttg.slice<{dim = 0, parent = #blocked}>> {
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.maxnumf %a, %b : f32
      tt.reduce.return %t : f32
    }) {allocation.offset = 0 : i32} : (tensor<8x128xf32, #blocked>) -> tensor<128xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
    tt.return %s : tensor<128xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 128], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @row_sum_duplicate_lanes(%x: tensor<4x64xf32, #blocked>) -> tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>> {
    %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<4x64xf32, #blocked>) -> tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    tt.return %s : tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
  }
}
