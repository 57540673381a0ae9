// tt.reduce: in-thread combines in register order, an xor butterfly over the
// lanes along the axis (largest offset first), and across warps a scratch
// buffer (partials at output * slots + warp slot, barrier, ordered reads).
// The mp_22 input holds the same kernels for 128-lane warps.
// RUN: musa-opt %s -split-input-file -convert-tritongpu-to-musa=arch=mp_31 | FileCheck %s --check-prefixes=CHECK,MP31
// RUN: musa-opt %S/Inputs/reduce.mp_22.mlir -split-input-file -convert-tritongpu-to-musa=arch=mp_22 | FileCheck %s --check-prefixes=CHECK,MP22

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // A row sum within one warp: 3 in-thread adds over the 4 registers, then
  // one add per lane bit; no shared memory.
  // CHECK-LABEL: llvm.func @row_sum(
  // CHECK-COUNT-3: llvm.fadd
  // MP22: %[[O64:.*]] = llvm.mlir.constant(64 : i32)
  // MP22: llvm.call @llvm.musa.shfl.xor.sync.i32(%{{.*}}, %[[O64]],
  // MP22: llvm.fadd
  // MP22: %[[O32:.*]] = llvm.mlir.constant(32 : i32)
  // MP22: llvm.call @llvm.musa.shfl.xor.sync.i32(%{{.*}}, %[[O32]],
  // MP22: llvm.fadd
  // CHECK: %[[O16:.*]] = llvm.mlir.constant(16 : i32)
  // CHECK: llvm.call @llvm.musa.shfl.xor.sync.i32(%{{.*}}, %[[O16]],
  // CHECK: llvm.fadd
  // CHECK: %[[O8:.*]] = llvm.mlir.constant(8 : i32)
  // CHECK: llvm.call @llvm.musa.shfl.xor.sync.i32(%{{.*}}, %[[O8]],
  // CHECK: llvm.fadd
  // CHECK: %[[O4:.*]] = llvm.mlir.constant(4 : i32)
  // CHECK: llvm.call @llvm.musa.shfl.xor.sync.i32(%{{.*}}, %[[O4]],
  // CHECK: llvm.fadd
  // CHECK: %[[O2:.*]] = llvm.mlir.constant(2 : i32)
  // CHECK: llvm.call @llvm.musa.shfl.xor.sync.i32(%{{.*}}, %[[O2]],
  // CHECK: llvm.fadd
  // CHECK: %[[O1:.*]] = llvm.mlir.constant(1 : i32)
  // CHECK: llvm.call @llvm.musa.shfl.xor.sync.i32(%{{.*}}, %[[O1]],
  // CHECK: %[[SUM:.*]] = llvm.fadd
  // CHECK-NOT: llvm.call @llvm.musa.shfl
  // CHECK-NOT: {{@llvm.musa.syncthreads|@llvm.musa.barrier0|@global_smem|!llvm.ptr<3>}}
  // CHECK: llvm.insertvalue %[[SUM]], %{{.*}}[0] : !llvm.struct<(f32)>
  // CHECK-NOT: {{@llvm.musa.syncthreads|@llvm.musa.barrier0|@global_smem|!llvm.ptr<3>}}
  // CHECK: llvm.return
  tt.func public @row_sum(%x: tensor<4x128xf32, #blocked>) -> tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>> {
    %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<4x128xf32, #blocked>) -> tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    tt.return %s : tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 32 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // A 1-D sum to a scalar over 4 warps: each warp's partial goes to slot
  // `warp` of the scratch buffer at byte 16, then every thread adds the 4
  // slots in order.
  // CHECK-LABEL: llvm.func @sum_to_scalar(
  // CHECK: llvm.fadd
  // MP22: llvm.call @llvm.musa.shfl.xor.sync.i32
  // MP22: llvm.call @llvm.musa.shfl.xor.sync.i32
  // CHECK-COUNT-4: llvm.call @llvm.musa.shfl.xor.sync.i32
  // CHECK: llvm.call @llvm.musa.shfl.xor.sync.i32
  // CHECK-NEXT: llvm.bitcast
  // CHECK-NEXT: %[[PARTIAL:.*]] = llvm.fadd
  // CHECK: %[[BASE:.*]] = llvm.mlir.addressof @global_smem
  // CHECK: %[[OFF:.*]] = llvm.mlir.constant(16 : i32)
  // CHECK: %[[BUF:.*]] = llvm.getelementptr %[[BASE]][%[[OFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK: %[[TID:.*]] = llvm.call @llvm.musa.read.ptx.sreg.tid.x
  // MP31: %[[WS:.*]] = llvm.mlir.constant(5 : i32)
  // MP22: %[[WS:.*]] = llvm.mlir.constant(7 : i32)
  // CHECK: %[[WARP:.*]] = llvm.lshr %[[TID]], %[[WS]]
  // CHECK: %[[M3:.*]] = llvm.mlir.constant(3 : i32)
  // CHECK: %[[SLOT:.*]] = llvm.and %[[WARP]], %[[M3]]
  // CHECK: %[[AT:.*]] = llvm.add %{{.*}}, %[[SLOT]]
  // Every lane of a warp holds the partial: lane 0 alone stores it.
  // MP31: %[[LANES:.*]] = llvm.mlir.constant(31 : i32)
  // MP22: %[[LANES:.*]] = llvm.mlir.constant(127 : i32)
  // CHECK-NEXT: %[[BITS:.*]] = llvm.and %{{.*}}, %[[LANES]]
  // CHECK-NEXT: llvm.mlir.constant(0 : i32)
  // CHECK-NEXT: %[[LANE0:.*]] = llvm.icmp "eq" %[[BITS]]
  // CHECK-NEXT: llvm.cond_br %[[LANE0]], ^[[STORE:.*]], ^
  // CHECK-NEXT: ^[[STORE]]:
  // CHECK-NEXT: %[[P:.*]] = llvm.getelementptr %[[BUF]][%[[AT]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
  // CHECK-NEXT: llvm.store %[[PARTIAL]], %[[P]]
  // CHECK-NOT: llvm.store
  // CHECK: llvm.call @llvm.musa.syncthreads.lm
  // CHECK: %[[FIRST:.*]] = llvm.mul
  // CHECK: %[[L0:.*]] = llvm.getelementptr %[[BUF]][%[[FIRST]]]
  // CHECK: %[[V0:.*]] = llvm.load %[[L0]] : !llvm.ptr<3> -> f32
  // CHECK: %[[C1:.*]] = llvm.mlir.constant(1 : i32)
  // CHECK: %[[S1:.*]] = llvm.add %[[FIRST]], %[[C1]]
  // CHECK: %[[L1:.*]] = llvm.getelementptr %[[BUF]][%[[S1]]]
  // CHECK: %[[V1:.*]] = llvm.load %[[L1]] : !llvm.ptr<3> -> f32
  // CHECK: %[[A1:.*]] = llvm.fadd %[[V0]], %[[V1]]
  // CHECK: llvm.mlir.constant(2 : i32)
  // CHECK: %[[V2:.*]] = llvm.load
  // CHECK: %[[A2:.*]] = llvm.fadd %[[A1]], %[[V2]]
  // CHECK: llvm.mlir.constant(3 : i32)
  // CHECK: %[[V3:.*]] = llvm.load
  // CHECK: %[[A3:.*]] = llvm.fadd %[[A2]], %[[V3]]
  // CHECK: llvm.return %[[A3]] : f32
  tt.func public @sum_to_scalar(%x: tensor<256xf32, #blocked>) -> f32 {
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) {allocation.offset = 16 : i32} : (tensor<256xf32, #blocked>) -> f32
    tt.return %s : f32
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // argmax: both operands are shuffled at each step and the region (compare,
  // tie on the smaller index, selects) is applied between steps.
  // CHECK-LABEL: llvm.func @argmax(
  // CHECK: %[[V:.*]] = llvm.call @llvm.musa.shfl.xor.sync.i32
  // CHECK: %[[VF:.*]] = llvm.bitcast %[[V]] : i32 to f32
  // CHECK: %[[I:.*]] = llvm.call @llvm.musa.shfl.xor.sync.i32
  // CHECK: llvm.fcmp "ogt" %{{.*}}, %[[VF]]
  // CHECK: llvm.fcmp "oeq"
  // CHECK: llvm.icmp "slt" %{{.*}}, %[[I]]
  // CHECK: llvm.select
  // CHECK: llvm.select
  // CHECK-COUNT-4: llvm.call @llvm.musa.shfl.xor.sync.i32
  tt.func public @argmax(%v: tensor<4x32xf32, #blocked>, %i: tensor<4x32xi32, #blocked>) -> tensor<4xi32, #ttg.slice<{dim = 1, parent = #blocked}>> {
    %r:2 = "tt.reduce"(%v, %i) <{axis = 1 : i32}> ({
    ^bb0(%av: f32, %ai: i32, %bv: f32, %bi: i32):
      %gt = arith.cmpf ogt, %av, %bv : f32
      %eq = arith.cmpf oeq, %av, %bv : f32
      %lt = arith.cmpi slt, %ai, %bi : i32
      %tie = arith.andi %eq, %lt : i1
      %keep = arith.ori %gt, %tie : i1
      %rv = arith.select %keep, %av, %bv : f32
      %ri = arith.select %keep, %ai, %bi : i32
      tt.reduce.return %rv, %ri : f32, i32
    }) : (tensor<4x32xf32, #blocked>, tensor<4x32xi32, #blocked>) -> (tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<4xi32, #ttg.slice<{dim = 1, parent = #blocked}>>)
    tt.return %r#1 : tensor<4xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 512 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // A column max over 2 registers and 4 warps (no lane moves along dim 0):
  // partial of column c from warp w at slot c * 4 + w; every thread then
  // reads slots c * 4 + 0..3 of its column and combines them in order.
  // CHECK-LABEL: llvm.func @column_max(
  // CHECK: %[[MAX:.*]] = llvm.intr.maxnum
  // CHECK-NOT: llvm.call @llvm.musa.shfl
  // CHECK: %[[BUF:.*]] = llvm.mlir.addressof @global_smem
  // CHECK: %[[WARP:.*]] = llvm.lshr
  // CHECK: %[[M3:.*]] = llvm.mlir.constant(3 : i32)
  // CHECK: %[[SLOT:.*]] = llvm.and %[[WARP]], %[[M3]]
  // CHECK: %[[TID:.*]] = llvm.call @llvm.musa.read.ptx.sreg.tid.x
  // CHECK: %[[COL:.*]] = llvm.and %[[TID]]
  // CHECK: %[[C4:.*]] = llvm.mlir.constant(4 : i32)
  // CHECK: %[[ROW:.*]] = llvm.mul %[[COL]], %[[C4]]
  // CHECK: %[[AT:.*]] = llvm.add %[[ROW]], %[[SLOT]]
  // CHECK: %[[P:.*]] = llvm.getelementptr %[[BUF]][%[[AT]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
  // CHECK: llvm.store %[[MAX]], %[[P]]
  // CHECK: llvm.call @llvm.musa.syncthreads.lm
  // CHECK: %[[TID2:.*]] = llvm.call @llvm.musa.read.ptx.sreg.tid.x
  // CHECK: %[[RCOL:.*]] = llvm.and %[[TID2]]
  // CHECK: %[[FIRST:.*]] = llvm.mul %[[RCOL]], %[[C4]]
  // CHECK: %[[Q0:.*]] = llvm.getelementptr %[[BUF]][%[[FIRST]]]
  // CHECK: %[[V0:.*]] = llvm.load %[[Q0]]
  // CHECK: %[[C1:.*]] = llvm.mlir.constant(1 : i32)
  // CHECK: %[[S1:.*]] = llvm.add %[[FIRST]], %[[C1]]
  // CHECK: %[[Q1:.*]] = llvm.getelementptr %[[BUF]][%[[S1]]]
  // CHECK: %[[V1:.*]] = llvm.load %[[Q1]]
  // CHECK: %[[X1:.*]] = llvm.intr.maxnum(%[[V0]], %[[V1]])
  // CHECK: llvm.mlir.constant(2 : i32)
  // CHECK: %[[V2:.*]] = llvm.load
  // CHECK: %[[X2:.*]] = llvm.intr.maxnum(%[[X1]], %[[V2]])
  // CHECK: llvm.mlir.constant(3 : i32)
  // CHECK: %[[V3:.*]] = llvm.load
  // CHECK: %[[X3:.*]] = llvm.intr.maxnum(%[[X2]], %[[V3]])
  // CHECK: llvm.insertvalue %[[X3]], %{{.*}}[0] : !llvm.struct<(f32)>
  tt.func public @column_max(%x: tensor<8x32xf32, #blocked>) -> tensor<32xf32, #ttg.slice<{dim = 0, parent = #blocked}>> {
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.maxnumf %a, %b : f32
      tt.reduce.return %t : f32
    }) {allocation.offset = 0 : i32} : (tensor<8x32xf32, #blocked>) -> tensor<32xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
    tt.return %s : tensor<32xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // Rows half as wide as a warp: the upper half of the lanes holds copies of
  // the lower half, so the butterfly skips that lane bit (no xor 16 on
  // mp_31, no xor 64 on mp_22): a sum must not count an element twice.
  // CHECK-LABEL: llvm.func @row_sum_duplicate_lanes(
  // CHECK-NOT: llvm.call @llvm.musa.shfl
  // MP22: %[[O32:.*]] = llvm.mlir.constant(32 : i32)
  // MP22: llvm.call @llvm.musa.shfl.xor.sync.i32(%{{.*}}, %[[O32]],
  // MP22: llvm.fadd
  // MP22: %[[O16:.*]] = llvm.mlir.constant(16 : i32)
  // MP22: llvm.call @llvm.musa.shfl.xor.sync.i32(%{{.*}}, %[[O16]],
  // MP22: llvm.fadd
  // CHECK: %[[O8:.*]] = llvm.mlir.constant(8 : i32)
  // CHECK: llvm.call @llvm.musa.shfl.xor.sync.i32(%{{.*}}, %[[O8]],
  // CHECK: %[[O4:.*]] = llvm.mlir.constant(4 : i32)
  // CHECK: llvm.call @llvm.musa.shfl.xor.sync.i32(%{{.*}}, %[[O4]],
  // CHECK: %[[O2:.*]] = llvm.mlir.constant(2 : i32)
  // CHECK: llvm.call @llvm.musa.shfl.xor.sync.i32(%{{.*}}, %[[O2]],
  // CHECK: %[[O1:.*]] = llvm.mlir.constant(1 : i32)
  // CHECK: llvm.call @llvm.musa.shfl.xor.sync.i32(%{{.*}}, %[[O1]],
  // CHECK: %[[SUM:.*]] = llvm.fadd
  // CHECK-NOT: llvm.call @llvm.musa.shfl
  // CHECK: llvm.insertvalue %[[SUM]], %{{.*}}[0] : !llvm.struct<(f32)>
  tt.func public @row_sum_duplicate_lanes(%x: tensor<4x16xf32, #blocked>) -> tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>> {
    %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<4x16xf32, #blocked>) -> tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    tt.return %s : tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
  }
}
