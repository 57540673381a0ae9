// RUN: musa-opt %s --musa-pipeline-loops="num-stages=3 overlap-matrix-unit=true unit-waits-per-round=false" --split-input-file 2>/dev/null | FileCheck %s
// RUN: musa-opt %s --musa-pipeline-loops="num-stages=3 overlap-matrix-unit=true unit-waits-per-round=false" --split-input-file -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: musa-opt %s --musa-pipeline-loops="num-stages=3 unit-waits-per-round=false" --split-input-file 2>/dev/null | FileCheck %s --check-prefix=SERIAL
// RUN: musa-opt %s --musa-pipeline-loops="num-stages=3 unit-waits-per-round=false" --split-input-file -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=SERIAL-REMARK
// RUN: musa-opt %s --musa-pipeline-loops="num-stages=3 batch-beside-matrix-unit=true" --split-input-file 2>/dev/null | FileCheck %s --check-prefix=BATCH
// RUN: musa-opt %s --musa-pipeline-loops="num-stages=3 batch-beside-matrix-unit=true" --split-input-file -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=BATCH-REMARK

// The tutorial's K loop: pointers advanced by the loop, a mask from the
// induction variable, an FMA dot on register operands. Each load becomes a
// copy into a 3-slot ring, issued two iterations ahead: the prologue fills
// slots 0 and 1 (each masked by the loop's range), and the kernel waits in
// every other iteration, then issues iteration k + 2's copies (masked off
// past the end), then reads slot k % 3 straight into the dot layout.
// REMARK: remark: loop pipelined: 2 loads as async copies (0 read in place), rings of 3 slots, copies issued 2 iterations ahead, a wait every 2 iterations
// CHECK-LABEL: @k_loop
// CHECK: %[[RA:.*]] = ttg.local_alloc {alignment = 16 : i32} : () -> !ttg.memdesc<3x64x32xf16, #[[SA:.*]], #smem, mutable>
// CHECK: %[[RB:.*]] = ttg.local_alloc {alignment = 16 : i32} : () -> !ttg.memdesc<3x32x64xf16, #[[SB:.*]], #smem, mutable>
// CHECK-COUNT-2: ttg.async_copy_global_to_local
// CHECK: scf.for
// CHECK: musagpu.async_copy_wait if %{{.*}}
// CHECK-NEXT: ttg.local_barrier
// CHECK: ttg.memdesc_index %[[RA]]
// CHECK: ttg.async_copy_global_to_local %{{.*}}, %{{.*}} mask %{{.*}}
// CHECK: ttg.async_commit_group
// CHECK: ttg.async_copy_global_to_local %{{.*}}, %{{.*}} mask %{{.*}}
// CHECK: ttg.async_commit_group
// CHECK: ttg.local_load %{{.*}} : !ttg.memdesc<64x32xf16, #[[SA]], #smem, mutable> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>
// CHECK: ttg.local_load %{{.*}} : !ttg.memdesc<32x64xf16, #[[SB]], #smem, mutable> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>
// CHECK-NOT: tt.load
// CHECK: tt.dot
// CHECK: scf.yield
// CHECK: ttg.async_wait {num = 0 : i32}
// CHECK-NEXT: ttg.local_dealloc %[[RA]]
// CHECK-NEXT: ttg.local_dealloc %[[RB]]

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k_loop(%a: tensor<64x32x!tt.ptr<f16>, #blocked>, %b: tensor<32x64x!tt.ptr<f16>, #blocked>, %n: i32, %kdim: i32) -> tensor<64x64xf32, #blocked1> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %step_a = arith.constant dense<32> : tensor<64x32xi32, #blocked>
    %step_b = arith.constant dense<2048> : tensor<32x64xi32, #blocked>
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked1>
    %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %pa = %a, %pb = %b) -> (tensor<64x64xf32, #blocked1>, tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<32x64x!tt.ptr<f16>, #blocked>) : i32 {
      %off = arith.muli %k, %c32 : i32
      %left = arith.subi %kdim, %off : i32
      %lim = tt.splat %left : i32 -> tensor<64x32xi32, #blocked>
      %range = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
      %row = tt.expand_dims %range {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
      %cols = tt.broadcast %row : tensor<1x32xi32, #blocked> -> tensor<64x32xi32, #blocked>
      %mask = arith.cmpi slt, %cols, %lim : tensor<64x32xi32, #blocked>
      %x = tt.load %pa, %mask : tensor<64x32x!tt.ptr<f16>, #blocked>
      %y = tt.load %pb : tensor<32x64x!tt.ptr<f16>, #blocked>
      %xo = ttg.convert_layout %x : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>
      %yo = ttg.convert_layout %y : tensor<32x64xf16, #blocked> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>
      %d = tt.dot %xo, %yo, %acc : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<64x64xf32, #blocked1>
      %na = tt.addptr %pa, %step_a : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
      %nb = tt.addptr %pb, %step_b : tensor<32x64x!tt.ptr<f16>, #blocked>, tensor<32x64xi32, #blocked>
      scf.yield %d, %na, %nb : tensor<64x64xf32, #blocked1>, tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<32x64x!tt.ptr<f16>, #blocked>
    }
    tt.return %r#0 : tensor<64x64xf32, #blocked1>
  }
}

// -----

