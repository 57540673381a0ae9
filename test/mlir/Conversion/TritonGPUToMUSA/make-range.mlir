// tt.make_range: the coordinates of each register come from the blocked
// layout's linear layout: register r holds L(r, 0, 0) | L(0, lane, warp),
// with lane = tid & (warpSize - 1) and warp = tid >> log2(warpSize).
// RUN: musa-opt %s -split-input-file -convert-tritongpu-to-musa=arch=mp_31 -o %t.mp_31.mlir
// RUN: FileCheck %s --check-prefixes=CHECK,MP31 --input-file=%t.mp_31.mlir
// RUN: musa-opt %S/Inputs/make-range.mp_22.mlir -split-input-file -convert-tritongpu-to-musa=arch=mp_22 -o %t.mp_22.mlir
// RUN: FileCheck %s --check-prefixes=CHECK,MP22 --input-file=%t.mp_22.mlir

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // sizePerThread = [4]: 4 consecutive elements per thread, one tile
  // (mp_31: 4 x 32 x 4 = 512, mp_22: 4 x 128 x 4 = 2048).
  // CHECK-LABEL: llvm.func @range(
  // CHECK: %[[TID:.*]] = llvm.call @llvm.musa.read.ptx.sreg.tid.x()
  // MP31: %[[M:.*]] = llvm.mlir.constant(31 : i32) : i32
  // MP31: %[[LANE:.*]] = llvm.and %[[TID]], %[[M]] : i32
  // MP31: %[[S:.*]] = llvm.mlir.constant(5 : i32) : i32
  // MP31: %[[WARP:.*]] = llvm.lshr %[[TID]], %[[S]] : i32
  // MP31: %[[C2:.*]] = llvm.mlir.constant(2 : i32) : i32
  // MP31: %[[L:.*]] = llvm.shl %[[LANE]], %[[C2]] : i32
  // MP31: %[[C7:.*]] = llvm.mlir.constant(7 : i32) : i32
  // MP31: %[[W:.*]] = llvm.shl %[[WARP]], %[[C7]] : i32
  // MP22: %[[M:.*]] = llvm.mlir.constant(127 : i32) : i32
  // MP22: %[[LANE:.*]] = llvm.and %[[TID]], %[[M]] : i32
  // MP22: %[[S:.*]] = llvm.mlir.constant(7 : i32) : i32
  // MP22: %[[WARP:.*]] = llvm.lshr %[[TID]], %[[S]] : i32
  // MP22: %[[C2:.*]] = llvm.mlir.constant(2 : i32) : i32
  // MP22: %[[L:.*]] = llvm.shl %[[LANE]], %[[C2]] : i32
  // MP22: %[[C9:.*]] = llvm.mlir.constant(9 : i32) : i32
  // MP22: %[[W:.*]] = llvm.shl %[[WARP]], %[[C9]] : i32
  // CHECK: %[[BASE:.*]] = llvm.or %[[L]], %[[W]] : i32
  // CHECK: llvm.or %[[BASE]], %{{.*}} : i32
  // CHECK: llvm.or %[[BASE]], %{{.*}} : i32
  // CHECK: llvm.or %[[BASE]], %{{.*}} : i32
  // CHECK: llvm.insertvalue %[[BASE]], %{{.*}}[0] : !llvm.struct<(i32, i32, i32, i32)>
  // CHECK: llvm.insertvalue %{{.*}}[3] : !llvm.struct<(i32, i32, i32, i32)>
  tt.func public @range(%out: !tt.ptr<i32>) {
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %p = tt.splat %out : !tt.ptr<i32> -> tensor<512x!tt.ptr<i32>, #blocked>
    %q = tt.addptr %p, %r : tensor<512x!tt.ptr<i32>, #blocked>, tensor<512xi32, #blocked>
    tt.store %q, %r : tensor<512x!tt.ptr<i32>, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // Two tiles: registers 4..7 hold the second one (offset 512 / 2048), and a
  // non-zero start is added to each coordinate.
  // CHECK-LABEL: llvm.func @range_repeat(
  // MP31-DAG: llvm.mlir.constant(515 : i32)
  // MP22-DAG: llvm.mlir.constant(2051 : i32)
  // CHECK-DAG: %[[START:.*]] = llvm.mlir.constant(16 : i32) : i32
  // CHECK: llvm.add %{{.*}}, %[[START]] : i32
  // CHECK: llvm.insertvalue %{{.*}}[7] : !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32)>
  tt.func public @range_repeat(%out: !tt.ptr<i32>) {
    %r = tt.make_range {end = 1040 : i32, start = 16 : i32} : tensor<1024xi32, #blocked>
    %p = tt.splat %out : !tt.ptr<i32> -> tensor<1024x!tt.ptr<i32>, #blocked>
    %q = tt.addptr %p, %r : tensor<1024x!tt.ptr<i32>, #blocked>, tensor<1024xi32, #blocked>
    tt.store %q, %r : tensor<1024x!tt.ptr<i32>, #blocked>
    tt.return
  }
}
