// lit's internal shell truncates piped output at 4 KiB here, so the stages
// go through files.
// RUN: musa-opt %s -o %t.1.mlir
// RUN: musa-opt %t.1.mlir -o %t.2.mlir
// RUN: FileCheck %s --input-file=%t.2.mlir
// RUN: musa-opt %s -mlir-print-op-generic -o %t.g.mlir
// RUN: musa-opt %t.g.mlir -o %t.g2.mlir
// RUN: FileCheck %s --input-file=%t.g2.mlir

// Every ttg attribute, type and op in Triton 3.6's text form; aliases are
// renumbered in order of first use, exactly as Triton prints them.

// CHECK-DAG: #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #blocked1 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-DAG: #blocked2 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 4, 8], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
// CHECK-DAG: #linear = #ttg.linear<{register = [], lane = {{\[\[}}0, 1], [0, 2], [0, 4], [1, 0], [2, 0{{\]\]}}, warp = {{\[\[}}4, 0], [8, 0{{\]\]}}, block = []}>
// CHECK-DAG: #shared8 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// CHECK-DAG: #shared9 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
// CHECK-DAG: #shared7 = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [0]}>
// CHECK-DAG: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8, fp4Padded = true, rank = 3}>
// CHECK-DAG: #shared2 = #ttg.padded_shared<[32:+4, 64:+8] {order = [1, 0], shape = [32, 32]}>
// CHECK-DAG: #shared3 = #ttg.padded_shared<[4:+4] {order = [0, 1], shape = [4, 4]}>
// CHECK-DAG: #shared4 = #ttg.padded_shared<[4:+2] {offset = {{\[\[}}0, 1], [1, 0], [0, 2], [2, 0{{\]\]}}, block = []}>
// CHECK-DAG: #shared5 = #ttg.shared_linear<{offset = {{\[\[}}0, 1], [0, 2], [1, 0], [2, 0{{\]\]}}}, alignment = 16>
// CHECK-DAG: #shared6 = #ttg.amd_rotating_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-DAG: #smem = #ttg.shared_memory
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#linear = #ttg.linear<{register = [], lane = [[0, 1], [0, 2], [0, 4], [1, 0], [2, 0]], warp = [[4, 0], [8, 0]], block = []}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [0]}>
#smem = #ttg.shared_memory

// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @layouts
  // CHECK-SAME: tensor<32xf16, #ttg.slice<{dim = 1, parent = #blocked}>>
  // CHECK-SAME: tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
  // CHECK-SAME: tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>
  // CHECK-SAME: tensor<4xf16, #ttg.slice<{dim = 0, parent = #ttg.slice<{dim = 1, parent = #blocked2}>}>>
  // CHECK-SAME: !ttg.memdesc<32x32xf16, #shared, #smem>
  // CHECK-SAME: !ttg.memdesc<2x32x32xi8, #shared1, #smem>
  // CHECK-SAME: !ttg.memdesc<32x32xf16, #shared2, #smem>
  // CHECK-SAME: !ttg.memdesc<4x4xf16, #shared3, #smem>
  // CHECK-SAME: !ttg.memdesc<4x4xf16, #shared4, #smem>
  // CHECK-SAME: !ttg.memdesc<4x4xf16, #shared5, #smem>
  // CHECK-SAME: !ttg.memdesc<32x32xf16, #shared6, #smem, mutable>
  // CHECK-SAME: !ttg.memdesc<1xi64, #shared7, #smem, mutable, 2x1>
  // CHECK-SAME: !ttg.async.token
  tt.func @layouts(%s: tensor<32xf16, #ttg.slice<{dim = 1, parent = #blocked}>>,
                   %a: tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>,
                   %b: tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>,
                   %ss: tensor<4xf16, #ttg.slice<{dim = 0, parent = #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 4, 8], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>}>}>>,
                   %m0: !ttg.memdesc<32x32xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #smem>,
                   %m1: !ttg.memdesc<2x32x32xi8, #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8, fp4Padded = true, rank = 3}>, #smem>,
                   %m2: !ttg.memdesc<32x32xf16, #ttg.padded_shared<[32:+4, 64:+8] {order = [1, 0], shape = [32, 32]}>, #smem>,
                   // An identity offset map prints in the short form.
                   %m3: !ttg.memdesc<4x4xf16, #ttg.padded_shared<[4:+4] {offset = [[1, 0], [2, 0], [0, 1], [0, 2]], block = []}>, #smem>,
                   %m4: !ttg.memdesc<4x4xf16, #ttg.padded_shared<[4:+2] {offset = [[0, 1], [1, 0], [0, 2], [2, 0]], block = []}>, #smem>,
                   %m5: !ttg.memdesc<4x4xf16, #ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0], [2, 0]], block = []}, alignment = 16>, #smem>,
                   %m6: !ttg.memdesc<32x32xf16, #ttg.amd_rotating_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>, #smem, mutable>,
                   %m7: !ttg.memdesc<1xi64, #shared2, #smem, mutable, 2x1>,
                   %t: !ttg.async.token) {
    tt.return
  }

  // CHECK-LABEL: tt.func @ops
  tt.func @ops(%x: tensor<32x32xf16, #blocked>, %p: tensor<32x32x!tt.ptr<f16>, #blocked>,
               %mask: tensor<32x32xi1, #blocked>, %i: i32) {
    // CHECK: %[[CVT:.*]] = ttg.convert_layout %{{.*}} : tensor<32x32xf16, #blocked> -> tensor<32x32xf16, #linear>
    %0 = ttg.convert_layout %x : tensor<32x32xf16, #blocked> -> tensor<32x32xf16, #linear>
    // CHECK: %[[BUF:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x32x32xf16, #shared8, #smem, mutable>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable>
    // CHECK: %[[IDX:.*]] = ttg.memdesc_index %[[BUF]][%{{.*}}] : !ttg.memdesc<2x32x32xf16, #shared8, #smem, mutable> -> !ttg.memdesc<32x32xf16, #shared8, #smem, mutable>
    %view = ttg.memdesc_index %buf[%i] : !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
    // The result type prints without its dialect prefix, as in Triton.
    // CHECK: %[[CP:.*]] = ttg.async_copy_global_to_local %{{.*}}, %[[IDX]] mask %{{.*}} other %{{.*}} cacheModifier = ca evictionPolicy = evict_last {contiguity = 4 : i32, isVolatile = true} : tensor<32x32x!tt.ptr<f16>, #blocked> -> <32x32xf16, #shared8, #smem, mutable>
    %cp = ttg.async_copy_global_to_local %p, %view mask %mask other %x cacheModifier = ca evictionPolicy = evict_last {isVolatile = true, contiguity = 4 : i32} : tensor<32x32x!tt.ptr<f16>, #blocked> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
    // Default cache/eviction/contiguity are omitted.
    // CHECK: ttg.async_copy_global_to_local %{{.*}}, %[[IDX]] : tensor<32x32x!tt.ptr<f16>, #blocked> -> <32x32xf16, #shared8, #smem, mutable>
    %cp2 = ttg.async_copy_global_to_local %p, %view cacheModifier = none : tensor<32x32x!tt.ptr<f16>, #blocked> -> <32x32xf16, #shared, #smem, mutable>
    // CHECK: %[[G:.*]] = ttg.async_commit_group tokens %[[CP]]
    %g = ttg.async_commit_group tokens %cp
    // CHECK: ttg.async_commit_group{{$}}
    %g2 = ttg.async_commit_group
    // CHECK: %[[W:.*]] = ttg.async_wait %[[G]] {num = 0 : i32}
    %w = ttg.async_wait %g {num = 0 : i32}
    // CHECK: ttg.async_wait {num = 1 : i32}
    %w2 = ttg.async_wait {num = 1 : i32}
    // CHECK: ttg.local_load %[[IDX]] token %[[W]] : !ttg.memdesc<32x32xf16, #shared8, #smem, mutable> -> tensor<32x32xf16, #blocked>
    %l = ttg.local_load %view token %w : !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> tensor<32x32xf16, #blocked>
    // CHECK: ttg.local_store %{{.*}}, %[[IDX]] : tensor<32x32xf16, #blocked> -> !ttg.memdesc<32x32xf16, #shared8, #smem, mutable>
    ttg.local_store %x, %view : tensor<32x32xf16, #blocked> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
    // CHECK: ttg.memdesc_subslice %[[IDX]][0, 16] : !ttg.memdesc<32x32xf16, #shared8, #smem, mutable> -> !ttg.memdesc<32x16xf16, #shared8, #smem, mutable, 32x32>
    %sub = ttg.memdesc_subslice %view[0, 16] : !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x16xf16, #shared, #smem, mutable, 32x32>
    // CHECK: ttg.memdesc_trans %[[IDX]] {order = array<i32: 1, 0>} : !ttg.memdesc<32x32xf16, #shared8, #smem, mutable> -> !ttg.memdesc<32x32xf16, #shared9, #smem, mutable>
    %tr = ttg.memdesc_trans %view {order = array<i32: 1, 0>} : !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x32xf16, #shared1, #smem, mutable>
    // CHECK: ttg.memdesc_reshape %[[BUF]] : !ttg.memdesc<2x32x32xf16, #shared8, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared8, #smem, mutable>
    %rs = ttg.memdesc_reshape %buf : !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    // CHECK: ttg.memdesc_reinterpret %[[BUF]] : !ttg.memdesc<2x32x32xf16, #shared8, #smem, mutable> -> !ttg.memdesc<32x32xi32, #shared8, #smem, mutable>
    %ri = ttg.memdesc_reinterpret %buf : !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x32xi32, #shared, #smem, mutable>
    // CHECK: ttg.local_barrier
    ttg.local_barrier
    // CHECK: %[[INIT:.*]] = ttg.local_alloc %{{.*}} {alignment = 16 : i32} : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf16, #shared8, #smem>
    %init = ttg.local_alloc %x {alignment = 16 : i32} : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
    // CHECK: ttg.local_dealloc %[[BUF]] : !ttg.memdesc<2x32x32xf16, #shared8, #smem, mutable>
    ttg.local_dealloc %buf : !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable>
    // CHECK: ttg.global_scratch_alloc {alignment = 8 : i32, nbytes = 100 : i32} : !tt.ptr<i8>
    %scratch = ttg.global_scratch_alloc {alignment = 8 : i32, nbytes = 100 : i32} : !tt.ptr<i8>
    // CHECK: ttg.predicate_stage %{{.*}}, %{{.*}}, %{{.*}} maxStage 2 stage 1 : i32 -> i1
    %pred = ttg.predicate_stage %i, %i, %i maxStage 2 stage 1 : i32 -> i1
    // CHECK: "ttg.mask"(%{{.*}}) ({
    // CHECK:   ttg.mask.return %{{.*}} : i32
    // CHECK: }) : (i1) -> i32
    %masked = "ttg.mask"(%pred) ({
      ttg.mask.return %i : i32
    }) : (i1) -> i32
    tt.return
  }

  // CHECK-LABEL: tt.func @fp4
  // CHECK: ttg.fp4_to_fp %{{.*}} {axis = 1 : i32} : tensor<32x16xi8, #blocked> -> tensor<32x32xbf16, #blocked>
  tt.func @fp4(%x: tensor<32x16xi8, #blocked>) {
    %0 = ttg.fp4_to_fp %x {axis = 1 : i32} : tensor<32x16xi8, #blocked> -> tensor<32x32xbf16, #blocked>
    tt.return
  }

  // CHECK-LABEL: tt.func @warp_specialize
  // CHECK:      %{{.*}} = ttg.warp_specialize(%{{.*}}, %{{.*}}) attributes {requestedRegisters = array<i32: 24, 48>}
  // CHECK-NEXT: default {
  // CHECK-NEXT:   ttg.warp_yield %{{.*}} : i32
  // CHECK-NEXT: }
  // CHECK-NEXT: partition0(%{{.*}}: i32, %{{.*}}: i32) num_warps(4) {
  // CHECK-NEXT:   ttg.warp_return
  // CHECK-NEXT: }
  // CHECK-NEXT: partition1(%{{.*}}: i32, %{{.*}}: i32) num_warps(1) {
  // CHECK-NEXT:   ttg.warp_return
  // CHECK-NEXT: } : (i32, i32) -> i32
  // CHECK:      ttg.warp_specialize()
  // CHECK:      } : () -> ()
  tt.func @warp_specialize(%i: i32) {
    %0 = ttg.warp_specialize(%i, %i) attributes {requestedRegisters = array<i32: 24, 48>}
    default {
      ttg.warp_yield %i : i32
    }
    partition0(%arg0: i32, %arg1: i32) num_warps(4) {
      ttg.warp_return
    }
    partition1(%arg0: i32, %arg1: i32) num_warps(1) {
      ttg.warp_return
    } : (i32, i32) -> i32
    ttg.warp_specialize()
    default {
      ttg.warp_yield
    }
    partition0() num_warps(4) {
      ttg.warp_return
    } : () -> ()
    tt.return
  }
}
