// math.exp2 (tl.exp2) on f32 goes through TargetInfo::exp2F32: llvm.exp2 on
// MUSA and on the emulator, ex2.approx.ftz.f32 on the GPU proxy, as Triton's
// NVIDIA backend emits for the same source (its libdevice exp2f with
// flush-to-zero; NVPTX makes llvm.exp2 the slower non-ftz form). math.exp
// (tl.exp) keeps llvm.exp2 of x * log2(e) everywhere, as Triton's does; f64
// stays llvm.exp2.
// RUN: musa-opt %s -convert-tritongpu-to-musa=arch=mp_31 | FileCheck %s --check-prefix=MUSA
// RUN: musa-opt %s -convert-tritongpu-to-musa="arch=mp_31 target=emulator" | FileCheck %s --check-prefix=MUSA
// RUN: musa-opt %s -convert-tritongpu-to-musa="arch=mp_31 target=proxy" | FileCheck %s --check-prefix=PROXY

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // MUSA-LABEL: llvm.func @exponentials(
  // MUSA-COUNT-2: llvm.intr.exp2(%{{.*}}) : (f32) -> f32
  // MUSA-NOT: llvm.nvvm.ex2
  // MUSA-COUNT-2: llvm.intr.exp2(%{{.*}}) : (f32) -> f32
  // MUSA: llvm.intr.exp2(%{{.*}}) : (f64) -> f64
  // PROXY-LABEL: llvm.func @exponentials(
  // PROXY-NOT: llvm.intr.exp2(%{{.*}}) : (f32) -> f32
  // PROXY-COUNT-2: llvm.call @llvm.nvvm.ex2.approx.ftz.f32(%{{.*}}) {{.*}}: (f32) -> f32
  // PROXY-COUNT-2: llvm.intr.exp2(%{{.*}}) : (f32) -> f32
  // PROXY-NOT: llvm.nvvm.ex2
  // PROXY: llvm.intr.exp2(%{{.*}}) : (f64) -> f64
  tt.func public @exponentials(%out: !tt.ptr<f32>, %out64: !tt.ptr<f64>) {
    // Inputs that vary per register: no register repeats another.
    %i = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %xs = arith.sitofp %i : tensor<256xi32, #blocked> to tensor<256xf32, #blocked>
    %e2 = math.exp2 %xs : tensor<256xf32, #blocked>
    %e = math.exp %e2 : tensor<256xf32, #blocked>
    %us = arith.sitofp %i : tensor<256xi32, #blocked> to tensor<256xf64, #blocked>
    %d = math.exp2 %us : tensor<256xf64, #blocked>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #blocked>
    tt.store %p, %e : tensor<256x!tt.ptr<f32>, #blocked>
    %p64 = tt.splat %out64 : !tt.ptr<f64> -> tensor<256x!tt.ptr<f64>, #blocked>
    tt.store %p64, %d : tensor<256x!tt.ptr<f64>, #blocked>
    tt.return
  }
}
