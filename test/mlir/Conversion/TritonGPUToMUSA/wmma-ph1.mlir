// musagpu.wmma on PH1 (mp_31, 32-lane warps): m16n16k16 atoms (the open MUSA
// backend's shape and fragments: A and B 8 x 16-bit values per lane packed
// into four i32, C 8 f32). 32x16x32 bf16 with one warp: two atoms along M,
// two K steps each: four instructions per thread, two chains of two, the
// second chain starting from its own accumulator fragment.
// RUN: musa-opt %s -convert-tritongpu-to-musa -o %t.musa.mlir
// RUN: FileCheck %s --check-prefix=MUSA --input-file=%t.musa.mlir
// RUN: musa-translate --musa-to-llvmir --musa-arch=mp_31 %t.musa.mlir -o %t.mp_31.ll
// RUN: %check-llvm14 %t.mp_31.ll
// RUN: FileCheck %s --check-prefix=LL --input-file=%t.mp_31.ll
// RUN: musa-opt %s -convert-tritongpu-to-musa=target=emulator -cse | FileCheck %s --check-prefix=EMU --implicit-check-not=llvm.musa.

#wmma = #musagpu.wmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [1, 1], instrShape = [16, 16, 16]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // MUSA-LABEL: llvm.func @wmma_ph1_bf16(
  // MUSA-COUNT-4: llvm.call @llvm.musa.bfmma.m16n16k16.mma(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {{.*}}: (vector<4xi32>, vector<4xi32>, vector<8xi32>, i32, i32, i32) -> vector<8xi32>
  // MUSA-NOT: llvm.call @llvm.musa.bfmma
  // MUSA: llvm.return
  // sat = 1, fmt = 1, layout = 1 (A row-major, B column-major fragments).
  // LL-LABEL: define {{.*}} @wmma_ph1_bf16(
  // LL: %[[D0:.*]] = tail call <8 x i32> @llvm.musa.bfmma.m16n16k16.mma(<4 x i32> %{{.*}}, <4 x i32> %{{.*}}, <8 x i32> %[[C0:.*]], i32 1, i32 1, i32 1)
  // LL: %[[D1:.*]] = tail call <8 x i32> @llvm.musa.bfmma.m16n16k16.mma(<4 x i32> %{{.*}}, <4 x i32> %{{.*}}, <8 x i32> %[[D0]], i32 1, i32 1, i32 1)
  // LL-NOT: <8 x i32> %[[D1]]
  // LL: %[[D2:.*]] = tail call <8 x i32> @llvm.musa.bfmma.m16n16k16.mma(<4 x i32> %{{.*}}, <4 x i32> %{{.*}}, <8 x i32> %[[C1:.*]], i32 1, i32 1, i32 1)
  // LL: tail call <8 x i32> @llvm.musa.bfmma.m16n16k16.mma(<4 x i32> %{{.*}}, <4 x i32> %{{.*}}, <8 x i32> %[[D2]], i32 1, i32 1, i32 1)
  // LL-NOT: @llvm.musa.bfmma
  // The emulator's WMMA: kind, m, n, k, then the fragments.
  // EMU-LABEL: llvm.func @wmma_ph1_bf16(
  // EMU-DAG: %[[SIXTEEN:.*]] = llvm.mlir.constant(16 : i32) : i32
  // EMU-COUNT-4: llvm.call @__musa_emu_wmma(%{{.*}}, %[[SIXTEEN]], %[[SIXTEEN]], %[[SIXTEEN]], %{{.*}}, %{{.*}}, %{{.*}})
  // EMU-NOT: llvm.call @__musa_emu_wmma
  // EMU: llvm.return
  tt.func public @wmma_ph1_bf16(%a: tensor<32x32xbf16, #musagpu.wmma_operand<{opIdx = 0, parent = #wmma}>>, %b: tensor<32x16xbf16, #musagpu.wmma_operand<{opIdx = 1, parent = #wmma}>>, %c: tensor<32x16xf32, #wmma>) {
    %d = musagpu.wmma %a, %b, %c : tensor<32x32xbf16, #musagpu.wmma_operand<{opIdx = 0, parent = #wmma}>>, tensor<32x16xbf16, #musagpu.wmma_operand<{opIdx = 1, parent = #wmma}>> -> tensor<32x16xf32, #wmma>
    tt.return
  }
}
