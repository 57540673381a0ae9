// RUN: musa-opt %s --musa-pipeline-loops="num-stages=4 shallower-for-block=true" --split-input-file 2>/dev/null | FileCheck %s
// RUN: musa-opt %s --musa-pipeline-loops="num-stages=4 shallower-for-block=true" --split-input-file -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: musa-opt %s --musa-pipeline-loops="num-stages=4 shallower-for-block=false" --split-input-file -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEPTH
// The default is on.
// RUN: musa-opt %s --musa-pipeline-loops=num-stages=4 --split-input-file -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// --musa-pipeline-loops with shallower-for-block on mp_31 (196608 bytes of
// shared memory). Four slots of 64x128 and 128x64 f16 tiles (32768 bytes a
// slot) hold 131072 bytes: one block per SM. Three hold 98304: two. The
// sqmma reads the rings, so the rings take three slots.
// REMARK: remark: loop pipelined: 2 loads as async copies (2 read in place), rings of 3 slots, copies issued 2 iterations ahead, a wait every 2 iterations (3 slots instead of num_stages = 4 for a second block per SM)
// CHECK-LABEL: @second_block
// CHECK: ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<3x64x128xf16
// CHECK: ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<3x128x64xf16
// Without the option, the num_stages slots and one more for the sqmma in
// flight (it costs no block: one either way).
// DEPTH: remark: loop pipelined: 2 loads as async copies (2 read in place), rings of 5 slots, copies issued 2 iterations ahead in batches of 2 iterations' tiles, a wait every 2 iterations, the matrix unit in flight into the next iteration

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#tme = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#sqmma = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @second_block(%a: tensor<64x128x!tt.ptr<f16>, #blocked>, %b: tensor<128x64x!tt.ptr<f16>, #blocked>, %n: i32) -> tensor<64x64xf32, #sqmma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %sa = arith.constant dense<128> : tensor<64x128xi32, #blocked>
    %sb = arith.constant dense<8192> : tensor<128x64xi32, #blocked>
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #sqmma>
    %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %pa = %a, %pb = %b) -> (tensor<64x64xf32, #sqmma>, tensor<64x128x!tt.ptr<f16>, #blocked>, tensor<128x64x!tt.ptr<f16>, #blocked>) : i32 {
      %x = tt.load %pa : tensor<64x128x!tt.ptr<f16>, #blocked>
      %xs = ttg.local_alloc %x {alignment = 4096 : i32} : (tensor<64x128xf16, #blocked>) -> !ttg.memdesc<64x128xf16, #tme, #smem>
      %y = tt.load %pb : tensor<128x64x!tt.ptr<f16>, #blocked>
      %ys = ttg.local_alloc %y {alignment = 4096 : i32} : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #tme, #smem>
      %d = musagpu.sqmma %xs, %ys, %acc : !ttg.memdesc<64x128xf16, #tme, #smem>, !ttg.memdesc<128x64xf16, #tme, #smem> -> tensor<64x64xf32, #sqmma>
      %w = musagpu.sqmma_wait %d : tensor<64x64xf32, #sqmma>
      %na = tt.addptr %pa, %sa : tensor<64x128x!tt.ptr<f16>, #blocked>, tensor<64x128xi32, #blocked>
      %nb = tt.addptr %pb, %sb : tensor<128x64x!tt.ptr<f16>, #blocked>, tensor<128x64xi32, #blocked>
      scf.yield %w, %na, %nb : tensor<64x64xf32, #sqmma>, tensor<64x128x!tt.ptr<f16>, #blocked>, tensor<128x64x!tt.ptr<f16>, #blocked>
    }
    tt.return %r#0 : tensor<64x64xf32, #sqmma>
  }
}

// -----

