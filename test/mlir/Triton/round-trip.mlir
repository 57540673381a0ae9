// Every tt op and type in the forms Triton 3.6 prints, parsed, printed and
// parsed again. The expected text was checked byte-for-byte against
// Triton 3.6.0's own printer.
// RUN: musa-opt %s | musa-opt | FileCheck %s

module {
  // CHECK-LABEL: tt.func public @types(
  // CHECK-SAME: %{{.*}}: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %{{.*}}: !tt.ptr<i8, 3>, %{{.*}}: !tt.ptr<tensor<64x64xf16>>, %{{.*}}: !tt.ptr<!tt.ptr<f32>>, %{{.*}}: !tt.tensordesc<tensor<1x64xsi32>>, %{{.*}}: tensor<8x!tt.ptr<f8E4M3FN>>) attributes {noinline = false} {
  tt.func public @types(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %q: !tt.ptr<i8, 3>, %bp: !tt.ptr<tensor<64x64xf16>>, %pp: !tt.ptr<!tt.ptr<f32>>, %d: !tt.tensordesc<tensor<1x64xsi32>>, %e: tensor<8x!tt.ptr<f8E4M3FN>>) attributes {noinline = false} {
    tt.return
  }

  // CHECK-LABEL: tt.func private @callee(
  // CHECK-SAME: %{{.*}}: f32, %{{.*}}: i32) -> (f32 {tt.divisibility = 1 : i32}) attributes {noinline = true} {
  // CHECK: tt.return %{{.*}} : f32
  tt.func private @callee(%x: f32, %n: i32) -> (f32 {tt.divisibility = 1 : i32}) attributes {noinline = true} {
    tt.return %x : f32
  }
  // CHECK-LABEL: tt.func private @void_callee(
  tt.func private @void_callee() attributes {noinline = true} {
    tt.return
  }
  // CHECK-LABEL: tt.func public @calls(
  // CHECK: %{{.*}} = tt.call @callee(%{{.*}}, %{{.*}}) : (f32, i32) -> f32
  // CHECK: tt.call @void_callee() : () -> ()
  // CHECK: tt.return %{{.*}} : f32
  tt.func public @calls(%x: f32, %n: i32) -> f32 {
    %r = tt.call @callee(%x, %n) : (f32, i32) -> f32
    tt.call @void_callee() : () -> ()
    tt.return %r : f32
  }

  // CHECK-LABEL: tt.func @casts(
  // CHECK: %{{.*}} = tt.int_to_ptr %{{.*}} : tensor<128xi64> -> tensor<128x!tt.ptr<f32>>
  // CHECK: %{{.*}} = tt.ptr_to_int %{{.*}} : !tt.ptr<f32> -> i64
  // CHECK: %{{.*}} = tt.bitcast %{{.*}} : tensor<256xf32> -> tensor<256xi32>
  // CHECK: %{{.*}} = tt.bitcast %{{.*}} : !tt.ptr<f32> -> !tt.ptr<i32>
  // CHECK: %{{.*}} = tt.fp_to_fp %{{.*}}, rounding = rtne : tensor<512xf16> -> tensor<512xf8E5M2>
  // CHECK: %{{.*}} = tt.fp_to_fp %{{.*}}, rounding = rtz : tensor<256xf32> -> tensor<256xbf16>
  // CHECK: %{{.*}} = tt.fp_to_fp %{{.*}} : tensor<512xf8E5M2> -> tensor<512xf32>
  tt.func @casts(%p: !tt.ptr<f32>, %i: tensor<128xi64>, %x: tensor<256xf32>, %h: tensor<512xf16>, %f8: tensor<512xf8E5M2>) {
    %0 = tt.int_to_ptr %i : tensor<128xi64> -> tensor<128x!tt.ptr<f32>>
    %1 = tt.ptr_to_int %p : !tt.ptr<f32> -> i64
    %2 = tt.bitcast %x : tensor<256xf32> -> tensor<256xi32>
    %3 = tt.bitcast %p : !tt.ptr<f32> -> !tt.ptr<i32>
    %4 = tt.fp_to_fp %h, rounding = rtne : tensor<512xf16> -> tensor<512xf8E5M2>
    %5 = tt.fp_to_fp %x, rounding = rtz : tensor<256xf32> -> tensor<256xbf16>
    %6 = tt.fp_to_fp %f8 : tensor<512xf8E5M2> -> tensor<512xf32>
    tt.return
  }

  // CHECK-LABEL: tt.func @math(
  // CHECK: %{{.*}} = tt.clampf %{{.*}}, %{{.*}}, %{{.*}}, propagateNan = none : tensor<256xf32>
  // CHECK: %{{.*}} = tt.clampf %{{.*}}, %{{.*}}, %{{.*}}, propagateNan = all : tensor<256xf32>
  // CHECK: %{{.*}} = tt.precise_sqrt %{{.*}} : tensor<256xf32>
  // CHECK: %{{.*}} = tt.precise_divf %{{.*}}, %{{.*}} : tensor<256xf32>
  // CHECK: %{{.*}} = tt.mulhiui %{{.*}}, %{{.*}} : tensor<512xi32>
  // CHECK: %{{.*}} = tt.extern_elementwise %{{.*}}, %{{.*}} {libname = "libdevice", libpath = "/usr/local/musa/mtgpu/bitcode/libdevice.bc", pure = true, symbol = "__mt_pow_f32"} : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
  // CHECK: %{{.*}} = tt.elementwise_inline_asm "mov $0, $1;" {constraints = "=r,r", packed_element = 4 : i32, pure = true} %{{.*}} : tensor<512xi32> -> tensor<512xi32>
  // CHECK: %{{.*}}:2 = tt.elementwise_inline_asm "shf $0, $1, $2;" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %{{.*}} : tensor<512xi32> -> tensor<512xi32>, tensor<512xi32>
  tt.func @math(%x: tensor<256xf32>, %y: tensor<256xf32>, %a: tensor<512xi32>, %b: tensor<512xi32>) {
    %0 = tt.clampf %x, %y, %y, propagateNan = none : tensor<256xf32>
    %1 = tt.clampf %x, %y, %y, propagateNan = all : tensor<256xf32>
    %2 = tt.precise_sqrt %x : tensor<256xf32>
    %3 = tt.precise_divf %x, %y : tensor<256xf32>
    %4 = tt.mulhiui %a, %b : tensor<512xi32>
    %5 = tt.extern_elementwise %x, %y {libname = "libdevice", libpath = "/usr/local/musa/mtgpu/bitcode/libdevice.bc", pure = true, symbol = "__mt_pow_f32"} : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
    %6 = tt.elementwise_inline_asm "mov $0, $1;" {constraints = "=r,r", packed_element = 4 : i32, pure = true} %a : tensor<512xi32> -> tensor<512xi32>
    %7:2 = tt.elementwise_inline_asm "shf $0, $1, $2;" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %a : tensor<512xi32> -> tensor<512xi32>, tensor<512xi32>
    tt.return
  }

  // CHECK-LABEL: tt.func @memory(
  // CHECK: %{{.*}} = tt.get_program_id x : i32
  // CHECK: %{{.*}} = tt.get_program_id y : i32
  // CHECK: %{{.*}} = tt.get_num_programs z : i32
  // CHECK: %{{.*}} = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
  // CHECK: %{{.*}} = tt.splat %{{.*}} : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  // CHECK: %{{.*}} = tt.addptr %{{.*}}, %{{.*}} : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  // CHECK: %{{.*}} = tt.splat %{{.*}} : i32 -> tensor<1024xi32>
  // CHECK: %{{.*}} = tt.load %{{.*}} : tensor<1024x!tt.ptr<f32>>
  // CHECK: %{{.*}} = tt.load %{{.*}}, %{{.*}} : tensor<1024x!tt.ptr<f32>>
  // CHECK: %{{.*}} = tt.load %{{.*}}, %{{.*}}, %{{.*}} cacheModifier = ca evictionPolicy = evict_last : tensor<1024x!tt.ptr<f32>>
  // CHECK: %{{.*}} = tt.load %{{.*}} {isVolatile = true} : !tt.ptr<i32>
  // CHECK: %{{.*}} = tt.load %{{.*}} cacheModifier = cg evictionPolicy = evict_first : tensor<1024x!tt.ptr<f32>>
  // CHECK: tt.store %{{.*}}, %{{.*}} : tensor<1024x!tt.ptr<f32>>
  // CHECK: tt.store %{{.*}}, %{{.*}}, %{{.*}} cacheModifier = wb : tensor<1024x!tt.ptr<f32>>
  // CHECK: tt.store %{{.*}}, %{{.*}} : !tt.ptr<i32>
  tt.func @memory(%p: !tt.ptr<f32>, %n: i32, %s: !tt.ptr<i32>) {
    %pid = tt.get_program_id x : i32
    %pidy = tt.get_program_id y : i32
    %num = tt.get_num_programs z : i32
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %ptrs = tt.addptr %ps, %r : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %ns = tt.splat %n : i32 -> tensor<1024xi32>
    %m = arith.cmpi slt, %r, %ns : tensor<1024xi32>
    %other = arith.constant dense<0.000000e+00> : tensor<1024xf32>
    %0 = tt.load %ptrs : tensor<1024x!tt.ptr<f32>>
    %1 = tt.load %ptrs, %m : tensor<1024x!tt.ptr<f32>>
    %2 = tt.load %ptrs, %m, %other cacheModifier = ca evictionPolicy = evict_last : tensor<1024x!tt.ptr<f32>>
    %3 = tt.load %s {isVolatile = true} : !tt.ptr<i32>
    %4 = tt.load %ptrs evictionPolicy = evict_first cacheModifier = cg : tensor<1024x!tt.ptr<f32>>
    tt.store %ptrs, %0 : tensor<1024x!tt.ptr<f32>>
    tt.store %ptrs, %1, %m cacheModifier = wb evictionPolicy = evict_normal : tensor<1024x!tt.ptr<f32>>
    tt.store %s, %3 : !tt.ptr<i32>
    tt.return
  }

  // CHECK-LABEL: tt.func @atomics(
  // CHECK: %{{.*}} = tt.atomic_rmw fadd, acq_rel, gpu, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<256x!tt.ptr<f32>>, tensor<256xf32>, tensor<256xi1>) -> tensor<256xf32>
  // CHECK: %{{.*}} = tt.atomic_rmw exch, release, sys, %{{.*}}, %{{.*}}, %{{.*}} : (!tt.ptr<i32>, i32, i1) -> i32
  // CHECK: %{{.*}} = tt.atomic_rmw umax, relaxed, cta, %{{.*}}, %{{.*}} : (!tt.ptr<i32>, i32) -> i32
  // CHECK: %{{.*}} = tt.atomic_cas acquire, gpu, %{{.*}}, %{{.*}}, %{{.*}} : (!tt.ptr<i32>, i32, i32) -> i32
  tt.func @atomics(%p: tensor<256x!tt.ptr<f32>>, %v: tensor<256xf32>, %m: tensor<256xi1>, %ip: !tt.ptr<i32>, %i: i32, %c: i1) {
    %0 = tt.atomic_rmw fadd, acq_rel, gpu, %p, %v, %m : (tensor<256x!tt.ptr<f32>>, tensor<256xf32>, tensor<256xi1>) -> tensor<256xf32>
    %1 = tt.atomic_rmw exch, release, sys, %ip, %i, %c : (!tt.ptr<i32>, i32, i1) -> i32
    %2 = tt.atomic_rmw umax, relaxed, cta, %ip, %i : (!tt.ptr<i32>, i32) -> i32
    %3 = tt.atomic_cas acquire, gpu, %ip, %i, %i : (!tt.ptr<i32>, i32, i32) -> i32
    tt.return
  }

  // CHECK-LABEL: tt.func @shapes(
  // CHECK: %{{.*}} = tt.expand_dims %{{.*}} {axis = 1 : i32} : tensor<64xf32> -> tensor<64x1xf32>
  // CHECK: %{{.*}} = tt.broadcast %{{.*}} : tensor<64x1xf32> -> tensor<64x32xf32>
  // CHECK: %{{.*}} = tt.reshape %{{.*}} : tensor<32x16xf32> -> tensor<512xf32>
  // CHECK: %{{.*}} = tt.reshape %{{.*}} allow_reorder : tensor<32x16xf32> -> tensor<16x32xf32>
  // CHECK: %{{.*}} = tt.reshape %{{.*}} allow_reorder efficient_layout : tensor<32x16xf32> -> tensor<512xf32>
  // CHECK: %{{.*}} = tt.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<32x16xf32> -> tensor<16x32xf32>
  // CHECK: %{{.*}} = tt.cat %{{.*}}, %{{.*}} : tensor<64xf32> -> tensor<128xf32>
  // CHECK: %{{.*}} = tt.join %{{.*}}, %{{.*}} : tensor<64xf32> -> tensor<64x2xf32>
  // CHECK: %{{.*}}, %{{.*}} = tt.split %{{.*}} : tensor<64x2xf32> -> tensor<64xf32>
  // CHECK: %{{.*}} = tt.splat %{{.*}} : f32 -> tensor<1x1xf32>
  // CHECK: %{{.*}} = tt.unsplat %{{.*}} : tensor<1x1xf32>
  tt.func @shapes(%x: tensor<64xf32>, %y: tensor<64xf32>, %s: f32, %t: tensor<32x16xf32>) {
    %0 = tt.expand_dims %x {axis = 1 : i32} : tensor<64xf32> -> tensor<64x1xf32>
    %1 = tt.broadcast %0 : tensor<64x1xf32> -> tensor<64x32xf32>
    %2 = tt.reshape %t : tensor<32x16xf32> -> tensor<512xf32>
    %3 = tt.reshape %t allow_reorder : tensor<32x16xf32> -> tensor<16x32xf32>
    %4 = tt.reshape %t allow_reorder efficient_layout : tensor<32x16xf32> -> tensor<512xf32>
    %5 = tt.trans %t {order = array<i32: 1, 0>} : tensor<32x16xf32> -> tensor<16x32xf32>
    %6 = tt.cat %x, %y : tensor<64xf32> -> tensor<128xf32>
    %7 = tt.join %x, %y : tensor<64xf32> -> tensor<64x2xf32>
    %8, %9 = tt.split %7 : tensor<64x2xf32> -> tensor<64xf32>
    %10 = tt.splat %s : f32 -> tensor<1x1xf32>
    %11 = tt.unsplat %10 : tensor<1x1xf32>
    tt.return
  }

  // CHECK-LABEL: tt.func @dots(
  // CHECK: %{{.*}} = tt.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  // CHECK: %{{.*}} = tt.dot %{{.*}}, %{{.*}}, %{{.*}}, inputPrecision = tf32 : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  // CHECK: %{{.*}} = tt.dot %{{.*}}, %{{.*}}, %{{.*}}, inputPrecision = tf32x3 {maxNumImpreciseAcc = 4 : i32} : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  // CHECK: %{{.*}} = tt.dot %{{.*}}, %{{.*}}, %{{.*}}, inputPrecision = bf16x3 : tensor<2x32x16xf16> * tensor<2x16x32xf16> -> tensor<2x32x32xf32>
  // CHECK: %{{.*}} = tt.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<32x64xi8> * tensor<64x32xi8> -> tensor<32x32xi32>
  tt.func @dots(%a: tensor<64x32xf16>, %b: tensor<32x64xf16>, %c: tensor<64x64xf32>, %ba: tensor<2x32x16xf16>, %bb: tensor<2x16x32xf16>, %bc: tensor<2x32x32xf32>, %ia: tensor<32x64xi8>, %ib: tensor<64x32xi8>, %ic: tensor<32x32xi32>) {
    %0 = tt.dot %a, %b, %c : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %1 = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %2 = tt.dot %a, %b, %c, inputPrecision = tf32x3 {maxNumImpreciseAcc = 4 : i32} : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %3 = tt.dot %ba, %bb, %bc, inputPrecision = bf16x3 : tensor<2x32x16xf16> * tensor<2x16x32xf16> -> tensor<2x32x32xf32>
    %4 = tt.dot %ia, %ib, %ic : tensor<32x64xi8> * tensor<64x32xi8> -> tensor<32x32xi32>
    tt.return
  }

  // CHECK-LABEL: tt.func @dot_scaled(
  // CHECK: %{{.*}} = tt.dot_scaled %{{.*}} scale %{{.*}}, %{{.*}}, %{{.*}} lhs = e2m1 rhs = bf16 {fastMath = false} : tensor<32x64xi8>, tensor<32x4xi8> * tensor<128x32xbf16> -> tensor<32x32xf32>
  // CHECK: %{{.*}} = tt.dot_scaled %{{.*}}, %{{.*}} scale %{{.*}}, %{{.*}} lhs = e4m3 rhs = e5m2 {fastMath = true, rhs_k_pack = false} : tensor<32x64xf8E4M3FN> * tensor<64x32xf8E5M2>, tensor<32x2xi8> -> tensor<32x32xf32>
  tt.func @dot_scaled(%a: tensor<32x64xi8>, %as: tensor<32x4xi8>, %b: tensor<128x32xbf16>, %c: tensor<32x32xf32>, %a8: tensor<32x64xf8E4M3FN>, %b8: tensor<64x32xf8E5M2>, %bs: tensor<32x2xi8>) {
    %0 = tt.dot_scaled %a scale %as, %b, %c lhs = e2m1 rhs = bf16 {fastMath = false} : tensor<32x64xi8>, tensor<32x4xi8> * tensor<128x32xbf16> -> tensor<32x32xf32>
    %1 = tt.dot_scaled %a8, %b8 scale %bs, %c lhs = e4m3 rhs = e5m2 {fastMath = true, rhs_k_pack = false} : tensor<32x64xf8E4M3FN> * tensor<64x32xf8E5M2>, tensor<32x2xi8> -> tensor<32x32xf32>
    tt.return
  }

  // CHECK-LABEL: tt.func @reductions(
  // CHECK: %{{.*}}:2 = "tt.reduce"(%{{.*}}, %{{.*}}) <{axis = 1 : i32}> ({
  // CHECK: tt.reduce.return %{{.*}}, %{{.*}} : f32, i32
  // CHECK: }) : (tensor<32x64xf32>, tensor<32x64xi32>) -> (tensor<32xf32>, tensor<32xi32>)
  // CHECK: %{{.*}} = "tt.reduce"(%{{.*}}) <{axis = 0 : i32}> ({
  // CHECK: tt.reduce.return %{{.*}} : f32
  // CHECK: }) : (tensor<128xf32>) -> f32
  // CHECK: %{{.*}} = "tt.scan"(%{{.*}}) <{axis = 0 : i32, reverse = true}> ({
  // CHECK: tt.scan.return %{{.*}} : f32
  // CHECK: }) : (tensor<32x64xf32>) -> tensor<32x64xf32>
  // CHECK: %{{.*}} = "tt.map_elementwise"(%{{.*}}) <{pack = 1 : i32}> ({
  // CHECK: tt.map_elementwise.return %{{.*}} : f32
  // CHECK: }) : (tensor<128xf32>) -> tensor<128xf32>
  // CHECK: %{{.*}} = "tt.map_elementwise"(%{{.*}}, %{{.*}}) <{pack = 2 : i32}> ({
  // CHECK: tt.map_elementwise.return %{{.*}}, %{{.*}} : i32, i32
  // CHECK: }) : (tensor<128xf32>, tensor<128xi32>) -> tensor<128xi32>
  tt.func @reductions(%x: tensor<32x64xf32>, %i: tensor<32x64xi32>, %v: tensor<128xf32>, %iv: tensor<128xi32>) {
    %0:2 = "tt.reduce"(%x, %i) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
      %gt = arith.cmpf ogt, %a, %b : f32
      %m = arith.select %gt, %a, %b : f32
      %mi = arith.select %gt, %ai, %bi : i32
      tt.reduce.return %m, %mi : f32, i32
    }) : (tensor<32x64xf32>, tensor<32x64xi32>) -> (tensor<32xf32>, tensor<32xi32>)
    %1 = "tt.reduce"(%v) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.reduce.return %s : f32
    }) : (tensor<128xf32>) -> f32
    %2 = "tt.scan"(%x) <{axis = 0 : i32, reverse = true}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.mulf %a, %b : f32
      tt.scan.return %s : f32
    }) : (tensor<32x64xf32>) -> tensor<32x64xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %3 = "tt.map_elementwise"(%v) <{pack = 1 : i32}> ({
    ^bb0(%e: f32):
      %pos = arith.cmpf ogt, %e, %cst : f32
      cf.cond_br %pos, ^bb1, ^bb2(%cst : f32)
    ^bb1:
      %sq = arith.mulf %e, %e : f32
      cf.br ^bb2(%sq : f32)
    ^bb2(%r: f32):
      tt.map_elementwise.return %r : f32
    }) : (tensor<128xf32>) -> tensor<128xf32>
    %4 = "tt.map_elementwise"(%v, %iv) <{pack = 2 : i32}> ({
    ^bb0(%e0: f32, %e1: f32, %j0: i32, %j1: i32):
      tt.map_elementwise.return %j1, %j0 : i32, i32
    }) : (tensor<128xf32>, tensor<128xi32>) -> tensor<128xi32>
    tt.return
  }

  // CHECK-LABEL: tt.func @misc(
  // CHECK: %{{.*}} = tt.histogram %{{.*}} : tensor<1024xi32> -> tensor<64xi32>
  // CHECK: %{{.*}} = tt.histogram %{{.*}}, %{{.*}} : tensor<1024xi32> -> tensor<64xi32>
  // CHECK: %{{.*}} = tt.gather %{{.*}}[%{{.*}}] {axis = 1 : i32} : (tensor<32x64xf32>, tensor<32x64xi32>) -> tensor<32x64xf32>
  // CHECK: %{{.*}} = tt.gather %{{.*}}[%{{.*}}] {axis = 0 : i32, efficient_layout} : (tensor<32x64xf32>, tensor<32x64xi32>) -> tensor<32x64xf32>
  // CHECK: tt.print " x: " {hex = false, isSigned = array<i32: 1, 0>} : %{{.*}}, %{{.*}} : tensor<1024xi32>, i32
  // CHECK: tt.print "done" {hex = true, isSigned = array<i32>}
  // CHECK: tt.assert %{{.*}}, "lane failed" : tensor<1024xi1>
  // CHECK: tt.assert %{{.*}}, "" : i1
  tt.func @misc(%x: tensor<1024xi32>, %m: tensor<1024xi1>, %src: tensor<32x64xf32>, %idx: tensor<32x64xi32>, %c: i1, %n: i32) {
    %0 = tt.histogram %x : tensor<1024xi32> -> tensor<64xi32>
    %1 = tt.histogram %x, %m : tensor<1024xi32> -> tensor<64xi32>
    %2 = tt.gather %src[%idx] {axis = 1 : i32} : (tensor<32x64xf32>, tensor<32x64xi32>) -> tensor<32x64xf32>
    %3 = tt.gather %src[%idx] {axis = 0 : i32, efficient_layout} : (tensor<32x64xf32>, tensor<32x64xi32>) -> tensor<32x64xf32>
    tt.print " x: " {hex = false, isSigned = array<i32: 1, 0>} : %x, %n : tensor<1024xi32>, i32
    tt.print "done" {hex = true, isSigned = array<i32>}
    tt.assert %m, "lane failed" : tensor<1024xi1>
    tt.assert %c, "" : i1
    tt.return
  }

  // CHECK-LABEL: tt.func @block_pointers(
  // CHECK: %{{.*}} = tt.make_tensor_ptr %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] {order = array<i32: 1, 0>} : <tensor<64x64xf16>>
  // CHECK: %{{.*}} = tt.advance %{{.*}}, [%{{.*}}, %{{.*}}] : <tensor<64x64xf16>>
  // CHECK: %{{.*}} = tt.load %{{.*}} {boundaryCheck = array<i32: 0, 1>, padding = 2 : i32} : !tt.ptr<tensor<64x64xf16>>
  // CHECK: %{{.*}} = tt.load %{{.*}} cacheModifier = cg {boundaryCheck = array<i32: 1>, isVolatile = true, padding = 1 : i32} : !tt.ptr<tensor<64x64xf16>>
  // CHECK: tt.store %{{.*}}, %{{.*}} {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<64x64xf16>>
  // CHECK: tt.store %{{.*}}, %{{.*}} : !tt.ptr<tensor<64x64xf16>>
  tt.func @block_pointers(%base: !tt.ptr<f16>, %M: i64, %N: i64, %sM: i64, %o: i32) {
    %c1 = arith.constant 1 : i64
    %p = tt.make_tensor_ptr %base, [%M, %N], [%sM, %c1], [%o, %o] {order = array<i32: 1, 0>} : <tensor<64x64xf16>>
    %q = tt.advance %p, [%o, %o] : <tensor<64x64xf16>>
    %0 = tt.load %q {boundaryCheck = array<i32: 0, 1>, padding = 2 : i32} : !tt.ptr<tensor<64x64xf16>>
    %1 = tt.load %q cacheModifier = cg {boundaryCheck = array<i32: 1>, isVolatile = true, padding = 1 : i32} : !tt.ptr<tensor<64x64xf16>>
    tt.store %q, %0 {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<64x64xf16>>
    tt.store %q, %1 : !tt.ptr<tensor<64x64xf16>>
    tt.return
  }

  // CHECK-LABEL: tt.func @descriptors(
  // CHECK: %{{.*}} = tt.make_tensor_descriptor %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] : <f16>, <tensor<64x64xf16>>
  // CHECK: %{{.*}} = tt.make_tensor_descriptor %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] {padding = 2 : i32} : <f16>, <tensor<64x64xf16>>
  // CHECK: %{{.*}} = tt.make_tensor_descriptor %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] : <i32>, <tensor<1x64xsi32>>
  // CHECK: %{{.*}} = tt.descriptor_load %{{.*}}[%{{.*}}, %{{.*}}] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
  // CHECK: %{{.*}} = tt.descriptor_load %{{.*}}[%{{.*}}, %{{.*}}] cacheModifier = cg evictionPolicy = evict_first : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
  // CHECK: tt.descriptor_store %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16>
  // CHECK: tt.descriptor_reduce add, %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16>
  // CHECK: %{{.*}} = tt.descriptor_gather %{{.*}}[%{{.*}}, %{{.*}}] : (!tt.tensordesc<tensor<1x64xsi32>>, tensor<32xi32>, i32) -> tensor<32x64xi32>
  // CHECK: tt.descriptor_scatter %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !tt.tensordesc<tensor<1x64xsi32>>, tensor<32xi32>, i32, tensor<32x64xi32>
  tt.func @descriptors(%base: !tt.ptr<f16>, %ibase: !tt.ptr<i32>, %M: i32, %N: i32, %s: i64, %i: i32, %rows: tensor<32xi32>, %t: tensor<64x64xf16>) {
    %c1 = arith.constant 1 : i64
    %d = tt.make_tensor_descriptor %base, [%M, %N], [%s, %c1] : <f16>, <tensor<64x64xf16>>
    %dn = tt.make_tensor_descriptor %base, [%M, %N], [%s, %c1] {padding = 2 : i32} : <f16>, <tensor<64x64xf16>>
    %dg = tt.make_tensor_descriptor %ibase, [%M, %N], [%s, %c1] : <i32>, <tensor<1x64xsi32>>
    %0 = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
    %1 = tt.descriptor_load %dn[%i, %i] cacheModifier = cg evictionPolicy = evict_first : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
    tt.descriptor_store %d[%i, %i], %t : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16>
    tt.descriptor_reduce add, %d[%i, %i], %t : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16>
    %2 = tt.descriptor_gather %dg[%rows, %i] : (!tt.tensordesc<tensor<1x64xsi32>>, tensor<32xi32>, i32) -> tensor<32x64xi32>
    tt.descriptor_scatter %dg[%rows, %i], %2 : !tt.tensordesc<tensor<1x64xsi32>>, tensor<32xi32>, i32, tensor<32x64xi32>
    tt.return
  }

  // CHECK-LABEL: tt.func @descriptor_rank_drop(
  // CHECK: %{{.*}} = tt.descriptor_load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : !tt.tensordesc<tensor<1x32x32xf32>> -> tensor<32x32xf32>
  tt.func @descriptor_rank_drop(%d: !tt.tensordesc<tensor<1x32x32xf32>>, %i: i32) {
    %0 = tt.descriptor_load %d[%i, %i, %i] : !tt.tensordesc<tensor<1x32x32xf32>> -> tensor<32x32xf32>
    tt.return
  }
}
