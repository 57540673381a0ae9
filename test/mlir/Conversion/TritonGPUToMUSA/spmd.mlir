// tt.get_program_id / tt.get_num_programs read the block id and grid size
// through the target interface: calls to readnone, nounwind llvm.musa.*
// functions, declared once per module.
// RUN: musa-opt %s -split-input-file -convert-tritongpu-to-musa=arch=mp_31 -o %t.mp_31.mlir
// RUN: FileCheck %s --input-file=%t.mp_31.mlir

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-DAG: llvm.func @llvm.musa.read.ptx.sreg.ctaid.x() -> i32 attributes {memory_effects = #llvm.memory_effects<other = none, argMem = none, inaccessibleMem = none{{.*}}>, no_unwind, will_return}
  // CHECK-DAG: llvm.func @llvm.musa.read.ptx.sreg.ctaid.y() -> i32
  // CHECK-DAG: llvm.func @llvm.musa.read.ptx.sreg.ctaid.z() -> i32
  // CHECK-DAG: llvm.func @llvm.musa.read.ptx.sreg.nctaid.x() -> i32
  // CHECK-DAG: llvm.func @llvm.musa.read.ptx.sreg.nctaid.y() -> i32
  // CHECK-DAG: llvm.func @llvm.musa.read.ptx.sreg.nctaid.z() -> i32
  // CHECK-LABEL: llvm.func @ids(
  // CHECK: llvm.call @llvm.musa.read.ptx.sreg.ctaid.x() {{.*}}no_unwind{{.*}} : () -> i32
  // CHECK: llvm.call @llvm.musa.read.ptx.sreg.ctaid.y()
  // CHECK: llvm.call @llvm.musa.read.ptx.sreg.ctaid.z()
  // CHECK: llvm.call @llvm.musa.read.ptx.sreg.nctaid.x()
  // CHECK: llvm.call @llvm.musa.read.ptx.sreg.nctaid.y()
  // CHECK: llvm.call @llvm.musa.read.ptx.sreg.nctaid.z()
  // CHECK-NOT: convergent
  tt.func public @ids(%out: !tt.ptr<i32>) {
    %x = tt.get_program_id x : i32
    %y = tt.get_program_id y : i32
    %z = tt.get_program_id z : i32
    %nx = tt.get_num_programs x : i32
    %ny = tt.get_num_programs y : i32
    %nz = tt.get_num_programs z : i32
    %a = arith.addi %x, %y : i32
    %b = arith.addi %a, %z : i32
    %c = arith.addi %nx, %ny : i32
    %d = arith.addi %c, %nz : i32
    %e = arith.muli %b, %d : i32
    tt.store %out, %e : !tt.ptr<i32>
    tt.return
  }
}
