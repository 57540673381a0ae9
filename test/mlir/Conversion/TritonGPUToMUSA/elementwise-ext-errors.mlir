// Elementwise cases --convert-tritongpu-to-musa refuses, each named.
// RUN: musa-opt %s -split-input-file -convert-tritongpu-to-musa=arch=mp_31 -verify-diagnostics

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @cuda_libdevice(%x: tensor<128xf32, #blocked>) {
    // expected-error @below {{'tt.extern_elementwise' calls '__nv_expf' from another vendor's device library (/cuda/libdevice.10.bc), which cannot run on MUSA: use triton_musa.language.libdevice (the SDK's mtgpu/bitcode/libdevice)}}
    %y = tt.extern_elementwise %x {libname = "libdevice", libpath = "/cuda/libdevice.10.bc", pure = true, symbol = "__nv_expf"} : (tensor<128xf32, #blocked>) -> tensor<128xf32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @erf_f16(%x: tensor<128xf16, #blocked>) {
    // expected-error @below {{'math.erf' is not supported by --convert-tritongpu-to-musa yet on 'f16' (f32, f64)}}
    %y = math.erf %x : tensor<128xf16, #blocked>
    tt.return
  }
}
