// ttg.local_alloc (with and without an initial value), local_store,
// local_load (into a blocked and an FMA dot-operand layout), local_dealloc,
// memdesc_index and memdesc_trans, swizzled and padded shared layouts, i1
// kept as i8; run after --musa-allocate-shared-memory and
// --musa-insert-barriers. The mp_22 input is the same kernels with 128-lane
// warps (and 4x the rows).
// RUN: musa-opt %s -split-input-file --musa-allocate-shared-memory=arch=mp_31 --musa-insert-barriers=arch=mp_31 --convert-tritongpu-to-musa=arch=mp_31 -o %t.mp_31.mlir
// RUN: FileCheck %s --check-prefixes=CHECK,MP31 --input-file=%t.mp_31.mlir
// RUN: musa-opt %S/Inputs/memory.mp_22.mlir -split-input-file --musa-allocate-shared-memory=arch=mp_22 --musa-insert-barriers=arch=mp_22 --convert-tritongpu-to-musa=arch=mp_22 -o %t.mp_22.mlir
// RUN: FileCheck %s --check-prefixes=CHECK,MP22 --input-file=%t.mp_22.mlir

// 32x16 (128x16) f16 = 1024 (4096) bytes at offset 0.
// MP31: ttg.shared = 1024 : i32
// MP22: ttg.shared = 4096 : i32
// CHECK: llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: llvm.func @alloc_load(
// CHECK: %[[BASE:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// Store slots (row-major 16 columns): lane * 4 + warp * (4 * warpSize) + r;
// a thread's 4 registers are 4 consecutive slots, stored as one vector.
// CHECK: %[[TID:.*]] = llvm.call @llvm.musa.read.ptx.sreg.tid.x()
// MP31-NEXT: llvm.mlir.constant(31 : i32)
// MP22-NEXT: llvm.mlir.constant(127 : i32)
// CHECK-NEXT: %[[LANE:.*]] = llvm.and %[[TID]], %{{.*}} : i32
// CHECK: %[[WARP:.*]] = llvm.lshr %[[TID]], %{{.*}} : i32
// CHECK-NEXT: llvm.mlir.constant(2 : i32)
// CHECK-NEXT: %[[L:.*]] = llvm.shl %[[LANE]], %{{.*}} : i32
// MP31-NEXT: llvm.mlir.constant(7 : i32)
// MP22-NEXT: llvm.mlir.constant(9 : i32)
// CHECK-NEXT: %[[W:.*]] = llvm.shl %[[WARP]], %{{.*}} : i32
// CHECK-NEXT: %[[S0:.*]] = llvm.or %[[L]], %[[W]] : i32
// CHECK-COUNT-4: llvm.insertelement %{{.*}} : vector<4xf16>
// Bytes = slot * 2.
// CHECK: %[[B0:.*]] = llvm.mul %[[S0]], %{{.*}} : i32
// CHECK-NEXT: %[[P0:.*]] = llvm.getelementptr %[[BASE]][%[[B0]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT: llvm.store %{{.*}}, %[[P0]] {alignment = 8 : i64} : vector<4xf16>, !llvm.ptr<3>
// The barrier the insertion pass put between the alloc and the load.
// CHECK-NEXT: llvm.call @llvm.musa.syncthreads.lm()
// The dot operand: each thread reads its row's 16 k values, two 16-byte
// vectors: slot = (lane & ~3) * 4 + warp * (4 * warpSize) + k.
// MP31: llvm.mlir.constant(28 : i32)
// MP22: llvm.mlir.constant(124 : i32)
// CHECK-NEXT: %[[ROW:.*]] = llvm.and %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: llvm.mlir.constant(2 : i32)
// CHECK-NEXT: %[[R4:.*]] = llvm.shl %[[ROW]], %{{.*}} : i32
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
// CHECK-COUNT-8: llvm.extractelement
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
// CHECK-COUNT-8: llvm.extractelement
// CHECK-NOT: llvm.store
// CHECK: llvm.return
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
  tt.func public @alloc_load(%x: tensor<32x16xf16, #blocked>) -> tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> {
    %a = ttg.local_alloc %x : (tensor<32x16xf16, #blocked>) -> !ttg.memdesc<32x16xf16, #shared, #smem>
    %l = ttg.local_load %a : !ttg.memdesc<32x16xf16, #shared, #smem> -> tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    tt.return %l : tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
  }
}


