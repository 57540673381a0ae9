// RUN: musa-opt %s --musa-pipeline-loops="num-stages=3 copies-after-unit=true" 2>/dev/null | FileCheck %s
// RUN: musa-opt %s --musa-pipeline-loops="num-stages=3 copies-after-unit=true" -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// --musa-pipeline-loops with copies-after-unit (off by default): where the
// loop's SQMMA stays in flight into the next iteration, an iteration's
// copies are issued after its sqmma and a block barrier, after every
// thread's wait for the previous sqmma, so they may refill that sqmma's
// slot: every slot but the one the sqmma in flight reads holds a tile ahead.
// Tutorial 03's 128x256x64 on 8 warps at num_stages 3: a fourth slot costs
// mp_31 no block per SM, so 4 slots take copies 3 iterations ahead (2 by
// default, the fourth kept for the sqmma in flight).
// REMARK: remark: loop pipelined: 2 loads as async copies (2 read in place), rings of 4 slots, copies issued 3 iterations ahead after the matrix unit's next instruction, a wait every 3 iterations, the matrix unit in flight into the next iteration
// CHECK-LABEL: @free_slot_in_flight
// CHECK: %[[RA:.*]] = ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<4x128x64xf16
// CHECK: %[[RB:.*]] = ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<4x64x256xf16
// The prologue: iterations 0, 1 and 2.
// CHECK-COUNT-6: ttg.async_copy_global_to_local
// CHECK: scf.for %[[K:[^ ]*]] = {{.*}} iter_args(%[[ACC:[^ ]*]] = %{{.*}}, %[[PA:[^ ]*]] = %{{.*}}, %[[PB:[^ ]*]] =
// The head: the copies' wait every third iteration, its barrier, the sqmma.
// A copy before the sqmma here would refill the slot of the one in flight.
// CHECK-NOT: ttg.async_copy_global_to_local
// CHECK: %[[IT:.*]] = arith.divui
// CHECK: %[[SLOT:.*]] = arith.remui %[[IT]], %c4
// CHECK: %[[ROUND:.*]] = arith.remui %[[IT]], %c3
// CHECK-NEXT: %[[DUE:.*]] = arith.cmpi eq, %[[ROUND]]
// CHECK-NEXT: musagpu.async_copy_wait if %[[DUE]]
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: %[[A:.*]] = ttg.memdesc_index %[[RA]][%[[SLOT]]]
// CHECK-NEXT: %[[B:.*]] = ttg.memdesc_index %[[RB]][%[[SLOT]]]
// CHECK-NEXT: %[[READY:.*]] = musagpu.sqmma_wait %[[ACC]]
// CHECK-NEXT: %[[D:.*]] = musagpu.sqmma %[[A]], %[[B]], %[[READY]]
// CHECK-NEXT: ttg.local_barrier
// Then iteration k + 3's copies, into slot (k + 3) % 4: the previous sqmma's.
// CHECK: %[[AHEAD:.*]] = arith.addi %[[K]], %{{.*}}
// CHECK: %[[J:.*]] = arith.divui
// CHECK-NEXT: %[[FILL:.*]] = arith.remui %[[J]], %c4
// CHECK-NEXT: %[[TOA:.*]] = ttg.memdesc_index %[[RA]][%[[FILL]]]
// CHECK: ttg.async_copy_global_to_local %[[PA]], %[[TOA]]
// CHECK: %[[TOB:.*]] = ttg.memdesc_index %[[RB]][%[[FILL]]]
// CHECK: ttg.async_copy_global_to_local %[[PB]], %[[TOB]]
// CHECK-NOT: ttg.async_copy_global_to_local
// CHECK: scf.yield %[[D]]
// CHECK-NEXT: }
// CHECK-NEXT: musagpu.sqmma_wait

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#tmea = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#tmeb = #musagpu.tme_shared<{swizzleGranularity = b32, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#sqmma = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 2], instrShape = [128, 128, 64]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @free_slot_in_flight(%a: tensor<128x64x!tt.ptr<f16>, #blocked>, %b: tensor<64x256x!tt.ptr<f16>, #blocked>, %n: i32) -> tensor<128x256xf32, #sqmma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %sa = arith.constant dense<64> : tensor<128x64xi32, #blocked>
    %sb = arith.constant dense<16384> : tensor<64x256xi32, #blocked>
    %zero = arith.constant dense<0.000000e+00> : tensor<128x256xf32, #sqmma>
    %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %pa = %a, %pb = %b) -> (tensor<128x256xf32, #sqmma>, tensor<128x64x!tt.ptr<f16>, #blocked>, tensor<64x256x!tt.ptr<f16>, #blocked>) : i32 {
      %x = tt.load %pa : tensor<128x64x!tt.ptr<f16>, #blocked>
      %xs = ttg.local_alloc %x {alignment = 4096 : i32} : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #tmea, #smem>
      %y = tt.load %pb : tensor<64x256x!tt.ptr<f16>, #blocked>
      %ys = ttg.local_alloc %y {alignment = 4096 : i32} : (tensor<64x256xf16, #blocked>) -> !ttg.memdesc<64x256xf16, #tmeb, #smem>
      %d = musagpu.sqmma %xs, %ys, %acc : !ttg.memdesc<128x64xf16, #tmea, #smem>, !ttg.memdesc<64x256xf16, #tmeb, #smem> -> tensor<128x256xf32, #sqmma>
      %w = musagpu.sqmma_wait %d : tensor<128x256xf32, #sqmma>
      %na = tt.addptr %pa, %sa : tensor<128x64x!tt.ptr<f16>, #blocked>, tensor<128x64xi32, #blocked>
      %nb = tt.addptr %pb, %sb : tensor<64x256x!tt.ptr<f16>, #blocked>, tensor<64x256xi32, #blocked>
      scf.yield %w, %na, %nb : tensor<128x256xf32, #sqmma>, tensor<128x64x!tt.ptr<f16>, #blocked>, tensor<64x256x!tt.ptr<f16>, #blocked>
    }
    tt.return %r#0 : tensor<128x256xf32, #sqmma>
  }
}

