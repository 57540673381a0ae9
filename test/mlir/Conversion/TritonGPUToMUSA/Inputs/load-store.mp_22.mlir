// mp_22 twin of ../load-store.mlir (128-thread warps); checked there.

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [128], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @masked(%p: !tt.ptr<f32>, %n: i32) {
    %other = arith.constant dense<-1.000000e+00> : tensor<1024xf32, #blocked>
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %mask = arith.cmpi slt, %r, %ns : tensor<1024xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %ptrs = tt.addptr %ps, %r : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %v = tt.load %ptrs, %mask, %other : tensor<1024x!tt.ptr<f32>, #blocked>
    %w = arith.addf %v, %v : tensor<1024xf32, #blocked>
    tt.store %ptrs, %w, %mask : tensor<1024x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [128], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @unmasked(%p: !tt.ptr<f16>, %q: !tt.ptr<f16>) {
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %ptrs = tt.addptr %ps, %r : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
    %v = tt.load %ptrs : tensor<1024x!tt.ptr<f16>, #blocked>
    %qs = tt.splat %q : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %qptrs = tt.addptr %qs, %r : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
    tt.store %qptrs, %v : tensor<1024x!tt.ptr<f16>, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [128], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @duplicated(%p: !tt.ptr<i32>) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #blocked>
    %ptrs = tt.addptr %ps, %r : tensor<128x!tt.ptr<i32>, #blocked>, tensor<128xi32, #blocked>
    tt.store %ptrs, %r : tensor<128x!tt.ptr<i32>, #blocked>
    tt.return
  }
}

// -----

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @scalar(%p: !tt.ptr<f64>, %i: i64) {
    %q = tt.addptr %p, %i : !tt.ptr<f64>, i64
    %v = tt.load %q : !tt.ptr<f64>
    tt.store %p, %v : !tt.ptr<f64>
    tt.return
  }
}
