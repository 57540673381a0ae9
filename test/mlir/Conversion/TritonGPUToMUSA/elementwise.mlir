// arith/math on tensors: the op is applied to each of the thread's registers
// and the scalar copies are lowered by the upstream arith/math -> LLVM
// patterns; splat constants fill every register. The inputs vary per
// register (make_range), so that no register repeats another
// (elementwise-dedup.mlir).
// RUN: musa-opt %s -split-input-file -convert-tritongpu-to-musa=arch=mp_31 -o %t.mp_31.mlir
// RUN: FileCheck %s --input-file=%t.mp_31.mlir

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @float_ops(
  // CHECK: %[[HALF:.*]] = llvm.mlir.constant(5.000000e-01 : f32) : f32
  // CHECK: llvm.insertvalue %[[HALF]], %{{.*}}[1] : !llvm.struct<(f32, f32)>
  // CHECK-COUNT-2: llvm.fmul %{{.*}}, %{{.*}} {fastmathFlags = #llvm.fastmath<fast>} : f32
  // CHECK-COUNT-2: llvm.intr.exp2(%{{.*}}) : (f32) -> f32
  // CHECK-COUNT-2: llvm.fcmp "olt" %{{.*}}, %{{.*}} : f32
  // CHECK: llvm.insertvalue %{{.*}}[1] : !llvm.struct<(i1, i1)>
  // CHECK-COUNT-2: llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, f32
  // CHECK-COUNT-2: llvm.fptosi %{{.*}} : f32 to i32
  tt.func public @float_ops() {
    %half = arith.constant dense<5.000000e-01> : tensor<256xf32, #blocked>
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %xs = arith.sitofp %r : tensor<256xi32, #blocked> to tensor<256xf32, #blocked>
    %m = arith.mulf %xs, %half fastmath<fast> : tensor<256xf32, #blocked>
    %e = math.exp2 %m : tensor<256xf32, #blocked>
    %c = arith.cmpf olt, %e, %half : tensor<256xf32, #blocked>
    %s = arith.select %c, %e, %m : tensor<256xi1, #blocked>, tensor<256xf32, #blocked>
    %i = arith.fptosi %s : tensor<256xf32, #blocked> to tensor<256xi32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // Integer ops, a scalar condition for arith.select (used for every
  // register) and casts between widths.
  // CHECK-LABEL: llvm.func @int_ops(
  // CHECK-SAME: %[[B:.*]]: i1, %{{.*}}: i32
  // CHECK-COUNT-2: llvm.xor %{{.*}}, %{{.*}} : i32
  // CHECK-COUNT-2: llvm.ashr %{{.*}}, %{{.*}} : i32
  // CHECK-COUNT-2: llvm.select %[[B]], %{{.*}}, %{{.*}} : i1, i32
  // CHECK-COUNT-2: llvm.sext %{{.*}} : i32 to i64
  // CHECK: llvm.insertvalue %{{.*}}[1] : !llvm.struct<(i64, i64)>
  tt.func public @int_ops(%b: i1, %k: i32) {
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %ks = tt.splat %k : i32 -> tensor<256xi32, #blocked>
    %x = arith.xori %r, %ks : tensor<256xi32, #blocked>
    %y = arith.shrsi %x, %r : tensor<256xi32, #blocked>
    %z = arith.select %b, %x, %y : tensor<256xi32, #blocked>
    %w = arith.extsi %z : tensor<256xi32, #blocked> to tensor<256xi64, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // tt elementwise ops, on scalars and per register.
  // CHECK-LABEL: llvm.func @triton_ops(
  // CHECK-SAME: %[[P:[^:]*]]: !llvm.ptr<1>, %[[X:[^:]*]]: i32, %[[F:[^:]*]]: f32
  // CHECK: %[[I:.*]] = llvm.ptrtoint %[[P]] : !llvm.ptr<1> to i64
  // CHECK: llvm.inttoptr %[[I]] : i64 to !llvm.ptr<1>
  // CHECK: llvm.bitcast %[[F]] : f32 to i32
  // CHECK: %[[XW:.*]] = llvm.zext %[[X]] : i32 to i64
  // CHECK: %[[YW:.*]] = llvm.zext %[[X]] : i32 to i64
  // CHECK: %[[M:.*]] = llvm.mul %[[XW]], %[[YW]] : i64
  // CHECK: %[[H:.*]] = llvm.lshr %[[M]], %{{.*}} : i64
  // CHECK: llvm.trunc %[[H]] : i64 to i32
  // CHECK-COUNT-2: llvm.intr.sqrt(%{{.*}}) : (f32) -> f32
  // CHECK-COUNT-2: llvm.fdiv %{{.*}}, %{{.*}} : f32
  tt.func public @triton_ops(%p: !tt.ptr<f32>, %x: i32, %f: f32) {
    %i = tt.ptr_to_int %p : !tt.ptr<f32> -> i64
    %q = tt.int_to_ptr %i : i64 -> !tt.ptr<f32>
    %b = tt.bitcast %f : f32 -> i32
    %h = tt.mulhiui %x, %x : i32
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %fs = arith.sitofp %r : tensor<256xi32, #blocked> to tensor<256xf32, #blocked>
    %s = tt.precise_sqrt %fs : tensor<256xf32, #blocked>
    %d = tt.precise_divf %s, %fs : tensor<256xf32, #blocked>
    tt.return
  }
}

// -----

// tl.exp on f32 is exp2(x * log2 e), the native base-2 exponential after one
// multiply (as Triton's NVIDIA backend lowers it), never llvm.exp, which
// the GPU backends expand into an accurate expf around the same exp2; f64
// keeps llvm.exp.
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @exp_ops(
  // CHECK-NOT: llvm.intr.exp(
  // CHECK: %[[L:.*]] = llvm.mlir.constant(1.44269502 : f32) : f32
  // CHECK-NEXT: %[[S:.*]] = llvm.fmul %{{.*}}, %[[L]] : f32
  // CHECK-NEXT: llvm.intr.exp2(%[[S]]) : (f32) -> f32
  // CHECK: llvm.fmul
  // CHECK-NEXT: llvm.intr.exp2
  // CHECK-NOT: llvm.intr.exp(%{{.*}}) : (f32)
  // CHECK: llvm.intr.exp(%{{.*}}) : (f64) -> f64
  tt.func public @exp_ops() {
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %xs = arith.sitofp %r : tensor<256xi32, #blocked> to tensor<256xf32, #blocked>
    %e = math.exp %xs : tensor<256xf32, #blocked>
    %ys = arith.sitofp %r : tensor<256xi32, #blocked> to tensor<256xf64, #blocked>
    %f = math.exp %ys : tensor<256xf64, #blocked>
    tt.return
  }
}
