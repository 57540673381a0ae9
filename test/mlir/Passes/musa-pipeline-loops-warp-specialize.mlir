// RUN: musa-opt %s -split-input-file --musa-pipeline-loops="num-stages=3 target=emulator" 2>/dev/null | FileCheck %s
// RUN: musa-opt %s -split-input-file --musa-pipeline-loops="num-stages=3 target=emulator" -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: musa-opt %s -split-input-file --musa-pipeline-loops="num-stages=3 target=emulator warp-specialize-all=true" 2>/dev/null | FileCheck %s --check-prefix=ALL

// `tl.range(..., warp_specialize=True)` over a K loop of two TME tiles
// read in place by one SQMMA (mp_31): the loop becomes a
// ttg.warp_specialize. Before it, the rings of 3 slots and two barriers
// per slot: full (ids 1..3, one arrival, phase 0) and empty (ids 4..6, one
// arrival per consumer warp), all in phase 0.
// Partition 0 (one warp) runs the loop's bounds with the descriptors and
// rings as captures: wait for empty[slot] in parity (round & 1) ^ 1 (a
// fresh barrier's wait for parity 1 passes), expect both
// tiles' bytes on full[slot], load both tiles, arrive. The default region
// keeps the loop: wait for full[slot], read the slots in place, wait for
// the previous SQMMA, then (from iteration 1) every warp releases the
// previous slot, then the SQMMA, yielded unwaited; the last is waited for
// after the loop. The module launches 5 warps.
// REMARK: remark: loop warp-specialized: a producer warp issues 2 loads as TME tiles into rings of 3 slots, the kernel's warps consume them with SQMMA in flight into the next iteration, async barriers 1..6 (full, empty)
// CHECK: module attributes {{{.*}}"ttg.total-num-warps" = 5 : i32}
// CHECK-LABEL: tt.func public @specialized(
// CHECK-SAME: %[[A:[^:]*]]: !tt.tensordesc<tensor<64x32xf16>>, {{.*}}, %[[B:[^:]*]]: !tt.tensordesc<tensor<32x64xf16>>, {{.*}}, %[[K:[^:]*]]: i32)
// CHECK: musagpu.async_barrier_record 6
// CHECK: %[[M:.*]] = arith.muli
// CHECK: %[[N:.*]] = arith.muli
// CHECK: %[[RA:.*]] = ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<3x64x32xf16, #[[SA:[^,]*]], #smem, mutable>
// CHECK: %[[RB:.*]] = ttg.local_alloc {alignment = 2048 : i32} : () -> !ttg.memdesc<3x32x64xf16, #[[SB:[^,]*]], #smem, mutable>
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[FOUR:.*]] = arith.constant 4 : i32
// CHECK: musagpu.async_barrier_init %{{.*}}, arrive_count %[[ONE]], phase %[[ZERO]]
// CHECK: musagpu.async_barrier_init %{{.*}}, arrive_count %[[ONE]], phase %[[ZERO]]
// CHECK: musagpu.async_barrier_init %{{.*}}, arrive_count %[[ONE]], phase %[[ZERO]]
// CHECK: musagpu.async_barrier_init %{{.*}}, arrive_count %[[FOUR]], phase %[[ZERO]]
// CHECK: musagpu.async_barrier_init %{{.*}}, arrive_count %[[FOUR]], phase %[[ZERO]]
// CHECK: musagpu.async_barrier_init %{{.*}}, arrive_count %[[FOUR]], phase %[[ZERO]]
// CHECK-NOT: musagpu.async_barrier_init
// CHECK: %[[RESULT:.*]] = ttg.warp_specialize(%[[K]], %[[RA]], %[[RB]], %[[A]], %[[M]], %[[B]], %[[N]])
// CHECK-NEXT: default {
// CHECK: %[[LOOP:.*]] = scf.for %[[IV:.*]] = %{{.*}} to %[[K]] step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}})
// CHECK: %[[IT:.*]] = arith.divui
// CHECK: %[[SLOT:.*]] = arith.remui %[[IT]], %[[THREE:.*]] : i32
// CHECK: %[[ROUND:.*]] = arith.divui %[[IT]], %[[THREE]] : i32
// CHECK: %[[PHASE:.*]] = arith.andi %[[ROUND]], %{{.*}} : i32
// CHECK: %[[FULL:.*]] = arith.addi %{{.*}}, %[[SLOT]] : i32
// CHECK-NEXT: musagpu.async_barrier_wait %[[FULL]], phase %[[PHASE]]
// CHECK-NEXT: %[[VA:.*]] = ttg.memdesc_index %[[RA]][%[[SLOT]]]
// CHECK-NEXT: %[[VB:.*]] = ttg.memdesc_index %[[RB]][%[[SLOT]]]
// CHECK-NEXT: %[[READY:.*]] = musagpu.sqmma_wait %[[ACC]]
// CHECK: %[[STARTED:.*]] = arith.cmpi ugt, %[[IT]], %{{.*}} : i32
// CHECK-NEXT: scf.if %[[STARTED]] {
// CHECK: %[[PREV:.*]] = arith.remui %{{.*}}, %[[THREE]] : i32
// CHECK: %[[EMPTY:.*]] = arith.addi %{{.*}}, %[[PREV]] : i32
// CHECK-NEXT: musagpu.async_barrier_arrive %[[EMPTY]] per_warp
// CHECK-NEXT: }
// CHECK-NEXT: %[[D:.*]] = musagpu.sqmma %[[VA]], %[[VB]], %[[READY]]
// CHECK-NEXT: scf.yield %[[D]]
// CHECK: %[[LAST:.*]] = musagpu.sqmma_wait %[[LOOP]]
// CHECK-NEXT: ttg.warp_yield %[[LAST]]
// CHECK-NEXT: }
// CHECK-NEXT: partition0(%[[PK:[^:]*]]: i32, %[[PRA:[^:]*]]: !ttg.memdesc<3x64x32xf16, {{.*}}>, %[[PRB:[^:]*]]: !ttg.memdesc<3x32x64xf16, {{.*}}>, %[[PA:[^:]*]]: !tt.tensordesc<tensor<64x32xf16>>, %[[PM:[^:]*]]: i32, %[[PB:[^:]*]]: !tt.tensordesc<tensor<32x64xf16>>, %[[PN:[^:]*]]: i32) num_warps(1) {
// CHECK: scf.for %[[PIV:.*]] = %{{.*}} to %[[PK]] step %{{.*}} : i32 {
// CHECK: %[[PSLOT:.*]] = arith.remui
// CHECK: %[[PROUND:.*]] = arith.andi
// CHECK-NEXT: %[[PPHASE:.*]] = arith.xori %[[PROUND]], %{{.*}} : i32
// CHECK: %[[PEMPTY:.*]] = arith.addi %{{.*}}, %[[PSLOT]] : i32
// CHECK-NEXT: musagpu.async_barrier_wait %[[PEMPTY]], phase %[[PPHASE]]
// CHECK: %[[PFULL:.*]] = arith.addi %{{.*}}, %[[PSLOT]] : i32
// CHECK: musagpu.async_barrier_expect_bytes %[[PFULL]], %{{.*}}
// CHECK-NEXT: %[[INTOA:.*]] = ttg.memdesc_index %[[PRA]][%[[PSLOT]]]
// CHECK-NEXT: musagpu.tme_load %[[PA]][%[[PIV]], %[[PM]]] to %[[INTOA]], barrier %[[PFULL]] box [32, 64]
// CHECK-NEXT: %[[INTOB:.*]] = ttg.memdesc_index %[[PRB]][%[[PSLOT]]]
// CHECK-NEXT: musagpu.tme_load %[[PB]][%[[PN]], %[[PIV]]] to %[[INTOB]], barrier %[[PFULL]] box [64, 32]
// CHECK-NEXT: musagpu.async_barrier_arrive %[[PFULL]]{{$}}
// CHECK: ttg.warp_return
// CHECK: ttg.local_dealloc %[[RA]]
// CHECK-NEXT: ttg.local_dealloc %[[RB]]
// CHECK: ttg.convert_layout %[[RESULT]]

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#shared1 = #musagpu.tme_shared<{swizzleGranularity = b32, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
#sqmma = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @specialized(%a: !tt.tensordesc<tensor<64x32xf16>>, %am: i32, %ak: i32, %asm: i64, %ask: i64, %b: !tt.tensordesc<tensor<32x64xf16>>, %bk: i32, %bn: i32, %bsk: i64, %bsn: i64, %c: !tt.ptr<f32>, %K: i32) {
    %c32 = arith.constant 32 : i32
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %pm = tt.get_program_id x : i32
    %m = arith.muli %pm, %c64 : i32
    %pn = tt.get_program_id y : i32
    %n = arith.muli %pn, %c64 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #sqmma>
    %r = scf.for %k = %c0 to %K step %c32 iter_args(%acc = %zero) -> (tensor<64x64xf32, #sqmma>) : i32 {
      %x = tt.descriptor_load %a[%m, %k] : !tt.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16, #blocked>
      %xs = ttg.local_alloc %x {alignment = 4096 : i32} : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
      %y = tt.descriptor_load %b[%k, %n] : !tt.tensordesc<tensor<32x64xf16>> -> tensor<32x64xf16, #blocked1>
      %ys = ttg.local_alloc %y {alignment = 2048 : i32} : (tensor<32x64xf16, #blocked1>) -> !ttg.memdesc<32x64xf16, #shared1, #smem>
      %d = musagpu.sqmma %xs, %ys, %acc : !ttg.memdesc<64x32xf16, #shared, #smem>, !ttg.memdesc<32x64xf16, #shared1, #smem> -> tensor<64x64xf32, #sqmma>
      %w = musagpu.sqmma_wait %d : tensor<64x64xf32, #sqmma>
      scf.yield %w : tensor<64x64xf32, #sqmma>
    } {tt.num_stages = 3 : i32, tt.warp_specialize}
    %o = ttg.convert_layout %r : tensor<64x64xf32, #sqmma> -> tensor<64x64xf32, #blocked2>
    %p = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #blocked2>
    tt.store %p, %o : tensor<64x64x!tt.ptr<f32>, #blocked2>
    tt.return
  }
}

