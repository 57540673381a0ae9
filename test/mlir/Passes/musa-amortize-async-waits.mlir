// --musa-amortize-async-waits: in a loop whose ring is filled L iterations
// ahead, the wait for the copies (on MUSA, for all of them) runs once every
// L iterations; loops of any other shape are left alone.
// RUN: musa-opt %s -split-input-file --musa-amortize-async-waits | FileCheck %s

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
  // Two commit groups per iteration, two in flight: the ring is filled two
  // iterations ahead, so the wait runs in every other iteration; its
  // barrier stays in each. The read takes the token the wait waited on.
  // CHECK-LABEL: tt.func public @two_iterations_ahead
  // CHECK: scf.for %[[IV:.*]] = %[[LB:[^ ]*]] to %{{.*}} step %[[STEP:[^ ]*]] iter_args(%{{[^,]*}}, %[[TOK:[^ ]*]] = %{{[^)]*}})
  // CHECK: %[[D:.*]] = arith.subi %[[IV]], %[[LB]] : i32
  // CHECK-NEXT: %[[N:.*]] = arith.divui %[[D]], %[[STEP]] : i32
  // CHECK-NEXT: %[[PERIOD:.*]] = arith.constant 2 : i32
  // CHECK-NEXT: %[[PHASE:.*]] = arith.remui %[[N]], %[[PERIOD]] : i32
  // CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i32
  // CHECK-NEXT: %[[FIRST:.*]] = arith.cmpi eq, %[[PHASE]], %[[ZERO]] : i32
  // CHECK-NEXT: musagpu.async_copy_wait %[[FIRST]]
  // CHECK-NEXT: ttg.local_barrier
  // CHECK-NEXT: ttg.local_load %{{.*}} token %[[TOK]]
  // CHECK-NOT: ttg.async_wait
  tt.func public @two_iterations_ahead(%p: tensor<32x32x!tt.ptr<f16>, #blocked>, %n: i32, %t0: !ttg.async.token) -> tensor<32x32xf16, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf16, #blocked>
    %ring = ttg.local_alloc : () -> !ttg.memdesc<3x32x32xf16, #shared, #smem, mutable>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %tok = %t0) -> (tensor<32x32xf16, #blocked>, !ttg.async.token) : i32 {
      %slot = ttg.memdesc_index %ring[%i] : !ttg.memdesc<3x32x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
      %w = ttg.async_wait %tok {num = 2 : i32}
      %x = ttg.local_load %slot token %w : !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> tensor<32x32xf16, #blocked>
      %s = arith.addf %acc, %x : tensor<32x32xf16, #blocked>
      %cp0 = ttg.async_copy_global_to_local %p, %slot : tensor<32x32x!tt.ptr<f16>, #blocked> -> <32x32xf16, #shared, #smem, mutable>
      %g0 = ttg.async_commit_group tokens %cp0
      %cp1 = ttg.async_copy_global_to_local %p, %slot : tensor<32x32x!tt.ptr<f16>, #blocked> -> <32x32xf16, #shared, #smem, mutable>
      %g1 = ttg.async_commit_group tokens %cp1
      scf.yield %s, %g1 : tensor<32x32xf16, #blocked>, !ttg.async.token
    }
    tt.return %r#0 : tensor<32x32xf16, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
  // num = 4 with two groups per iteration: L = 3.
  // CHECK-LABEL: tt.func public @three_iterations_ahead
  // CHECK: %[[PERIOD:.*]] = arith.constant 3 : i32
  // CHECK-NEXT: arith.remui %{{.*}}, %[[PERIOD]] : i32
  // CHECK: musagpu.async_copy_wait
  tt.func public @three_iterations_ahead(%p: tensor<32x32x!tt.ptr<f16>, #blocked>, %n: i32, %t0: !ttg.async.token) -> tensor<32x32xf16, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf16, #blocked>
    %ring = ttg.local_alloc : () -> !ttg.memdesc<3x32x32xf16, #shared, #smem, mutable>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %tok = %t0) -> (tensor<32x32xf16, #blocked>, !ttg.async.token) : i32 {
      %slot = ttg.memdesc_index %ring[%i] : !ttg.memdesc<3x32x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
      %w = ttg.async_wait %tok {num = 4 : i32}
      %x = ttg.local_load %slot token %w : !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> tensor<32x32xf16, #blocked>
      %s = arith.addf %acc, %x : tensor<32x32xf16, #blocked>
      %cp0 = ttg.async_copy_global_to_local %p, %slot : tensor<32x32x!tt.ptr<f16>, #blocked> -> <32x32xf16, #shared, #smem, mutable>
      %g0 = ttg.async_commit_group tokens %cp0
      %cp1 = ttg.async_copy_global_to_local %p, %slot : tensor<32x32x!tt.ptr<f16>, #blocked> -> <32x32xf16, #shared, #smem, mutable>
      %g1 = ttg.async_commit_group tokens %cp1
      scf.yield %s, %g1 : tensor<32x32xf16, #blocked>, !ttg.async.token
    }
    tt.return %r#0 : tensor<32x32xf16, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
  // num = 1 is not a whole number of iterations' groups: left alone.
  // CHECK-LABEL: tt.func public @one_iteration_ahead
  // CHECK-NOT: musagpu.async_copy_wait
  // CHECK: ttg.async_wait %{{.*}} {num = 1 : i32}
  // CHECK-NOT: musagpu.async_copy_wait
  tt.func public @one_iteration_ahead(%p: tensor<32x32x!tt.ptr<f16>, #blocked>, %n: i32, %t0: !ttg.async.token) -> tensor<32x32xf16, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf16, #blocked>
    %ring = ttg.local_alloc : () -> !ttg.memdesc<3x32x32xf16, #shared, #smem, mutable>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %tok = %t0) -> (tensor<32x32xf16, #blocked>, !ttg.async.token) : i32 {
      %slot = ttg.memdesc_index %ring[%i] : !ttg.memdesc<3x32x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
      %w = ttg.async_wait %tok {num = 1 : i32}
      %x = ttg.local_load %slot token %w : !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> tensor<32x32xf16, #blocked>
      %s = arith.addf %acc, %x : tensor<32x32xf16, #blocked>
      %cp0 = ttg.async_copy_global_to_local %p, %slot : tensor<32x32x!tt.ptr<f16>, #blocked> -> <32x32xf16, #shared, #smem, mutable>
      %g0 = ttg.async_commit_group tokens %cp0
      %cp1 = ttg.async_copy_global_to_local %p, %slot : tensor<32x32x!tt.ptr<f16>, #blocked> -> <32x32xf16, #shared, #smem, mutable>
      %g1 = ttg.async_commit_group tokens %cp1
      scf.yield %s, %g1 : tensor<32x32xf16, #blocked>, !ttg.async.token
    }
    tt.return %r#0 : tensor<32x32xf16, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
  // num = 0: each iteration needs what the previous one copied (L = 1).
  // CHECK-LABEL: tt.func public @nothing_in_flight
  // CHECK-NOT: musagpu.async_copy_wait
  // CHECK: ttg.async_wait %{{.*}} {num = 0 : i32}
  // CHECK-NOT: musagpu.async_copy_wait
  tt.func public @nothing_in_flight(%p: tensor<32x32x!tt.ptr<f16>, #blocked>, %n: i32, %t0: !ttg.async.token) -> tensor<32x32xf16, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf16, #blocked>
    %ring = ttg.local_alloc : () -> !ttg.memdesc<3x32x32xf16, #shared, #smem, mutable>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %tok = %t0) -> (tensor<32x32xf16, #blocked>, !ttg.async.token) : i32 {
      %slot = ttg.memdesc_index %ring[%i] : !ttg.memdesc<3x32x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
      %w = ttg.async_wait %tok {num = 0 : i32}
      %x = ttg.local_load %slot token %w : !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> tensor<32x32xf16, #blocked>
      %s = arith.addf %acc, %x : tensor<32x32xf16, #blocked>
      %cp0 = ttg.async_copy_global_to_local %p, %slot : tensor<32x32x!tt.ptr<f16>, #blocked> -> <32x32xf16, #shared, #smem, mutable>
      %g0 = ttg.async_commit_group tokens %cp0
      %cp1 = ttg.async_copy_global_to_local %p, %slot : tensor<32x32x!tt.ptr<f16>, #blocked> -> <32x32xf16, #shared, #smem, mutable>
      %g1 = ttg.async_commit_group tokens %cp1
      scf.yield %s, %g1 : tensor<32x32xf16, #blocked>, !ttg.async.token
    }
    tt.return %r#0 : tensor<32x32xf16, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
  // A group committed before the wait is covered by its own iteration's
  // wait: the lookahead is not num / G + 1, so the loop is left alone.
  // CHECK-LABEL: tt.func public @copy_before_wait
  // CHECK-NOT: musagpu.async_copy_wait
  // CHECK: ttg.async_wait %{{.*}} {num = 2 : i32}
  // CHECK-NOT: musagpu.async_copy_wait
  tt.func public @copy_before_wait(%p: tensor<32x32x!tt.ptr<f16>, #blocked>, %n: i32, %t0: !ttg.async.token) -> tensor<32x32xf16, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf16, #blocked>
    %ring = ttg.local_alloc : () -> !ttg.memdesc<3x32x32xf16, #shared, #smem, mutable>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %tok = %t0) -> (tensor<32x32xf16, #blocked>, !ttg.async.token) : i32 {
      %slot = ttg.memdesc_index %ring[%i] : !ttg.memdesc<3x32x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
      %e = ttg.async_copy_global_to_local %p, %slot : tensor<32x32x!tt.ptr<f16>, #blocked> -> <32x32xf16, #shared, #smem, mutable>
      %f = ttg.async_commit_group tokens %e
      %w = ttg.async_wait %tok {num = 2 : i32}
      %x = ttg.local_load %slot token %w : !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> tensor<32x32xf16, #blocked>
      %s = arith.addf %acc, %x : tensor<32x32xf16, #blocked>
      %cp0 = ttg.async_copy_global_to_local %p, %slot : tensor<32x32x!tt.ptr<f16>, #blocked> -> <32x32xf16, #shared, #smem, mutable>
      %g0 = ttg.async_commit_group tokens %cp0
      scf.yield %s, %g0 : tensor<32x32xf16, #blocked>, !ttg.async.token
    }
    tt.return %r#0 : tensor<32x32xf16, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
  // Two waits in the body: left alone.
  // CHECK-LABEL: tt.func public @second_wait
  // CHECK-NOT: musagpu.async_copy_wait
  // CHECK: ttg.async_wait
  // CHECK-NEXT: ttg.async_wait
  // CHECK-NOT: musagpu.async_copy_wait
  tt.func public @second_wait(%p: tensor<32x32x!tt.ptr<f16>, #blocked>, %n: i32, %t0: !ttg.async.token) -> tensor<32x32xf16, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf16, #blocked>
    %ring = ttg.local_alloc : () -> !ttg.memdesc<3x32x32xf16, #shared, #smem, mutable>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %tok = %t0) -> (tensor<32x32xf16, #blocked>, !ttg.async.token) : i32 {
      %slot = ttg.memdesc_index %ring[%i] : !ttg.memdesc<3x32x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
      %w = ttg.async_wait %tok {num = 2 : i32}
      %w2 = ttg.async_wait %tok {num = 2 : i32}
      %x = ttg.local_load %slot token %w : !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> tensor<32x32xf16, #blocked>
      %s = arith.addf %acc, %x : tensor<32x32xf16, #blocked>
      %cp0 = ttg.async_copy_global_to_local %p, %slot : tensor<32x32x!tt.ptr<f16>, #blocked> -> <32x32xf16, #shared, #smem, mutable>
      %g0 = ttg.async_commit_group tokens %cp0
      %cp1 = ttg.async_copy_global_to_local %p, %slot : tensor<32x32x!tt.ptr<f16>, #blocked> -> <32x32xf16, #shared, #smem, mutable>
      %g1 = ttg.async_commit_group tokens %cp1
      scf.yield %s, %g1 : tensor<32x32xf16, #blocked>, !ttg.async.token
    }
    tt.return %r#0 : tensor<32x32xf16, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
  // A copy under a condition: the groups per iteration are unknown.
  // CHECK-LABEL: tt.func public @conditional_copy
  // CHECK: ttg.async_wait %{{.*}} {num = 2 : i32}
  // CHECK-NOT: musagpu.async_copy_wait
  tt.func public @conditional_copy(%p: tensor<32x32x!tt.ptr<f16>, #blocked>, %n: i32, %t0: !ttg.async.token) -> tensor<32x32xf16, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf16, #blocked>
    %ring = ttg.local_alloc : () -> !ttg.memdesc<3x32x32xf16, #shared, #smem, mutable>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %tok = %t0) -> (tensor<32x32xf16, #blocked>, !ttg.async.token) : i32 {
      %slot = ttg.memdesc_index %ring[%i] : !ttg.memdesc<3x32x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
      %w = ttg.async_wait %tok {num = 2 : i32}
      %x = ttg.local_load %slot token %w : !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> tensor<32x32xf16, #blocked>
      %s = arith.addf %acc, %x : tensor<32x32xf16, #blocked>
      %cp0 = ttg.async_copy_global_to_local %p, %slot : tensor<32x32x!tt.ptr<f16>, #blocked> -> <32x32xf16, #shared, #smem, mutable>
      %g0 = ttg.async_commit_group tokens %cp0
      %cnd = arith.cmpi slt, %i, %n : i32
      %g1 = scf.if %cnd -> (!ttg.async.token) {
        %c1c = ttg.async_copy_global_to_local %p, %slot : tensor<32x32x!tt.ptr<f16>, #blocked> -> <32x32xf16, #shared, #smem, mutable>
        %gg = ttg.async_commit_group tokens %c1c
        scf.yield %gg : !ttg.async.token
      } else {
        scf.yield %tok : !ttg.async.token
      }
      scf.yield %s, %g1 : tensor<32x32xf16, #blocked>, !ttg.async.token
    }
    tt.return %r#0 : tensor<32x32xf16, #blocked>
  }
}
