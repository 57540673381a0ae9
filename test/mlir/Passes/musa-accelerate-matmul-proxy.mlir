// RUN: musa-opt %s --musa-accelerate-matmul=target=proxy --musa-dot-path-report --split-input-file -verify-diagnostics -o /dev/null

// The GPU proxy's tf32 and 8-bit SQMMA rows (wgmma without a transpose)
// read both operands K-major. An operand the pass stages itself is stored
// K-major for them; an fp8 dot whose B a ring holds N-major takes no SQMMA
// but the f16 WMMA rows, its operands upcast (mp_31's SQMMA reads both
// majors: there it stays SQMMA). f16 reads both majors.

#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fp8_staged(%a: tensor<64x64xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<64x64xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    // expected-remark @below {{B K-major}}
    %d = tt.dot %a, %b, %c : tensor<64x64xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x64xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#ld = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#nmajor = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#kmajor = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fp8_ring_n_major(%pa: tensor<128x128x!tt.ptr<f8E4M3FN>, #ld>, %pb: tensor<128x128x!tt.ptr<f8E4M3FN>, #ld>, %c: tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked> {
    %ra = ttg.local_alloc : () -> !ttg.memdesc<128x128xf8E4M3FN, #nmajor, #smem, mutable>
    %rb = ttg.local_alloc : () -> !ttg.memdesc<128x128xf8E4M3FN, #nmajor, #smem, mutable>
    %ta = ttg.async_copy_global_to_local %pa, %ra : tensor<128x128x!tt.ptr<f8E4M3FN>, #ld> -> <128x128xf8E4M3FN, #nmajor, #smem, mutable>
    %tb = ttg.async_copy_global_to_local %pb, %rb : tensor<128x128x!tt.ptr<f8E4M3FN>, #ld> -> <128x128xf8E4M3FN, #nmajor, #smem, mutable>
    %w = ttg.async_wait %ta, %tb {num = 0 : i32}
    %a = ttg.local_load %ra : !ttg.memdesc<128x128xf8E4M3FN, #nmajor, #smem, mutable> -> tensor<128x128xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %b = ttg.local_load %rb : !ttg.memdesc<128x128xf8E4M3FN, #nmajor, #smem, mutable> -> tensor<128x128xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    // expected-remark @below {{wmma f16 x f16 -> f32 m16n16k32 on mp_3x, warpsPerCTA [2, 2], operands upcast to f16}}
    %d = tt.dot %a, %b, %c : tensor<128x128xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<128x128xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<128x128xf32, #blocked>
    tt.return %d : tensor<128x128xf32, #blocked>
  }
  tt.func public @fp8_ring_k_major(%pa: tensor<128x128x!tt.ptr<f8E4M3FN>, #ld>, %pb: tensor<128x128x!tt.ptr<f8E4M3FN>, #ld>, %c: tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked> {
    %ra = ttg.local_alloc : () -> !ttg.memdesc<128x128xf8E4M3FN, #nmajor, #smem, mutable>
    %rb = ttg.local_alloc : () -> !ttg.memdesc<128x128xf8E4M3FN, #kmajor, #smem, mutable>
    %ta = ttg.async_copy_global_to_local %pa, %ra : tensor<128x128x!tt.ptr<f8E4M3FN>, #ld> -> <128x128xf8E4M3FN, #nmajor, #smem, mutable>
    %w = ttg.async_wait %ta {num = 0 : i32}
    %a = ttg.local_load %ra : !ttg.memdesc<128x128xf8E4M3FN, #nmajor, #smem, mutable> -> tensor<128x128xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %b = ttg.local_load %rb : !ttg.memdesc<128x128xf8E4M3FN, #kmajor, #smem, mutable> -> tensor<128x128xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    // expected-remark @below {{A K-major, B K-major}}
    %d = tt.dot %a, %b, %c : tensor<128x128xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<128x128xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<128x128xf32, #blocked>
    tt.return %d : tensor<128x128xf32, #blocked>
  }
  tt.func public @f16_ring_n_major(%pa: tensor<128x64x!tt.ptr<f16>, #ld>, %pb: tensor<64x128x!tt.ptr<f16>, #ld>, %c: tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked> {
    %ra = ttg.local_alloc : () -> !ttg.memdesc<128x64xf16, #nmajor, #smem, mutable>
    %rb = ttg.local_alloc : () -> !ttg.memdesc<64x128xf16, #nmajor, #smem, mutable>
    %a = ttg.local_load %ra : !ttg.memdesc<128x64xf16, #nmajor, #smem, mutable> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %b = ttg.local_load %rb : !ttg.memdesc<64x128xf16, #nmajor, #smem, mutable> -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    // expected-remark @below {{A K-major, B N-major}}
    %d = tt.dot %a, %b, %c : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<128x128xf32, #blocked>
    tt.return %d : tensor<128x128xf32, #blocked>
  }
}
