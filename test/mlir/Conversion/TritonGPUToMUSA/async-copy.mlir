// ttg.async_copy_global_to_local / ttg.async_commit_group / ttg.async_wait
// (what Triton's pipeliner emits for num_stages > 1): each thread copies its
// 16-byte vectors with llvm.musa.memcpy.g2s, a masked-off vector gets `other`
// (zero by default) by a plain shared store, vectors under 4 bytes are a
// plain load + store, a commit group is nothing, and a wait is
// llvm.musa.memcpy.g2s.wait followed by a block barrier. On the emulator the
// same hooks are runtime calls. The mp_22 input is the same kernels with
// 128-lane warps.
// RUN: musa-opt %s -split-input-file --musa-allocate-shared-memory=arch=mp_31 --musa-insert-barriers=arch=mp_31 --convert-tritongpu-to-musa=arch=mp_31 -o %t.mp_31.mlir
// RUN: FileCheck %s --check-prefixes=CHECK,MUSA --input-file=%t.mp_31.mlir --implicit-check-not="!llvm.ptr<1> -> vector"
// RUN: musa-opt %S/Inputs/async-copy.mp_22.mlir -split-input-file --musa-allocate-shared-memory=arch=mp_22 --musa-insert-barriers=arch=mp_22 --convert-tritongpu-to-musa=arch=mp_22 -o %t.mp_22.mlir
// RUN: FileCheck %s --check-prefixes=CHECK,MUSA --input-file=%t.mp_22.mlir --implicit-check-not="!llvm.ptr<1> -> vector"
// RUN: musa-opt %s -split-input-file --musa-allocate-shared-memory=arch=mp_31 --musa-insert-barriers=arch=mp_31 "--convert-tritongpu-to-musa=arch=mp_31 target=emulator" -o %t.emu.mlir
// RUN: FileCheck %s --check-prefixes=CHECK,EMU --input-file=%t.emu.mlir --implicit-check-not="!llvm.ptr<1> -> vector"
// RUN: musa-opt %s -split-input-file --musa-allocate-shared-memory=arch=mp_31 --musa-insert-barriers=arch=mp_31 "--convert-tritongpu-to-musa=arch=mp_31 target=proxy" -o %t.proxy.mlir
// RUN: FileCheck %s --check-prefix=PROXY --input-file=%t.proxy.mlir --implicit-check-not="!llvm.ptr<1> -> vector"
// On the proxy a copy is cp.async: `.cg` (L1 bypassed) for 16 bytes, `.ca`
// (the only form there is) for 4 and 8; the wait is cp.async.wait.all.
// A synchronous vector load from global memory (what a copy lowered as a
// plain load would print) appears nowhere (--implicit-check-not).