// -----

// The same loop after a tensor load before it (the producer warp would
// repeat it): pipelined on every warp, and the remark says why.
// REMARK: remark: loop pipelined: 2 loads as TME tiles (2 read in place), rings of 3 slots, tiles issued 1 iteration ahead, the matrix unit in flight into the next iteration; warp_specialize is not done: 'tt.load' before the loop accesses memory with a tensor, which the producer warp would repeat
// CHECK-LABEL: tt.func public @load_before(
// CHECK-NOT: ttg.warp_specialize
// CHECK: tt.return

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#shared1 = #musagpu.tme_shared<{swizzleGranularity = b32, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
#sqmma = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @load_before(%a: !tt.tensordesc<tensor<64x32xf16>>, %am: i32, %ak: i32, %asm: i64, %ask: i64, %b: !tt.tensordesc<tensor<32x64xf16>>, %bk: i32, %bn: i32, %bsk: i64, %bsn: i64, %init: tensor<64x64x!tt.ptr<f32>, #sqmma>, %K: i32) -> tensor<64x64xf32, #sqmma> {
    %c32 = arith.constant 32 : i32
    %c0 = arith.constant 0 : i32
    %acc0 = tt.load %init : tensor<64x64x!tt.ptr<f32>, #sqmma>
    %r = scf.for %k = %c0 to %K step %c32 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #sqmma>) : i32 {
      %x = tt.descriptor_load %a[%c0, %k] : !tt.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16, #blocked>
      %xs = ttg.local_alloc %x {alignment = 4096 : i32} : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
      %y = tt.descriptor_load %b[%k, %c0] : !tt.tensordesc<tensor<32x64xf16>> -> tensor<32x64xf16, #blocked1>
      %ys = ttg.local_alloc %y {alignment = 2048 : i32} : (tensor<32x64xf16, #blocked1>) -> !ttg.memdesc<32x64xf16, #shared1, #smem>
      %d = musagpu.sqmma %xs, %ys, %acc : !ttg.memdesc<64x32xf16, #shared, #smem>, !ttg.memdesc<32x64xf16, #shared1, #smem> -> tensor<64x64xf32, #sqmma>
      %w = musagpu.sqmma_wait %d : tensor<64x64xf32, #sqmma>
      scf.yield %w : tensor<64x64xf32, #sqmma>
    } {tt.num_stages = 3 : i32, tt.warp_specialize}
    tt.return %r : tensor<64x64xf32, #sqmma>
  }
}

