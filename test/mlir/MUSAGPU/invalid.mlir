// RUN: musa-opt %s -split-input-file -verify-diagnostics

// One case per verifier rule of the musagpu encodings and ops.

//===----------------------------------------------------------------------===//
// #musagpu.sqmma
//===----------------------------------------------------------------------===//

// expected-error @+1 {{#musagpu.sqmma instrShape M x N = 128x16 is not a SQMMA shape; legal: 32x32, 32x64, 32x128, 16x64, 64x16, 64x32, 64x64, 64x128, 128x32, 128x64, 128x128}}
#bad = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [128, 16, 16]}>

// -----

// expected-error @+1 {{#musagpu.sqmma warpsPerCTA along M must be a multiple of 4 (4 warps per squad), got 2}}
#bad = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [2, 2], instrShape = [64, 64, 16]}>

// -----

// expected-error @+1 {{#musagpu.sqmma warpsPerCTA along M must be a multiple of 4 (4 warps per squad), got 6}}
#bad = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [1, 6, 1], instrShape = [64, 64, 16]}>

// -----

// expected-error @+1 {{#musagpu.sqmma needs capability >= 3.1 (mp_31), got 2.2}}
#bad = #musagpu.sqmma<{versionMajor = 2, versionMinor = 2, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>

// -----

// expected-error @+1 {{#musagpu.sqmma instrShape K = 24 is not one of 8, 16, 32, 64, 128}}
#bad = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 24]}>

// -----

// expected-error @+1 {{#musagpu.sqmma instrShape must be [M, N, K], got 2 entries}}
#bad = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64]}>

// -----

// expected-error @+1 {{#musagpu.sqmma warpsPerCTA must have rank 2 or 3, got 1}}
#bad = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4], instrShape = [64, 64, 16]}>

// -----

// expected-error @+1 {{struct is missing required parameter: instrShape}}
#bad = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1]}>

// -----

// expected-error @+2 {{unknown matrix fragment 'wmma_warp'}}
// expected-error @+1 {{failed to parse MUSAGPU_SQMMAEncodingAttr parameter 'fragment'}}
#bad = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 16], fragment = wmma_warp}>

// -----

// expected-error @+1 {{#musagpu.sqmma fragment must be sqmma_squad or wgmma_warpgroup, got qy2_wmma}}
#bad = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 16], fragment = qy2_wmma}>

// -----

// The fragment names the proxy's rows: 32x64 is a device SQMMA shape, not one
// of the proxy's (wgmma computes 64 rows per warpgroup).
// expected-error @+1 {{#musagpu.sqmma instrShape M x N = 32x64 is not a SQMMA shape; legal: 64x16, 64x32, 64x64, 64x128, 128x32, 128x64, 128x128}}
#bad = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [32, 64, 16], fragment = wgmma_warpgroup}>

// -----

#acc = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
// expected-error @+1 {{#musagpu.sqmma encoding has rank 2 but the tensor has rank 1}}
func.func @rank(%c: tensor<64xf32, #acc>) {
  return
}

//===----------------------------------------------------------------------===//
// musagpu.sqmma
//===----------------------------------------------------------------------===//

// -----

// 32x128 is legal for f16 but not for TF32.
#acc = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [32, 128, 8]}>
func.func @tf32_mn(%a: memref<32x8xf32, 3>, %b: memref<8x128xf32, 3>, %c: tensor<32x128xf32, #acc>) {
  // expected-error @+1 {{illegal SQMMA instruction M x N = 32x128 for tf32; legal: 16x64, 32x32, 32x64, 64x16, 64x32, 64x64, 128x64, 128x128}}
  %d = musagpu.sqmma %a, %b, %c {transB = true} : memref<32x8xf32, 3>, memref<8x128xf32, 3> -> tensor<32x128xf32, #acc>
  return
}

// -----

