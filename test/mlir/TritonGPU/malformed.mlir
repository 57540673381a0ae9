// Malformed input must give file:line:col diagnostics and a non-zero exit.
// RUN: not musa-opt %s -split-input-file 2>&1 | FileCheck %s

// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: unexpected key: bogus
#b = #ttg.blocked<{sizePerThread = [1], bogus = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// -----

// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: missing key 'order'
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4]}>

// -----

// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: expected an array of integers for 'sizePerThread'
#b = #ttg.blocked<{sizePerThread = 1, threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// -----

// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: unexpected key: register2
#l = #ttg.linear<{register = [], register2 = [], lane = [[1]], warp = [], block = []}>

// -----

// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: expected keys 'dim' and 'parent'
#s = #ttg.slice<{dim = 0}>

// -----

// CHECK: malformed.mlir:[[@LINE+2]]:{{[0-9]+}}: error: custom op 'ttg.async_copy_global_to_local' unknown keyword 'evict_sometimes'
func.func @f(%p: tensor<4x!tt.ptr<f16>>, %m: !ttg.memdesc<4xf16, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, #ttg.shared_memory, mutable>) {
  %0 = ttg.async_copy_global_to_local %p, %m evictionPolicy = evict_sometimes : tensor<4x!tt.ptr<f16>> -> <4xf16, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, #ttg.shared_memory, mutable>
  return
}

// -----

// A module cut off in the middle of a layout.
// CHECK: malformed.mlir:[[@LINE+2]]:{{[0-9]+}}: error:
module attributes {"ttg.num-warps" = 4 : i32} {
  func.func private @f(tensor<4xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32]