// -----

// A layout conversion through shared memory in the loop (its lowering
// synchronizes the block): pipelined on every warp, and the remark says why.
// REMARK: remark: loop pipelined: {{.*}}; warp_specialize is not done: 'ttg.convert_layout' in the loop's body exchanges values through shared memory, which the consumer warps would order with a block barrier
// CHECK-LABEL: tt.func public @exchange_in_loop(
// CHECK-NOT: ttg.warp_specialize
// CHECK: tt.return

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#shared1 = #musagpu.tme_shared<{swizzleGranularity = b32, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
#sqmma = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @exchange_in_loop(%a: !tt.tensordesc<tensor<64x32xf16>>, %am: i32, %ak: i32, %asm: i64, %ask: i64, %b: !tt.tensordesc<tensor<32x64xf16>>, %bk: i32, %bn: i32, %bsk: i64, %bsn: i64, %t0: tensor<64x64xf32, #rows>, %K: i32) -> (tensor<64x64xf32, #sqmma>, tensor<64x64xf32, #rows>) {
    %c32 = arith.constant 32 : i32
    %c0 = arith.constant 0 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #sqmma>
    %r:2 = scf.for %k = %c0 to %K step %c32 iter_args(%acc = %zero, %t = %t0) -> (tensor<64x64xf32, #sqmma>, tensor<64x64xf32, #rows>) : i32 {
      %x = tt.descriptor_load %a[%c0, %k] : !tt.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16, #blocked>
      %xs = ttg.local_alloc %x {alignment = 4096 : i32} : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
      %y = tt.descriptor_load %b[%k, %c0] : !tt.tensordesc<tensor<32x64xf16>> -> tensor<32x64xf16, #blocked1>
      %ys = ttg.local_alloc %y {alignment = 2048 : i32} : (tensor<32x64xf16, #blocked1>) -> !ttg.memdesc<32x64xf16, #shared1, #smem>
      %d = musagpu.sqmma %xs, %ys, %acc : !ttg.memdesc<64x32xf16, #shared, #smem>, !ttg.memdesc<32x64xf16, #shared1, #smem> -> tensor<64x64xf32, #sqmma>
      %w = musagpu.sqmma_wait %d : tensor<64x64xf32, #sqmma>
      %tc = ttg.convert_layout %t : tensor<64x64xf32, #rows> -> tensor<64x64xf32, #cols>
      %tr = ttg.convert_layout %tc : tensor<64x64xf32, #cols> -> tensor<64x64xf32, #rows>
      scf.yield %w, %tr : tensor<64x64xf32, #sqmma>, tensor<64x64xf32, #rows>
    } {tt.num_stages = 3 : i32, tt.warp_specialize}
    tt.return %r#0, %r#1 : tensor<64x64xf32, #sqmma>, tensor<64x64xf32, #rows>
  }
}

