// A descriptor tile that only feeds the matrix unit: the tile's copy into
// the SQMMA operand buffer (ttg.local_alloc of the loaded tensor) is
// dropped and the SQMMA reads the TME buffer, which takes the operand
// buffer's layout. A bug would print a ttg.local_load of the buffer and a
// ttg.local_alloc from a tensor.
//  - with --musa-pipeline-loops first (prefix RING), the loads become TME
//    rings of 3 slots, and --musa-lower-descriptors-to-tme has nothing left;
//  - --musa-lower-descriptors-to-tme alone (prefix ONE): one buffer per load.
// RUN: musa-opt %s -split-input-file --musa-pipeline-loops=num-stages=3 -musa-lower-descriptors-to-tme 2>/dev/null | FileCheck %s --check-prefix=RING
// RUN: musa-opt %s -split-input-file --musa-pipeline-loops="num-stages=3 target=emulator" -musa-lower-descriptors-to-tme=target=emulator 2>/dev/null | FileCheck %s --check-prefix=RING
// RUN: musa-opt %s -split-input-file -musa-lower-descriptors-to-tme | FileCheck %s --check-prefix=ONE
// RUN: musa-opt %s -split-input-file -musa-lower-descriptors-to-tme=target=emulator | FileCheck %s --check-prefix=ONE

#blockedA = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blockedB = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#tmeA = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#tmeB = #musagpu.tme_shared<{swizzleGranularity = b32, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#acc = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [128, 128, 64]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
  // RING-LABEL: tt.func public @operands_from_ring(
  // Both rings in the SQMMA operands' layouts (B's b32 granularity, not the
  // b16 a TME-only buffer of 16 KiB gets), aligned to their periods.
  // RING: musagpu.async_barrier_record 6
  // RING: %[[RA:.*]] = ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<3x128x64xf16, #[[TMEA:.*]], #smem, mutable>
  // RING: %[[RB:.*]] = ttg.local_alloc {alignment = 2048 : i32} : () -> !ttg.memdesc<3x64x128xf16, #[[TMEB:.*]], #smem, mutable>
  // RING: scf.for
  // RING: musagpu.async_barrier_wait
  // RING-NEXT: %[[SA:.*]] = ttg.memdesc_index %[[RA]][%{{.*}}]
  // RING: musagpu.async_barrier_wait
  // RING-NEXT: %[[SB:.*]] = ttg.memdesc_index %[[RB]][%{{.*}}]
  // RING-NEXT: %[[D:.*]] = musagpu.sqmma %[[SA]], %[[SB]], %{{.*}} : !ttg.memdesc<128x64xf16, #[[TMEA]], #smem, mutable>, !ttg.memdesc<64x128xf16, #[[TMEB]], #smem, mutable>
  // RING-NEXT: musagpu.sqmma_wait %[[D]]
  // RING-NOT: ttg.local_load
  // RING: tt.return
  // ONE-LABEL: tt.func public @operands_from_ring(
  // ONE: %[[BA:.*]] = ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<128x64xf16, #[[TMEA:.*]], #smem, mutable>
  // ONE: %[[BB:.*]] = ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<64x128xf16, #[[TMEB:.*]], #smem, mutable>
  // ONE: scf.for
  // ONE: musagpu.tme_load %{{.*}} to %[[BA]]
  // ONE: musagpu.async_barrier_wait
  // ONE: musagpu.tme_load %{{.*}} to %[[BB]]
  // ONE: musagpu.async_barrier_wait
  // ONE: %[[D:.*]] = musagpu.sqmma %[[BA]], %[[BB]], %{{.*}} : !ttg.memdesc<128x64xf16, #[[TMEA]], #smem, mutable>, !ttg.memdesc<64x128xf16, #[[TMEB]], #smem, mutable>
  // ONE-NOT: ttg.local_load
  // ONE: tt.return
  tt.func public @operands_from_ring(%a: !tt.tensordesc<tensor<128x64xf16>>, %a0: i32, %a1: i32, %a2: i64, %a3: i64,
                                     %b: !tt.tensordesc<tensor<64x128xf16>>, %b0: i32, %b1: i32, %b2: i64, %b3: i64,
                                     %k: i32) -> tensor<128x128xf32, #acc> {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #acc>
    %r = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %zero) -> (tensor<128x128xf32, #acc>) : i32 {
      %ta = tt.descriptor_load %a[%c0, %i] : !tt.tensordesc<tensor<128x64xf16>> -> tensor<128x64xf16, #blockedA>
      %ma = ttg.local_alloc %ta {alignment = 4096 : i32} : (tensor<128x64xf16, #blockedA>) -> !ttg.memdesc<128x64xf16, #tmeA, #smem>
      %tb = tt.descriptor_load %b[%i, %c0] : !tt.tensordesc<tensor<64x128xf16>> -> tensor<64x128xf16, #blockedB>
      %mb = ttg.local_alloc %tb {alignment = 2048 : i32} : (tensor<64x128xf16, #blockedB>) -> !ttg.memdesc<64x128xf16, #tmeB, #smem>
      %d = musagpu.sqmma %ma, %mb, %acc : !ttg.memdesc<128x64xf16, #tmeA, #smem>, !ttg.memdesc<64x128xf16, #tmeB, #smem> -> tensor<128x128xf32, #acc>
      %w = musagpu.sqmma_wait %d : tensor<128x128xf32, #acc>
      scf.yield %w : tensor<128x128xf32, #acc>
    }
    tt.return %r : tensor<128x128xf32, #acc>
  }
}

