// musagpu.wmma on the GPU proxy (target=proxy): mp_31's m16n16k32 WMMA row
// as four mma.sync.aligned.m16n8k16, in the mma_sync_warp fragment
// (layouts/LayoutConversion.cpp): A's K step kt is registers 8kt..8kt+7,
// B's (column half nh, K step kt) registers 4(2nh + kt)..+3, C's half nh
// registers 4nh..4nh+3, each packed two 16-bit values per i32. The two K
// steps of a half chain through the accumulators.
// RUN: musa-opt %s -convert-tritongpu-to-musa=target=proxy -cse | FileCheck %s
// The device and the emulator hold PH1's fragment, not this one.
// RUN: musa-opt %s -split-input-file -convert-tritongpu-to-musa -verify-diagnostics -o /dev/null
// RUN: musa-opt %s -split-input-file -convert-tritongpu-to-musa=target=emulator -verify-diagnostics -o /dev/null

#wmma = #musagpu.wmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [1, 1], instrShape = [16, 16, 32], fragment = mma_sync_warp}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @wmma_proxy_f16(
  // CHECK-DAG: %[[A0:.*]] = llvm.extractvalue %arg0[0]
  // CHECK-DAG: %[[A8:.*]] = llvm.extractvalue %arg0[8]
  // CHECK-DAG: %[[B4:.*]] = llvm.extractvalue %arg1[4]
  // CHECK-DAG: %[[B8:.*]] = llvm.extractvalue %arg1[8]
  // CHECK-DAG: %[[B12:.*]] = llvm.extractvalue %arg1[12]
  // CHECK-DAG: %[[C0:.*]] = llvm.extractvalue %arg2[0]
  // CHECK-DAG: %[[C4:.*]] = llvm.extractvalue %arg2[4]
  // Half 0, K step 0: A 0-7, B 0-3, C 0-3.
  // CHECK: llvm.insertelement %[[A0]],
  // CHECK: %[[M0:.*]] = llvm.inline_asm asm_dialect = att "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f" %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[C0]], %{{.*}}, %{{.*}}, %{{.*}} :
  // CHECK: %[[D0:.*]] = llvm.extractvalue %[[M0]][0]
  // Half 0, K step 1: A 8-15, B 4-7, C from the first.
  // CHECK: llvm.insertelement %[[A8]],
  // CHECK: llvm.insertelement %[[B4]],
  // CHECK: %[[M1:.*]] = llvm.inline_asm {{.*}}"mma.sync.aligned.m16n8k16{{.*}} %[[D0]], %{{.*}}, %{{.*}}, %{{.*}} :
  // Half 1, K step 0: B 8-11, C 4-7.
  // CHECK: llvm.insertelement %[[B8]],
  // CHECK: %[[M2:.*]] = llvm.inline_asm {{.*}}"mma.sync.aligned.m16n8k16{{.*}} %[[C4]], %{{.*}}, %{{.*}}, %{{.*}} :
  // CHECK: %[[D2:.*]] = llvm.extractvalue %[[M2]][0]
  // Half 1, K step 1: B 12-15, C from the third.
  // CHECK: llvm.insertelement %[[B12]],
  // CHECK: llvm.inline_asm {{.*}}"mma.sync.aligned.m16n8k16{{.*}} %[[D2]], %{{.*}}, %{{.*}}, %{{.*}} :
  // CHECK-NOT: mma.sync
  // CHECK: llvm.return
  tt.func public @wmma_proxy_f16(%a: tensor<16x32xf16, #musagpu.wmma_operand<{opIdx = 0, parent = #wmma}>>, %b: tensor<32x16xf16, #musagpu.wmma_operand<{opIdx = 1, parent = #wmma}>>, %c: tensor<16x16xf32, #wmma>) -> tensor<16x16xf32, #wmma> {
    // expected-error@+1 {{#musagpu.wmma with the mma_sync_warp fragment, but mp_31's wmma f16 x f16 -> f32 m16n16k32 on mp_3x holds the ph1_wmma fragment}}
    %d = musagpu.wmma %a, %b, %c : tensor<16x32xf16, #musagpu.wmma_operand<{opIdx = 0, parent = #wmma}>>, tensor<32x16xf16, #musagpu.wmma_operand<{opIdx = 1, parent = #wmma}>> -> tensor<16x16xf32, #wmma>
    tt.return %d : tensor<16x16xf32, #wmma>
  }
}
