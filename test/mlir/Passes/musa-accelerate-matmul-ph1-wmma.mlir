// RUN: musa-opt %s --musa-accelerate-matmul --split-input-file | FileCheck %s
// RUN: musa-opt %s --musa-accelerate-matmul=enable-sqmma=false --split-input-file | FileCheck %s --check-prefix=NOSQ

// PH1 (mp_31) WMMA: the f16/bf16 dots no SQMMA instruction can take (num_warps
// 1 or 2; shapes off the SQMMA tables) go to PH1's 32-lane WMMA, m16n16k32
// atoms where K allows, else m16n16k16 (the open MUSA backend's shapes and
// fragments). One warp, 16x16x32 f16: one m16n16k32 atom; the operands and the accumulator are converted to the
// WMMA layouts and the result back.
// CHECK: #[[W1:.*]] = #musagpu.wmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [1, 1], instrShape = [16, 16, 32]}>
// CHECK: #[[A1:.*]] = #musagpu.wmma_operand<{opIdx = 0, parent = #[[W1]]}>
// CHECK: #[[B1:.*]] = #musagpu.wmma_operand<{opIdx = 1, parent = #[[W1]]}>
// CHECK-LABEL: @one_warp
// CHECK-NOT: tt.dot
// CHECK: %[[A:.*]] = ttg.convert_layout %arg0 : {{.*}} -> tensor<16x32xf16, #[[A1]]>
// CHECK: %[[B:.*]] = ttg.convert_layout %arg1 : {{.*}} -> tensor<32x16xf16, #[[B1]]>
// CHECK: %[[C:.*]] = ttg.convert_layout %arg2 : tensor<16x16xf32, #blocked> -> tensor<16x16xf32, #[[W1]]>
// CHECK: %[[D:.*]] = musagpu.wmma %[[A]], %[[B]], %[[C]] : {{.*}} -> tensor<16x16xf32, #[[W1]]>
// CHECK: ttg.convert_layout %[[D]] : tensor<16x16xf32, #[[W1]]> -> tensor<16x16xf32, #blocked>
// With MUSA_ENABLE_SQMMA=0 the f16/bf16 dots take PH1's WMMA whatever SQMMA
// could have done; tf32 (no PH1 WMMA atom) stays on FMA, saying why.
// NOSQ-LABEL: @one_warp
// NOSQ: musagpu.wmma {{.*}} -> tensor<16x16xf32, #{{.*}}>
// NOSQ-LABEL: @two_warps_tf32
// NOSQ: tt.dot {{.*}} {musa.dot_path_reason = "SQMMA disabled (MUSA_ENABLE_SQMMA=0)"}

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 2], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @one_warp(%a: tensor<16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x16xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<16x16xf32, #blocked>) -> tensor<16x16xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x16xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<16x16xf32, #blocked>
    tt.return %d : tensor<16x16xf32, #blocked>
  }
}

// -----

// Two warps: warps along M first (64 rows: 4 atom rows), as on QY2. Operand
// types with no PH1 WMMA atom here (tf32) keep SQMMA's reason. An f16
// accumulator runs in f32, widened before the WMMA and rounded once after.
// CHECK: #[[W2:.*]] = #musagpu.wmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [2, 1], instrShape = [16, 16, 32]}>
// CHECK-LABEL: @two_warps_bf16
// CHECK-NOT: tt.dot
// CHECK: musagpu.wmma {{.*}} -> tensor<64x64xf32, #[[W2]]>
// CHECK-LABEL: @two_warps_tf32
// CHECK: tt.dot {{.*}} {musa.dot_path_reason = "num_warps = 2 is not a multiple of 4 (SQMMA runs on squads of 4 warps)"}
// CHECK-LABEL: @two_warps_f16_acc
// CHECK-NOT: tt.dot
// CHECK: %[[C:.*]] = ttg.convert_layout %arg2 : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #[[W2]]>
// CHECK-NEXT: %[[WIDE:.*]] = arith.extf %[[C]] : tensor<64x64xf16, #[[W2]]> to tensor<64x64xf32, #[[W2]]>
// CHECK-NEXT: %[[D:.*]] = musagpu.wmma {{.*}}, %[[WIDE]] : {{.*}} -> tensor<64x64xf32, #[[W2]]>
// CHECK-NEXT: arith.truncf %[[D]] : tensor<64x64xf32, #[[W2]]> to tensor<64x64xf16, #[[W2]]>

#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @two_warps_bf16(%a: tensor<64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
  tt.func public @two_warps_tf32(%a: tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
  tt.func public @two_warps_f16_acc(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf16, #blocked>) -> tensor<64x64xf16, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf16, #blocked>
    tt.return %d : tensor<64x64xf16, #blocked>
  }
}

// -----

// Four warps on 16x16x16: no SQMMA instruction (16-row SQMMA needs N = 64);
// one WMMA atom, the 4 warps replicated along N. A batched 4x16x32x32 with 4
// warps: warps to the batch first.
// CHECK-DAG: #[[W4:.*]] = #musagpu.wmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [1, 4], instrShape = [16, 16, 16]}>
// CHECK-DAG: #[[WB:.*]] = #musagpu.wmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1, 1], instrShape = [16, 16, 32]}>
// CHECK-LABEL: @replicated
// CHECK-NOT: tt.dot
// CHECK: musagpu.wmma {{.*}} -> tensor<16x16xf32, #[[W4]]>
// CHECK-LABEL: @batched
// CHECK-NOT: tt.dot
// CHECK: musagpu.wmma {{.*}} -> tensor<4x16x32xf32, #[[WB]]>

