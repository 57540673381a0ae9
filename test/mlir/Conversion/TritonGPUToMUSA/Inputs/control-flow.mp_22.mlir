// mp_22 twin of ../control-flow.mlir (128-thread warps); checked there.

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [128], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @loop(%n: i32, %x: f32, %c: i1) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf32, #blocked>
    %xs = tt.splat %x : f32 -> tensor<1024xf32, #blocked>
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<1024xf32, #blocked>) : i32 {
      %next = arith.addf %acc, %xs : tensor<1024xf32, #blocked>
      scf.yield %next : tensor<1024xf32, #blocked>
    }
    %r = scf.if %c -> (tensor<1024xf32, #blocked>) {
      scf.yield %sum : tensor<1024xf32, #blocked>
    } else {
      scf.yield %zero : tensor<1024xf32, #blocked>
    }
    tt.return
  }
}
