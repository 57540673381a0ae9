// The 8-warp, transposed-operand case of ../sqmma.mlir.
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#sa = #musagpu.tme_shared<{swizzleGranularity = b32, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [0, 1]}>
#sb = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [0, 1]}>
#smem = #ttg.shared_memory
#sqmma = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 2], instrShape = [64, 32, 16]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @sqmma_bf16_trans(%a: tensor<64x16xbf16, #blocked>, %b: tensor<16x64xbf16, #blocked>, %c: tensor<64x64xf32, #sqmma>, %out: !tt.ptr<f32>) {
    %sa = ttg.local_alloc %a {alignment = 2048 : i32} : (tensor<64x16xbf16, #blocked>) -> !ttg.memdesc<64x16xbf16, #sa, #smem>
    %sb = ttg.local_alloc %b {alignment = 4096 : i32} : (tensor<16x64xbf16, #blocked>) -> !ttg.memdesc<16x64xbf16, #sb, #smem>
    %d = musagpu.sqmma %sa, %sb, %c {transA = true, transB = true} : !ttg.memdesc<64x16xbf16, #sa, #smem>, !ttg.memdesc<16x64xbf16, #sb, #smem> -> tensor<64x64xf32, #sqmma>
    %w = musagpu.sqmma_wait %d : tensor<64x64xf32, #sqmma>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #sqmma>
    tt.store %p, %w : tensor<64x64x!tt.ptr<f32>, #sqmma>
    tt.return
  }
}
