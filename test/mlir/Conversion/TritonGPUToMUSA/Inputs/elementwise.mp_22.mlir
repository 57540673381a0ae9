// mp_22 twin of ../elementwise.mlir (128-thread warps); checked there.

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [128], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @float_ops(%x: f32) {
    %half = arith.constant dense<5.000000e-01> : tensor<1024xf32, #blocked>
    %xs = tt.splat %x : f32 -> tensor<1024xf32, #blocked>
    %m = arith.mulf %xs, %half fastmath<fast> : tensor<1024xf32, #blocked>
    %e = math.exp2 %m : tensor<1024xf32, #blocked>
    %c = arith.cmpf olt, %e, %half : tensor<1024xf32, #blocked>
    %s = arith.select %c, %e, %m : tensor<1024xi1, #blocked>, tensor<1024xf32, #blocked>
    %i = arith.fptosi %s : tensor<1024xf32, #blocked> to tensor<1024xi32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [128], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @int_ops(%b: i1, %k: i32) {
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ks = tt.splat %k : i32 -> tensor<1024xi32, #blocked>
    %x = arith.xori %r, %ks : tensor<1024xi32, #blocked>
    %y = arith.shrsi %x, %r : tensor<1024xi32, #blocked>
    %z = arith.select %b, %x, %y : tensor<1024xi32, #blocked>
    %w = arith.extsi %z : tensor<1024xi32, #blocked> to tensor<1024xi64, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [128], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @triton_ops(%p: !tt.ptr<f32>, %x: i32, %f: f32) {
    %i = tt.ptr_to_int %p : !tt.ptr<f32> -> i64
    %q = tt.int_to_ptr %i : i64 -> !tt.ptr<f32>
    %b = tt.bitcast %f : f32 -> i32
    %h = tt.mulhiui %x, %x : i32
    %fs = tt.splat %f : f32 -> tensor<1024xf32, #blocked>
    %s = tt.precise_sqrt %fs : tensor<1024xf32, #blocked>
    %d = tt.precise_divf %s, %fs : tensor<1024xf32, #blocked>
    tt.return
  }
}