// The same loop beside a second loop whose rings cannot leave two blocks
// (two slots of 65536 bytes already take more than half): the block per SM
// is not bought, so the first loop keeps its depth.
// REMARK: remark: loop pipelined: 2 loads as async copies (2 read in place), rings of 5 slots, copies issued 2 iterations ahead in batches of 2 iterations' tiles, a wait every 2 iterations, the matrix unit in flight into the next iteration
// REMARK: remark: loop pipelined: 2 loads as async copies (2 read in place), rings of 3 slots, copies issued 2 iterations ahead, a wait every 2 iterations (3 slots instead of num_stages = 4 to fit 196608 bytes of shared memory)
// CHECK-LABEL: @no_second_block
// CHECK: ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<5x64x128xf16
// CHECK-NOT: for a second block

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#tme = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#sqmma = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]}>
#sqmma2 = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 128, 32]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @no_second_block(%a: tensor<64x128x!tt.ptr<f16>, #blocked>, %b: tensor<128x64x!tt.ptr<f16>, #blocked>, %c: tensor<128x128x!tt.ptr<f16>, #blocked>, %n: i32) -> (tensor<64x64xf32, #sqmma>, tensor<128x128xf32, #sqmma2>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %sa = arith.constant dense<128> : tensor<64x128xi32, #blocked>
    %sb = arith.constant dense<8192> : tensor<128x64xi32, #blocked>
    %sc = arith.constant dense<128> : tensor<128x128xi32, #blocked>
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #sqmma>
    %zero2 = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #sqmma2>
    %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %pa = %a, %pb = %b) -> (tensor<64x64xf32, #sqmma>, tensor<64x128x!tt.ptr<f16>, #blocked>, tensor<128x64x!tt.ptr<f16>, #blocked>) : i32 {
      %x = tt.load %pa : tensor<64x128x!tt.ptr<f16>, #blocked>
      %xs = ttg.local_alloc %x {alignment = 4096 : i32} : (tensor<64x128xf16, #blocked>) -> !ttg.memdesc<64x128xf16, #tme, #smem>
      %y = tt.load %pb : tensor<128x64x!tt.ptr<f16>, #blocked>
      %ys = ttg.local_alloc %y {alignment = 4096 : i32} : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #tme, #smem>
      %d = musagpu.sqmma %xs, %ys, %acc : !ttg.memdesc<64x128xf16, #tme, #smem>, !ttg.memdesc<128x64xf16, #tme, #smem> -> tensor<64x64xf32, #sqmma>
      %w = musagpu.sqmma_wait %d : tensor<64x64xf32, #sqmma>
      %na = tt.addptr %pa, %sa : tensor<64x128x!tt.ptr<f16>, #blocked>, tensor<64x128xi32, #blocked>
      %nb = tt.addptr %pb, %sb : tensor<128x64x!tt.ptr<f16>, #blocked>, tensor<128x64xi32, #blocked>
      scf.yield %w, %na, %nb : tensor<64x64xf32, #sqmma>, tensor<64x128x!tt.ptr<f16>, #blocked>, tensor<128x64x!tt.ptr<f16>, #blocked>
    }
    %s:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero2, %pc = %c) -> (tensor<128x128xf32, #sqmma2>, tensor<128x128x!tt.ptr<f16>, #blocked>) : i32 {
      %x = tt.load %pc : tensor<128x128x!tt.ptr<f16>, #blocked>
      %xs = ttg.local_alloc %x {alignment = 4096 : i32} : (tensor<128x128xf16, #blocked>) -> !ttg.memdesc<128x128xf16, #tme, #smem>
      %y = tt.load %pc : tensor<128x128x!tt.ptr<f16>, #blocked>
      %ys = ttg.local_alloc %y {alignment = 4096 : i32} : (tensor<128x128xf16, #blocked>) -> !ttg.memdesc<128x128xf16, #tme, #smem>
      %d = musagpu.sqmma %xs, %ys, %acc : !ttg.memdesc<128x128xf16, #tme, #smem>, !ttg.memdesc<128x128xf16, #tme, #smem> -> tensor<128x128xf32, #sqmma2>
      %w = musagpu.sqmma_wait %d : tensor<128x128xf32, #sqmma2>
      %nc = tt.addptr %pc, %sc : tensor<128x128x!tt.ptr<f16>, #blocked>, tensor<128x128xi32, #blocked>
      scf.yield %w, %nc : tensor<128x128xf32, #sqmma2>, tensor<128x128x!tt.ptr<f16>, #blocked>
    }
    tt.return %r#0, %s#0 : tensor<64x64xf32, #sqmma>, tensor<128x128xf32, #sqmma2>
  }
}

