// gpu.barrier and ttg.local_barrier become the convergent MUSA block
// barriers (all memory / shared memory only).
// RUN: musa-opt %s -split-input-file -convert-tritongpu-to-musa=arch=mp_31 -o %t.mp_31.mlir
// RUN: FileCheck %s --input-file=%t.mp_31.mlir

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-DAG: llvm.func @llvm.musa.barrier0() attributes {convergent, no_unwind}
  // CHECK-DAG: llvm.func @llvm.musa.syncthreads.lm() attributes {convergent, no_unwind}
  // CHECK-LABEL: llvm.func @barriers(
  // CHECK: llvm.call @llvm.musa.barrier0() {convergent, no_unwind} : () -> ()
  // CHECK: llvm.call @llvm.musa.syncthreads.lm() {convergent, no_unwind} : () -> ()
  tt.func public @barriers() {
    gpu.barrier
    ttg.local_barrier
    tt.return
  }
}