#acc = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 8]}>
func.func @f16_k(%a: memref<64x8xf16, 3>, %b: memref<8x64xf16, 3>, %c: tensor<64x64xf32, #acc>) {
  // expected-error @+1 {{illegal SQMMA instruction K = 8 for f16; legal: 16, 32, 64}}
  %d = musagpu.sqmma %a, %b, %c : memref<64x8xf16, 3>, memref<8x64xf16, 3> -> tensor<64x64xf32, #acc>
  return
}

// -----

#acc = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 64]}>
func.func @tf32_k(%a: memref<64x64xf32, 3>, %b: memref<64x64xf32, 3>, %c: tensor<64x64xf32, #acc>) {
  // expected-error @+1 {{illegal SQMMA instruction K = 64 for tf32; legal: 8, 16, 32}}
  %d = musagpu.sqmma %a, %b, %c : memref<64x64xf32, 3>, memref<64x64xf32, 3> -> tensor<64x64xf32, #acc>
  return
}

// -----

#acc = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
func.func @s8_k(%a: memref<64x16xi8, 3>, %b: memref<16x64xi8, 3>, %c: tensor<64x64xi32, #acc>) {
  // expected-error @+1 {{illegal SQMMA instruction K = 16 for s8; legal: 32, 64, 128}}
  %d = musagpu.sqmma %a, %b, %c : memref<64x16xi8, 3>, memref<16x64xi8, 3> -> tensor<64x64xi32, #acc>
  return
}

// -----

#acc = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
func.func @e5m2_k(%a: memref<64x16xf8E5M2, 3>, %b: memref<16x64xf8E5M2, 3>, %c: tensor<64x64xf32, #acc>) {
  // expected-error @+1 {{illegal SQMMA instruction K = 16 for e5m2; legal: 32, 64, 128}}
  %d = musagpu.sqmma %a, %b, %c : memref<64x16xf8E5M2, 3>, memref<16x64xf8E5M2, 3> -> tensor<64x64xf32, #acc>
  return
}

// -----

#acc = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 128]}>
func.func @f16_k128(%a: memref<64x128xbf16, 3>, %b: memref<128x64xbf16, 3>, %c: tensor<64x64xf32, #acc>) {
  // expected-error @+1 {{SQMMA K = 128 is not a single instruction for bf16 (the MUSA 5.2 toolchain crashes on it): use instrShape K = 64, the lowering issues two}}
  %d = musagpu.sqmma %a, %b, %c : memref<64x128xbf16, 3>, memref<128x64xbf16, 3> -> tensor<64x64xf32, #acc>
  return
}

// -----

#acc = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
func.func @f16_acc(%a: memref<64x16xf16, 3>, %b: memref<16x64xf16, 3>, %c: tensor<64x64xf16, #acc>) {
  // expected-error @+1 {{accumulator element type must be f32 for f16 inputs, got 'f16'}}
  %d = musagpu.sqmma %a, %b, %c : memref<64x16xf16, 3>, memref<16x64xf16, 3> -> tensor<64x64xf16, #acc>
  return
}

// -----

#acc = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]}>
func.func @s8_acc(%a: memref<64x32xi8, 3>, %b: memref<32x64xi8, 3>, %c: tensor<64x64xf32, #acc>) {
  // expected-error @+1 {{accumulator element type must be i32 for s8 inputs, got 'f32'}}
  %d = musagpu.sqmma %a, %b, %c : memref<64x32xi8, 3>, memref<32x64xi8, 3> -> tensor<64x64xf32, #acc>
  return
}

// -----

#acc = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
func.func @mixed(%a: memref<64x16xf16, 3>, %b: memref<16x64xbf16, 3>, %c: tensor<64x64xf32, #acc>) {
  // expected-error @+1 {{A and B must have the same element type, got 'f16' and 'bf16'}}
  %d = musagpu.sqmma %a, %b, %c : memref<64x16xf16, 3>, memref<16x64xbf16, 3> -> tensor<64x64xf32, #acc>
  return
}

