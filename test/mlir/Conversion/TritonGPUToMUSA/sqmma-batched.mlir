// A batched (rank-3) musagpu.sqmma: per batch the 2-D instruction chain,
// each batch's descriptors pointing into the 3-D operand buffers, which hold
// the batch outermost (order [2, 1, 0]): batch b's 64x32 f16 A starts
// b * 4096 bytes in, its 32x64 B b * 4096 bytes into B's buffer.
// 2x64x64x32 with warpsPerCTA [1, 4, 1]: one squad holds both batches, one
// m64n64k32 each (the second in the next 32 accumulator registers), so two
// instructions, neither chained on the other, then one wait.
// RUN: musa-opt %s --musa-allocate-shared-memory=arch=mp_31 --musa-insert-barriers=arch=mp_31 --convert-tritongpu-to-musa=arch=mp_31 -o %t.musa.mlir
// RUN: musa-translate --musa-to-llvmir --musa-arch=mp_31 %t.musa.mlir -o %t.ll
// RUN: FileCheck %s --check-prefix=MUSA --input-file=%t.ll
// RUN: %check-llvm14 %t.ll
// RUN: musa-opt %s --musa-allocate-shared-memory=arch=mp_31 --musa-insert-barriers=arch=mp_31 --convert-tritongpu-to-musa="arch=mp_31 target=emulator" | FileCheck %s --check-prefix=EMU --implicit-check-not=llvm.musa.

// MUSA-LABEL: define cc102 void @sqmma_batched(
// MUSA: %[[EA0:.*]] = load i16, ptr addrspace(3) @global_smem
// MUSA-NEXT: %[[DA0:.*]] = tail call i32 @llvm.musa.sqmma.desc.half(i16 %[[EA0]], i32 64, i32 1, i32 3)
// MUSA-NEXT: %[[EB0:.*]] = load i16, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 8192)
// MUSA-NEXT: %[[DB0:.*]] = tail call i32 @llvm.musa.sqmma.desc.half(i16 %[[EB0]], i32 128, i32 2, i32 3)
// MUSA: %[[D0:.*]] = tail call <32 x i32> @llvm.musa.sqmma.fmma.m64n64k32.mma(i32 %[[DA0]], i32 %[[DB0]], <32 x i32> %{{.*}}, i32 0, i32 0,
// MUSA-NEXT: %[[EA1:.*]] = load i16, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096)
// MUSA-NEXT: %[[DA1:.*]] = tail call i32 @llvm.musa.sqmma.desc.half(i16 %[[EA1]], i32 64, i32 1, i32 3)
// MUSA-NEXT: %[[EB1:.*]] = load i16, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 12288)
// MUSA-NEXT: %[[DB1:.*]] = tail call i32 @llvm.musa.sqmma.desc.half(i16 %[[EB1]], i32 128, i32 2, i32 3)
// MUSA-NOT: <32 x i32> %[[D0]]
// MUSA: tail call <32 x i32> @llvm.musa.sqmma.fmma.m64n64k32.mma(i32 %[[DA1]], i32 %[[DB1]], <32 x i32> %{{.*}}, i32 0, i32 0,
// MUSA-NOT: @llvm.musa.sqmma.fmma
// MUSA: call void @llvm.musa.sqmma.wait()
// MUSA-NOT: @llvm.musa.sqmma.wait
// EMU-LABEL: llvm.func @sqmma_batched(
// EMU-COUNT-2: llvm.call @__musa_emu_sqmma(
// EMU-NOT: llvm.call @__musa_emu_sqmma(
// EMU: llvm.call @__musa_emu_sqmma_wait()
// EMU-NOT: llvm.call @__musa_emu_sqmma

#blocked = #ttg.blocked<{sizePerThread = [1, 4, 4], threadsPerWarp = [1, 4, 8], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
#sa = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [2, 1, 0]}>
#sb = #musagpu.tme_shared<{swizzleGranularity = b32, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [2, 1, 0]}>
#smem = #ttg.shared_memory
#sqmma = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [1, 4, 1], instrShape = [64, 64, 32]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @sqmma_batched(%a: tensor<2x64x32xf16, #blocked>, %b: tensor<2x32x64xf16, #blocked>, %c: tensor<2x64x64xf32, #sqmma>, %out: !tt.ptr<f32>) {
    %sa = ttg.local_alloc %a {alignment = 4096 : i32} : (tensor<2x64x32xf16, #blocked>) -> !ttg.memdesc<2x64x32xf16, #sa, #smem>
    %sb = ttg.local_alloc %b {alignment = 2048 : i32} : (tensor<2x32x64xf16, #blocked>) -> !ttg.memdesc<2x32x64xf16, #sb, #smem>
    %d = musagpu.sqmma %sa, %sb, %c : !ttg.memdesc<2x64x32xf16, #sa, #smem>, !ttg.memdesc<2x32x64xf16, #sb, #smem> -> tensor<2x64x64xf32, #sqmma>
    %w = musagpu.sqmma_wait %d : tensor<2x64x64xf32, #sqmma>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<2x64x64x!tt.ptr<f32>, #sqmma>
    tt.store %p, %w : tensor<2x64x64x!tt.ptr<f32>, #sqmma>
    tt.return
  }
}
