// mp_22 twin of ../elementwise-ext.mlir (128-thread warps); checked there.

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [128], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [128], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {

  tt.func public @clamp_none(%x: tensor<256xf32, #blocked>, %lo: f32, %hi: f32) -> tensor<256xf32, #blocked> {
    %l = tt.splat %lo : f32 -> tensor<256xf32, #blocked>
    %h = tt.splat %hi : f32 -> tensor<256xf32, #blocked>
    %r = tt.clampf %x, %l, %h, propagateNan = none : tensor<256xf32, #blocked>
    tt.return %r : tensor<256xf32, #blocked>
  }

  tt.func public @clamp_all(%x: tensor<256xf32, #blocked>, %lo: f32, %hi: f32) -> tensor<256xf32, #blocked> {
    %l = tt.splat %lo : f32 -> tensor<256xf32, #blocked>
    %h = tt.splat %hi : f32 -> tensor<256xf32, #blocked>
    %r = tt.clampf %x, %l, %h, propagateNan = all : tensor<256xf32, #blocked>
    tt.return %r : tensor<256xf32, #blocked>
  }

  tt.func public @erf(%x: tensor<256xf32, #blocked>, %y: f64) -> (tensor<256xf32, #blocked>, f64) {
    %r = math.erf %x : tensor<256xf32, #blocked>
    %s = math.erf %y : f64
    tt.return %r, %s : tensor<256xf32, #blocked>, f64
  }

  tt.func public @extern(%x: tensor<256xf32, #blocked>, %y: tensor<256xf32, #blocked>) -> (tensor<256xf32, #blocked>, tensor<256xi32, #blocked>) {
    %p = tt.extern_elementwise %x, %y {libname = "libdevice", libpath = "/usr/local/musa/mtgpu/bitcode/libdevice.31.bc", pure = true, symbol = "__mt_pow_f32"} : (tensor<256xf32, #blocked>, tensor<256xf32, #blocked>) -> tensor<256xf32, #blocked>
    %n = tt.extern_elementwise %x {libname = "libdevice", libpath = "/usr/local/musa/mtgpu/bitcode/libdevice.31.bc", pure = true, symbol = "__mt_isnan_f32"} : (tensor<256xf32, #blocked>) -> tensor<256xi32, #blocked>
    tt.return %p, %n : tensor<256xf32, #blocked>, tensor<256xi32, #blocked>
  }

  tt.func public @map(%x: tensor<256xf32, #blocked1>) -> tensor<256xf32, #blocked1> {
    %cst = arith.constant 0.000000e+00 : f32
    %r = "tt.map_elementwise"(%x) <{pack = 1 : i32}> ({
    ^bb0(%e: f32):
      %c = arith.cmpf ogt, %e, %cst : f32
      cf.cond_br %c, ^bb1, ^bb2(%cst : f32)
    ^bb1:
      %m = arith.mulf %e, %e : f32
      cf.br ^bb2(%m : f32)
    ^bb2(%v: f32):
      tt.map_elementwise.return %v : f32
    }) : (tensor<256xf32, #blocked1>) -> tensor<256xf32, #blocked1>
    tt.return %r : tensor<256xf32, #blocked1>
  }
}
