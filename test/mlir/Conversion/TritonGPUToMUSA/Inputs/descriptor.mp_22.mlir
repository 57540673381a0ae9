// mp_22 twin of ../descriptor.mlir (128-thread warps); checked there.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @load_arg(%d: !tt.tensordesc<tensor<16x8xf16>>, %m: i32, %n: i32, %sm: i64, %sn: i64, %i: i32, %j: i32) -> tensor<16x8xf16, #blocked> {
    %t = tt.descriptor_load %d[%i, %j] : !tt.tensordesc<tensor<16x8xf16>> -> tensor<16x8xf16, #blocked>
    tt.return %t : tensor<16x8xf16, #blocked>
  }

  tt.func public @store_made(%p: !tt.ptr<f32>, %m: i32, %n: i32, %sm: i64, %v: tensor<16x8xf32, #blocked>, %i: i32) {
    %c1 = arith.constant 1 : i64
    %d = tt.make_tensor_descriptor %p, [%m, %n], [%sm, %c1] : <f32>, <tensor<16x8xf32>>
    tt.descriptor_store %d[%i, %i], %v : !tt.tensordesc<tensor<16x8xf32>>, tensor<16x8xf32, #blocked>
    tt.return
  }

  tt.func public @load_3d_nan(%p: !tt.ptr<f32>, %b: i32, %m: i32, %n: i32, %sb: i64, %sm: i64, %t: i32) -> tensor<16x8xf32, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %d = tt.make_tensor_descriptor %p, [%b, %m, %n], [%sb, %sm, %c1] {padding = 2 : i32} : <f32>, <tensor<1x16x8xf32>>
    %r = tt.descriptor_load %d[%t, %c0, %c0] : !tt.tensordesc<tensor<1x16x8xf32>> -> tensor<16x8xf32, #blocked>
    tt.return %r : tensor<16x8xf32, #blocked>
  }

  tt.func public @gather(%d: !tt.tensordesc<tensor<1x8xbf16>>, %r: i32, %c: i32, %sr: i64, %sc: i64, %x: tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>>, %y: i32) -> tensor<16x8xbf16, #blocked> {
    %g = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x8xbf16>>, tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>>, i32) -> tensor<16x8xbf16, #blocked>
    tt.return %g : tensor<16x8xbf16, #blocked>
  }

  tt.func public @scatter(%d: !tt.tensordesc<tensor<1x8xbf16>>, %r: i32, %c: i32, %sr: i64, %sc: i64, %x: tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>>, %y: i32, %v: tensor<16x8xbf16, #blocked>) {
    tt.descriptor_scatter %d[%x, %y], %v : !tt.tensordesc<tensor<1x8xbf16>>, tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>>, i32, tensor<16x8xbf16, #blocked>
    tt.return
  }
}
