// On the MUSA GPU, SQMMA descriptors have no swizzle-line field: the
// proxy's 128-byte line is refused.
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b128, swizzleLine = b128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
#sqmma = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 64]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @proxy_swizzle_on_musa(%ta: tensor<64x64xf16, #blocked>, %tb: tensor<64x64xf16, #blocked>, %c: tensor<64x64xf32, #sqmma>) {
    %a = ttg.local_alloc %ta {alignment = 4096 : i32} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #sh, #smem>
    %b = ttg.local_alloc %tb {alignment = 4096 : i32} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #sh, #smem>
    // expected-error@+1 {{SQMMA descriptors assume a 256-byte swizzle line, got 128 bytes}}
    %d = musagpu.sqmma %a, %b, %c : !ttg.memdesc<64x64xf16, #sh, #smem>, !ttg.memdesc<64x64xf16, #sh, #smem> -> tensor<64x64xf32, #sqmma>
    tt.return
  }
}
