// The CPU emulator's implementation of the target interface
// (--test-musa-target-info on a module marked test.musa.target = "emulator"):
// every hook is a call into the
// emulator runtime (emulator/Runtime.h); ids and the shared-memory base are
// pure, synchronizing calls convergent; warp semantics follow the arch
// (whole-warp width 32 on mp_31, 128 on mp_22; ballot i32 / i128).
// RUN: musa-opt %s -allow-unregistered-dialect -test-musa-target-info=arch=mp_31 -o %t.mp_31.mlir
// RUN: FileCheck %s --check-prefixes=CHECK,MP31 --input-file=%t.mp_31.mlir --implicit-check-not=llvm.musa.
// RUN: musa-opt %s -allow-unregistered-dialect -test-musa-target-info=arch=mp_22 -o %t.mp_22.mlir
// RUN: FileCheck %s --check-prefixes=CHECK,MP22 --input-file=%t.mp_22.mlir --implicit-check-not=llvm.musa.

// CHECK-DAG: llvm.func @__musa_emu_thread_id(i32) -> i32 attributes {memory_effects = #llvm.memory_effects<other = none, argMem = none, inaccessibleMem = none{{.*}}>, no_unwind, will_return}
// CHECK-DAG: llvm.func @__musa_emu_barrier() attributes {convergent, no_unwind}
// CHECK-DAG: llvm.func @__musa_emu_shared_barrier() attributes {convergent, no_unwind}
// CHECK-DAG: llvm.func @__musa_emu_warp_sync() attributes {convergent, no_unwind}
// CHECK-DAG: llvm.func @__musa_emu_shuffle(i32, i64, i32, i32) -> i64 attributes {convergent, no_unwind}
// CHECK-DAG: llvm.func @__musa_emu_ballot(i1, i32) -> i64 attributes {convergent, no_unwind}
// No MUSA intrinsic anywhere in the output (--implicit-check-not on the RUN lines).

module attributes {test.musa.target = "emulator"} {

// CHECK-LABEL: llvm.func @ids()
// CHECK: %[[Z:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: llvm.call @__musa_emu_thread_id(%[[Z]])
// CHECK: %[[Y:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: llvm.call @__musa_emu_block_id(%[[Y]])
// CHECK: %[[ZZ:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: llvm.call @__musa_emu_num_blocks(%[[ZZ]])
llvm.func @ids() {
  %0 = "test.musa.thread_id"() {dim = 0 : i32} : () -> i32
  %3 = "test.musa.block_id"() {dim = 1 : i32} : () -> i32
  %4 = "test.musa.num_blocks"() {dim = 2 : i32} : () -> i32
  llvm.return
}

// CHECK-LABEL: llvm.func @barriers()
// CHECK: llvm.call @__musa_emu_barrier() {convergent, no_unwind} : () -> ()
// CHECK: llvm.call @__musa_emu_shared_barrier() {convergent, no_unwind} : () -> ()
// CHECK: llvm.call @__musa_emu_warp_sync() {convergent, no_unwind} : () -> ()
llvm.func @barriers() {
  "test.musa.barrier"() : () -> ()
  "test.musa.shared_memory_barrier"() : () -> ()
  "test.musa.warp_sync"() : () -> ()
  llvm.return
}

// Kinds: xor 0, up 1, down 2, idx 3; width 0 means the whole warp. Values
// travel as i64 (one collective each, 64-bit values included).
// CHECK-LABEL: llvm.func @shuffles(
// CHECK-SAME: %[[I:[^:]*]]: i32, %[[F:[^:]*]]: f32, %[[D:[^:]*]]: f64, %[[H:[^:]*]]: f16, %[[O:[^:]*]]: i32)
// CHECK: %[[IW:.*]] = llvm.zext %[[I]] : i32 to i64
// CHECK: %[[K0:.*]] = llvm.mlir.constant(0 : i32) : i32
// MP31: %[[W0:.*]] = llvm.mlir.constant(32 : i32) : i32
// MP22: %[[W0:.*]] = llvm.mlir.constant(128 : i32) : i32
// CHECK: %[[R0:.*]] = llvm.call @__musa_emu_shuffle(%[[K0]], %[[IW]], %[[O]], %[[W0]]) {convergent, no_unwind}
// CHECK: llvm.trunc %[[R0]] : i64 to i32
// CHECK: %[[FI:.*]] = llvm.bitcast %[[F]] : f32 to i32
// CHECK: %[[FW:.*]] = llvm.zext %[[FI]] : i32 to i64
// CHECK: %[[K1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: llvm.call @__musa_emu_shuffle(%[[K1]], %[[FW]], %[[O]], %{{.*}})
// CHECK: %[[HI:.*]] = llvm.bitcast %[[H]] : f16 to i16
// CHECK: %[[HW:.*]] = llvm.zext %[[HI]] : i16 to i64
// CHECK: %[[K2:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: %[[W16:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK: %[[R2:.*]] = llvm.call @__musa_emu_shuffle(%[[K2]], %[[HW]], %[[O]], %[[W16]])
// CHECK: llvm.trunc %[[R2]] : i64 to i16
// CHECK: %[[DI:.*]] = llvm.bitcast %[[D]] : f64 to i64
// CHECK: %[[K3:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK: %[[R3:.*]] = llvm.call @__musa_emu_shuffle(%[[K3]], %[[DI]], %[[O]], %{{.*}})
// CHECK-NOT: llvm.call @__musa_emu_shuffle
// CHECK: llvm.bitcast %[[R3]] : i64 to f64
llvm.func @shuffles(%i: i32, %f: f32, %d: f64, %h: f16, %o: i32) {
  %0 = "test.musa.shuffle"(%i, %o) {kind = "xor"} : (i32, i32) -> i32
  %1 = "test.musa.shuffle"(%f, %o) {kind = "up"} : (f32, i32) -> f32
  %2 = "test.musa.shuffle"(%h, %o) {kind = "down", width = 16 : i32} : (f16, i32) -> f16
  %3 = "test.musa.shuffle"(%d, %o) {kind = "idx"} : (f64, i32) -> f64
  llvm.return
}

// One 64-lane word per call: mp_31 one call truncated to i32; mp_22 two
// calls, the second shifted up by 64, combined in an i128.
// CHECK-LABEL: llvm.func @ballot(
// CHECK: %[[W0:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[B0:.*]] = llvm.call @__musa_emu_ballot(%{{.*}}, %[[W0]]) {convergent, no_unwind} : (i1, i32) -> i64
// MP31: llvm.trunc %[[B0]] : i64 to i32
// MP31-NOT: @__musa_emu_ballot
// MP22: %[[X0:.*]] = llvm.zext %[[B0]] : i64 to i128
// MP22: %[[W1:.*]] = llvm.mlir.constant(1 : i32) : i32
// MP22: %[[B1:.*]] = llvm.call @__musa_emu_ballot(%{{.*}}, %[[W1]])
// MP22: %[[X1:.*]] = llvm.zext %[[B1]] : i64 to i128
// MP22: %[[S:.*]] = llvm.mlir.constant(64 : i128) : i128
// MP22: %[[SH:.*]] = llvm.shl %[[X1]], %[[S]] : i128
// MP22: llvm.or %[[X0]], %[[SH]] : i128
llvm.func @ballot(%p: i1) {
  %0 = "test.musa.ballot"(%p) : (i1) -> i32
  llvm.return
}
}
