// mp_22 twin of ../async-copy.mlir (128-lane warps, 4x the rows); checked there.

// 128x64 f16, 8 contiguous elements per thread along the row: two 16-byte
// copies per thread, each under its mask; masked-off vectors get `other`.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 128 : i32, ttg.target = "musa:mp_22"} {
  // The masked-off vector: `other` (1.0) stored to shared memory, 16 bytes.
  // Commit groups are nothing; the wait waits for this thread's copies, then
  // synchronizes the block.
  // Only one wait, and the local_load reads shared memory after it.
  tt.func public @copy_masked(%ptrs: tensor<128x64x!tt.ptr<f16>, #blocked> {tt.divisibility = 16 : i32}, %mask: tensor<128x64xi1, #blocked>) -> tensor<128x64xf16, #blocked> {
    %other = arith.constant dense<1.000000e+00> : tensor<128x64xf16, #blocked>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    %t = ttg.async_copy_global_to_local %ptrs, %buf mask %mask other %other cacheModifier = cg {contiguity = 8 : i32} : tensor<128x64x!tt.ptr<f16>, #blocked> -> <128x64xf16, #shared, #smem, mutable>
    %g = ttg.async_commit_group tokens %t
    %w = ttg.async_wait %g {num = 0 : i32}
    %v = ttg.local_load %buf token %w : !ttg.memdesc<128x64xf16, #shared, #smem, mutable> -> tensor<128x64xf16, #blocked>
    tt.return %v : tensor<128x64xf16, #blocked>
  }
}

// -----

// A mask and no `other`: zeros where it is off.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 128 : i32, ttg.target = "musa:mp_22"} {
  tt.func public @copy_masked_zero(%ptrs: tensor<128x64x!tt.ptr<f16>, #blocked> {tt.divisibility = 16 : i32}, %mask: tensor<128x64xi1, #blocked>) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    %t = ttg.async_copy_global_to_local %ptrs, %buf mask %mask {contiguity = 8 : i32} : tensor<128x64x!tt.ptr<f16>, #blocked> -> <128x64xf16, #shared, #smem, mutable>
    %g = ttg.async_commit_group tokens %t
    tt.return
  }
}

// -----

// Without a mask every vector is copied; no shared store at all.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 128 : i32, ttg.target = "musa:mp_22"} {
  tt.func public @copy_unmasked(%ptrs: tensor<128x64x!tt.ptr<f16>, #blocked> {tt.divisibility = 16 : i32}) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    %t = ttg.async_copy_global_to_local %ptrs, %buf {contiguity = 8 : i32} : tensor<128x64x!tt.ptr<f16>, #blocked> -> <128x64xf16, #shared, #smem, mutable>
    %g = ttg.async_commit_group tokens %t
    %w = ttg.async_wait %g {num = 0 : i32}
    tt.return
  }
}

// -----

// Four f16 per thread and vector: one 8-byte copy per vector.
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [16, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 128 : i32, ttg.target = "musa:mp_22"} {
  tt.func public @copy_8_bytes(%ptrs: tensor<64x32x!tt.ptr<f16>, #blocked> {tt.divisibility = 16 : i32}) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    %t = ttg.async_copy_global_to_local %ptrs, %buf {contiguity = 4 : i32} : tensor<64x32x!tt.ptr<f16>, #blocked> -> <64x32xf16, #shared, #smem, mutable>
    %g = ttg.async_commit_group tokens %t
    tt.return
  }
}

// -----

// One f16 per thread and vector (2 bytes, under the 4-byte minimum of a g2s
// copy): a plain global load (or `other`) and a plain shared store.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 128 : i32, ttg.target = "musa:mp_22"} {
  tt.func public @copy_narrow(%ptrs: tensor<64x32x!tt.ptr<f16>, #blocked>, %mask: tensor<64x32xi1, #blocked>) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    %t = ttg.async_copy_global_to_local %ptrs, %buf mask %mask : tensor<64x32x!tt.ptr<f16>, #blocked> -> <64x32xf16, #shared, #smem, mutable>
    %g = ttg.async_commit_group tokens %t
    tt.return
  }
}

// -----

// A two-stage pipelined loop as Triton emits it: tokens are loop-carried
// (as i32 0: the block argument after the slot), each iteration waits (whatever `num` says, for all of the
// thread's copies, then a block barrier), reads one buffer and refills the
// other.
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [128], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 128 : i32, ttg.target = "musa:mp_22"} {
  // The refill of the other buffer waits for every thread's reads of the
  // ring (--musa-insert-barriers: a copy writes its whole allocation).
  // After the loop: the last wait.
  tt.func public @loop(%ptrs: tensor<2048x!tt.ptr<f32>, #blocked> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<2048xf32, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<2048xf32, #blocked>
    %bufs = ttg.local_alloc : () -> !ttg.memdesc<2x2048xf32, #shared, #smem, mutable>
    %b0 = ttg.memdesc_index %bufs[%c0] : !ttg.memdesc<2x2048xf32, #shared, #smem, mutable> -> !ttg.memdesc<2048xf32, #shared, #smem, mutable>
    %t0 = ttg.async_copy_global_to_local %ptrs, %b0 {contiguity = 4 : i32} : tensor<2048x!tt.ptr<f32>, #blocked> -> <2048xf32, #shared, #smem, mutable>
    %g0 = ttg.async_commit_group tokens %t0
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %slot = %c0, %tok = %g0) -> (tensor<2048xf32, #blocked>, i32, !ttg.async.token) : i32 {
      %w = ttg.async_wait %tok {num = 1 : i32}
      %cur = ttg.memdesc_index %bufs[%slot] : !ttg.memdesc<2x2048xf32, #shared, #smem, mutable> -> !ttg.memdesc<2048xf32, #shared, #smem, mutable>
      %v = ttg.local_load %cur token %w : !ttg.memdesc<2048xf32, #shared, #smem, mutable> -> tensor<2048xf32, #blocked>
      %sum = arith.addf %acc, %v : tensor<2048xf32, #blocked>
      %next = arith.xori %slot, %c1 : i32
      %nb = ttg.memdesc_index %bufs[%next] : !ttg.memdesc<2x2048xf32, #shared, #smem, mutable> -> !ttg.memdesc<2048xf32, #shared, #smem, mutable>
      %t = ttg.async_copy_global_to_local %ptrs, %nb {contiguity = 4 : i32} : tensor<2048x!tt.ptr<f32>, #blocked> -> <2048xf32, #shared, #smem, mutable>
      %g = ttg.async_commit_group tokens %t
      scf.yield %sum, %next, %g : tensor<2048xf32, #blocked>, i32, !ttg.async.token
    }
    %done = ttg.async_wait {num = 0 : i32}
    tt.return %r#0 : tensor<2048xf32, #blocked>
  }
}
