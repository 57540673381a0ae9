// mp_22 (128-lane warps) kernels of ../gather.mlir, in the same order.

#blocked = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 8192 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @gather_columns(%src: tensor<32x64xf32, #blocked>, %idx: tensor<32x64xi32, #blocked>) -> tensor<32x64xf32, #blocked> {
    %g = tt.gather %src[%idx] {allocation.offset = 1024 : i32, axis = 1 : i32} : (tensor<32x64xf32, #blocked>, tensor<32x64xi32, #blocked>) -> tensor<32x64xf32, #blocked>
    tt.return %g : tensor<32x64xf32, #blocked>
  }
}
