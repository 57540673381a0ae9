// arith.divf (Triton's `/`) on f32 goes through TargetInfo::divideF32: LLVM's
// fdiv on MUSA and on the emulator (their code generators lower it), the
// approximate div.full.f32 on the GPU proxy, as Triton's NVIDIA backend
// emits for the same source (NVPTX would turn fdiv into the IEEE div.rn.f32
// sequence). f64 stays llvm.fdiv everywhere.
// RUN: musa-opt %s -convert-tritongpu-to-musa=arch=mp_31 | FileCheck %s --check-prefix=MUSA
// RUN: musa-opt %s -convert-tritongpu-to-musa="arch=mp_31 target=emulator" | FileCheck %s --check-prefix=MUSA
// RUN: musa-opt %s -convert-tritongpu-to-musa="arch=mp_31 target=proxy" | FileCheck %s --check-prefix=PROXY

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // MUSA-LABEL: llvm.func @divide(
  // MUSA-COUNT-2: llvm.fdiv %{{.*}}, %{{.*}} : f32
  // MUSA-NOT: llvm.nvvm.div
  // MUSA: llvm.fdiv %{{.*}}, %{{.*}} : f64
  // PROXY-LABEL: llvm.func @divide(
  // PROXY-NOT: llvm.fdiv %{{.*}} : f32
  // PROXY-COUNT-2: llvm.call @llvm.nvvm.div.full(%{{.*}}, %{{.*}}) {{.*}}: (f32, f32) -> f32
  // PROXY-NOT: llvm.fdiv %{{.*}} : f32
  // PROXY: llvm.fdiv %{{.*}}, %{{.*}} : f64
  tt.func public @divide(%y: f32, %v: f64, %out: !tt.ptr<f32>, %out64: !tt.ptr<f64>) {
    // Dividends that vary per register: no register repeats another.
    %i = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %xs = arith.sitofp %i : tensor<256xi32, #blocked> to tensor<256xf32, #blocked>
    %ys = tt.splat %y : f32 -> tensor<256xf32, #blocked>
    %q = arith.divf %xs, %ys : tensor<256xf32, #blocked>
    %us = arith.sitofp %i : tensor<256xi32, #blocked> to tensor<256xf64, #blocked>
    %vs = tt.splat %v : f64 -> tensor<256xf64, #blocked>
    %r = arith.divf %us, %vs : tensor<256xf64, #blocked>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #blocked>
    tt.store %p, %q : tensor<256x!tt.ptr<f32>, #blocked>
    %p64 = tt.splat %out64 : !tt.ptr<f64> -> tensor<256x!tt.ptr<f64>, #blocked>
    tt.store %p64, %r : tensor<256x!tt.ptr<f64>, #blocked>
    tt.return
  }
}
