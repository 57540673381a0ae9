// Masked global loads and stores: on MUSA and on the emulator a branch
// around a plain access (the `other` value merged in); on the GPU proxy one
// predicated instruction each, as Triton's NVIDIA backend emits
// (TargetInfo::loadGlobalIf / storeGlobalIf): the 16-byte vectors as four
// b32 words, the load's words starting as `other`. A branch is what a
// regression would print there.
// RUN: musa-opt %s -convert-tritongpu-to-musa=arch=mp_31 | FileCheck %s --check-prefix=MUSA
// RUN: musa-opt %s -convert-tritongpu-to-musa="arch=mp_31 target=emulator" | FileCheck %s --check-prefix=MUSA
// RUN: musa-opt %s -convert-tritongpu-to-musa="arch=mp_31 target=proxy" | FileCheck %s --check-prefix=PROXY

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // MUSA-LABEL: llvm.func @masked_copy(
  // MUSA: llvm.cond_br
  // MUSA: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
  // MUSA: llvm.cond_br
  // MUSA: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
  // PROXY-LABEL: llvm.func @masked_copy(
  // PROXY-NOT: llvm.cond_br
  // PROXY: llvm.inline_asm has_side_effects asm_dialect = att "mov.b32 $0, $6;\0Amov.b32 $1, $7;\0Amov.b32 $2, $8;\0Amov.b32 $3, $9;\0A@$4 ld.global.v4.b32 {$0, $1, $2, $3}, [$5];", "=r,=r,=r,=r,b,l,r,r,r,r"
  // PROXY-NOT: llvm.cond_br
  // PROXY: llvm.inline_asm has_side_effects asm_dialect = att "@$0 st.global.v4.b32 [$1], {$2, $3, $4, $5};", "b,l,r,r,r,r"
  // PROXY-NOT: llvm.cond_br
  // PROXY-NOT: llvm.load
  // PROXY: llvm.return
  tt.func public @masked_copy(%in: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %offsets = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %bound = tt.splat %n : i32 -> tensor<512xi32, #blocked>
    %mask = arith.cmpi slt, %offsets, %bound : tensor<512xi32, #blocked>
    %ip = tt.splat %in : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %ips = tt.addptr %ip, %offsets : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %other = arith.constant dense<1.000000e+00> : tensor<512xf32, #blocked>
    %v = tt.load %ips, %mask, %other : tensor<512x!tt.ptr<f32>, #blocked>
    %op = tt.splat %out : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %ops = tt.addptr %op, %offsets : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    tt.store %ops, %v, %mask : tensor<512x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
