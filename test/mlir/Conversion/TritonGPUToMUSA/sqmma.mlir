// musagpu.sqmma / musagpu.sqmma_wait: per accumulator fragment and K step,
// one descriptor per operand tile (the element loaded from the tile start,
// the leading stride in bytes, the swizzle granularity and stride codes) and
// one llvm.musa.sqmma.<kind>.m<M>n<N>k<K>.mma chained through the
// accumulator, then a single llvm.musa.sqmma.wait(). On the emulator the same
// hooks are runtime calls that take the tile's shared address.
// RUN: musa-opt %s --musa-allocate-shared-memory=arch=mp_31 --musa-insert-barriers=arch=mp_31 --convert-tritongpu-to-musa=arch=mp_31 -o %t.musa.mlir
// RUN: musa-translate --musa-to-llvmir --musa-arch=mp_31 %t.musa.mlir -o %t.ll
// RUN: FileCheck %s --check-prefix=MUSA --input-file=%t.ll
// RUN: %check-llvm14 %t.ll
// RUN: musa-opt %s --musa-allocate-shared-memory=arch=mp_31 --musa-insert-barriers=arch=mp_31 --convert-tritongpu-to-musa="arch=mp_31 target=emulator" | FileCheck %s --check-prefix=EMU --implicit-check-not=llvm.musa.
// RUN: musa-opt %S/Inputs/sqmma.8warps.mlir --musa-allocate-shared-memory=arch=mp_31 --musa-insert-barriers=arch=mp_31 --convert-tritongpu-to-musa=arch=mp_31 -o %t.8.musa.mlir
// RUN: musa-translate --musa-to-llvmir --musa-arch=mp_31 %t.8.musa.mlir -o %t.8.ll
// RUN: FileCheck %s --check-prefix=MUSA8 --input-file=%t.8.ll
// RUN: %check-llvm14 %t.8.ll
// RUN: musa-opt %S/Inputs/sqmma.8warps.mlir --musa-allocate-shared-memory=arch=mp_31 --musa-insert-barriers=arch=mp_31 --convert-tritongpu-to-musa="arch=mp_31 target=emulator" | FileCheck %s --check-prefix=EMU8 --implicit-check-not=llvm.musa.

// 64x64x32 f16 with m64n64k16 on one squad: two K steps. A (64x32, K-major,
// 64-byte rows, 16-byte granules) at offset 0, B (32x64, N-major, 128-byte
// rows, 32-byte granules) at 4096; the second step starts 16 elements (32
// bytes) into A's rows and 16 rows (2048 bytes) down B. A block barrier
// separates the stores into the buffers from the descriptors' reads.
// MUSA-LABEL: define cc102 void @sqmma_f16(
// MUSA: call void @llvm.musa.syncthreads.lm()
// MUSA: %[[EA0:.*]] = load i16, ptr addrspace(3) @global_smem
// MUSA-NEXT: %[[DA0:.*]] = tail call i32 @llvm.musa.sqmma.desc.half(i16 %[[EA0]], i32 64, i32 1, i32 3)
// MUSA-NEXT: %[[EB0:.*]] = load i16, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096)
// MUSA-NEXT: %[[DB0:.*]] = tail call i32 @llvm.musa.sqmma.desc.half(i16 %[[EB0]], i32 128, i32 2, i32 3)
// MUSA-NOT: @llvm.musa.sqmma.wait
// MUSA: %[[D0:.*]] = tail call <32 x i32> @llvm.musa.sqmma.fmma.m64n64k16.mma(i32 %[[DA0]], i32 %[[DB0]], <32 x i32> %{{.*}}, i32 0, i32 0, i32 0, i32 0, i32 1, i32 0, i32 0, i32 0, i32 0)
// MUSA-NEXT: %[[EA1:.*]] = load i16, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 32)
// MUSA-NEXT: %[[DA1:.*]] = tail call i32 @llvm.musa.sqmma.desc.half(i16 %[[EA1]], i32 64, i32 1, i32 3)
// MUSA-NEXT: %[[EB1:.*]] = load i16, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 6144)
// MUSA-NEXT: %[[DB1:.*]] = tail call i32 @llvm.musa.sqmma.desc.half(i16 %[[EB1]], i32 128, i32 2, i32 3)
// MUSA-NEXT: %{{.*}} = tail call <32 x i32> @llvm.musa.sqmma.fmma.m64n64k16.mma(i32 %[[DA1]], i32 %[[DB1]], <32 x i32> %[[D0]],
// MUSA-NOT: @llvm.musa.sqmma.fmma
// MUSA: call void @llvm.musa.sqmma.wait()
// MUSA-NOT: @llvm.musa.sqmma.wait
// MUSA: store float
// EMU-LABEL: llvm.func @sqmma_f16(
// EMU: %[[A:.*]] = llvm.call @__musa_emu_sqmma_desc(%{{.*}}) {{.*}} : (!llvm.ptr<3>, i32, i32, i32) -> i32
// EMU: %[[B:.*]] = llvm.call @__musa_emu_sqmma_desc(%{{.*}}) {{.*}} : (!llvm.ptr<3>, i32, i32, i32) -> i32
// EMU: llvm.call @__musa_emu_sqmma(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[A]], %[[B]], %{{.*}}, %{{.*}}, %{{.*}}) {{.*}} : (i32, i32, i32, i32, i32, i32, i32, i32, !llvm.ptr) -> ()
// EMU: llvm.call @__musa_emu_sqmma(
// EMU-NOT: llvm.call @__musa_emu_sqmma(
// EMU: llvm.call @__musa_emu_sqmma_wait()
// EMU-NOT: llvm.call @__musa_emu_sqmma

