// RUN: musa-opt %s | musa-opt | FileCheck %s

// Every musagpu attribute and op survives print -> parse -> print.

#sqmma = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
#sqmma_s8 = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [8, 1], instrShape = [128, 128, 64]}>
#sqmma_tf32 = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 2], instrShape = [64, 32, 8]}>
#wmma = #musagpu.wmma<{versionMajor = 2, versionMinor = 2, warpsPerCTA = [2, 2], instrShape = [32, 32, 16]}>
#wa = #musagpu.wmma_operand<{opIdx = 0, parent = #wmma}>
#wb = #musagpu.wmma_operand<{opIdx = 1, parent = #wmma}>
#wmma_s8 = #musagpu.wmma<{versionMajor = 2, versionMinor = 2, warpsPerCTA = [4, 1], instrShape = [32, 32, 32]}>
#wa_s8 = #musagpu.wmma_operand<{opIdx = 0, parent = #wmma_s8}>
#wb_s8 = #musagpu.wmma_operand<{opIdx = 1, parent = #wmma_s8}>
#wmma31 = #musagpu.wmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [2, 2], instrShape = [16, 8, 4]}>
#wa31 = #musagpu.wmma_operand<{opIdx = 0, parent = #wmma31}>
#wb31 = #musagpu.wmma_operand<{opIdx = 1, parent = #wmma31}>
#smem = #musagpu.tme_shared<{swizzleGranularity = b32, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>

// CHECK-DAG: #[[SQMMA:[a-z_]+[0-9]*]] = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
// CHECK-DAG: #[[SMEM:[a-z_]+[0-9]*]] = #musagpu.tme_shared<{swizzleGranularity = b32, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
// CHECK-DAG: #[[WMMA:[a-z_]+[0-9]*]] = #musagpu.wmma<{versionMajor = 2, versionMinor = 2, warpsPerCTA = [2, 2], instrShape = [32, 32, 16]}>
// CHECK-DAG: #[[WA:[a-z_]+[0-9]*]] = #musagpu.wmma_operand<{opIdx = 0, parent = #[[WMMA]]}>

// CHECK-LABEL: func.func @encodings
// CHECK-SAME: tensor<64x64xf32, #[[SQMMA]]>
// CHECK-SAME: tensor<64x16xf16, #[[WA]]>
// CHECK-SAME: tensor<64x64xf16, #[[SMEM]]>
func.func @encodings(%a: tensor<64x64xf32, #sqmma>, %b: tensor<64x16xf16, #wa>,
                     %c: tensor<64x64xf16, #smem>) {
  return
}

// CHECK-LABEL: func.func @enum_attrs
// CHECK: granularity = #musagpu.swizzle_granularity<b128>
// CHECK-SAME: line = #musagpu.swizzle_line<b128>
// CHECK-SAME: persistence = #musagpu.persistence<last_use>
// CHECK-SAME: prefetch = #musagpu.prefetch<b256>
// CHECK-SAME: stride = #musagpu.swizzle_stride<b32>
func.func @enum_attrs() attributes {
    granularity = #musagpu.swizzle_granularity<b128>,
    stride = #musagpu.swizzle_stride<b32>,
    line = #musagpu.swizzle_line<b128>,
    prefetch = #musagpu.prefetch<b256>,
    persistence = #musagpu.persistence<last_use>} {
  return
}