// -----

// An FMA dot of the same tiles waits for nothing in flight: no SQMMA drains
// between iterations, so the rings keep num_stages slots.
// REMARK: remark: loop pipelined: 2 loads as async copies (0 read in place), rings of 4 slots, copies issued 2 iterations ahead in batches of 2 iterations' tiles, a wait every 2 iterations
// CHECK-LABEL: @fma_keeps_depth
// CHECK: ttg.local_alloc {alignment = 16 : i32} : () -> !ttg.memdesc<4x64x128xf16

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fma_keeps_depth(%a: tensor<64x128x!tt.ptr<f16>, #blocked>, %b: tensor<128x64x!tt.ptr<f16>, #blocked>, %n: i32) -> tensor<64x64xf32, #blocked1> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %sa = arith.constant dense<128> : tensor<64x128xi32, #blocked>
    %sb = arith.constant dense<8192> : tensor<128x64xi32, #blocked>
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked1>
    %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %pa = %a, %pb = %b) -> (tensor<64x64xf32, #blocked1>, tensor<64x128x!tt.ptr<f16>, #blocked>, tensor<128x64x!tt.ptr<f16>, #blocked>) : i32 {
      %x = tt.load %pa : tensor<64x128x!tt.ptr<f16>, #blocked>
      %y = tt.load %pb : tensor<128x64x!tt.ptr<f16>, #blocked>
      %xo = ttg.convert_layout %x : tensor<64x128xf16, #blocked> -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>
      %yo = ttg.convert_layout %y : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>
      %d = tt.dot %xo, %yo, %acc : tensor<64x128xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> * tensor<128x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<64x64xf32, #blocked1>
      %na = tt.addptr %pa, %sa : tensor<64x128x!tt.ptr<f16>, #blocked>, tensor<64x128xi32, #blocked>
      %nb = tt.addptr %pb, %sb : tensor<128x64x!tt.ptr<f16>, #blocked>, tensor<128x64xi32, #blocked>
      scf.yield %d, %na, %nb : tensor<64x64xf32, #blocked1>, tensor<64x128x!tt.ptr<f16>, #blocked>, tensor<128x64x!tt.ptr<f16>, #blocked>
    }
    tt.return %r#0 : tensor<64x64xf32, #blocked1>
  }
}

// -----

// A 128x256 f32 accumulator on 8 warps holds 128 KiB of registers a block:
// two blocks would not fit the registers, so the rings keep their depth
// although two slots (98304 bytes) would leave two blocks' shared memory.
// REMARK: remark: loop pipelined: 2 loads as async copies (2 read in place), rings of 4 slots, copies issued 2 iterations ahead in batches of 2 iterations' tiles, a wait every 2 iterations
// REMARK-NOT: for a second block
// CHECK-LABEL: @accumulators_keep_depth
// CHECK: ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<4x128x64xf16

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#tmea = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#tmeb = #musagpu.tme_shared<{swizzleGranularity = b32, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#sqmma = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 2], instrShape = [128, 128, 64]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @accumulators_keep_depth(%a: tensor<128x64x!tt.ptr<f16>, #blocked>, %b: tensor<64x256x!tt.ptr<f16>, #blocked>, %n: i32) -> tensor<128x256xf32, #sqmma> {
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