// -----

// The tile of A is also added to a tensor, and B's SQMMA is waited for only
// after the loop (a later iteration's load could refill the slot while it
// still reads it): both keep their own ring layouts and copies.
#blockedA = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blockedB = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#tmeA = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#tmeB = #musagpu.tme_shared<{swizzleGranularity = b32, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#acc = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [128, 128, 64]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
  // RING-LABEL: tt.func public @operands_copied(
  // RING: ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<3x128x64xf16, #{{.*}}, #smem, mutable>
  // RING: ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<3x64x128xf16, #[[RINGB:.*]], #smem, mutable>
  // RING: scf.for
  // RING: %[[TA:.*]] = ttg.local_load %{{.*}} -> tensor<128x64xf16, #blocked>
  // RING: ttg.local_alloc %[[TA]]
  // RING: %[[TB:.*]] = ttg.local_load %{{.*}} : !ttg.memdesc<64x128xf16, #[[RINGB]], #smem, mutable> -> tensor<64x128xf16, #blocked1>
  // RING: ttg.local_alloc %[[TB]]
  // RING: musagpu.sqmma
  // ONE-LABEL: tt.func public @operands_copied(
  // ONE: scf.for
  // ONE: %[[TA:.*]] = ttg.local_load %{{.*}} -> tensor<128x64xf16, #blocked>
  // ONE: ttg.local_alloc %[[TA]]
  // ONE: %[[TB:.*]] = ttg.local_load %{{.*}} -> tensor<64x128xf16, #blocked1>
  // ONE: ttg.local_alloc %[[TB]]
  // ONE: musagpu.sqmma
  tt.func public @operands_copied(%a: !tt.tensordesc<tensor<128x64xf16>>, %a0: i32, %a1: i32, %a2: i64, %a3: i64,
                                  %b: !tt.tensordesc<tensor<64x128xf16>>, %b0: i32, %b1: i32, %b2: i64, %b3: i64,
                                  %k: i32) -> (tensor<128x128xf32, #acc>, tensor<128x64xf16, #blockedA>) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #acc>
    %zeroA = arith.constant dense<0.000000e+00> : tensor<128x64xf16, #blockedA>
    %r:2 = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %zero, %sum = %zeroA) -> (tensor<128x128xf32, #acc>, tensor<128x64xf16, #blockedA>) : i32 {
      %ta = tt.descriptor_load %a[%c0, %i] : !tt.tensordesc<tensor<128x64xf16>> -> tensor<128x64xf16, #blockedA>
      %ma = ttg.local_alloc %ta {alignment = 4096 : i32} : (tensor<128x64xf16, #blockedA>) -> !ttg.memdesc<128x64xf16, #tmeA, #smem>
      %s = arith.addf %sum, %ta : tensor<128x64xf16, #blockedA>
      %tb = tt.descriptor_load %b[%i, %c0] : !tt.tensordesc<tensor<64x128xf16>> -> tensor<64x128xf16, #blockedB>
      %mb = ttg.local_alloc %tb {alignment = 2048 : i32} : (tensor<64x128xf16, #blockedB>) -> !ttg.memdesc<64x128xf16, #tmeB, #smem>
      %d = musagpu.sqmma %ma, %mb, %acc : !ttg.memdesc<128x64xf16, #tmeA, #smem>, !ttg.memdesc<64x128xf16, #tmeB, #smem> -> tensor<128x128xf32, #acc>
      scf.yield %d, %s : tensor<128x128xf32, #acc>, tensor<128x64xf16, #blockedA>
    }
    %w = musagpu.sqmma_wait %r#0 : tensor<128x128xf32, #acc>
    tt.return %w, %r#1 : tensor<128x128xf32, #acc>, tensor<128x64xf16, #blockedA>
  }
}
