// RUN: musa-opt %s --musa-pipeline-loops="num-stages=3 overlap-matrix-unit=true unit-waits-per-round=true" 2>/dev/null | FileCheck %s --check-prefix=ROUND
// RUN: musa-opt %s --musa-pipeline-loops="num-stages=3 overlap-matrix-unit=true unit-waits-per-round=true" -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=ROUND-REMARK
// RUN: musa-opt %s --musa-pipeline-loops="num-stages=4 overlap-matrix-unit=true unit-waits-per-round=true" 2>/dev/null | FileCheck %s --check-prefix=BATCH
// RUN: musa-opt %s --musa-pipeline-loops="num-stages=4 overlap-matrix-unit=true unit-waits-per-round=true" -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=BATCH-REMARK
// RUN: musa-opt %s --musa-pipeline-loops="num-stages=4 overlap-matrix-unit=true" -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEFAULT-REMARK
// RUN: musa-opt %s --musa-pipeline-loops="num-stages=3 overlap-matrix-unit=true batch-beside-matrix-unit=true unit-waits-per-round=true" -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=AFTER-UNIT-REMARK

// Decision 7 of --musa-pipeline-loops (unit-waits-per-round, off by
// default): an SQMMA kept in flight is waited for once a round of
// iterations, at the head of the round's first, before its copies; in the
// other iterations the sqmma accumulates into the previous one's result
// unwaited. The loop reads both tiles in place from its rings.

// One iteration's copies at a time (num_stages 3): 4 slots, copies 2
// iterations ahead, so a round is 2 iterations: iteration k's copies go
// into slot (k + 2) % 4, which the sqmma of iteration k - 1 (unwaited in an
// odd k) does not read. The wait comes before the copies' wait and
// barrier, and nothing else in the loop waits for the sqmma.
// ROUND-REMARK: remark: loop pipelined: 2 loads as async copies (2 read in place), rings of 4 slots, copies issued 2 iterations ahead, a wait every 2 iterations, the matrix unit in flight into the next iteration and waited for every 2 iterations
// ROUND-LABEL: @sqmma_in_place
// ROUND: %[[R:.*]]:3 = scf.for %[[IV:[^ ]*]] = {{.*}} iter_args(%[[ACC:[^ ]*]] =
// ROUND: %[[IT:.*]] = arith.divui
// ROUND: %[[PARITY:.*]] = arith.remui %[[IT]], %[[TWO:.*]] : i32
// ROUND: %[[DUE:.*]] = arith.cmpi eq, %[[PARITY]]
// ROUND-NEXT: %[[READY:.*]] = scf.if %[[DUE]] -> (tensor<64x64xf32, #sqmma>) {
// ROUND-NEXT: %[[W:.*]] = musagpu.sqmma_wait %[[ACC]]
// ROUND-NEXT: scf.yield %[[W]]
// ROUND-NEXT: } else {
// ROUND-NEXT: scf.yield %[[ACC]]
// ROUND-NEXT: }
// ROUND: musagpu.async_copy_wait if
// ROUND-NEXT: ttg.local_barrier
// ROUND-COUNT-2: ttg.async_copy_global_to_local
// ROUND-NOT: musagpu.sqmma_wait
// ROUND: %[[D:.*]] = musagpu.sqmma %{{.*}}, %{{.*}}, %[[READY]]
// ROUND-NOT: musagpu.sqmma_wait
// ROUND: scf.yield %[[D]]
// ROUND: musagpu.sqmma_wait %[[R]]#0
// ROUND-NEXT: ttg.async_wait {num = 0 : i32}

// Batches (num_stages 4: 5 slots, batches of 2): the round is the batch.
// The batch iteration waits for the sqmmas at its head, then for the
// copies, puts its barrier and issues the batch, whose slots no sqmma
// reads by then.
// BATCH-REMARK: remark: loop pipelined: 2 loads as async copies (2 read in place), rings of 5 slots, copies issued 2 iterations ahead in batches of 2 iterations' tiles, a wait every 2 iterations, the matrix unit in flight into the next iteration and waited for every 2 iterations
// BATCH-LABEL: @sqmma_in_place
// BATCH: scf.for {{.*}} iter_args(%[[ACC:[^ ]*]] =
// BATCH: %[[READY:.*]] = scf.if %{{.*}} -> (tensor<64x64xf32, #sqmma>) {
// BATCH-NEXT: musagpu.sqmma_wait %[[ACC]]
// BATCH: scf.if %{{.*}} {
// BATCH-NEXT: musagpu.async_copy_wait
// BATCH-NEXT: ttg.local_barrier
// BATCH-COUNT-4: ttg.async_copy_global_to_local
// BATCH-NOT: musagpu.sqmma_wait
// BATCH: musagpu.sqmma %{{.*}}, %{{.*}}, %[[READY]]
// BATCH-NOT: musagpu.sqmma_wait
// BATCH: scf.yield
// Off (the default): every sqmma waits for the previous one.
// DEFAULT-REMARK: remark: loop pipelined: {{.*}}, the matrix unit in flight into the next iteration{{$}}

// A batch issued after the unit refills the slots of the sqmmas waited for
// just before it: there every sqmma still waits for the previous one.
// AFTER-UNIT-REMARK: remark: loop pipelined: {{.*}} after the matrix unit's next instruction, a wait every 2 iterations, the matrix unit in flight into the next iteration{{$}}

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

