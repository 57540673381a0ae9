// --musa-lower-descriptors-to-tme when a descriptor tile only feeds the
// matrix unit: the tile's copy into the SQMMA operand buffer
// (ttg.local_alloc of the loaded tensor) is dropped and the SQMMA reads the
// TME ring slot, which takes the operand buffer's layout. A bug would
// print a ttg.local_load of the ring and a ttg.local_alloc from a tensor.
// RUN: musa-opt %s -split-input-file -musa-lower-descriptors-to-tme="num-stages=3" | FileCheck %s
// RUN: musa-opt %s -split-input-file -musa-lower-descriptors-to-tme="num-stages=3 target=emulator" | FileCheck %s

#blockedA = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blockedB = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#tmeA = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#tmeB = #musagpu.tme_shared<{swizzleGranularity = b32, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#acc = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [128, 128, 64]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
  // CHECK-LABEL: tt.func public @operands_from_ring(
  // Both rings in the SQMMA operands' layouts (B's b32 granularity, not the
  // b16 a TME-only buffer of 16 KiB gets).
  // CHECK: %[[RA:.*]] = ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<3x128x64xf16, #[[TMEA:.*]], #smem, mutable>
  // CHECK: %[[RB:.*]] = ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<3x64x128xf16, #[[TMEB:.*]], #smem, mutable>
  // CHECK: scf.for
  // CHECK: musagpu.async_barrier_wait
  // CHECK-NEXT: %[[SA:.*]] = ttg.memdesc_index %[[RA]][%{{.*}}]
  // CHECK: musagpu.async_barrier_wait
  // CHECK-NEXT: %[[SB:.*]] = ttg.memdesc_index %[[RB]][%{{.*}}]
  // CHECK-NEXT: %[[D:.*]] = musagpu.sqmma %[[SA]], %[[SB]], %{{.*}} : !ttg.memdesc<128x64xf16, #[[TMEA]], #smem, mutable>, !ttg.memdesc<64x128xf16, #[[TMEB]], #smem, mutable>
  // CHECK-NEXT: musagpu.sqmma_wait %[[D]]
  // CHECK-NOT: ttg.local_load
  // CHECK: tt.return
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
  // CHECK-LABEL: tt.func public @operands_copied(
  // CHECK: ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<3x128x64xf16, #{{.*}}, #smem, mutable>
  // CHECK: ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<3x64x128xf16, #[[RINGB:.*]], #smem, mutable>
  // CHECK: scf.for
  // CHECK: %[[TA:.*]] = ttg.local_load %{{.*}} -> tensor<128x64xf16, #blocked>
  // CHECK: ttg.local_alloc %[[TA]]
  // CHECK: %[[TB:.*]] = ttg.local_load %{{.*}} : !ttg.memdesc<64x128xf16, #[[RINGB]], #smem, mutable> -> tensor<64x128xf16, #blocked1>
  // CHECK: ttg.local_alloc %[[TB]]
  // CHECK: musagpu.sqmma
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
