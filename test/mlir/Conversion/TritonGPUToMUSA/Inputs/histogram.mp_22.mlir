// tt.histogram through shared memory (the op's scratch at allocation.offset):
// the result's owners zero the bins, a barrier, each source element counted
// once with a shared-memory atomic add when masked in and 0 <= x < bins, a
// barrier, then each thread reads the bins of its result registers.

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [128], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32, ttg.shared = 512 : i32} {
  tt.func public @histogram(%x: tensor<1024xi32, #blocked>, %m: tensor<1024xi1, #blocked>) -> tensor<64xi32, #blocked> {
    %h = tt.histogram %x, %m {allocation.offset = 256 : i32} : tensor<1024xi32, #blocked> -> tensor<64xi32, #blocked>
    tt.return %h : tensor<64xi32, #blocked>
  }
}