// SQMMA operands: the tiles were only stored into the matrix unit's
// buffers (immutable local_allocs in its swizzle), so the rings take that
// layout and the sqmma reads the slots in place; a slot of 64x64 f16 is two
// swizzle periods. The sqmma stays in flight into the next iteration: it
// waits for the previous one just before it is issued, after the copies,
// which a fourth slot keeps off the slot it reads; the last one is waited
// for after the loop, before the rings go.
// REMARK: remark: loop pipelined: 2 loads as async copies (2 read in place), rings of 4 slots, copies issued 2 iterations ahead, a wait every 2 iterations, the matrix unit in flight into the next iteration
// CHECK-LABEL: @sqmma_in_place
// CHECK: %[[RING:.*]] = ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<4x64x64xf16, #[[T:.*]], #smem, mutable>
// CHECK: %[[R:.*]]:3 = scf.for {{.*}} iter_args(%[[ACC:[^ ]*]] =
// CHECK-NOT: ttg.local_alloc %
// CHECK-NOT: ttg.local_load
// CHECK-COUNT-2: ttg.async_commit_group
// CHECK: %[[A:.*]] = ttg.memdesc_index {{.*}} -> !ttg.memdesc<64x64xf16, #[[T]], #smem, mutable>
// CHECK: %[[B:.*]] = ttg.memdesc_index
// CHECK: %[[READY:.*]] = musagpu.sqmma_wait %[[ACC]]
// CHECK-NEXT: %[[D:.*]] = musagpu.sqmma %[[A]], %[[B]], %[[READY]]
// CHECK-NOT: musagpu.sqmma_wait
// CHECK: scf.yield %[[D]]
// CHECK: musagpu.sqmma_wait %[[R]]#0
// CHECK-NEXT: ttg.async_wait {num = 0 : i32}
// CHECK-NEXT: ttg.local_dealloc %[[RING]]
// Without the overlap: three slots, each sqmma waited for in its iteration.
// SERIAL-LABEL: @sqmma_in_place
// SERIAL: ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<3x64x64xf16
// SERIAL: %[[D:.*]] = musagpu.sqmma
// SERIAL-NEXT: %[[W:.*]] = musagpu.sqmma_wait %[[D]]
// SERIAL-NEXT: scf.yield %[[W]]

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#tme = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#sqmma = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @sqmma_in_place(%a: tensor<64x64x!tt.ptr<f16>, #blocked>, %b: tensor<64x64x!tt.ptr<f16>, #blocked>, %n: i32) -> tensor<64x64xf32, #sqmma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %step = arith.constant dense<64> : tensor<64x64xi32, #blocked>
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #sqmma>
    %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %pa = %a, %pb = %b) -> (tensor<64x64xf32, #sqmma>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f16>, #blocked>) : i32 {
      %x = tt.load %pa : tensor<64x64x!tt.ptr<f16>, #blocked>
      %xs = ttg.local_alloc %x {alignment = 4096 : i32} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #tme, #smem>
      %y = tt.load %pb : tensor<64x64x!tt.ptr<f16>, #blocked>
      %ys = ttg.local_alloc %y {alignment = 4096 : i32} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #tme, #smem>
      %d = musagpu.sqmma %xs, %ys, %acc : !ttg.memdesc<64x64xf16, #tme, #smem>, !ttg.memdesc<64x64xf16, #tme, #smem> -> tensor<64x64xf32, #sqmma>
      %w = musagpu.sqmma_wait %d : tensor<64x64xf32, #sqmma>
      %na = tt.addptr %pa, %step : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      %nb = tt.addptr %pb, %step : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      scf.yield %w, %na, %nb : tensor<64x64xf32, #sqmma>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f16>, #blocked>
    }
    tt.return %r#0 : tensor<64x64xf32, #sqmma>
  }
}

// -----

