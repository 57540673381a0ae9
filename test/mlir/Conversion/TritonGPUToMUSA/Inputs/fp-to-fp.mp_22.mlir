// mp_22 twin of ../fp-to-fp.mlir (128-thread warps); checked there.

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [128], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @f32_to_e4m3_rtne(%x: f32, %t: tensor<256xf32, #blocked>) -> (f8E4M3FN, tensor<256xf8E4M3FN, #blocked>) {
    %y = tt.fp_to_fp %x, rounding = rtne : f32 -> f8E4M3FN
    %u = tt.fp_to_fp %t, rounding = rtne : tensor<256xf32, #blocked> -> tensor<256xf8E4M3FN, #blocked>
    tt.return %y, %u : f8E4M3FN, tensor<256xf8E4M3FN, #blocked>
  }

  tt.func public @f32_to_e4m3_rtz(%x: f32) -> f8E4M3FN {
    %y = tt.fp_to_fp %x, rounding = rtz : f32 -> f8E4M3FN
    tt.return %y : f8E4M3FN
  }

  tt.func public @f32_to_f16_rtz(%x: f32) -> f16 {
    %y = tt.fp_to_fp %x, rounding = rtz : f32 -> f16
    tt.return %y : f16
  }

  tt.func public @f16_to_e5m2_rtne(%x: f16) -> f8E5M2 {
    %y = tt.fp_to_fp %x, rounding = rtne : f16 -> f8E5M2
    tt.return %y : f8E5M2
  }

  tt.func public @e4m3_to_f32(%x: f8E4M3FN) -> f32 {
    %y = tt.fp_to_fp %x : f8E4M3FN -> f32
    tt.return %y : f32
  }

  tt.func public @e5m2_to_bf16(%x: f8E5M2) -> bf16 {
    %y = tt.fp_to_fp %x : f8E5M2 -> bf16
    tt.return %y : bf16
  }

  tt.func public @f32_to_e4b15(%x: f32) -> f8E4M3B11FNUZ {
    %y = tt.fp_to_fp %x, rounding = rtne : f32 -> f8E4M3B11FNUZ
    tt.return %y : f8E4M3B11FNUZ
  }

  tt.func public @f64_to_f32_rtz(%x: f64) -> f32 {
    %y = tt.fp_to_fp %x, rounding = rtz : f64 -> f32
    tt.return %y : f32
  }
}
