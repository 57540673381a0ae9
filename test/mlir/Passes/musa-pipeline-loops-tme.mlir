// RUN: musa-opt %s -split-input-file --musa-pipeline-loops="num-stages=3 target=emulator" 2>/dev/null | FileCheck %s
// RUN: musa-opt %s -split-input-file --musa-pipeline-loops="num-stages=3 target=emulator" -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// Then --musa-lower-descriptors-to-tme: the loads left take ids after the rings'.
// RUN: musa-opt %s -split-input-file --musa-pipeline-loops="num-stages=3 target=emulator" -musa-lower-descriptors-to-tme=target=emulator 2>/dev/null | FileCheck %s --check-prefix=AFTER

// --musa-pipeline-loops on descriptor loads (mp_31, TME): each load that
// feeds a dot becomes a ring of num_stages TME tiles with one async barrier
// per slot, initialized (arrive count 1, phase 0) before the loop. The
// prologue issues iterations 0 and 1; iteration i issues iteration i + 2's
// tile into slot (i + 2) % 3 (expect the bytes, tme_load, arrive, all under
// the predicate that iteration i + 2 exists), then waits on barrier
// base + i % 3 in phase (i / 3) % 2 and reads slot i % 3.
// REMARK: remark: loop pipelined: 2 loads as TME tiles (0 read in place), rings of 3 slots, tiles issued 2 iterations ahead
// CHECK-LABEL: tt.func public @k_loop(
// CHECK-SAME: %[[A:[^:]*]]: !tt.tensordesc<tensor<64x32xf16>>, {{.*}}, %[[B:[^:]*]]: !tt.tensordesc<tensor<32x64xf16>>, {{.*}}, %[[M:[^:]*]]: i32, %[[K:[^:]*]]: i32)
// CHECK: musagpu.async_barrier_record 6
// CHECK: %[[RA:.*]] = ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<3x64x32xf16, #[[TME:.*]], #smem, mutable>
// CHECK: %[[RB:.*]] = ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<3x32x64xf16, #[[TME]], #smem, mutable>
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i32
// CHECK: %[[BASEA:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[ID1:.*]] = arith.constant 1 : i32
// CHECK-NEXT: musagpu.async_barrier_init %[[ID1]], arrive_count %[[C1]], phase %[[C0]]
// CHECK-NEXT: %[[ID2:.*]] = arith.constant 2 : i32
// CHECK-NEXT: musagpu.async_barrier_init %[[ID2]], arrive_count %[[C1]], phase %[[C0]]
// CHECK: musagpu.async_barrier_init
// CHECK: %[[BASEB:.*]] = arith.constant 4 : i32
// CHECK-COUNT-3: musagpu.async_barrier_init
// CHECK-NOT: musagpu.async_barrier_init
// Prologue: iteration 0 into slot 0, iteration 1 into slot 1.
// CHECK: %[[P0:.*]] = arith.cmpi slt, %{{.*}}, %[[K]] : i32
// CHECK: %[[S0:.*]] = arith.remui
// CHECK: %[[V0:.*]] = ttg.memdesc_index %[[RA]][%[[S0]]]
// CHECK: %[[BAR0:.*]] = arith.addi %[[BASEA]], %[[S0]] : i32
// CHECK: scf.if %[[P0]] {
// CHECK: musagpu.async_barrier_expect_bytes %[[BAR0]], %{{.*}}
// CHECK-NEXT: musagpu.tme_load %[[A]][%{{.*}}, %[[M]]] to %[[V0]], barrier %[[BAR0]] box [32, 64]
// CHECK-NEXT: musagpu.async_barrier_arrive %[[BAR0]]
// CHECK: musagpu.tme_load %[[B]]
// CHECK-COUNT-2: musagpu.tme_load
// CHECK: scf.for %[[IV:.*]] = %{{.*}} to %[[K]] step %{{.*}} iter_args
// CHECK: %[[IT:.*]] = arith.divui
// CHECK: %[[SLOT:.*]] = arith.remui %[[IT]], %{{.*}} : i32
// CHECK-NEXT: %[[ROUND:.*]] = arith.divui %[[IT]], %{{.*}} : i32
// CHECK-NEXT: %[[PHASE:.*]] = arith.andi %[[ROUND]], %[[C1]] : i32
// CHECK: %[[INS:.*]] = arith.remui
// CHECK: %[[INTO:.*]] = ttg.memdesc_index %[[RA]][%[[INS]]]
// CHECK: %[[IBAR:.*]] = arith.addi %[[BASEA]], %[[INS]] : i32
// CHECK: scf.if %{{.*}} {
// CHECK: musagpu.tme_load %[[A]][%{{.*}}, %[[M]]] to %[[INTO]], barrier %[[IBAR]]
// CHECK: musagpu.tme_load %[[B]]
// CHECK: %[[WBAR:.*]] = arith.addi %[[BASEA]], %[[SLOT]] : i32
// CHECK-NEXT: musagpu.async_barrier_wait %[[WBAR]], phase %[[PHASE]]
// CHECK-NEXT: %[[VIEW:.*]] = ttg.memdesc_index %[[RA]][%[[SLOT]]]
// CHECK-NEXT: ttg.local_load %[[VIEW]]
// CHECK: %[[WBBAR:.*]] = arith.addi %[[BASEB]], %[[SLOT]] : i32
// CHECK-NEXT: musagpu.async_barrier_wait %[[WBBAR]], phase %[[PHASE]]
// CHECK-NOT: tt.descriptor_load
// CHECK: tt.dot
// CHECK: scf.yield
// CHECK-NOT: ttg.async_wait
// CHECK: ttg.local_dealloc %[[RA]]
// CHECK-NEXT: ttg.local_dealloc %[[RB]]
// AFTER-LABEL: tt.func public @k_loop(
// AFTER: musagpu.async_barrier_record 6
// AFTER-NOT: musagpu.async_barrier_record

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#op0 = #ttg.dot_op<{opIdx = 0, parent = #blocked1}>
#op1 = #ttg.dot_op<{opIdx = 1, parent = #blocked1}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k_loop(%a: !tt.tensordesc<tensor<64x32xf16>>, %am: i32, %ak: i32, %asm: i64, %ask: i64, %b: !tt.tensordesc<tensor<32x64xf16>>, %bk: i32, %bn: i32, %bsk: i64, %bsn: i64, %m: i32, %K: i32) -> tensor<64x64xf32, #blocked1> {
    %c0 = arith.constant 0 : i32
    %c32 = arith.constant 32 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #blocked1>
    %r = scf.for %k = %c0 to %K step %c32 iter_args(%acc = %zero) -> (tensor<64x64xf32, #blocked1>) : i32 {
      %x = tt.descriptor_load %a[%m, %k] : !tt.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16, #blocked>
      %y = tt.descriptor_load %b[%k, %m] : !tt.tensordesc<tensor<32x64xf16>> -> tensor<32x64xf16, #blocked>
      %xo = ttg.convert_layout %x : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #op0>
      %yo = ttg.convert_layout %y : tensor<32x64xf16, #blocked> -> tensor<32x64xf16, #op1>
      %d = tt.dot %xo, %yo, %acc : tensor<64x32xf16, #op0> * tensor<32x64xf16, #op1> -> tensor<64x64xf32, #blocked1>
      scf.yield %d : tensor<64x64xf32, #blocked1>
    }
    tt.return %r : tensor<64x64xf32, #blocked1>
  }
}