// Decision 6, the batches: the same loop at num_stages 4 has 4 slots for the
// copies beside the one the sqmma in flight reads (5 in all). In every other
// iteration j, one scf.if waits for all copies in flight, puts one barrier,
// and issues the copies of iterations j and j + 1 (the pointers one
// iteration on, each iteration's copies masked by the loop's range) into
// slots j % 5 and (j + 1) % 5; the other iterations neither wait nor put a
// barrier. The sqmma in flight is not waited for in the batch: its slot is
// not one of the batch's.
// REMARK: remark: loop pipelined: 2 loads as async copies (2 read in place), rings of 5 slots, copies issued 2 iterations ahead in batches of 2 iterations' tiles, a wait every 2 iterations, the matrix unit in flight into the next iteration
// CHECK-LABEL: @sqmma_batches
// CHECK: %[[RING:.*]] = ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<5x64x64xf16
// CHECK: %[[R:.*]]:3 = scf.for %[[IV:[^ ]*]] = %{{.*}} to %[[N:[^ ]*]] step %{{.*}} iter_args(%[[ACC:[^ ]*]] = %{{.*}}, %[[PA:[^ ]*]] = %{{.*}}, %[[PB:[^ ]*]] =
// CHECK-NOT: ttg.local_barrier
// CHECK-NOT: musagpu.async_copy_wait
// CHECK: %[[NEXTA:.*]] = tt.addptr %[[PA]]
// CHECK: %[[IT:.*]] = arith.divui
// CHECK: %[[PHASE:.*]] = arith.remui %[[IT]], %c2_i32
// CHECK-NEXT: %[[ISSUE:.*]] = arith.cmpi eq, %[[PHASE]], %c0
// CHECK: scf.if %[[ISSUE]] {
// CHECK-NEXT: musagpu.async_copy_wait{{$}}
// CHECK-NEXT: ttg.local_barrier
// CHECK-NOT: musagpu.sqmma_wait
// CHECK: %[[IN0:.*]] = arith.cmpi slt, %{{.*}}, %[[N]]
// CHECK: %[[J0:.*]] = arith.addi %[[IT]], %c0
// CHECK-NEXT: %[[S0:.*]] = arith.remui %[[J0]], %c5
// CHECK-NEXT: %[[TO0:.*]] = ttg.memdesc_index %[[RING]][%[[S0]]]
// CHECK-NEXT: %[[M0:.*]] = tt.splat %[[IN0]]
// CHECK-NEXT: ttg.async_copy_global_to_local %[[PA]], %[[TO0]] mask %[[M0]]
// CHECK: ttg.async_copy_global_to_local %[[PB]]
// CHECK: %[[IN1:.*]] = arith.cmpi slt, %{{.*}}, %[[N]]
// CHECK: %[[J1:.*]] = arith.addi %[[IT]], %c1
// CHECK-NEXT: %[[S1:.*]] = arith.remui %[[J1]], %c5
// CHECK-NEXT: %[[TO1:.*]] = ttg.memdesc_index %[[RING]][%[[S1]]]
// CHECK-NEXT: %[[M1:.*]] = tt.splat %[[IN1]]
// CHECK-NEXT: ttg.async_copy_global_to_local %[[NEXTA]], %[[TO1]] mask %[[M1]]
// CHECK: ttg.async_copy_global_to_local
// CHECK-NOT: ttg.async_copy_global_to_local
// CHECK: }
// CHECK-NEXT: %[[A:.*]] = ttg.memdesc_index
// CHECK-NEXT: %[[B:.*]] = ttg.memdesc_index
// CHECK-NEXT: %[[READY:.*]] = musagpu.sqmma_wait %[[ACC]]
// CHECK-NEXT: %[[D:.*]] = musagpu.sqmma %[[A]], %[[B]], %[[READY]]
// CHECK-NEXT: scf.yield %[[D]], %[[NEXTA]]
// CHECK: musagpu.sqmma_wait %[[R]]#0
// CHECK-NEXT: ttg.async_wait {num = 0 : i32}

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#tme = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#sqmma = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @sqmma_batches(%a: tensor<64x64x!tt.ptr<f16>, #blocked>, %b: tensor<64x64x!tt.ptr<f16>, #blocked>, %n: i32) -> tensor<64x64xf32, #sqmma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %step = arith.constant dense<64> : tensor<64x64xi32, #blocked>
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #sqmma>
    %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %pa = %a, %pb = %b) -> (tensor<64x64xf32, #sqmma>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f16>, #blocked>) : i32 {
      %x = tt.load %pa : tensor<64x64x!tt.ptr<f16>, #blocked>
      %xs = ttg.local_alloc %x {alignment = 4096 : i32} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #tme, #smem>
      %y = tt.load %pb : tensor<64x64x!tt.ptr<f16>, #blocked>
      %ys = ttg.local_alloc %y {alignment = 4096 : i32} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #tme, #smem>
      %d = musagpu.sqmma %xs, %ys, %acc : !ttg.memdesc<64x64xf16, #tme, #smem>, !ttg.memdesc<64x64xf16, #tme, #smem> -> tensor<64x64xf32, #sqmma>
      %w = musagpu.sqmma_wait %d : tensor<64x64xf32, #sqmma>
      %na = tt.addptr %pa, %step : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      %nb = tt.addptr %pb, %step : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      scf.yield %w, %na, %nb : tensor<64x64xf32, #sqmma>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f16>, #blocked>
    } {tt.num_stages = 4 : i32}
    tt.return %r#0 : tensor<64x64xf32, #sqmma>
  }
}


// -----

