// tt.dot on the FMA path: each accumulator register gets a fully unrolled K
// loop of multiply-adds over the operand registers that the linear layouts
// say hold (m, k) and (k, n); operands are widened to the accumulator type.
// The mp_22 twin uses the same register arrangement with 128-thread warps
// (the extra lanes hold copies), so the same checks apply.
// RUN: musa-opt %s -convert-tritongpu-to-musa=arch=mp_31 -o %t.mp_31.mlir
// RUN: FileCheck %s --input-file=%t.mp_31.mlir
// RUN: musa-translate --musa-to-llvmir --musa-arch=mp_31 %t.mp_31.mlir -o %t.mp_31.ll
// RUN: %check-llvm14 %t.mp_31.ll
// RUN: musa-opt %S/Inputs/dot-fma.mp_22.mlir -convert-tritongpu-to-musa=arch=mp_22 -o %t.mp_22.mlir
// RUN: FileCheck %s --input-file=%t.mp_22.mlir

// A 32x4 holds per thread (m, k) in register m_local * 4 + k, B 4x16 holds
// (k, n) in register k * 2 + n_local, C 32x16 holds (m, n) in register
// m_local * 2 + n_local.
#blocked = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [2, 1, 1], threadsPerWarp = [1, 4, 8], warpsPerCTA = [1, 2, 2], order = [2, 1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @dot_f32(
  // CHECK: %[[A0:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  // CHECK: %[[A1:.*]] = llvm.extractvalue %{{.*}}[1]
  // CHECK: %[[A2:.*]] = llvm.extractvalue %{{.*}}[2]
  // CHECK: %[[A3:.*]] = llvm.extractvalue %{{.*}}[3]
  // CHECK: %[[A4:.*]] = llvm.extractvalue %{{.*}}[4]
  // CHECK: %[[A5:.*]] = llvm.extractvalue %{{.*}}[5]
  // CHECK: %[[A6:.*]] = llvm.extractvalue %{{.*}}[6]
  // CHECK: %[[A7:.*]] = llvm.extractvalue %{{.*}}[7]
  // CHECK: %[[B0:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  // CHECK: %[[B1:.*]] = llvm.extractvalue %{{.*}}[1]
  // CHECK: %[[B2:.*]] = llvm.extractvalue %{{.*}}[2]
  // CHECK: %[[B3:.*]] = llvm.extractvalue %{{.*}}[3]
  // CHECK: %[[B4:.*]] = llvm.extractvalue %{{.*}}[4]
  // CHECK: %[[B5:.*]] = llvm.extractvalue %{{.*}}[5]
  // CHECK: %[[B6:.*]] = llvm.extractvalue %{{.*}}[6]
  // CHECK: %[[B7:.*]] = llvm.extractvalue %{{.*}}[7]
  // CHECK: %[[C0:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.struct<(f32, f32, f32, f32)>
  // CHECK: %[[C1:.*]] = llvm.extractvalue %{{.*}}[1]
  // CHECK: %[[C2:.*]] = llvm.extractvalue %{{.*}}[2]
  // CHECK: %[[C3:.*]] = llvm.extractvalue %{{.*}}[3]
  // (m, n) = (0, 0): A(0, k) * B(k, 0)
  // CHECK: %[[S0:.*]] = llvm.intr.fmuladd(%[[A0]], %[[B0]], %[[C0]]) : (f32, f32, f32) -> f32
  // CHECK: %[[S1:.*]] = llvm.intr.fmuladd(%[[A1]], %[[B2]], %[[S0]])
  // CHECK: %[[S2:.*]] = llvm.intr.fmuladd(%[[A2]], %[[B4]], %[[S1]])
  // CHECK: %[[D0:.*]] = llvm.intr.fmuladd(%[[A3]], %[[B6]], %[[S2]])
  // (m, n) = (0, 1)
  // CHECK: %[[T0:.*]] = llvm.intr.fmuladd(%[[A0]], %[[B1]], %[[C1]])
  // CHECK: %[[T1:.*]] = llvm.intr.fmuladd(%[[A1]], %[[B3]], %[[T0]])
  // CHECK: %[[T2:.*]] = llvm.intr.fmuladd(%[[A2]], %[[B5]], %[[T1]])
  // CHECK: %[[D1:.*]] = llvm.intr.fmuladd(%[[A3]], %[[B7]], %[[T2]])
  // (m, n) = (1, 0)
  // CHECK: %[[U0:.*]] = llvm.intr.fmuladd(%[[A4]], %[[B0]], %[[C2]])
  // CHECK: %[[U1:.*]] = llvm.intr.fmuladd(%[[A5]], %[[B2]], %[[U0]])
  // CHECK: %[[U2:.*]] = llvm.intr.fmuladd(%[[A6]], %[[B4]], %[[U1]])
  // CHECK: %[[D2:.*]] = llvm.intr.fmuladd(%[[A7]], %[[B6]], %[[U2]])
  // (m, n) = (1, 1)
  // CHECK: %[[V0:.*]] = llvm.intr.fmuladd(%[[A4]], %[[B1]], %[[C3]])
  // CHECK: %[[V1:.*]] = llvm.intr.fmuladd(%[[A5]], %[[B3]], %[[V0]])
  // CHECK: %[[V2:.*]] = llvm.intr.fmuladd(%[[A6]], %[[B5]], %[[V1]])
  // CHECK: %[[D3:.*]] = llvm.intr.fmuladd(%[[A7]], %[[B7]], %[[V2]])
  // CHECK-NOT: llvm.intr.fmuladd
  // CHECK: llvm.insertvalue %[[D0]], %{{.*}}[0] : !llvm.struct<(f32, f32, f32, f32)>
  // CHECK: llvm.insertvalue %[[D1]], %{{.*}}[1]
  // CHECK: llvm.insertvalue %[[D2]], %{{.*}}[2]
  // CHECK: llvm.insertvalue %[[D3]], %{{.*}}[3]
  tt.func public @dot_f32(%a: tensor<32x4xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<4x16xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<32x16xf32, #blocked>) -> tensor<32x16xf32, #blocked> {
    // tf32 on the FMA path is computed in full f32.
    %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<32x4xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<4x16xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<32x16xf32, #blocked>
    tt.return %d : tensor<32x16xf32, #blocked>
  }

  // Operands loaded straight into dot_op layouts; f16 inputs are widened to
  // f32 exactly (bit manipulation), then accumulated in f32. One accumulator
  // and K = 2 per thread.
  // CHECK-LABEL: llvm.func @dot_f16_f32(
  // CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr<1> -> f16
  // CHECK: llvm.bitcast %{{.*}} : f16 to i16
  // CHECK: llvm.mlir.constant(5.96046448E-8 : f32) : f32
  // CHECK: %[[X:.*]] = llvm.bitcast %{{.*}} : i32 to f32
  // CHECK: %[[Y:.*]] = llvm.bitcast %{{.*}} : i32 to f32
  // CHECK: %[[S:.*]] = llvm.intr.fmuladd(%[[X]], %[[Y]], %{{.*}}) : (f32, f32, f32) -> f32
  // CHECK: llvm.intr.fmuladd(%{{.*}}, %{{.*}}, %[[S]]) : (f32, f32, f32) -> f32
  // CHECK-NOT: llvm.intr.fmuladd
  tt.func public @dot_f16_f32(%pa: !tt.ptr<f16>, %pb: !tt.ptr<f16>, %c: tensor<16x8xf32, #blocked1>) -> tensor<16x8xf32, #blocked1> {
    %sa = tt.splat %pa : !tt.ptr<f16> -> tensor<16x2x!tt.ptr<f16>, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>
    %a = tt.load %sa : tensor<16x2x!tt.ptr<f16>, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>
    %sb = tt.splat %pb : !tt.ptr<f16> -> tensor<2x8x!tt.ptr<f16>, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>
    %b = tt.load %sb : tensor<2x8x!tt.ptr<f16>, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>
    %d = tt.dot %a, %b, %c : tensor<16x2xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> * tensor<2x8xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<16x8xf32, #blocked1>
    tt.return %d : tensor<16x8xf32, #blocked1>
  }

  // out_dtype = f16: accumulator and operands widened to f32, the
  // multiply-adds in f32, one rtne rounding of the sum to f16 (per-step f16
  // rounding lost up to 8x the accuracy of NumPy's f32-accumulated result).
  // CHECK-LABEL: llvm.func @dot_f16_f16(
  // CHECK-NOT: (f16, f16, f16) -> f16
  // CHECK: %[[S:.*]] = llvm.intr.fmuladd(%{{.*}}, %{{.*}}, %{{.*}}) : (f32, f32, f32) -> f32
  // CHECK: %[[T:.*]] = llvm.intr.fmuladd(%{{.*}}, %{{.*}}, %[[S]]) : (f32, f32, f32) -> f32
  // CHECK-NOT: llvm.intr.fmuladd
  // CHECK: llvm.trunc %{{.*}} : i32 to i16
  // CHECK: llvm.bitcast %{{.*}} : i16 to f16
  // CHECK: llvm.return
  tt.func public @dot_f16_f16(%a: tensor<16x2xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>, %b: tensor<2x8xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>, %c: tensor<16x8xf16, #blocked1>) -> tensor<16x8xf16, #blocked1> {
    %d = tt.dot %a, %b, %c : tensor<16x2xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> * tensor<2x8xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<16x8xf16, #blocked1>
    tt.return %d : tensor<16x8xf16, #blocked1>
  }

  // bf16 is the top half of an f32.
  // CHECK-LABEL: llvm.func @dot_bf16(
  // CHECK: %[[BITS:.*]] = llvm.bitcast %{{.*}} : bf16 to i16
  // CHECK: %[[WIDE:.*]] = llvm.zext %[[BITS]] : i16 to i32
  // CHECK: %[[SIXTEEN:.*]] = llvm.mlir.constant(16 : i32) : i32
  // CHECK: llvm.shl %[[WIDE]], %[[SIXTEEN]] : i32
  // CHECK: llvm.intr.fmuladd(%{{.*}}, %{{.*}}, %{{.*}}) : (f32, f32, f32) -> f32
  tt.func public @dot_bf16(%a: tensor<16x2xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>, %b: tensor<2x8xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>, %c: tensor<16x8xf32, #blocked1>) -> tensor<16x8xf32, #blocked1> {
    %d = tt.dot %a, %b, %c : tensor<16x2xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> * tensor<2x8xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<16x8xf32, #blocked1>
    tt.return %d : tensor<16x8xf32, #blocked1>
  }

  // int8 x int8 -> int32: sign-extended, mul + add.
  // CHECK-LABEL: llvm.func @dot_i8(
  // CHECK: %[[X:.*]] = llvm.sext %{{.*}} : i8 to i32
  // CHECK: %[[Y:.*]] = llvm.sext %{{.*}} : i8 to i32
  // CHECK: %[[P:.*]] = llvm.mul %[[X]], %[[Y]] : i32
  // CHECK: %[[S:.*]] = llvm.add %{{.*}}, %[[P]] : i32
  // CHECK: llvm.mul
  // CHECK: llvm.add %[[S]], %{{.*}} : i32
  // CHECK-NOT: fmuladd
  tt.func public @dot_i8(%a: tensor<16x2xi8, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>, %b: tensor<2x8xi8, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>, %c: tensor<16x8xi32, #blocked1>) -> tensor<16x8xi32, #blocked1> {
    %d = tt.dot %a, %b, %c : tensor<16x2xi8, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> * tensor<2x8xi8, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<16x8xi32, #blocked1>
    tt.return %d : tensor<16x8xi32, #blocked1>
  }

  // fp8e4nv (i8 after type conversion) decoded exactly: the normal case
  // rebiases the exponent by (127 - 7) << 23, subnormals are m * 2^-9.
  // CHECK-LABEL: llvm.func @dot_fp8e4nv(
  // CHECK: llvm.mlir.constant(1006632960 : i32) : i32
  // CHECK: llvm.mlir.constant(0.001953125 : f32) : f32
  // CHECK: llvm.intr.fmuladd(%{{.*}}, %{{.*}}, %{{.*}}) : (f32, f32, f32) -> f32
  tt.func public @dot_fp8e4nv(%a: tensor<16x2xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>, %b: tensor<2x8xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>, %c: tensor<16x8xf32, #blocked1>) -> tensor<16x8xf32, #blocked1> {
    %d = tt.dot %a, %b, %c : tensor<16x2xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> * tensor<2x8xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<16x8xf32, #blocked1>
    tt.return %d : tensor<16x8xf32, #blocked1>
  }

  // fp8e5: rebias (127 - 15) << 23, subnormals m * 2^-16.
  // CHECK-LABEL: llvm.func @dot_fp8e5(
  // CHECK: llvm.mlir.constant(939524096 : i32) : i32
  // CHECK: llvm.mlir.constant(1.52587891E-5 : f32) : f32
  // CHECK: llvm.intr.fmuladd(%{{.*}}, %{{.*}}, %{{.*}}) : (f32, f32, f32) -> f32
  tt.func public @dot_fp8e5(%a: tensor<16x2xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>, %b: tensor<2x8xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>, %c: tensor<16x8xf32, #blocked1>) -> tensor<16x8xf32, #blocked1> {
    %d = tt.dot %a, %b, %c : tensor<16x2xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> * tensor<2x8xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<16x8xf32, #blocked1>
    tt.return %d : tensor<16x8xf32, #blocked1>
  }

  // CHECK-LABEL: llvm.func @dot_f64(
  // CHECK: %[[S:.*]] = llvm.intr.fmuladd(%{{.*}}, %{{.*}}, %{{.*}}) : (f64, f64, f64) -> f64
  // CHECK: llvm.intr.fmuladd(%{{.*}}, %{{.*}}, %[[S]]) : (f64, f64, f64) -> f64
  tt.func public @dot_f64(%a: tensor<16x2xf64, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>, %b: tensor<2x8xf64, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>, %c: tensor<16x8xf64, #blocked1>) -> tensor<16x8xf64, #blocked1> {
    %d = tt.dot %a, %b, %c, inputPrecision = ieee : tensor<16x2xf64, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> * tensor<2x8xf64, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<16x8xf64, #blocked1>
    tt.return %d : tensor<16x8xf64, #blocked1>
  }

  // Batched: 2 batches, each thread holds both (the top register bit is the
  // batch).
  // A 2x8x2: register = batch * 2 + k; B 2x2x8: register = batch * 2 + k;
  // C: register = batch.
  // CHECK-LABEL: llvm.func @dot_batched(
  // CHECK: %[[A0:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.struct<(f32, f32, f32, f32)>
  // CHECK: %[[A1:.*]] = llvm.extractvalue %{{.*}}[1]
  // CHECK: %[[A2:.*]] = llvm.extractvalue %{{.*}}[2]
  // CHECK: %[[A3:.*]] = llvm.extractvalue %{{.*}}[3]
  // CHECK: %[[B0:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.struct<(f32, f32, f32, f32)>
  // CHECK: %[[B1:.*]] = llvm.extractvalue %{{.*}}[1]
  // CHECK: %[[B2:.*]] = llvm.extractvalue %{{.*}}[2]
  // CHECK: %[[B3:.*]] = llvm.extractvalue %{{.*}}[3]
  // CHECK: %[[C0:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.struct<(f32, f32)>
  // CHECK: %[[C1:.*]] = llvm.extractvalue %{{.*}}[1]
  // CHECK: %[[S0:.*]] = llvm.intr.fmuladd(%[[A0]], %[[B0]], %[[C0]])
  // CHECK: llvm.intr.fmuladd(%[[A1]], %[[B1]], %[[S0]])
  // CHECK: %[[S1:.*]] = llvm.intr.fmuladd(%[[A2]], %[[B2]], %[[C1]])
  // CHECK: llvm.intr.fmuladd(%[[A3]], %[[B3]], %[[S1]])
  // CHECK-NOT: llvm.intr.fmuladd
  tt.func public @dot_batched(%a: tensor<2x8x2xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>>, %b: tensor<2x2x16xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>>, %c: tensor<2x8x16xf32, #blocked2>) -> tensor<2x8x16xf32, #blocked2> {
    %d = tt.dot %a, %b, %c : tensor<2x8x2xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>> * tensor<2x2x16xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>> -> tensor<2x8x16xf32, #blocked2>
    tt.return %d : tensor<2x8x16xf32, #blocked2>
  }
}