// 32x64 f16, 8 contiguous elements per thread along the row: two 16-byte
// copies per thread, each under its mask; masked-off vectors get `other`.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
  // CHECK-LABEL: llvm.func @copy_masked
  // PROXY-LABEL: llvm.func @copy_masked
  // PROXY: llvm.cond_br
  // PROXY: llvm.call @llvm.nvvm.cp.async.cg.shared.global.16(
  // CHECK: llvm.cond_br %{{.*}}, ^[[COPY:bb[0-9]+]], ^[[SKIP:bb[0-9]+]]
  // CHECK: ^[[COPY]]:
  // MUSA: llvm.call @llvm.musa.memcpy.g2s(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {convergent, no_unwind} : (!llvm.ptr<3>, !llvm.ptr<1>, i32, i32) -> ()
  // EMU: llvm.call @__musa_emu_async_copy(%{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr<3>, !llvm.ptr<1>, i32) -> ()
  // CHECK: ^[[SKIP]]:
  // The masked-off vector: `other` (1.0) stored to shared memory, 16 bytes.
  // CHECK: llvm.insertelement
  // CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
  // MUSA: llvm.call @llvm.musa.memcpy.g2s(
  // EMU: llvm.call @__musa_emu_async_copy(
  // CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
  // Commit groups are nothing; the wait waits for this thread's copies, then
  // synchronizes the block.
  // MUSA: llvm.call @llvm.musa.memcpy.g2s.wait() {convergent, no_unwind} : () -> ()
  // MUSA-NEXT: llvm.call @llvm.musa.barrier0()
  // EMU: llvm.call @__musa_emu_async_copy_wait() : () -> ()
  // EMU-NEXT: llvm.call @__musa_emu_barrier()
  // PROXY: llvm.call @llvm.nvvm.cp.async.wait.all() : () -> ()
  // PROXY: llvm.call @llvm.nvvm.barrier.cta.sync.aligned.all(
  // Only one wait, and the local_load reads shared memory after it.
  // MUSA-NOT: llvm.musa.memcpy.g2s.wait
  // EMU-NOT: __musa_emu_async_copy_wait
  // CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
  // CHECK: llvm.return
  tt.func public @copy_masked(%ptrs: tensor<32x64x!tt.ptr<f16>, #blocked> {tt.divisibility = 16 : i32}, %mask: tensor<32x64xi1, #blocked>) -> tensor<32x64xf16, #blocked> {
    %other = arith.constant dense<1.000000e+00> : tensor<32x64xf16, #blocked>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<32x64xf16, #shared, #smem, mutable>
    %t = ttg.async_copy_global_to_local %ptrs, %buf mask %mask other %other cacheModifier = cg {contiguity = 8 : i32} : tensor<32x64x!tt.ptr<f16>, #blocked> -> <32x64xf16, #shared, #smem, mutable>
    %g = ttg.async_commit_group tokens %t
    %w = ttg.async_wait %g {num = 0 : i32}
    %v = ttg.local_load %buf token %w : !ttg.memdesc<32x64xf16, #shared, #smem, mutable> -> tensor<32x64xf16, #blocked>
    tt.return %v : tensor<32x64xf16, #blocked>
  }
}

// -----

// A mask and no `other` (zeros): MUSA branches around each copy and stores
// zeros where the mask is off; the emulator makes each masked copy one
// copy-or-zero call (the mask as its i32 operand), with no branch and no
// shared store; the proxy's cp.async takes a source size instead (0 where the
// mask is off: nothing read, the 16 bytes zero-filled), with no branch and no
// shared store either.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
  // CHECK-LABEL: llvm.func @copy_masked_zero
  // MUSA: llvm.cond_br
  // MUSA: llvm.call @llvm.musa.memcpy.g2s(
  // MUSA: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
  // EMU-NOT: llvm.cond_br
  // EMU: %[[PRED:.*]] = llvm.zext %{{.*}} : i1 to i32
  // EMU: llvm.call @__musa_emu_async_copy_or_zero(%{{.*}}, %{{.*}}, %{{.*}}, %[[PRED]]) : (!llvm.ptr<3>, !llvm.ptr<1>, i32, i32) -> ()
  // EMU: %[[PRED2:.*]] = llvm.zext %{{.*}} : i1 to i32
  // EMU: llvm.call @__musa_emu_async_copy_or_zero(%{{.*}}, %{{.*}}, %{{.*}}, %[[PRED2]]) : (!llvm.ptr<3>, !llvm.ptr<1>, i32, i32) -> ()
  // EMU-NOT: llvm.store {{.*}} !llvm.ptr<3>
  // EMU: llvm.return
  // PROXY-LABEL: llvm.func @copy_masked_zero
  // PROXY-NOT: llvm.cond_br
  // PROXY: %[[SIZE:.*]] = llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, i32
  // PROXY: llvm.call @llvm.nvvm.cp.async.cg.shared.global.16.s(%{{.*}}, %{{.*}}, %[[SIZE]])
  // PROXY: %[[SIZE2:.*]] = llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, i32
  // PROXY: llvm.call @llvm.nvvm.cp.async.cg.shared.global.16.s(%{{.*}}, %{{.*}}, %[[SIZE2]])
  // PROXY-NOT: llvm.store {{.*}} !llvm.ptr<3>
  // PROXY-NOT: llvm.cond_br
  // PROXY: llvm.return
  tt.func public @copy_masked_zero(%ptrs: tensor<32x64x!tt.ptr<f16>, #blocked> {tt.divisibility = 16 : i32}, %mask: tensor<32x64xi1, #blocked>) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<32x64xf16, #shared, #smem, mutable>
    %t = ttg.async_copy_global_to_local %ptrs, %buf mask %mask {contiguity = 8 : i32} : tensor<32x64x!tt.ptr<f16>, #blocked> -> <32x64xf16, #shared, #smem, mutable>
    %g = ttg.async_commit_group tokens %t
    tt.return
  }
}

