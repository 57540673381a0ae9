// mp_22 twin of ../make-range.mlir (128-thread warps); checked there.

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [128], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @range(%out: !tt.ptr<i32>) {
    %r = tt.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32, #blocked>
    %p = tt.splat %out : !tt.ptr<i32> -> tensor<2048x!tt.ptr<i32>, #blocked>
    %q = tt.addptr %p, %r : tensor<2048x!tt.ptr<i32>, #blocked>, tensor<2048xi32, #blocked>
    tt.store %q, %r : tensor<2048x!tt.ptr<i32>, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [128], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @range_repeat(%out: !tt.ptr<i32>) {
    %r = tt.make_range {end = 4112 : i32, start = 16 : i32} : tensor<4096xi32, #blocked>
    %p = tt.splat %out : !tt.ptr<i32> -> tensor<4096x!tt.ptr<i32>, #blocked>
    %q = tt.addptr %p, %r : tensor<4096x!tt.ptr<i32>, #blocked>, tensor<4096xi32, #blocked>
    tt.store %q, %r : tensor<4096x!tt.ptr<i32>, #blocked>
    tt.return
  }
}
