// End to end: the vector-add TTGIR Triton 3.6 emits for each target
// (Inputs/add.<arch>.mlir, from corpus_ir) lowers completely: no tt/ttg op is
// left, the kernel is marked, each thread loads, adds and stores its
// registers (mp_31: sizePerThread 4, 8 registers; mp_22: sizePerThread 2,
// 2 registers) under the `offs < n` mask.
// RUN: musa-opt %S/Inputs/add.mp_31.mlir -convert-tritongpu-to-musa=arch=mp_31 -o %t.mp_31.mlir
// RUN: FileCheck %s --check-prefixes=CHECK,MP31 --input-file=%t.mp_31.mlir --implicit-check-not=tt. --implicit-check-not=ttg.
// RUN: musa-opt %S/Inputs/add.mp_22.mlir -convert-tritongpu-to-musa=arch=mp_22 -o %t.mp_22.mlir
// RUN: FileCheck %s --check-prefixes=CHECK,MP22 --input-file=%t.mp_22.mlir --implicit-check-not=tt. --implicit-check-not=ttg.

// The module keeps its "ttg.*" attributes (launch shape for later stages).
// CHECK: module attributes {{.*}}
// CHECK-DAG: llvm.func @llvm.musa.read.ptx.sreg.tid.x() -> i32
// CHECK-DAG: llvm.func @llvm.musa.read.ptx.sreg.ctaid.x() -> i32
// CHECK-LABEL: llvm.func @add_kernel(
// CHECK-SAME: %[[X:[^:]*]]: !llvm.ptr<1>, %[[Y:[^:]*]]: !llvm.ptr<1>, %[[OUT:[^:]*]]: !llvm.ptr<1>, %[[N:[^:]*]]: i32)
// MP31-SAME: attributes {musa.kernel, musa.maxntidx = 128 : i32}
// MP22-SAME: attributes {musa.kernel, musa.maxntidx = 512 : i32}
// CHECK: %[[PID:.*]] = llvm.call @llvm.musa.read.ptx.sreg.ctaid.x()
// CHECK: llvm.mul %[[PID]], %{{.*}} : i32
// CHECK: llvm.call @llvm.musa.read.ptx.sreg.tid.x()
// MP31: llvm.insertvalue %{{.*}}[7] : !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32)>
// MP22: llvm.insertvalue %{{.*}}[1] : !llvm.struct<(i32, i32)>
// CHECK: llvm.icmp "slt"
// CHECK: llvm.getelementptr %{{.*}} : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// MP31-COUNT-16: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// MP22-COUNT-4: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// MP31-COUNT-8: llvm.fadd %{{.*}}, %{{.*}} : f32
// MP22-COUNT-2: llvm.fadd %{{.*}}, %{{.*}} : f32
// MP31-COUNT-8: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<1>
// MP22-COUNT-2: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<1>
// CHECK: llvm.return
