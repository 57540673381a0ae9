// RUN: musa-opt %s --musa-accelerate-matmul --split-input-file | FileCheck %s

// Where the operands of a matrix-unit dot come from, and narrow
// accumulators in a K loop.

// An f16 accumulator in a K loop: the loop carries f16 in the unit's layout
// (no conversion inside the loop); each step widens it to f32, runs the
// unit, and rounds once.
// CHECK: #[[WMMA:.*]] = #musagpu.wmma<
// CHECK-LABEL: @f16_acc_k_loop
// CHECK: %[[INIT:.*]] = arith.constant dense<0.000000e+00> : tensor<64x64xf16, #[[WMMA]]>
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (tensor<64x64xf16, #[[WMMA]]>)
// CHECK-NOT: ttg.convert_layout %[[ACC]]
// CHECK: %[[WIDE:.*]] = arith.extf %[[ACC]] : tensor<64x64xf16, #[[WMMA]]> to tensor<64x64xf32, #[[WMMA]]>
// CHECK-NEXT: %[[D:.*]] = musagpu.wmma %{{.*}}, %{{.*}}, %[[WIDE]]
// CHECK-NEXT: %[[N:.*]] = arith.truncf %[[D]] : tensor<64x64xf32, #[[WMMA]]> to tensor<64x64xf16, #[[WMMA]]>
// CHECK-NEXT: scf.yield %[[N]] : tensor<64x64xf16, #[[WMMA]]>
// CHECK: ttg.convert_layout %[[R]] : tensor<64x64xf16, #[[WMMA]]> -> tensor<64x64xf16, #blocked>

#blocked = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @f16_acc_k_loop(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %n: i32) -> tensor<64x64xf16, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf16, #blocked>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf16, #blocked>) : i32 {
      %d = tt.dot %a, %b, %acc : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf16, #blocked>
      scf.yield %d : tensor<64x64xf16, #blocked>
    }
    tt.return %r : tensor<64x64xf16, #blocked>
  }
}

// -----

// The same on mp_31 with a bf16 accumulator and a zero init without a loop
// (the f32 zero is made directly in the SQMMA layout, nothing narrow left).
// CHECK: #[[SQ:.*]] = #musagpu.sqmma<
// CHECK-LABEL: @bf16_acc_k_loop
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<64x64xbf16, #[[SQ]]>)
// CHECK-NOT: ttg.convert_layout %[[ACC]]
// CHECK: arith.extf %[[ACC]] : tensor<64x64xbf16, #[[SQ]]> to tensor<64x64xf32, #[[SQ]]>
// CHECK-NEXT: musagpu.sqmma
// CHECK-NEXT: %[[W:.*]] = musagpu.sqmma_wait
// CHECK-NEXT: %[[N:.*]] = arith.truncf %[[W]] : tensor<64x64xf32, #[[SQ]]> to tensor<64x64xbf16, #[[SQ]]>
// CHECK-NEXT: scf.yield %[[N]]
// CHECK-LABEL: @bf16_out
// CHECK-NOT: dense<0.000000e+00> : tensor<64x64xbf16, #[[SQ]]>
// CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #[[SQ]]>
// CHECK: musagpu.sqmma %{{.*}}, %{{.*}}, %[[Z]]
// CHECK: arith.truncf {{.*}} to tensor<64x64xbf16, #[[SQ]]>

#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @bf16_acc_k_loop(%a: tensor<64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %init: tensor<64x64xbf16, #blocked>, %n: i32) -> tensor<64x64xbf16, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<64x64xbf16, #blocked>) : i32 {
      %d = tt.dot %a, %b, %acc : tensor<64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xbf16, #blocked>
      scf.yield %d : tensor<64x64xbf16, #blocked>
    }
    tt.return %r : tensor<64x64xbf16, #blocked>
  }
  tt.func public @bf16_out(%a: tensor<64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>) -> tensor<64x64xbf16, #blocked> {
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xbf16, #blocked>
    %d = tt.dot %a, %b, %zero : tensor<64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xbf16, #blocked>
    tt.return %d : tensor<64x64xbf16, #blocked>
  }
}

