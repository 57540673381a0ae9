// The target interface itself (--test-musa-target-info expands placeholder
// ops through it): the llvm.musa.* calls of each architecture, their
// attributes (id readers readnone/nounwind, barriers/shuffles/votes
// convergent) and the shuffle maskAndClamp = ((128 - width) << 7) | clamp,
// clamp = width - 1 (0 for up).
// RUN: musa-opt %s -allow-unregistered-dialect -test-musa-target-info=arch=mp_31 -o %t.mp_31.mlir
// RUN: FileCheck %s --check-prefixes=CHECK,MP31 --input-file=%t.mp_31.mlir
// RUN: musa-opt %s -allow-unregistered-dialect -test-musa-target-info=arch=mp_22 -o %t.mp_22.mlir
// RUN: FileCheck %s --check-prefixes=CHECK,MP22 --input-file=%t.mp_22.mlir

// CHECK-DAG: llvm.func @llvm.musa.read.ptx.sreg.tid.y() -> i32 attributes {memory_effects = #llvm.memory_effects<other = none, argMem = none, inaccessibleMem = none{{.*}}>, no_unwind, will_return}
// CHECK-DAG: llvm.func @llvm.musa.barrier0() attributes {convergent, no_unwind}
// CHECK-DAG: llvm.func @llvm.musa.syncthreads.lm() attributes {convergent, no_unwind}
// CHECK-DAG: llvm.func @llvm.musa.syncwarp() attributes {convergent, no_unwind}
// CHECK-DAG: llvm.func @llvm.musa.shfl.xor.sync.i32(i32, i32, i32, !llvm.ptr<5>) -> i32 attributes {convergent, no_unwind}
// MP31-DAG: llvm.func @llvm.musa.vote.ballot.sync(i1) -> i32 attributes {convergent, no_unwind}
// MP22-DAG: llvm.func @llvm.musa.vote.ballot.sync(i1) -> i128 attributes {convergent, no_unwind}

// CHECK-LABEL: llvm.func @ids()
// CHECK: llvm.call @llvm.musa.read.ptx.sreg.tid.x() {{{.*}}no_unwind} : () -> i32
// CHECK: llvm.call @llvm.musa.read.ptx.sreg.tid.y()
// CHECK: llvm.call @llvm.musa.read.ptx.sreg.tid.z()
// CHECK: llvm.call @llvm.musa.read.ptx.sreg.ctaid.y()
// CHECK: llvm.call @llvm.musa.read.ptx.sreg.nctaid.z()
llvm.func @ids() {
  %0 = "test.musa.thread_id"() {dim = 0 : i32} : () -> i32
  %1 = "test.musa.thread_id"() {dim = 1 : i32} : () -> i32
  %2 = "test.musa.thread_id"() {dim = 2 : i32} : () -> i32
  %3 = "test.musa.block_id"() {dim = 1 : i32} : () -> i32
  %4 = "test.musa.num_blocks"() {dim = 2 : i32} : () -> i32
  llvm.return
}

// CHECK-LABEL: llvm.func @barriers()
// CHECK: llvm.call @llvm.musa.barrier0() {convergent, no_unwind} : () -> ()
// CHECK: llvm.call @llvm.musa.syncthreads.lm() {convergent, no_unwind} : () -> ()
// CHECK: llvm.call @llvm.musa.syncwarp() {convergent, no_unwind} : () -> ()
llvm.func @barriers() {
  "test.musa.barrier"() : () -> ()
  "test.musa.shared_memory_barrier"() : () -> ()
  "test.musa.warp_sync"() : () -> ()
  llvm.return
}

