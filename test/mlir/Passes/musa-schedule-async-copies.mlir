// --musa-schedule-async-copies: the dots of a pipelined loop (and what
// depends on them) move below the loop's async copies, so the copies run
// while the dots compute; loops where that would move a memory access are
// left alone.
// RUN: musa-opt %s -split-input-file --musa-schedule-async-copies | FileCheck %s

#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
  // CHECK-LABEL: tt.func public @dot_after_copies
  // CHECK: scf.for
  // CHECK: ttg.async_wait
  // CHECK: ttg.local_load
  // CHECK: ttg.local_load
  // The copies now come first...
  // CHECK-NOT: tt.dot
  // CHECK: ttg.async_copy_global_to_local
  // CHECK-NEXT: ttg.async_commit_group
  // ...then the dot and the op using it, in their order.
  // CHECK-NEXT: tt.dot
  // CHECK-NEXT: arith.addf
  // CHECK-NEXT: scf.yield
  tt.func public @dot_after_copies(%p: tensor<32x32x!tt.ptr<f16>, #blocked1>, %n: i32, %t0: !ttg.async.token) -> tensor<32x32xf32, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #blocked>
    %ring = ttg.local_alloc : () -> !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %tok = %t0) -> (tensor<32x32xf32, #blocked>, !ttg.async.token) : i32 {
      %w = ttg.async_wait %tok {num = 1 : i32}
      %cur = ttg.memdesc_index %ring[%i] : !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
      %a = ttg.local_load %cur token %w : !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
      %b = ttg.local_load %cur token %w : !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
      %d = tt.dot %a, %b, %acc : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<32x32xf32, #blocked>
      %e = arith.addf %d, %zero : tensor<32x32xf32, #blocked>
      %next = ttg.memdesc_index %ring[%c1] : !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
      %c = ttg.async_copy_global_to_local %p, %next : tensor<32x32x!tt.ptr<f16>, #blocked1> -> <32x32xf16, #shared, #smem, mutable>
      %g = ttg.async_commit_group tokens %c
      scf.yield %e, %g : tensor<32x32xf32, #blocked>, !ttg.async.token
    }
    tt.return %r#0 : tensor<32x32xf32, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
  // The dot's result is stored in the loop: moving the store past the
  // copies would reorder memory accesses, so nothing moves.
  // CHECK-LABEL: tt.func public @store_of_dot_stays
  // CHECK: tt.dot
  // CHECK-NEXT: tt.store
  // CHECK-NEXT: ttg.memdesc_index
  // CHECK-NEXT: ttg.async_copy_global_to_local
  tt.func public @store_of_dot_stays(%p: tensor<32x32x!tt.ptr<f16>, #blocked1>, %out: tensor<32x32x!tt.ptr<f32>, #blocked>, %n: i32, %t0: !ttg.async.token) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #blocked>
    %ring = ttg.local_alloc : () -> !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%tok = %t0) -> (!ttg.async.token) : i32 {
      %w = ttg.async_wait %tok {num = 1 : i32}
      %cur = ttg.memdesc_index %ring[%i] : !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
      %a = ttg.local_load %cur token %w : !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
      %b = ttg.local_load %cur token %w : !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
      %d = tt.dot %a, %b, %zero : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<32x32xf32, #blocked>
      tt.store %out, %d : tensor<32x32x!tt.ptr<f32>, #blocked>
      %next = ttg.memdesc_index %ring[%c1] : !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
      %c = ttg.async_copy_global_to_local %p, %next : tensor<32x32x!tt.ptr<f16>, #blocked1> -> <32x32xf16, #shared, #smem, mutable>
      %g = ttg.async_commit_group tokens %c
      scf.yield %g : !ttg.async.token
    }
    tt.return
  }
}

// -----

