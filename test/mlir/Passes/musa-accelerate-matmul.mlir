// RUN: musa-opt %s --musa-accelerate-matmul --split-input-file | FileCheck %s --check-prefixes=QY2,PH1
// RUN: musa-opt %s --musa-accelerate-matmul=enable-mma=false --split-input-file | FileCheck %s --check-prefix=OFF
// RUN: musa-opt %s --musa-accelerate-matmul=enable-sqmma=false --split-input-file | FileCheck %s --check-prefix=NOSQ

// A 64x64x32 f16 dot on QY2 with 4 warps: two atom rows, two atom columns.
// QY2: #[[WMMA:.*]] = #musagpu.wmma<{versionMajor = 2, versionMinor = 2, warpsPerCTA = [2, 2], instrShape = [32, 32, 16]}>
// QY2: #[[OPA:.*]] = #musagpu.wmma_operand<{opIdx = 0, parent = #[[WMMA]]}>
// QY2: #[[OPB:.*]] = #musagpu.wmma_operand<{opIdx = 1, parent = #[[WMMA]]}>
// QY2-LABEL: @f16
// QY2: %[[A:.*]] = ttg.convert_layout %{{.*}} -> tensor<64x32xf16, #[[OPA]]>
// QY2: %[[B:.*]] = ttg.convert_layout %{{.*}} -> tensor<32x64xf16, #[[OPB]]>
// QY2: %[[C:.*]] = ttg.convert_layout %{{.*}} : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #[[WMMA]]>
// QY2: %[[D:.*]] = musagpu.wmma %[[A]], %[[B]], %[[C]]
// QY2: ttg.convert_layout %[[D]] : tensor<64x64xf32, #[[WMMA]]> -> tensor<64x64xf32, #blocked>
// QY2-NOT: tt.dot
// OFF-LABEL: @f16
// OFF: tt.dot {{.*}} {musa.dot_path_reason = "matrix units disabled (ENABLE_MUSA_MMA=0)"}
// OFF-NOT: musagpu.wmma

#blocked = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @f16(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

// -----

// bf16, 8 warps over 128x64: 4 warps along M (its four atom rows), 2 along N.
// QY2: #[[WMMA:.*]] = #musagpu.wmma<{versionMajor = 2, versionMinor = 2, warpsPerCTA = [4, 2], instrShape = [32, 32, 16]}>
// QY2-LABEL: @bf16
// QY2: musagpu.wmma {{.*}} -> tensor<128x64xf32, #[[WMMA]]>
// QY2-NOT: tt.dot

#blocked = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @bf16(%a: tensor<128x16xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<16x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<128x64xf32, #blocked>) -> tensor<128x64xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<128x16xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<16x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<128x64xf32, #blocked>
    tt.return %d : tensor<128x64xf32, #blocked>
  }
}

// -----

// f32 operands: only input_precision = tf32 could take a matrix path, and
// the QY2 tf32 atom is unconfirmed.
// QY2-LABEL: @f32_ieee
// QY2: tt.dot {{.*}} {musa.dot_path_reason = "f32 operands with input_precision = ieee (only tf32 takes a matrix path)"}
// QY2-NOT: musagpu.wmma
// QY2-LABEL: @f32_tf32
// QY2: tt.dot {{.*}} {musa.dot_path_reason = "no confirmed tf32 WMMA atom on mp_22 (MUSA-FACTS.md: only f16/bf16 m32n32k16)"}
// QY2-NOT: musagpu.wmma

#blocked = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @f32_ieee(%a: tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %d = tt.dot %a, %b, %c, inputPrecision = ieee : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
  tt.func public @f32_tf32(%a: tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

// -----

// Shapes and warps a whole number of atoms cannot cover stay on FMA.
// QY2-LABEL: @small_m
// QY2: tt.dot {{.*}} {musa.dot_path_reason = "shape 16x64x32 is not a multiple of the m32n32k16 atom"}
// QY2-LABEL: @too_many_warps
// QY2: tt.dot {{.*}} {musa.dot_path_reason = "num_warps = 4 cannot tile 32x64 with 32x32 atoms, one per warp at least"}
// QY2-LABEL: @f16_acc
// QY2: tt.dot {{.*}} {musa.dot_path_reason = "f16 accumulator (WMMA accumulates in f32)"}
// QY2-NOT: musagpu.wmma

#blocked = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @small_m(%a: tensor<16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<16x64xf32, #blocked>) -> tensor<16x64xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<16x64xf32, #blocked>
    tt.return %d : tensor<16x64xf32, #blocked>
  }
  tt.func public @too_many_warps(%a: tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<32x64xf32, #blocked>) -> tensor<32x64xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<32x64xf32, #blocked>
    tt.return %d : tensor<32x64xf32, #blocked>
  }
  tt.func public @f16_acc(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf16, #blocked>) -> tensor<64x64xf16, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf16, #blocked>
    tt.return %d : tensor<64x64xf16, #blocked>
  }
}

// -----

// On mp_31 SQMMA is the matrix unit and not lowered yet, so the dot stays on
// FMA, saying so; with MUSA_ENABLE_SQMMA=0 it says that instead.
// PH1-LABEL: @ph1_f16
// PH1: tt.dot {{.*}} {musa.dot_path_reason = "SQMMA lowering not implemented yet"}
// PH1-NOT: musagpu.wmma
// NOSQ-LABEL: @ph1_f16
// NOSQ: tt.dot {{.*}} {musa.dot_path_reason = "SQMMA disabled (MUSA_ENABLE_SQMMA=0) and no other matrix path on mp_31"}

#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @ph1_f16(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

// -----

// A K loop carries the accumulator in the WMMA layout: its conversions move
// out of the loop; the zero init is made in that layout (no conversion, no
// scratch).
// QY2: #[[WMMA:.*]] = #musagpu.wmma<
// QY2-LABEL: @k_loop
// QY2: %[[INIT:.*]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #[[WMMA]]>
// QY2: %[[R:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (tensor<64x64xf32, #[[WMMA]]>)
// QY2-NOT: ttg.convert_layout %[[ACC]]
// QY2: %[[D:.*]] = musagpu.wmma %{{.*}}, %{{.*}}, %[[ACC]]
// QY2-NEXT: scf.yield %[[D]] : tensor<64x64xf32, #[[WMMA]]>
// QY2: ttg.convert_layout %[[R]] : tensor<64x64xf32, #[[WMMA]]> -> tensor<64x64xf32, #blocked>

#blocked = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @k_loop(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %n: i32) -> tensor<64x64xf32, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #blocked>) : i32 {
      %d = tt.dot %a, %b, %acc : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
      scf.yield %d : tensor<64x64xf32, #blocked>
    }
    tt.return %r : tensor<64x64xf32, #blocked>
  }
}
