// musagpu.sqmma on the GPU proxy (target=proxy): SQMMA as Hopper wgmma. One
// m128n64k64 f16 instruction of one squad is 2 (M / 64) x 4 (K / 16)
// wgmma.mma_async.m64n64k16 between one wgmma.fence and one commit_group,
// each on 64-bit shared-memory descriptors. The operand tiles are stored by
// the threads (generic proxy): each local_alloc ends in the
// fence.proxy.async that makes its writes visible to wgmma, before the
// barrier, and the wgmma itself has none; musagpu.sqmma_wait is
// wgmma.wait_group 0 with the accumulators tied through it. The operand
// buffers carry the proxy's swizzle codes (16-byte granules, 128-byte
// stride and line: Hopper's 128B swizzle), so the descriptors say 128B
// swizzle (mode 1 in bits 62-63) and a stride byte offset of 8 rows of
// 128 bytes (1024 >> 4 = 64 in bits 32-45). The NVPTX backend turns the
// result into PTX for sm_90a that the triton wheel's ptxas accepts.
// The accumulator is in the proxy's rows' fragment (wgmma_warpgroup), the
// layout wgmma holds it in.
// RUN: musa-opt %s --musa-allocate-shared-memory=arch=mp_31 --musa-insert-barriers=arch=mp_31 --convert-tritongpu-to-musa="arch=mp_31 target=proxy" -o %t.mlir
// RUN: musa-translate --proxy-to-nvptx-llvmir %t.mlir -o %t.ll
// RUN: FileCheck %s --check-prefix=LLIR --input-file=%t.ll --implicit-check-not=llvm.musa.
// RUN: FileCheck %s --check-prefix=ASM --input-file=%t.ll
// RUN: musa-translate --proxy-to-nvptx-llvmir --emit-ptx %t.mlir -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t.ptx
// RUN: %ptxas --gpu-name=sm_90a %t.ptx -o %t.cubin
// RUN: musa-opt %S/Inputs/sqmma-proxy.8warps.mlir --musa-allocate-shared-memory=arch=mp_31 --musa-insert-barriers=arch=mp_31 --convert-tritongpu-to-musa="arch=mp_31 target=proxy" -o %t.8.mlir
// RUN: musa-translate --proxy-to-nvptx-llvmir %t.8.mlir -o %t.8.ll
// RUN: FileCheck %s --check-prefix=PROXY8 --input-file=%t.8.ll

// Two squads along M (8 warps): the second squad's A starts 64 rows (2048
// bytes) down. The squad is read from the warp index through a shuffle
// from lane 0, as Triton's NVIDIA backend reads warp ids, so ptxas keeps
// the descriptors made from it in uniform registers (before, it moved them
// there before every wgmma). mp_31 reads the warp index as it is
// (sqmma.mlir's MUSA8).
// PROXY8-LABEL: define ptx_kernel void @sqmma_two_squads(
// PROXY8: %[[TID:.*]] = tail call {{.*}}i32 @llvm.nvvm.read.ptx.sreg.tid.x()
// PROXY8-NEXT: %[[WARP:.*]] = lshr i32 %[[TID]], 5
// PROXY8: %[[U:.*]] = tail call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %[[WARP]], i32 0, i32 31)
// PROXY8-NEXT: %[[S:.*]] = shl i32 %[[U]], 9
// PROXY8-NEXT: %[[OFF:.*]] = and i32 %[[S]], 2048
// PROXY8: %[[A:.*]] = getelementptr i8, ptr addrspace(3) @global_smem, i32 %[[OFF]]
// PROXY8-NEXT: ptrtoint ptr addrspace(3) %[[A]] to i32
// PROXY8: call void @llvm.nvvm.wgmma.fence.sync.aligned()
// PROXY8-NEXT: wgmma.mma_async

