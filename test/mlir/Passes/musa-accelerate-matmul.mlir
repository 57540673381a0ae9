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
// QY2-NOT: = musagpu.wmma
// QY2-LABEL: @f32_tf32
// QY2: tt.dot {{.*}} {musa.dot_path_reason = "no tf32 WMMA instruction of mp_22 is lowered (m32n32k8: no public source confirms this QY2 atom (MUSA-FACTS.md: only f16/bf16 m32n32k16))"}
// QY2-NOT: = musagpu.wmma

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

// Shapes a whole number of atoms cannot cover stay on FMA. Fewer atoms than
// warps (32x64: two) take WMMA, the warps past the atoms along N replicated.
// QY2: #[[WR:.*]] = #musagpu.wmma<{{.*}}warpsPerCTA = [1, 4]
// QY2-LABEL: @small_m
// QY2: tt.dot {{.*}} {musa.dot_path_reason = "shape 16x64x32 is not a multiple of the m32n32k16 atom"}
// QY2-LABEL: @too_many_warps
// QY2-NOT: tt.dot
// QY2: musagpu.wmma {{.*}} -> tensor<32x64xf32, #[[WR]]>
// An f16 accumulator runs on WMMA in f32: widened in the WMMA layout before
// the instruction, rounded once after it.
// QY2-LABEL: @f16_acc
// QY2: %[[C:.*]] = ttg.convert_layout %arg2 : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #[[WMMA:.*]]>
// QY2-NEXT: %[[WIDE:.*]] = arith.extf %[[C]] : tensor<64x64xf16, #[[WMMA]]> to tensor<64x64xf32, #[[WMMA]]>
// QY2-NEXT: %[[D:.*]] = musagpu.wmma {{.*}}, %[[WIDE]] : {{.*}} -> tensor<64x64xf32, #[[WMMA]]>
// QY2-NEXT: %[[R:.*]] = arith.truncf %[[D]] : tensor<64x64xf32, #[[WMMA]]> to tensor<64x64xf16, #[[WMMA]]>
// QY2-NEXT: ttg.convert_layout %[[R]] : tensor<64x64xf16, #[[WMMA]]> -> tensor<64x64xf16, #blocked>

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

// mp_31: SQMMA. Register operands go to shared memory through explicit
// local_allocs in the SQMMA swizzle (16-byte granules for K-major A, 32-byte
// for N-major 16-bit B), aligned to the swizzle period (256 * 256 / G bytes);
// the accumulator is converted to #musagpu.sqmma and read after the wait.
// 64x64x32 with 4 warps is one m64n64k32 per squad; a K = 128 bf16 tile uses
// K = 64 instructions (two K steps), never K = 128. With MUSA_ENABLE_SQMMA=0
// the dot goes to PH1's WMMA.
// PH1: #[[SA:.*]] = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
// PH1: #[[SB:.*]] = #musagpu.tme_shared<{swizzleGranularity = b32, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
// PH1: #[[SQ:.*]] = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]}>
// PH1: #[[SQ64:.*]] = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 64]}>
// PH1-LABEL: @ph1_f16
// PH1: %[[A:.*]] = ttg.local_alloc %arg0 {alignment = 4096 : i32} : ({{.*}}) -> !ttg.memdesc<64x32xf16, #[[SA]], #smem>
// PH1: %[[B:.*]] = ttg.local_alloc %arg1 {alignment = 2048 : i32} : ({{.*}}) -> !ttg.memdesc<32x64xf16, #[[SB]], #smem>
// PH1: %[[C:.*]] = ttg.convert_layout %arg2 : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #[[SQ]]>
// PH1: %[[D:.*]] = musagpu.sqmma %[[A]], %[[B]], %[[C]] :
// PH1-NEXT: %[[W:.*]] = musagpu.sqmma_wait %[[D]]
// PH1-NEXT: ttg.convert_layout %[[W]] : tensor<64x64xf32, #[[SQ]]> -> tensor<64x64xf32, #blocked>
// PH1-LABEL: @ph1_k128
// PH1: musagpu.sqmma {{.*}} -> tensor<64x64xf32, #[[SQ64]]>
// PH1-LABEL: @ph1_f16_acc
// PH1: %[[C:.*]] = ttg.convert_layout %arg2 : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #[[SQ]]>
// PH1-NEXT: %[[WIDE:.*]] = arith.extf %[[C]] : tensor<64x64xf16, #[[SQ]]> to tensor<64x64xf32, #[[SQ]]>
// PH1-NEXT: %[[D:.*]] = musagpu.sqmma {{.*}}, %[[WIDE]] : {{.*}} -> tensor<64x64xf32, #[[SQ]]>
// PH1-NEXT: %[[W:.*]] = musagpu.sqmma_wait %[[D]]
// PH1-NEXT: %[[R:.*]] = arith.truncf %[[W]] : tensor<64x64xf32, #[[SQ]]> to tensor<64x64xf16, #[[SQ]]>
// PH1-NEXT: ttg.convert_layout %[[R]] : tensor<64x64xf16, #[[SQ]]> -> tensor<64x64xf16, #blocked>
// NOSQ-LABEL: @ph1_f16
// NOSQ-NOT: musagpu.sqmma
// NOSQ: musagpu.wmma {{.*}} -> tensor<64x64xf32, #{{.*}}>

