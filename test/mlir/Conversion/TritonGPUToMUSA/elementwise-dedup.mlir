// Elementwise ops are computed once per run of registers the axis analysis
// proves equal (de-duplication by constancy, as Triton's NVIDIA lowering
// does): the other registers of the run reuse the value. The lowering is the
// same on every target.
// RUN: musa-opt %s -split-input-file -convert-tritongpu-to-musa=arch=mp_31 | FileCheck %s
// RUN: musa-opt %s -split-input-file "-convert-tritongpu-to-musa=arch=mp_31 target=emulator" | FileCheck %s
// RUN: musa-opt %s -split-input-file "-convert-tritongpu-to-musa=arch=mp_31 target=proxy" | FileCheck %s

// Liger's layer norm: mask = cols < n with n divisible by 16 is constant over
// aligned runs of 16 columns; a thread holds 2 runs of 8 consecutive
// columns (sizePerThread 8, 256 threads, 4096 columns): 2 compares, each
// filling the 8 registers of its run, which the selects read.
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @masked_select(
  // CHECK: %[[P0:.*]] = llvm.icmp "slt"
  // CHECK: %[[P8:.*]] = llvm.icmp "slt"
  // CHECK-NOT: llvm.icmp "slt"
  // CHECK-COUNT-8: llvm.insertvalue %[[P0]], %{{.*}} : !llvm.struct<(i1,
  // CHECK-COUNT-8: llvm.insertvalue %[[P8]], %{{.*}} : !llvm.struct<(i1,
  // CHECK-NOT: llvm.icmp "slt"
  // CHECK-COUNT-16: llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, f32
  // CHECK-NOT: llvm.select
  // CHECK: llvm.return
  tt.func public @masked_select(%n: i32 {tt.divisibility = 16 : i32}) {
    %zero = arith.constant dense<0.000000e+00> : tensor<4096xf32, #blocked>
    %cols = tt.make_range {end = 4096 : i32, start = 0 : i32} : tensor<4096xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<4096xi32, #blocked>
    %mask = arith.cmpi slt, %cols, %ns : tensor<4096xi32, #blocked>
    %x = arith.sitofp %cols : tensor<4096xi32, #blocked> to tensor<4096xf32, #blocked>
    %y = arith.select %mask, %x, %zero : tensor<4096xi1, #blocked>, tensor<4096xf32, #blocked>
    tt.return
  }

  // Without the hint on n nothing is known: one compare per register.
  // CHECK-LABEL: llvm.func @unknown_bound(
  // CHECK-COUNT-16: llvm.icmp "slt"
  // CHECK-NOT: llvm.icmp "slt"
  // CHECK: llvm.return
  tt.func public @unknown_bound(%n: i32) {
    %cols = tt.make_range {end = 4096 : i32, start = 0 : i32} : tensor<4096xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<4096xi32, #blocked>
    %mask = arith.cmpi slt, %cols, %ns : tensor<4096xi32, #blocked>
    tt.return
  }

  // n divisible by 4 only: runs of 4, 4 compares.
  // CHECK-LABEL: llvm.func @short_runs(
  // CHECK-COUNT-4: llvm.icmp "slt"
  // CHECK-NOT: llvm.icmp "slt"
  // CHECK: llvm.return
  tt.func public @short_runs(%n: i32 {tt.divisibility = 4 : i32}) {
    %cols = tt.make_range {end = 4096 : i32, start = 0 : i32} : tensor<4096xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<4096xi32, #blocked>
    %mask = arith.cmpi slt, %cols, %ns : tensor<4096xi32, #blocked>
    tt.return
  }

  // Pure tt ops and math on a splat are computed once; a call that may have
  // side effects (tt.extern_elementwise without `pure`) is made per register.
  // CHECK-LABEL: llvm.func @splat_ops(
  // CHECK: llvm.intr.sqrt
  // CHECK-NOT: llvm.intr.sqrt
  // (exp2 is ex2.approx.ftz on the proxy: TargetInfo::exp2F32.)
  // CHECK: {{llvm.intr.exp2|llvm.call @llvm.nvvm.ex2.approx.ftz.f32}}
  // CHECK-NOT: {{llvm.intr.exp2|llvm.call @llvm.nvvm.ex2.approx.ftz.f32}}
  // CHECK-COUNT-16: llvm.call @__mt_impure_f32
  // CHECK-NOT: llvm.call @__mt_impure_f32
  // CHECK: llvm.return
  tt.func public @splat_ops(%f: f32) {
    %fs = tt.splat %f : f32 -> tensor<4096xf32, #blocked>
    %s = tt.precise_sqrt %fs : tensor<4096xf32, #blocked>
    %e = math.exp2 %s : tensor<4096xf32, #blocked>
    %c = tt.extern_elementwise %e {libname = "libdevice", libpath = "/usr/local/musa/mtgpu/bitcode/libdevice.31.bc", pure = false, symbol = "__mt_impure_f32"} : (tensor<4096xf32, #blocked>) -> tensor<4096xf32, #blocked>
    tt.return
  }
}

// -----

// 2-D: a row index broadcast along the columns is constant along dim 1. A
// thread holds 2 rows x 4 columns per tile and 2 x 2 tiles (32 registers):
// 4 distinct rows, so 4 multiplies; the column-varying sum stays per
// register.
#blocked = #ttg.blocked<{sizePerThread = [2, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @row_offsets(
  // CHECK-COUNT-4: llvm.mul %{{.*}}, %{{.*}} : i32
  // CHECK-NOT: llvm.mul
  // CHECK-COUNT-32: llvm.add %{{.*}}, %{{.*}} : i32
  // CHECK: llvm.return
  tt.func public @row_offsets(%stride: i32) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %re = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %rows = tt.broadcast %re : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %c = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %ce = tt.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %cols = tt.broadcast %ce : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %s = tt.splat %stride : i32 -> tensor<64x64xi32, #blocked>
    %m = arith.muli %rows, %s : tensor<64x64xi32, #blocked>
    %o = arith.addi %m, %cols : tensor<64x64xi32, #blocked>
    tt.return
  }
}

// -----

// A causal mask, rows[:, None] >= cols[None, :], is constant along neither
// dimension: each column is compared with consecutive rows, and a column
// index is aligned only at the start of the range (what divides the first
// value of cols says nothing of the others). One compare per register.
#blocked = #ttg.blocked<{sizePerThread = [2, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @causal_mask(
  // CHECK-COUNT-32: llvm.icmp "sge"
  // CHECK-NOT: llvm.icmp "sge"
  // CHECK: llvm.return
  tt.func public @causal_mask() {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %re = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %rows = tt.broadcast %re : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %c = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %ce = tt.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %cols = tt.broadcast %ce : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %mask = arith.cmpi sge, %rows, %cols : tensor<64x64xi32, #blocked>
    tt.return
  }
}