// -----

// CHECK-LABEL: llvm.func @store_trans_index(
// CHECK: %[[BASE:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// memdesc_index: buffer i at i * 512 (2048) bytes.
// MP31-NEXT: llvm.mlir.constant(512 : i32)
// MP22-NEXT: llvm.mlir.constant(2048 : i32)
// CHECK-NEXT: %[[OFF:.*]] = llvm.mul %arg2, %{{.*}} : i32
// CHECK-NEXT: %[[BUF:.*]] = llvm.getelementptr %[[BASE]][%[[OFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// i1 goes to memory as i8 (local_store), and back (local_load).
// CHECK: %[[Z:.*]] = llvm.zext %{{.*}} : i1 to i8
// CHECK: %[[P:.*]] = llvm.getelementptr %[[BUF]][%{{.*}}]
// CHECK-COUNT-3: llvm.zext
// CHECK: llvm.store %[[Z]], %[[P]] {alignment = 1 : i64} : i8, !llvm.ptr<3>
// CHECK-COUNT-3: llvm.store %{{.*}} : i8, !llvm.ptr<3>
// CHECK-NEXT: llvm.call @llvm.musa.syncthreads.lm()
// CHECK: %[[L:.*]] = llvm.load %{{.*}} {alignment = 1 : i64} : !llvm.ptr<3> -> i8
// CHECK-NEXT: llvm.trunc %[[L]] : i8 to i1
// The f16 buffer reuses the deallocated bytes: a barrier first (WAR); its
// 16x32 (16x128) tensor repeats rows over warps, so one warp of each pair
// writes (a branch around the stores).
// CHECK: llvm.call @llvm.musa.syncthreads.lm()
// CHECK: llvm.cond_br %{{.*}}, ^[[THEN:.*]], ^[[JOIN:.*]]
// CHECK: ^[[THEN]]:
// Each row's 4 registers as one vector.
// MP31-COUNT-2: llvm.store %{{.*}} {alignment = 8 : i64} : vector<4xf16>, !llvm.ptr<3>
// MP22-COUNT-8: llvm.store %{{.*}} {alignment = 8 : i64} : vector<4xf16>, !llvm.ptr<3>
// CHECK-NEXT: llvm.br ^[[JOIN]]
// CHECK: ^[[JOIN]]:
// CHECK-NEXT: llvm.call @llvm.musa.syncthreads.lm()
// memdesc_trans: the column-major view of the row-major buffer: element
// (r, c) at slot r + 32 * c (128 * c), so the 4 registers of a row are
// 32 (128) slots apart.
// MP31: llvm.mlir.constant(32 : i32)
// MP22: llvm.mlir.constant(128 : i32)
// CHECK-NEXT: llvm.or %[[S:.*]], %{{.*}} : i32
// MP31: llvm.mlir.constant(64 : i32)
// MP22: llvm.mlir.constant(256 : i32)
// CHECK-NEXT: llvm.or %[[S]], %{{.*}} : i32
// MP31: llvm.mlir.constant(96 : i32)
// MP22: llvm.mlir.constant(384 : i32)
// CHECK-NEXT: llvm.or %[[S]], %{{.*}} : i32
// CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr<3> -> f16
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
  tt.func public @store_trans_index(%x: tensor<32x16xi1, #blocked>, %y: tensor<16x32xf16, #blocked>, %i: i32) -> (tensor<32x16xi1, #blocked>, tensor<32x16xf16, #blocked>) {
    %a = ttg.local_alloc : () -> !ttg.memdesc<2x32x16xi1, #shared, #smem, mutable>
    %v = ttg.memdesc_index %a[%i] : !ttg.memdesc<2x32x16xi1, #shared, #smem, mutable> -> !ttg.memdesc<32x16xi1, #shared, #smem, mutable>
    ttg.local_store %x, %v : tensor<32x16xi1, #blocked> -> !ttg.memdesc<32x16xi1, #shared, #smem, mutable>
    %l = ttg.local_load %v : !ttg.memdesc<32x16xi1, #shared, #smem, mutable> -> tensor<32x16xi1, #blocked>
    ttg.local_dealloc %a : !ttg.memdesc<2x32x16xi1, #shared, #smem, mutable>
    %b = ttg.local_alloc %y : (tensor<16x32xf16, #blocked>) -> !ttg.memdesc<16x32xf16, #shared, #smem>
    %t = ttg.memdesc_trans %b {order = array<i32: 1, 0>} : !ttg.memdesc<16x32xf16, #shared, #smem> -> !ttg.memdesc<32x16xf16, #shared1, #smem>
    %lt = ttg.local_load %t : !ttg.memdesc<32x16xf16, #shared1, #smem> -> tensor<32x16xf16, #blocked>
    tt.return %l, %lt : tensor<32x16xi1, #blocked>, tensor<32x16xf16, #blocked>
  }
}


