// tt.reshape, tt.trans, tt.join, tt.split, tt.cat, tt.unsplat: register-only; the result
// registers are the source registers in the order the linear layouts give.
// RUN: musa-opt %s -split-input-file -convert-tritongpu-to-musa=arch=mp_31 -o %t.mp_31.mlir
// RUN: FileCheck %s --input-file=%t.mp_31.mlir '--implicit-check-not={{^ *(%[^ ]* = )?"?ttg?\.[a-z_]+}}'

#src = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#dst = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // join: thread t holds rows 2t, 2t+1; its registers are (2t,0) (2t,1)
  // (2t+1,0) (2t+1,1) = lhs[0], rhs[0], lhs[1], rhs[1]. split undoes it.
  // CHECK-LABEL: llvm.func @join_split(
  // CHECK-SAME: %[[A:[^:]*]]: !llvm.struct<(f32, f32)>, %[[B:[^:]*]]: !llvm.struct<(f32, f32)>
  // CHECK-DAG: %[[A0:.*]] = llvm.extractvalue %[[A]][0]
  // CHECK-DAG: %[[A1:.*]] = llvm.extractvalue %[[A]][1]
  // CHECK-DAG: %[[B0:.*]] = llvm.extractvalue %[[B]][0]
  // CHECK-DAG: %[[B1:.*]] = llvm.extractvalue %[[B]][1]
  // CHECK: %[[J0:.*]] = llvm.insertvalue %[[A0]], %{{.*}}[0]
  // CHECK: %[[J1:.*]] = llvm.insertvalue %[[B0]], %[[J0]][1]
  // CHECK: %[[J2:.*]] = llvm.insertvalue %[[A1]], %[[J1]][2]
  // CHECK: %[[J:.*]] = llvm.insertvalue %[[B1]], %[[J2]][3] : !llvm.struct<(f32, f32, f32, f32)>
  // CHECK-DAG: %[[S0:.*]] = llvm.extractvalue %[[J]][0]
  // CHECK-DAG: %[[S1:.*]] = llvm.extractvalue %[[J]][1]
  // CHECK-DAG: %[[S2:.*]] = llvm.extractvalue %[[J]][2]
  // CHECK-DAG: %[[S3:.*]] = llvm.extractvalue %[[J]][3]
  // CHECK: %[[L0:.*]] = llvm.insertvalue %[[S0]], %{{.*}}[0]
  // CHECK: %[[LO:.*]] = llvm.insertvalue %[[S2]], %[[L0]][1]
  // CHECK: %[[H0:.*]] = llvm.insertvalue %[[S1]], %{{.*}}[0]
  // CHECK: %[[HI:.*]] = llvm.insertvalue %[[S3]], %[[H0]][1]
  // CHECK: llvm.fmul
  tt.func public @join_split(%a: tensor<64xf32, #src>, %b: tensor<64xf32, #src>) -> tensor<64xf32, #src> {
    %j = tt.join %a, %b : tensor<64xf32, #src> -> tensor<64x2xf32, #dst>
    %lo, %hi = tt.split %j : tensor<64x2xf32, #dst> -> tensor<64xf32, #src>
    %p = arith.mulf %lo, %hi : tensor<64xf32, #src>
    tt.return %p : tensor<64xf32, #src>
  }
}

// -----

#src = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [2, 16], warpsPerCTA = [1, 1], order = [1, 0]}>
#dst = #ttg.linear<{register = [[0, 1], [1, 0]], lane = [[2, 0], [4, 0], [8, 0], [16, 0], [0, 2]], warp = [], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // trans of a 2x2 register block whose result registers run along the other
  // dimension: result registers = source registers 0, 2, 1, 3.
  // CHECK-LABEL: llvm.func @trans(
  // CHECK-SAME: %[[X:[^:]*]]: !llvm.struct<(f32, f32, f32, f32)>
  // CHECK-DAG: %[[X0:.*]] = llvm.extractvalue %[[X]][0]
  // CHECK-DAG: %[[X1:.*]] = llvm.extractvalue %[[X]][1]
  // CHECK-DAG: %[[X2:.*]] = llvm.extractvalue %[[X]][2]
  // CHECK-DAG: %[[X3:.*]] = llvm.extractvalue %[[X]][3]
  // CHECK: %[[T0:.*]] = llvm.insertvalue %[[X0]], %{{.*}}[0]
  // CHECK: %[[T1:.*]] = llvm.insertvalue %[[X2]], %[[T0]][1]
  // CHECK: %[[T2:.*]] = llvm.insertvalue %[[X1]], %[[T1]][2]
  // CHECK: llvm.insertvalue %[[X3]], %[[T2]][3]
  tt.func public @trans(%x: tensor<4x32xf32, #src>) -> tensor<32x4xf32, #dst> {
    %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<4x32xf32, #src> -> tensor<32x4xf32, #dst>
    tt.return %t : tensor<32x4xf32, #dst>
  }
}

