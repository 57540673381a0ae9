// Descriptor cases the non-TME lowering refuses, each named.
// RUN: musa-opt %s -split-input-file -convert-tritongpu-to-musa=arch=mp_31 -verify-diagnostics
// RUN: musa-opt %S/Inputs/descriptor-errors.mp_22.mlir -split-input-file -convert-tritongpu-to-musa=arch=mp_22 -verify-diagnostics

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // A device function gets the descriptor without its shape and strides.
  tt.func @device_fn(%d: !tt.tensordesc<tensor<16x8xf16>>, %i: i32) -> tensor<16x8xf16, #blocked> {
    // expected-error @below {{'tt.descriptor_load' is not supported by --convert-tritongpu-to-musa yet on a descriptor that is neither made by 'tt.make_tensor_descriptor' nor a kernel argument followed by its shape and strides}}
    %t = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<16x8xf16>> -> tensor<16x8xf16, #blocked>
    tt.return %t : tensor<16x8xf16, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // x_offsets held by other threads than the rows of the result.
  tt.func public @gather_layout(%d: !tt.tensordesc<tensor<1x8xbf16>>, %r: i32, %c: i32, %sr: i64, %sc: i64, %x: tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>, %y: i32) -> tensor<16x8xbf16, #blocked> {
    // expected-error @below {{'tt.descriptor_gather' is not supported by --convert-tritongpu-to-musa yet with x_offsets in layout #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]}>}>, whose threads do not hold the rows of the tile}}
    %g = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x8xbf16>>, tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>, i32) -> tensor<16x8xbf16, #blocked>
    tt.return %g : tensor<16x8xbf16, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @reduce_fmax(%p: !tt.ptr<f32>, %m: i32, %n: i32, %sm: i64, %v: tensor<16x8xf32, #blocked>, %i: i32) {
    %c1 = arith.constant 1 : i64
    %d = tt.make_tensor_descriptor %p, [%m, %n], [%sm, %c1] : <f32>, <tensor<16x8xf32>>
    // expected-error @below {{'tt.descriptor_reduce' max on 'f32' is not supported by --convert-tritongpu-to-musa yet (no such atomic in LLVM 14)}}
    tt.descriptor_reduce max, %d[%i, %i], %v : !tt.tensordesc<tensor<16x8xf32>>, tensor<16x8xf32, #blocked>
    tt.return
  }
}
