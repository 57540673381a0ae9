// The two-squad case of ../sqmma-proxy.mlir: 8 warps, squads along M.
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#sa = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b32, swizzleLine = b128, elementBitWidth = 16, order = [1, 0]}>
#sb = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b128, swizzleLine = b128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
#sqmma = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [8, 1], instrShape = [64, 64, 16], fragment = wgmma_warpgroup}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @sqmma_two_squads(%a: tensor<128x16xf16, #blocked>, %b: tensor<16x64xf16, #blocked>, %c: tensor<128x64xf32, #sqmma>, %out: !tt.ptr<f32>) {
    %sa = ttg.local_alloc %a {alignment = 1024 : i32} : (tensor<128x16xf16, #blocked>) -> !ttg.memdesc<128x16xf16, #sa, #smem>
    %sb = ttg.local_alloc %b {alignment = 1024 : i32} : (tensor<16x64xf16, #blocked>) -> !ttg.memdesc<16x64xf16, #sb, #smem>
    %d = musagpu.sqmma %sa, %sb, %c : !ttg.memdesc<128x16xf16, #sa, #smem>, !ttg.memdesc<16x64xf16, #sb, #smem> -> tensor<128x64xf32, #sqmma>
    %w = musagpu.sqmma_wait %d : tensor<128x64xf32, #sqmma>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<128x64x!tt.ptr<f32>, #sqmma>
    tt.store %p, %w : tensor<128x64x!tt.ptr<f32>, #sqmma>
    tt.return
  }
}
