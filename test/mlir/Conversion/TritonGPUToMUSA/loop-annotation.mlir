// Loop metadata from tl.range(..., disable_licm=True) and
// tl.condition(..., disable_licm=True): Triton's llvm.loop_annotation on
// scf.for / scf.while becomes the back edge's loop_annotation, which the LLVM
// IR export writes as !llvm.loop metadata holding "llvm.licm.disable" (LLVM
// 14's LICM honours it); the exported module passes the LLVM 14 check.
// RUN: musa-opt %s -convert-tritongpu-to-musa=arch=mp_31 -o %t.mp_31.mlir
// RUN: FileCheck %s --input-file=%t.mp_31.mlir
// RUN: musa-translate --musa-to-llvmir --musa-arch=mp_31 %t.mp_31.mlir -o %t.ll
// RUN: FileCheck %s --check-prefix=LLIR --input-file=%t.ll
// RUN: %check-llvm14 %t.ll

// CHECK-DAG: #[[LICM:.*]] = #llvm.loop_licm<disable = true, versioningDisable = true>
// CHECK-DAG: #[[ANN:.*]] = #llvm.loop_annotation<licm = #[[LICM]]>
// CHECK-LABEL: llvm.func @for_loop
// CHECK: llvm.br ^{{bb[0-9]+}}(%{{.*}} : i32) {loop_annotation = #[[ANN]]}
// CHECK-NOT: llvm.loop_annotation =
// LLIR-LABEL: define {{.*}} @for_loop
// LLIR: br {{.*}}, !llvm.loop ![[LOOP:[0-9]+]]
#loop_licm = #llvm.loop_licm<disable = true, versioningDisable = true>
#loop_annotation = #llvm.loop_annotation<licm = #loop_licm>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @for_loop(%x: !tt.ptr<i32>, %n: i32) {
    %c1 = arith.constant 1 : i32
    %c0 = arith.constant 0 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %p = tt.addptr %x, %i : !tt.ptr<i32>, i32
      %v = tt.load %x : !tt.ptr<i32>
      %s = arith.addi %v, %i : i32
      tt.store %p, %s : !tt.ptr<i32>
    } {llvm.loop_annotation = #loop_annotation}
    tt.return
  }

  // CHECK-LABEL: llvm.func @while_loop
  // CHECK: llvm.br ^{{bb[0-9]+}}(%{{.*}} : i32) {loop_annotation = #{{.*}}}
  // CHECK-NOT: llvm.loop_annotation =
  // Equal annotations share one metadata node.
  // LLIR-LABEL: define {{.*}} @while_loop
  // LLIR: br {{.*}}, !llvm.loop ![[LOOP]]{{$}}
  // LLIR: ![[LOOP]] = distinct !{![[LOOP]], ![[DIS:[0-9]+]]
  // LLIR: ![[DIS]] = !{!"llvm.licm.disable"}
  tt.func public @while_loop(%x: !tt.ptr<i32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.while (%i = %c0) : (i32) -> i32 {
      %c = arith.cmpi slt, %i, %n : i32
      scf.condition(%c) %i : i32
    } do {
    ^bb0(%i: i32):
      %p = tt.addptr %x, %i : !tt.ptr<i32>, i32
      tt.store %p, %i : !tt.ptr<i32>
      %j = arith.addi %i, %c1 : i32
      scf.yield %j : i32
    } attributes {llvm.loop_annotation = #loop_annotation}
    tt.return
  }
}