// -----

#acc = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
func.func @f64(%a: memref<64x16xf64, 3>, %b: memref<16x64xf64, 3>, %c: tensor<64x64xf32, #acc>) {
  // expected-error @+1 {{unsupported element type 'f64'; expected f16, bf16, f32 (tf32), i8, f8E4M3FN or f8E5M2}}
  %d = musagpu.sqmma %a, %b, %c : memref<64x16xf64, 3>, memref<16x64xf64, 3> -> tensor<64x64xf32, #acc>
  return
}

// -----

#blocked = #musagpu.wmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [16, 16, 16]}>
func.func @no_sqmma_encoding(%a: memref<64x16xf16, 3>, %b: memref<16x64xf16, 3>, %c: tensor<64x64xf32, #blocked>) {
  // expected-error @+1 {{accumulator must have a #musagpu.sqmma encoding}}
  %d = musagpu.sqmma %a, %b, %c : memref<64x16xf16, 3>, memref<16x64xf16, 3> -> tensor<64x64xf32, #blocked>
  return
}

// -----

// TF32 128x128: B row-major would need 512-byte rows.
#acc = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [128, 128, 8]}>
func.func @wide_b(%a: memref<128x8xf32, 3>, %b: memref<8x128xf32, 3>, %c: tensor<128x128xf32, #acc>) {
  // expected-error @+1 {{operand B spans 512 bytes per instruction along its fastest dimension; SQMMA reads at most 256}}
  %d = musagpu.sqmma %a, %b, %c : memref<128x8xf32, 3>, memref<8x128xf32, 3> -> tensor<128x128xf32, #acc>
  return
}

// -----

#acc = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
func.func @shape_mismatch(%a: memref<64x32xf16, 3>, %b: memref<16x64xf16, 3>, %c: tensor<64x64xf32, #acc>) {
  // expected-error @+1 {{shape mismatch: A must be MxK, B KxN and the accumulator MxN, got A 64x32, B 16x64, accumulator 64x64}}
  %d = musagpu.sqmma %a, %b, %c : memref<64x32xf16, 3>, memref<16x64xf16, 3> -> tensor<64x64xf32, #acc>
  return
}

// -----

#acc = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]}>
func.func @partial_tile(%a: memref<64x16xf16, 3>, %b: memref<16x64xf16, 3>, %c: tensor<64x64xf32, #acc>) {
  // expected-error @+1 {{tile 64x64x16 is not a multiple of the instruction shape 64x64x32}}
  %d = musagpu.sqmma %a, %b, %c : memref<64x16xf16, 3>, memref<16x64xf16, 3> -> tensor<64x64xf32, #acc>
  return
}

// -----

#acc = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
func.func @not_shared(%a: memref<64x16xf16>, %b: memref<16x64xf16, 3>, %c: tensor<64x64xf32, #acc>) {
  // expected-error @+1 {{operand #0 must be shared-memory buffer (!ttg.memdesc or memref in address space 3)}}
  %d = musagpu.sqmma %a, %b, %c : memref<64x16xf16>, memref<16x64xf16, 3> -> tensor<64x64xf32, #acc>
  return
}

