// RUN: musa-opt %s -split-input-file -verify-diagnostics

// expected-error @below {{sizePerThread, threadsPerWarp, warpsPerCTA and order must all have the same rank}}
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

// -----

// expected-error @below {{every element of threadsPerWarp must be a power of two}}
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [3, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

// -----

// expected-error @below {{every element of sizePerThread must be a power of two}}
#b = #ttg.blocked<{sizePerThread = [1, 0], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

// -----

// expected-error @below {{every element of warpsPerCTA must be a power of two}}
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [6, 1], order = [1, 0]}>

// -----

// expected-error @below {{order must be a permutation of 0..(rank-1), but was [1, 1]}}
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 1]}>

// -----

// expected-error @below {{basis in 'CGALayout' has 1 entries, expected the layout rank 2}}
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[1]]}>

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @below {{slice dim=2 must be less than the parent rank=2}}
#s = #ttg.slice<{dim = 2, parent = #b}>

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-error @below {{slice parent must have rank >= 2}}
#s = #ttg.slice<{dim = 0, parent = #b}>

// -----

// expected-error @below {{slice parent must be a distributed layout}}
#s = #ttg.slice<{dim = 0, parent = #ttg.shared_memory}>

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @below {{dot_op opIdx must be 0 or 1, got 2}}
#d = #ttg.dot_op<{opIdx = 2, parent = #b}>

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @below {{dot_op kWidth is not supported when the parent is a blocked layout}}
#d = #ttg.dot_op<{opIdx = 0, parent = #b, kWidth = 2}>

// -----

// expected-error @below {{each 'lane' basis must move along at most one dimension}}
#l = #ttg.linear<{register = [], lane = [[1, 1]], warp = [], block = []}>

// -----

// expected-error @below {{basis in 'warp' has 1 entries, expected the layout rank 2}}
#l = #ttg.linear<{register = [[0, 1]], lane = [], warp = [[1]], block = []}>

// -----

// expected-error @below {{empty linear layout is not supported}}
#l = #ttg.linear<{register = [], lane = [], warp = [], block = []}>

// -----

// expected-error @below {{vec, perPhase and maxPhase must be positive}}
#s = #ttg.swizzled_shared<{vec = 0, perPhase = 1, maxPhase = 1, order = [1, 0]}>

// -----

// expected-error @below {{swizzlingByteWidth must be 0, 32, 64 or 128, got 48}}
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 48, transposed = false, elementBitWidth = 16}>

// -----

// expected-error @below {{interval values must all be powers of two}}
#s = #ttg.padded_shared<[30:+4] {order = [1, 0], shape = [32, 32]}>

// -----

// expected-error @below {{broadcasting is not supported in a padded layout}}
#s = #ttg.padded_shared<[4:+4] {offset = [[0, 1], [0, 1]], block = []}>

// -----

