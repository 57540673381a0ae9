// musagpu.wmma with more warps than atoms: 32x32x32 on QY2 with 4 warps is
// one 32x32 atom, warpsPerCTA [1, 4]. The warp bits along N point past the
// tensor and wrap onto the same atom (broadcast), so every warp computes the
// whole atom: each thread holds one accumulator fragment and issues exactly
// two instructions (two K steps), not one per warp column. Converting the
// result back, the four warps hold the same values: only warp 0
// (tid & 384 == 0: the warp bits) writes the scratch.
// RUN: musa-opt %s -musa-allocate-shared-memory -convert-tritongpu-to-musa -o %t.musa.mlir
// RUN: FileCheck %s --check-prefix=MUSA --input-file=%t.musa.mlir
// RUN: musa-translate --musa-to-llvmir --musa-arch=mp_22 %t.musa.mlir -o %t.mp_22.ll
// RUN: %check-llvm14 %t.mp_22.ll
// RUN: FileCheck %s --check-prefix=LL --input-file=%t.mp_22.ll
// RUN: musa-opt %s -musa-allocate-shared-memory -convert-tritongpu-to-musa=target=emulator | FileCheck %s --check-prefix=EMU --implicit-check-not=llvm.musa.

#wmma = #musagpu.wmma<{versionMajor = 2, versionMinor = 2, warpsPerCTA = [1, 4], instrShape = [32, 32, 16]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  // MUSA-LABEL: llvm.func @wmma_replicated(
  // One fragment per operand and accumulator: A and B 2 x 4 f16, C 8 f32.
  // MUSA-SAME: %{{.*}}: !llvm.struct<(f16, f16, f16, f16, f16, f16, f16, f16)>, %{{.*}}: !llvm.struct<(f16, f16, f16, f16, f16, f16, f16, f16)>, %{{.*}}: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  // MUSA-COUNT-2: llvm.call @llvm.musa.ffmma.m32n32k16.mma(
  // MUSA-NOT: llvm.call @llvm.musa.ffmma
  // MUSA-COUNT-8: llvm.store {{.*}} : f32, !llvm.ptr<3>
  // MUSA-NOT: llvm.store {{.*}} !llvm.ptr<3>
  // MUSA: llvm.return
  // LL-LABEL: define {{.*}} @wmma_replicated(
  // LL: %[[D0:.*]] = tail call <8 x i32> @llvm.musa.ffmma.m32n32k16.mma(<2 x i32> %{{.*}}, <2 x i32> %{{.*}}, <8 x i32> %{{.*}}, i32 1, i32 1, i32 1)
  // LL: tail call <8 x i32> @llvm.musa.ffmma.m32n32k16.mma(<2 x i32> %{{.*}}, <2 x i32> %{{.*}}, <8 x i32> %[[D0]], i32 1, i32 1, i32 1)
  // LL-NOT: @llvm.musa.ffmma
  // The scratch stores of the conversion back: warp bits (tid & 384) zero.
  // LL: %[[TID:.*]] = tail call i32 @llvm.musa.read.ptx.sreg.tid.x()
  // LL: %[[WARP:.*]] = and i32 %[[TID]], 384
  // LL-NEXT: %[[OWNER:.*]] = icmp eq i32 %[[WARP]], 0
  // LL-NEXT: br i1 %[[OWNER]], label %[[STORE:.*]], label
  // LL: [[STORE]]:
  // LL-COUNT-8: store float {{.*}}, ptr addrspace(3)
  // LL-NOT: store float {{.*}}, ptr addrspace(3)
  // LL: call void @llvm.musa.syncthreads.lm()
  // EMU-LABEL: llvm.func @wmma_replicated(
  // EMU-COUNT-2: llvm.call @__musa_emu_wmma(
  // EMU-NOT: llvm.call @__musa_emu_wmma
  // EMU: llvm.return
  tt.func public @wmma_replicated(%a: tensor<32x32xf16, #musagpu.wmma_operand<{opIdx = 0, parent = #wmma}>>, %b: tensor<32x32xf16, #musagpu.wmma_operand<{opIdx = 1, parent = #wmma}>>, %c: tensor<32x32xf32, #wmma>, %p: tensor<32x32x!tt.ptr<f32>, #blocked>) {
    %d = musagpu.wmma %a, %b, %c : tensor<32x32xf16, #musagpu.wmma_operand<{opIdx = 0, parent = #wmma}>>, tensor<32x32xf16, #musagpu.wmma_operand<{opIdx = 1, parent = #wmma}>> -> tensor<32x32xf32, #wmma>
    %e = ttg.convert_layout %d : tensor<32x32xf32, #wmma> -> tensor<32x32xf32, #blocked>
    tt.store %p, %e : tensor<32x32x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