// Tutorial 03's best tile, 128x256x64 on 8 warps: three slots of both rings
// take 147456 bytes, so mp_31 holds one block per SM, and a fourth slot
// (196608 bytes) still fits one. The slot costs no block, so the sqmma
// stays in flight by default (SERIAL runs without overlap-matrix-unit).
//
// With batch-beside-matrix-unit its four slots take batches of two, the
// slot of the sqmma in flight included: every other iteration waits for the
// copies and puts a barrier, issues its sqmma (after the wait for the one in
// flight), then puts a second barrier, after every thread's wait, and only
// then issues the copies of two iterations into the slots the waited-for
// sqmmas read. The other iterations neither wait for copies nor synchronize.
// BATCH-REMARK: remark: loop pipelined: 2 loads as async copies (2 read in place), rings of 4 slots, copies issued 2 iterations ahead in batches of 2 iterations' tiles after the matrix unit's next instruction, a wait every 2 iterations, the matrix unit in flight into the next iteration
// BATCH-LABEL: @free_slot_in_flight
// BATCH: %[[RA:.*]] = ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<4x128x64xf16
// BATCH: ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<4x64x256xf16
// The prologue: the batch of iterations 0 and 1 (iteration 1's own batch is
// not due).
// BATCH: scf.if
// BATCH-NEXT: ttg.local_barrier
// BATCH-COUNT-4: ttg.async_copy_global_to_local
// BATCH: scf.if
// BATCH: %[[R:.*]]:3 = scf.for %{{.*}} iter_args(%[[ACC:[^ ]*]] = %{{.*}}, %[[PA:[^ ]*]] = %{{.*}}, %[[PB:[^ ]*]] =
// BATCH-NOT: ttg.async_copy_global_to_local
// BATCH: %[[IT:.*]] = arith.divui
// BATCH: %[[SLOT:.*]] = arith.remui %[[IT]], %c4
// BATCH: %[[ITMOD:.*]] = arith.remui %[[IT]], %c2
// BATCH-NEXT: %[[DUE:.*]] = arith.cmpi eq, %[[ITMOD]], %c0
// BATCH-NEXT: scf.if %[[DUE]] {
// BATCH-NEXT: musagpu.async_copy_wait{{$}}
// BATCH-NEXT: ttg.local_barrier
// BATCH-NEXT: }
// BATCH-NEXT: %[[A:.*]] = ttg.memdesc_index %[[RA]][%[[SLOT]]]
// BATCH-NEXT: %[[B:.*]] = ttg.memdesc_index
// BATCH-NEXT: %[[READY:.*]] = musagpu.sqmma_wait %[[ACC]]
// BATCH-NEXT: %[[D:.*]] = musagpu.sqmma %[[A]], %[[B]], %[[READY]]
// BATCH: %[[NEXTA:.*]] = tt.addptr %[[PA]]
// BATCH: %[[J:.*]] = arith.divui
// BATCH: %[[JMOD:.*]] = arith.remui %[[J]], %c2
// BATCH-NEXT: %[[ISSUE:.*]] = arith.cmpi eq, %[[JMOD]], %c0
// BATCH: scf.if %[[ISSUE]] {
// BATCH-NEXT: ttg.local_barrier
// BATCH-NOT: musagpu.async_copy_wait
// BATCH: %[[J0:.*]] = arith.addi %[[J]], %c0
// BATCH-NEXT: %[[S0:.*]] = arith.remui %[[J0]], %c4
// BATCH-NEXT: %[[TO0:.*]] = ttg.memdesc_index %[[RA]][%[[S0]]]
// BATCH: ttg.async_copy_global_to_local %[[PA]], %[[TO0]]
// BATCH: ttg.async_copy_global_to_local %[[PB]]
// BATCH: %[[J1:.*]] = arith.addi %[[J]], %c1
// BATCH-NEXT: %[[S1:.*]] = arith.remui %[[J1]], %c4
// BATCH-NEXT: %[[TO1:.*]] = ttg.memdesc_index %[[RA]][%[[S1]]]
// BATCH: ttg.async_copy_global_to_local %[[NEXTA]], %[[TO1]]
// BATCH: ttg.async_copy_global_to_local
// BATCH-NOT: ttg.async_copy_global_to_local
// BATCH: scf.yield %[[D]], %[[NEXTA]]
// BATCH-NEXT: }
// BATCH-NEXT: musagpu.sqmma_wait %[[R]]#0
// BATCH-NEXT: ttg.async_wait {num = 0 : i32}
// SERIAL-LABEL: @free_slot_in_flight
// SERIAL: ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<4x128x64xf16
// SERIAL: ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<4x64x256xf16
// SERIAL: %[[R:.*]]:3 = scf.for {{.*}} iter_args(%[[ACC:[^ ]*]] =
// SERIAL: %[[READY:.*]] = musagpu.sqmma_wait %[[ACC]]
// SERIAL-NEXT: %[[D:.*]] = musagpu.sqmma %{{.*}}, %{{.*}}, %[[READY]]
// SERIAL-NOT: musagpu.sqmma_wait
// SERIAL: scf.yield %[[D]]
// SERIAL: musagpu.sqmma_wait %[[R]]#0

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#tmea = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#tmeb = #musagpu.tme_shared<{swizzleGranularity = b32, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#sqmma = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 2], instrShape = [128, 128, 64]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @free_slot_in_flight(%a: tensor<128x64x!tt.ptr<f16>, #blocked>, %b: tensor<64x256x!tt.ptr<f16>, #blocked>, %n: i32) -> tensor<128x256xf32, #sqmma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %sa = arith.constant dense<64> : tensor<128x64xi32, #blocked>
    %sb = arith.constant dense<16384> : tensor<64x256xi32, #blocked>
    %zero = arith.constant dense<0.000000e+00> : tensor<128x256xf32, #sqmma>
    %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %pa = %a, %pb = %b) -> (tensor<128x256xf32, #sqmma>, tensor<128x64x!tt.ptr<f16>, #blocked>, tensor<64x256x!tt.ptr<f16>, #blocked>) : i32 {
      %x = tt.load %pa : tensor<128x64x!tt.ptr<f16>, #blocked>
      %xs = ttg.local_alloc %x {alignment = 4096 : i32} : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #tmea, #smem>
      %y = tt.load %pb : tensor<64x256x!tt.ptr<f16>, #blocked>
      %ys = ttg.local_alloc %y {alignment = 4096 : i32} : (tensor<64x256xf16, #blocked>) -> !ttg.memdesc<64x256xf16, #tmeb, #smem>
      %d = musagpu.sqmma %xs, %ys, %acc : !ttg.memdesc<128x64xf16, #tmea, #smem>, !ttg.memdesc<64x256xf16, #tmeb, #smem> -> tensor<128x256xf32, #sqmma>
      %w = musagpu.sqmma_wait %d : tensor<128x256xf32, #sqmma>
      %na = tt.addptr %pa, %sa : tensor<128x64x!tt.ptr<f16>, #blocked>, tensor<128x64xi32, #blocked>
      %nb = tt.addptr %pb, %sb : tensor<64x256x!tt.ptr<f16>, #blocked>, tensor<64x256xi32, #blocked>
      scf.yield %w, %na, %nb : tensor<128x256xf32, #sqmma>, tensor<128x64x!tt.ptr<f16>, #blocked>, tensor<64x256x!tt.ptr<f16>, #blocked>
    }
    tt.return %r#0 : tensor<128x256xf32, #sqmma>
  }
}

// -----

