// musagpu.sqmma on the GPU proxy (target=proxy): SQMMA as Hopper wgmma. One
// m128n64k64 f16 instruction of one squad is 2 (M / 64) x 4 (K / 16)
// wgmma.mma_async.m64n64k16 between one wgmma.fence and one commit_group,
// each on 64-bit shared-memory descriptors; musagpu.sqmma_wait is
// wgmma.wait_group 0 with the accumulators tied through it. The operand
// buffers carry the proxy's swizzle codes (16-byte granules, 128-byte
// stride and line: Hopper's 128B swizzle), so the descriptors say 128B
// swizzle (mode 1 in bits 62-63) and a stride byte offset of 8 rows of
// 128 bytes (1024 >> 4 = 64 in bits 32-45). The NVPTX backend turns the
// result into PTX for sm_90a that the triton wheel's ptxas accepts.
// (Until the encodings carry the proxy's fragment, the accumulator layout
// here is mp_31's: this test checks the instructions, not the numbers.)
// RUN: musa-opt %s --musa-allocate-shared-memory=arch=mp_31 --musa-insert-barriers=arch=mp_31 --convert-tritongpu-to-musa="arch=mp_31 target=proxy" -o %t.mlir
// RUN: musa-translate --proxy-to-nvptx-llvmir %t.mlir -o %t.ll
// RUN: FileCheck %s --check-prefix=LLIR --input-file=%t.ll --implicit-check-not=llvm.musa.
// RUN: musa-translate --proxy-to-nvptx-llvmir --emit-ptx %t.mlir -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t.ptx
// RUN: %ptxas --gpu-name=sm_90a %t.ptx -o %t.cubin

// A (128x64 f16, K-major) at offset 0: 128-byte rows, pieces 16384 bytes
// apart (1024 in bits 16-29, unused K-major). B (64x64 f16, N-major) at
// 16384: 128-byte rows of N, pieces 8192 bytes apart (512). The K steps
// move 32 bytes along A's rows and 16 rows (2048 bytes) down B; the second
// M half starts 64 rows (8192 bytes) down A.
// LLIR-LABEL: define ptx_kernel void @sqmma_f16_proxy(
// LLIR: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
// LLIR: call void @llvm.nvvm.wgmma.fence.sync.aligned()
// LLIR-NOT: @llvm.nvvm.wgmma.fence
// LLIR-COUNT-8: asm sideeffect "{\0A.reg .pred p;\0Asetp.ne.b32 p, $66, 0;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{.*}}, $31}, $64, $65, p, 1, 1, 0, 1;\0A}"
// LLIR-NOT: wgmma.mma_async
// LLIR: call void @llvm.nvvm.wgmma.commit_group.sync.aligned()
// LLIR: asm sideeffect "wgmma.wait_group.sync.aligned 0;", "=f,{{(=f,){63}}}0,{{([0-9]+,){62}}}63"
// LLIR: store float
// Descriptor constants: A's and B's fields over the shifted address.
// LLIR-DAG: 4611686293372403712
// LLIR-DAG: 4611686293338849280
// PTX: .target sm_90a
// PTX-COUNT-8: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// PTX: wgmma.commit_group.sync.aligned
// PTX: wgmma.wait_group.sync.aligned 0

#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b128, swizzleLine = b128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
#sqmma = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [128, 64, 64]}>
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
}
