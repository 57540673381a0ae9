// --musa-decompose-scaled-dot: tt.dot_scaled becomes operand upcasts, e8m0
// scales broadcast over their K groups, and a tt.dot on bf16 (fp16 when an
// operand is fp16). The views that broadcast a scale carry #ttg.linear
// layouts derived from the operand's, so the lowering needs no data movement
// for them; only the scale's convert_layout moves data.
// RUN: musa-opt %s -split-input-file --musa-decompose-scaled-dot | FileCheck %s --implicit-check-not=tt.dot_scaled
// The views lower without data movement (the lowering reports any that would move data):
// RUN: musa-opt %s -split-input-file --musa-decompose-scaled-dot --musa-allocate-shared-memory --convert-tritongpu-to-musa=target=emulator -o /dev/null

// lhs e2m1 (packed along K) with a scale, rhs bf16 without one. Each thread
// holds 8 bytes of a row in a tile repeated 4 times along K (32 bytes, 64
// values); the unpacked layout puts the nibble in register bit 0 and
// doubles every K basis.
// CHECK-DAG: #[[UNPACKED:linear[0-9]*]] = #ttg.linear<{register = {{\[}}[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32]], lane = {{\[}}[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = {{\[}}[0, 0], [0, 0]], block = []}>
// The same layout over [32 rows, 2 groups, 32 in a group]: K bit 5 is the group.
// CHECK-DAG: #[[SHARED0:shared[0-9]*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// CHECK-DAG: #[[GROUPED:linear[0-9]*]] = #ttg.linear<{register = {{\[}}[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 8], [0, 0, 16], [0, 1, 0]], lane = {{\[}}[1, 0, 0], [2, 0, 0], [4, 0, 0], [8, 0, 0], [16, 0, 0]], warp = {{\[}}[0, 0, 0], [0, 0, 0]], block = []}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func public @lhs_e2m1_scaled
  // CHECK: %[[A:.*]] = ttg.fp4_to_fp %arg0 {axis = 1 : i32} : tensor<32x32xi8, #blocked> -> tensor<32x64xbf16, #[[UNPACKED]]>
  // 2^(s - 127) built as f32 bits (s << 23; s = 0 is the subnormal 2^-127)...
  // CHECK: %[[EXT:.*]] = arith.extui %arg1 : tensor<32x2xi8, #blocked1> to tensor<32x2xi32, #blocked1>
  // CHECK: %[[C23:.*]] = arith.constant dense<23>
  // CHECK: %[[SHL:.*]] = arith.shli %[[EXT]], %[[C23]]
  // CHECK: %[[ZERO:.*]] = arith.cmpi eq, %[[SHL]]
  // CHECK: %[[SUB:.*]] = arith.constant dense<4194304>
  // CHECK: %[[BITS:.*]] = arith.select %[[ZERO]], %[[SUB]], %[[SHL]]
  // CHECK: %[[F32:.*]] = arith.bitcast %[[BITS]] : tensor<32x2xi32, #blocked1> to tensor<32x2xf32, #blocked1>
  // CHECK: %[[S16:.*]] = tt.fp_to_fp %[[F32]], rounding = rtne : tensor<32x2xf32, #blocked1> -> tensor<32x2xbf16, #blocked1>
  // ...NaN where the scale byte is 0xFF (fastMath = false)...
  // CHECK: %[[FF:.*]] = arith.constant dense<-1> : tensor<32x2xi8, #blocked1>
  // CHECK: %[[ISNAN:.*]] = arith.cmpi eq, %arg1, %[[FF]]
  // CHECK: %[[NAN:.*]] = arith.constant dense<0x7FC0> : tensor<32x2xbf16, #blocked1>
  // CHECK: %[[S:.*]] = arith.select %[[ISNAN]], %[[NAN]], %[[S16]]
  // ...broadcast over each group of 32 (K = 64, 2 groups) and multiplied in.
  // CHECK: %[[S1:.*]] = ttg.convert_layout %[[S]] : tensor<32x2xbf16, #blocked1> -> tensor<32x2xbf16, #ttg.slice<{dim = 2, parent = #[[GROUPED]]}>>
  // CHECK: %[[S2:.*]] = tt.expand_dims %[[S1]] {axis = 2 : i32} : {{.*}} -> tensor<32x2x1xbf16, #[[GROUPED]]>
  // CHECK: %[[S3:.*]] = tt.broadcast %[[S2]] : tensor<32x2x1xbf16, #[[GROUPED]]> -> tensor<32x2x32xbf16, #[[GROUPED]]>
  // CHECK: %[[S4:.*]] = tt.reshape %[[S3]] : tensor<32x2x32xbf16, #[[GROUPED]]> -> tensor<32x64xbf16, #[[UNPACKED]]>
  // CHECK: %[[AS:.*]] = arith.mulf %[[A]], %[[S4]] : tensor<32x64xbf16, #[[UNPACKED]]>
  // Operands reach the dot operand layouts through shared memory, as Triton
  // routes every other dot's operands.
  // CHECK: %[[ABUF:.*]] = ttg.local_alloc %[[AS]] : (tensor<32x64xbf16, #[[UNPACKED]]>) -> !ttg.memdesc<32x64xbf16, #[[SHARED0]], #smem>
  // CHECK: %[[X:.*]] = ttg.local_load %[[ABUF]] : {{.*}} -> tensor<32x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>
  // The bf16 rhs is used as it is.
  // CHECK-NOT: tt.fp_to_fp %arg2
  // CHECK: %[[BBUF:.*]] = ttg.local_alloc %arg2 : (tensor<64x32xbf16, #blocked1>) -> !ttg.memdesc<64x32xbf16, #[[SHARED0]], #smem>
  // CHECK: %[[Y:.*]] = ttg.local_load %[[BBUF]] : {{.*}} -> tensor<64x32xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>
  // CHECK: %[[D:.*]] = tt.dot %[[X]], %[[Y]], %arg3 : tensor<32x64xbf16, {{.*}}> * tensor<64x32xbf16, {{.*}}> -> tensor<32x32xf32, #blocked1>
  // CHECK: tt.return %[[D]]
  tt.func public @lhs_e2m1_scaled(%a: tensor<32x32xi8, #blocked>, %sa: tensor<32x2xi8, #blocked1>, %b: tensor<64x32xbf16, #blocked1>, %c: tensor<32x32xf32, #blocked1>) -> tensor<32x32xf32, #blocked1> {
    %d = tt.dot_scaled %a scale %sa, %b, %c lhs = e2m1 rhs = bf16 {fastMath = false} : tensor<32x32xi8, #blocked>, tensor<32x2xi8, #blocked1> * tensor<64x32xbf16, #blocked1> -> tensor<32x32xf32, #blocked1>
    tt.return %d : tensor<32x32xf32, #blocked1>
  }
}

