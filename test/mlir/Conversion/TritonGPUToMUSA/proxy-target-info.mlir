// The GPU proxy's implementation of the target interface
// (--test-musa-target-info on a module marked test.musa.target = "proxy"):
// mp_31's warps (32 lanes, i32 ballots) on NVVM: special registers, bar.sync,
// shfl.sync with PTX's packed segment-mask/clamp operand, vote.ballot.sync,
// vprintf with a generic argument buffer, __assertfail. No MUSA intrinsic
// and no emulator call anywhere in the output.
// RUN: musa-opt %s -allow-unregistered-dialect -test-musa-target-info=arch=mp_31 -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir --implicit-check-not=llvm.musa. --implicit-check-not=__musa_emu

module attributes {test.musa.target = "proxy"} {

// CHECK-LABEL: llvm.func @ids()
// CHECK: llvm.call @llvm.nvvm.read.ptx.sreg.tid.x()
// CHECK: llvm.call @llvm.nvvm.read.ptx.sreg.ctaid.y()
// CHECK: llvm.call @llvm.nvvm.read.ptx.sreg.nctaid.z()
llvm.func @ids() {
  %0 = "test.musa.thread_id"() {dim = 0 : i32} : () -> i32
  %1 = "test.musa.block_id"() {dim = 1 : i32} : () -> i32
  %2 = "test.musa.num_blocks"() {dim = 2 : i32} : () -> i32
  llvm.return
}

// Both block barriers are bar.sync 0; the warp barrier names every lane.
// CHECK-LABEL: llvm.func @barriers()
// CHECK: %[[Z:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: llvm.call @llvm.nvvm.barrier.cta.sync.aligned.all(%[[Z]]) {convergent, no_unwind}
// CHECK: %[[Z2:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: llvm.call @llvm.nvvm.barrier.cta.sync.aligned.all(%[[Z2]]) {convergent, no_unwind}
// CHECK: %[[M:.*]] = llvm.mlir.constant(-1 : i32) : i32
// CHECK: llvm.call @llvm.nvvm.bar.warp.sync(%[[M]]) {convergent, no_unwind}
llvm.func @barriers() {
  "test.musa.barrier"() : () -> ()
  "test.musa.shared_memory_barrier"() : () -> ()
  "test.musa.warp_sync"() : () -> ()
  llvm.return
}

// c = ((32 - width) << 8) | clamp, clamp = width - 1 except for `up` (0):
// whole warp xor 31, up 0; width 16 down 0x100f = 4111; idx 31 per half of
// an f64.
// CHECK-LABEL: llvm.func @shuffles(
// CHECK-SAME: %[[I:[^:]*]]: i32, %[[F:[^:]*]]: f32, %[[D:[^:]*]]: f64, %[[H:[^:]*]]: f16, %[[O:[^:]*]]: i32)
// CHECK: %[[C0:.*]] = llvm.mlir.constant(31 : i32) : i32
// CHECK: %[[M0:.*]] = llvm.mlir.constant(-1 : i32) : i32
// CHECK: llvm.call @llvm.nvvm.shfl.sync.bfly.i32(%[[M0]], %[[I]], %[[O]], %[[C0]]) {convergent, no_unwind}
// CHECK: %[[C1:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[FI:.*]] = llvm.bitcast %[[F]] : f32 to i32
// CHECK: llvm.call @llvm.nvvm.shfl.sync.up.i32(%{{.*}}, %[[FI]], %[[O]], %[[C1]])
// CHECK: %[[C2:.*]] = llvm.mlir.constant(4111 : i32) : i32
// CHECK: %[[HW:.*]] = llvm.zext %{{.*}} : i16 to i32
// CHECK: llvm.call @llvm.nvvm.shfl.sync.down.i32(%{{.*}}, %[[HW]], %[[O]], %[[C2]])
// CHECK: %[[C3:.*]] = llvm.mlir.constant(31 : i32) : i32
// CHECK: llvm.call @llvm.nvvm.shfl.sync.idx.i32(%{{.*}}, %{{.*}}, %[[O]], %[[C3]])
// CHECK: llvm.call @llvm.nvvm.shfl.sync.idx.i32(%{{.*}}, %{{.*}}, %[[O]], %[[C3]])
// CHECK-NOT: shfl
// CHECK: llvm.return
llvm.func @shuffles(%i: i32, %f: f32, %d: f64, %h: f16, %o: i32) {
  %0 = "test.musa.shuffle"(%i, %o) {kind = "xor"} : (i32, i32) -> i32
  %1 = "test.musa.shuffle"(%f, %o) {kind = "up"} : (f32, i32) -> f32
  %2 = "test.musa.shuffle"(%h, %o) {kind = "down", width = 16 : i32} : (f16, i32) -> f16
  %3 = "test.musa.shuffle"(%d, %o) {kind = "idx"} : (f64, i32) -> f64
  llvm.return
}

// CHECK-LABEL: llvm.func @ballot(
// CHECK: %[[M:.*]] = llvm.mlir.constant(-1 : i32) : i32
// CHECK: llvm.call @llvm.nvvm.vote.ballot.sync(%[[M]], %{{.*}}) {convergent, no_unwind} : (i32, i1) -> i32
llvm.func @ballot(%p: i1) {
  %0 = "test.musa.ballot"(%p) : (i1) -> i32
  llvm.return
}

// The arguments go in a generic (addrspace 0) local struct, promoted (f32 to
// f64); the format string lives in global memory.
// CHECK-LABEL: llvm.func @print_and_assert(
// CHECK: %[[BUF:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(i32, f64)> : (i32) -> !llvm.ptr
// CHECK: %[[FMT:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr<1> to !llvm.ptr
// CHECK: %[[D:.*]] = llvm.fpext %{{.*}} : f32 to f64
// CHECK: llvm.store %{{.*}} : i32, !llvm.ptr
// CHECK: llvm.store %[[D]], %{{.*}} : f64, !llvm.ptr
// CHECK: llvm.call @vprintf(%[[FMT]], %[[BUF]])
// CHECK: llvm.call @__assertfail(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i64) -> ()
llvm.func @print_and_assert(%i: i32, %f: f32) {
  "test.musa.printf"(%i, %f) {format = "%d %f\n"} : (i32, f32) -> ()
  "test.musa.assert_fail"() {message = "x > 0", file = "k.py", line = 7 : i32, function = "k"} : () -> ()
  llvm.return
}

}