// bf16, both operands column-major (transA = transB = 1): A M-major with
// 32-byte granules and 128-byte rows, B K-major with 16-byte granules and
// 32-byte rows. 8 warps as two squads along N (warpsPerCTA [4, 2]): the
// second squad's B tile starts 32 columns (32 rows of 32 bytes = 1024
// bytes) further, chosen by warp bit 2 (thread id bit 7) at run time.
// MUSA8-LABEL: define cc102 void @sqmma_bf16_trans(
// MUSA8: %[[TID:.*]] = tail call i32 @llvm.musa.read.ptx.sreg.tid.x()
// MUSA8: %[[T8:.*]] = shl i32 %[[TID]], 3
// MUSA8-NEXT: %[[OFF:.*]] = and i32 %[[T8]], 1024
// MUSA8-NEXT: %[[PB:.*]] = getelementptr i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096), i32 %[[OFF]]
// MUSA8-NEXT: %[[EA:.*]] = load i16, ptr addrspace(3) @global_smem
// MUSA8-NEXT: %[[DA:.*]] = tail call i32 @llvm.musa.sqmma.desc.half(i16 %[[EA]], i32 128, i32 2, i32 3)
// MUSA8-NEXT: %[[EB:.*]] = load i16, ptr addrspace(3) %[[PB]]
// MUSA8-NEXT: %[[DB:.*]] = tail call i32 @llvm.musa.sqmma.desc.half(i16 %[[EB]], i32 32, i32 1, i32 3)
// MUSA8: tail call <16 x i32> @llvm.musa.sqmma.bfmma.m64n32k16.mma(i32 %[[DA]], i32 %[[DB]], <16 x i32> %{{.*}}, i32 1, i32 1, i32 0, i32 0, i32 1, i32 0, i32 0, i32 0, i32 0)
// MUSA8-NOT: @llvm.musa.sqmma.bfmma
// MUSA8: call void @llvm.musa.sqmma.wait()
// EMU8-LABEL: llvm.func @sqmma_bf16_trans(
// EMU8: llvm.call @__musa_emu_sqmma(
// EMU8: llvm.call @__musa_emu_sqmma_wait()

#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sa = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#sb = #musagpu.tme_shared<{swizzleGranularity = b32, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
#sqmma = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @sqmma_f16(%a: tensor<64x32xf16, #blocked>, %b: tensor<32x64xf16, #blocked>, %c: tensor<64x64xf32, #sqmma>, %out: !tt.ptr<f32>) {
    %sa = ttg.local_alloc %a {alignment = 4096 : i32} : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #sa, #smem>
    %sb = ttg.local_alloc %b {alignment = 2048 : i32} : (tensor<32x64xf16, #blocked>) -> !ttg.memdesc<32x64xf16, #sb, #smem>
    %d = musagpu.sqmma %sa, %sb, %c : !ttg.memdesc<64x32xf16, #sa, #smem>, !ttg.memdesc<32x64xf16, #sb, #smem> -> tensor<64x64xf32, #sqmma>
    %w = musagpu.sqmma_wait %d : tensor<64x64xf32, #sqmma>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #sqmma>
    tt.store %p, %w : tensor<64x64x!tt.ptr<f32>, #sqmma>
    tt.return
  }
}