// -----

// #ttg.padded_shared<[16:+4]>: 4 slots of padding after every 16.
// MP31: ttg.shared = 2544 : i32
// MP22: ttg.shared = 10224 : i32
// CHECK-LABEL: llvm.func @padded(
// CHECK: %[[S0:.*]] = llvm.or %{{.*}}, %{{.*}} : i32
// CHECK: llvm.mlir.constant(4 : i32)
// CHECK-NEXT: %[[ROWS:.*]] = llvm.lshr %[[S0]], %{{.*}} : i32
// CHECK-NEXT: llvm.mlir.constant(4 : i32)
// CHECK-NEXT: %[[PAD:.*]] = llvm.mul %[[ROWS]], %{{.*}} : i32
// CHECK-NEXT: %[[PHYS:.*]] = llvm.add %[[S0]], %[[PAD]] : i32
// CHECK-NEXT: llvm.mlir.constant(4 : i32)
// CHECK-NEXT: %[[BYTES:.*]] = llvm.mul %[[PHYS]], %{{.*}} : i32
// CHECK-NEXT: llvm.getelementptr %{{.*}}[%[[BYTES]]]
// The interval (16) is a multiple of the 4 registers of a row, so they
// stay one 16-byte vector after padding.
// CHECK-NEXT: llvm.store %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK-NEXT: llvm.call @llvm.musa.syncthreads.lm()
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.padded_shared<[16:+4] {order = [1, 0], shape = [32, 16]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
  tt.func public @padded(%x: tensor<32x16xf32, #blocked>) -> tensor<32x16xf32, #blocked> {
    %a = ttg.local_alloc %x : (tensor<32x16xf32, #blocked>) -> !ttg.memdesc<32x16xf32, #shared, #smem>
    %l = ttg.local_load %a : !ttg.memdesc<32x16xf32, #shared, #smem> -> tensor<32x16xf32, #blocked>
    tt.return %l : tensor<32x16xf32, #blocked>
  }
}

// -----

// #ttg.padded_shared<[16:+2]>: a padding of 2 slots would misalign the
// second vector of 4 registers of every row after it (slot 16 is at 18), so
// the 4 registers go as two 8-byte vectors, which the padding keeps aligned.
// CHECK-LABEL: llvm.func @padded_odd(
// CHECK-COUNT-2: llvm.store %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
// CHECK-NEXT: llvm.call @llvm.musa.syncthreads.lm()
// CHECK-COUNT-2: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<3> -> vector<2xf32>
// CHECK-NOT: vector<4xf32>
// CHECK: llvm.return
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.padded_shared<[16:+2] {order = [1, 0], shape = [32, 16]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
  tt.func public @padded_odd(%x: tensor<32x16xf32, #blocked>) -> tensor<32x16xf32, #blocked> {
    %a = ttg.local_alloc %x : (tensor<32x16xf32, #blocked>) -> !ttg.memdesc<32x16xf32, #shared, #smem>
    %l = ttg.local_load %a : !ttg.memdesc<32x16xf32, #shared, #smem> -> tensor<32x16xf32, #blocked>
    tt.return %l : tensor<32x16xf32, #blocked>
  }
}