// The tile-end form (a flattened persistent loop): the accumulator is reset
// by `arith.select %last, %zero, %w` and the tile's epilogue reads it in
// `scf.if %last`. In flight, the sqmma waits for the previous one before it
// is issued; the epilogue's scf.if waits for it itself and yields the zero
// tile, its other branch the sqmma's result unwaited; the select is gone.
// CHECK-LABEL: @tile_end_in_flight
// CHECK: %[[R:.*]]:3 = scf.for {{.*}} iter_args(%[[ACC:[^ ]*]] =
// CHECK: %[[READY:.*]] = musagpu.sqmma_wait %[[ACC]]
// CHECK-NEXT: %[[D:.*]] = musagpu.sqmma %{{.*}}, %{{.*}}, %[[READY]]
// CHECK-NOT: arith.select
// CHECK: %[[E:.*]] = scf.if %{{.*}} -> (tensor<64x64xf32, #sqmma>) {
// CHECK-NEXT: %[[W:.*]] = musagpu.sqmma_wait %[[D]]
// CHECK-NEXT: tt.store %{{.*}}, %[[W]]
// CHECK-NEXT: scf.yield %{{.*}} : tensor<64x64xf32, #sqmma>
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[D]] : tensor<64x64xf32, #sqmma>
// CHECK: scf.yield %[[E]]
// CHECK: musagpu.sqmma_wait %[[R]]#0
// A flattened persistent loop runs on a grid of one block per SM, so the
// fourth slot costs no block even where it would cost one of a grid of
// many blocks (three 16 KiB slots: four blocks of mp_31's 192 KiB, four
// slots three): in flight without overlap-matrix-unit too.
// SERIAL-LABEL: @tile_end_in_flight
// SERIAL: ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<4x64x64xf16
// SERIAL: %[[READY:.*]] = musagpu.sqmma_wait
// SERIAL-NEXT: musagpu.sqmma %{{.*}}, %{{.*}}, %[[READY]]

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#tme = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#sqmma = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @tile_end_in_flight(%a: tensor<64x64x!tt.ptr<f16>, #blocked>, %b: tensor<64x64x!tt.ptr<f16>, #blocked>, %out: tensor<64x64x!tt.ptr<f32>, #sqmma>, %k_tiles: i32, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %step = arith.constant dense<64> : tensor<64x64xi32, #blocked>
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #sqmma>
    %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %pa = %a, %pb = %b) -> (tensor<64x64xf32, #sqmma>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f16>, #blocked>) : i32 {
      %ki = arith.remsi %k, %k_tiles : i32
      %last = arith.cmpi eq, %ki, %k_tiles : i32
      %x = tt.load %pa : tensor<64x64x!tt.ptr<f16>, #blocked>
      %xs = ttg.local_alloc %x {alignment = 4096 : i32} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #tme, #smem>
      %y = tt.load %pb : tensor<64x64x!tt.ptr<f16>, #blocked>
      %ys = ttg.local_alloc %y {alignment = 4096 : i32} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #tme, #smem>
      %d = musagpu.sqmma %xs, %ys, %acc : !ttg.memdesc<64x64xf16, #tme, #smem>, !ttg.memdesc<64x64xf16, #tme, #smem> -> tensor<64x64xf32, #sqmma>
      %w = musagpu.sqmma_wait %d : tensor<64x64xf32, #sqmma>
      %reset = arith.select %last, %zero, %w : tensor<64x64xf32, #sqmma>
      scf.if %last {
        tt.store %out, %w : tensor<64x64x!tt.ptr<f32>, #sqmma>
      }
      %na = tt.addptr %pa, %step : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      %nb = tt.addptr %pb, %step : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      scf.yield %reset, %na, %nb : tensor<64x64xf32, #sqmma>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f16>, #blocked>
    }
    tt.return
  }
}

// -----

// A flattened persistent loop: the tile's offsets come out of an scf.if that
// moves to the next tile. The scf.if is free of side effects, so it is part of
// the producer, and so is what its regions read (%next): both run two
// iterations ahead, in the prologue and before the copies in the loop.
// REMARK: remark: loop pipelined: 1 load as async copies (0 read in place), rings of 3 slots, copies issued 2 iterations ahead, a wait every 2 iterations
// CHECK-LABEL: @next_tile
// CHECK: %[[NEXT0:.*]] = arith.addi %arg2, %arg3 : i32
// CHECK-NEXT: scf.if
// CHECK-NEXT: scf.yield %[[NEXT0]]
// CHECK: ttg.async_copy_global_to_local
// CHECK: scf.for {{.*}} iter_args({{.*}}, %[[TILE:.*]] = %{{.*}}) ->
// CHECK: musagpu.async_copy_wait
// CHECK: %[[NEXT:.*]] = arith.addi %[[TILE]], %arg3 : i32
// CHECK-NEXT: scf.if
// CHECK-NEXT: scf.yield %[[NEXT]]
// CHECK: ttg.async_copy_global_to_local
// CHECK: tt.dot

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#op0 = #ttg.dot_op<{opIdx = 0, parent = #blocked1}>
#op1 = #ttg.dot_op<{opIdx = 1, parent = #blocked1}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @next_tile(%a: tensor<64x32x!tt.ptr<f16>, #blocked>, %b: tensor<32x64xf16, #op1>, %first_tile: i32, %programs: i32, %k_tiles: i32, %n: i32) -> tensor<64x64xf32, #blocked1> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked1>
    %r:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %tile = %first_tile) -> (tensor<64x64xf32, #blocked1>, i32) : i32 {
      %ki = arith.remsi %k, %k_tiles : i32
      %starts = arith.cmpi eq, %ki, %c0 : i32
      %next = arith.addi %tile, %programs : i32
      %t = scf.if %starts -> (i32) {
        scf.yield %next : i32
      } else {
        scf.yield %tile : i32
      }
      %off = arith.muli %t, %ki : i32
      %offs = tt.splat %off : i32 -> tensor<64x32xi32, #blocked>
      %p = tt.addptr %a, %offs : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
      %x = tt.load %p : tensor<64x32x!tt.ptr<f16>, #blocked>
      %xo = ttg.convert_layout %x : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #op0>
      %d = tt.dot %xo, %b, %acc : tensor<64x32xf16, #op0> * tensor<32x64xf16, #op1> -> tensor<64x64xf32, #blocked1>
      scf.yield %d, %t : tensor<64x64xf32, #blocked1>, i32
    }
    tt.return %r#0 : tensor<64x64xf32, #blocked1>
  }
}

