// RUN: musa-opt %s -split-input-file --musa-allocate-shared-memory=arch=mp_31 -verify-diagnostics
// RUN: musa-opt %s -split-input-file --musa-allocate-shared-memory=arch=mp_22 -verify-diagnostics

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // 256x256xf32 = 262144 bytes: more than mp_31's 196608 and mp_22's 73728.
  // expected-error-re @+1 {{kernel 'too_big' needs 262144 bytes of shared memory, more than the {{196608|73728}} bytes per block of mp_{{31|22}}}}
  tt.func public @too_big() {
    %a = ttg.local_alloc : () -> !ttg.memdesc<256x256xf32, #shared, #smem, mutable>
    tt.return
  }
}