// -----

// The first case's loop without `tt.warp_specialize`: pipelined on every
// warp, unless warp-specialize-all takes every loop the form can.
// CHECK-LABEL: tt.func public @unasked(
// CHECK-NOT: ttg.warp_specialize
// CHECK: tt.return
// ALL-LABEL: tt.func public @unasked(
// ALL: ttg.warp_specialize
// ALL: partition0(

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#shared1 = #musagpu.tme_shared<{swizzleGranularity = b32, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
#sqmma = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @unasked(%a: !tt.tensordesc<tensor<64x32xf16>>, %am: i32, %ak: i32, %asm: i64, %ask: i64, %b: !tt.tensordesc<tensor<32x64xf16>>, %bk: i32, %bn: i32, %bsk: i64, %bsn: i64, %K: i32) -> tensor<64x64xf32, #sqmma> {
    %c32 = arith.constant 32 : i32
    %c0 = arith.constant 0 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #sqmma>
    %r = scf.for %k = %c0 to %K step %c32 iter_args(%acc = %zero) -> (tensor<64x64xf32, #sqmma>) : i32 {
      %x = tt.descriptor_load %a[%c0, %k] : !tt.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16, #blocked>
      %xs = ttg.local_alloc %x {alignment = 4096 : i32} : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
      %y = tt.descriptor_load %b[%k, %c0] : !tt.tensordesc<tensor<32x64xf16>> -> tensor<32x64xf16, #blocked1>
      %ys = ttg.local_alloc %y {alignment = 2048 : i32} : (tensor<32x64xf16, #blocked1>) -> !ttg.memdesc<32x64xf16, #shared1, #smem>
      %d = musagpu.sqmma %xs, %ys, %acc : !ttg.memdesc<64x32xf16, #shared, #smem>, !ttg.memdesc<32x64xf16, #shared1, #smem> -> tensor<64x64xf32, #sqmma>
      %w = musagpu.sqmma_wait %d : tensor<64x64xf32, #sqmma>
      scf.yield %w : tensor<64x64xf32, #sqmma>
    } {tt.num_stages = 3 : i32}
    tt.return %r : tensor<64x64xf32, #sqmma>
  }
}
