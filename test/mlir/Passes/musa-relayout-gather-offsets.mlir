// RUN: musa-opt %s --musa-relayout-gather-offsets --split-input-file | FileCheck %s

#blocked1 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @gather
  tt.func public @gather(%d: !tt.tensordesc<tensor<1x128xbf16>>, %rows: tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>) -> tensor<32x128xbf16, #blocked2> {
    %c0 = arith.constant 0 : i32
    // CHECK: %[[R:.*]] = ttg.convert_layout %{{.*}} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #[[B1:.*]]}>> -> tensor<32xi32, #ttg.slice<{dim = 1, parent = #[[B2:.*]]}>>
    // CHECK: tt.descriptor_gather %{{.*}}[%[[R]], %{{.*}}] : (!tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32, #ttg.slice<{dim = 1, parent = #[[B2]]}>>, i32) -> tensor<32x128xbf16, #[[B2]]>
    %t = tt.descriptor_gather %d[%rows, %c0] : (!tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>, i32) -> tensor<32x128xbf16, #blocked2>
    tt.return %t : tensor<32x128xbf16, #blocked2>
  }
}

// -----

#blocked2 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // Offsets already in the tile's row layout, and a scatter: nothing to insert.
  // CHECK-LABEL: @scatter_in_place
  // CHECK-NOT: ttg.convert_layout
  // CHECK: tt.descriptor_scatter
  tt.func public @scatter_in_place(%d: !tt.tensordesc<tensor<1x128xbf16>>, %rows: tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked2}>>, %t: tensor<32x128xbf16, #blocked2>) {
    %c0 = arith.constant 0 : i32
    tt.descriptor_scatter %d[%rows, %c0], %t : !tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked2}>>, i32, tensor<32x128xbf16, #blocked2>
    tt.return
  }
}
