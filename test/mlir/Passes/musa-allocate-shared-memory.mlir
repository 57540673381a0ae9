// Liveness-based shared-memory allocation: offsets, reuse of dead buffers,
// loops, deallocation, calls.
// RUN: musa-opt %s -split-input-file --musa-allocate-shared-memory=arch=mp_31 | FileCheck %s

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
// Two buffers live together get disjoint bytes; the conversion's scratch
// (32x32xf32 = 4096 B) comes after both died and reuses offset 0.
// CHECK: module attributes {{.*}}ttg.shared = 4096 : i32
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
  // CHECK-LABEL: tt.func public @reuse
  tt.func public @reuse(%x: tensor<32x32xf16, #blocked>, %y: tensor<32x32xf32, #blocked>) {
    // CHECK: ttg.local_alloc %{{.*}} {allocation.offset = 0 : i32}
    %a = ttg.local_alloc %x : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
    // CHECK: ttg.local_alloc %{{.*}} {allocation.offset = 2048 : i32}
    %b = ttg.local_alloc %x : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
    %la = ttg.local_load %a : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf16, #blocked1>
    %lb = ttg.local_load %b : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf16, #blocked1>
    // CHECK: ttg.convert_layout %{{.*}} {allocation.offset = 0 : i32}
    %c = ttg.convert_layout %y : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #blocked1>
    // A register-only conversion needs no scratch: no offset between operand and type.
    // CHECK: ttg.convert_layout %{{[^ ]+}} : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #blocked>
    %d = ttg.convert_layout %y : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
// A buffer read in a loop stays live over the whole loop, even after its
// last use in program order: the scratch after the load must not reuse it.
// CHECK: module attributes {{.*}}ttg.shared = 6144 : i32
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
  // CHECK-LABEL: tt.func public @loop
  tt.func public @loop(%x: tensor<32x32xf16, #blocked>, %y: tensor<32x32xf32, #blocked>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // CHECK: ttg.local_alloc %{{.*}} {allocation.offset = 4096 : i32}
    %a = ttg.local_alloc %x : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %l = ttg.local_load %a : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf16, #blocked1>
      // CHECK: ttg.convert_layout %{{.*}} {allocation.offset = 0 : i32}
      %c = ttg.convert_layout %y : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #blocked1>
    }
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
// A deallocated buffer's bytes are free again; views (memdesc_index) keep
// the multi-buffered allocation live; alignment raises the offset.
// CHECK: module attributes {{.*}}ttg.shared = 8192 : i32
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
  // CHECK-LABEL: tt.func public @dealloc
  tt.func public @dealloc(%x: tensor<32x32xf16, #blocked>, %i: i32) {
    // CHECK: ttg.local_alloc {allocation.offset = 0 : i32}
    %a = ttg.local_alloc : () -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
    ttg.local_store %x, %a : tensor<32x32xf16, #blocked> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
    ttg.local_dealloc %a : !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
    // CHECK: ttg.local_alloc {allocation.offset = 0 : i32}
    %b = ttg.local_alloc : () -> !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable>
    // 8 bytes, alignment 256: after %b's 4096 bytes.
    // CHECK: ttg.local_alloc {alignment = 256 : i32, allocation.offset = 4096 : i32}
    %c = ttg.local_alloc {alignment = 256 : i32} : () -> !ttg.memdesc<2x2xf16, #shared, #smem, mutable>
    %v = ttg.memdesc_index %b[%i] : !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
    ttg.local_store %x, %v : tensor<32x32xf16, #blocked> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
    ttg.local_dealloc %c : !ttg.memdesc<2x2xf16, #shared, #smem, mutable>
    // %b is dead here, %c too: 8192 bytes fit at 0.
    // CHECK: ttg.local_alloc {allocation.offset = 0 : i32}
    %d = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
// A callee's buffers start above its caller's: the kernel needs 2048
// bytes, the callee's scratch goes to 2048.
// CHECK: module attributes {{.*}}ttg.shared = 6144 : i32
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
  // CHECK-LABEL: tt.func public @caller
  tt.func public @caller(%x: tensor<32x32xf16, #blocked>, %y: tensor<32x32xf32, #blocked>) {
    // CHECK: ttg.local_alloc %{{.*}} {allocation.offset = 0 : i32}
    %a = ttg.local_alloc %x : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
    tt.call @callee(%y) : (tensor<32x32xf32, #blocked>) -> ()
    %l = ttg.local_load %a : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf16, #blocked1>
    tt.return
  }
  // CHECK-LABEL: tt.func private @callee
  tt.func private @callee(%y: tensor<32x32xf32, #blocked>) {
    // CHECK: ttg.convert_layout %{{.*}} {allocation.offset = 2048 : i32}
    %c = ttg.convert_layout %y : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #blocked1>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
// An async copy keeps writing its buffer until the next ttg.async_wait, even
// if nothing reads it: %a must not share bytes with the conversion's scratch
// (32x64xf32 = 8192 B) placed between the copy and the wait. Without that
// rule %a would be dead after the copy and the scratch would reuse offset 0.
// CHECK: module attributes {{.*}}ttg.shared = 12288 : i32
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
  // CHECK-LABEL: tt.func public @copy_live_until_wait
  tt.func public @copy_live_until_wait(%p: tensor<32x64x!tt.ptr<f16>, #blocked>, %y: tensor<32x64xf32, #blocked>) {
    // CHECK: ttg.local_alloc {allocation.offset = 8192 : i32}
    %a = ttg.local_alloc : () -> !ttg.memdesc<32x64xf16, #shared, #smem, mutable>
    %t = ttg.async_copy_global_to_local %p, %a : tensor<32x64x!tt.ptr<f16>, #blocked> -> <32x64xf16, #shared, #smem, mutable>
    %g = ttg.async_commit_group tokens %t
    // CHECK: ttg.convert_layout %{{.*}} {allocation.offset = 0 : i32}
    %c = ttg.convert_layout %y : tensor<32x64xf32, #blocked> -> tensor<32x64xf32, #blocked1>
    %w = ttg.async_wait {num = 0 : i32}
    // After the wait the bytes are free again.
    // CHECK: ttg.convert_layout %{{.*}} {allocation.offset = 0 : i32}
    %d = ttg.convert_layout %y : tensor<32x64xf32, #blocked> -> tensor<32x64xf32, #blocked1>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
// A pipelined loop: the ring is used in the loop, the last refills are
// waited for after it, so the ring lives until that wait and the scratch of
// the conversion between loop and wait does not overlap it.
// CHECK: module attributes {{.*}}ttg.shared = 6144 : i32
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
  // CHECK-LABEL: tt.func public @ring_live_until_last_wait
  tt.func public @ring_live_until_last_wait(%p: tensor<512x!tt.ptr<f32>, #blocked>, %y: tensor<512xf32, #blocked>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // CHECK: ttg.local_alloc {allocation.offset = 0 : i32}
    %bufs = ttg.local_alloc : () -> !ttg.memdesc<2x512xf32, #shared, #smem, mutable>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %b = ttg.memdesc_index %bufs[%i] : !ttg.memdesc<2x512xf32, #shared, #smem, mutable> -> !ttg.memdesc<512xf32, #shared, #smem, mutable>
      %t = ttg.async_copy_global_to_local %p, %b : tensor<512x!tt.ptr<f32>, #blocked> -> <512xf32, #shared, #smem, mutable>
      %g = ttg.async_commit_group tokens %t
    }
    // CHECK: ttg.convert_layout %{{.*}} {allocation.offset = 4096 : i32}
    %c = ttg.convert_layout %y : tensor<512xf32, #blocked> -> tensor<512xf32, #blocked1>
    %w = ttg.async_wait {num = 0 : i32}
    tt.return
  }
}
