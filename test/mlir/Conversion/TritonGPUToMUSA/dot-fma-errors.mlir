// tt.dot cases the FMA lowering refuses, each naming what it cannot handle.
// RUN: musa-opt %s -split-input-file -convert-tritongpu-to-musa=arch=mp_31 -verify-diagnostics
// RUN: musa-opt %S/Inputs/dot-fma-errors.mp_22.mlir -split-input-file -convert-tritongpu-to-musa=arch=mp_22 -verify-diagnostics

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @parent_mismatch(%a: tensor<16x2xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>, %b: tensor<2x8xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<16x8xf32, #blocked>) {
    // expected-error @below {{'tt.dot' is not supported by --convert-tritongpu-to-musa yet with operand A in layout #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>}> (the FMA path needs #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>)}}
    %d = tt.dot %a, %b, %c : tensor<16x2xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> * tensor<2x8xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<16x8xf32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @operand_blocked(%a: tensor<16x2xf32, #blocked>, %b: tensor<2x8xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<16x8xf32, #blocked>) {
    // expected-error @below {{'tt.dot' is not supported by --convert-tritongpu-to-musa yet with operand A in layout #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}}
    %d = tt.dot %a, %b, %c : tensor<16x2xf32, #blocked> * tensor<2x8xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<16x8xf32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#linear = #ttg.linear<{register = [], lane = [[0, 1], [0, 2], [0, 4], [1, 0], [2, 0]], warp = [[4, 0], [8, 0]], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @result_linear(%a: tensor<16x2xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<2x8xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<16x8xf32, #linear>) {
    // expected-error @below {{'tt.dot' is not supported by --convert-tritongpu-to-musa yet with a result in layout #ttg.linear}}
    %d = tt.dot %a, %b, %c : tensor<16x2xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<2x8xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<16x8xf32, #linear>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @f32_into_f16(%a: tensor<16x2xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<2x8xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<16x8xf16, #blocked>) {
    // expected-error @below {{'tt.dot' is not supported by --convert-tritongpu-to-musa yet for 'f32' operands into 'f16' accumulators}}
    %d = tt.dot %a, %b, %c : tensor<16x2xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<2x8xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<16x8xf16, #blocked>
    tt.return
  }
}