#blocked = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [1, 0]}>
#blocked3 = #ttg.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [1, 4, 8], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @replicated(%a: tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<16x16xf32, #blocked>) -> tensor<16x16xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<16x16xf32, #blocked>
    tt.return %d : tensor<16x16xf32, #blocked>
  }
  tt.func public @batched(%a: tensor<4x16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked3}>>, %b: tensor<4x32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked3}>>, %c: tensor<4x16x32xf32, #blocked3>) -> tensor<4x16x32xf32, #blocked3> {
    %d = tt.dot %a, %b, %c : tensor<4x16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked3}>> * tensor<4x32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked3}>> -> tensor<4x16x32xf32, #blocked3>
    tt.return %d : tensor<4x16x32xf32, #blocked3>
  }
}

// -----

// Operands Triton promoted to shared memory (an immutable local_alloc read
// by a local_load) are read straight into the WMMA fragments, and their
// buffers take the layout that spreads fragment reads over the banks: whole
// 16-byte chunks XORed with a phase per 8 / min(8, chunks per row) rows
// (64-byte rows of A: 2 rows a phase, 4 phases; 128-byte rows of B: 1, 8).
// CHECK-DAG: #[[SA:.*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// CHECK-DAG: #[[SB:.*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-LABEL: @promoted_operands
// CHECK: %[[SA_BUF:.*]] = ttg.local_alloc %arg0 : (tensor<64x32xf16, #{{.*}}>) -> !ttg.memdesc<64x32xf16, #[[SA]], #smem>
// CHECK: %[[SB_BUF:.*]] = ttg.local_alloc %arg1 : (tensor<32x64xf16, #{{.*}}>) -> !ttg.memdesc<32x64xf16, #[[SB]], #smem>
// CHECK: %[[A:.*]] = ttg.local_load %[[SA_BUF]] : !ttg.memdesc<64x32xf16, #[[SA]], #smem> -> tensor<64x32xf16, #[[A2:.*]]>
// CHECK: %[[B:.*]] = ttg.local_load %[[SB_BUF]] : !ttg.memdesc<32x64xf16, #[[SB]], #smem> -> tensor<32x64xf16, #[[B2:.*]]>
// CHECK: musagpu.wmma %[[A]], %[[B]], %{{.*}} : tensor<64x32xf16, #[[A2]]>, tensor<32x64xf16, #[[B2]]>

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [2, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @promoted_operands(%ta: tensor<64x32xf16, #blocked>, %tb: tensor<32x64xf16, #blocked>, %c: tensor<64x64xf32, #blocked1>) -> tensor<64x64xf32, #blocked1> {
    %sa = ttg.local_alloc %ta : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
    %sb = ttg.local_alloc %tb : (tensor<32x64xf16, #blocked>) -> !ttg.memdesc<32x64xf16, #shared, #smem>
    %a = ttg.local_load %sa : !ttg.memdesc<64x32xf16, #shared, #smem> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>
    %b = ttg.local_load %sb : !ttg.memdesc<32x64xf16, #shared, #smem> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>
    %d = tt.dot %a, %b, %c : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<64x64xf32, #blocked1>
    tt.return %d : tensor<64x64xf32, #blocked1>
  }
}

// -----

// fp8 on two warps: no SQMMA (squads of four warps) and no fp8 WMMA row
// lowered, so the f16 WMMA on operands upcast in their fragment layouts
// (e5m2 and e4m3 values are exact in f16, their products in f32).
// CHECK: #[[W3:.*]] = #musagpu.wmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [2, 1], instrShape = [16, 16, 32]}>
// CHECK: #[[A3:.*]] = #musagpu.wmma_operand<{opIdx = 0, parent = #[[W3]]}>
// CHECK: #[[B3:.*]] = #musagpu.wmma_operand<{opIdx = 1, parent = #[[W3]]}>
// CHECK-LABEL: @two_warps_fp8
// CHECK: %[[A8:.*]] = ttg.convert_layout %arg0 : {{.*}} -> tensor<64x32xf8E5M2, #[[A3]]>
// CHECK: %[[B8:.*]] = ttg.convert_layout %arg1 : {{.*}} -> tensor<32x64xf8E5M2, #[[B3]]>
// CHECK: %[[A16:.*]] = tt.fp_to_fp %[[A8]] : tensor<64x32xf8E5M2, #[[A3]]> -> tensor<64x32xf16, #[[A3]]>
// CHECK: %[[B16:.*]] = tt.fp_to_fp %[[B8]] : tensor<32x64xf8E5M2, #[[B3]]> -> tensor<32x64xf16, #[[B3]]>
// CHECK: musagpu.wmma %[[A16]], %[[B16]], %{{.*}} : tensor<64x32xf16, #[[A3]]>, tensor<32x64xf16, #[[B3]]> -> tensor<64x64xf32, #[[W3]]>

#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @two_warps_fp8(%a: tensor<64x32xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<64x32xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}
