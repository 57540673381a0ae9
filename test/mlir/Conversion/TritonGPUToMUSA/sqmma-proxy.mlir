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

// A (128x64 f16, K-major) at offset 0: 128-byte rows, pieces 16384 bytes
// apart (1024 in bits 16-29, unused K-major), so its descriptor fields are
// 1 << 62 | 64 << 32 | 1024 << 16 = 4611686293372403712. B (64x64 f16,
// N-major) at 16384: 128-byte rows of N, pieces 8192 bytes apart (512):
// 4611686293338849280. The K steps move 32 bytes along A's rows and 16
// rows (2048 bytes) down B; the second M half starts 64 rows (8192 bytes)
// down A and reuses B's descriptors. The accumulators are tied through
// each wgmma ($0..$31 in and out, then the two descriptors $64, $65).
// LLIR-LABEL: define ptx_kernel void @sqmma_f16_proxy(
// LLIR: store {{.*}} addrspace(3)
// LLIR: call void asm sideeffect "fence.proxy.async.shared::cta;"
// LLIR: store {{.*}} addrspace(3)
// LLIR: call void asm sideeffect "fence.proxy.async.shared::cta;"
// LLIR-NOT: store {{.*}} addrspace(3)
// LLIR: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
// LLIR-NOT: fence.proxy.async
// LLIR: call void @llvm.nvvm.wgmma.fence.sync.aligned()
// LLIR-NEXT: lshr exact i32 ptrtoint (ptr addrspace(3) @global_smem to i32), 4
// LLIR: %[[A0:.*]] = or disjoint i64 %{{.*}}, 4611686293372403712
// LLIR-NEXT: lshr exact i32 ptrtoint (ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 16384) to i32), 4
// LLIR: %[[B0:.*]] = or disjoint i64 %{{.*}}, 4611686293338849280
// LLIR-NEXT: asm sideeffect "{{.*}}wgmma.mma_async{{.*}}", "{{.*}}"({{.*}}, i64 %[[A0]], i64 %[[B0]], i32 1)
// LLIR: @global_smem, i32 32) to i32), 4
// LLIR: @global_smem, i32 18432) to i32), 4
// LLIR: wgmma.mma_async
// LLIR: @global_smem, i32 64) to i32), 4
// LLIR: @global_smem, i32 20480) to i32), 4
// LLIR: wgmma.mma_async
// LLIR: @global_smem, i32 96) to i32), 4
// LLIR: @global_smem, i32 22528) to i32), 4
// LLIR: wgmma.mma_async
// LLIR: @global_smem, i32 8192) to i32), 4
// LLIR: %[[A4:.*]] = or disjoint i64 %{{.*}}, 4611686293372403712
// LLIR-NEXT: asm sideeffect "{{.*}}wgmma.mma_async{{.*}}", "{{.*}}"({{.*}}, i64 %[[A4]], i64 %[[B0]], i32 1)
// LLIR: @global_smem, i32 8224) to i32), 4
// LLIR: wgmma.mma_async
// LLIR: @global_smem, i32 8256) to i32), 4
// LLIR: wgmma.mma_async
// LLIR: @global_smem, i32 8288) to i32), 4
// LLIR: wgmma.mma_async
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
// PTX-NEXT: wgmma.fence.sync.aligned
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
