// tt.histogram through shared memory (the op's scratch at allocation.offset):
// the result's owners zero the bins, a barrier, each source element counted
// once with a shared-memory atomic add when masked in and 0 <= x < bins, a
// barrier, then each thread reads the bins of its result registers.
// RUN: musa-opt %s -split-input-file -convert-tritongpu-to-musa=arch=mp_31 -o %t.mp_31.mlir
// RUN: FileCheck %s --check-prefixes=CHECK,MP31 --input-file=%t.mp_31.mlir '--implicit-check-not={{^ *(%[^ ]* = )?"?ttg?\.[a-z_]+}}'
// RUN: musa-opt %S/Inputs/histogram.mp_22.mlir -split-input-file -convert-tritongpu-to-musa=arch=mp_22 -o %t.mp_22.mlir
// RUN: FileCheck %s --check-prefixes=CHECK,MP22 --input-file=%t.mp_22.mlir '--implicit-check-not={{^ *(%[^ ]* = )?"?ttg?\.[a-z_]+}}'

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32, ttg.shared = 512 : i32} {
  // 64 bins over 128 threads (mp_22: 512): only the owners (mp_31: warps
  // 0-1; mp_22: lanes 0-63 of warp 0) zero them. The 1024 source elements are distinct: 8 per
  // thread on mp_31, 2 on mp_22, each counted once.
  // CHECK-LABEL: llvm.func @histogram(
  // CHECK: %[[BASE:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
  // CHECK: %[[C256:.*]] = llvm.mlir.constant(256 : i32) : i32
  // CHECK: %[[BINS:.*]] = llvm.getelementptr %[[BASE]][%[[C256]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // MP31: %[[C2:.*]] = llvm.mlir.constant(2 : i32) : i32
  // MP31: %[[DUP:.*]] = llvm.and %{{.*}}, %[[C2]] : i32
  // MP31: %[[OWNER:.*]] = llvm.icmp "eq" %[[DUP]], %{{.*}} : i32
  // MP22: %[[C64:.*]] = llvm.mlir.constant(64 : i32) : i32
  // MP22: %[[DUP:.*]] = llvm.and %{{.*}}, %[[C64]] : i32
  // MP22: %[[LOWLANE:.*]] = llvm.icmp "eq" %[[DUP]], %{{.*}} : i32
  // MP22: %[[C3:.*]] = llvm.mlir.constant(3 : i32) : i32
  // MP22: %[[WDUP:.*]] = llvm.and %{{.*}}, %[[C3]] : i32
  // MP22: %[[WARP0:.*]] = llvm.icmp "eq" %[[WDUP]], %{{.*}} : i32
  // MP22: %[[OWNER:.*]] = llvm.and %[[LOWLANE]], %[[WARP0]] : i1
  // CHECK: %[[ZERO:.*]] = llvm.mlir.zero : i32
  // CHECK: llvm.cond_br %[[OWNER]], ^[[ZB:.*]], ^[[ZJ:.*]]
  // CHECK: ^[[ZB]]:
  // CHECK-NEXT: %[[ZP:.*]] = llvm.getelementptr %[[BINS]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
  // CHECK-NEXT: llvm.store %[[ZERO]], %[[ZP]] : i32, !llvm.ptr<3>
  // CHECK-NEXT: llvm.br ^[[ZJ]]
  // CHECK: ^[[ZJ]]:
  // CHECK: llvm.call @llvm.musa.syncthreads.lm()
  // CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK: %[[NB:.*]] = llvm.mlir.constant(64 : i32) : i32
  // CHECK: %[[IN:.*]] = llvm.icmp "ult" %[[X0:.*]], %[[NB]] : i32
  // CHECK: %[[PRED:.*]] = llvm.and %[[IN]], %{{.*}} : i1
  // CHECK: llvm.cond_br %[[PRED]], ^[[CB:.*]], ^[[CJ:.*]]
  // CHECK: ^[[CB]]:
  // CHECK-NEXT: %[[BP:.*]] = llvm.getelementptr %[[BINS]][%[[X0]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
  // CHECK-NEXT: llvm.atomicrmw add %[[BP]], %[[ONE]] syncscope("workgroup") monotonic : !llvm.ptr<3>, i32
  // CHECK-COUNT-1: llvm.atomicrmw add
  // MP31-COUNT-6: llvm.atomicrmw add
  // CHECK-NOT: llvm.atomicrmw
  // CHECK: llvm.call @llvm.musa.syncthreads.lm()
  // CHECK-NEXT: %[[RP:.*]] = llvm.getelementptr %[[BINS]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
  // CHECK-NEXT: %[[H:.*]] = llvm.load %[[RP]] : !llvm.ptr<3> -> i32
  // CHECK-NEXT: llvm.mlir.undef : !llvm.struct<(i32)>
  tt.func public @histogram(%x: tensor<1024xi32, #blocked>, %m: tensor<1024xi1, #blocked>) -> tensor<64xi32, #blocked> {
    %h = tt.histogram %x, %m {allocation.offset = 256 : i32} : tensor<1024xi32, #blocked> -> tensor<64xi32, #blocked>
    tt.return %h : tensor<64xi32, #blocked>
  }
}