#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @ph1_f16(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
  tt.func public @ph1_k128(%a: tensor<64x128xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<128x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<64x128xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<128x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
  tt.func public @ph1_f16_acc(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf16, #blocked>) -> tensor<64x64xf16, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf16, #blocked>
    tt.return %d : tensor<64x64xf16, #blocked>
  }
}


// -----

// Squads are 4 warps: 2 warps cannot run SQMMA; PH1's WMMA takes the dot
// (m16n16k32 atoms for K = 32, test/mlir/Passes/musa-accelerate-matmul-ph1-wmma.mlir).
// PH1: #[[PW:.*]] = #musagpu.wmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [2, 1], instrShape = [16, 16, 32]}>
// PH1-LABEL: @ph1_two_warps
// PH1-NOT: tt.dot
// PH1: musagpu.wmma {{.*}} -> tensor<64x64xf32, #[[PW]]>


#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @ph1_two_warps(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}


// -----

// 8 warps over 128x256x64: the fewest instructions per squad is one
// m128n128k64 each, two squads along N.
// PH1: #[[SQ8:.*]] = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 2], instrShape = [128, 128, 64]}>
// PH1-LABEL: @ph1_eight_warps
// PH1: musagpu.sqmma {{.*}} -> tensor<128x256xf32, #[[SQ8]]>


#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @ph1_eight_warps(%a: tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<64x256xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<128x256xf32, #blocked>) -> tensor<128x256xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x256xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<128x256xf32, #blocked>
    tt.return %d : tensor<128x256xf32, #blocked>
  }
}


// -----

// An unpipelined K loop (the form this pass sees: Triton's stage stops
// before pipelining): each loaded operand is stored once into an SQMMA
// buffer right after its load (which --musa-pipeline-loops then turns into
// a ring the sqmma reads in place), and the loop carries the accumulator in
// #musagpu.sqmma: no local_load and no convert_layout in the loop.
// PH1: #[[RA:.*]] = #musagpu.tme_shared<{swizzleGranularity = b16, {{.*}}order = [1, 0]}>
// PH1: #[[RB:.*]] = #musagpu.tme_shared<{swizzleGranularity = b32, {{.*}}order = [1, 0]}>
// PH1: #[[RSQ:.*]] = #musagpu.sqmma<{{.*}}instrShape = [64, 64, 32]}>
// PH1-LABEL: @ph1_k_loop
// PH1: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<64x64xf32, #[[RSQ]]>)
// PH1: %[[X:.*]] = tt.load
// PH1-NEXT: %[[SA:.*]] = ttg.local_alloc %[[X]] {alignment = 4096 : i32} : (tensor<64x32xf16, #{{.*}}>) -> !ttg.memdesc<64x32xf16, #[[RA]], #smem>
// PH1: %[[Y:.*]] = tt.load
// PH1-NEXT: %[[SB:.*]] = ttg.local_alloc %[[Y]] {alignment = 2048 : i32} : (tensor<32x64xf16, #{{.*}}>) -> !ttg.memdesc<32x64xf16, #[[RB]], #smem>
// PH1-NOT: ttg.local_load
// PH1-NOT: ttg.convert_layout
// PH1: %[[D:.*]] = musagpu.sqmma %[[SA]], %[[SB]], %[[ACC]]
// PH1-NEXT: %[[W:.*]] = musagpu.sqmma_wait %[[D]]
// PH1-NEXT: scf.yield %[[W]]

#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @ph1_k_loop(%pa: tensor<64x32x!tt.ptr<f16>, #ld>, %pb: tensor<32x64x!tt.ptr<f16>, #ld>, %n: i32) -> tensor<64x64xf32, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #blocked>) : i32 {
      %x = tt.load %pa : tensor<64x32x!tt.ptr<f16>, #ld>
      %y = tt.load %pb : tensor<32x64x!tt.ptr<f16>, #ld>
      %a = ttg.convert_layout %x : tensor<64x32xf16, #ld> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
      %b = ttg.convert_layout %y : tensor<32x64xf16, #ld> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
      %d = tt.dot %a, %b, %acc : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
      scf.yield %d : tensor<64x64xf32, #blocked>
    }
    tt.return %r : tensor<64x64xf32, #blocked>
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