// expected-error @below {{alignment must be a positive power of two}}
#s = #ttg.shared_linear<{offset = [[0, 1], [1, 0]]}, alignment = 12>

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @below {{layout rank 2 does not match tensor rank 1}}
func.func private @f(tensor<32xf32, #b>)

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// expected-error @below {{memorySpace must be #ttg.shared_memory for a shared encoding}}
func.func private @f(!ttg.memdesc<32x32xf16, #shared>)

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
// expected-error @below {{encoding rank must be equal to or one less than the shape rank. Got 1 and 3}}
func.func private @f(!ttg.memdesc<2x32x32xf16, #shared, #smem>)

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
// expected-error @below {{shape must not exceed the alloc shape}}
func.func private @f(!ttg.memdesc<32x64xf16, #shared, #smem, 32x32>)

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @below {{is not a valid memdesc encoding}}
func.func private @f(!ttg.memdesc<32x32xf16, #blocked, #ttg.shared_memory>)

// -----

// expected-error @below {{'ttg.num-warps' must be a positive power-of-two integer}}
module attributes {"ttg.num-warps" = 3 : i32, "ttg.threads-per-warp" = 32 : i32} {}

// -----

// expected-error @below {{'ttg.threads-per-warp' must be a positive power-of-two integer}}
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 0 : i32} {}

// -----

// expected-error @below {{'ttg.target' must be a string naming a known backend}}
module attributes {ttg.target = "rocm:gfx90a"} {}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // expected-error @below {{product of threadsPerWarp is 16 but the module's "ttg.threads-per-warp" is 32}}
  func.func @f(%x: tensor<16x16xf32, #blocked>) {
    return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  func.func @f(%x: tensor<16x16xf32, #blocked>) {
    // expected-error @below {{product of warpsPerCTA is 2 but the module's "ttg.num-warps" is 4}}
    %0 = ttg.convert_layout %x : tensor<16x16xf32, #blocked> -> tensor<16x16xf32, #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 4, 8], warpsPerCTA = [1, 2, 1], order = [2, 1, 0]}>}>>
    return
  }
}

// -----

#linear = #ttg.linear<{register = [], lane = [[0, 1], [0, 2], [0, 4], [1, 0], [2, 0]], warp = [[4, 0]], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  // expected-error @below {{2^(number of lane bases) is 32 but the module's "ttg.threads-per-warp" is 128}}
  func.func @f(%x: tensor<8x8xf32, #linear>) {
    return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#c = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @f(%x: tensor<32x32xf32, #b>) {
  // expected-error @below {{requires the same shape for all operands and results}}
  %0 = ttg.convert_layout %x : tensor<32x32xf32, #b> -> tensor<32x16xf32, #c>
  return
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @f(%x: tensor<32x32xf32, #b>) {
  // expected-error @below {{tensor shape must match the memdesc shape}}
  %0 = ttg.local_alloc %x : (tensor<32x32xf32, #b>) -> !ttg.memdesc<32x16xf32, #shared, #smem>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @f() {
  // expected-error @below {{uninitialised buffer must be mutable}}
  %0 = ttg.local_alloc : () -> !ttg.memdesc<32x16xf32, #shared, #smem>
  return
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @f(%m: !ttg.memdesc<32x32xf16, #shared, #smem>) {
  // expected-error @below {{tensor element type must match the memdesc element type}}
  %0 = ttg.local_load %m : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf32, #b>
  return
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @f(%x: tensor<32x32xf16, #b>, %m: !ttg.memdesc<32x32xf16, #shared, #smem>) {
  // expected-error @below {{cannot store into immutable memory}}
  ttg.local_store %x, %m : tensor<32x32xf16, #b> -> !ttg.memdesc<32x32xf16, #shared, #smem>
  return
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @f(%x: tensor<32x16xf16, #b>, %m: !ttg.memdesc<32x32xf16, #shared, #smem, mutable>) {
  // expected-error @below {{tensor shape must match the memdesc shape}}
  ttg.local_store %x, %m : tensor<32x16xf16, #b> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @f(%m: !ttg.memdesc<2x32x32xf16, #shared, #smem>, %i: i32) {
  // expected-error @below {{result shape must be the source shape without its leading dimension}}
  %0 = ttg.memdesc_index %m[%i] : !ttg.memdesc<2x32x32xf16, #shared, #smem> -> !ttg.memdesc<32x16xf16, #shared, #smem>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @f(%m: !ttg.memdesc<32x32xf16, #shared, #smem>) {
  // expected-error @below {{subslice exceeds the source shape}}
  %0 = ttg.memdesc_subslice %m[0, 24] : !ttg.memdesc<32x32xf16, #shared, #smem> -> !ttg.memdesc<32x16xf16, #shared, #smem, 32x32>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @f(%m: !ttg.memdesc<32x16xf16, #shared, #smem>) {
  // expected-error @below {{result shape must be the permuted source shape}}
  %0 = ttg.memdesc_trans %m {order = array<i32: 1, 0>} : !ttg.memdesc<32x16xf16, #shared, #smem> -> !ttg.memdesc<32x16xf16, #shared, #smem>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @f(%m: !ttg.memdesc<32x16xf16, #shared, #smem>) {
  // expected-error @below {{source and result must have the same number of elements}}
  %0 = ttg.memdesc_reshape %m : !ttg.memdesc<32x16xf16, #shared, #smem> -> !ttg.memdesc<32x32xf16, #shared, #smem>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @f(%m: !ttg.memdesc<16x16xf16, #shared, #smem, 32x32>) {
  // expected-error @below {{cannot reinterpret a subview}}
  %0 = ttg.memdesc_reinterpret %m : !ttg.memdesc<16x16xf16, #shared, #smem, 32x32> -> !ttg.memdesc<16x16xi16, #shared, #smem>
  return
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @f(%x: tensor<32x16xi8, #b>) {
  // expected-error @below {{result dimension 1 must be 32}}
  %0 = ttg.fp4_to_fp %x {axis = 1 : i32} : tensor<32x16xi8, #b> -> tensor<32x16xbf16, #b>
  return
}

// -----

func.func @f(%i: i32) {
  // expected-error @below {{partition warp counts must be powers of two}}
  ttg.warp_specialize(%i)
  default {
    ttg.warp_yield
  }
  partition0(%a: i32) num_warps(3) {
    ttg.warp_return
  } : (i32) -> ()
  return
}

// -----

func.func @f(%i: i32) {
  %0 = ttg.warp_specialize(%i)
  default {
    // expected-error @below {{operand types must match the ttg.warp_specialize result types}}
    ttg.warp_yield
  }
  partition0(%a: i32) num_warps(4) {
    ttg.warp_return
  } : (i32) -> i32
  return
}