// -----

// Every reason a loop with a load feeding a dot stays as it is gets a remark.
// REMARK: remark: loop not pipelined: num_stages is 1
// REMARK: remark: loop not pipelined: the address of a load depends on the load 'tt.load' at {{.*}}musa-pipeline-loops.mlir:{{[0-9]+}}
// REMARK: remark: loop not pipelined: its result #1 carries a value the copies compute ahead of the iteration and is used after the loop
// REMARK: remark: loop not pipelined: it holds a nested loop
// REMARK: remark: loop not pipelined: the load 'tt.load' at {{.*}}musa-pipeline-loops.mlir:{{[0-9]+}} is volatile
// REMARK: remark: loop not pipelined: the address of a load depends on 'tt.atomic_rmw'{{.*}}, which is not free of side effects
// REMARK: remark: loop not pipelined: the loads that feed its dots are inside nested regions
// REMARK: remark: loop not pipelined: rings of 2 slots need 524288 bytes of shared memory, more than the 65536 left for them
// CHECK-LABEL: @refusals
// CHECK-NOT: ttg.async_copy_global_to_local

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#op0 = #ttg.dot_op<{opIdx = 0, parent = #blocked1}>
#op1 = #ttg.dot_op<{opIdx = 1, parent = #blocked1}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @refusals(%a: tensor<64x32x!tt.ptr<f16>, #blocked>, %b: tensor<32x64xf16, #op1>, %idx: tensor<64x32x!tt.ptr<i32>, #blocked>, %big: tensor<256x256x!tt.ptr<f16>, #blocked>, %big1: tensor<256x256x!tt.ptr<f16>, #blocked>, %bigb: tensor<256x64xf16, #op1>, %counter: !tt.ptr<i32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %step = arith.constant dense<32> : tensor<64x32xi32, #blocked>
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked1>
    %zbig = arith.constant dense<0.000000e+00> : tensor<256x64xf32, #blocked1>
    // num_stages = 1 on the loop itself.
    %r0 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #blocked1>) : i32 {
      %x = tt.load %a : tensor<64x32x!tt.ptr<f16>, #blocked>
      %xo = ttg.convert_layout %x : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #op0>
      %d = tt.dot %xo, %b, %acc : tensor<64x32xf16, #op0> * tensor<32x64xf16, #op1> -> tensor<64x64xf32, #blocked1>
      scf.yield %d : tensor<64x64xf32, #blocked1>
    } {tt.num_stages = 1 : i32}
    // An indirect load: the offsets come from a load of the same iteration.
    %r1 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #blocked1>) : i32 {
      %o = tt.load %idx : tensor<64x32x!tt.ptr<i32>, #blocked>
      %p = tt.addptr %a, %o : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
      %x = tt.load %p : tensor<64x32x!tt.ptr<f16>, #blocked>
      %xo = ttg.convert_layout %x : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #op0>
      %d = tt.dot %xo, %b, %acc : tensor<64x32xf16, #op0> * tensor<32x64xf16, #op1> -> tensor<64x64xf32, #blocked1>
      scf.yield %d : tensor<64x64xf32, #blocked1>
    }
    // The advanced pointers are used after the loop.
    %r2:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %pa = %a) -> (tensor<64x64xf32, #blocked1>, tensor<64x32x!tt.ptr<f16>, #blocked>) : i32 {
      %x = tt.load %pa : tensor<64x32x!tt.ptr<f16>, #blocked>
      %xo = ttg.convert_layout %x : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #op0>
      %d = tt.dot %xo, %b, %acc : tensor<64x32xf16, #op0> * tensor<32x64xf16, #op1> -> tensor<64x64xf32, #blocked1>
      %na = tt.addptr %pa, %step : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
      scf.yield %d, %na : tensor<64x64xf32, #blocked1>, tensor<64x32x!tt.ptr<f16>, #blocked>
    }
    %after = tt.load %r2#1 : tensor<64x32x!tt.ptr<f16>, #blocked>
    // A loop around another loop.
    %r3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #blocked1>) : i32 {
      %x = tt.load %a : tensor<64x32x!tt.ptr<f16>, #blocked>
      %xo = ttg.convert_layout %x : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #op0>
      %d = tt.dot %xo, %b, %acc : tensor<64x32xf16, #op0> * tensor<32x64xf16, #op1> -> tensor<64x64xf32, #blocked1>
      scf.for %j = %c0 to %n step %c1 : i32 {
        tt.store %a, %x : tensor<64x32x!tt.ptr<f16>, #blocked>
      }
      scf.yield %d : tensor<64x64xf32, #blocked1>
    }
    // A volatile load.
    %r4 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #blocked1>) : i32 {
      %x = tt.load %a {isVolatile = true} : tensor<64x32x!tt.ptr<f16>, #blocked>
      %xo = ttg.convert_layout %x : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #op0>
      %d = tt.dot %xo, %b, %acc : tensor<64x32xf16, #op0> * tensor<32x64xf16, #op1> -> tensor<64x64xf32, #blocked1>
      scf.yield %d : tensor<64x64xf32, #blocked1>
    }
    // The address depends on an atomic of the same iteration.
    %r5 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #blocked1>) : i32 {
      %t = tt.atomic_rmw add, relaxed, gpu, %counter, %c1 : (!tt.ptr<i32>, i32) -> i32
      %ts = tt.splat %t : i32 -> tensor<64x32xi32, #blocked>
      %p = tt.addptr %a, %ts : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
      %x = tt.load %p : tensor<64x32x!tt.ptr<f16>, #blocked>
      %xo = ttg.convert_layout %x : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #op0>
      %d = tt.dot %xo, %b, %acc : tensor<64x32xf16, #op0> * tensor<32x64xf16, #op1> -> tensor<64x64xf32, #blocked1>
      scf.yield %d : tensor<64x64xf32, #blocked1>
    }
    // The load is under a condition.
    %r7 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #blocked1>) : i32 {
      %odd = arith.cmpi eq, %k, %c1 : i32
      %x = scf.if %odd -> (tensor<64x32xf16, #blocked>) {
        %l = tt.load %a : tensor<64x32x!tt.ptr<f16>, #blocked>
        scf.yield %l : tensor<64x32xf16, #blocked>
      } else {
        %z = arith.constant dense<0.000000e+00> : tensor<64x32xf16, #blocked>
        scf.yield %z : tensor<64x32xf16, #blocked>
      }
      %xo = ttg.convert_layout %x : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #op0>
      %d = tt.dot %xo, %b, %acc : tensor<64x32xf16, #op0> * tensor<32x64xf16, #op1> -> tensor<64x64xf32, #blocked1>
      scf.yield %d : tensor<64x64xf32, #blocked1>
    }
    // Two 128 KiB tiles: not even two slots of both fit mp_31's 192 KiB, less
    // the 128 KiB the operand's layout conversion takes in the loop.
    %r6 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zbig) -> (tensor<256x64xf32, #blocked1>) : i32 {
      %x = tt.load %big : tensor<256x256x!tt.ptr<f16>, #blocked>
      %x1 = tt.load %big1 : tensor<256x256x!tt.ptr<f16>, #blocked>
      %s = arith.addf %x, %x1 : tensor<256x256xf16, #blocked>
      %xo = ttg.convert_layout %s : tensor<256x256xf16, #blocked> -> tensor<256x256xf16, #op0>
      %d = tt.dot %xo, %bigb, %acc : tensor<256x256xf16, #op0> * tensor<256x64xf16, #op1> -> tensor<256x64xf32, #blocked1>
      scf.yield %d : tensor<256x64xf32, #blocked1>
    }
    tt.return
  }
}

