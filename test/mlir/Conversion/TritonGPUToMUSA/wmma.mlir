// musagpu.wmma: one instruction per (accumulator atom, K step), chained
// through the accumulator. 64x64x32 on QY2 with warpsPerCTA [2, 2]: each
// warp owns one 32x32 atom of C and takes two K steps of 16, so each thread
// issues exactly two instructions, the second on the first's result.
// RUN: musa-opt %s -convert-tritongpu-to-musa -o %t.musa.mlir
// RUN: FileCheck %s --check-prefix=MUSA --input-file=%t.musa.mlir
// RUN: musa-translate --musa-to-llvmir --musa-arch=mp_22 %t.musa.mlir -o %t.mp_22.ll
// RUN: %check-llvm14 %t.mp_22.ll
// RUN: musa-opt %s -convert-tritongpu-to-musa=target=emulator | FileCheck %s --check-prefix=EMU --implicit-check-not=llvm.musa.

#wmma = #musagpu.wmma<{versionMajor = 2, versionMinor = 2, warpsPerCTA = [2, 2], instrShape = [32, 32, 16]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  // MUSA-LABEL: llvm.func @wmma_f16(
  // Fragments: A and B two i32 of two f16 each, C eight f32 as i32; sat = 1,
  // fmt = 1, layout = 1 (A row-major, B column-major).
  // MUSA: %[[D0:.*]] = llvm.call @llvm.musa.ffmma.m32n32k16.mma(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {{.*}}: (vector<2xi32>, vector<2xi32>, vector<8xi32>, i32, i32, i32) -> vector<8xi32>
  // MUSA-NOT: llvm.call @llvm.musa.ffmma
  // MUSA: llvm.extractelement %[[D0]]
  // MUSA-NOT: llvm.call @llvm.musa.ffmma
  // MUSA: llvm.call @llvm.musa.ffmma.m32n32k16.mma(
  // MUSA-NOT: llvm.call @llvm.musa.ffmma
  // MUSA: llvm.return
  // EMU-LABEL: llvm.func @wmma_f16(
  // EMU-COUNT-2: llvm.call @__musa_emu_wmma(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {{.*}}: (i32, i32, i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  // EMU-NOT: llvm.call @__musa_emu_wmma
  // EMU: llvm.return
  tt.func public @wmma_f16(%a: tensor<64x32xf16, #musagpu.wmma_operand<{opIdx = 0, parent = #wmma}>>, %b: tensor<32x64xf16, #musagpu.wmma_operand<{opIdx = 1, parent = #wmma}>>, %c: tensor<64x64xf32, #wmma>) {
    %d = musagpu.wmma %a, %b, %c : tensor<64x32xf16, #musagpu.wmma_operand<{opIdx = 0, parent = #wmma}>>, tensor<32x64xf16, #musagpu.wmma_operand<{opIdx = 1, parent = #wmma}>> -> tensor<64x64xf32, #wmma>
    tt.return
  }
}
