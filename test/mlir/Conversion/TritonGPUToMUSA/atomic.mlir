// tt.atomic_rmw and tt.atomic_cas: one llvm.atomicrmw / llvm.cmpxchg per
// element, under its mask, issued once per element (owner thread, thread 0 for
// scalars); sem -> ordering (relaxed = monotonic), scope -> syncscope
// (cta = "workgroup", gpu = "agent", sys = none). Where other threads need the
// old value, it goes through the op's scratch shared memory.
// RUN: musa-opt %s -split-input-file -convert-tritongpu-to-musa=arch=mp_31 -o %t.mp_31.mlir
// RUN: FileCheck %s --check-prefixes=CHECK,MP31 --input-file=%t.mp_31.mlir '--implicit-check-not={{^ *(%[^ ]* = )?"?ttg?\.[a-z_]+}}'
// RUN: musa-opt %S/Inputs/atomic.mp_22.mlir -split-input-file -convert-tritongpu-to-musa=arch=mp_22 -o %t.mp_22.mlir
// RUN: FileCheck %s --check-prefixes=CHECK,MP22 --input-file=%t.mp_22.mlir '--implicit-check-not={{^ *(%[^ ]* = )?"?ttg?\.[a-z_]+}}'

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // Every thread holds distinct elements: no owner test, no shared memory;
  // each register's atomic sits behind its own mask.
  // CHECK-LABEL: llvm.func @fadd_masked(
  // CHECK-NOT: llvm.musa.syncthreads
  // CHECK: llvm.cond_br %[[M0:.*]], ^[[DO0:.*]], ^[[JOIN0:.*]](%[[Z0:.*]] : f32)
  // CHECK: ^[[DO0]]:
  // CHECK-NEXT: %[[OLD0:.*]] = llvm.atomicrmw fadd %{{[^ ,]+}}, %{{[^ ,]+}} syncscope("agent") acq_rel {alignment = 4 : i64} : !llvm.ptr<1>, f32
  // CHECK-NEXT: llvm.br ^[[JOIN0]](%[[OLD0]] : f32)
  // CHECK: llvm.cond_br %{{.*}}, ^[[DO1:.*]], ^[[JOIN1:.*]](%{{.*}} : f32)
  // CHECK: ^[[DO1]]:
  // CHECK-NEXT: llvm.atomicrmw fadd %{{[^ ,]+}}, %{{[^ ,]+}} syncscope("agent") acq_rel {alignment = 4 : i64} : !llvm.ptr<1>, f32
  // CHECK-NOT: llvm.atomicrmw
  // CHECK-NOT: llvm.musa.syncthreads
  // CHECK: llvm.return
  tt.func public @fadd_masked(%p: tensor<256x!tt.ptr<f32>, #blocked>, %v: tensor<256xf32, #blocked>, %m: tensor<256xi1, #blocked>, %out: tensor<256x!tt.ptr<f32>, #blocked>) {
    %old = tt.atomic_rmw fadd, acq_rel, gpu, %p, %v, %m : (tensor<256x!tt.ptr<f32>, #blocked>, tensor<256xf32, #blocked>, tensor<256xi1, #blocked>) -> tensor<256xf32, #blocked>
    tt.store %out, %old : tensor<256x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // Every memory semantic and scope, every integer kind.
  // CHECK-LABEL: llvm.func @kinds(
  // CHECK: llvm.atomicrmw max %{{[^ ,]+}}, %{{[^ ,]+}} syncscope("agent") monotonic {alignment = 4 : i64} : !llvm.ptr<1>, i32
  // CHECK: llvm.atomicrmw min %{{[^ ,]+}}, %{{[^ ,]+}} syncscope("workgroup") acquire {alignment = 4 : i64} : !llvm.ptr<1>, i32
  // CHECK: llvm.atomicrmw umax %{{[^ ,]+}}, %{{[^ ,]+}} syncscope("agent") release {alignment = 4 : i64} : !llvm.ptr<1>, i32
  // CHECK: llvm.atomicrmw umin %{{[^ ,]+}}, %{{[^ ,]+}} syncscope("agent") acq_rel {alignment = 4 : i64} : !llvm.ptr<1>, i32
  // CHECK: llvm.atomicrmw _and %{{[^ ,]+}}, %{{[^ ,]+}} acq_rel {alignment = 4 : i64} : !llvm.ptr<1>, i32
  // CHECK: llvm.atomicrmw _or %{{[^ ,]+}}, %{{[^ ,]+}} syncscope("agent") acq_rel {alignment = 4 : i64} : !llvm.ptr<1>, i32
  // CHECK: llvm.atomicrmw _xor %{{[^ ,]+}}, %{{[^ ,]+}} syncscope("agent") acq_rel {alignment = 4 : i64} : !llvm.ptr<1>, i32
  // CHECK: llvm.atomicrmw add %{{[^ ,]+}}, %{{[^ ,]+}} syncscope("agent") acq_rel {alignment = 8 : i64} : !llvm.ptr<1>, i64
  // CHECK: llvm.atomicrmw fadd %{{[^ ,]+}}, %{{[^ ,]+}} syncscope("agent") acq_rel {alignment = 2 : i64} : !llvm.ptr<1>, f16
  // CHECK: llvm.atomicrmw fadd %{{[^ ,]+}}, %{{[^ ,]+}} syncscope("agent") acq_rel {alignment = 2 : i64} : !llvm.ptr<1>, bf16
  // CHECK: llvm.atomicrmw fadd %{{[^ ,]+}}, %{{[^ ,]+}} syncscope("agent") acq_rel {alignment = 8 : i64} : !llvm.ptr<1>, f64
  // Floats are exchanged as integers of their width.
  // CHECK: %[[XB:.*]] = llvm.bitcast %{{.*}} : f32 to i32
  // CHECK: %[[XO:.*]] = llvm.atomicrmw xchg %{{.*}}, %[[XB]] syncscope("agent") release {alignment = 4 : i64} : !llvm.ptr<1>, i32
  // CHECK: llvm.bitcast %[[XO]] : i32 to f32
  // CHECK: llvm.return
  tt.func public @kinds(%pi: tensor<128x!tt.ptr<i32>, #blocked>, %i: tensor<128xi32, #blocked>, %pl: tensor<128x!tt.ptr<i64>, #blocked>, %l: tensor<128xi64, #blocked>, %ph: tensor<128x!tt.ptr<f16>, #blocked>, %h: tensor<128xf16, #blocked>, %pb: tensor<128x!tt.ptr<bf16>, #blocked>, %bf: tensor<128xbf16, #blocked>, %pd: tensor<128x!tt.ptr<f64>, #blocked>, %d: tensor<128xf64, #blocked>, %pf: tensor<128x!tt.ptr<f32>, #blocked>, %f: tensor<128xf32, #blocked>) {
    %true = arith.constant dense<true> : tensor<128xi1, #blocked>
    %0 = tt.atomic_rmw max, relaxed, gpu, %pi, %i, %true : (tensor<128x!tt.ptr<i32>, #blocked>, tensor<128xi32, #blocked>, tensor<128xi1, #blocked>) -> tensor<128xi32, #blocked>
    %1 = tt.atomic_rmw min, acquire, cta, %pi, %i, %true : (tensor<128x!tt.ptr<i32>, #blocked>, tensor<128xi32, #blocked>, tensor<128xi1, #blocked>) -> tensor<128xi32, #blocked>
    %2 = tt.atomic_rmw umax, release, gpu, %pi, %i : (tensor<128x!tt.ptr<i32>, #blocked>, tensor<128xi32, #blocked>) -> tensor<128xi32, #blocked>
    %3 = tt.atomic_rmw umin, acq_rel, gpu, %pi, %i : (tensor<128x!tt.ptr<i32>, #blocked>, tensor<128xi32, #blocked>) -> tensor<128xi32, #blocked>
    %4 = tt.atomic_rmw and, acq_rel, sys, %pi, %i : (tensor<128x!tt.ptr<i32>, #blocked>, tensor<128xi32, #blocked>) -> tensor<128xi32, #blocked>
    %5 = tt.atomic_rmw or, acq_rel, gpu, %pi, %i : (tensor<128x!tt.ptr<i32>, #blocked>, tensor<128xi32, #blocked>) -> tensor<128xi32, #blocked>
    %6 = tt.atomic_rmw xor, acq_rel, gpu, %pi, %i : (tensor<128x!tt.ptr<i32>, #blocked>, tensor<128xi32, #blocked>) -> tensor<128xi32, #blocked>
    %7 = tt.atomic_rmw add, acq_rel, gpu, %pl, %l : (tensor<128x!tt.ptr<i64>, #blocked>, tensor<128xi64, #blocked>) -> tensor<128xi64, #blocked>
    %8 = tt.atomic_rmw fadd, acq_rel, gpu, %ph, %h : (tensor<128x!tt.ptr<f16>, #blocked>, tensor<128xf16, #blocked>) -> tensor<128xf16, #blocked>
    %9 = tt.atomic_rmw fadd, acq_rel, gpu, %pb, %bf : (tensor<128x!tt.ptr<bf16>, #blocked>, tensor<128xbf16, #blocked>) -> tensor<128xbf16, #blocked>
    %10 = tt.atomic_rmw fadd, acq_rel, gpu, %pd, %d : (tensor<128x!tt.ptr<f64>, #blocked>, tensor<128xf64, #blocked>) -> tensor<128xf64, #blocked>
    %11 = tt.atomic_rmw exch, release, gpu, %pf, %f : (tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xf32, #blocked>) -> tensor<128xf32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32, ttg.shared = 16 : i32} {
  // A scalar atomic with a used result: thread 0 issues it, publishes the old
  // value at the op's offset (8) in shared memory, and everyone reads it back
  // after a barrier.
  // CHECK-LABEL: llvm.func @scalar_cas(
  // CHECK: %[[TID:.*]] = llvm.call @llvm.musa.read.ptx.sreg.tid.x()
  // CHECK: %[[C0:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK: %[[FIRST:.*]] = llvm.icmp "eq" %[[TID]], %[[C0]] : i32
  // CHECK: llvm.cond_br %[[FIRST]], ^[[DO:.*]], ^[[JOIN:.*]](%{{.*}} : i32)
  // CHECK: ^[[DO]]:
  // CHECK-NEXT: %[[PAIR:.*]] = llvm.cmpxchg %{{[^ ,]+}}, %{{[^ ,]+}}, %{{[^ ,]+}} syncscope("agent") acquire acquire {alignment = 4 : i64} : !llvm.ptr<1>, i32
  // CHECK-NEXT: %[[OLD:.*]] = llvm.extractvalue %[[PAIR]][0]
  // CHECK-NEXT: llvm.br ^[[JOIN]](%[[OLD]] : i32)
  // CHECK: ^[[JOIN]](%[[R:.*]]: i32):
  // CHECK: %[[BASE:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
  // CHECK: %[[C8:.*]] = llvm.mlir.constant(8 : i32) : i32
  // CHECK: %[[SLOT:.*]] = llvm.getelementptr %[[BASE]][%[[C8]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK: llvm.cond_br %[[FIRST]], ^[[PUB:.*]], ^[[AFTER:.*]]
  // CHECK: ^[[PUB]]:
  // CHECK-NEXT: llvm.store %[[R]], %[[SLOT]] : i32, !llvm.ptr<3>
  // CHECK: ^[[AFTER]]:
  // CHECK: llvm.call @llvm.musa.syncthreads.lm()
  // CHECK-NEXT: %[[SEEN:.*]] = llvm.load %[[SLOT]] : !llvm.ptr<3> -> i32
  // CHECK: llvm.icmp "eq" %[[SEEN]]
  tt.func public @scalar_cas(%lock: !tt.ptr<i32>) -> i1 {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %old = tt.atomic_cas acquire, gpu, %lock, %c0, %c1 {allocation.offset = 8 : i32} : (!tt.ptr<i32>, i32, i32) -> i32
    %free = arith.cmpi eq, %old, %c0 : i32
    tt.return %free : i1
  }

  // An unused scalar result needs no shared memory; the mask joins the
  // thread-0 test.
  // CHECK-LABEL: llvm.func @scalar_rmw_unused(
  // CHECK: %[[FIRST:.*]] = llvm.icmp "eq" %{{.*}}, %{{.*}} : i32
  // CHECK: %[[PRED:.*]] = llvm.and %[[FIRST]], %{{.*}} : i1
  // CHECK: llvm.cond_br %[[PRED]]
  // CHECK: llvm.atomicrmw xchg %{{[^ ,]+}}, %{{[^ ,]+}} syncscope("agent") release {alignment = 4 : i64} : !llvm.ptr<1>, i32
  // CHECK-NOT: llvm.musa.syncthreads
  // CHECK: llvm.return
  tt.func public @scalar_rmw_unused(%lock: !tt.ptr<i32>, %m: i1) {
    %c0 = arith.constant 0 : i32
    %old = tt.atomic_rmw exch, release, gpu, %lock, %c0, %m : (!tt.ptr<i32>, i32, i1) -> i32
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32, ttg.shared = 256 : i32} {
  // 64 elements over 128 threads: warps 2-3 repeat warps 0-1 (mp_31; on mp_22
  // 512 threads, lanes 64-127 repeat lanes 0-63 and warps 1-3 warp 0). Only the owners issue the atomic and
  // publish the old value at element index tid & 63 (scratch at offset 0);
  // after the barrier every thread reads its element.
  // CHECK-LABEL: llvm.func @cas_duplicated(
  // CHECK: %[[TID:.*]] = llvm.call @llvm.musa.read.ptx.sreg.tid.x()
  // MP31: %[[WARP:.*]] = llvm.lshr %[[TID]], %{{.*}} : i32
  // MP31: %[[C2:.*]] = llvm.mlir.constant(2 : i32) : i32
  // MP31: %[[DUP:.*]] = llvm.and %[[WARP]], %[[C2]] : i32
  // MP31: %[[OWNER:.*]] = llvm.icmp "eq" %[[DUP]], %{{.*}} : i32
  // MP22: %[[LANE:.*]] = llvm.and %[[TID]], %{{.*}} : i32
  // MP22: %[[C64:.*]] = llvm.mlir.constant(64 : i32) : i32
  // MP22: %[[DUP:.*]] = llvm.and %[[LANE]], %[[C64]] : i32
  // MP22: %[[LOWLANE:.*]] = llvm.icmp "eq" %[[DUP]], %{{.*}} : i32
  // MP22: %[[C3:.*]] = llvm.mlir.constant(3 : i32) : i32
  // MP22: %[[WDUP:.*]] = llvm.and %{{.*}}, %[[C3]] : i32
  // MP22: %[[WARP0:.*]] = llvm.icmp "eq" %[[WDUP]], %{{.*}} : i32
  // MP22: %[[OWNER:.*]] = llvm.and %[[LOWLANE]], %[[WARP0]] : i1
  // CHECK: llvm.cond_br %[[OWNER]], ^[[DO:.*]], ^[[JOIN:.*]](%{{.*}} : f32)
  // CHECK: ^[[DO]]:
  // CHECK: llvm.bitcast %{{.*}} : f32 to i32
  // CHECK: llvm.bitcast %{{.*}} : f32 to i32
  // CHECK: llvm.cmpxchg %{{[^ ,]+}}, %{{[^ ,]+}}, %{{[^ ,]+}} syncscope("agent") acq_rel acquire {alignment = 4 : i64} : !llvm.ptr<1>, i32
  // CHECK: ^[[JOIN]](%[[OLD:.*]]: f32):
  // CHECK: %[[BASE:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
  // CHECK: %[[SLOT:.*]] = llvm.getelementptr %[[BASE]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
  // CHECK: llvm.cond_br %[[OWNER]], ^[[PUB:.*]], ^[[AFTER:.*]]
  // CHECK: ^[[PUB]]:
  // CHECK-NEXT: llvm.store %[[OLD]], %[[SLOT]] : f32, !llvm.ptr<3>
  // CHECK: ^[[AFTER]]:
  // CHECK: llvm.call @llvm.musa.syncthreads.lm()
  // CHECK-NEXT: llvm.load %[[SLOT]] : !llvm.ptr<3> -> f32
  tt.func public @cas_duplicated(%p: tensor<64x!tt.ptr<f32>, #blocked>, %c: tensor<64xf32, #blocked>, %v: tensor<64xf32, #blocked>) -> tensor<64xf32, #blocked> {
    %old = tt.atomic_cas acq_rel, gpu, %p, %c, %v {allocation.offset = 0 : i32} : (tensor<64x!tt.ptr<f32>, #blocked>, tensor<64xf32, #blocked>, tensor<64xf32, #blocked>) -> tensor<64xf32, #blocked>
    tt.return %old : tensor<64xf32, #blocked>
  }
}
