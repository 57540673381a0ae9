// ttg.convert_layout: a register selection when every lane and warp keeps
// its data, warp shuffles when only lanes of a warp exchange data, otherwise
// a swizzled scratch buffer in shared memory (owner threads store, barrier,
// every thread loads what its result layout needs), with vector accesses
// where both layouts hold the same consecutive elements in registers.
// The mp_22 input is the same kernels with 128-lane warps.
// RUN: musa-opt %s -split-input-file --musa-allocate-shared-memory=arch=mp_31 --musa-insert-barriers=arch=mp_31 --convert-tritongpu-to-musa=arch=mp_31 -o %t.mp_31.mlir
// RUN: FileCheck %s --check-prefixes=CHECK,MP31 --input-file=%t.mp_31.mlir
// RUN: musa-opt %S/Inputs/convert-layout.mp_22.mlir -split-input-file --musa-allocate-shared-memory=arch=mp_22 --musa-insert-barriers=arch=mp_22 --convert-tritongpu-to-musa=arch=mp_22 -o %t.mp_22.mlir
// RUN: FileCheck %s --check-prefixes=CHECK,MP22 --input-file=%t.mp_22.mlir

// Registers 1 and 2 swap; no shared memory.
// CHECK: ttg.shared = 0 : i32
// CHECK-LABEL: llvm.func @registers(
// CHECK: %[[R0:.*]] = llvm.extractvalue %arg0[0]
// CHECK-NEXT: %[[R1:.*]] = llvm.extractvalue %arg0[1]
// CHECK-NEXT: %[[R2:.*]] = llvm.extractvalue %arg0[2]
// CHECK-NEXT: %[[R3:.*]] = llvm.extractvalue %arg0[3]
// CHECK-NEXT: llvm.mlir.undef
// CHECK-NEXT: llvm.insertvalue %[[R0]], %{{.*}}[0]
// CHECK-NEXT: llvm.insertvalue %[[R2]], %{{.*}}[1]
// CHECK-NEXT: llvm.insertvalue %[[R1]], %{{.*}}[2]
// CHECK-NEXT: llvm.insertvalue %[[R3]], %{{.*}}[3]
// CHECK-NEXT: llvm.return
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#linear = #ttg.linear<{register = [[256], [1]], lane = [[2], [4], [8], [16], [32]], warp = [[64], [128]], block = []}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
  tt.func public @registers(%x: tensor<512xf32, #blocked>) -> tensor<512xf32, #linear> {
    %y = ttg.convert_layout %x : tensor<512xf32, #blocked> -> tensor<512xf32, #linear>
    tt.return %y : tensor<512xf32, #linear>
  }
}


// -----

// 32x16 (128x16) f32 through 2048 (8192) bytes of scratch. The source rows
// and the result columns share no register vector: scalar accesses, on a
// swizzled scratch (a slot is the thread's part XOR a register's part) so
// that neither the row-wise stores nor the column-wise loads of a warp hit
// one bank twice (test_convert_layout_scratch.py counts the banks).
// MP31: ttg.shared = 2048 : i32
// MP22: ttg.shared = 8192 : i32
// CHECK-LABEL: llvm.func @shared(
// CHECK: %[[BASE:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// CHECK: %[[TID:.*]] = llvm.call @llvm.musa.read.ptx.sreg.tid.x()
// CHECK: %[[P0:.*]] = llvm.getelementptr %[[BASE]][%{{.*}}]
// CHECK-NEXT: llvm.mlir.constant(1 : i32)
// CHECK-NEXT: %[[S1:.*]] = llvm.xor %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[B1:.*]] = llvm.mul %[[S1]], %{{.*}} : i32
// CHECK-NEXT: %[[P1:.*]] = llvm.getelementptr %[[BASE]][%[[B1]]]
// Every element has one owner: no branch.
// CHECK-NOT: llvm.cond_br
// CHECK: llvm.store %{{.*}}, %[[P0]] {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK-NEXT: llvm.store %{{.*}}, %[[P1]] {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK-COUNT-2: llvm.store %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK-NEXT: llvm.call @llvm.musa.syncthreads.lm()
// MP31-COUNT-8: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// MP22-COUNT-32: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-NOT: llvm.load
// CHECK: llvm.return
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
  tt.func public @shared(%x: tensor<32x16xf32, #blocked>) -> tensor<32x16xf32, #blocked1> {
    %y = ttg.convert_layout %x : tensor<32x16xf32, #blocked> -> tensor<32x16xf32, #blocked1>
    tt.return %y : tensor<32x16xf32, #blocked1>
  }
}

// -----

