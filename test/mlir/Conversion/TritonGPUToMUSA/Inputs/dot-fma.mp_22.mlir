// mp_22 twin of ../dot-fma.mlir (128-thread warps); checked there.

#blocked = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [16, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [2, 1, 1], threadsPerWarp = [4, 4, 8], warpsPerCTA = [1, 2, 2], order = [2, 1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @dot_f32(%a: tensor<32x4xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<4x16xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<32x16xf32, #blocked>) -> tensor<32x16xf32, #blocked> {
    %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<32x4xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<4x16xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<32x16xf32, #blocked>
    tt.return %d : tensor<32x16xf32, #blocked>
  }

  tt.func public @dot_f16_f32(%pa: !tt.ptr<f16>, %pb: !tt.ptr<f16>, %c: tensor<16x8xf32, #blocked1>) -> tensor<16x8xf32, #blocked1> {
    %sa = tt.splat %pa : !tt.ptr<f16> -> tensor<16x2x!tt.ptr<f16>, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>
    %a = tt.load %sa : tensor<16x2x!tt.ptr<f16>, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>
    %sb = tt.splat %pb : !tt.ptr<f16> -> tensor<2x8x!tt.ptr<f16>, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>
    %b = tt.load %sb : tensor<2x8x!tt.ptr<f16>, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>
    %d = tt.dot %a, %b, %c : tensor<16x2xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> * tensor<2x8xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<16x8xf32, #blocked1>
    tt.return %d : tensor<16x8xf32, #blocked1>
  }

  tt.func public @dot_f16_f16(%a: tensor<16x2xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>, %b: tensor<2x8xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>, %c: tensor<16x8xf16, #blocked1>) -> tensor<16x8xf16, #blocked1> {
    %d = tt.dot %a, %b, %c : tensor<16x2xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> * tensor<2x8xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<16x8xf16, #blocked1>
    tt.return %d : tensor<16x8xf16, #blocked1>
  }

  tt.func public @dot_bf16(%a: tensor<16x2xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>, %b: tensor<2x8xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>, %c: tensor<16x8xf32, #blocked1>) -> tensor<16x8xf32, #blocked1> {
    %d = tt.dot %a, %b, %c : tensor<16x2xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> * tensor<2x8xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<16x8xf32, #blocked1>
    tt.return %d : tensor<16x8xf32, #blocked1>
  }

  tt.func public @dot_i8(%a: tensor<16x2xi8, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>, %b: tensor<2x8xi8, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>, %c: tensor<16x8xi32, #blocked1>) -> tensor<16x8xi32, #blocked1> {
    %d = tt.dot %a, %b, %c : tensor<16x2xi8, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> * tensor<2x8xi8, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<16x8xi32, #blocked1>
    tt.return %d : tensor<16x8xi32, #blocked1>
  }

  tt.func public @dot_fp8e4nv(%a: tensor<16x2xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>, %b: tensor<2x8xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>, %c: tensor<16x8xf32, #blocked1>) -> tensor<16x8xf32, #blocked1> {
    %d = tt.dot %a, %b, %c : tensor<16x2xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> * tensor<2x8xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<16x8xf32, #blocked1>
    tt.return %d : tensor<16x8xf32, #blocked1>
  }

  tt.func public @dot_fp8e5(%a: tensor<16x2xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>, %b: tensor<2x8xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>, %c: tensor<16x8xf32, #blocked1>) -> tensor<16x8xf32, #blocked1> {
    %d = tt.dot %a, %b, %c : tensor<16x2xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> * tensor<2x8xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<16x8xf32, #blocked1>
    tt.return %d : tensor<16x8xf32, #blocked1>
  }

  tt.func public @dot_f64(%a: tensor<16x2xf64, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>, %b: tensor<2x8xf64, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>, %c: tensor<16x8xf64, #blocked1>) -> tensor<16x8xf64, #blocked1> {
    %d = tt.dot %a, %b, %c, inputPrecision = ieee : tensor<16x2xf64, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> * tensor<2x8xf64, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<16x8xf64, #blocked1>
    tt.return %d : tensor<16x8xf64, #blocked1>
  }

  tt.func public @dot_batched(%a: tensor<2x8x2xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>>, %b: tensor<2x2x16xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>>, %c: tensor<2x8x16xf32, #blocked2>) -> tensor<2x8x16xf32, #blocked2> {
    %d = tt.dot %a, %b, %c : tensor<2x8x2xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>> * tensor<2x2x16xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>> -> tensor<2x8x16xf32, #blocked2>
    tt.return %d : tensor<2x8x16xf32, #blocked2>
  }
}
