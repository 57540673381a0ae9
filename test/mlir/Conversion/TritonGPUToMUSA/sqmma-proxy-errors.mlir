// What the GPU proxy's wgmma refuses in musagpu.sqmma (target=proxy), and
// the MUSA descriptor's swizzle line (target=musa), each reported at the op.
// RUN: musa-opt %s -split-input-file --musa-allocate-shared-memory=arch=mp_31 --convert-tritongpu-to-musa="arch=mp_31 target=proxy" -verify-diagnostics
// RUN: musa-opt %S/Inputs/sqmma-proxy-errors.musa.mlir --musa-allocate-shared-memory=arch=mp_31 --convert-tritongpu-to-musa=arch=mp_31 -verify-diagnostics

// mp_31's swizzle codes (256-byte line) are not a Hopper swizzle.
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
#sqmma = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 64], fragment = wgmma_warpgroup}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @musa_swizzle(%ta: tensor<64x64xf16, #blocked>, %tb: tensor<64x64xf16, #blocked>, %c: tensor<64x64xf32, #sqmma>) {
    %a = ttg.local_alloc %ta {alignment = 4096 : i32} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #sh, #smem>
    %b = ttg.local_alloc %tb {alignment = 4096 : i32} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #sh, #smem>
    // expected-error@+1 {{the GPU proxy's wgmma needs operand buffers in Hopper's swizzles (16-byte granularity, 128-byte line, 32/64/128-byte stride), got granularity 16, stride 256, line 256 bytes}}
    %d = musagpu.sqmma %a, %b, %c : !ttg.memdesc<64x64xf16, #sh, #smem>, !ttg.memdesc<64x64xf16, #sh, #smem> -> tensor<64x64xf32, #sqmma>
    tt.return
  }
}

// -----

// An accumulator in mp_31's squad fragment: the matrix passes ran for mp_31,
// and the proxy's wgmma would hold it in other registers.
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b128, swizzleLine = b128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
#sqmma = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 128, 64]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @squad_fragment(%ta: tensor<64x64xf16, #blocked>, %tb: tensor<64x128xf16, #blocked>, %c: tensor<64x128xf32, #sqmma>) {
    %a = ttg.local_alloc %ta {alignment = 1024 : i32} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #sh, #smem>
    %b = ttg.local_alloc %tb {alignment = 1024 : i32} : (tensor<64x128xf16, #blocked>) -> !ttg.memdesc<64x128xf16, #sh, #smem>
    // expected-error@+1 {{the accumulator's fragment sqmma_squad is not the one this target's SQMMA holds (wgmma_warpgroup): --musa-accelerate-matmul ran for another target}}
    %d = musagpu.sqmma %a, %b, %c : !ttg.memdesc<64x64xf16, #sh, #smem>, !ttg.memdesc<64x128xf16, #sh, #smem> -> tensor<64x128xf32, #sqmma>
    tt.return
  }
}

// -----

// wgmma computes 64 rows per warpgroup: the proxy has no m32 SQMMA row.
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b128, swizzleLine = b128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
#sqmma = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [32, 64, 64]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @m32(%ta: tensor<32x64xf16, #blocked>, %tb: tensor<64x64xf16, #blocked>, %c: tensor<32x64xf32, #sqmma>) {
    %a = ttg.local_alloc %ta {alignment = 4096 : i32} : (tensor<32x64xf16, #blocked>) -> !ttg.memdesc<32x64xf16, #sh, #smem>
    %b = ttg.local_alloc %tb {alignment = 4096 : i32} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #sh, #smem>
    // expected-error@+1 {{no SQMMA lowering for 'f16' m32n64k64 on this target}}
    %d = musagpu.sqmma %a, %b, %c : !ttg.memdesc<32x64xf16, #sh, #smem>, !ttg.memdesc<64x64xf16, #sh, #smem> -> tensor<32x64xf32, #sqmma>
    tt.return
  }
}
