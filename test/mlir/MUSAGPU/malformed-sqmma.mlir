// RUN: not musa-opt %s 2>&1 | FileCheck %s

// An illegal SQMMA shape is a located error, not a crash.

// CHECK: {{.*}}malformed-sqmma.mlir:{{[0-9]+}}:{{[0-9]+}}: error: {{.*}}illegal SQMMA instruction M x N = 32x128 for tf32
#acc = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [32, 128, 8]}>
func.func @bad(%a: memref<32x8xf32, 3>, %b: memref<8x128xf32, 3>, %c: tensor<32x128xf32, #acc>) -> tensor<32x128xf32, #acc> {
  %d = musagpu.sqmma %a, %b, %c {transB = true} : memref<32x8xf32, 3>, memref<8x128xf32, 3> -> tensor<32x128xf32, #acc>
  return %d : tensor<32x128xf32, #acc>
}