// -----

// A loop whose tiles are read into PH1 WMMA fragments (two warps): the rings
// take the layout that spreads fragment reads over the banks (16-byte chunks
// XORed per row group: 64-byte rows of A, 2 rows a phase and 4 phases;
// 128-byte rows of B, 1 and 8), and the slots are read straight into the
// fragments.
// REMARK: remark: loop pipelined: 2 loads as async copies (0 read in place), rings of 3 slots
// CHECK-DAG: #[[WA:.*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// CHECK-DAG: #[[WB:.*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-LABEL: @wmma_k_loop
// CHECK: ttg.local_alloc {alignment = 16 : i32} : () -> !ttg.memdesc<3x64x32xf16, #[[WA]], #smem, mutable>
// CHECK: ttg.local_alloc {alignment = 16 : i32} : () -> !ttg.memdesc<3x32x64xf16, #[[WB]], #smem, mutable>
// CHECK: scf.for
// CHECK: %[[A:.*]] = ttg.local_load %{{.*}} : !ttg.memdesc<64x32xf16, #[[WA]], #smem, mutable> -> tensor<64x32xf16, #[[OA:.*]]>
// CHECK: %[[B:.*]] = ttg.local_load %{{.*}} : !ttg.memdesc<32x64xf16, #[[WB]], #smem, mutable> -> tensor<32x64xf16, #[[OB:.*]]>
// CHECK: musagpu.wmma %[[A]], %[[B]], %{{.*}} : tensor<64x32xf16, #[[OA]]>, tensor<32x64xf16, #[[OB]]>

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [2, 1], order = [1, 0]}>
#wmma = #musagpu.wmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [2, 1], instrShape = [16, 16, 32]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wmma_k_loop(%a: tensor<64x32x!tt.ptr<f16>, #blocked>, %b: tensor<32x64x!tt.ptr<f16>, #blocked>, %n: i32) -> tensor<64x64xf32, #wmma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %step_a = arith.constant dense<32> : tensor<64x32xi32, #blocked>
    %step_b = arith.constant dense<2048> : tensor<32x64xi32, #blocked>
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #wmma>
    %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %pa = %a, %pb = %b) -> (tensor<64x64xf32, #wmma>, tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<32x64x!tt.ptr<f16>, #blocked>) : i32 {
      %x = tt.load %pa : tensor<64x32x!tt.ptr<f16>, #blocked>
      %y = tt.load %pb : tensor<32x64x!tt.ptr<f16>, #blocked>
      %xo = ttg.convert_layout %x : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #musagpu.wmma_operand<{opIdx = 0, parent = #wmma}>>
      %yo = ttg.convert_layout %y : tensor<32x64xf16, #blocked> -> tensor<32x64xf16, #musagpu.wmma_operand<{opIdx = 1, parent = #wmma}>>
      %d = musagpu.wmma %xo, %yo, %acc : tensor<64x32xf16, #musagpu.wmma_operand<{opIdx = 0, parent = #wmma}>>, tensor<32x64xf16, #musagpu.wmma_operand<{opIdx = 1, parent = #wmma}>> -> tensor<64x64xf32, #wmma>
      %na = tt.addptr %pa, %step_a : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
      %nb = tt.addptr %pb, %step_b : tensor<32x64x!tt.ptr<f16>, #blocked>, tensor<32x64xi32, #blocked>
      scf.yield %d, %na, %nb : tensor<64x64xf32, #wmma>, tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<32x64x!tt.ptr<f16>, #blocked>
    }
    tt.return %r#0 : tensor<64x64xf32, #wmma>
  }
}