// A musagpu.sqmma reads its ring slots in place, and Triton's two-slot ring
// refills in iteration i the slot iteration i reads (insert counter from 1,
// extract counter from -1: both pick (i + 2) mod 2 = i mod 2). The rings
// get a third slot and both counters wrap at 3, so iteration i refills slot
// (i + 2) mod 3, which iteration i - 1 read: the copies move above the
// sqmma and its wait, which stays in the iteration (a thread's wait covers
// its own warp's reads only; the next iteration's copy wait and barrier
// must follow every warp's).
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#sqmma = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 64]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
  // CHECK-LABEL: tt.func public @sqmma_ring_grows
  // CHECK: %[[A:.*]] = ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<3x64x64xf16
  // CHECK: %[[B:.*]] = ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<3x64x64xf16
  // The prologue's constant slots stay.
  // CHECK: ttg.memdesc_index %[[A]][%c0_i32]
  // CHECK: scf.for
  // CHECK: %[[THREE:.*]] = arith.constant 3 : i32
  // CHECK-NEXT: arith.cmpi sge, %{{.*}}, %[[THREE]] : i32
  // CHECK: ttg.async_wait
  // CHECK-NOT: musagpu.sqmma_wait
  // CHECK: ttg.memdesc_index %[[A]]
  // CHECK: %[[THREE2:.*]] = arith.constant 3 : i32
  // CHECK-NEXT: arith.cmpi sge, %{{.*}}, %[[THREE2]] : i32
  // CHECK-NOT: musagpu.sqmma
  // CHECK: ttg.async_copy_global_to_local
  // CHECK: ttg.async_copy_global_to_local
  // CHECK-NEXT: ttg.async_commit_group
  // CHECK-NEXT: %[[D:.*]] = musagpu.sqmma
  // CHECK-NEXT: %[[W:.*]] = musagpu.sqmma_wait %[[D]]
  // CHECK-NEXT: scf.yield %[[W]],
  tt.func public @sqmma_ring_grows(%pa: tensor<64x64x!tt.ptr<f16>, #blocked>, %pb: tensor<64x64x!tt.ptr<f16>, #blocked>, %n: i32, %t0: !ttg.async.token) -> tensor<64x64xf32, #sqmma> {
    %c-1 = arith.constant -1 : i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #sqmma>
    %ra = ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<2x64x64xf16, #sh, #smem, mutable>
    %rb = ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<2x64x64xf16, #sh, #smem, mutable>
    %a0 = ttg.memdesc_index %ra[%c0] : !ttg.memdesc<2x64x64xf16, #sh, #smem, mutable> -> !ttg.memdesc<64x64xf16, #sh, #smem, mutable>
    %ca0 = ttg.async_copy_global_to_local %pa, %a0 : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #sh, #smem, mutable>
    %r:4 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %ins = %c1, %ext = %c-1, %tok = %t0) -> (tensor<64x64xf32, #sqmma>, i32, i32, !ttg.async.token) : i32 {
      %e1 = arith.addi %ext, %c1 : i32
      %ew = arith.cmpi sge, %e1, %c2 : i32
      %e = arith.select %ew, %c0, %e1 : i32
      %w = ttg.async_wait %tok {num = 2 : i32}
      %a = ttg.memdesc_index %ra[%e] : !ttg.memdesc<2x64x64xf16, #sh, #smem, mutable> -> !ttg.memdesc<64x64xf16, #sh, #smem, mutable>
      %b = ttg.memdesc_index %rb[%e] : !ttg.memdesc<2x64x64xf16, #sh, #smem, mutable> -> !ttg.memdesc<64x64xf16, #sh, #smem, mutable>
      %d = musagpu.sqmma %a, %b, %acc : !ttg.memdesc<64x64xf16, #sh, #smem, mutable>, !ttg.memdesc<64x64xf16, #sh, #smem, mutable> -> tensor<64x64xf32, #sqmma>
      %dw = musagpu.sqmma_wait %d : tensor<64x64xf32, #sqmma>
      %i1 = arith.addi %ins, %c1 : i32
      %iw = arith.cmpi sge, %i1, %c2 : i32
      %in = arith.select %iw, %c0, %i1 : i32
      %na = ttg.memdesc_index %ra[%in] : !ttg.memdesc<2x64x64xf16, #sh, #smem, mutable> -> !ttg.memdesc<64x64xf16, #sh, #smem, mutable>
      %ca = ttg.async_copy_global_to_local %pa, %na : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #sh, #smem, mutable>
      %nb = ttg.memdesc_index %rb[%in] : !ttg.memdesc<2x64x64xf16, #sh, #smem, mutable> -> !ttg.memdesc<64x64xf16, #sh, #smem, mutable>
      %cb = ttg.async_copy_global_to_local %pb, %nb : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #sh, #smem, mutable>
      %g = ttg.async_commit_group tokens %ca, %cb
      scf.yield %dw, %in, %e, %g : tensor<64x64xf32, #sqmma>, i32, i32, !ttg.async.token
    }
    ttg.local_dealloc %ra : !ttg.memdesc<2x64x64xf16, #sh, #smem, mutable>
    ttg.local_dealloc %rb : !ttg.memdesc<2x64x64xf16, #sh, #smem, mutable>
    tt.return %r#0 : tensor<64x64xf32, #sqmma>
  }
}

