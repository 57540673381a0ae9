// tt.clampf, math.erf, tt.extern_elementwise and tt.map_elementwise: one
// scalar computation (or call, or inlined region) per register.
// RUN: musa-opt %s -convert-tritongpu-to-musa=arch=mp_31 -o %t.mp_31.mlir
// RUN: FileCheck %s --input-file=%t.mp_31.mlir
// RUN: musa-translate --musa-to-llvmir --musa-arch=mp_31 %t.mp_31.mlir -o %t.mp_31.ll
// RUN: %check-llvm14 %t.mp_31.ll

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // Libdevice functions are declared once, with the element types.
  // CHECK-DAG: llvm.func @__mt_erf_f32(f32) -> f32
  // CHECK-DAG: llvm.func @__mt_pow_f32(f32, f32) -> f32
  // CHECK-DAG: llvm.func @__mt_isnan_f32(f32) -> i32
  // CHECK-DAG: llvm.func @__mt_erf_f64(f64) -> f64

  // clamp(x, lo, hi) = min(max(x, lo), hi), NaN ignored.
  // CHECK-LABEL: llvm.func @clamp_none(
  // CHECK: %[[MAX:.*]] = llvm.intr.maxnum(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
  // CHECK: llvm.intr.minnum(%[[MAX]], %{{.*}}) : (f32, f32) -> f32
  // CHECK: llvm.intr.maxnum
  // CHECK: llvm.intr.minnum
  // CHECK-NOT: llvm.fcmp
  tt.func public @clamp_none(%x: tensor<256xf32, #blocked>, %lo: f32, %hi: f32) -> tensor<256xf32, #blocked> {
    %l = tt.splat %lo : f32 -> tensor<256xf32, #blocked>
    %h = tt.splat %hi : f32 -> tensor<256xf32, #blocked>
    %r = tt.clampf %x, %l, %h, propagateNan = none : tensor<256xf32, #blocked>
    tt.return %r : tensor<256xf32, #blocked>
  }

  // propagateNan = all: a NaN input gives NaN.
  // CHECK-LABEL: llvm.func @clamp_all(
  // CHECK: %[[X:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.struct<(f32, f32)>
  // CHECK: %[[MAX:.*]] = llvm.intr.maxnum(%[[X]], %[[LO:.*]]) : (f32, f32) -> f32
  // CHECK: %[[CLAMP:.*]] = llvm.intr.minnum(%[[MAX]], %[[HI:.*]]) : (f32, f32) -> f32
  // CHECK: %[[XNAN:.*]] = llvm.fcmp "uno" %[[X]], %[[X]] : f32
  // CHECK: %[[BNAN:.*]] = llvm.fcmp "uno" %[[LO]], %[[HI]] : f32
  // CHECK: %[[ANY:.*]] = llvm.or %[[XNAN]], %[[BNAN]] : i1
  // CHECK: %[[NAN:.*]] = llvm.mlir.constant(0x7FC00000 : f32) : f32
  // CHECK: llvm.select %[[ANY]], %[[NAN]], %[[CLAMP]] : i1, f32
  tt.func public @clamp_all(%x: tensor<256xf32, #blocked>, %lo: f32, %hi: f32) -> tensor<256xf32, #blocked> {
    %l = tt.splat %lo : f32 -> tensor<256xf32, #blocked>
    %h = tt.splat %hi : f32 -> tensor<256xf32, #blocked>
    %r = tt.clampf %x, %l, %h, propagateNan = all : tensor<256xf32, #blocked>
    tt.return %r : tensor<256xf32, #blocked>
  }

  // MUSA has no erf intrinsic: libdevice's __mt_erf_f32 / __mt_erf_f64.
  // CHECK-LABEL: llvm.func @erf(
  // CHECK-COUNT-2: llvm.call @__mt_erf_f32(%{{.*}}) : (f32) -> f32
  // CHECK: llvm.call @__mt_erf_f64(%{{.*}}) : (f64) -> f64
  tt.func public @erf(%x: tensor<256xf32, #blocked>, %y: f64) -> (tensor<256xf32, #blocked>, f64) {
    %r = math.erf %x : tensor<256xf32, #blocked>
    %s = math.erf %y : f64
    tt.return %r, %s : tensor<256xf32, #blocked>, f64
  }

  // CHECK-LABEL: llvm.func @extern(
  // CHECK-COUNT-2: llvm.call @__mt_pow_f32(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
  // CHECK-COUNT-2: llvm.call @__mt_isnan_f32(%{{.*}}) : (f32) -> i32
  tt.func public @extern(%x: tensor<256xf32, #blocked>, %y: tensor<256xf32, #blocked>) -> (tensor<256xf32, #blocked>, tensor<256xi32, #blocked>) {
    %p = tt.extern_elementwise %x, %y {libname = "libdevice", libpath = "/usr/local/musa/mtgpu/bitcode/libdevice.31.bc", pure = true, symbol = "__mt_pow_f32"} : (tensor<256xf32, #blocked>, tensor<256xf32, #blocked>) -> tensor<256xf32, #blocked>
    %n = tt.extern_elementwise %x {libname = "libdevice", libpath = "/usr/local/musa/mtgpu/bitcode/libdevice.31.bc", pure = true, symbol = "__mt_isnan_f32"} : (tensor<256xf32, #blocked>) -> tensor<256xi32, #blocked>
    tt.return %p, %n : tensor<256xf32, #blocked>, tensor<256xi32, #blocked>
  }

  // MUSA's libdevice exports some functions under CUDA's names, and the fp32
  // rsqrt is the device intrinsic llvm.musa.rsq, called like a library function.
  // CHECK-LABEL: llvm.func @extern_musa_names(
  // CHECK-COUNT-2: llvm.call @__nv_sinf(%{{.*}}) : (f32) -> f32
  // CHECK-COUNT-2: llvm.call @llvm.musa.rsq(%{{.*}}) : (f32) -> f32
  tt.func public @extern_musa_names(%x: tensor<256xf32, #blocked>) -> (tensor<256xf32, #blocked>, tensor<256xf32, #blocked>) {
    %s = tt.extern_elementwise %x {libname = "libdevice", libpath = "/usr/local/musa/mtgpu/bitcode/libdevice.31.bc", pure = true, symbol = "__nv_sinf"} : (tensor<256xf32, #blocked>) -> tensor<256xf32, #blocked>
    %r = tt.extern_elementwise %x {libname = "libdevice", libpath = "/usr/local/musa/mtgpu/bitcode/libdevice.31.bc", pure = true, symbol = "llvm.musa.rsq"} : (tensor<256xf32, #blocked>) -> tensor<256xf32, #blocked>
    tt.return %s, %r : tensor<256xf32, #blocked>, tensor<256xf32, #blocked>
  }

  // The region (three blocks, as Triton emits for an if inside the mapped
  // function) is inlined once per register; each copy's return branches to
  // the next copy, the last to the rest of the function.
  // CHECK-LABEL: llvm.func @map(
  // CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
  // CHECK: %[[X0:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.struct<(f32, f32)>
  // CHECK: %[[X1:.*]] = llvm.extractvalue %{{.*}}[1] : !llvm.struct<(f32, f32)>
  // CHECK: llvm.br ^[[E0:bb[0-9]+]](%[[X0]] : f32)
  // CHECK: ^[[E0]](%[[A0:.*]]: f32):
  // CHECK: %[[C0:.*]] = llvm.fcmp "ogt" %[[A0]], %[[ZERO]] : f32
  // CHECK: llvm.cond_br %[[C0]], ^[[T0:bb[0-9]+]], ^[[M0:bb[0-9]+]](%[[ZERO]] : f32)
  // CHECK: ^[[T0]]:
  // CHECK: %[[SQ0:.*]] = llvm.fmul %[[A0]], %[[A0]] : f32
  // CHECK: llvm.br ^[[M0]](%[[SQ0]] : f32)
  // CHECK: ^[[M0]](%[[R0:.*]]: f32):
  // CHECK: llvm.br ^[[J0:bb[0-9]+]](%[[R0]] : f32)
  // CHECK: ^[[J0]](%[[D0:.*]]: f32):
  // CHECK: llvm.br ^[[E1:bb[0-9]+]](%[[X1]] : f32)
  // CHECK: ^[[E1]](%[[A1:.*]]: f32):
  // CHECK: llvm.fcmp "ogt" %[[A1]], %[[ZERO]] : f32
  // CHECK: llvm.fmul %[[A1]], %[[A1]] : f32
  // CHECK: ^{{bb[0-9]+}}(%[[R1:.*]]: f32):
  // CHECK: llvm.br ^[[J1:bb[0-9]+]](%[[R1]] : f32)
  // CHECK: ^[[J1]](%[[D1:.*]]: f32):
  // CHECK: llvm.br ^[[REST:bb[0-9]+]]{{ *$}}
  // CHECK: ^[[REST]]:
  // CHECK: %[[P:.*]] = llvm.insertvalue %[[D0]], %{{.*}}[0] : !llvm.struct<(f32, f32)>
  // CHECK: llvm.insertvalue %[[D1]], %[[P]][1] : !llvm.struct<(f32, f32)>
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

  // pack = 2: one region copy per pair of registers (2 registers per thread:
  // one copy); operand k's element j is block argument 2k+j, result r of
  // element j is returned value 2r+j, so registers (0, 1) of result 0 are
  // (x1 - x0, x0 * x1) and those of result 1 are (i1, i0).
  // CHECK-LABEL: llvm.func @map_pack2
  // CHECK: %[[X0:.*]] = llvm.extractvalue %[[XS:.*]][0] : !llvm.struct<(f32, f32)>
  // CHECK: %[[X1:.*]] = llvm.extractvalue %[[XS]][1] : !llvm.struct<(f32, f32)>
  // CHECK: %[[I0:.*]] = llvm.extractvalue %[[IS:.*]][0] : !llvm.struct<(i32, i32)>
  // CHECK: %[[I1:.*]] = llvm.extractvalue %[[IS]][1] : !llvm.struct<(i32, i32)>
  // CHECK: llvm.br ^[[E:bb[0-9]+]](%[[X0]], %[[X1]], %[[I0]], %[[I1]] : f32, f32, i32, i32)
  // CHECK: ^[[E]](%[[A:.*]]: f32, %[[B:.*]]: f32, %[[IA:.*]]: i32, %[[IB:.*]]: i32):
  // CHECK: %[[S:.*]] = llvm.fsub %[[B]], %[[A]] : f32
  // CHECK: %[[M:.*]] = llvm.fmul %[[A]], %[[B]] : f32
  // CHECK: llvm.br ^[[J:bb[0-9]+]](%[[S]], %[[M]], %[[IB]], %[[IA]] : f32, f32, i32, i32)
  // CHECK: ^[[J]](%[[R0:.*]]: f32, %[[R1:.*]]: f32, %[[Q0:.*]]: i32, %[[Q1:.*]]: i32):
  // CHECK-NOT: llvm.br ^{{.*}}(%{{.*}}f32
  // CHECK: %[[P:.*]] = llvm.insertvalue %[[R0]], %{{.*}}[0] : !llvm.struct<(f32, f32)>
  // CHECK: llvm.insertvalue %[[R1]], %[[P]][1] : !llvm.struct<(f32, f32)>
  // CHECK: %[[PI:.*]] = llvm.insertvalue %[[Q0]], %{{.*}}[0] : !llvm.struct<(i32, i32)>
  // CHECK: llvm.insertvalue %[[Q1]], %[[PI]][1] : !llvm.struct<(i32, i32)>
  tt.func public @map_pack2(%x: tensor<256xf32, #blocked1>, %i: tensor<256xi32, #blocked1>) -> (tensor<256xf32, #blocked1>, tensor<256xi32, #blocked1>) {
    %r:2 = "tt.map_elementwise"(%x, %i) <{pack = 2 : i32}> ({
    ^bb0(%a: f32, %b: f32, %ia: i32, %ib: i32):
      %s = arith.subf %b, %a : f32
      %m = arith.mulf %a, %b : f32
      tt.map_elementwise.return %s, %m, %ib, %ia : f32, f32, i32, i32
    }) : (tensor<256xf32, #blocked1>, tensor<256xi32, #blocked1>) -> (tensor<256xf32, #blocked1>, tensor<256xi32, #blocked1>)
    tt.return %r#0, %r#1 : tensor<256xf32, #blocked1>, tensor<256xi32, #blocked1>
  }
}
