// mp_22 twin of ../barrier.mlir (128-thread warps); checked there.

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @barriers() {
    gpu.barrier
    ttg.local_barrier
    tt.return
  }
}