// -----

// rhs e4m3 with its scale ([N, groups]), lhs fp16: everything in fp16. The
// scale is broadcast at [N, K] and transposed to b's [K, N]; fastMath keeps
// a 0xFF scale as it converts (no NaN select).
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func public @rhs_e4m3_scaled_fp16
  // CHECK-NOT: tt.fp_to_fp %arg0
  // CHECK: %[[B:.*]] = tt.fp_to_fp %arg1 : tensor<64x32xf8E4M3FN, #blocked> -> tensor<64x32xf16, #blocked>
  // CHECK: tt.fp_to_fp %{{.*}}, rounding = rtne : tensor<32x2xf32, #blocked> -> tensor<32x2xf16, #blocked>
  // CHECK-NOT: 0x7E00
  // CHECK: tt.broadcast {{.*}} -> tensor<32x2x32xf16,
  // CHECK: %[[NK:.*]] = tt.reshape {{.*}} -> tensor<32x64xf16,
  // CHECK: %[[KN:.*]] = tt.trans %[[NK]] {order = array<i32: 1, 0>} : tensor<32x64xf16, {{.*}}> -> tensor<64x32xf16, #blocked>
  // CHECK: %[[BS:.*]] = arith.mulf %[[B]], %[[KN]] : tensor<64x32xf16, #blocked>
  // CHECK: %[[BBUF:.*]] = ttg.local_alloc %[[BS]] : (tensor<64x32xf16, #blocked>)
  // CHECK: ttg.local_load %[[BBUF]] : {{.*}} -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
  // CHECK: tt.dot {{.*}} : tensor<32x64xf16, {{.*}}> * tensor<64x32xf16, {{.*}}> -> tensor<32x32xf32, #blocked>
  tt.func public @rhs_e4m3_scaled_fp16(%a: tensor<32x64xf16, #blocked>, %b: tensor<64x32xf8E4M3FN, #blocked>, %sb: tensor<32x2xi8, #blocked>, %c: tensor<32x32xf32, #blocked>) -> tensor<32x32xf32, #blocked> {
    %d = tt.dot_scaled %a, %b scale %sb, %c lhs = fp16 rhs = e4m3 {fastMath = true} : tensor<32x64xf16, #blocked> * tensor<64x32xf8E4M3FN, #blocked>, tensor<32x2xi8, #blocked> -> tensor<32x32xf32, #blocked>
    tt.return %d : tensor<32x32xf32, #blocked>
  }
}

// -----

// e2m1 rhs packed along N (rhs_k_pack = false): unpacked along dimension 1.
// A bf16 lhs next to an e5m2 rhs without scales: the e5m2 is upcast to bf16.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func public @rhs_e2m1_packed_along_n
  // CHECK: ttg.fp4_to_fp %arg1 {axis = 1 : i32} : tensor<32x16xi8, #blocked> -> tensor<32x32xbf16,
  // CHECK: tt.dot
  tt.func public @rhs_e2m1_packed_along_n(%a: tensor<32x32xbf16, #blocked>, %b: tensor<32x16xi8, #blocked>, %c: tensor<32x32xf32, #blocked>) -> tensor<32x32xf32, #blocked> {
    %d = tt.dot_scaled %a, %b, %c lhs = bf16 rhs = e2m1 {fastMath = false, rhs_k_pack = false} : tensor<32x32xbf16, #blocked> * tensor<32x16xi8, #blocked> -> tensor<32x32xf32, #blocked>
    tt.return %d : tensor<32x32xf32, #blocked>
  }
  // CHECK-LABEL: tt.func public @e5m2_unscaled
  // CHECK: tt.fp_to_fp %arg1 : tensor<32x32xf8E5M2, #blocked> -> tensor<32x32xbf16, #blocked>
  // CHECK: tt.dot
  tt.func public @e5m2_unscaled(%a: tensor<32x32xbf16, #blocked>, %b: tensor<32x32xf8E5M2, #blocked>, %c: tensor<32x32xf32, #blocked>) -> tensor<32x32xf32, #blocked> {
    %d = tt.dot_scaled %a, %b, %c lhs = bf16 rhs = e5m2 {fastMath = false} : tensor<32x32xbf16, #blocked> * tensor<32x32xf8E5M2, #blocked> -> tensor<32x32xf32, #blocked>
    tt.return %d : tensor<32x32xf32, #blocked>
  }
}