// -----

// A ring in a loop nest (the inner loop's own tt.num_stages = 2, its load
// feeding no dot): every run of the inner loop starts its barriers in
// phase 0, after a block barrier (every thread is past its last wait on
// them). The phase is the iteration's, not carried through the outer loop.
// The outer loop, which holds a loop, is not pipelined.
// REMARK: remark: loop pipelined: 1 load as TME tiles (0 read in place), rings of 2 slots, tiles issued 1 iteration ahead
// CHECK-LABEL: tt.func public @nested(
// AFTER-LABEL: tt.func public @nested(
// CHECK: musagpu.async_barrier_record 2
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<16x32xf32, #blocked>)
// CHECK: %[[RING:.*]] = ttg.local_alloc {{.*}} !ttg.memdesc<2x16x32xf32
// CHECK-NEXT: ttg.local_barrier
// CHECK: arith.constant true
// CHECK-NEXT: %[[BASE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[ID:.*]] = arith.constant 1 : i32
// CHECK-NEXT: musagpu.async_barrier_init %[[ID]]
// CHECK-NEXT: %[[ID2:.*]] = arith.constant 2 : i32
// CHECK-NEXT: musagpu.async_barrier_init %[[ID2]]
// CHECK: musagpu.tme_load
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<16x32xf32, #blocked>)
// CHECK: musagpu.tme_load
// CHECK: musagpu.async_barrier_wait
// CHECK: ttg.local_dealloc %[[RING]]
// CHECK-NEXT: scf.yield

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
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