// Both layouts hold 4 consecutive elements of a row per register vector:
// one 16-byte store and one 16-byte load per vector (2 of each per thread),
// where a scalar lowering stores and loads 8 single floats.
// MP31: ttg.shared = 4096 : i32
// MP22: ttg.shared = 16384 : i32
// CHECK-LABEL: llvm.func @vectorized(
// CHECK: %[[V0:.*]] = llvm.mlir.poison : vector<4xf32>
// CHECK: %[[V1:.*]] = llvm.insertelement %{{.*}}, %[[V0]][%{{.*}} : i32] : vector<4xf32>
// CHECK-COUNT-3: llvm.insertelement
// CHECK-NOT: : f32, !llvm.ptr<3>
// CHECK-COUNT-2: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK-NEXT: llvm.call @llvm.musa.syncthreads.lm()
// CHECK-NOT: -> f32
// CHECK: %[[L0:.*]] = llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-COUNT-4: llvm.extractelement %[[L0]]
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-NOT: llvm.load
// CHECK: llvm.return
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
  tt.func public @vectorized(%x: tensor<32x32xf32, #blocked>) -> tensor<32x32xf32, #blocked1> {
    %y = ttg.convert_layout %x : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #blocked1>
    tt.return %y : tensor<32x32xf32, #blocked1>
  }
}


// -----

// i1 as i8; 64 (256) elements over 4 warps of 32 (128) lanes: warps 2, 3
// repeat warps 0, 1, so only threads with warp bit 1 clear store.
// MP31: ttg.shared = 64 : i32
// MP22: ttg.shared = 256 : i32
// CHECK-LABEL: llvm.func @bool_broadcast(
// CHECK: %[[BYTE:.*]] = llvm.zext %{{.*}} : i1 to i8
// CHECK: llvm.mlir.constant(2 : i32)
// CHECK-NEXT: %[[DUP:.*]] = llvm.and %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: llvm.mlir.constant(0 : i32)
// CHECK-NEXT: %[[OWNER:.*]] = llvm.icmp "eq" %[[DUP]], %{{.*}} : i32
// CHECK-NEXT: llvm.cond_br %[[OWNER]], ^[[THEN:.*]], ^[[JOIN:.*]]
// CHECK: ^[[THEN]]:
// CHECK-NEXT: llvm.store %[[BYTE]], %{{.*}} {alignment = 1 : i64} : i8, !llvm.ptr<3>
// CHECK-NEXT: llvm.br ^[[JOIN]]
// CHECK: ^[[JOIN]]:
// CHECK: llvm.call @llvm.musa.syncthreads.lm()
// CHECK-COUNT-4: llvm.trunc %{{.*}} : i8 to i1
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
  tt.func public @bool_broadcast(%x: tensor<64xi1, #blocked>) -> tensor<64xi1, #blocked1> {
    %y = ttg.convert_layout %x : tensor<64xi1, #blocked> -> tensor<64xi1, #blocked1>
    tt.return %y : tensor<64xi1, #blocked1>
  }
}

// -----

// Lanes exchange data inside their warp, every lane reading the same
// register: one indexed shuffle per register, from lane bitreverse(lane);
// f16 travels zero-extended in an i32. No shared memory.
// CHECK: ttg.shared = 0 : i32
// CHECK-LABEL: llvm.func @lane_reverse(
// CHECK: %[[TID:.*]] = llvm.call @llvm.musa.read.ptx.sreg.tid.x()
// CHECK: %[[LANE:.*]] = llvm.and %[[TID]], %{{.*}} : i32
// MP31: llvm.mlir.constant(16 : i32)
// MP22: llvm.mlir.constant(64 : i32)
// CHECK: %[[BITS:.*]] = llvm.bitcast %{{.*}} : f16 to i16
// CHECK-NEXT: %[[WIDE:.*]] = llvm.zext %[[BITS]] : i16 to i32
// MP31-NEXT: %[[MC:.*]] = llvm.mlir.constant(12319 : i32) : i32
// MP22-NEXT: %[[MC:.*]] = llvm.mlir.constant(127 : i32) : i32
// CHECK-NEXT: %[[MOVED:.*]] = llvm.call @llvm.musa.shfl.idx.sync.i32(%[[WIDE]], %{{.*}}, %[[MC]], %{{.*}})
// CHECK-NEXT: %[[NARROW:.*]] = llvm.trunc %[[MOVED]] : i32 to i16
// CHECK-NEXT: llvm.bitcast %[[NARROW]] : i16 to f16
// CHECK-NOT: llvm.store
// CHECK: llvm.return
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#linear = #ttg.linear<{register = [], lane = [[16], [8], [4], [2], [1]], warp = [[32], [64]], block = []}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
  tt.func public @lane_reverse(%x: tensor<128xf16, #blocked>) -> tensor<128xf16, #linear> {
    %y = ttg.convert_layout %x : tensor<128xf16, #blocked> -> tensor<128xf16, #linear>
    tt.return %y : tensor<128xf16, #linear>
  }
}
