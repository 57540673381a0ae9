// tt.splat, tt.expand_dims, tt.broadcast: register-only, each result register
// is picked from the source registers through the two linear layouts.
// RUN: musa-opt %s -split-input-file -convert-tritongpu-to-musa=arch=mp_31 -o %t.mp_31.mlir
// RUN: FileCheck %s --input-file=%t.mp_31.mlir

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @splat(
  // CHECK-SAME: %[[X:.*]]: f32
  // CHECK: %[[U:.*]] = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32)>
  // CHECK: %[[S0:.*]] = llvm.insertvalue %[[X]], %[[U]][0]
  // CHECK: %[[S1:.*]] = llvm.insertvalue %[[X]], %[[S0]][1]
  // CHECK: %[[S2:.*]] = llvm.insertvalue %[[X]], %[[S1]][2]
  // CHECK: llvm.insertvalue %[[X]], %[[S2]][3] : !llvm.struct<(f32, f32, f32, f32)>
  tt.func public @splat(%x: f32) {
    %t = tt.splat %x : f32 -> tensor<512xf32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // A row vector (slice of dim 0) expanded and broadcast down the rows: each
  // thread keeps its 4 registers in order.
  // CHECK-LABEL: llvm.func @row_broadcast(
  // CHECK: %[[R:.*]] = llvm.insertvalue %{{.*}}[3] : !llvm.struct<(i32, i32, i32, i32)>
  // CHECK: %[[R0:.*]] = llvm.extractvalue %[[R]][0]
  // CHECK: %[[R1:.*]] = llvm.extractvalue %[[R]][1]
  // CHECK: %[[R2:.*]] = llvm.extractvalue %[[R]][2]
  // CHECK: %[[R3:.*]] = llvm.extractvalue %[[R]][3]
  // CHECK: llvm.insertvalue %[[R0]], %{{.*}}[0]
  // CHECK: llvm.insertvalue %[[R1]], %{{.*}}[1]
  // CHECK: llvm.insertvalue %[[R2]], %{{.*}}[2]
  // CHECK: %[[E:.*]] = llvm.insertvalue %[[R3]], %{{.*}}[3] : !llvm.struct<(i32, i32, i32, i32)>
  // CHECK: %[[E0:.*]] = llvm.extractvalue %[[E]][0]
  // CHECK: llvm.insertvalue %[[E0]], %{{.*}}[0]
  // CHECK: llvm.insertvalue %{{.*}}[3] : !llvm.struct<(i32, i32, i32, i32)>
  tt.func public @row_broadcast() {
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %e = tt.expand_dims %r {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %b = tt.broadcast %e : tensor<1x32xi32, #blocked> -> tensor<16x32xi32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // A column vector (slice of dim 1): one value per thread, repeated in the
  // 4 registers of its row after the broadcast.
  // CHECK-LABEL: llvm.func @column_broadcast(
  // CHECK: %[[C:.*]] = llvm.insertvalue %{{.*}}[0] : !llvm.struct<(i32)>
  // CHECK: %[[C0:.*]] = llvm.extractvalue %[[C]][0] : !llvm.struct<(i32)>
  // CHECK: %[[E:.*]] = llvm.insertvalue %[[C0]], %{{.*}}[0] : !llvm.struct<(i32)>
  // CHECK: %[[V:.*]] = llvm.extractvalue %[[E]][0] : !llvm.struct<(i32)>
  // CHECK: %[[B0:.*]] = llvm.insertvalue %[[V]], %{{.*}}[0]
  // CHECK: %[[B1:.*]] = llvm.insertvalue %[[V]], %[[B0]][1]
  // CHECK: %[[B2:.*]] = llvm.insertvalue %[[V]], %[[B1]][2]
  // CHECK: llvm.insertvalue %[[V]], %[[B2]][3] : !llvm.struct<(i32, i32, i32, i32)>
  tt.func public @column_broadcast() {
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %e = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<16x1xi32, #blocked>
    %b = tt.broadcast %e : tensor<16x1xi32, #blocked> -> tensor<16x32xi32, #blocked>
    tt.return
  }
}