// Tutorial 06's shape: the K/V offsets are loop-carried (advanced by the
// loop); the producer computes them ahead, through the carried value. A
// descriptor load and a pointer load in one loop: copies and TME tiles; the
// TME ids start at 2 (id 1 stays with the g2s copies). The load after the
// loop takes id 5, after the ring's.
// REMARK: remark: loop pipelined: 1 load as async copies and 1 load as TME tiles (0 read in place), rings of 3 slots, copies issued 2 iterations ahead, a wait every 2 iterations
// CHECK-LABEL: tt.func public @carried_offsets(
// CHECK: musagpu.async_barrier_record 4
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[OFF:.*]] = %{{.*}}, %{{.*}} = %{{.*}}) ->
// CHECK: musagpu.async_copy_wait
// CHECK-NEXT: ttg.local_barrier
// CHECK: musagpu.tme_load %{{.*}}[%[[OFF]], %{{.*}}]
// CHECK: ttg.async_copy_global_to_local
// CHECK: %[[NEXT:.*]] = arith.addi %[[OFF]], %{{.*}} : i32
// CHECK: musagpu.async_barrier_wait
// CHECK: tt.dot
// CHECK: scf.yield %{{.*}}, %[[NEXT]]
// CHECK: ttg.async_wait {num = 0 : i32}
// AFTER-LABEL: tt.func public @carried_offsets(
// AFTER: musagpu.async_barrier_record 5
// AFTER: %[[LAST:.*]] = arith.constant 5 : i32
// AFTER-NEXT: musagpu.async_barrier_init %[[LAST]]
// AFTER: musagpu.tme_load %{{.*}} barrier %[[LAST]]

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#op0 = #ttg.dot_op<{opIdx = 0, parent = #blocked1}>
#op1 = #ttg.dot_op<{opIdx = 1, parent = #blocked1}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @carried_offsets(%k_desc: !tt.tensordesc<tensor<64x32xf16>>, %km: i32, %kn: i32, %ksm: i64, %ksn: i64, %q: tensor<32x64x!tt.ptr<f16>, #blocked>, %m: i32, %n: i32) -> (tensor<64x64xf32, #blocked1>, tensor<64x32xf16, #blocked>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %step = arith.constant dense<2048> : tensor<32x64xi32, #blocked>
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #blocked1>
    %r:3 = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero, %off = %m, %p = %q) -> (tensor<64x64xf32, #blocked1>, i32, tensor<32x64x!tt.ptr<f16>, #blocked>) : i32 {
      %x = tt.descriptor_load %k_desc[%c0, %off] : !tt.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16, #blocked>
      %y = tt.load %p : tensor<32x64x!tt.ptr<f16>, #blocked>
      %xo = ttg.convert_layout %x : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #op0>
      %yo = ttg.convert_layout %y : tensor<32x64xf16, #blocked> -> tensor<32x64xf16, #op1>
      %d = tt.dot %xo, %yo, %acc : tensor<64x32xf16, #op0> * tensor<32x64xf16, #op1> -> tensor<64x64xf32, #blocked1>
      %next = arith.addi %off, %c32 : i32
      %np = tt.addptr %p, %step : tensor<32x64x!tt.ptr<f16>, #blocked>, tensor<32x64xi32, #blocked>
      scf.yield %d, %next, %np : tensor<64x64xf32, #blocked1>, i32, tensor<32x64x!tt.ptr<f16>, #blocked>
    }
    %last = tt.descriptor_load %k_desc[%c0, %c0] : !tt.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16, #blocked>
    tt.return %r#0, %last : tensor<64x64xf32, #blocked1>, tensor<64x32xf16, #blocked>
  }
}

// -----

// A descriptor load that TME cannot take here leaves the loop's other loads
// pipelined and, alone, the loop with a remark naming why.
// REMARK: remark: loop not pipelined: the descriptor load 'tt.descriptor_load' at {{.*}}musa-pipeline-loops-tme.mlir:{{[0-9]+}} stays without TME: its descriptor is made inside the loop
// CHECK-LABEL: tt.func public @made_in_loop(
// CHECK-NOT: musagpu.tme_load
// CHECK: tt.descriptor_load

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#op0 = #ttg.dot_op<{opIdx = 0, parent = #blocked1}>
#op1 = #ttg.dot_op<{opIdx = 1, parent = #blocked1}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @made_in_loop(%base: !tt.ptr<f16>, %b: tensor<32x64xf16, #op1>, %rows: i32, %n: i32) -> tensor<64x64xf32, #blocked1> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c1_i64 = arith.constant 1 : i64
    %c32_i64 = arith.constant 32 : i64
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #blocked1>
    %r = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #blocked1>) : i32 {
      %desc = tt.make_tensor_descriptor %base, [%rows, %n], [%c32_i64, %c1_i64] : !tt.ptr<f16>, !tt.tensordesc<tensor<64x32xf16>>
      %x = tt.descriptor_load %desc[%j, %c0] : !tt.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16, #blocked>
      %xo = ttg.convert_layout %x : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #op0>
      %d = tt.dot %xo, %b, %acc : tensor<64x32xf16, #op0> * tensor<32x64xf16, #op1> -> tensor<64x64xf32, #blocked1>
      scf.yield %d : tensor<64x64xf32, #blocked1>
    }
    tt.return %r : tensor<64x64xf32, #blocked1>
  }
}
