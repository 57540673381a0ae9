// tt.fp_to_fp as exact integer bit manipulation. Narrowing: rebias the
// exponent in place ((src bias - dst bias) << src mantissa bits), drop the
// extra mantissa bits (rtne: round half to even; rtz: truncate), handle
// subnormal results with a variable shift, then overflow (IEEE formats: inf
// under rtne, max finite under rtz; formats without inf saturate), inf and
// NaN. Widening from fp8/f16: normal values rebias into f32, subnormals are
// m * 2^(1 - bias - mantissa bits); bf16 is the top half of an f32.
// (The numerics of every conversion were compared exhaustively against an
// exact reference when this was written; the checks pin the constants.)
// RUN: musa-opt %s -convert-tritongpu-to-musa=arch=mp_31 -o %t.mp_31.mlir
// RUN: FileCheck %s --input-file=%t.mp_31.mlir
// RUN: musa-translate --musa-to-llvmir --musa-arch=mp_31 %t.mp_31.mlir -o %t.mp_31.ll
// RUN: %check-llvm14 %t.mp_31.ll

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // f32 -> f8E4M3FN (bias 7, no inf): rebias 120, 20 bits dropped,
  // subnormal shift 21 - e, capped at 25; saturate at 0x7E (448), NaN 0x7F.
  // CHECK-LABEL: llvm.func @f32_to_e4m3_rtne(
  // CHECK: llvm.bitcast %{{.*}} : f32 to i32
  // CHECK: llvm.mlir.constant(2139095040 : i32) : i32
  // CHECK: llvm.mlir.constant(120 : i32) : i32
  // CHECK: llvm.mlir.constant(1006632960 : i32) : i32
  // CHECK: llvm.mlir.constant(20 : i32) : i32
  // CHECK: llvm.icmp "ugt"
  // CHECK: llvm.mlir.constant(8388608 : i32) : i32
  // CHECK: llvm.mlir.constant(21 : i32) : i32
  // CHECK: llvm.mlir.constant(25 : i32) : i32
  // CHECK: llvm.mlir.constant(126 : i32) : i32
  // CHECK: llvm.mlir.constant(127 : i32) : i32
  // CHECK: llvm.mlir.constant(7 : i32) : i32
  // CHECK: llvm.trunc %{{.*}} : i32 to i8
  // The tensor form converts each register.
  // CHECK: llvm.trunc %{{.*}} : i32 to i8
  // CHECK: llvm.trunc %{{.*}} : i32 to i8
  tt.func public @f32_to_e4m3_rtne(%x: f32, %t: tensor<256xf32, #blocked>) -> (f8E4M3FN, tensor<256xf8E4M3FN, #blocked>) {
    %y = tt.fp_to_fp %x, rounding = rtne : f32 -> f8E4M3FN
    %u = tt.fp_to_fp %t, rounding = rtne : tensor<256xf32, #blocked> -> tensor<256xf8E4M3FN, #blocked>
    tt.return %y, %u : f8E4M3FN, tensor<256xf8E4M3FN, #blocked>
  }

  // rtz: no rounding increment after the 20-bit shift.
  // CHECK-LABEL: llvm.func @f32_to_e4m3_rtz(
  // CHECK: llvm.mlir.constant(20 : i32) : i32
  // CHECK-NOT: llvm.icmp "ugt"
  // CHECK: llvm.mlir.constant(21 : i32) : i32
  tt.func public @f32_to_e4m3_rtz(%x: f32) -> f8E4M3FN {
    %y = tt.fp_to_fp %x, rounding = rtz : f32 -> f8E4M3FN
    tt.return %y : f8E4M3FN
  }

  // f32 -> f16 rtz (what Triton emits for fp_downcast_rounding = "rtz"):
  // rebias 112, 13 bits dropped; overflow gives 0x7BFF (65504), inf stays
  // 0x7C00, NaN 0x7E00.
  // CHECK-LABEL: llvm.func @f32_to_f16_rtz(
  // CHECK: llvm.mlir.constant(112 : i32) : i32
  // CHECK: llvm.mlir.constant(939524096 : i32) : i32
  // CHECK: llvm.mlir.constant(13 : i32) : i32
  // CHECK-NOT: llvm.icmp "ugt"
  // CHECK: llvm.mlir.constant(8388608 : i32) : i32
  // CHECK: llvm.mlir.constant(14 : i32) : i32
  // CHECK: llvm.mlir.constant(31743 : i32) : i32
  // CHECK: llvm.mlir.constant(31744 : i32) : i32
  // CHECK: llvm.mlir.constant(32256 : i32) : i32
  // CHECK: llvm.mlir.constant(15 : i32) : i32
  // CHECK: %[[H:.*]] = llvm.trunc %{{.*}} : i32 to i16
  // CHECK: llvm.bitcast %[[H]] : i16 to f16
  tt.func public @f32_to_f16_rtz(%x: f32) -> f16 {
    %y = tt.fp_to_fp %x, rounding = rtz : f32 -> f16
    tt.return %y : f16
  }

  // f16 -> f8E5M2: f16 widened to f32 exactly (rebias 112, subnormals
  // m * 2^-24), then narrowed: 21 bits dropped; overflow and infinities
  // saturate to the max finite 0x7B (as Triton's NVIDIA cvt.satfinite: no
  // inf 0x7C), NaN 0x7E.
  // CHECK-LABEL: llvm.func @f16_to_e5m2_rtne(
  // CHECK: llvm.bitcast %{{.*}} : f16 to i16
  // CHECK: llvm.mlir.constant(939524096 : i32) : i32
  // CHECK: llvm.mlir.constant(5.96046448E-8 : f32) : f32
  // CHECK: llvm.mlir.constant(112 : i32) : i32
  // CHECK: llvm.mlir.constant(21 : i32) : i32
  // CHECK: llvm.icmp "ugt"
  // CHECK: llvm.mlir.constant(123 : i32) : i32
  // CHECK-NOT: llvm.mlir.constant(124 : i32)
  // CHECK: llvm.mlir.constant(126 : i32) : i32
  // CHECK: llvm.trunc %{{.*}} : i32 to i8
  tt.func public @f16_to_e5m2_rtne(%x: f16) -> f8E5M2 {
    %y = tt.fp_to_fp %x, rounding = rtne : f16 -> f8E5M2
    tt.return %y : f8E5M2
  }

  // f8E4M3FN -> f32: rebias (127 - 7) << 23, subnormals m * 2^-9, NaN for
  // S.1111.111.
  // CHECK-LABEL: llvm.func @e4m3_to_f32(
  // CHECK: llvm.zext %{{.*}} : i8 to i32
  // CHECK: llvm.mlir.constant(1006632960 : i32) : i32
  // CHECK: llvm.uitofp %{{.*}} : i32 to f32
  // CHECK: llvm.mlir.constant(0.001953125 : f32) : f32
  // CHECK: llvm.mlir.constant(2143289344 : i32) : i32
  // CHECK: llvm.mlir.constant(127 : i32) : i32
  // CHECK: llvm.mlir.constant(24 : i32) : i32
  // CHECK: llvm.bitcast %{{.*}} : i32 to f32
  tt.func public @e4m3_to_f32(%x: f8E4M3FN) -> f32 {
    %y = tt.fp_to_fp %x : f8E4M3FN -> f32
    tt.return %y : f32
  }

  // f8E5M2 -> f16: the e5m2 byte is the f16's top byte (same exponent and
  // bias), so a shift by 8; a NaN (magnitude above 0x7C00) becomes the
  // canonical 0x7E00 with its sign. No trip through f32.
  // CHECK-LABEL: llvm.func @e5m2_to_f16(
  // CHECK: %[[X:.*]] = llvm.zext %{{.*}} : i8 to i16
  // CHECK: %[[R:.*]] = llvm.shl %[[X]], %{{.*}} : i16
  // CHECK: %[[ABS:.*]] = llvm.and %[[R]], %{{.*}} : i16
  // CHECK: %[[NAN:.*]] = llvm.icmp "ugt" %[[ABS]], %{{.*}} : i16
  // CHECK: %[[Q:.*]] = llvm.select %[[NAN]], %{{.*}}, %[[R]] : i1, i16
  // CHECK-NEXT: llvm.bitcast %[[Q]] : i16 to f16
  // CHECK-NOT: llvm.uitofp
  // CHECK: llvm.return
  tt.func public @e5m2_to_f16(%x: f8E5M2) -> f16 {
    %y = tt.fp_to_fp %x : f8E5M2 -> f16
    tt.return %y : f16
  }

  // f8E4M3FN -> f16 in 16-bit integer ops: normals rebiased in place
  // (+ 0x2000 over the bits moved up by 7), the subnormals by the top bit of
  // their mantissa, S.1111.111 the canonical NaN. No trip through f32.
  // CHECK-LABEL: llvm.func @e4m3_to_f16(
  // CHECK: llvm.zext %{{.*}} : i8 to i16
  // CHECK-DAG: llvm.mlir.constant(8192 : i16) : i16
  // CHECK-DAG: llvm.mlir.constant(7168 : i16) : i16
  // CHECK-DAG: llvm.mlir.constant(6144 : i16) : i16
  // CHECK-DAG: llvm.mlir.constant(32256 : i16) : i16
  // CHECK: llvm.bitcast %{{.*}} : i16 to f16
  // CHECK-NOT: llvm.uitofp
  // CHECK: llvm.return
  tt.func public @e4m3_to_f16(%x: f8E4M3FN) -> f16 {
    %y = tt.fp_to_fp %x : f8E4M3FN -> f16
    tt.return %y : f16
  }

  // f8E5M2 -> bf16: exact through f32 (rebias 112, subnormals m * 2^-16),
  // then the f32 -> bf16 narrowing, exact here.
  // CHECK-LABEL: llvm.func @e5m2_to_bf16(
  // CHECK: llvm.mlir.constant(939524096 : i32) : i32
  // CHECK: llvm.mlir.constant(1.52587891E-5 : f32) : f32
  // CHECK: llvm.mlir.constant(2139095040 : i32) : i32
  // CHECK: llvm.mlir.constant(16 : i32) : i32
  // CHECK: llvm.mlir.constant(32639 : i32) : i32
  // CHECK: llvm.mlir.constant(32640 : i32) : i32
  // CHECK: llvm.mlir.constant(32704 : i32) : i32
  // CHECK: %[[B:.*]] = llvm.trunc %{{.*}} : i32 to i16
  // CHECK: llvm.bitcast %[[B]] : i16 to bf16
  tt.func public @e5m2_to_bf16(%x: f8E5M2) -> bf16 {
    %y = tt.fp_to_fp %x : f8E5M2 -> bf16
    tt.return %y : bf16
  }

  // f32 -> f8E4M3B11FNUZ (bias 11, no inf, no -0, NaN 0x80): saturate at
  // 0x7F; a zero result drops the sign; NaN is 0x80.
  // CHECK-LABEL: llvm.func @f32_to_e4b15(
  // CHECK: llvm.mlir.constant(116 : i32) : i32
  // CHECK: llvm.mlir.constant(973078528 : i32) : i32
  // CHECK: llvm.mlir.constant(127 : i32) : i32
  // CHECK: llvm.mlir.constant(128 : i32) : i32
  // CHECK: llvm.trunc %{{.*}} : i32 to i8
  tt.func public @f32_to_e4b15(%x: f32) -> f8E4M3B11FNUZ {
    %y = tt.fp_to_fp %x, rounding = rtne : f32 -> f8E4M3B11FNUZ
    tt.return %y : f8E4M3B11FNUZ
  }

  // f64 -> f32 rtz works on the i64 bits: rebias 896, 29 bits dropped,
  // overflow gives 0x7F7FFFFF.
  // CHECK-LABEL: llvm.func @f64_to_f32_rtz(
  // CHECK: llvm.bitcast %{{.*}} : f64 to i64
  // CHECK: llvm.mlir.constant(896 : i64) : i64
  // CHECK: llvm.mlir.constant(4035225266123964416 : i64) : i64
  // CHECK: llvm.mlir.constant(29 : i64) : i64
  // CHECK: llvm.mlir.constant(2139095039 : i64) : i64
  // CHECK: %[[F:.*]] = llvm.trunc %{{.*}} : i64 to i32
  // CHECK: llvm.bitcast %[[F]] : i32 to f32
  tt.func public @f64_to_f32_rtz(%x: f64) -> f32 {
    %y = tt.fp_to_fp %x, rounding = rtz : f64 -> f32
    tt.return %y : f32
  }
}