// A (128x64 f16, K-major) at offset 0: 128-byte rows, pieces 16384 bytes
// apart (1024 in bits 16-29, unused K-major), so its descriptor fields are
// 1 << 62 | 64 << 32 | 1024 << 16 = 4611686293372403712. B (64x64 f16,
// N-major) at 16384: 128-byte rows of N, pieces 8192 bytes apart (512):
// 4611686293338849280. Each operand's descriptor is made once from its
// address; a sub-tile's is that plus its byte offset / 16 in the start
// address field (LLVM folds the fields and the offset into one add): the
// K steps move 32 bytes along A's rows (+2) and 16 rows (2048 bytes, +128)
// down B; the second M half starts 64 rows (8192 bytes, +512) down A and
// reuses B's descriptors. The accumulators are tied through each wgmma
// ($0..$31 in and out, then the two descriptors $64, $65).
// LLIR-LABEL: define ptx_kernel void @sqmma_f16_proxy(
// LLIR: store {{.*}} addrspace(3)
// LLIR: call void asm sideeffect "fence.proxy.async.shared::cta;"
// LLIR: store {{.*}} addrspace(3)
// LLIR: call void asm sideeffect "fence.proxy.async.shared::cta;"
// LLIR-NOT: store {{.*}} addrspace(3)
// LLIR: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
// LLIR-NOT: fence.proxy.async
// LLIR: lshr exact i32 ptrtoint (ptr addrspace(3) @global_smem to i32), 4
// LLIR: %[[AS:.*]] = zext nneg i32 %{{.*}} to i64
// LLIR-NEXT: %[[A0:.*]] = or disjoint i64 %[[AS]], 4611686293372403712
// LLIR-NEXT: lshr exact i32 ptrtoint (ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 16384) to i32), 4
// LLIR: %[[BS:.*]] = zext nneg i32 %{{.*}} to i64
// LLIR-NEXT: %[[B0:.*]] = or disjoint i64 %[[BS]], 4611686293338849280
// LLIR-NEXT: call void @llvm.nvvm.wgmma.fence.sync.aligned()
// LLIR-NEXT: asm sideeffect "{{.*}}wgmma.mma_async{{.*}}", "{{.*}}"({{.*}}, i64 %[[A0]], i64 %[[B0]], i32 1)
// LLIR-NOT: lshr exact
// LLIR-DAG: %[[B1:.*]] = add nuw nsw i64 %[[BS]], 4611686293338849408
// LLIR-DAG: %[[A1:.*]] = add nuw nsw i64 %[[AS]], 4611686293372403714
// LLIR: wgmma.mma_async{{.*}}, i64 %[[A1]], i64 %[[B1]], i32 1)
// LLIR-DAG: %[[B2:.*]] = add nuw nsw i64 %[[BS]], 4611686293338849536
// LLIR-DAG: %[[A2:.*]] = add nuw nsw i64 %[[AS]], 4611686293372403716
// LLIR: wgmma.mma_async{{.*}}, i64 %[[A2]], i64 %[[B2]], i32 1)
// LLIR-DAG: %[[B3:.*]] = add nuw nsw i64 %[[BS]], 4611686293338849664
// LLIR-DAG: %[[A3:.*]] = add nuw nsw i64 %[[AS]], 4611686293372403718
// LLIR: wgmma.mma_async{{.*}}, i64 %[[A3]], i64 %[[B3]], i32 1)
// LLIR: %[[A4:.*]] = add nuw nsw i64 %[[AS]], 4611686293372404224
// LLIR-NEXT: asm sideeffect "{{.*}}wgmma.mma_async{{.*}}", "{{.*}}"({{.*}}, i64 %[[A4]], i64 %[[B0]], i32 1)
// LLIR: %[[A5:.*]] = add nuw nsw i64 %[[AS]], 4611686293372404226
// LLIR-NEXT: asm sideeffect "{{.*}}wgmma.mma_async{{.*}}", "{{.*}}"({{.*}}, i64 %[[A5]], i64 %[[B1]], i32 1)
// LLIR: %[[A6:.*]] = add nuw nsw i64 %[[AS]], 4611686293372404228
// LLIR-NEXT: asm sideeffect "{{.*}}wgmma.mma_async{{.*}}", "{{.*}}"({{.*}}, i64 %[[A6]], i64 %[[B2]], i32 1)
// LLIR: %[[A7:.*]] = add nuw nsw i64 %[[AS]], 4611686293372404230
// LLIR-NEXT: asm sideeffect "{{.*}}wgmma.mma_async{{.*}}", "{{.*}}"({{.*}}, i64 %[[A7]], i64 %[[B3]], i32 1)
// LLIR-NEXT: extractvalue
// LLIR-NOT: wgmma.mma_async
// LLIR: call void @llvm.nvvm.wgmma.commit_group.sync.aligned()
// LLIR-NEXT: asm sideeffect "wgmma.wait_group.sync.aligned 0;", "=f,{{(=f,)+}}0,1,{{([0-9]+,)+}}63"
// LLIR: store float
// ASM-COUNT-8: asm sideeffect "{\0A.reg .pred p;\0Asetp.ne.b32 p, $66, 0;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{.*}}, $31}, $64, $65, p, 1, 1, 0, 1;\0A}"
// ASM-NOT: wgmma.mma_async
// ASM-LABEL: define ptx_kernel void @sqmma_operands_copied(
// PTX: .target sm_90a
// PTX: fence.proxy.async.shared::cta
// PTX: bar.sync
// PTX-NOT: wgmma.mma_async
// PTX: wgmma.fence.sync.aligned
// PTX-COUNT-8: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// PTX: wgmma.commit_group.sync.aligned
// PTX: wgmma.wait_group.sync.aligned 0

