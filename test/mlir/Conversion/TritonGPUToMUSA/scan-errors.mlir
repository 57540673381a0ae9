// tt.scan that --convert-tritongpu-to-musa refuses, with an error naming the
// op and the reason.
// RUN: musa-opt %s -split-input-file -convert-tritongpu-to-musa=arch=mp_31 -verify-diagnostics

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @no_allocation(%x: tensor<128xi32, #blocked>) {
    // expected-error @below {{'tt.scan' needs shared memory but has no "allocation.offset"; run --musa-allocate-shared-memory first}}
    %c = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: i32, %b: i32):
      %t = arith.addi %a, %b : i32
      tt.scan.return %t : i32
    }) : (tensor<128xi32, #blocked>) -> tensor<128xi32, #blocked>
    tt.return
  }
}

// -----

// Lane bit 1 holds copies: the lanes along the axis (bits 0, 2, 3, 4) are
// not one contiguous range, so no constant shuffle distance walks them.
#linear = #ttg.linear<{register = [[16]], lane = [[1], [0], [2], [4], [8]], warp = [], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @lanes_below_registers(%x: tensor<32xi32, #linear>) {
    // expected-error @below {{'tt.scan' along axis 0 of 'tensor<32xi32, #ttg.linear<{register = [[16]], lane = [[1], [0], [2], [4], [8]], warp = [], block = []}>>' is not supported by --convert-tritongpu-to-musa yet: the layout must hold the axis in registers, then lanes (one contiguous range of lane bits), then warps, then registers}}
    %c = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: i32, %b: i32):
      %t = arith.addi %a, %b : i32
      tt.scan.return %t : i32
    }) : (tensor<32xi32, #linear>) -> tensor<32xi32, #linear>
    tt.return
  }
}
