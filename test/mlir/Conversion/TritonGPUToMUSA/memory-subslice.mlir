// ttg.memdesc_subslice: a sub-tile whose slots are a constant offset from
// its start becomes that byte offset.
// RUN: musa-opt %s --convert-tritongpu-to-musa=arch=mp_31 | FileCheck %s

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31", ttg.shared = 4096 : i32} {
  // CHECK-LABEL: llvm.func @subslice(
  // CHECK: %[[BASE:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
  // Element (16, 32) of the 32x64 row-major buffer: slot 16 * 64 + 32 =
  // 1056, 2112 bytes.
  // CHECK-NEXT: %[[OFF:.*]] = llvm.mlir.constant(2112 : i32) : i32
  // CHECK-NEXT: %[[VIEW:.*]] = llvm.getelementptr %[[BASE]][%[[OFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK: llvm.getelementptr %[[VIEW]][
  // A thread's 4 elements of a row are one 8-byte vector (the view starts
  // at a slot that keeps it aligned), two rows per thread.
  // CHECK-COUNT-2: llvm.store %{{.*}} {alignment = 8 : i64} : vector<4xf16>, !llvm.ptr<3>
  // CHECK-NOT: llvm.store
  // CHECK: llvm.return
  tt.func public @subslice(%x: tensor<16x32xf16, #blocked>) {
    %a = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<32x64xf16, #shared, #smem, mutable>
    %v = ttg.memdesc_subslice %a[16, 32] : !ttg.memdesc<32x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<16x32xf16, #shared, #smem, mutable, 32x64>
    ttg.local_store %x, %v : tensor<16x32xf16, #blocked> -> !ttg.memdesc<16x32xf16, #shared, #smem, mutable, 32x64>
    tt.return
  }
}