// -----

// Without a mask every vector is copied; no shared store at all.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
  // CHECK-LABEL: llvm.func @copy_unmasked
  // PROXY-LABEL: llvm.func @copy_unmasked
  // Two copies of 16 bytes (prefetch 0 on MUSA).
  // CHECK: %[[B0:.*]] = llvm.mlir.constant(16 : i32) : i32
  // MUSA-NEXT: %[[P0:.*]] = llvm.mlir.constant(0 : i32) : i32
  // MUSA-NEXT: llvm.call @llvm.musa.memcpy.g2s(%{{.*}}, %{{.*}}, %[[B0]], %[[P0]])
  // EMU-NEXT: llvm.call @__musa_emu_async_copy(%{{.*}}, %{{.*}}, %[[B0]])
  // CHECK: %[[B1:.*]] = llvm.mlir.constant(16 : i32) : i32
  // MUSA-NEXT: %[[P1:.*]] = llvm.mlir.constant(0 : i32) : i32
  // MUSA-NEXT: llvm.call @llvm.musa.memcpy.g2s(%{{.*}}, %{{.*}}, %[[B1]], %[[P1]])
  // EMU-NEXT: llvm.call @__musa_emu_async_copy(%{{.*}}, %{{.*}}, %[[B1]])
  // PROXY: llvm.call @llvm.nvvm.cp.async.cg.shared.global.16(%{{.*}}, %{{.*}}) : (!llvm.ptr<3>, !llvm.ptr<1>) -> ()
  // PROXY: llvm.call @llvm.nvvm.cp.async.cg.shared.global.16(
  // PROXY-NOT: cp.async.ca
  // PROXY: llvm.return
  // CHECK-NOT: llvm.store
  // CHECK: llvm.return
  tt.func public @copy_unmasked(%ptrs: tensor<32x64x!tt.ptr<f16>, #blocked> {tt.divisibility = 16 : i32}) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<32x64xf16, #shared, #smem, mutable>
    %t = ttg.async_copy_global_to_local %ptrs, %buf {contiguity = 8 : i32} : tensor<32x64x!tt.ptr<f16>, #blocked> -> <32x64xf16, #shared, #smem, mutable>
    %g = ttg.async_commit_group tokens %t
    %w = ttg.async_wait %g {num = 0 : i32}
    tt.return
  }
}

// -----

// Four f16 per thread and vector: one 8-byte copy per vector.
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
  // CHECK-LABEL: llvm.func @copy_8_bytes
  // PROXY-LABEL: llvm.func @copy_8_bytes
  // CHECK: llvm.mlir.constant(8 : i32) : i32
  // MUSA-NEXT: llvm.mlir.constant(0 : i32) : i32
  // MUSA-NEXT: llvm.call @llvm.musa.memcpy.g2s(
  // EMU-NEXT: llvm.call @__musa_emu_async_copy(
  // PROXY: llvm.call @llvm.nvvm.cp.async.ca.shared.global.8(
  // PROXY-NOT: cp.async.cg
  // PROXY: llvm.return
  // CHECK: llvm.return
  tt.func public @copy_8_bytes(%ptrs: tensor<16x32x!tt.ptr<f16>, #blocked> {tt.divisibility = 16 : i32}) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<16x32xf16, #shared, #smem, mutable>
    %t = ttg.async_copy_global_to_local %ptrs, %buf {contiguity = 4 : i32} : tensor<16x32x!tt.ptr<f16>, #blocked> -> <16x32xf16, #shared, #smem, mutable>
    %g = ttg.async_commit_group tokens %t
    tt.return
  }
}

// -----

// One f16 per thread and vector (2 bytes, under the 4-byte minimum of a g2s
// copy): a plain global load (or `other`) and a plain shared store.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
  // CHECK-LABEL: llvm.func @copy_narrow
  // CHECK: llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr<1> -> f16
  // CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 2 : i64} : f16, !llvm.ptr<3>
  // MUSA-NOT: llvm.musa.memcpy.g2s(
  // EMU-NOT: __musa_emu_async_copy(
  // CHECK: llvm.return
  tt.func public @copy_narrow(%ptrs: tensor<16x32x!tt.ptr<f16>, #blocked>, %mask: tensor<16x32xi1, #blocked>) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<16x32xf16, #shared, #smem, mutable>
    %t = ttg.async_copy_global_to_local %ptrs, %buf mask %mask : tensor<16x32x!tt.ptr<f16>, #blocked> -> <16x32xf16, #shared, #smem, mutable>
    %g = ttg.async_commit_group tokens %t
    tt.return
  }
}