// -----

// Batched (rank-3) dots on mp_22 take warps along the batch first, the rest tile
// M x N as for a 2-D dot: 4x64x64x32 with 4 warps is one warp per batch;
// 2x64x64x32 with 8 warps two along the batch and 2 x 2 over each 64x64.
// 2x32x64x32 with 8 warps has too few atoms for the warps and stays on FMA.
// QY2: #[[WB:.*]] = #musagpu.wmma<{versionMajor = 2, versionMinor = 2, warpsPerCTA = [4, 1, 1], instrShape = [32, 32, 16]}>
// QY2: #[[OPA:.*]] = #musagpu.wmma_operand<{opIdx = 0, parent = #[[WB]]}>
// QY2: #[[OPB:.*]] = #musagpu.wmma_operand<{opIdx = 1, parent = #[[WB]]}>
// QY2-LABEL: @bmm_f16
// QY2: %[[A:.*]] = ttg.convert_layout %{{.*}} -> tensor<4x64x32xf16, #[[OPA]]>
// QY2: %[[B:.*]] = ttg.convert_layout %{{.*}} -> tensor<4x32x64xf16, #[[OPB]]>
// QY2: %[[C:.*]] = ttg.convert_layout %{{.*}} : tensor<4x64x64xf32, #blocked> -> tensor<4x64x64xf32, #[[WB]]>
// QY2: %[[D:.*]] = musagpu.wmma %[[A]], %[[B]], %[[C]]
// QY2: ttg.convert_layout %[[D]] : tensor<4x64x64xf32, #[[WB]]> -> tensor<4x64x64xf32, #blocked>
// QY2-NOT: tt.dot
// OFF-LABEL: @bmm_f16
// OFF: tt.dot {{.*}} {musa.dot_path_reason = "matrix units disabled (ENABLE_MUSA_MMA=0)"}

#blocked = #ttg.blocked<{sizePerThread = [1, 2, 2], threadsPerWarp = [1, 4, 32], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @bmm_f16(%a: tensor<4x64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<4x32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<4x64x64xf32, #blocked>) -> tensor<4x64x64xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<4x64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<4x32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<4x64x64xf32, #blocked>
    tt.return %d : tensor<4x64x64xf32, #blocked>
  }
}

// -----

// QY2: #[[WB:.*]] = #musagpu.wmma<{versionMajor = 2, versionMinor = 2, warpsPerCTA = [2, 2, 2], instrShape = [32, 32, 16]}>
// QY2: #[[WBR:.*]] = #musagpu.wmma<{{.*}}warpsPerCTA = [2, 1, 4]
// QY2-LABEL: @bmm_bf16_8warps
// QY2: musagpu.wmma {{.*}} -> tensor<2x64x64xf32, #[[WB]]>
// QY2-LABEL: @bmm_too_many_warps
// QY2-NOT: tt.dot
// QY2: musagpu.wmma {{.*}} -> tensor<2x32x64xf32, #[[WBR]]>

#blocked = #ttg.blocked<{sizePerThread = [1, 2, 2], threadsPerWarp = [1, 4, 32], warpsPerCTA = [2, 4, 1], order = [2, 1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @bmm_bf16_8warps(%a: tensor<2x64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<2x32x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<2x64x64xf32, #blocked>) -> tensor<2x64x64xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<2x64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<2x32x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<2x64x64xf32, #blocked>
    tt.return %d : tensor<2x64x64xf32, #blocked>
  }
  tt.func public @bmm_too_many_warps(%a: tensor<2x32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<2x32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<2x32x64xf32, #blocked>) -> tensor<2x32x64xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<2x32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<2x32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<2x32x64xf32, #blocked>
    tt.return %d : tensor<2x32x64xf32, #blocked>
  }
}

// -----