//===----------------------------------------------------------------------===//
// #musagpu.wmma, #musagpu.wmma_operand, musagpu.wmma
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{#musagpu.wmma instrShape 16x16x16 is not a WMMA atom of capability 2.2; legal: 32x32x16 (f16/bf16), 32x32x8 (tf32), 32x32x32 (s8)}}
#bad = #musagpu.wmma<{versionMajor = 2, versionMinor = 2, warpsPerCTA = [2, 2], instrShape = [16, 16, 16]}>

// -----

// expected-error @+1 {{#musagpu.wmma versionMajor must be 2 (mp_2x) or 3 (mp_31), got 1}}
#bad = #musagpu.wmma<{versionMajor = 1, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [32, 32, 16]}>

// -----

#acc = #musagpu.wmma<{versionMajor = 2, versionMinor = 2, warpsPerCTA = [2, 2], instrShape = [32, 32, 16]}>
// expected-error @+1 {{#musagpu.wmma_operand opIdx must be 0 (A) or 1 (B), got 2}}
#bad = #musagpu.wmma_operand<{opIdx = 2, parent = #acc}>

// -----

// 32x32x8 is the tf32 atom, not an f16 one.
#acc = #musagpu.wmma<{versionMajor = 2, versionMinor = 2, warpsPerCTA = [2, 2], instrShape = [32, 32, 8]}>
#a = #musagpu.wmma_operand<{opIdx = 0, parent = #acc}>
#b = #musagpu.wmma_operand<{opIdx = 1, parent = #acc}>
func.func @wmma_shape(%a: tensor<64x8xf16, #a>, %b: tensor<8x64xf16, #b>, %c: tensor<64x64xf32, #acc>) {
  // expected-error @+1 {{illegal WMMA instruction shape 32x32x8 for f16 on capability 2.2; legal: 32x32x16}}
  %d = musagpu.wmma %a, %b, %c : tensor<64x8xf16, #a>, tensor<8x64xf16, #b> -> tensor<64x64xf32, #acc>
  return
}

// -----

#acc = #musagpu.wmma<{versionMajor = 2, versionMinor = 2, warpsPerCTA = [2, 2], instrShape = [32, 32, 32]}>
#a = #musagpu.wmma_operand<{opIdx = 0, parent = #acc}>
#b = #musagpu.wmma_operand<{opIdx = 1, parent = #acc}>
func.func @wmma_fp8_qy2(%a: tensor<32x32xf8E4M3FN, #a>, %b: tensor<32x32xf8E4M3FN, #b>, %c: tensor<32x32xf32, #acc>) {
  // expected-error @+1 {{illegal WMMA instruction shape 32x32x32 for e4m3 on capability 2.2; legal: none (needs capability >= 3.1)}}
  %d = musagpu.wmma %a, %b, %c : tensor<32x32xf8E4M3FN, #a>, tensor<32x32xf8E4M3FN, #b> -> tensor<32x32xf32, #acc>
  return
}

// -----

#acc = #musagpu.wmma<{versionMajor = 2, versionMinor = 1, warpsPerCTA = [2, 2], instrShape = [32, 32, 16]}>
#a = #musagpu.wmma_operand<{opIdx = 0, parent = #acc}>
#b = #musagpu.wmma_operand<{opIdx = 1, parent = #acc}>
func.func @wmma_bf16_qy1(%a: tensor<32x16xbf16, #a>, %b: tensor<16x32xbf16, #b>, %c: tensor<32x32xf32, #acc>) {
  // expected-error @+1 {{bf16 needs capability >= 2.2}}
  %d = musagpu.wmma %a, %b, %c : tensor<32x16xbf16, #a>, tensor<16x32xbf16, #b> -> tensor<32x32xf32, #acc>
  return
}

// -----

#acc = #musagpu.wmma<{versionMajor = 2, versionMinor = 2, warpsPerCTA = [2, 2], instrShape = [32, 32, 32]}>
#a = #musagpu.wmma_operand<{opIdx = 0, parent = #acc}>
#b = #musagpu.wmma_operand<{opIdx = 1, parent = #acc}>
func.func @wmma_acc(%a: tensor<32x32xi8, #a>, %b: tensor<32x32xi8, #b>, %c: tensor<32x32xf32, #acc>) {
  // expected-error @+1 {{accumulator element type must be i32 for s8 inputs, got 'f32'}}
  %d = musagpu.wmma %a, %b, %c : tensor<32x32xi8, #a>, tensor<32x32xi8, #b> -> tensor<32x32xf32, #acc>
  return
}

// -----

#acc = #musagpu.wmma<{versionMajor = 2, versionMinor = 2, warpsPerCTA = [2, 2], instrShape = [32, 32, 16]}>
#a = #musagpu.wmma_operand<{opIdx = 0, parent = #acc}>
func.func @wmma_operand_idx(%a: tensor<32x16xf16, #a>, %b: tensor<16x32xf16, #a>, %c: tensor<32x32xf32, #acc>) {
  // expected-error @+1 {{operand B must have encoding #musagpu.wmma_operand<{opIdx = 1, parent = #musagpu.wmma<{versionMajor = 2, versionMinor = 2, warpsPerCTA = [2, 2], instrShape = [32, 32, 16]}>}>}}
  %d = musagpu.wmma %a, %b, %c : tensor<32x16xf16, #a>, tensor<16x32xf16, #a> -> tensor<32x32xf32, #acc>
  return
}

// -----

#acc = #musagpu.wmma<{versionMajor = 2, versionMinor = 2, warpsPerCTA = [2, 2], instrShape = [32, 32, 16]}>
#a = #musagpu.wmma_operand<{opIdx = 0, parent = #acc}>
// expected-error @+1 {{#musagpu.wmma_operand encoding has rank 2 but the tensor has rank 3}}
func.func @wmma_operand_rank(%a: tensor<2x32x16xf16, #a>) {
  return
}

//===----------------------------------------------------------------------===//
// #musagpu.tme_shared
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{#musagpu.tme_shared elementBitWidth must be 8, 16, 32 or 64, got 12}}
#bad = #musagpu.tme_shared<{swizzleGranularity = none, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 12, order = [1, 0]}>

// -----

// expected-error @+1 {{#musagpu.tme_shared order must be a permutation of [0, 2)}}
#bad = #musagpu.tme_shared<{swizzleGranularity = none, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 1]}>

// -----

// expected-error @+1 {{#musagpu.tme_shared swizzle granularity (128 B) must not exceed the swizzle stride (32 B)}}
#bad = #musagpu.tme_shared<{swizzleGranularity = b128, swizzleStride = b32, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>

// -----

// expected-error @+2 {{expected ::mlir::musagpu::TMESwizzleGranularity to be one of: none, b16, b32, b64, b128}}
// expected-error @+1 {{failed to parse MUSAGPU_TMESharedEncodingAttr parameter 'swizzleGranularity'}}
#bad = #musagpu.tme_shared<{swizzleGranularity = b256, swizzleStride = b32, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>

// -----

#smem = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
// expected-error @+1 {{#musagpu.tme_shared is for 16-bit elements but the element type is 'f32'}}
func.func @smem_elt(%a: tensor<64x64xf32, #smem>) {
  return
}

//===----------------------------------------------------------------------===//
// TME ops
//===----------------------------------------------------------------------===//

// -----

func.func @tme_rank0(%desc: i64, %bar: i32, %dst: memref<64xf16, 3>) {
  // expected-error @+1 {{TME rank must be 1 to 5, got a box of rank 0}}
  musagpu.tme_load %desc[] to %dst, barrier %bar box [] : i64, memref<64xf16, 3>
  return
}

// -----

func.func @tme_rank6(%desc: i64, %x: i32, %bar: i32, %dst: memref<64xf16, 3>) {
  // expected-error @+1 {{TME rank must be 1 to 5, got a box of rank 6}}
  musagpu.tme_load %desc[%x, %x, %x, %x, %x, %x] to %dst, barrier %bar box [16, 1, 1, 1, 1, 4] : i64, memref<64xf16, 3>
  return
}

// -----

func.func @tme_coords(%desc: i64, %x: i32, %bar: i32, %dst: memref<64x64xf16, 3>) {
  // expected-error @+1 {{expects one coordinate per box dimension (2), got 1}}
  musagpu.tme_load %desc[%x] to %dst, barrier %bar box [64, 64] : i64, memref<64x64xf16, 3>
  return
}

// -----

func.func @tme_small_box(%desc: i64, %x: i32, %bar: i32, %dst: memref<64x8xf16, 3>) {
  // expected-error @+1 {{TME box innermost dimension is 16 bytes; it must be at least 32 bytes}}
  musagpu.tme_load %desc[%x, %x] to %dst, barrier %bar box [8, 64] : i64, memref<64x8xf16, 3>
  return
}

// -----

func.func @tme_split(%desc: i64, %x: i32, %bar: i32, %dst: memref<8x192xf16, 3>) {
  // expected-error @+1 {{TME box innermost dimension is 384 bytes; a box wider than 256 bytes is split into 256-byte loads and must be a multiple of 256 bytes}}
  musagpu.tme_load %desc[%x, %x] to %dst, barrier %bar box [192, 8] : i64, memref<8x192xf16, 3>
  return
}

// -----

func.func @tme_elems(%desc: i64, %x: i32, %bar: i32, %dst: memref<64x64xf16, 3>) {
  // expected-error @+1 {{box holds 2048 elements but the shared buffer 'memref<64x64xf16, 3>' holds 4096}}
  musagpu.tme_load %desc[%x, %x] to %dst, barrier %bar box [64, 32] : i64, memref<64x64xf16, 3>
  return
}

// -----

func.func @tme_bits(%desc: i64, %x: i32, %bar: i32, %dst: memref<256xi1, 3>) {
  // expected-error @+1 {{TME moves whole bytes: element bit width 1 is not a multiple of 8}}
  musagpu.tme_load %desc[%x] to %dst, barrier %bar box [256] : i64, memref<256xi1, 3>
  return
}

// -----

func.func @tme_dim(%desc: i64, %x: i32, %bar: i32, %dst: memref<64xf16, 3>) {
  // expected-error @+1 {{TME box dimensions must be positive}}
  musagpu.tme_load %desc[%x, %x] to %dst, barrier %bar box [64, 0] : i64, memref<64xf16, 3>
  return
}

// -----

func.func @tme_store_box(%desc: i64, %x: i32, %src: memref<4x4xf32, 3>) {
  // expected-error @+1 {{TME box innermost dimension is 16 bytes; it must be at least 32 bytes}}
  musagpu.tme_store %src to %desc[%x, %x] box [4, 4] : memref<4x4xf32, 3>, i64
  return
}

// -----

func.func @tme_global_dst(%desc: i64, %x: i32, %bar: i32, %dst: memref<64xf16, 1>) {
  // expected-error @+1 {{operand #2 must be shared-memory buffer (!ttg.memdesc or memref in address space 3)}}
  musagpu.tme_load %desc[%x] to %dst, barrier %bar box [64] : i64, memref<64xf16, 1>
  return
}

//===----------------------------------------------------------------------===//
// Async barriers
//===----------------------------------------------------------------------===//

// -----

func.func @arrive_count(%bar: i32) {
  %zero = arith.constant 0 : i32
  // expected-error @+1 {{arrive count must be positive, got 0}}
  musagpu.async_barrier_init %bar, arrive_count %zero, phase %zero
  return
}

// -----

func.func @init_phase(%bar: i32, %n: i32) {
  %two = arith.constant 2 : i32
  // expected-error @+1 {{phase must be 0 or 1, got 2}}
  musagpu.async_barrier_init %bar, arrive_count %n, phase %two
  return
}

// -----

func.func @wait_phase(%bar: i32) {
  %minus = arith.constant -1 : i32
  // expected-error @+1 {{phase must be 0 or 1, got -1}}
  musagpu.async_barrier_wait %bar, phase %minus
  return
}

// -----

func.func @expect_bytes(%bar: i32) {
  %zero = arith.constant 0 : i32
  // expected-error @+1 {{expected byte count must be positive, got 0}}
  musagpu.async_barrier_expect_bytes %bar, %zero
  return
}

//===----------------------------------------------------------------------===//
// Async copies
//===----------------------------------------------------------------------===//

// -----

func.func @copy_i128(%src: !llvm.ptr<1>, %dst: !llvm.ptr<3>) {
  // expected-error @+1 {{async global->shared copies move 8, 16, 32 or 64-bit elements, got 'i128' (128 bits)}}
  musagpu.async_copy_global_to_shared %src, %dst : i128
  return
}

// -----

func.func @copy_vec128(%src: !llvm.ptr<1>, %dst: !llvm.ptr<3>) {
  // expected-error @+1 {{async global->shared copies move 8, 16, 32 or 64-bit elements, got 'vector<4xf32>' (128 bits)}}
  musagpu.async_copy_global_to_shared %src, %dst : vector<4xf32>
  return
}

// -----

func.func @copy_i1(%src: !llvm.ptr<1>, %dst: !llvm.ptr<3>) {
  // expected-error @+1 {{async global->shared copies move 8, 16, 32 or 64-bit elements, got 'i1' (1 bits)}}
  musagpu.async_copy_global_to_shared %src, %dst : i1
  return
}

// -----

func.func @copy_index(%src: !llvm.ptr<1>, %dst: !llvm.ptr<3>) {
  // expected-error @+1 {{element type must be integer or float, got 'index'}}
  musagpu.async_copy_global_to_shared %src, %dst : index
  return
}

//===----------------------------------------------------------------------===//
// Layouts against the module launch shape, and memdesc encodings
//===----------------------------------------------------------------------===//

// -----

// QY2 WMMA atoms span 128-thread warps.
#wmma = #musagpu.wmma<{versionMajor = 2, versionMinor = 2, warpsPerCTA = [2, 2], instrShape = [32, 32, 16]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32} {
  // expected-error @+1 {{#musagpu.wmma needs 128 threads per warp but ttg.threads-per-warp is 32}}
  func.func @wmma_warp(%c: tensor<64x64xf32, #wmma>) {
    return
  }
}

// -----

#acc = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 2], instrShape = [64, 64, 16]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32} {
  // expected-error @+1 {{#musagpu.sqmma product of warpsPerCTA (8) does not match ttg.num-warps (4)}}
  func.func @sqmma_warps(%c: tensor<64x64xf32, #acc>) {
    return
  }
}

