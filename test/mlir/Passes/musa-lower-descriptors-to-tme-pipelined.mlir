// --musa-lower-descriptors-to-tme num-stages > 1: descriptor loads in an
// scf.for get a ring of num-stages buffers and barriers; the loads of the
// first num-stages - 1 iterations before the loop, iteration i issues
// iteration i + num-stages - 1's into the slot i - 1 read, then waits for
// its own slot; (slot, phase) are loop-carried, the phase flips on wrap.
// RUN: musa-opt %s -split-input-file -musa-lower-descriptors-to-tme="target=emulator num-stages=3" 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// num-stages=1 (the default): each load where it is, one barrier each.
// RUN: musa-opt %s -split-input-file -musa-lower-descriptors-to-tme=target=emulator | FileCheck %s --check-prefix=ONE

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // Two loads, rings of 3: barriers 1..3 (a) and 4..6 (b).
  // CHECK-LABEL: tt.func public @k_loop(
  // CHECK-SAME: %[[A:[^:]*]]: !tt.tensordesc<tensor<32x32xf16>>, {{.*}}, %[[B:[^:]*]]: !tt.tensordesc<tensor<32x32xf16>>, {{.*}}, %[[M:[^:]*]]: i32, %[[K:[^:]*]]: i32)
  // CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i32
  // CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i32
  // CHECK: musagpu.async_barrier_record 6
  // CHECK: %[[ABAR:.*]] = arith.constant 1 : i32
  // CHECK-NEXT: musagpu.async_barrier_init %[[ABAR]], arrive_count %[[C1]], phase %[[C0]]
  // CHECK: %[[BBAR:.*]] = arith.constant 4 : i32
  // CHECK-NEXT: musagpu.async_barrier_init %[[BBAR]]
  // CHECK: %[[C6:.*]] = arith.constant 6 : i32
  // CHECK-NEXT: musagpu.async_barrier_init %[[C6]]
  // CHECK-DAG: %[[RING:.*]] = arith.constant 3 : i32
  // CHECK-DAG: %[[AHEAD:.*]] = arith.constant 2 : i32
  // CHECK: %[[ABUF:.*]] = ttg.local_alloc {alignment = 2048 : i32} : () -> !ttg.memdesc<3x32x32xf16, #shared, #smem, mutable>
  // CHECK: %[[BBUF:.*]] = ttg.local_alloc {alignment = 2048 : i32} : () -> !ttg.memdesc<3x32x32xf16, #shared, #smem, mutable>
  // Prologue: iterations 0 and 1, each only if it runs.
  // CHECK: %[[S0:.*]] = arith.remui %{{.*}}, %[[RING]] : i32
  // CHECK: %[[P0:.*]] = arith.cmpi slt, %[[LB:.*]], %[[K]] : i32
  // CHECK: scf.if %[[P0]] {
  // CHECK: %[[BAR0:.*]] = arith.addi %[[ABAR]], %[[S0]] : i32
  // CHECK: %[[V0:.*]] = ttg.memdesc_index %[[ABUF]][%[[S0]]]
  // CHECK: musagpu.async_barrier_expect_bytes %[[BAR0]], %{{.*}}
  // CHECK-NEXT: musagpu.tme_load %[[A]][%[[LB]], %[[M]]] to %[[V0]], barrier %[[BAR0]] box [32, 32]
  // CHECK-NEXT: musagpu.async_barrier_arrive %[[BAR0]]
  // CHECK: musagpu.tme_load %[[B]]
  // CHECK: scf.if
  // CHECK-COUNT-2: musagpu.tme_load
  // CHECK: %{{.*}}:3 = scf.for %[[IV:.*]] = %[[LB]] to %[[K]] step %[[STEP:.*]] iter_args(%{{.*}} = %{{.*}}, %[[SLOT:.*]] = %[[C0]], %[[PHASE:.*]] = %[[C0]]) -> (tensor<32x32xf16, #blocked>, i32, i32)
  // Iteration i + 2 into slot (slot + 2) % 3, if it runs; (b's index is
  // recomputed from the induction variable: %kk = %k + 32).
  // CHECK-NEXT: %[[INSRAW:.*]] = arith.addi %[[SLOT]], %[[AHEAD]] : i32
  // CHECK-NEXT: %[[INS:.*]] = arith.remui %[[INSRAW]], %[[RING]] : i32
  // CHECK: %[[NEXTIV:.*]] = arith.addi %[[IV]], %{{.*}} : i32
  // CHECK-NEXT: %[[INRANGE:.*]] = arith.cmpi slt, %[[NEXTIV]], %[[K]] : i32
  // CHECK-NEXT: scf.if %[[INRANGE]] {
  // CHECK: musagpu.tme_load %[[A]][%[[NEXTIV]], %[[M]]] to %{{.*}}, barrier
  // CHECK: %[[KK:.*]] = arith.addi %[[NEXTIV]], %{{.*}} : i32
  // CHECK: %[[BINS:.*]] = ttg.memdesc_index %[[BBUF]][%[[INS]]]
  // CHECK: musagpu.tme_load %[[B]][%[[M]], %[[KK]]] to %[[BINS]], barrier
  // CHECK: }
  // This iteration's tiles: wait on (bar[slot], phase), read the slot.
  // CHECK-NEXT: %[[WBAR:.*]] = arith.addi %[[ABAR]], %[[SLOT]] : i32
  // CHECK-NEXT: musagpu.async_barrier_wait %[[WBAR]], phase %[[PHASE]]
  // CHECK-NEXT: %[[VIEW:.*]] = ttg.memdesc_index %[[ABUF]][%[[SLOT]]]
  // CHECK-NEXT: ttg.local_load %[[VIEW]]
  // CHECK: %[[WBBAR:.*]] = arith.addi %[[BBAR]], %[[SLOT]] : i32
  // CHECK-NEXT: musagpu.async_barrier_wait %[[WBBAR]], phase %[[PHASE]]
  // CHECK-NOT: tt.descriptor_load
  // CHECK: %[[NEXT:.*]] = arith.addi %[[SLOT]], %[[C1]] : i32
  // CHECK-NEXT: %[[WRAP:.*]] = arith.cmpi eq, %[[NEXT]], %[[RING]] : i32
  // CHECK-NEXT: %[[FLIP:.*]] = arith.xori %[[PHASE]], %[[C1]] : i32
  // CHECK-NEXT: %[[NSLOT:.*]] = arith.select %[[WRAP]], %[[C0]], %[[NEXT]] : i32
  // CHECK-NEXT: %[[NPHASE:.*]] = arith.select %[[WRAP]], %[[FLIP]], %[[PHASE]] : i32
  // CHECK-NEXT: scf.yield %{{.*}}, %[[NSLOT]], %[[NPHASE]]
  // CHECK: ttg.local_dealloc %[[BBUF]]
  // CHECK-NEXT: ttg.local_dealloc %[[ABUF]]
  // ONE-LABEL: tt.func public @k_loop(
  // ONE: musagpu.async_barrier_record 2
  // ONE-NOT: scf.if
  // ONE-NOT: ttg.memdesc_index
  tt.func public @k_loop(%a: !tt.tensordesc<tensor<32x32xf16>>, %am: i32, %ak: i32, %asm: i64, %ask: i64, %b: !tt.tensordesc<tensor<32x32xf16>>, %bk: i32, %bn: i32, %bsk: i64, %bsn: i64, %m: i32, %K: i32) -> tensor<32x32xf16, #blocked> {
    %c0 = arith.constant 0 : i32
    %c32 = arith.constant 32 : i32
    %zero = arith.constant dense<0.0> : tensor<32x32xf16, #blocked>
    %r = scf.for %k = %c0 to %K step %c32 iter_args(%acc = %zero) -> (tensor<32x32xf16, #blocked>) : i32 {
      %t = tt.descriptor_load %a[%m, %k] : !tt.tensordesc<tensor<32x32xf16>> -> tensor<32x32xf16, #blocked>
      %kk = arith.addi %k, %c32 : i32
      %u = tt.descriptor_load %b[%kk, %m] : !tt.tensordesc<tensor<32x32xf16>> -> tensor<32x32xf16, #blocked>
      %s = arith.addf %acc, %t : tensor<32x32xf16, #blocked>
      %s2 = arith.addf %s, %u : tensor<32x32xf16, #blocked>
      scf.yield %s2 : tensor<32x32xf16, #blocked>
    }
    tt.return %r : tensor<32x32xf16, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // The inner loop's tt.num_stages = 2 overrides the option: a ring of 2.
  // Its (slot, phase) continue across the outer loop: the outer loop
  // carries them, the prologue issues into the slot they left.
  // CHECK-LABEL: tt.func public @nested(
  // CHECK: musagpu.async_barrier_record 2
  // CHECK: %[[BUF:.*]] = ttg.local_alloc {{.*}} !ttg.memdesc<2x16x32xf32
  // CHECK: %{{.*}}:3 = scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}, %[[OSLOT:.*]] = %[[C0:.*]], %[[OPHASE:.*]] = %[[C0]])
  // CHECK: %[[FIRST:.*]] = arith.remui
  // CHECK: scf.if
  // CHECK: ttg.memdesc_index %[[BUF]][%[[FIRST]]]
  // CHECK: %[[IN:.*]]:3 = scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %[[OSLOT]], %{{.*}} = %[[OPHASE]])
  // CHECK: } {tt.num_stages = 2 : i32}
  // CHECK-NEXT: scf.yield %[[IN]]#0, %[[IN]]#1, %[[IN]]#2
  // ONE-LABEL: tt.func public @nested(
  // ONE: musagpu.async_barrier_record 2
  // ONE: ttg.memdesc_index
  tt.func public @nested(%d: !tt.tensordesc<tensor<16x32xf32>>, %dm: i32, %dn: i32, %dsm: i64, %dsn: i64, %rows: i32, %n: i32) -> tensor<16x32xf32, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c16 = arith.constant 16 : i32
    %zero = arith.constant dense<0.0> : tensor<16x32xf32, #blocked>
    %r = scf.for %i = %c0 to %rows step %c1 iter_args(%acc = %zero) -> (tensor<16x32xf32, #blocked>) : i32 {
      %row = arith.muli %i, %c16 : i32
      %s = scf.for %j = %c0 to %n step %c1 iter_args(%a = %acc) -> (tensor<16x32xf32, #blocked>) : i32 {
        %col = arith.muli %j, %c16 : i32
        %t = tt.descriptor_load %d[%row, %col] : !tt.tensordesc<tensor<16x32xf32>> -> tensor<16x32xf32, #blocked>
        %u = arith.addf %a, %t : tensor<16x32xf32, #blocked>
        scf.yield %u : tensor<16x32xf32, #blocked>
      } {tt.num_stages = 2 : i32}
      scf.yield %s : tensor<16x32xf32, #blocked>
    }
    tt.return %r : tensor<16x32xf32, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // An index that is loop-carried cannot be computed ahead: one buffer,
  // one barrier, the load where it is.
  // CHECK-LABEL: tt.func public @carried(
  // CHECK: musagpu.async_barrier_record 1
  // CHECK: ttg.local_alloc {{.*}} !ttg.memdesc<16x32xf32
  // CHECK-NOT: ttg.memdesc_index
  // CHECK: musagpu.tme_load
  // REMARK: remark: descriptor load is not pipelined: its indices depend on a loop-carried value
  tt.func public @carried(%d: !tt.tensordesc<tensor<16x32xf32>>, %dm: i32, %dn: i32, %dsm: i64, %dsn: i64, %n: i32) -> tensor<16x32xf32, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %zero = arith.constant dense<0.0> : tensor<16x32xf32, #blocked>
    %r:2 = scf.for %j = %c0 to %n step %c1 iter_args(%a = %zero, %col = %c0) -> (tensor<16x32xf32, #blocked>, i32) : i32 {
      %t = tt.descriptor_load %d[%c0, %col] : !tt.tensordesc<tensor<16x32xf32>> -> tensor<16x32xf32, #blocked>
      %u = arith.addf %a, %t : tensor<16x32xf32, #blocked>
      %next = arith.addi %col, %c32 : i32
      scf.yield %u, %next : tensor<16x32xf32, #blocked>, i32
    }
    tt.return %r#0 : tensor<16x32xf32, #blocked>
  }
}
