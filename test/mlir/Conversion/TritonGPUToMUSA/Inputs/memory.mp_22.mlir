#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 128 : i32, ttg.target = "musa:mp_22"} {
  tt.func public @alloc_load(%x: tensor<128x16xf16, #blocked>) -> tensor<128x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> {
    %a = ttg.local_alloc %x : (tensor<128x16xf16, #blocked>) -> !ttg.memdesc<128x16xf16, #shared, #smem>
    %l = ttg.local_load %a : !ttg.memdesc<128x16xf16, #shared, #smem> -> tensor<128x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    tt.return %l : tensor<128x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 128 : i32, ttg.target = "musa:mp_22"} {
  tt.func public @store_trans_index(%x: tensor<128x16xi1, #blocked>, %y: tensor<16x128xf16, #blocked>, %i: i32) -> (tensor<128x16xi1, #blocked>, tensor<128x16xf16, #blocked>) {
    %a = ttg.local_alloc : () -> !ttg.memdesc<2x128x16xi1, #shared, #smem, mutable>
    %v = ttg.memdesc_index %a[%i] : !ttg.memdesc<2x128x16xi1, #shared, #smem, mutable> -> !ttg.memdesc<128x16xi1, #shared, #smem, mutable>
    ttg.local_store %x, %v : tensor<128x16xi1, #blocked> -> !ttg.memdesc<128x16xi1, #shared, #smem, mutable>
    %l = ttg.local_load %v : !ttg.memdesc<128x16xi1, #shared, #smem, mutable> -> tensor<128x16xi1, #blocked>
    ttg.local_dealloc %a : !ttg.memdesc<2x128x16xi1, #shared, #smem, mutable>
    %b = ttg.local_alloc %y : (tensor<16x128xf16, #blocked>) -> !ttg.memdesc<16x128xf16, #shared, #smem>
    %t = ttg.memdesc_trans %b {order = array<i32: 1, 0>} : !ttg.memdesc<16x128xf16, #shared, #smem> -> !ttg.memdesc<128x16xf16, #shared1, #smem>
    %lt = ttg.local_load %t : !ttg.memdesc<128x16xf16, #shared1, #smem> -> tensor<128x16xf16, #blocked>
    tt.return %l, %lt : tensor<128x16xi1, #blocked>, tensor<128x16xf16, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.padded_shared<[16:+4] {order = [1, 0], shape = [128, 16]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 128 : i32, ttg.target = "musa:mp_22"} {
  tt.func public @padded(%x: tensor<128x16xf32, #blocked>) -> tensor<128x16xf32, #blocked> {
    %a = ttg.local_alloc %x : (tensor<128x16xf32, #blocked>) -> !ttg.memdesc<128x16xf32, #shared, #smem>
    %l = ttg.local_load %a : !ttg.memdesc<128x16xf32, #shared, #smem> -> tensor<128x16xf32, #blocked>
    tt.return %l : tensor<128x16xf32, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.padded_shared<[16:+2] {order = [1, 0], shape = [128, 16]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 128 : i32, ttg.target = "musa:mp_22"} {
  tt.func public @padded_odd(%x: tensor<128x16xf32, #blocked>) -> tensor<128x16xf32, #blocked> {
    %a = ttg.local_alloc %x : (tensor<128x16xf32, #blocked>) -> !ttg.memdesc<128x16xf32, #shared, #smem>
    %l = ttg.local_load %a : !ttg.memdesc<128x16xf32, #shared, #smem> -> tensor<128x16xf32, #blocked>
    tt.return %l : tensor<128x16xf32, #blocked>
  }
}