// -----

// Operands Triton transposed through shared memory (`tl.trans(x)`, `x.T`):
// the alloc holding x takes the SQMMA layout seen through the transpose, and
// the sqmma reads the memdesc_trans. No load to registers, no second buffer.
// A (64x32, M-major): x is 32x64 with M fastest; B (32x32, K-major): x is
// 32x32 (N x K) with K fastest.
// CHECK-DAG: #[[SA:.*]] = #musagpu.tme_shared<{swizzleGranularity = b32, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [0, 1]}>
// CHECK-DAG: #[[SAX:.*]] = #musagpu.tme_shared<{swizzleGranularity = b32, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
// CHECK-DAG: #[[SB:.*]] = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [0, 1]}>
// CHECK-DAG: #[[SBX:.*]] = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
// CHECK-LABEL: @transposed_operands
// CHECK: %[[XA:.*]] = ttg.local_alloc %arg0 {alignment = 2048 : i32} : (tensor<32x64xf16, #{{[a-z0-9]+}}>) -> !ttg.memdesc<32x64xf16, #[[SAX]], #smem>
// CHECK: %[[A:.*]] = ttg.memdesc_trans %[[XA]] {order = array<i32: 1, 0>} : !ttg.memdesc<32x64xf16, #[[SAX]], #smem> -> !ttg.memdesc<64x32xf16, #[[SA]], #smem>
// CHECK: %[[XB:.*]] = ttg.local_alloc %arg1 {alignment = 4096 : i32} : (tensor<32x32xf16, #{{[a-z0-9]+}}>) -> !ttg.memdesc<32x32xf16, #[[SBX]], #smem>
// CHECK: %[[B:.*]] = ttg.memdesc_trans %[[XB]] {order = array<i32: 1, 0>} : !ttg.memdesc<32x32xf16, #[[SBX]], #smem> -> !ttg.memdesc<32x32xf16, #[[SB]], #smem>
// CHECK-NOT: ttg.local_load
// CHECK-NOT: ttg.local_alloc
// CHECK: musagpu.sqmma %[[A]], %[[B]], %{{.*}} {transA = true, transB = true}

#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @transposed_operands(%at: tensor<32x64xf16, #blocked1>, %bt: tensor<32x32xf16, #blocked1>) -> tensor<64x32xf32, #blocked> {
    %zero = arith.constant dense<0.000000e+00> : tensor<64x32xf32, #blocked>
    %xa = ttg.local_alloc %at : (tensor<32x64xf16, #blocked1>) -> !ttg.memdesc<32x64xf16, #shared, #smem>
    %ta = ttg.memdesc_trans %xa {order = array<i32: 1, 0>} : !ttg.memdesc<32x64xf16, #shared, #smem> -> !ttg.memdesc<64x32xf16, #shared1, #smem>
    %xb = ttg.local_alloc %bt : (tensor<32x32xf16, #blocked1>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
    %tb = ttg.memdesc_trans %xb {order = array<i32: 1, 0>} : !ttg.memdesc<32x32xf16, #shared, #smem> -> !ttg.memdesc<32x32xf16, #shared1, #smem>
    %a = ttg.local_load %ta : !ttg.memdesc<64x32xf16, #shared1, #smem> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %b = ttg.local_load %tb : !ttg.memdesc<32x32xf16, #shared1, #smem> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    %d = tt.dot %a, %b, %zero : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x32xf32, #blocked>
    tt.return %d : tensor<64x32xf32, #blocked>
  }
}

// -----

