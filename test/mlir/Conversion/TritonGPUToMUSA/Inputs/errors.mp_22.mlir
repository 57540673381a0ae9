// mp_22 twin of ../errors.mlir (128-thread warps); checked there.

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [128], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @inline_asm(%x: tensor<128xi32, #blocked>) {
    // expected-error @below {{'tt.elementwise_inline_asm': PTX inline assembly cannot run on MUSA}}
    %y = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %x : tensor<128xi32, #blocked> -> tensor<128xi32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [128], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [128], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @convert(%x: tensor<256xi32, #blocked>) {
    // expected-error @below {{'ttg.global_scratch_alloc' is not supported by --convert-tritongpu-to-musa yet}}
    %y = ttg.global_scratch_alloc {alignment = 8 : i32, nbytes = 100 : i32} : !tt.ptr<i8>
    %z = ttg.global_scratch_alloc {alignment = 8 : i32, nbytes = 64 : i32} : !tt.ptr<i8>
    tt.return
  }
}

// -----

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @no_layout() {
    // expected-error @below {{'arith.constant' on 'tensor<128xf32>': tensor type 'tensor<128xf32>' has no layout}}
    %x = arith.constant dense<1.000000e+00> : tensor<128xf32>
    // expected-error @below {{'arith.addf' on 'tensor<128xf32>': tensor type 'tensor<128xf32>' has no layout}}
    %y = arith.addf %x, %x : tensor<128xf32>
    tt.return
  }
}

// -----

// expected-error @below {{"ttg.threads-per-warp" = 32 does not match arch mp_22, whose warps have 128 threads}}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wrong_warp_size() {
    tt.return
  }
}

// -----

// expected-error @below {{"ttg.num-ctas" = 2 (clusters) is not supported by --convert-tritongpu-to-musa yet}}
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @cluster() {
    tt.return
  }
}
