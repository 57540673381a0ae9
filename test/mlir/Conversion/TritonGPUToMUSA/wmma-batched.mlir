// A batched (rank-3) musagpu.wmma: per batch the same chain of m32n32k16
// atoms over K as a 2-D dot. 4x32x32x32 on QY2 with warpsPerCTA [2, 1, 1]:
// warp w holds batches w and w + 2 (the second in further registers), one
// 32x32 atom each, and two K steps of 16: four instructions per thread, two
// chains of two, the second chain starting from its own batch's
// accumulator, not from the first chain's result.
// RUN: musa-opt %s -convert-tritongpu-to-musa -o %t.musa.mlir
// RUN: FileCheck %s --check-prefix=MUSA --input-file=%t.musa.mlir
// RUN: musa-translate --musa-to-llvmir --musa-arch=mp_22 %t.musa.mlir -o %t.mp_22.ll
// RUN: %check-llvm14 %t.mp_22.ll
// RUN: FileCheck %s --check-prefix=LL --input-file=%t.mp_22.ll
// RUN: musa-opt %s -convert-tritongpu-to-musa=target=emulator | FileCheck %s --check-prefix=EMU --implicit-check-not=llvm.musa.

#wmma = #musagpu.wmma<{versionMajor = 2, versionMinor = 2, warpsPerCTA = [2, 1, 1], instrShape = [32, 32, 16]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  // MUSA-LABEL: llvm.func @wmma_batched(
  // MUSA-COUNT-4: llvm.call @llvm.musa.ffmma.m32n32k16.mma(
  // MUSA-NOT: llvm.call @llvm.musa.ffmma
  // MUSA: llvm.return
  // LL-LABEL: define {{.*}} @wmma_batched(
  // LL: %[[D0:.*]] = tail call <8 x i32> @llvm.musa.ffmma.m32n32k16.mma(<2 x i32> %{{.*}}, <2 x i32> %{{.*}}, <8 x i32> %[[C0:.*]], i32 1, i32 1, i32 1)
  // LL: %[[D1:.*]] = tail call <8 x i32> @llvm.musa.ffmma.m32n32k16.mma(<2 x i32> %{{.*}}, <2 x i32> %{{.*}}, <8 x i32> %[[D0]], i32 1, i32 1, i32 1)
  // LL-NOT: <8 x i32> %[[D1]]
  // LL: %[[D2:.*]] = tail call <8 x i32> @llvm.musa.ffmma.m32n32k16.mma(<2 x i32> %{{.*}}, <2 x i32> %{{.*}}, <8 x i32> %[[C1:.*]], i32 1, i32 1, i32 1)
  // LL: tail call <8 x i32> @llvm.musa.ffmma.m32n32k16.mma(<2 x i32> %{{.*}}, <2 x i32> %{{.*}}, <8 x i32> %[[D2]], i32 1, i32 1, i32 1)
  // LL-NOT: @llvm.musa.ffmma
  // EMU-LABEL: llvm.func @wmma_batched(
  // EMU-COUNT-4: llvm.call @__musa_emu_wmma(
  // EMU-NOT: llvm.call @__musa_emu_wmma
  // EMU: llvm.return
  tt.func public @wmma_batched(%a: tensor<4x32x32xf16, #musagpu.wmma_operand<{opIdx = 0, parent = #wmma}>>, %b: tensor<4x32x32xf16, #musagpu.wmma_operand<{opIdx = 1, parent = #wmma}>>, %c: tensor<4x32x32xf32, #wmma>, %out: !tt.ptr<f32>) {
    %d = musagpu.wmma %a, %b, %c : tensor<4x32x32xf16, #musagpu.wmma_operand<{opIdx = 0, parent = #wmma}>>, tensor<4x32x32xf16, #musagpu.wmma_operand<{opIdx = 1, parent = #wmma}>> -> tensor<4x32x32xf32, #wmma>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<4x32x32x!tt.ptr<f32>, #wmma>
    tt.store %p, %d : tensor<4x32x32x!tt.ptr<f32>, #wmma>
    tt.return
  }
}
