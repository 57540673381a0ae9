// Shared-memory constructs the lowering rejects, each with one error naming
// what is wrong (no second "failed to legalize").
// RUN: musa-opt %s -split-input-file --convert-tritongpu-to-musa=arch=mp_31 -verify-diagnostics

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
  tt.func public @not_allocated(%x: tensor<32x16xf16, #blocked>) {
    // expected-error @+1 {{'ttg.local_alloc' needs shared memory but has no "allocation.offset"; run --musa-allocate-shared-memory first}}
    %a = ttg.local_alloc %x : (tensor<32x16xf16, #blocked>) -> !ttg.memdesc<32x16xf16, #shared, #smem>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31", ttg.shared = 2048 : i32} {
  tt.func public @subslice_misaligned() {
    %a = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
    // expected-error @+1 {{an offset that is not a multiple of the view, which is not supported by --convert-tritongpu-to-musa yet}}
    %v = ttg.memdesc_subslice %a[0, 8] : !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x16xf16, #shared, #smem, mutable, 32x32>
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31", ttg.shared = 2048 : i32} {
  tt.func public @trans_wrong_layout() {
    %a = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
    // The result keeps the row-major order: not the transposed buffer.
    // expected-error @+1 {{changes which element each slot holds}}
    %t = ttg.memdesc_trans %a {order = array<i32: 1, 0>} : !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
    tt.return
  }
}