// -----

// Short K steps (32 f16 = 64 bytes per row) where a fourth slot would cost a
// block per SM (three 8 KiB slots: eight blocks, four slots six): the
// sqmma stays in flight within the three slots, the copies issued one
// iteration ahead instead of two, so they never refill the slot the sqmma
// in flight reads.
// SERIAL-REMARK: remark: loop pipelined: 2 loads as async copies (2 read in place), rings of 3 slots, copies issued 1 iteration ahead, a wait every 1 iteration, the matrix unit in flight into the next iteration
// SERIAL-LABEL: @short_k_in_flight
// SERIAL: ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<3x64x32xf16
// SERIAL: ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<3x32x64xf16
// SERIAL: %[[R:.*]]:3 = scf.for {{.*}} iter_args(%[[ACC:[^ ]*]] =
// SERIAL: %[[READY:.*]] = musagpu.sqmma_wait %[[ACC]]
// SERIAL-NEXT: %[[D:.*]] = musagpu.sqmma %{{.*}}, %{{.*}}, %[[READY]]
// SERIAL-NOT: musagpu.sqmma_wait
// SERIAL: scf.yield %[[D]]
// SERIAL: musagpu.sqmma_wait %[[R]]#0

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#tme = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#sqmma = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @short_k_in_flight(%a: tensor<64x32x!tt.ptr<f16>, #blocked>, %b: tensor<32x64x!tt.ptr<f16>, #blocked>, %n: i32) -> tensor<64x64xf32, #sqmma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %sa = arith.constant dense<32> : tensor<64x32xi32, #blocked>
    %sb = arith.constant dense<2048> : tensor<32x64xi32, #blocked>
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #sqmma>
    %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %pa = %a, %pb = %b) -> (tensor<64x64xf32, #sqmma>, tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<32x64x!tt.ptr<f16>, #blocked>) : i32 {
      %x = tt.load %pa : tensor<64x32x!tt.ptr<f16>, #blocked>
      %xs = ttg.local_alloc %x {alignment = 4096 : i32} : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #tme, #smem>
      %y = tt.load %pb : tensor<32x64x!tt.ptr<f16>, #blocked>
      %ys = ttg.local_alloc %y {alignment = 4096 : i32} : (tensor<32x64xf16, #blocked>) -> !ttg.memdesc<32x64xf16, #tme, #smem>
      %d = musagpu.sqmma %xs, %ys, %acc : !ttg.memdesc<64x32xf16, #tme, #smem>, !ttg.memdesc<32x64xf16, #tme, #smem> -> tensor<64x64xf32, #sqmma>
      %w = musagpu.sqmma_wait %d : tensor<64x64xf32, #sqmma>
      %na = tt.addptr %pa, %sa : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
      %nb = tt.addptr %pb, %sb : tensor<32x64x!tt.ptr<f16>, #blocked>, tensor<32x64xi32, #blocked>
      scf.yield %w, %na, %nb : tensor<64x64xf32, #sqmma>, tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<32x64x!tt.ptr<f16>, #blocked>
    }
    tt.return %r#0 : tensor<64x64xf32, #sqmma>
  }
}

// -----

// `tl.range(..., warp_specialize=True)` over pointer loads: the loop is
// pipelined on every warp and its remark says why it is not specialized.
// REMARK: remark: loop pipelined: 2 loads as async copies (2 read in place), rings of 4 slots, copies issued 2 iterations ahead, a wait every 2 iterations, the matrix unit in flight into the next iteration; warp_specialize is not done: a load of the loop is not a TME tile (the producer warp issues whole tiles)
// SERIAL-REMARK: remark: loop pipelined: 2 loads as async copies (2 read in place), rings of 3 slots, copies issued 2 iterations ahead, a wait every 2 iterations; warp_specialize is not done: a load of the loop is not a TME tile (the producer warp issues whole tiles)
// CHECK-LABEL: @asks_warp_specialize
// CHECK: scf.for

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#tme = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#sqmma = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @asks_warp_specialize(%a: tensor<64x64x!tt.ptr<f16>, #blocked>, %b: tensor<64x64x!tt.ptr<f16>, #blocked>, %n: i32) -> tensor<64x64xf32, #sqmma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %step = arith.constant dense<64> : tensor<64x64xi32, #blocked>
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #sqmma>
    %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %pa = %a, %pb = %b) -> (tensor<64x64xf32, #sqmma>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f16>, #blocked>) : i32 {
      %x = tt.load %pa : tensor<64x64x!tt.ptr<f16>, #blocked>
      %xs = ttg.local_alloc %x {alignment = 4096 : i32} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #tme, #smem>
      %y = tt.load %pb : tensor<64x64x!tt.ptr<f16>, #blocked>
      %ys = ttg.local_alloc %y {alignment = 4096 : i32} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #tme, #smem>
      %d = musagpu.sqmma %xs, %ys, %acc : !ttg.memdesc<64x64xf16, #tme, #smem>, !ttg.memdesc<64x64xf16, #tme, #smem> -> tensor<64x64xf32, #sqmma>
      %w = musagpu.sqmma_wait %d : tensor<64x64xf32, #sqmma>
      %na = tt.addptr %pa, %step : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      %nb = tt.addptr %pb, %step : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      scf.yield %w, %na, %nb : tensor<64x64xf32, #sqmma>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f16>, #blocked>
    } {tt.warp_specialize}
    tt.return %r#0 : tensor<64x64xf32, #sqmma>
  }
}