// -----

// A third ring picked by the same insert counter, which the sqmma does not
// read: widening the counter would index past its two slots, and it cannot
// grow for free, so nothing changes.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#sqmma = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 64]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
  // CHECK-LABEL: tt.func public @sqmma_shared_counter_stays
  // CHECK-COUNT-3: ttg.local_alloc {{.*}} -> !ttg.memdesc<2x64x64xf16
  // CHECK: musagpu.sqmma
  // CHECK-NEXT: musagpu.sqmma_wait
  // CHECK: ttg.async_copy_global_to_local
  tt.func public @sqmma_shared_counter_stays(%pa: tensor<64x64x!tt.ptr<f16>, #blocked>, %n: i32, %t0: !ttg.async.token) -> tensor<64x64xf32, #sqmma> {
    %c-1 = arith.constant -1 : i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #sqmma>
    %ra = ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<2x64x64xf16, #sh, #smem, mutable>
    %rb = ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<2x64x64xf16, #sh, #smem, mutable>
    %rc = ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<2x64x64xf16, #sh, #smem, mutable>
    %r:4 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %ins = %c1, %ext = %c-1, %tok = %t0) -> (tensor<64x64xf32, #sqmma>, i32, i32, !ttg.async.token) : i32 {
      %e1 = arith.addi %ext, %c1 : i32
      %ew = arith.cmpi sge, %e1, %c2 : i32
      %e = arith.select %ew, %c0, %e1 : i32
      %w = ttg.async_wait %tok {num = 2 : i32}
      %a = ttg.memdesc_index %ra[%e] : !ttg.memdesc<2x64x64xf16, #sh, #smem, mutable> -> !ttg.memdesc<64x64xf16, #sh, #smem, mutable>
      %b = ttg.memdesc_index %rb[%e] : !ttg.memdesc<2x64x64xf16, #sh, #smem, mutable> -> !ttg.memdesc<64x64xf16, #sh, #smem, mutable>
      %d = musagpu.sqmma %a, %b, %acc : !ttg.memdesc<64x64xf16, #sh, #smem, mutable>, !ttg.memdesc<64x64xf16, #sh, #smem, mutable> -> tensor<64x64xf32, #sqmma>
      %dw = musagpu.sqmma_wait %d : tensor<64x64xf32, #sqmma>
      %i1 = arith.addi %ins, %c1 : i32
      %iw = arith.cmpi sge, %i1, %c2 : i32
      %in = arith.select %iw, %c0, %i1 : i32
      %na = ttg.memdesc_index %ra[%in] : !ttg.memdesc<2x64x64xf16, #sh, #smem, mutable> -> !ttg.memdesc<64x64xf16, #sh, #smem, mutable>
      %ca = ttg.async_copy_global_to_local %pa, %na : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #sh, #smem, mutable>
      %nc = ttg.memdesc_index %rc[%in] : !ttg.memdesc<2x64x64xf16, #sh, #smem, mutable> -> !ttg.memdesc<64x64xf16, #sh, #smem, mutable>
      %cc = ttg.async_copy_global_to_local %pa, %nc : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #sh, #smem, mutable>
      %g = ttg.async_commit_group tokens %ca, %cc
      scf.yield %dw, %in, %e, %g : tensor<64x64xf32, #sqmma>, i32, i32, !ttg.async.token
    }
    tt.return %r#0 : tensor<64x64xf32, #sqmma>
  }
}

// -----

