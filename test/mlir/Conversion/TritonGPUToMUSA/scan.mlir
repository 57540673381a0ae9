// tt.scan: a sequential scan of each thread's registers along the axis, a
// Hillis-Steele scan over the lanes along the axis (shuffle up by 1, 2, 4...
// lanes, kept only where the lane is that far from the start), the previous
// lane's total applied to each element, and across warps each warp's total
// through a scratch buffer, the earlier warps' totals combined in order.
// The mp_22 input holds the same kernels for 128-lane warps.
// RUN: musa-opt %s -split-input-file -convert-tritongpu-to-musa=arch=mp_31 | FileCheck %s --check-prefixes=CHECK,MP31
// RUN: musa-opt %S/Inputs/scan.mp_22.mlir -split-input-file -convert-tritongpu-to-musa=arch=mp_22 | FileCheck %s --check-prefixes=CHECK,MP22

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 16 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @cumsum(
  // CHECK: %[[X0:.*]] = llvm.extractvalue %{{.*}}[0]
  // CHECK: %[[X1:.*]] = llvm.extractvalue %{{.*}}[1]
  // CHECK: %[[T:.*]] = llvm.add %[[X0]], %[[X1]] : i32
  // CHECK: %[[TID:.*]] = llvm.call @llvm.musa.read.ptx.sreg.tid.x
  // CHECK: %[[LANE:.*]] = llvm.and %[[TID]]
  // CHECK: %[[POS:.*]] = llvm.and %{{.*}}, %{{.*}}
  // Step d: lanes at position >= d add the total of the lane d below.
  // CHECK: %[[D1:.*]] = llvm.mlir.constant(1 : i32)
  // CHECK: %[[GE1:.*]] = llvm.icmp "uge" %[[POS]], %[[D1]]
  // CHECK: %[[SD1:.*]] = llvm.mlir.constant(1 : i32)
  // CHECK: %[[U1:.*]] = llvm.call @llvm.musa.shfl.up.sync.i32(%[[T]], %[[SD1]],
  // CHECK: %[[S1:.*]] = llvm.add %[[U1]], %[[T]] : i32
  // CHECK: %[[T1:.*]] = llvm.select %[[GE1]], %[[S1]], %[[T]]
  // CHECK: %[[D2:.*]] = llvm.mlir.constant(2 : i32)
  // CHECK: %[[GE2:.*]] = llvm.icmp "uge" %[[POS]], %[[D2]]
  // CHECK: %[[SD2:.*]] = llvm.mlir.constant(2 : i32)
  // CHECK: %[[U2:.*]] = llvm.call @llvm.musa.shfl.up.sync.i32(%[[T1]], %[[SD2]],
  // CHECK: %[[S2:.*]] = llvm.add %[[U2]], %[[T1]] : i32
  // CHECK: llvm.select %[[GE2]], %[[S2]], %[[T1]]
  // CHECK: llvm.icmp "uge" %[[POS]]
  // CHECK: %[[SD4:.*]] = llvm.mlir.constant(4 : i32)
  // CHECK: llvm.call @llvm.musa.shfl.up.sync.i32(%{{.*}}, %[[SD4]],
  // CHECK: llvm.icmp "uge" %[[POS]]
  // CHECK: %[[SD8:.*]] = llvm.mlir.constant(8 : i32)
  // CHECK: llvm.call @llvm.musa.shfl.up.sync.i32(%{{.*}}, %[[SD8]],
  // CHECK: llvm.icmp "uge" %[[POS]]
  // CHECK: %[[SD16:.*]] = llvm.mlir.constant(16 : i32)
  // CHECK: llvm.call @llvm.musa.shfl.up.sync.i32(%{{.*}}, %[[SD16]],
  // MP22: llvm.icmp "uge" %[[POS]]
  // MP22: %[[SD32:.*]] = llvm.mlir.constant(32 : i32)
  // MP22: llvm.call @llvm.musa.shfl.up.sync.i32(%{{.*}}, %[[SD32]],
  // MP22: llvm.icmp "uge" %[[POS]]
  // MP22: %[[SD64:.*]] = llvm.mlir.constant(64 : i32)
  // MP22: llvm.call @llvm.musa.shfl.up.sync.i32(%{{.*}}, %[[SD64]],
  // CHECK: %[[TOT:.*]] = llvm.select
  // Each element takes the previous lane's total.
  // CHECK: %[[NZ:.*]] = llvm.icmp "ne" %[[POS]]
  // CHECK: %[[PREV:.*]] = llvm.call @llvm.musa.shfl.up.sync.i32(%[[TOT]]
  // CHECK: %[[E0:.*]] = llvm.add %[[PREV]], %[[X0]]
  // CHECK: llvm.select %[[NZ]], %[[E0]], %[[X0]]
  // CHECK: %[[E1:.*]] = llvm.add %[[PREV]], %[[T]]
  // CHECK: llvm.select %[[NZ]], %[[E1]], %[[T]]
  // The warp total comes from the warp's last lane.
  // MP31: %[[LAST:.*]] = llvm.mlir.constant(31 : i32)
  // MP22: %[[LAST:.*]] = llvm.mlir.constant(127 : i32)
  // CHECK: %[[SRC:.*]] = llvm.or %[[LANE]], %[[LAST]]
  // CHECK: %[[WT:.*]] = llvm.call @llvm.musa.shfl.idx.sync.i32(%[[TOT]], %[[SRC]],
  // CHECK: %[[BUF:.*]] = llvm.mlir.addressof @global_smem
  // CHECK: llvm.getelementptr %[[BUF]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
  // CHECK: llvm.store %[[WT]]
  // CHECK: llvm.call @llvm.musa.syncthreads.lm
  // Totals of warps 0, 1, 2 (warp 3 needs no one after it).
  // CHECK: %[[W0:.*]] = llvm.load
  // CHECK: %[[W1:.*]] = llvm.load
  // CHECK: %[[P1:.*]] = llvm.add %[[W0]], %[[W1]]
  // CHECK: llvm.select
  // CHECK: %[[W2:.*]] = llvm.load
  // CHECK: %[[P2:.*]] = llvm.add %[[P1]], %[[W2]]
  // CHECK: %[[EARLIER:.*]] = llvm.select %{{.*}}, %[[P2]], %{{.*}}
  // CHECK: llvm.add %[[EARLIER]]
  // CHECK: llvm.add %[[EARLIER]]
  // CHECK-NOT: llvm.call @llvm.musa.shfl
  tt.func public @cumsum(%x: tensor<256xi32, #blocked>) -> tensor<256xi32, #blocked> {
    %c = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: i32, %b: i32):
      %t = arith.addi %a, %b : i32
      tt.scan.return %t : i32
    }) {allocation.offset = 0 : i32} : (tensor<256xi32, #blocked>) -> tensor<256xi32, #blocked>
    tt.return %c : tensor<256xi32, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // A reverse product scan within a warp: shuffles down, the lane position
  // counted from the warp's end, no shared memory.
  // CHECK-LABEL: llvm.func @reverse_cumprod(
  // CHECK: %[[POS:.*]] = llvm.xor
  // CHECK: llvm.icmp "uge" %[[POS]]
  // CHECK: %[[SD1:.*]] = llvm.mlir.constant(1 : i32)
  // CHECK: %[[U1:.*]] = llvm.call @llvm.musa.shfl.down.sync.i32(%{{.*}}, %[[SD1]],
  // CHECK: llvm.fmul
  // CHECK: llvm.select
  // CHECK: llvm.icmp "uge" %[[POS]]
  // CHECK: %[[SD2:.*]] = llvm.mlir.constant(2 : i32)
  // CHECK: llvm.call @llvm.musa.shfl.down.sync.i32(%{{.*}}, %[[SD2]],
  // CHECK: llvm.icmp "uge" %[[POS]]
  // CHECK: %[[SD4:.*]] = llvm.mlir.constant(4 : i32)
  // CHECK: llvm.call @llvm.musa.shfl.down.sync.i32(%{{.*}}, %[[SD4]],
  // CHECK: llvm.icmp "uge" %[[POS]]
  // CHECK: %[[SD8:.*]] = llvm.mlir.constant(8 : i32)
  // CHECK: llvm.call @llvm.musa.shfl.down.sync.i32(%{{.*}}, %[[SD8]],
  // CHECK: llvm.icmp "uge" %[[POS]]
  // CHECK: %[[SD16:.*]] = llvm.mlir.constant(16 : i32)
  // CHECK: llvm.call @llvm.musa.shfl.down.sync.i32(%{{.*}}, %[[SD16]],
  // CHECK: llvm.icmp "ne" %[[POS]]
  // CHECK: llvm.call @llvm.musa.shfl.down.sync.i32
  // CHECK-NOT: llvm.call @llvm.musa.shfl
  // CHECK-NOT: llvm.call @llvm.musa.syncthreads
  tt.func public @reverse_cumprod(%x: tensor<4x32xf32, #blocked>) -> tensor<4x32xf32, #blocked> {
    %c = "tt.scan"(%x) <{axis = 1 : i32, reverse = true}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.mulf %a, %b : f32
      tt.scan.return %t : f32
    }) : (tensor<4x32xf32, #blocked>) -> tensor<4x32xf32, #blocked>
    tt.return %c : tensor<4x32xf32, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // Two operands (a first-order linear recurrence, as in associative_scan)
  // along dim 0, which lies in registers only: three in-thread steps, the
  // region's operand order kept (previous first), no shuffle.
  // CHECK-LABEL: llvm.func @recurrence(
  // CHECK: %[[A0:.*]] = llvm.extractvalue %[[A:.*]][0]
  // CHECK: %[[A1:.*]] = llvm.extractvalue %[[A]][1]
  // CHECK: %[[B0:.*]] = llvm.extractvalue %[[B:.*]][0]
  // CHECK: %[[B1:.*]] = llvm.extractvalue %[[B]][1]
  // CHECK: %[[M:.*]] = llvm.fmul %[[A0]], %[[A1]]
  // CHECK: %[[N:.*]] = llvm.fmul %[[B0]], %[[A1]]
  // CHECK: llvm.fadd %[[N]], %[[B1]]
  // CHECK-COUNT-2: llvm.fmul
  // CHECK-NOT: llvm.call @llvm.musa.shfl
  tt.func public @recurrence(%a: tensor<4x32xf32, #blocked>, %b: tensor<4x32xf32, #blocked>) -> tensor<4x32xf32, #blocked> {
    %c:2 = "tt.scan"(%a, %b) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a0: f32, %b0: f32, %a1: f32, %b1: f32):
      %m = arith.mulf %a0, %a1 : f32
      %n = arith.mulf %b0, %a1 : f32
      %s = arith.addf %n, %b1 : f32
      tt.scan.return %m, %s : f32, f32
    }) : (tensor<4x32xf32, #blocked>, tensor<4x32xf32, #blocked>) -> (tensor<4x32xf32, #blocked>, tensor<4x32xf32, #blocked>)
    tt.return %c#1 : tensor<4x32xf32, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 32 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // The tensor is twice the layout: register 1 holds the second half (a
  // chunk). Each chunk is scanned over lanes and warps; the warp totals of
  // chunk c go to slots c * 4 + warp; the second chunk then takes the total
  // of all 4 warps of the first.
  // CHECK-LABEL: llvm.func @cumsum_chunks(
  // CHECK-NOT: llvm.add
  // CHECK: llvm.call @llvm.musa.shfl.up.sync.i32
  // CHECK: %[[WT0:.*]] = llvm.call @llvm.musa.shfl.idx.sync.i32
  // CHECK: %[[WT1:.*]] = llvm.call @llvm.musa.shfl.idx.sync.i32
  // CHECK: %[[BUF:.*]] = llvm.mlir.addressof @global_smem
  // CHECK: %[[POS:.*]] = llvm.and
  // CHECK: %[[ROW0:.*]] = llvm.mlir.constant(0 : i32)
  // CHECK-NEXT: %[[CH0:.*]] = llvm.mlir.constant(0 : i32)
  // CHECK: %[[NCH:.*]] = llvm.mlir.constant(2 : i32)
  // CHECK: %[[R0:.*]] = llvm.mul %[[ROW0]], %[[NCH]]
  // CHECK: %[[RC0:.*]] = llvm.add %[[R0]], %[[CH0]]
  // CHECK: %[[NW:.*]] = llvm.mlir.constant(4 : i32)
  // CHECK: %[[START0:.*]] = llvm.mul %[[RC0]], %[[NW]]
  // CHECK: %[[SLOT0:.*]] = llvm.add %[[START0]], %[[POS]]
  // CHECK: %[[CH1:.*]] = llvm.mlir.constant(1 : i32)
  // CHECK: %[[R1:.*]] = llvm.mul
  // CHECK: %[[RC1:.*]] = llvm.add %[[R1]], %[[CH1]]
  // CHECK: %[[START1:.*]] = llvm.mul %[[RC1]]
  // CHECK: %[[SLOT1:.*]] = llvm.add %[[START1]], %[[POS]]
  // Every lane holds its warp's totals: the first lane alone stores them.
  // CHECK: %[[FIRST:.*]] = llvm.icmp "eq" %{{.*}}, %{{.*}} : i32
  // CHECK-NEXT: llvm.cond_br %[[FIRST]], ^[[STORE:.*]], ^
  // CHECK: ^[[STORE]]:
  // CHECK: %[[P0:.*]] = llvm.getelementptr %[[BUF]][%[[SLOT0]]]
  // CHECK: llvm.store %[[WT0]], %[[P0]]
  // CHECK: %[[P1:.*]] = llvm.getelementptr %[[BUF]][%[[SLOT1]]]
  // CHECK: llvm.store %[[WT1]], %[[P1]]
  // CHECK-NOT: llvm.store
  // CHECK: llvm.call @llvm.musa.syncthreads.lm
  // All 4 warp totals of chunk 0, in order.
  // CHECK: %[[A0:.*]] = llvm.load
  // CHECK: %[[A1:.*]] = llvm.load
  // CHECK: %[[S1:.*]] = llvm.add %[[A0]], %[[A1]]
  // CHECK: %[[A2:.*]] = llvm.load
  // CHECK: %[[S2:.*]] = llvm.add %[[S1]], %[[A2]]
  // CHECK: %[[A3:.*]] = llvm.load
  // CHECK: %[[TOTAL0:.*]] = llvm.add %[[S2]], %[[A3]]
  // CHECK-COUNT-4: llvm.load
  // CHECK: %[[E1:.*]] = llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, i32
  // CHECK-NEXT: %[[F1:.*]] = llvm.add %[[TOTAL0]], %[[E1]]
  // CHECK: llvm.insertvalue %[[F1]], %{{.*}}[1]
  tt.func public @cumsum_chunks(%x: tensor<256xi32, #blocked>) -> tensor<256xi32, #blocked> {
    %c = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: i32, %b: i32):
      %t = arith.addi %a, %b : i32
      tt.scan.return %t : i32
    }) {allocation.offset = 0 : i32} : (tensor<256xi32, #blocked>) -> tensor<256xi32, #blocked>
    tt.return %c : tensor<256xi32, #blocked>
  }
}
