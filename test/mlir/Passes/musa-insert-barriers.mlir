// Barriers exactly between conflicting shared-memory accesses of different
// ops (byte ranges from allocation.offset), including across scf regions
// and loop back edges.
// RUN: musa-opt %s -split-input-file --musa-insert-barriers=arch=mp_31 | FileCheck %s

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31", ttg.shared = 8192 : i32} {
  // CHECK-LABEL: tt.func public @straight_line
  tt.func public @straight_line(%x: tensor<32x32xf16, #blocked>, %y: tensor<32x32xf32, #blocked>) {
    // Writes of disjoint buffers: no barrier.
    // CHECK: ttg.local_alloc
    // CHECK-NEXT: ttg.local_alloc
    // CHECK-NEXT: ttg.local_barrier
    // CHECK-NEXT: ttg.local_load
    // CHECK-NEXT: ttg.local_load
    // CHECK-NEXT: ttg.local_load
    %a = ttg.local_alloc %x {allocation.offset = 0 : i32} : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
    %b = ttg.local_alloc %x {allocation.offset = 2048 : i32} : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
    // RAW: one barrier, then reads after reads need none.
    %la = ttg.local_load %a : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf16, #blocked1>
    %lb = ttg.local_load %b : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf16, #blocked1>
    %la2 = ttg.local_load %a : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf16, #blocked1>
    // Scratch over bytes [4096, 8192): disjoint from %a and %b, no barrier.
    // CHECK-NEXT: ttg.convert_layout
    %c = ttg.convert_layout %y {allocation.offset = 4096 : i32} : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #blocked1>
    // Scratch over [0, 4096): WAR with the loads of %a and %b.
    // CHECK-NEXT: ttg.local_barrier
    // CHECK-NEXT: ttg.convert_layout
    %d = ttg.convert_layout %y {allocation.offset = 0 : i32} : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #blocked1>
    // The same scratch again: the op writes what the previous one read.
    // CHECK-NEXT: ttg.local_barrier
    // CHECK-NEXT: ttg.convert_layout
    %e = ttg.convert_layout %y {allocation.offset = 0 : i32} : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #blocked1>
    // A register-only conversion has no scratch.
    // CHECK-NEXT: ttg.convert_layout
    // CHECK-NEXT: tt.return
    %f = ttg.convert_layout %y : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31", ttg.shared = 2048 : i32} {
  // CHECK-LABEL: tt.func public @loop
  tt.func public @loop(%x: tensor<32x32xf16, #blocked>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %a = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
    // The store of iteration i+1 must wait for the load of iteration i
    // (back edge, WAR); the load waits for the store (RAW).
    // CHECK: scf.for
    // CHECK-NEXT: ttg.local_barrier
    // CHECK-NEXT: ttg.local_store
    // CHECK-NEXT: ttg.local_barrier
    // CHECK-NEXT: ttg.local_load
    // CHECK-NEXT: }
    scf.for %i = %c0 to %n step %c1 : i32 {
      ttg.local_store %x, %a : tensor<32x32xf16, #blocked> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
      %l = ttg.local_load %a : !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> tensor<32x32xf16, #blocked1>
    }
    // After the loop only reads may be pending: another read needs none.
    // CHECK-NEXT: ttg.local_load
    // CHECK-NEXT: tt.return
    %l2 = ttg.local_load %a : !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> tensor<32x32xf16, #blocked1>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31", ttg.shared = 4096 : i32} {
  // CHECK-LABEL: tt.func public @loop_read_only
  tt.func public @loop_read_only(%x: tensor<32x32xf16, #blocked>, %n: i32, %p: i1) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // CHECK: ttg.local_alloc
    // CHECK-NEXT: ttg.local_alloc
    %a = ttg.local_alloc %x {allocation.offset = 0 : i32} : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
    %b = ttg.local_alloc {allocation.offset = 2048 : i32} : () -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
    // The write before the loop needs one barrier in the loop; reads of %a
    // in later iterations conflict with nothing.
    // CHECK: scf.for
    // CHECK-NEXT: ttg.local_barrier
    // CHECK-NEXT: ttg.local_load
    // CHECK-NEXT: scf.if
    // CHECK-NEXT: ttg.local_store
    // CHECK-NEXT: }
    // CHECK-NEXT: }
    scf.for %i = %c0 to %n step %c1 : i32 {
      %l = ttg.local_load %a : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf16, #blocked1>
      // Writes of %b in one branch: a later read of %b needs a barrier,
      // but it is after the loop.
      scf.if %p {
        ttg.local_store %x, %b : tensor<32x32xf16, #blocked> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
      }
    }
    // CHECK-NEXT: ttg.local_barrier
    // CHECK-NEXT: ttg.local_load
    %l2 = ttg.local_load %b : !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> tensor<32x32xf16, #blocked1>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31", ttg.shared = 2048 : i32} {
  // CHECK-LABEL: tt.func public @while_loop
  tt.func public @while_loop(%x: tensor<32x32xf16, #blocked>, %n: i32) {
    %c1 = arith.constant 1 : i32
    %a = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
    // The read in "before" follows the write in "do" around the back edge
    // (RAW); the write follows the read (WAR). Nothing is pending on entry.
    // CHECK: scf.while
    // CHECK-NEXT: ttg.local_barrier
    // CHECK-NEXT: ttg.local_load
    // CHECK: scf.condition
    // CHECK: } do {
    // CHECK-NEXT: ^bb0
    // CHECK-NEXT: ttg.local_barrier
    // CHECK-NEXT: ttg.local_store
    // CHECK-NEXT: arith.subi
    // CHECK-NEXT: scf.yield
    %r = scf.while (%i = %n) : (i32) -> i32 {
      %l = ttg.local_load %a : !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> tensor<32x32xf16, #blocked1>
      %go = arith.cmpi sgt, %i, %c1 : i32
      scf.condition(%go) %i : i32
    } do {
    ^bb0(%j: i32):
      ttg.local_store %x, %a : tensor<32x32xf16, #blocked> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
      %k = arith.subi %j, %c1 : i32
      scf.yield %k : i32
    }
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31", ttg.shared = 4096 : i32} {
  // A device function may follow its own earlier call: its first access
  // gets a barrier.
  // CHECK-LABEL: tt.func private @device
  // CHECK-NEXT: ttg.local_barrier
  // CHECK-NEXT: ttg.convert_layout
  tt.func private @device(%y: tensor<32x32xf32, #blocked>) {
    %c = ttg.convert_layout %y {allocation.offset = 0 : i32} : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #blocked1>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31", ttg.shared = 8192 : i32} {
  // Async copies: two copies into one ring need no barrier between them (a
  // barrier would not order them; the wait does), the wait is itself a
  // barrier so the reads after it need none, and refilling a buffer that
  // was read needs one before the copy (write after read).
  // CHECK-LABEL: tt.func public @async_copies
  // CHECK: ttg.async_copy_global_to_local
  // CHECK-NEXT: ttg.async_copy_global_to_local
  // CHECK-NEXT: ttg.async_commit_group
  // CHECK-NEXT: ttg.async_wait
  // CHECK-NEXT: ttg.local_load
  // CHECK-NEXT: ttg.local_barrier
  // CHECK-NEXT: ttg.async_copy_global_to_local
  // CHECK-NOT: ttg.local_barrier
  // CHECK: tt.return
  tt.func public @async_copies(%p: tensor<32x64x!tt.ptr<f16>, #blocked>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %ring = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<2x32x64xf16, #shared, #smem, mutable>
    %b0 = ttg.memdesc_index %ring[%c0] : !ttg.memdesc<2x32x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x64xf16, #shared, #smem, mutable>
    %b1 = ttg.memdesc_index %ring[%c1] : !ttg.memdesc<2x32x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x64xf16, #shared, #smem, mutable>
    %t0 = ttg.async_copy_global_to_local %p, %b0 : tensor<32x64x!tt.ptr<f16>, #blocked> -> <32x64xf16, #shared, #smem, mutable>
    %t1 = ttg.async_copy_global_to_local %p, %b1 : tensor<32x64x!tt.ptr<f16>, #blocked> -> <32x64xf16, #shared, #smem, mutable>
    %g = ttg.async_commit_group tokens %t0, %t1
    %w = ttg.async_wait %g {num = 0 : i32}
    %v = ttg.local_load %b0 token %w : !ttg.memdesc<32x64xf16, #shared, #smem, mutable> -> tensor<32x64xf16, #blocked>
    %t2 = ttg.async_copy_global_to_local %p, %b0 : tensor<32x64x!tt.ptr<f16>, #blocked> -> <32x64xf16, #shared, #smem, mutable>
    %g2 = ttg.async_commit_group tokens %t2
    %w2 = ttg.async_wait %g2 {num = 0 : i32}
    tt.return
  }
}

// -----

// The pipelined loop's form (--musa-pipeline-loops): the copy wait and the
// pipeline's own barrier, the copies for a later iteration into one slot of
// the ring, the SQMMA reading another slot in place. The copies in flight
// give the SQMMA no barrier (one would not order them; the next iteration's
// wait and barrier do); a second barrier per iteration is what a pending
// async write used to cost.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b128, swizzleLine = b128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
#sqmma = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [128, 128, 64]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31", ttg.shared = 98304 : i32} {
  // CHECK-LABEL: tt.func public @copy_ring_feeding_sqmma
  // CHECK: scf.for
  // CHECK: musagpu.async_copy_wait if
  // CHECK-NEXT: ttg.local_barrier
  // CHECK-NEXT: ttg.memdesc_index
  // CHECK-NEXT: ttg.async_copy_global_to_local
  // CHECK-NEXT: ttg.memdesc_index
  // CHECK-NEXT: ttg.async_copy_global_to_local
  // CHECK-NEXT: ttg.async_commit_group
  // CHECK-NEXT: ttg.memdesc_index
  // CHECK-NEXT: ttg.memdesc_index
  // CHECK-NEXT: musagpu.sqmma_wait
  // CHECK-NEXT: musagpu.sqmma
  // CHECK-NEXT: scf.yield
  tt.func public @copy_ring_feeding_sqmma(%pa: tensor<128x64x!tt.ptr<f16>, #blocked>, %pb: tensor<64x128x!tt.ptr<f16>, #blocked>, %k: i32, %acc0: tensor<128x128xf32, #sqmma>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %a = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable>
    %b = ttg.local_alloc {allocation.offset = 49152 : i32} : () -> !ttg.memdesc<3x64x128xf16, #shared, #smem, mutable>
    %r = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %acc0) -> (tensor<128x128xf32, #sqmma>) : i32 {
      %cur = arith.remui %i, %c3 : i32
      %ahead = arith.addi %i, %c2 : i32
      %next = arith.remui %ahead, %c3 : i32
      %even = arith.remui %i, %c2 : i32
      %waits = arith.cmpi eq, %even, %c0 : i32
      musagpu.async_copy_wait if %waits
      ttg.local_barrier
      %wa = ttg.memdesc_index %a[%next] : !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
      %ta = ttg.async_copy_global_to_local %pa, %wa : tensor<128x64x!tt.ptr<f16>, #blocked> -> <128x64xf16, #shared, #smem, mutable>
      %wb = ttg.memdesc_index %b[%next] : !ttg.memdesc<3x64x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x128xf16, #shared, #smem, mutable>
      %tb = ttg.async_copy_global_to_local %pb, %wb : tensor<64x128x!tt.ptr<f16>, #blocked> -> <64x128xf16, #shared, #smem, mutable>
      %g = ttg.async_commit_group tokens %ta, %tb
      %ra = ttg.memdesc_index %a[%cur] : !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
      %rb = ttg.memdesc_index %b[%cur] : !ttg.memdesc<3x64x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x128xf16, #shared, #smem, mutable>
      %ready = musagpu.sqmma_wait %acc : tensor<128x128xf32, #sqmma>
      %d = musagpu.sqmma %ra, %rb, %ready : !ttg.memdesc<128x64xf16, #shared, #smem, mutable>, !ttg.memdesc<64x128xf16, #shared, #smem, mutable> -> tensor<128x128xf32, #sqmma>
      scf.yield %d : tensor<128x128xf32, #sqmma>
    }
    %w = musagpu.sqmma_wait %r : tensor<128x128xf32, #sqmma>
    tt.return
  }
}

// -----

// A copy wait without a barrier after it: the copied bytes are plain
// writes from the wait on, so the read of another thread's copy gets one.
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31", ttg.shared = 4096 : i32} {
  // CHECK-LABEL: tt.func public @copy_wait_then_read
  // CHECK: ttg.async_commit_group
  // CHECK-NEXT: musagpu.async_copy_wait
  // CHECK-NEXT: ttg.local_barrier
  // CHECK-NEXT: ttg.local_load
  tt.func public @copy_wait_then_read(%p: tensor<32x64x!tt.ptr<f16>, #blocked>) {
    %buf = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<32x64xf16, #shared, #smem, mutable>
    %t = ttg.async_copy_global_to_local %p, %buf : tensor<32x64x!tt.ptr<f16>, #blocked> -> <32x64xf16, #shared, #smem, mutable>
    %g = ttg.async_commit_group tokens %t
    musagpu.async_copy_wait
    %v = ttg.local_load %buf : !ttg.memdesc<32x64xf16, #shared, #smem, mutable> -> tensor<32x64xf16, #blocked>
    tt.return
  }
}

// -----

// A TME ring feeding SQMMA. Thread 0 issues the loads, so the refill waits
// for every thread's SQMMA reads of the previous iteration (one barrier);
// the engine's writes are ordered by the async-barrier wait, not by block
// barriers, so neither the second load nor the SQMMA gets one.
#shared = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b128, swizzleLine = b128, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
#sqmma = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [128, 128, 64]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31", ttg.shared = 98304 : i32} {
  // CHECK-LABEL: tt.func public @tme_ring
  tt.func public @tme_ring(%da: !tt.tensordesc<tensor<128x64xf16>>, %db: !tt.tensordesc<tensor<64x128xf16>>, %k: i32, %acc0: tensor<128x128xf32, #sqmma>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c3 = arith.constant 3 : i32
    %bytes = arith.constant 32768 : i32
    %a = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable>
    %b = ttg.local_alloc {allocation.offset = 49152 : i32} : () -> !ttg.memdesc<3x64x128xf16, #shared, #smem, mutable>
    // CHECK: scf.for
    // CHECK: musagpu.async_barrier_expect_bytes
    // CHECK-NEXT: ttg.local_barrier
    // CHECK-NEXT: musagpu.tme_load
    // CHECK-NEXT: musagpu.tme_load
    // CHECK-NEXT: musagpu.async_barrier_arrive
    // CHECK-NEXT: musagpu.async_barrier_wait
    // CHECK-NEXT: musagpu.sqmma
    // CHECK-NEXT: musagpu.sqmma_wait
    %r:2 = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %acc0, %slot = %c0) -> (tensor<128x128xf32, #sqmma>, i32) : i32 {
      %sa = ttg.memdesc_index %a[%slot] : !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
      %sb = ttg.memdesc_index %b[%slot] : !ttg.memdesc<3x64x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x128xf16, #shared, #smem, mutable>
      musagpu.async_barrier_expect_bytes %c1, %bytes
      musagpu.tme_load %da[%i, %c0] to %sa, barrier %c1 box [64, 128] : !tt.tensordesc<tensor<128x64xf16>>, !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
      musagpu.tme_load %db[%c0, %i] to %sb, barrier %c1 box [128, 64] : !tt.tensordesc<tensor<64x128xf16>>, !ttg.memdesc<64x128xf16, #shared, #smem, mutable>
      musagpu.async_barrier_arrive %c1
      musagpu.async_barrier_wait %c1, phase %c0
      %d = musagpu.sqmma %sa, %sb, %acc : !ttg.memdesc<128x64xf16, #shared, #smem, mutable>, !ttg.memdesc<64x128xf16, #shared, #smem, mutable> -> tensor<128x128xf32, #sqmma>
      %w = musagpu.sqmma_wait %d : tensor<128x128xf32, #sqmma>
      %next = arith.addi %slot, %c1 : i32
      %wrap = arith.remui %next, %c3 : i32
      scf.yield %w, %wrap : tensor<128x128xf32, #sqmma>, i32
    }
    tt.return
  }

  // A TME store's lowering synchronizes the block after the source's
  // writes, and its read wait ends in a block barrier: no barrier of ours
  // before either the store or the next write of its source.
  // CHECK-LABEL: tt.func public @tme_store
  // CHECK: ttg.local_store
  // CHECK-NEXT: musagpu.tme_store
  // CHECK-NEXT: musagpu.tme_store_commit
  // CHECK-NEXT: musagpu.tme_store_wait
  // CHECK-NEXT: ttg.local_store
  // CHECK-NEXT: tt.return
  tt.func public @tme_store(%dc: !tt.tensordesc<tensor<128x128xf16>>, %x: tensor<128x128xf16, #sqmma>) {
    %c0 = arith.constant 0 : i32
    %c = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<128x128xf16, #shared, #smem, mutable>
    ttg.local_store %x, %c : tensor<128x128xf16, #sqmma> -> !ttg.memdesc<128x128xf16, #shared, #smem, mutable>
    musagpu.tme_store %c to %dc[%c0, %c0] box [128, 128] : !ttg.memdesc<128x128xf16, #shared, #smem, mutable>, !tt.tensordesc<tensor<128x128xf16>>
    musagpu.tme_store_commit
    musagpu.tme_store_wait
    ttg.local_store %x, %c : tensor<128x128xf16, #sqmma> -> !ttg.memdesc<128x128xf16, #shared, #smem, mutable>
    tt.return
  }
}