// A one-slot ring (num_stages = 2) of 2 KiB slots in a swizzle whose period
// is 4 KiB: a second slot would start in the middle of a period and see
// another swizzle, so the ring keeps its slot and the sqmma stays first.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#sqmma = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [32, 32, 32]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
  // CHECK-LABEL: tt.func public @sqmma_ring_slot_off_period
  // CHECK: ttg.local_alloc {{.*}} -> !ttg.memdesc<1x32x32xf16
  // CHECK: musagpu.sqmma
  // CHECK-NEXT: musagpu.sqmma_wait
  // CHECK: ttg.async_copy_global_to_local
  tt.func public @sqmma_ring_slot_off_period(%pa: tensor<32x32x!tt.ptr<f16>, #blocked>, %b: !ttg.memdesc<32x32xf16, #sh, #smem>, %n: i32, %t0: !ttg.async.token) -> tensor<32x32xf32, #sqmma> {
    %c-1 = arith.constant -1 : i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #sqmma>
    %ra = ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<1x32x32xf16, #sh, #smem, mutable>
    %r:4 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %ins = %c0, %ext = %c-1, %tok = %t0) -> (tensor<32x32xf32, #sqmma>, i32, i32, !ttg.async.token) : i32 {
      %e1 = arith.addi %ext, %c1 : i32
      %ew = arith.cmpi sge, %e1, %c1 : i32
      %e = arith.select %ew, %c0, %e1 : i32
      %w = ttg.async_wait %tok {num = 0 : i32}
      %a = ttg.memdesc_index %ra[%e] : !ttg.memdesc<1x32x32xf16, #sh, #smem, mutable> -> !ttg.memdesc<32x32xf16, #sh, #smem, mutable>
      %d = musagpu.sqmma %a, %b, %acc : !ttg.memdesc<32x32xf16, #sh, #smem, mutable>, !ttg.memdesc<32x32xf16, #sh, #smem> -> tensor<32x32xf32, #sqmma>
      %dw = musagpu.sqmma_wait %d : tensor<32x32xf32, #sqmma>
      %i1 = arith.addi %ins, %c1 : i32
      %iw = arith.cmpi sge, %i1, %c1 : i32
      %in = arith.select %iw, %c0, %i1 : i32
      %na = ttg.memdesc_index %ra[%in] : !ttg.memdesc<1x32x32xf16, #sh, #smem, mutable> -> !ttg.memdesc<32x32xf16, #sh, #smem, mutable>
      %ca = ttg.async_copy_global_to_local %pa, %na : tensor<32x32x!tt.ptr<f16>, #blocked> -> <32x32xf16, #sh, #smem, mutable>
      %g = ttg.async_commit_group tokens %ca
      scf.yield %dw, %in, %e, %g : tensor<32x32xf32, #sqmma>, i32, i32, !ttg.async.token
    }
    tt.return %r#0 : tensor<32x32xf32, #sqmma>
  }
}

// -----