// -----

#src = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [0, 1]}>
#dst = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#src1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#dst1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // Row-major reshape 8x2 -> 16: thread t holds rows 2t, 2t+1 with column-major
  // registers (flat 4t, 4t+2, 4t+1, 4t+3); the result holds flat 4t .. 4t+3:
  // source registers 0, 2, 1, 3.
  // CHECK-LABEL: llvm.func @reshape(
  // CHECK-SAME: %[[X:[^:]*]]: !llvm.struct<(f32, f32, f32, f32)>
  // CHECK-DAG: %[[X0:.*]] = llvm.extractvalue %[[X]][0]
  // CHECK-DAG: %[[X1:.*]] = llvm.extractvalue %[[X]][1]
  // CHECK-DAG: %[[X2:.*]] = llvm.extractvalue %[[X]][2]
  // CHECK-DAG: %[[X3:.*]] = llvm.extractvalue %[[X]][3]
  // CHECK: %[[R0:.*]] = llvm.insertvalue %[[X0]], %{{.*}}[0]
  // CHECK: %[[R1:.*]] = llvm.insertvalue %[[X2]], %[[R0]][1]
  // CHECK: %[[R2:.*]] = llvm.insertvalue %[[X1]], %[[R1]][2]
  // CHECK: llvm.insertvalue %[[X3]], %[[R2]][3]
  tt.func public @reshape(%x: tensor<8x2xf32, #src>) -> tensor<16xf32, #dst> {
    %r = tt.reshape %x : tensor<8x2xf32, #src> -> tensor<16xf32, #dst>
    tt.return %r : tensor<16xf32, #dst>
  }

  // allow_reorder: lanes hold different elements in the row-major view, but
  // any order will do, so each thread keeps its registers.
  // CHECK-LABEL: llvm.func @reshape_reorder(
  // CHECK-SAME: %[[X:[^:]*]]: !llvm.struct<(i32, i32)>
  // CHECK-DAG: %[[X0:.*]] = llvm.extractvalue %[[X]][0]
  // CHECK-DAG: %[[X1:.*]] = llvm.extractvalue %[[X]][1]
  // CHECK: %[[R0:.*]] = llvm.insertvalue %[[X0]], %{{.*}}[0]
  // CHECK: llvm.insertvalue %[[X1]], %[[R0]][1]
  tt.func public @reshape_reorder(%x: tensor<64xi32, #src1>) -> tensor<8x8xi32, #dst1> {
    %r = tt.reshape %x allow_reorder : tensor<64xi32, #src1> -> tensor<8x8xi32, #dst1>
    tt.return %r : tensor<8x8xi32, #dst1>
  }
}

// -----

#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // cat (order unspecified): each thread's lhs register, then its rhs one.
  // CHECK-LABEL: llvm.func @cat(
  // CHECK-SAME: %[[A:[^:]*]]: !llvm.struct<(f16)>, %[[B:[^:]*]]: !llvm.struct<(f16)>
  // CHECK-DAG: %[[A0:.*]] = llvm.extractvalue %[[A]][0]
  // CHECK-DAG: %[[B0:.*]] = llvm.extractvalue %[[B]][0]
  // CHECK: %[[C0:.*]] = llvm.insertvalue %[[A0]], %{{.*}}[0]
  // CHECK: llvm.insertvalue %[[B0]], %[[C0]][1] : !llvm.struct<(f16, f16)>
  tt.func public @cat(%a: tensor<64xf16, #blocked1>, %b: tensor<64xf16, #blocked1>) -> tensor<128xf16, #blocked2> {
    %c = tt.cat %a, %b : tensor<64xf16, #blocked1> -> tensor<128xf16, #blocked2>
    tt.return %c : tensor<128xf16, #blocked2>
  }
}

// -----

#one = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // unsplat: every thread's register 0 holds the tensor's only element.
  // CHECK-LABEL: llvm.func @unsplat(
  // CHECK-SAME: %[[T:[^:]*]]: !llvm.struct<(i32)>
  // CHECK: %[[V:.*]] = llvm.extractvalue %[[T]][0] : !llvm.struct<(i32)>
  // CHECK: llvm.return %[[V]] : i32
  tt.func @unsplat(%t: tensor<1xi32, #one>) -> i32 {
    %s = tt.unsplat %t : tensor<1xi32, #one>
    tt.return %s : i32
  }
}