// CHECK-LABEL: func.func @tme
func.func @tme(%desc: i64, %pdesc: !llvm.ptr, %x: i32, %y: i32, %z: i32,
               %bar: i32, %a: memref<128x64xf16, 3>, %wide: memref<64x256xf16, 3>,
               %c: memref<64x64xf32, 3>, %v: memref<2x4x32xi8, 3>) {
  // CHECK: musagpu.tme_load %{{.*}}[%{{.*}}, %{{.*}}] to %{{.*}}, barrier %{{.*}} box [64, 128] : i64, memref<128x64xf16, 3>
  musagpu.tme_load %desc[%x, %y] to %a, barrier %bar box [64, 128] : i64, memref<128x64xf16, 3>
  // A 512-byte-wide box: split into two 256-byte loads by the lowering.
  // CHECK: musagpu.tme_load {{.*}} box [256, 64] {innerPersist = #musagpu.persistence<once>, l2Policy = 1 : i32, outerPersist = #musagpu.persistence<persist>, prefetch = #musagpu.prefetch<b128>} : !llvm.ptr, memref<64x256xf16, 3>
  musagpu.tme_load %pdesc[%x, %y] to %wide, barrier %bar box [256, 64] {prefetch = #musagpu.prefetch<b128>, innerPersist = #musagpu.persistence<once>, outerPersist = #musagpu.persistence<persist>, l2Policy = 1 : i32} : !llvm.ptr, memref<64x256xf16, 3>
  // CHECK: musagpu.tme_load {{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] to {{.*}} box [32, 4, 2] : i64, memref<2x4x32xi8, 3>
  musagpu.tme_load %desc[%x, %y, %z] to %v, barrier %bar box [32, 4, 2] : i64, memref<2x4x32xi8, 3>
  // CHECK: musagpu.tme_store %{{.*}} to %{{.*}}[%{{.*}}, %{{.*}}] box [64, 64] : memref<64x64xf32, 3>, i64
  musagpu.tme_store %c to %desc[%x, %y] box [64, 64] : memref<64x64xf32, 3>, i64
  // CHECK: musagpu.tme_store_commit
  musagpu.tme_store_commit
  // CHECK: musagpu.tme_store_wait
  musagpu.tme_store_wait
  return
}

// CHECK-LABEL: func.func @descriptor_base(
func.func @descriptor_base(%d: !tt.tensordesc<tensor<16x8xf16>>) -> !tt.ptr<f16> {
  // CHECK: musagpu.descriptor_base %{{.*}} : !tt.tensordesc<tensor<16x8xf16>> -> !tt.ptr<f16>
  %b = musagpu.descriptor_base %d : !tt.tensordesc<tensor<16x8xf16>> -> !tt.ptr<f16>
  return %b : !tt.ptr<f16>
}

// CHECK-LABEL: func.func @barriers
func.func @barriers(%bar: i32, %bytes: i32) {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  // CHECK: musagpu.async_barrier_init %{{.*}}, arrive_count %{{.*}}, phase %{{.*}}
  musagpu.async_barrier_init %bar, arrive_count %one, phase %zero
  // CHECK: musagpu.async_barrier_expect_bytes %{{.*}}, %{{.*}}
  musagpu.async_barrier_expect_bytes %bar, %bytes
  // CHECK: musagpu.async_barrier_arrive %{{.*}}
  musagpu.async_barrier_arrive %bar
  // CHECK: musagpu.async_barrier_wait %{{.*}}, phase %{{.*}}
  musagpu.async_barrier_wait %bar, phase %one
  return
}

// CHECK-LABEL: func.func @sqmma
func.func @sqmma(%a: memref<64x32xf16, 3>, %b: memref<32x64xf16, 3>,
                 %c: tensor<64x64xf32, #sqmma>,
                 %a8: memref<128x128xi8, 3>, %b8: memref<128x128xi8, 3>,
                 %c8: tensor<128x128xi32, #sqmma_s8>,
                 %at: memref<64x16xf32, 3>, %bt: memref<16x32xf32, 3>,
                 %ct: tensor<64x32xf32, #sqmma_tf32>) -> tensor<64x64xf32, #sqmma> {
  // CHECK: %[[D:.+]] = musagpu.sqmma %{{.*}}, %{{.*}}, %{{.*}} : memref<64x32xf16, 3>, memref<32x64xf16, 3> -> tensor<64x64xf32, #[[SQMMA]]>
  %d = musagpu.sqmma %a, %b, %c : memref<64x32xf16, 3>, memref<32x64xf16, 3> -> tensor<64x64xf32, #sqmma>
  // CHECK: musagpu.sqmma {{.*}} {transB = true} : memref<128x128xi8, 3>, memref<128x128xi8, 3> -> tensor<128x128xi32
  %d8 = musagpu.sqmma %a8, %b8, %c8 {transB = true} : memref<128x128xi8, 3>, memref<128x128xi8, 3> -> tensor<128x128xi32, #sqmma_s8>
  // CHECK: musagpu.sqmma {{.*}} : memref<64x16xf32, 3>, memref<16x32xf32, 3> -> tensor<64x32xf32
  %dt = musagpu.sqmma %at, %bt, %ct : memref<64x16xf32, 3>, memref<16x32xf32, 3> -> tensor<64x32xf32, #sqmma_tf32>
  // CHECK: %[[R:.+]]:2 = musagpu.sqmma_wait %[[D]], %{{.*}} : tensor<64x64xf32, #[[SQMMA]]>, tensor<128x128xi32
  %r:2 = musagpu.sqmma_wait %d, %d8 : tensor<64x64xf32, #sqmma>, tensor<128x128xi32, #sqmma_s8>
  // CHECK: musagpu.sqmma_wait{{$}}
  musagpu.sqmma_wait
  // CHECK: return %[[R]]#0
  return %r#0 : tensor<64x64xf32, #sqmma>
}

// CHECK-LABEL: func.func @wmma
func.func @wmma(%a: tensor<64x32xf16, #wa>, %b: tensor<32x64xf16, #wb>,
                %c: tensor<64x64xf32, #wmma>,
                %a8: tensor<128x64xi8, #wa_s8>, %b8: tensor<64x32xi8, #wb_s8>,
                %c8: tensor<128x32xi32, #wmma_s8>,
                %at: tensor<16x8xf32, #wa31>, %bt: tensor<8x16xf32, #wb31>,
                %ct: tensor<16x16xf32, #wmma31>) {
  // CHECK: musagpu.wmma %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xf16, #[[WA]]>, tensor<32x64xf16, #{{.*}}> -> tensor<64x64xf32, #[[WMMA]]>
  %d = musagpu.wmma %a, %b, %c : tensor<64x32xf16, #wa>, tensor<32x64xf16, #wb> -> tensor<64x64xf32, #wmma>
  // CHECK: musagpu.wmma {{.*}} -> tensor<128x32xi32
  %d8 = musagpu.wmma %a8, %b8, %c8 : tensor<128x64xi8, #wa_s8>, tensor<64x32xi8, #wb_s8> -> tensor<128x32xi32, #wmma_s8>
  // CHECK: musagpu.wmma {{.*}} -> tensor<16x16xf32
  %dt = musagpu.wmma %at, %bt, %ct : tensor<16x8xf32, #wa31>, tensor<8x16xf32, #wb31> -> tensor<16x16xf32, #wmma31>
  return
}

// CHECK-LABEL: func.func @async_copy
func.func @async_copy(%src: !llvm.ptr<1>, %dst: !llvm.ptr<3>, %pred: i1) {
  // CHECK: musagpu.async_copy_global_to_shared %{{.*}}, %{{.*}} : vector<4xf16>
  musagpu.async_copy_global_to_shared %src, %dst : vector<4xf16>
  // CHECK: musagpu.async_copy_global_to_shared %{{.*}}, %{{.*}}, %{{.*}} : i8
  musagpu.async_copy_global_to_shared %src, %dst, %pred : i8
  // CHECK: musagpu.async_copy_wait{{$}}
  musagpu.async_copy_wait
  // CHECK: musagpu.async_copy_wait if %{{.*}}{{$}}
  musagpu.async_copy_wait if %pred
  // An unpredicated wait before an op with a result: the result is not
  // taken for the wait's predicate.
  // CHECK: musagpu.async_copy_wait{{$}}
  // CHECK-NEXT: arith.constant true
  musagpu.async_copy_wait
  %t = arith.constant true
  return
}