// Flash attention's shape: both sqmma ops (Q times a K slot; the P tile made
// from the scores times a V slot), their waits and the P tile move below the
// copies, in their order. The three-slot rings already refill a slot other
// than the one read (no growth).
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#sqmma = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 64]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
  // CHECK-LABEL: tt.func public @attention_sqmmas_after_copies
  // CHECK: %[[Q:.*]] = ttg.local_alloc %arg0
  // CHECK-COUNT-2: ttg.local_alloc {{.*}} -> !ttg.memdesc<3x64x64xf16
  // CHECK: ttg.async_wait
  // CHECK-NOT: musagpu.sqmma
  // CHECK: ttg.async_copy_global_to_local
  // CHECK: ttg.async_copy_global_to_local
  // CHECK-NEXT: ttg.async_commit_group
  // CHECK-NEXT: %[[S:.*]] = musagpu.sqmma %[[Q]], %{{.*}}, %cst
  // CHECK-NEXT: %[[SW:.*]] = musagpu.sqmma_wait %[[S]]
  // CHECK-NEXT: %[[P:.*]] = arith.truncf %[[SW]]
  // CHECK-NEXT: %[[PB:.*]] = ttg.local_alloc %[[P]]
  // CHECK-NEXT: %[[O:.*]] = musagpu.sqmma %[[PB]],
  // CHECK-NEXT: %[[OW:.*]] = musagpu.sqmma_wait %[[O]]
  // CHECK-NEXT: scf.yield %[[OW]],
  tt.func public @attention_sqmmas_after_copies(%qt: tensor<64x64xf16, #blocked>, %pk: tensor<64x64x!tt.ptr<f16>, #blocked>, %pv: tensor<64x64x!tt.ptr<f16>, #blocked>, %n: i32, %t0: !ttg.async.token) -> tensor<64x64xf32, #sqmma> {
    %c-1 = arith.constant -1 : i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c3 = arith.constant 3 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #sqmma>
    %q = ttg.local_alloc %qt : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #sh, #smem>
    %rk = ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<3x64x64xf16, #sh, #smem, mutable>
    %rv = ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<3x64x64xf16, #sh, #smem, mutable>
    %r:4 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %ins = %c1, %ext = %c-1, %tok = %t0) -> (tensor<64x64xf32, #sqmma>, i32, i32, !ttg.async.token) : i32 {
      %e1 = arith.addi %ext, %c1 : i32
      %ew = arith.cmpi sge, %e1, %c3 : i32
      %e = arith.select %ew, %c0, %e1 : i32
      %w = ttg.async_wait %tok {num = 2 : i32}
      %k = ttg.memdesc_index %rk[%e] : !ttg.memdesc<3x64x64xf16, #sh, #smem, mutable> -> !ttg.memdesc<64x64xf16, #sh, #smem, mutable>
      %v = ttg.memdesc_index %rv[%e] : !ttg.memdesc<3x64x64xf16, #sh, #smem, mutable> -> !ttg.memdesc<64x64xf16, #sh, #smem, mutable>
      %s = musagpu.sqmma %q, %k, %zero : !ttg.memdesc<64x64xf16, #sh, #smem>, !ttg.memdesc<64x64xf16, #sh, #smem, mutable> -> tensor<64x64xf32, #sqmma>
      %sw = musagpu.sqmma_wait %s : tensor<64x64xf32, #sqmma>
      %p = arith.truncf %sw : tensor<64x64xf32, #sqmma> to tensor<64x64xf16, #sqmma>
      %pb = ttg.local_alloc %p : (tensor<64x64xf16, #sqmma>) -> !ttg.memdesc<64x64xf16, #sh, #smem>
      %o = musagpu.sqmma %pb, %v, %acc : !ttg.memdesc<64x64xf16, #sh, #smem>, !ttg.memdesc<64x64xf16, #sh, #smem, mutable> -> tensor<64x64xf32, #sqmma>
      %ow = musagpu.sqmma_wait %o : tensor<64x64xf32, #sqmma>
      %i1 = arith.addi %ins, %c1 : i32
      %iw = arith.cmpi sge, %i1, %c3 : i32
      %in = arith.select %iw, %c0, %i1 : i32
      %nk = ttg.memdesc_index %rk[%in] : !ttg.memdesc<3x64x64xf16, #sh, #smem, mutable> -> !ttg.memdesc<64x64xf16, #sh, #smem, mutable>
      %ck = ttg.async_copy_global_to_local %pk, %nk : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #sh, #smem, mutable>
      %nv = ttg.memdesc_index %rv[%in] : !ttg.memdesc<3x64x64xf16, #sh, #smem, mutable> -> !ttg.memdesc<64x64xf16, #sh, #smem, mutable>
      %cv = ttg.async_copy_global_to_local %pv, %nv : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #sh, #smem, mutable>
      %g = ttg.async_commit_group tokens %ck, %cv
      scf.yield %ow, %in, %e, %g : tensor<64x64xf32, #sqmma>, i32, i32, !ttg.async.token
    }
    ttg.local_dealloc %rk : !ttg.memdesc<3x64x64xf16, #sh, #smem, mutable>
    ttg.local_dealloc %rv : !ttg.memdesc<3x64x64xf16, #sh, #smem, mutable>
    tt.return %r#0 : tensor<64x64xf32, #sqmma>
  }
}

// -----