#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#copy = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b128, swizzleLine = b128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
#sqmma = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [128, 64, 64], fragment = wgmma_warpgroup}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @sqmma_f16_proxy(%a: tensor<128x64xf16, #blocked>, %b: tensor<64x64xf16, #blocked>, %c: tensor<128x64xf32, #sqmma>, %out: !tt.ptr<f32>) {
    %sa = ttg.local_alloc %a {alignment = 1024 : i32} : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #sh, #smem>
    %sb = ttg.local_alloc %b {alignment = 1024 : i32} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #sh, #smem>
    %d = musagpu.sqmma %sa, %sb, %c : !ttg.memdesc<128x64xf16, #sh, #smem>, !ttg.memdesc<64x64xf16, #sh, #smem> -> tensor<128x64xf32, #sqmma>
    %w = musagpu.sqmma_wait %d : tensor<128x64xf32, #sqmma>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<128x64x!tt.ptr<f32>, #sqmma>
    tt.store %p, %w : tensor<128x64x!tt.ptr<f32>, #sqmma>
    tt.return
  }

  // Operand buffers only cp.async fills (a pipelined ring's slots): no
  // fence.proxy.async anywhere (Triton's Hopper matmul has none either).
  // LLIR-LABEL: define ptx_kernel void @sqmma_operands_copied(
  // LLIR-NOT: fence.proxy.async
  // LLIR: cp.async
  // LLIR-NOT: fence.proxy.async
  // LLIR: call void @llvm.nvvm.wgmma.fence.sync.aligned()
  // LLIR-NOT: fence.proxy.async
  // LLIR: ret void
  tt.func public @sqmma_operands_copied(%pa: tensor<128x64x!tt.ptr<f16>, #copy>, %pb: tensor<64x64x!tt.ptr<f16>, #copy>, %c: tensor<128x64xf32, #sqmma>, %out: !tt.ptr<f32>) {
    %sa = ttg.local_alloc {alignment = 1024 : i32} : () -> !ttg.memdesc<128x64xf16, #sh, #smem, mutable>
    %sb = ttg.local_alloc {alignment = 1024 : i32} : () -> !ttg.memdesc<64x64xf16, #sh, #smem, mutable>
    %t0 = ttg.async_copy_global_to_local %pa, %sa {contiguity = 8 : i32} : tensor<128x64x!tt.ptr<f16>, #copy> -> <128x64xf16, #sh, #smem, mutable>
    %t1 = ttg.async_copy_global_to_local %pb, %sb {contiguity = 8 : i32} : tensor<64x64x!tt.ptr<f16>, #copy> -> <64x64xf16, #sh, #smem, mutable>
    %g = ttg.async_commit_group tokens %t0, %t1
    %ready = ttg.async_wait %g {num = 0 : i32}
    %d = musagpu.sqmma %sa, %sb, %c : !ttg.memdesc<128x64xf16, #sh, #smem, mutable>, !ttg.memdesc<64x64xf16, #sh, #smem, mutable> -> tensor<128x64xf32, #sqmma>
    %w = musagpu.sqmma_wait %d : tensor<128x64xf32, #sqmma>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<128x64x!tt.ptr<f32>, #sqmma>
    tt.store %p, %w : tensor<128x64x!tt.ptr<f32>, #sqmma>
    tt.return
  }
}
