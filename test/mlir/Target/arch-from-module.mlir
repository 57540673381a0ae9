// With no arch= option, every MUSA pass compiles for the architecture the
// module names in ttg.target: the same pipeline lowers a musa:mp_22 module to
// 128-thread warps and a musa:mp_31 module to 32-thread warps. arch= still
// overrides it (last RUN line: an mp_31 module lowered for mp_22 is refused
// on its warp size).
// RUN: musa-opt %s -split-input-file --pass-pipeline='builtin.module(musa-allocate-shared-memory,musa-insert-barriers,convert-tritongpu-to-musa)' | FileCheck %s
// RUN: musa-opt %s -split-input-file --pass-pipeline='builtin.module(musa-allocate-shared-memory,musa-insert-barriers,convert-tritongpu-to-musa{target=emulator})' | FileCheck %s --check-prefix=EMU
// RUN: not musa-opt %s -split-input-file --pass-pipeline='builtin.module(convert-tritongpu-to-musa{arch=mp_22})' 2>&1 | FileCheck %s --check-prefix=OVERRIDE

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [128], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  // 4 warps of 128 threads; lane = tid & 127, warp = tid >> 7.
  // CHECK-LABEL: llvm.func @qy2(
  // CHECK-SAME: musa.maxntidx = 512 : i32
  // CHECK: %[[TID:.*]] = llvm.call @llvm.musa.read.ptx.sreg.tid.x()
  // CHECK: %[[M:.*]] = llvm.mlir.constant(127 : i32) : i32
  // CHECK: llvm.and %[[TID]], %[[M]] : i32
  // CHECK: %[[S:.*]] = llvm.mlir.constant(7 : i32) : i32
  // CHECK: llvm.lshr %[[TID]], %[[S]] : i32
  // EMU-LABEL: llvm.func @qy2(
  // EMU: llvm.call @__musa_emu_thread_id(
  // EMU: llvm.mlir.constant(127 : i32) : i32
  tt.func public @qy2(%out: !tt.ptr<i32>) {
    %r = tt.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32, #blocked>
    %p = tt.splat %out : !tt.ptr<i32> -> tensor<2048x!tt.ptr<i32>, #blocked>
    %q = tt.addptr %p, %r : tensor<2048x!tt.ptr<i32>, #blocked>, tensor<2048xi32, #blocked>
    tt.store %q, %r : tensor<2048x!tt.ptr<i32>, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // 4 warps of 32 threads; lane = tid & 31, warp = tid >> 5.
  // CHECK-LABEL: llvm.func @ph1(
  // CHECK-SAME: musa.maxntidx = 128 : i32
  // CHECK: %[[TID:.*]] = llvm.call @llvm.musa.read.ptx.sreg.tid.x()
  // CHECK: %[[M:.*]] = llvm.mlir.constant(31 : i32) : i32
  // CHECK: llvm.and %[[TID]], %[[M]] : i32
  // CHECK: %[[S:.*]] = llvm.mlir.constant(5 : i32) : i32
  // CHECK: llvm.lshr %[[TID]], %[[S]] : i32
  // EMU-LABEL: llvm.func @ph1(
  // EMU: llvm.call @__musa_emu_thread_id(
  // EMU: llvm.mlir.constant(31 : i32) : i32
  // OVERRIDE: error: "ttg.threads-per-warp" = 32 does not match arch mp_22, whose warps have 128 threads
  tt.func public @ph1(%out: !tt.ptr<i32>) {
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %p = tt.splat %out : !tt.ptr<i32> -> tensor<512x!tt.ptr<i32>, #blocked>
    %q = tt.addptr %p, %r : tensor<512x!tt.ptr<i32>, #blocked>, tensor<512xi32, #blocked>
    tt.store %q, %r : tensor<512x!tt.ptr<i32>, #blocked>
    tt.return
  }
}