// Operands Triton promoted through immutable buffers (`local_load(local_alloc
// %x)`), read by two dots: %x is stored once per operand, from its own
// layout, right after it is loaded; the old buffers and loads are gone.
// CHECK-LABEL: @shared_operands
// CHECK: %[[X:.*]] = tt.load %arg0
// CHECK-NEXT: %[[A:.*]] = ttg.local_alloc %[[X]] {{.*}} : (tensor<64x32xf16, #{{[a-z0-9]+}}>) -> !ttg.memdesc<64x32xf16, #{{.*}}, #smem>
// CHECK: %[[Y:.*]] = tt.load %arg1
// CHECK-NEXT: %[[B:.*]] = ttg.local_alloc %[[Y]] {{.*}} : (tensor<32x64xf16, #{{[a-z0-9]+}}>) -> !ttg.memdesc<32x64xf16, #{{.*}}, #smem>
// CHECK-NOT: ttg.local_alloc
// CHECK-NOT: ttg.local_load
// CHECK: musagpu.sqmma %[[A]], %[[B]]
// CHECK-NOT: ttg.local_alloc
// CHECK: musagpu.sqmma %[[A]], %[[B]]

#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @shared_operands(%pa: tensor<64x32x!tt.ptr<f16>, #blocked1>, %pb: tensor<32x64x!tt.ptr<f16>, #blocked1>) -> (tensor<64x64xf32, #blocked>, tensor<64x64xf16, #blocked>) {
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
    %zero16 = arith.constant dense<0.000000e+00> : tensor<64x64xf16, #blocked>
    %x = tt.load %pa : tensor<64x32x!tt.ptr<f16>, #blocked1>
    %xa = ttg.local_alloc %x : (tensor<64x32xf16, #blocked1>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
    %y = tt.load %pb : tensor<32x64x!tt.ptr<f16>, #blocked1>
    %yb = ttg.local_alloc %y : (tensor<32x64xf16, #blocked1>) -> !ttg.memdesc<32x64xf16, #shared, #smem>
    %a = ttg.local_load %xa : !ttg.memdesc<64x32xf16, #shared, #smem> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %b = ttg.local_load %yb : !ttg.memdesc<32x64xf16, #shared, #smem> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    %d = tt.dot %a, %b, %zero : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    %h = tt.dot %a, %b, %zero16 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf16, #blocked>
    tt.return %d, %h : tensor<64x64xf32, #blocked>, tensor<64x64xf16, #blocked>
  }
}

// -----

// A batched dot on a transposed operand Triton keeps in shared memory
// (`local_load(memdesc_trans(local_alloc %x))`, `tl.trans`): %x is stored
// once in the SQMMA layout seen through the transpose, and the sqmma reads
// the transposed view; Triton's buffer goes.
// CHECK-DAG: #[[RB:.*]] = #musagpu.tme_shared<{{.*}}order = [1, 0]}>
// CHECK-DAG: #[[RBT:.*]] = #musagpu.tme_shared<{{.*}}order = [0, 1]}>
// CHECK-LABEL: @transposed_operand
// CHECK: %[[S:.*]] = ttg.local_alloc %arg1 {alignment = 4096 : i32} : (tensor<64x32xf16, #blocked1>) -> !ttg.memdesc<64x32xf16, #[[RB]], #smem>
// CHECK-NEXT: %[[T:.*]] = ttg.memdesc_trans %[[S]] {order = array<i32: 1, 0>} : !ttg.memdesc<64x32xf16, #[[RB]], #smem> -> !ttg.memdesc<32x64xf16, #[[RBT]], #smem>
// CHECK-NOT: ttg.local_load
// CHECK: musagpu.sqmma %{{.*}}, %[[T]], %{{.*}} {transB = true}

#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 4, order = [1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 4, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @transposed_operand(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %x: tensor<64x32xf16, #blocked1>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %buf = ttg.local_alloc %x : (tensor<64x32xf16, #blocked1>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
    %t = ttg.memdesc_trans %buf {order = array<i32: 1, 0>} : !ttg.memdesc<64x32xf16, #shared, #smem> -> !ttg.memdesc<32x64xf16, #shared1, #smem>
    %b = ttg.local_load %t : !ttg.memdesc<32x64xf16, #shared1, #smem> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    %d = tt.dot %a, %b, %c : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}
