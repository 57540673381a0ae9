// Elementwise cases --convert-tritongpu-to-musa refuses, each named.
// RUN: musa-opt %s -split-input-file -convert-tritongpu-to-musa=arch=mp_31 -verify-diagnostics

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @cuda_libdevice(%x: tensor<128xf32, #blocked>) {
    // expected-error @below {{'tt.extern_elementwise' calls '__nv_expf' from another vendor's device library (/cuda/libdevice.10.bc), which cannot run on MUSA: use triton_musa.language.libdevice (__mt_* functions)}}
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

// -----

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @map_pack2(%x: tensor<256xf32, #blocked>) {
    // expected-error @below {{'tt.map_elementwise' is not supported by --convert-tritongpu-to-musa yet with pack = 2 (pack = 1)}}
    %r = "tt.map_elementwise"(%x) <{pack = 2 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      tt.map_elementwise.return %b, %a : f32, f32
    }) : (tensor<256xf32, #blocked>) -> tensor<256xf32, #blocked>
    tt.return
  }
}