// Batched dots on mp_31: squads go to the batch first. 2x64x64x32 with 8
// warps is one squad per batch, each one m64n64k32; the operands are stored
// into 3-D buffers with the batch outermost (order [2, 1, 0]). 2x16x32x16
// has no legal instruction (16-row SQMMA needs N = 64) and takes PH1's WMMA.
// PH1: #[[SA:.*]] = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [2, 1, 0]}>
// PH1: #[[SB:.*]] = #musagpu.tme_shared<{swizzleGranularity = b32, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [2, 1, 0]}>
// PH1: #[[SQ:.*]] = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [2, 4, 1], instrShape = [64, 64, 32]}>
// PH1-LABEL: @ph1_bmm
// PH1: %[[A:.*]] = ttg.local_alloc %arg0 {alignment = 4096 : i32} : ({{.*}}) -> !ttg.memdesc<2x64x32xf16, #[[SA]], #smem>
// PH1: %[[B:.*]] = ttg.local_alloc %arg1 {alignment = 2048 : i32} : ({{.*}}) -> !ttg.memdesc<2x32x64xf16, #[[SB]], #smem>
// PH1: %[[C:.*]] = ttg.convert_layout %arg2 : tensor<2x64x64xf32, #blocked> -> tensor<2x64x64xf32, #[[SQ]]>
// PH1: %[[D:.*]] = musagpu.sqmma %[[A]], %[[B]], %[[C]] :
// PH1-NEXT: %[[W:.*]] = musagpu.sqmma_wait %[[D]]
// PH1-NEXT: ttg.convert_layout %[[W]] : tensor<2x64x64xf32, #[[SQ]]> -> tensor<2x64x64xf32, #blocked>
// PH1-LABEL: @ph1_bmm_small
// PH1-NOT: tt.dot
// PH1: musagpu.wmma {{.*}} -> tensor<2x16x32xf32, #{{.*}}>
// NOSQ-LABEL: @ph1_bmm
// NOSQ-NOT: musagpu.sqmma
// NOSQ: musagpu.wmma {{.*}} -> tensor<2x64x64xf32, #{{.*}}>

#blocked = #ttg.blocked<{sizePerThread = [1, 4, 4], threadsPerWarp = [1, 4, 8], warpsPerCTA = [2, 4, 1], order = [2, 1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @ph1_bmm(%a: tensor<2x64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<2x32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<2x64x64xf32, #blocked>) -> tensor<2x64x64xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<2x64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<2x32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<2x64x64xf32, #blocked>
    tt.return %d : tensor<2x64x64xf32, #blocked>
  }
  tt.func public @ph1_bmm_small(%a: tensor<2x16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<2x16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<2x16x32xf32, #blocked>) -> tensor<2x16x32xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<2x16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<2x16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<2x16x32xf32, #blocked>
    tt.return %d : tensor<2x16x32xf32, #blocked>
  }
}

// -----

// The wait moves down past the side-effect-free ops after the sqmma (the
// next slot's index and views) and stops at the first op with a memory
// effect, the copy refilling the ring: the matrix unit overlaps the index
// arithmetic, and the refill still waits for the sqmma's reads.
// PH1-LABEL: @ph1_wait_sinks
// PH1: scf.for
// PH1: %[[D:.*]] = musagpu.sqmma
// PH1-NEXT: arith.addi
// PH1-NEXT: arith.remsi
// PH1-NEXT: %[[NA:.*]] = ttg.memdesc_index
// PH1-NEXT: ttg.memdesc_index
// PH1-NEXT: %[[W:.*]] = musagpu.sqmma_wait %[[D]]
// PH1-NEXT: ttg.async_copy_global_to_local %{{.*}}, %[[NA]]
// PH1: scf.yield %[[W]]

#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @ph1_wait_sinks(%pa: tensor<64x32x!tt.ptr<f16>, #ld>, %pb: tensor<32x64x!tt.ptr<f16>, #ld>, %n: i32) -> tensor<64x64xf32, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
    %ra = ttg.local_alloc : () -> !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>
    %rb = ttg.local_alloc : () -> !ttg.memdesc<2x32x64xf16, #shared, #smem, mutable>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #blocked>) : i32 {
      %slot = arith.remsi %i, %c2 : i32
      %sa = ttg.memdesc_index %ra[%slot] : !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
      %sb = ttg.memdesc_index %rb[%slot] : !ttg.memdesc<2x32x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x64xf16, #shared, #smem, mutable>
      %w = ttg.async_wait {num = 0 : i32}
      %a = ttg.local_load %sa : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
      %b = ttg.local_load %sb : !ttg.memdesc<32x64xf16, #shared, #smem, mutable> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
      %d = tt.dot %a, %b, %acc : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
      %next = arith.addi %i, %c1 : i32
      %nslot = arith.remsi %next, %c2 : i32
      %na = ttg.memdesc_index %ra[%nslot] : !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
      %nb = ttg.memdesc_index %rb[%nslot] : !ttg.memdesc<2x32x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x64xf16, #shared, #smem, mutable>
      %ta = ttg.async_copy_global_to_local %pa, %na : tensor<64x32x!tt.ptr<f16>, #ld> -> <64x32xf16, #shared, #smem, mutable>
      %tb = ttg.async_copy_global_to_local %pb, %nb : tensor<32x64x!tt.ptr<f16>, #ld> -> <32x64xf16, #shared, #smem, mutable>
      %cg = ttg.async_commit_group tokens %ta, %tb
      scf.yield %d : tensor<64x64xf32, #blocked>
    }
    ttg.local_dealloc %ra : !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>
    ttg.local_dealloc %rb : !ttg.memdesc<2x32x64xf16, #shared, #smem, mutable>
    tt.return %r : tensor<64x64xf32, #blocked>
  }
}
