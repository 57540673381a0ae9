// Atomics --convert-tritongpu-to-musa refuses, by name (the conversion then
// reports the op it could not legalize).
// RUN: musa-opt %s -split-input-file -convert-tritongpu-to-musa=arch=mp_31 -verify-diagnostics

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @float_max(%p: tensor<128x!tt.ptr<f32>, #blocked>, %v: tensor<128xf32, #blocked>) {
    // expected-error @below {{'tt.atomic_rmw' max on 'f32' is not supported by --convert-tritongpu-to-musa yet (LLVM 14 has no atomic fmax/fmin; Triton rewrites float max/min into integer atomics)}}
    %0 = tt.atomic_rmw max, acq_rel, gpu, %p, %v : (tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xf32, #blocked>) -> tensor<128xf32, #blocked>
    tt.return
  }
}

// -----

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @no_allocation(%p: !tt.ptr<i32>, %v: i32) -> i32 {
    // A used scalar result goes through shared memory, which the allocation
    // pass hands out.
    // expected-error @below {{'tt.atomic_rmw' needs shared memory but has no "allocation.offset"; run --musa-allocate-shared-memory first}}
    %0 = tt.atomic_rmw add, acq_rel, gpu, %p, %v : (!tt.ptr<i32>, i32) -> i32
    tt.return %0 : i32
  }
}