// An FMA dot on Triton's two-slot ring (both counters pick (i + 2) mod 2 =
// i mod 2: iteration i refills the slot it reads): the ring grows to three
// slots, as for an sqmma, so the dot's operand loads move below the copies
// with the dot. Left above them, they would keep every operand register
// live across the copies and the barrier before them.
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
  // CHECK-LABEL: tt.func public @fma_operand_loads_follow_the_dot
  // CHECK: ttg.local_alloc : () -> !ttg.memdesc<3x32x32xf16
  // CHECK: scf.for
  // CHECK: ttg.async_wait
  // CHECK-NOT: ttg.local_load
  // CHECK: ttg.async_copy_global_to_local
  // CHECK-NEXT: ttg.async_commit_group
  // CHECK-NEXT: ttg.local_load
  // CHECK-NEXT: ttg.local_load
  // CHECK-NEXT: tt.dot
  // CHECK-NEXT: scf.yield
  tt.func public @fma_operand_loads_follow_the_dot(%p: tensor<32x32x!tt.ptr<f16>, #blocked1>, %n: i32, %t0: !ttg.async.token) -> tensor<32x32xf32, #blocked> {
    %c-1 = arith.constant -1 : i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #blocked>
    %ring = ttg.local_alloc : () -> !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable>
    %r:4 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %ins = %c1, %ext = %c-1, %tok = %t0) -> (tensor<32x32xf32, #blocked>, i32, i32, !ttg.async.token) : i32 {
      %e1 = arith.addi %ext, %c1 : i32
      %ew = arith.cmpi sge, %e1, %c2 : i32
      %e = arith.select %ew, %c0, %e1 : i32
      %w = ttg.async_wait %tok {num = 1 : i32}
      %cur = ttg.memdesc_index %ring[%e] : !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
      %a = ttg.local_load %cur token %w : !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
      %b = ttg.local_load %cur token %w : !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
      %d = tt.dot %a, %b, %acc : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<32x32xf32, #blocked>
      %i1 = arith.addi %ins, %c1 : i32
      %iw = arith.cmpi sge, %i1, %c2 : i32
      %in = arith.select %iw, %c0, %i1 : i32
      %next = ttg.memdesc_index %ring[%in] : !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
      %c = ttg.async_copy_global_to_local %p, %next : tensor<32x32x!tt.ptr<f16>, #blocked1> -> <32x32xf16, #shared, #smem, mutable>
      %g = ttg.async_commit_group tokens %c
      scf.yield %d, %in, %e, %g : tensor<32x32xf32, #blocked>, i32, i32, !ttg.async.token
    }
    tt.return %r#0 : tensor<32x32xf32, #blocked>
  }  // A memory write between the operand loads and the copies (a store the
  // loads would pass): the loads stay where they are, the dot still moves.
  // CHECK-LABEL: tt.func public @fma_loads_stay_before_a_store
  // CHECK: ttg.local_load
  // CHECK-NEXT: ttg.local_load
  // CHECK-NEXT: tt.store
  // CHECK: ttg.async_copy_global_to_local
  // CHECK-NEXT: ttg.async_commit_group
  // CHECK-NEXT: tt.dot
  tt.func public @fma_loads_stay_before_a_store(%p: tensor<32x32x!tt.ptr<f16>, #blocked1>, %flag: tensor<32x32x!tt.ptr<f16>, #blocked1>, %v: tensor<32x32xf16, #blocked1>, %n: i32, %t0: !ttg.async.token) -> tensor<32x32xf32, #blocked> {
    %c-1 = arith.constant -1 : i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #blocked>
    %ring = ttg.local_alloc : () -> !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable>
    %r:4 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %ins = %c1, %ext = %c-1, %tok = %t0) -> (tensor<32x32xf32, #blocked>, i32, i32, !ttg.async.token) : i32 {
      %e1 = arith.addi %ext, %c1 : i32
      %ew = arith.cmpi sge, %e1, %c2 : i32
      %e = arith.select %ew, %c0, %e1 : i32
      %w = ttg.async_wait %tok {num = 1 : i32}
      %cur = ttg.memdesc_index %ring[%e] : !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
      %a = ttg.local_load %cur token %w : !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
      %b = ttg.local_load %cur token %w : !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
      tt.store %flag, %v : tensor<32x32x!tt.ptr<f16>, #blocked1>
      %d = tt.dot %a, %b, %acc : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<32x32xf32, #blocked>
      %i1 = arith.addi %ins, %c1 : i32
      %iw = arith.cmpi sge, %i1, %c2 : i32
      %in = arith.select %iw, %c0, %i1 : i32
      %next = ttg.memdesc_index %ring[%in] : !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
      %c = ttg.async_copy_global_to_local %p, %next : tensor<32x32x!tt.ptr<f16>, #blocked1> -> <32x32xf16, #shared, #smem, mutable>
      %g = ttg.async_commit_group tokens %c
      scf.yield %d, %in, %e, %g : tensor<32x32xf32, #blocked>, i32, i32, !ttg.async.token
    }
    tt.return %r#0 : tensor<32x32xf32, #blocked>
  }
}
