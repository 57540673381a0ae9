// RUN: musa-opt %s --musa-carry-descriptor-fields --split-input-file | FileCheck %s

// A descriptor made before the loop and made again in the body: the loop
// carries the makers' base, shape and strides, the body starts by making
// the descriptor from them, and the one read after the loop is made from
// the loop's results. No descriptor is carried any more.
// CHECK-LABEL: @carried
// CHECK-SAME: (%[[P:[^:]*]]: !tt.ptr<f32>, %[[Q:[^:]*]]: !tt.ptr<f32>, %[[M:[^:]*]]: i32, %[[N:[^:]*]]: i32, %[[S:[^:]*]]: i64
// CHECK-NOT: tt.make_tensor_descriptor
// CHECK: %[[R:.*]]:6 = scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[B:.*]] = %[[P]], %[[M0:.*]] = %[[M]], %[[N0:.*]] = %[[N]], %[[S0:.*]] = %[[S]], %[[S1:.*]] = %{{.*}}) -> (tensor<16x32xf32, #blocked>, !tt.ptr<f32>, i32, i32, i64, i64)
// CHECK-NEXT: %[[D:.*]] = tt.make_tensor_descriptor %[[B]], [%[[M0]], %[[N0]]], [%[[S0]], %[[S1]]] : <f32>, <tensor<16x32xf32>>
// CHECK: tt.descriptor_load %[[D]]
// CHECK-NOT: tt.make_tensor_descriptor
// CHECK: scf.yield %{{.*}}, %[[Q]], %[[M]], %[[N]], %[[S]], %{{.*}} : tensor<16x32xf32, #blocked>, !tt.ptr<f32>, i32, i32, i64, i64
// CHECK: %[[AFTER:.*]] = tt.make_tensor_descriptor %[[R]]#1, [%[[R]]#2, %[[R]]#3], [%[[R]]#4, %[[R]]#5]
// CHECK: tt.descriptor_load %[[AFTER]]
// CHECK-NOT: !tt.tensordesc<tensor<16x32xf32>>)

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @carried(%p: !tt.ptr<f32>, %q: !tt.ptr<f32>, %M: i32, %N: i32, %sN: i64, %n: i32) -> tensor<16x32xf32, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c16 = arith.constant 16 : i32
    %one = arith.constant 1 : i64
    %zero = arith.constant dense<0.000000e+00> : tensor<16x32xf32, #blocked>
    %d0 = tt.make_tensor_descriptor %p, [%M, %N], [%sN, %one] : <f32>, <tensor<16x32xf32>>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %d = %d0) -> (tensor<16x32xf32, #blocked>, !tt.tensordesc<tensor<16x32xf32>>) : i32 {
      %row = arith.muli %i, %c16 : i32
      %t = tt.descriptor_load %d[%row, %c0] : !tt.tensordesc<tensor<16x32xf32>> -> tensor<16x32xf32, #blocked>
      %s = arith.addf %acc, %t : tensor<16x32xf32, #blocked>
      %nd = tt.make_tensor_descriptor %q, [%M, %N], [%sN, %one] : <f32>, <tensor<16x32xf32>>
      scf.yield %s, %nd : tensor<16x32xf32, #blocked>, !tt.tensordesc<tensor<16x32xf32>>
    }
    %last = tt.descriptor_load %r#1[%c0, %c0] : !tt.tensordesc<tensor<16x32xf32>> -> tensor<16x32xf32, #blocked>
    %out = arith.addf %r#0, %last : tensor<16x32xf32, #blocked>
    tt.return %out : tensor<16x32xf32, #blocked>
  }
}

// -----

// Nested loops: the outer loop yields what the inner loop yields, and the
// inner loop starts from the outer one's descriptor. Both carry fields: the
// inner loop starts from the outer one's, and the outer one yields the
// inner one's results.
// CHECK-LABEL: @nested
// CHECK: scf.for {{.*}} iter_args(%[[OB:.*]] = %{{.*}}, %[[ON:.*]] = %{{.*}}, %[[OS:.*]] = %{{.*}}) -> (!tt.ptr<f32>, i32, i64) : i32 {
// CHECK-NEXT: %[[IN:.*]]:3 = scf.for {{.*}} iter_args(%[[IB:.*]] = %[[OB]], %{{.*}} = %[[ON]], %{{.*}} = %[[OS]]) -> (!tt.ptr<f32>, i32, i64) : i32 {
// CHECK-NEXT: %[[ID:.*]] = tt.make_tensor_descriptor %[[IB]]
// CHECK: tt.descriptor_load %[[ID]]
// CHECK: scf.yield %[[IN]]#0, %[[IN]]#1, %[[IN]]#2
// CHECK-NOT: !tt.tensordesc<tensor<32xf32>>)

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @nested(%p: !tt.ptr<f32>, %n: i32, %out: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %one = arith.constant 1 : i64
    %d0 = tt.make_tensor_descriptor %p, [%n], [%one] : <f32>, <tensor<32xf32>>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%d = %d0) -> (!tt.tensordesc<tensor<32xf32>>) : i32 {
      %in = scf.for %j = %c0 to %n step %c1 iter_args(%e = %d) -> (!tt.tensordesc<tensor<32xf32>>) : i32 {
        %t = tt.descriptor_load %e[%j] : !tt.tensordesc<tensor<32xf32>> -> tensor<32xf32>
        %q = tt.addptr %p, %j : !tt.ptr<f32>, i32
        %ne = tt.make_tensor_descriptor %q, [%n], [%one] : <f32>, <tensor<32xf32>>
        scf.yield %ne : !tt.tensordesc<tensor<32xf32>>
      }
      scf.yield %in : !tt.tensordesc<tensor<32xf32>>
    }
    tt.return
  }
}

// -----

// A yielded descriptor that no maker makes (an scf.if chooses it): the
// loop keeps carrying the descriptor, and the conversion names what it
// cannot lower.
// CHECK-LABEL: @chosen
// CHECK: scf.for {{.*}} -> (!tt.tensordesc<tensor<32xf32>>) : i32 {

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @chosen(%p: !tt.ptr<f32>, %q: !tt.ptr<f32>, %n: i32, %c: i1) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %one = arith.constant 1 : i64
    %d0 = tt.make_tensor_descriptor %p, [%n], [%one] : <f32>, <tensor<32xf32>>
    %d1 = tt.make_tensor_descriptor %q, [%n], [%one] : <f32>, <tensor<32xf32>>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%d = %d0) -> (!tt.tensordesc<tensor<32xf32>>) : i32 {
      %t = tt.descriptor_load %d[%i] : !tt.tensordesc<tensor<32xf32>> -> tensor<32xf32>
      %nd = scf.if %c -> (!tt.tensordesc<tensor<32xf32>>) {
        scf.yield %d0 : !tt.tensordesc<tensor<32xf32>>
      } else {
        scf.yield %d1 : !tt.tensordesc<tensor<32xf32>>
      }
      scf.yield %nd : !tt.tensordesc<tensor<32xf32>>
    }
    tt.return
  }
}