// -----

// A two-stage pipelined loop as Triton emits it: tokens are loop-carried
// (as i32 0: the block argument after the slot), each iteration waits (whatever `num` says, for all of the
// thread's copies, then a block barrier), reads one buffer and refills the
// other.
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
  // CHECK-LABEL: llvm.func @loop
  // MUSA: llvm.call @llvm.musa.memcpy.g2s(
  // EMU: llvm.call @__musa_emu_async_copy(
  // CHECK: llvm.br ^[[HEAD:bb[0-9]+]](
  // CHECK: ^[[HEAD]](%{{.*}}: i32, %{{.*}}: !llvm.struct<(f32, f32, f32, f32)>, %{{.*}}: i32, %{{.*}}: i32):
  // MUSA: llvm.call @llvm.musa.memcpy.g2s.wait()
  // MUSA-NEXT: llvm.call @llvm.musa.barrier0()
  // EMU: llvm.call @__musa_emu_async_copy_wait()
  // EMU-NEXT: llvm.call @__musa_emu_barrier()
  // CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
  // The refill of the other buffer waits for every thread's reads of the
  // ring (--musa-insert-barriers: a copy writes its whole allocation).
  // MUSA: llvm.call @llvm.musa.syncthreads.lm()
  // EMU: llvm.call @__musa_emu_shared_barrier()
  // MUSA: llvm.call @llvm.musa.memcpy.g2s(
  // EMU: llvm.call @__musa_emu_async_copy(
  // CHECK: llvm.br ^[[HEAD]](
  // After the loop: the last wait.
  // MUSA: llvm.call @llvm.musa.memcpy.g2s.wait()
  // EMU: llvm.call @__musa_emu_async_copy_wait()
  tt.func public @loop(%ptrs: tensor<512x!tt.ptr<f32>, #blocked> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<512xf32, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<512xf32, #blocked>
    %bufs = ttg.local_alloc : () -> !ttg.memdesc<2x512xf32, #shared, #smem, mutable>
    %b0 = ttg.memdesc_index %bufs[%c0] : !ttg.memdesc<2x512xf32, #shared, #smem, mutable> -> !ttg.memdesc<512xf32, #shared, #smem, mutable>
    %t0 = ttg.async_copy_global_to_local %ptrs, %b0 {contiguity = 4 : i32} : tensor<512x!tt.ptr<f32>, #blocked> -> <512xf32, #shared, #smem, mutable>
    %g0 = ttg.async_commit_group tokens %t0
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %slot = %c0, %tok = %g0) -> (tensor<512xf32, #blocked>, i32, !ttg.async.token) : i32 {
      %w = ttg.async_wait %tok {num = 1 : i32}
      %cur = ttg.memdesc_index %bufs[%slot] : !ttg.memdesc<2x512xf32, #shared, #smem, mutable> -> !ttg.memdesc<512xf32, #shared, #smem, mutable>
      %v = ttg.local_load %cur token %w : !ttg.memdesc<512xf32, #shared, #smem, mutable> -> tensor<512xf32, #blocked>
      %sum = arith.addf %acc, %v : tensor<512xf32, #blocked>
      %next = arith.xori %slot, %c1 : i32
      %nb = ttg.memdesc_index %bufs[%next] : !ttg.memdesc<2x512xf32, #shared, #smem, mutable> -> !ttg.memdesc<512xf32, #shared, #smem, mutable>
      %t = ttg.async_copy_global_to_local %ptrs, %nb {contiguity = 4 : i32} : tensor<512x!tt.ptr<f32>, #blocked> -> <512xf32, #shared, #smem, mutable>
      %g = ttg.async_commit_group tokens %t
      scf.yield %sum, %next, %g : tensor<512xf32, #blocked>, i32, !ttg.async.token
    }
    %done = ttg.async_wait {num = 0 : i32}
    tt.return %r#0 : tensor<512xf32, #blocked>
  }
}
