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
