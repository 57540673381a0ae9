// RUN: musa-opt %s -split-input-file | musa-opt -split-input-file | FileCheck %s

// musagpu encodings inside ttg types: !ttg.memdesc takes #musagpu.tme_shared,
// #ttg.dot_op and #ttg.slice take the MMA layouts as parents, and the ops
// take memdescs as shared buffers in a TTGIR module.

#acc = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
#sa = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#sb = #musagpu.tme_shared<{swizzleGranularity = b32, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
// CHECK-DAG: #[[SA:[a-z_]+[0-9]*]] = #musagpu.tme_shared<{swizzleGranularity = b16,
// CHECK-DAG: #[[SB:[a-z_]+[0-9]*]] = #musagpu.tme_shared<{swizzleGranularity = b32,
// CHECK-DAG: #[[ACC:[a-z_]+[0-9]*]] = #musagpu.sqmma<
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "musa:mp_31"} {
  // CHECK-LABEL: func.func @sqmma_memdesc
  func.func @sqmma_memdesc(%desc: i64, %k: i32, %m: i32, %bar: i32,
                           %a: !ttg.memdesc<64x32xf16, #sa, #smem, mutable>,
                           %b: !ttg.memdesc<32x64xf16, #sb, #smem, mutable>,
                           %c: tensor<64x64xf32, #acc>) -> tensor<64x64xf32, #acc> {
    // CHECK: musagpu.tme_load {{.*}} box [32, 64] : i64, !ttg.memdesc<64x32xf16, #[[SA]], #smem, mutable>
    musagpu.tme_load %desc[%k, %m] to %a, barrier %bar box [32, 64] : i64, !ttg.memdesc<64x32xf16, #sa, #smem, mutable>
    // CHECK: musagpu.sqmma {{.*}} : !ttg.memdesc<64x32xf16, #[[SA]], #smem, mutable>, !ttg.memdesc<32x64xf16, #[[SB]], #smem, mutable> -> tensor<64x64xf32, #[[ACC]]>
    %d = musagpu.sqmma %a, %b, %c : !ttg.memdesc<64x32xf16, #sa, #smem, mutable>, !ttg.memdesc<32x64xf16, #sb, #smem, mutable> -> tensor<64x64xf32, #acc>
    %r = musagpu.sqmma_wait %d : tensor<64x64xf32, #acc>
    return %r : tensor<64x64xf32, #acc>
  }
}

// -----

#wmma = #musagpu.wmma<{versionMajor = 2, versionMinor = 2, warpsPerCTA = [2, 2], instrShape = [32, 32, 16]}>
// CHECK: #[[WMMA:[a-z_]+[0-9]*]] = #musagpu.wmma<
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 128 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "musa:mp_22"} {
  // CHECK-LABEL: func.func @ttg_parents
  // CHECK-SAME: tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #[[WMMA]], kWidth = 4}>>
  // CHECK-SAME: tensor<64xf32, #ttg.slice<{dim = 1, parent = #[[WMMA]]}>>
  func.func @ttg_parents(%a: tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #wmma, kWidth = 4}>>,
                         %s: tensor<64xf32, #ttg.slice<{dim = 1, parent = #wmma}>>) {
    return
  }
}
