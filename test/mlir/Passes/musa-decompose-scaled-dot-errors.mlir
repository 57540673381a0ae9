// tt.dot_scaled forms --musa-decompose-scaled-dot refuses, each named.
// RUN: musa-opt %s -split-input-file --musa-decompose-scaled-dot -verify-diagnostics

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fp6(%a: tensor<32x32xi8, #blocked>, %b: tensor<32x32xbf16, #blocked>, %c: tensor<32x32xf32, #blocked>) -> tensor<32x32xf32, #blocked> {
    // expected-error @below {{operand 0 of format e2m3 (fp6) is not supported on MUSA: there is no fp6 upcast}}
    %d = tt.dot_scaled %a, %b, %c lhs = e2m3 rhs = bf16 {fastMath = false} : tensor<32x32xi8, #blocked> * tensor<32x32xbf16, #blocked> -> tensor<32x32xf32, #blocked>
    tt.return %d : tensor<32x32xf32, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @float_scale(%a: tensor<32x32xf8E4M3FN, #blocked>, %s: tensor<32x2xbf16, #blocked>, %b: tensor<32x32xbf16, #blocked>, %c: tensor<32x32xf32, #blocked>) -> tensor<32x32xf32, #blocked> {
    // expected-error @below {{scale of operand 0 must be e8m0 in i8, got 'bf16' (float scales are not supported on MUSA)}}
    %d = tt.dot_scaled %a scale %s, %b, %c lhs = e4m3 rhs = bf16 {fastMath = false} : tensor<32x32xf8E4M3FN, #blocked>, tensor<32x2xbf16, #blocked> * tensor<32x32xbf16, #blocked> -> tensor<32x32xf32, #blocked>
    tt.return %d : tensor<32x32xf32, #blocked>
  }
}

// -----

#linear = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [16, 0]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [0, 0]], warp = [[0, 0], [0, 0]], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @not_blocked(%a: tensor<32x32xbf16, #linear>, %b: tensor<32x32xbf16, #linear>, %c: tensor<32x32xf32, #linear>) -> tensor<32x32xf32, #linear> {
    // expected-error @below {{is decomposed for a #ttg.blocked result only}}
    %d = tt.dot_scaled %a, %b, %c lhs = bf16 rhs = bf16 {fastMath = false} : tensor<32x32xbf16, #linear> * tensor<32x32xbf16, #linear> -> tensor<32x32xf32, #linear>
    tt.return %d : tensor<32x32xf32, #linear>
  }
}