// -----

#acc = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
#s8 = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 8, order = [1, 0]}>
#s16 = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
func.func @memdesc_elt(%a: !ttg.memdesc<64x16xf16, #s8, #ttg.shared_memory>, %b: !ttg.memdesc<16x64xf16, #s16, #ttg.shared_memory>, %c: tensor<64x64xf32, #acc>) {
  // expected-error @+1 {{but its #musagpu.tme_shared encoding is for 8-bit elements}}
  %d = musagpu.sqmma %a, %b, %c : !ttg.memdesc<64x16xf16, #s8, #ttg.shared_memory>, !ttg.memdesc<16x64xf16, #s16, #ttg.shared_memory> -> tensor<64x64xf32, #acc>
  return
}


// -----

func.func @descriptor_base_pointee(%d: !tt.tensordesc<tensor<16x8xf16>>) {
  // expected-error @+1 {{result must be a global pointer to the block's element type 'f16', got '!tt.ptr<f32>'}}
  %b = musagpu.descriptor_base %d : !tt.tensordesc<tensor<16x8xf16>> -> !tt.ptr<f32>
  return
}

// -----

func.func @descriptor_base_shared(%d: !tt.tensordesc<tensor<16x8xf16>>) {
  // expected-error @+1 {{result must be a global pointer to the block's element type 'f16', got '!tt.ptr<f16, 3>'}}
  %b = musagpu.descriptor_base %d : !tt.tensordesc<tensor<16x8xf16>> -> !tt.ptr<f16, 3>
  return
}
