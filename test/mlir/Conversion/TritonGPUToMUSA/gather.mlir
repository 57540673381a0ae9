// tt.gather through shared memory: the source in row-major order in the
// scratch buffer, a barrier, then each result element loaded at its row and
// the gathered column.
// RUN: musa-opt %s -split-input-file -convert-tritongpu-to-musa=arch=mp_31 | FileCheck %s --check-prefixes=CHECK,MP31
// RUN: musa-opt %S/Inputs/gather.mp_22.mlir -split-input-file -convert-tritongpu-to-musa=arch=mp_22 | FileCheck %s --check-prefixes=CHECK,MP22

#blocked = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 8192 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @gather_columns(
  // CHECK: %[[BASE:.*]] = llvm.mlir.addressof @global_smem
  // CHECK: %[[OFF:.*]] = llvm.mlir.constant(1024 : i32)
  // CHECK: %[[BUF:.*]] = llvm.getelementptr %[[BASE]][%[[OFF]]]
  // Row of a thread: lane bit 4 (mp_31) or lane bits 4-6 (mp_22), then the
  // warp; the source element (row, col) goes to row * 64 + col.
  // CHECK: %[[TID:.*]] = llvm.call @llvm.musa.read.ptx.sreg.tid.x
  // CHECK: %[[LANE:.*]] = llvm.and %[[TID]]
  // MP31: %[[RB:.*]] = llvm.mlir.constant(16 : i32)
  // MP22: %[[RB:.*]] = llvm.mlir.constant(112 : i32)
  // CHECK: llvm.and %[[LANE]], %[[RB]]
  // CHECK: %[[C64:.*]] = llvm.mlir.constant(64 : i32)
  // CHECK: %[[RS:.*]] = llvm.mul %{{.*}}, %[[C64]]
  // CHECK: %[[AT:.*]] = llvm.add %{{.*}}, %[[RS]]
  // CHECK: %[[P:.*]] = llvm.getelementptr %[[BUF]][%[[AT]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
  // CHECK: llvm.store %{{.*}}, %[[P]]
  // CHECK: llvm.call @llvm.musa.syncthreads.lm
  // CHECK-NOT: llvm.store
  // Each result element: its row, the gathered column.
  // CHECK: %[[I0:.*]] = llvm.extractvalue %[[IDX:.*]][0]
  // CHECK: %[[I1:.*]] = llvm.extractvalue %[[IDX]][1]
  // CHECK: %[[R0:.*]] = llvm.mul %{{.*}}, %{{.*}}
  // CHECK: %[[G0:.*]] = llvm.add %[[I0]], %[[R0]]
  // CHECK: %[[Q0:.*]] = llvm.getelementptr %[[BUF]][%[[G0]]]
  // CHECK: llvm.load %[[Q0]] : !llvm.ptr<3> -> f32
  // CHECK: %[[G1:.*]] = llvm.add %[[I1]], %{{.*}}
  // CHECK: %[[Q1:.*]] = llvm.getelementptr %[[BUF]][%[[G1]]]
  // CHECK: llvm.load %[[Q1]] : !llvm.ptr<3> -> f32
  tt.func public @gather_columns(%src: tensor<32x64xf32, #blocked>, %idx: tensor<32x64xi32, #blocked>) -> tensor<32x64xf32, #blocked> {
    %g = tt.gather %src[%idx] {allocation.offset = 1024 : i32, axis = 1 : i32} : (tensor<32x64xf32, #blocked>, tensor<32x64xi32, #blocked>) -> tensor<32x64xf32, #blocked>
    tt.return %g : tensor<32x64xf32, #blocked>
  }
}