// The predicate out-slot of the shuffles is one private (addrspace 5)
// alloca in the entry block.
// CHECK-LABEL: llvm.func @shuffles(
// CHECK-SAME: %[[I:[^:]*]]: i32, %[[F:[^:]*]]: f32, %[[D:[^:]*]]: f64, %[[H:[^:]*]]: f16, %[[O:[^:]*]]: i32)
// CHECK: %[[SLOT:.*]] = llvm.alloca %{{.*}} x i1 : (i32) -> !llvm.ptr<5>
// CHECK-NOT: llvm.alloca
// Whole warp: mp_31 (96 << 7) | 31 = 12319, mp_22 (0 << 7) | 127 = 127.
// MP31: %[[C0:.*]] = llvm.mlir.constant(12319 : i32) : i32
// MP22: %[[C0:.*]] = llvm.mlir.constant(127 : i32) : i32
// CHECK: llvm.call @llvm.musa.shfl.xor.sync.i32(%[[I]], %[[O]], %[[C0]], %[[SLOT]]) {convergent, no_unwind}
// `up` clamps at the segment start: mp_31 96 << 7 = 12288, mp_22 0.
// MP31: %[[C1:.*]] = llvm.mlir.constant(12288 : i32) : i32
// MP22: %[[C1:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[FI:.*]] = llvm.bitcast %[[F]] : f32 to i32
// CHECK: %[[UP:.*]] = llvm.call @llvm.musa.shfl.up.sync.i32(%[[FI]], %[[O]], %[[C1]], %[[SLOT]])
// CHECK: llvm.bitcast %[[UP]] : i32 to f32
// Width 16 on both: (112 << 7) | 15 = 14351; f16 widened to i32 and back.
// CHECK: %[[C2:.*]] = llvm.mlir.constant(14351 : i32) : i32
// CHECK: %[[HI:.*]] = llvm.bitcast %[[H]] : f16 to i16
// CHECK: %[[HW:.*]] = llvm.zext %[[HI]] : i16 to i32
// CHECK: %[[DN:.*]] = llvm.call @llvm.musa.shfl.down.sync.i32(%[[HW]], %[[O]], %[[C2]], %[[SLOT]])
// CHECK: llvm.trunc %[[DN]] : i32 to i16
// 64 bits: two 32-bit shuffles.
// CHECK: %[[DI:.*]] = llvm.bitcast %[[D]] : f64 to i64
// CHECK: %[[LO:.*]] = llvm.trunc %[[DI]] : i64 to i32
// CHECK: llvm.call @llvm.musa.shfl.idx.sync.i32(%[[LO]], %[[O]], %{{.*}}, %[[SLOT]])
// CHECK: %[[SH:.*]] = llvm.lshr %[[DI]], %{{.*}} : i64
// CHECK: %[[HI2:.*]] = llvm.trunc %[[SH]] : i64 to i32
// CHECK: llvm.call @llvm.musa.shfl.idx.sync.i32(%[[HI2]], %[[O]], %{{.*}}, %[[SLOT]])
// CHECK: llvm.or %{{.*}}, %{{.*}} : i64
// CHECK: llvm.bitcast %{{.*}} : i64 to f64
llvm.func @shuffles(%i: i32, %f: f32, %d: f64, %h: f16, %o: i32) {
  %0 = "test.musa.shuffle"(%i, %o) {kind = "xor"} : (i32, i32) -> i32
  %1 = "test.musa.shuffle"(%f, %o) {kind = "up"} : (f32, i32) -> f32
  %2 = "test.musa.shuffle"(%h, %o) {kind = "down", width = 16 : i32} : (f16, i32) -> f16
  %3 = "test.musa.shuffle"(%d, %o) {kind = "idx"} : (f64, i32) -> f64
  llvm.return
}

// CHECK-LABEL: llvm.func @ballot(
// MP31: llvm.call @llvm.musa.vote.ballot.sync(%{{.*}}) {convergent, no_unwind} : (i1) -> i32
// MP22: llvm.call @llvm.musa.vote.ballot.sync(%{{.*}}) {convergent, no_unwind} : (i1) -> i128
llvm.func @ballot(%p: i1) {
  %0 = "test.musa.ballot"(%p) : (i1) -> i32
  llvm.return
}
