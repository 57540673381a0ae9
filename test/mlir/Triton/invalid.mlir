// One case per tt verifier diagnostic.
// RUN: musa-opt %s -split-input-file -verify-diagnostics

tt.func @bitcast_width(%x: tensor<8xf32>) {
  // expected-error @+1 {{requires source and result elements of the same bit width, got 32 and 16 bits}}
  %0 = tt.bitcast %x : tensor<8xf32> -> tensor<8xf16>
  tt.return
}

// -----

tt.func @fp_to_fp_narrow(%x: tensor<8xf32>) {
  // expected-error @+1 {{requires a rounding mode}}
  %0 = tt.fp_to_fp %x : tensor<8xf32> -> tensor<8xf16>
  tt.return
}

// -----

tt.func @advance_offsets(%p: !tt.ptr<tensor<8x8xf16>>, %i: i32) {
  // expected-error @+1 {{expects one offset per block dimension (2), got 1}}
  %0 = tt.advance %p, [%i] : <tensor<8x8xf16>>
  tt.return
}

// -----

tt.func @load_block_ptr_mask(%p: !tt.ptr<tensor<8xf16>>, %m: i1) {
  // expected-error @+1 {{block pointer loads take boundaryCheck and padding, not mask or other}}
  %0 = "tt.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (!tt.ptr<tensor<8xf16>>, i1) -> tensor<8xf16>
  tt.return
}

// -----

tt.func @load_padding(%p: tensor<8x!tt.ptr<f16>>) {
  // expected-error @+1 {{padding is only allowed with a block pointer}}
  %0 = tt.load %p {padding = 1 : i32} : tensor<8x!tt.ptr<f16>>
  tt.return
}

// -----

tt.func @load_boundary_check_plain(%p: tensor<8x!tt.ptr<f16>>) {
  // expected-error @+1 {{boundaryCheck is only allowed with a block pointer}}
  %0 = tt.load %p {boundaryCheck = array<i32: 0>} : tensor<8x!tt.ptr<f16>>
  tt.return
}

// -----

tt.func @load_boundary_check_range(%p: !tt.ptr<tensor<8x8xf16>>) {
  // expected-error @+1 {{boundaryCheck dimension 2 is out of range for a block of rank 2}}
  %0 = tt.load %p {boundaryCheck = array<i32: 2>} : !tt.ptr<tensor<8x8xf16>>
  tt.return
}

// -----

tt.func @load_boundary_check_twice(%p: !tt.ptr<tensor<8x8xf16>>) {
  // expected-error @+1 {{boundaryCheck lists dimension 1 twice}}
  %0 = tt.load %p {boundaryCheck = array<i32: 1, 1>} : !tt.ptr<tensor<8x8xf16>>
  tt.return
}

// -----

// With i1 pointees the other value also passes the mask type check.
tt.func @load_other_without_mask(%p: tensor<8x!tt.ptr<i1>>, %o: tensor<8xi1>) {
  // expected-error @+1 {{other requires a mask}}
  %0 = "tt.load"(%p, %o) <{operandSegmentSizes = array<i32: 1, 0, 1>}> : (tensor<8x!tt.ptr<i1>>, tensor<8xi1>) -> tensor<8xi1>
  tt.return
}

// -----

tt.func @load_result_type(%p: tensor<8x!tt.ptr<f16>>) {
  // expected-error @+1 {{failed to verify that result type matches the pointee type of ptr}}
  %0 = "tt.load"(%p) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<8x!tt.ptr<f16>>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @load_not_a_pointer(%p: tensor<8xi32>) {
  // expected-error @+1 {{'ptr' must be pointer or ranked tensor of pointer values or pointer to a tensor, but got 'tensor<8xi32>'}}
  %0 = tt.load %p : tensor<8xi32>
  tt.return
}

// -----

tt.func @store_mask_shape(%p: tensor<8x!tt.ptr<f16>>, %v: tensor<8xf16>, %m: tensor<4xi1>) {
  // expected-error @+1 {{failed to verify that mask type matches the shape of ptr}}
  "tt.store"(%p, %v, %m) : (tensor<8x!tt.ptr<f16>>, tensor<8xf16>, tensor<4xi1>) -> ()
  tt.return
}

// -----

tt.func @store_block_ptr_mask(%p: !tt.ptr<tensor<8xf16>>, %v: tensor<8xf16>, %m: i1) {
  // expected-error @+1 {{block pointer stores take boundaryCheck, not a mask}}
  "tt.store"(%p, %v, %m) : (!tt.ptr<tensor<8xf16>>, tensor<8xf16>, i1) -> ()
  tt.return
}

// -----

tt.func @atomic_rmw_pointee(%p: !tt.ptr<f32>, %v: i32) {
  // expected-error @+1 {{ptr type '!tt.ptr<f32>' does not point to values of type 'i32'}}
  %0 = tt.atomic_rmw add, relaxed, gpu, %p, %v : (!tt.ptr<f32>, i32) -> i32
  tt.return
}

// -----

tt.func @atomic_rmw_mask(%p: tensor<8x!tt.ptr<i32>>, %v: tensor<8xi32>, %m: tensor<8xi32>) {
  // expected-error @+1 {{operand #2 must be}}
  %0 = tt.atomic_rmw add, relaxed, gpu, %p, %v, %m : (tensor<8x!tt.ptr<i32>>, tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
  tt.return
}

// -----

tt.func @atomic_rmw_result(%p: !tt.ptr<i32>, %v: i32) {
  // expected-error @+1 {{result type must be the value type 'i32'}}
  %0 = tt.atomic_rmw add, relaxed, gpu, %p, %v : (!tt.ptr<i32>, i32) -> i64
  tt.return
}

// -----

tt.func @atomic_fadd_int(%p: !tt.ptr<i32>, %v: i32) {
  // expected-error @+1 {{fadd requires floating-point values, got 'i32'}}
  %0 = tt.atomic_rmw fadd, relaxed, gpu, %p, %v : (!tt.ptr<i32>, i32) -> i32
  tt.return
}

// -----

tt.func @atomic_and_float(%p: !tt.ptr<f32>, %v: f32) {
  // expected-error @+1 {{and requires integer values, got 'f32'}}
  %0 = tt.atomic_rmw and, relaxed, gpu, %p, %v : (!tt.ptr<f32>, f32) -> f32
  tt.return
}

// -----

tt.func @atomic_cas_types(%p: !tt.ptr<i32>, %c: i32, %v: i64) {
  // expected-error @+1 {{requires cmp, val and result of the same type}}
  %0 = tt.atomic_cas acq_rel, gpu, %p, %c, %v : (!tt.ptr<i32>, i32, i64) -> i32
  tt.return
}

// -----

tt.func @atomic_cas_pointee(%p: !tt.ptr<f32>, %c: i32) {
  // expected-error @+1 {{does not point to values of type 'i32'}}
  %0 = tt.atomic_cas acq_rel, gpu, %p, %c, %c : (!tt.ptr<f32>, i32, i32) -> i32
  tt.return
}

// -----

tt.func @splat_tensor(%x: tensor<1xf32>) {
  // expected-error @+1 {{source must be a scalar}}
  %0 = tt.splat %x : tensor<1xf32> -> tensor<8xf32>
  tt.return
}

// -----

tt.func @unsplat_many(%x: tensor<2xf32>) {
  // expected-error @+1 {{source must have exactly one element}}
  %0 = tt.unsplat %x : tensor<2xf32>
  tt.return
}

// -----

tt.func @expand_dims_axis(%x: tensor<8xf32>) {
  // expected-error @+1 {{axis 2 is out of range for a source of rank 1}}
  %0 = tt.expand_dims %x {axis = 2 : i32} : tensor<8xf32> -> tensor<8x1xf32>
  tt.return
}

// -----

tt.func @expand_dims_shape(%x: tensor<8xf32>) {
  // expected-error @+1 {{result shape must be the source shape with a 1 inserted at axis 0}}
  %0 = tt.expand_dims %x {axis = 0 : i32} : tensor<8xf32> -> tensor<8x1xf32>
  tt.return
}

// -----

tt.func @reshape_count(%x: tensor<8x4xf32>) {
  // expected-error @+1 {{source and result must have the same number of elements}}
  %0 = tt.reshape %x : tensor<8x4xf32> -> tensor<64xf32>
  tt.return
}

// -----

tt.func @broadcast_rank(%x: tensor<8xf32>) {
  // expected-error @+1 {{source and result must have the same rank}}
  %0 = tt.broadcast %x : tensor<8xf32> -> tensor<4x8xf32>
  tt.return
}

// -----

tt.func @broadcast_dim(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{dimension 0 of size 2 cannot broadcast to 4}}
  %0 = tt.broadcast %x : tensor<2x8xf32> -> tensor<4x8xf32>
  tt.return
}

// -----

tt.func @cat_shape(%x: tensor<8xf32>) {
  // expected-error @+1 {{result shape must double the first dimension of the operands}}
  %0 = tt.cat %x, %x : tensor<8xf32> -> tensor<32xf32>
  tt.return
}

// -----

tt.func @join_shape(%x: tensor<8xf32>) {
  // expected-error @+1 {{result shape must be the operand shape with a new minor dimension of size 2}}
  %0 = tt.join %x, %x : tensor<8xf32> -> tensor<2x8xf32>
  tt.return
}

// -----

tt.func @split_last_dim(%x: tensor<8x4xf32>) {
  // expected-error @+1 {{source must have a last dimension of size 2}}
  %0, %1 = tt.split %x : tensor<8x4xf32> -> tensor<8xf32>
  tt.return
}

// -----

tt.func @split_result(%x: tensor<8x2xf32>) {
  // expected-error @+1 {{result shape must be the source shape without its last dimension}}
  %0, %1 = tt.split %x : tensor<8x2xf32> -> tensor<4xf32>
  tt.return
}

// -----

tt.func @trans_order_size(%x: tensor<8x4xf32>) {
  // expected-error @+1 {{order must have one entry per source dimension}}
  %0 = tt.trans %x {order = array<i32: 0>} : tensor<8x4xf32> -> tensor<8x4xf32>
  tt.return
}

// -----

tt.func @trans_not_permutation(%x: tensor<8x4xf32>) {
  // expected-error @+1 {{order must be a permutation of 0..1}}
  %0 = tt.trans %x {order = array<i32: 1, 1>} : tensor<8x4xf32> -> tensor<4x4xf32>
  tt.return
}

// -----

tt.func @trans_shape(%x: tensor<8x4xf32>) {
  // expected-error @+1 {{result shape must be the source shape permuted by order}}
  %0 = tt.trans %x {order = array<i32: 1, 0>} : tensor<8x4xf32> -> tensor<8x4xf32>
  tt.return
}

// -----

tt.func @make_range_empty() {
  // expected-error @+1 {{end (0) must be greater than start (8)}}
  %0 = tt.make_range {end = 0 : i32, start = 8 : i32} : tensor<8xi32>
  tt.return
}

// -----

tt.func @make_range_size() {
  // expected-error @+1 {{result must have end - start = 16 elements}}
  %0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<8xi32>
  tt.return
}

// -----

tt.func @make_range_i64() {
  // expected-error @+1 {{result elements must be i32}}
  %0 = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi64>
  tt.return
}

// -----

tt.func @make_range_rank() {
  // expected-error @+1 {{result must be a 1-D tensor}}
  %0 = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8x1xi32>
  tt.return
}

// -----

tt.func @dot_rank(%a: tensor<16xf16>, %c: tensor<16xf32>) {
  // expected-error @+1 {{operands must all be 2-D, or all 3-D (batched)}}
  %0 = tt.dot %a, %a, %c : tensor<16xf16> * tensor<16xf16> -> tensor<16xf32>
  tt.return
}

// -----

tt.func @dot_k(%a: tensor<16x32xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{K dimensions of a (32) and b (16) differ}}
  %0 = tt.dot %a, %b, %c : tensor<16x32xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  tt.return
}

// -----

tt.func @dot_acc_shape(%a: tensor<16x32xf16>, %b: tensor<32x64xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{accumulator shape must be 16x64 (M x N)}}
  %0 = tt.dot %a, %b, %c : tensor<16x32xf16> * tensor<32x64xf16> -> tensor<16x16xf32>
  tt.return
}

// -----

tt.func @dot_batch(%a: tensor<2x16x16xf16>, %b: tensor<4x16x16xf16>, %c: tensor<2x16x16xf32>) {
  // expected-error @+1 {{operands must have the same batch size}}
  %0 = tt.dot %a, %b, %c : tensor<2x16x16xf16> * tensor<4x16x16xf16> -> tensor<2x16x16xf32>
  tt.return
}

// -----

tt.func @dot_width(%a: tensor<16x16xf16>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{elements of a and b must have the same bit width}}
  %0 = tt.dot %a, %b, %c : tensor<16x16xf16> * tensor<16x16xf32> -> tensor<16x16xf32>
  tt.return
}

// -----

tt.func @dot_int_acc(%a: tensor<16x16xi8>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{integer operands need an integer accumulator}}
  %0 = tt.dot %a, %a, %c : tensor<16x16xi8> * tensor<16x16xi8> -> tensor<16x16xf32>
  tt.return
}

// -----

tt.func @dot_scaled_k(%a: tensor<32x64xi8>, %b: tensor<64x32xbf16>, %c: tensor<32x32xf32>) {
  // expected-error @+1 {{K dimensions of a (128) and b (64) differ}}
  %0 = tt.dot_scaled %a, %b, %c lhs = e2m1 rhs = bf16 {fastMath = false} : tensor<32x64xi8> * tensor<64x32xbf16> -> tensor<32x32xf32>
  tt.return
}

// -----

tt.func @dot_scaled_acc(%a: tensor<32x64xf8E4M3FN>, %b: tensor<64x32xf8E4M3FN>, %c: tensor<32x16xf32>) {
  // expected-error @+1 {{accumulator shape must be 32x32 (M x N)}}
  %0 = tt.dot_scaled %a, %b, %c lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<32x64xf8E4M3FN> * tensor<64x32xf8E4M3FN> -> tensor<32x16xf32>
  tt.return
}

// -----

tt.func @dot_scaled_scale_rows(%a: tensor<32x64xf8E4M3FN>, %s: tensor<16x2xi8>, %b: tensor<64x32xf8E4M3FN>, %c: tensor<32x32xf32>) {
  // expected-error @+1 {{a_scale must have 32 rows}}
  %0 = tt.dot_scaled %a scale %s, %b, %c lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<32x64xf8E4M3FN>, tensor<16x2xi8> * tensor<64x32xf8E4M3FN> -> tensor<32x32xf32>
  tt.return
}

// -----

tt.func @dot_scaled_scale_group(%a: tensor<32x64xf8E4M3FN>, %s: tensor<32x8xi8>, %b: tensor<64x32xf8E4M3FN>, %c: tensor<32x32xf32>) {
  // expected-error @+1 {{a_scale must hold one scale per 16 or 32 elements of K (64)}}
  %0 = tt.dot_scaled %a scale %s, %b, %c lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<32x64xf8E4M3FN>, tensor<32x8xi8> * tensor<64x32xf8E4M3FN> -> tensor<32x32xf32>
  tt.return
}

// -----

tt.func @reduce_no_operand() {
  // expected-error @+1 {{expected 1 or more operands, but found 0}}
  "tt.reduce"() <{axis = 0 : i32}> ({
  ^bb0:
    "tt.reduce.return"() : () -> ()
  }) : () -> ()
  tt.return
}

// -----

tt.func @reduce_axis(%x: tensor<8xf32>) {
  // expected-error @+1 {{axis 1 is out of range for operands of rank 1}}
  %0 = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    tt.reduce.return %a : f32
  }) : (tensor<8xf32>) -> f32
  tt.return
}

// -----

tt.func @reduce_result_count(%x: tensor<8xf32>) {
  // expected-error @+1 {{requires one result per operand}}
  %0:2 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    tt.reduce.return %a : f32
  }) : (tensor<8xf32>) -> (f32, f32)
  tt.return
}

// -----

tt.func @reduce_result_shape(%x: tensor<8x4xf32>) {
  // expected-error @+1 {{result #0 must be a tensor of 'f32' shaped like operand #0 without axis 0}}
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    tt.reduce.return %a : f32
  }) : (tensor<8x4xf32>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @reduce_scalar_result(%x: tensor<8xf32>) {
  // expected-error @+1 {{result #0 of a 1-D reduction must be the scalar 'f32'}}
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    tt.reduce.return %a : f32
  }) : (tensor<8xf32>) -> tensor<1xf32>
  tt.return
}

// -----

tt.func @reduce_region_args(%x: tensor<8xf32>) {
  // expected-error @+1 {{combiner region must take 2 arguments, got 1}}
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32):
    tt.reduce.return %a : f32
  }) : (tensor<8xf32>) -> f32
  tt.return
}

// -----

tt.func @reduce_region_arg_type(%x: tensor<8xf32>) {
  // expected-error @+1 {{combiner argument #1 must have type 'f32', got 'i32'}}
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: i32):
    tt.reduce.return %a : f32
  }) : (tensor<8xf32>) -> f32
  tt.return
}

// -----

tt.func @reduce_yield_count(%x: tensor<8xf32>) {
  // expected-error @+1 {{combiner must yield 1 values, got 2}}
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    tt.reduce.return %a, %b : f32, f32
  }) : (tensor<8xf32>) -> f32
  tt.return
}

// -----

tt.func @reduce_yield_type(%x: tensor<8xf32>) {
  // expected-error @+1 {{combiner result #0 must have type 'f32', got 'i32'}}
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %c = arith.constant 0 : i32
    tt.reduce.return %c : i32
  }) : (tensor<8xf32>) -> f32
  tt.return
}

// -----

tt.func @reduce_encoding(%x: tensor<8xf32, "a">, %y: tensor<8xf32, "b">) {
  // expected-error @+1 {{requires the same encoding for all operands}}
  %0:2 = "tt.reduce"(%x, %y) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32, %c: f32, %d: f32):
    tt.reduce.return %a, %b : f32, f32
  }) : (tensor<8xf32, "a">, tensor<8xf32, "b">) -> (f32, f32)
  tt.return
}

// -----

tt.func @scan_result(%x: tensor<8xf32>) {
  // expected-error @+1 {{result types must be the operand types}}
  %0 = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%a: f32, %b: f32):
    tt.scan.return %a : f32
  }) : (tensor<8xf32>) -> tensor<8xf16>
  tt.return
}

// -----

tt.func @scan_axis(%x: tensor<8xf32>) {
  // expected-error @+1 {{axis -1 is out of range for operands of rank 1}}
  %0 = "tt.scan"(%x) <{axis = -1 : i32, reverse = false}> ({
  ^bb0(%a: f32, %b: f32):
    tt.scan.return %a : f32
  }) : (tensor<8xf32>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @map_elementwise_pack(%x: tensor<8xf32>) {
  // expected-error @+1 {{pack must be at least 1, got 0}}
  %0 = "tt.map_elementwise"(%x) <{pack = 0 : i32}> ({
  ^bb0(%a: f32):
    tt.map_elementwise.return %a : f32
  }) : (tensor<8xf32>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @map_elementwise_pack_divides(%x: tensor<2xf32>) {
  // expected-error @+1 {{pack (4) must divide the number of elements}}
  %0 = "tt.map_elementwise"(%x) <{pack = 4 : i32}> ({
  ^bb0(%a: f32, %b: f32, %c: f32, %d: f32):
    tt.map_elementwise.return %a, %b, %c, %d : f32, f32, f32, f32
  }) : (tensor<2xf32>) -> tensor<2xf32>
  tt.return
}

// -----

tt.func @map_elementwise_args(%x: tensor<8xf32>) {
  // expected-error @+1 {{combiner region must take 2 arguments, got 1}}
  %0 = "tt.map_elementwise"(%x) <{pack = 2 : i32}> ({
  ^bb0(%a: f32):
    tt.map_elementwise.return %a, %a : f32, f32
  }) : (tensor<8xf32>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @map_elementwise_no_operand() {
  // expected-error @+1 {{expected 1 or more operands, but found 0}}
  "tt.map_elementwise"() <{pack = 1 : i32}> ({
  ^bb0:
    tt.map_elementwise.return
  }) : () -> ()
  tt.return
}

// -----

tt.func @extern_symbol(%x: tensor<8xf32>) {
  // expected-error @+1 {{requires a non-empty symbol}}
  %0 = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = ""} : (tensor<8xf32>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @inline_asm_pack(%x: tensor<8xi32>) {
  // expected-error @+1 {{packed_element must be at least 1, got 0}}
  %0 = tt.elementwise_inline_asm "" {constraints = "=r,r", packed_element = 0 : i32, pure = true} %x : tensor<8xi32> -> tensor<8xi32>
  tt.return
}

// -----

tt.func @inline_asm_pack_divides(%x: tensor<2xi32>) {
  // expected-error @+1 {{packed_element (4) must divide the number of elements of 'tensor<2xi32>'}}
  %0 = tt.elementwise_inline_asm "" {constraints = "=r,r", packed_element = 4 : i32, pure = true} %x : tensor<2xi32> -> tensor<2xi32>
  tt.return
}

// -----

tt.func @histogram_rank(%x: tensor<8x8xi32>) {
  // expected-error @+1 {{source and result must be 1-D tensors}}
  %0 = tt.histogram %x : tensor<8x8xi32> -> tensor<16xi32>
  tt.return
}

// -----

tt.func @histogram_mask(%x: tensor<8xi32>, %m: tensor<4xi1>) {
  // expected-error @+1 {{failed to verify that mask type matches the shape of src}}
  %0 = "tt.histogram"(%x, %m) : (tensor<8xi32>, tensor<4xi1>) -> tensor<16xi32>
  tt.return
}

// -----

tt.func @gather_rank(%s: tensor<8x8xf32>, %i: tensor<8xi32>) {
  // expected-error @+1 {{source and indices must have the same rank}}
  %0 = tt.gather %s[%i] {axis = 0 : i32} : (tensor<8x8xf32>, tensor<8xi32>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @gather_axis(%s: tensor<8xf32>, %i: tensor<8xi32>) {
  // expected-error @+1 {{axis 1 is out of range}}
  %0 = tt.gather %s[%i] {axis = 1 : i32} : (tensor<8xf32>, tensor<8xi32>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @gather_shape(%s: tensor<8xf32>, %i: tensor<16xi32>) {
  // expected-error @+1 {{result must have the shape of the indices}}
  %0 = tt.gather %s[%i] {axis = 0 : i32} : (tensor<8xf32>, tensor<16xi32>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @gather_element(%s: tensor<8xf32>, %i: tensor<8xi32>) {
  // expected-error @+1 {{result must have the element type of the source}}
  %0 = tt.gather %s[%i] {axis = 0 : i32} : (tensor<8xf32>, tensor<8xi32>) -> tensor<8xf16>
  tt.return
}

// -----

tt.func @gather_index_dim(%s: tensor<4x8xf32>, %i: tensor<8x8xi32>) {
  // expected-error @+1 {{indices dimension 0 (8) exceeds the source dimension (4)}}
  %0 = tt.gather %s[%i] {axis = 1 : i32} : (tensor<4x8xf32>, tensor<8x8xi32>) -> tensor<8x8xf32>
  tt.return
}

// -----

tt.func @print_is_signed(%x: i32) {
  // expected-error @+1 {{isSigned must have one entry per argument (1), got 0}}
  tt.print "x" {hex = false, isSigned = array<i32>} : %x : i32
  tt.return
}

// -----

tt.func @make_tensor_ptr_base(%b: !tt.ptr<f32>, %s: i64, %o: i32) {
  // expected-error @+1 {{failed to verify that base points to the block's element type}}
  %0 = "tt.make_tensor_ptr"(%b, %s, %s, %o) <{order = array<i32: 0>}> : (!tt.ptr<f32>, i64, i64, i32) -> !tt.ptr<tensor<8xf16>>
  tt.return
}

// -----

tt.func @make_tensor_ptr_rank(%b: !tt.ptr<f16>, %s: i64, %o: i32) {
  // expected-error @+1 {{expects shape, strides and offsets of rank 2, got 1}}
  %0 = tt.make_tensor_ptr %b, [%s], [%s], [%o] {order = array<i32: 1, 0>} : <tensor<8x8xf16>>
  tt.return
}

// -----

tt.func @make_tensor_ptr_order(%b: !tt.ptr<f16>, %s: i64, %o: i32) {
  // expected-error @+1 {{order must be a permutation of 0..1}}
  %0 = tt.make_tensor_ptr %b, [%s, %s], [%s, %s], [%o, %o] {order = array<i32: 0, 0>} : <tensor<8x8xf16>>
  tt.return
}

// -----

tt.func @make_tensor_desc_base(%b: !tt.ptr<f32>, %n: i32, %s: i64) {
  // expected-error @+1 {{base '!tt.ptr<f32>' must point to the block element type 'f16'}}
  %0 = tt.make_tensor_descriptor %b, [%n, %n], [%s, %s] : <f32>, <tensor<8x8xf16>>
  tt.return
}

// -----

tt.func @make_tensor_desc_rank(%b: !tt.ptr<f16>, %n: i32, %s: i64) {
  // expected-error @+1 {{expects shape and strides of rank 2, got 1}}
  %0 = tt.make_tensor_descriptor %b, [%n], [%s] : <f16>, <tensor<8x8xf16>>
  tt.return
}

// -----

tt.func @descriptor_load_indices(%d: !tt.tensordesc<tensor<8x8xf16>>, %i: i32) {
  // expected-error @+1 {{expects one index per descriptor dimension (2), got 1}}
  %0 = tt.descriptor_load %d[%i] : !tt.tensordesc<tensor<8x8xf16>> -> tensor<8x8xf16>
  tt.return
}

// -----

tt.func @descriptor_load_type(%d: !tt.tensordesc<tensor<8x8xf16>>, %i: i32) {
  // expected-error @+1 {{tensor type 'tensor<8x8xf32>' does not match the descriptor block 'tensor<8x8xf16>'}}
  %0 = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<8x8xf16>> -> tensor<8x8xf32>
  tt.return
}

// -----

tt.func @descriptor_store_shape(%d: !tt.tensordesc<tensor<8x8xf16>>, %i: i32, %t: tensor<4x16xf16>) {
  // expected-error @+1 {{does not match the descriptor block}}
  tt.descriptor_store %d[%i, %i], %t : !tt.tensordesc<tensor<8x8xf16>>, tensor<4x16xf16>
  tt.return
}

// -----

tt.func @descriptor_reduce_shape(%d: !tt.tensordesc<tensor<8x8xf32>>, %i: i32, %t: tensor<8x16xf32>) {
  // expected-error @+1 {{does not match the descriptor block}}
  tt.descriptor_reduce add, %d[%i, %i], %t : !tt.tensordesc<tensor<8x8xf32>>, tensor<8x16xf32>
  tt.return
}

// -----

tt.func @descriptor_gather_block(%d: !tt.tensordesc<tensor<2x64xf16>>, %r: tensor<8xi32>, %i: i32) {
  // expected-error @+1 {{descriptor block must be 1xW, got 'tensor<2x64xf16>'}}
  %0 = tt.descriptor_gather %d[%r, %i] : (!tt.tensordesc<tensor<2x64xf16>>, tensor<8xi32>, i32) -> tensor<8x64xf16>
  tt.return
}

// -----

tt.func @descriptor_gather_result(%d: !tt.tensordesc<tensor<1x64xf16>>, %r: tensor<8xi32>, %i: i32) {
  // expected-error @+1 {{tensor type 'tensor<16x64xf16>' must be 8x64 of 'f16'}}
  %0 = tt.descriptor_gather %d[%r, %i] : (!tt.tensordesc<tensor<1x64xf16>>, tensor<8xi32>, i32) -> tensor<16x64xf16>
  tt.return
}

// -----

tt.func @descriptor_scatter_offsets(%d: !tt.tensordesc<tensor<1x64xf16>>, %r: tensor<8x2xi32>, %i: i32, %t: tensor<8x64xf16>) {
  // expected-error @+1 {{x_offsets must be a 1-D tensor}}
  tt.descriptor_scatter %d[%r, %i], %t : !tt.tensordesc<tensor<1x64xf16>>, tensor<8x2xi32>, i32, tensor<8x64xf16>
  tt.return
}

// -----

module {
  tt.func @call_unknown() {
    // expected-error @+1 {{'missing' does not reference a valid tt.func}}
    tt.call @missing() : () -> ()
    tt.return
  }
}

// -----

module {
  tt.func private @f(%x: i32) -> i32 {
    tt.return %x : i32
  }
  tt.func @call_count() {
    // expected-error @+1 {{passes 0 operands, but the callee takes 1}}
    %0 = tt.call @f() : () -> i32
    tt.return
  }
}

// -----

module {
  tt.func private @f(%x: i32) -> i32 {
    tt.return %x : i32
  }
  tt.func @call_operand(%y: i64) {
    // expected-error @+1 {{operand #0 has type 'i64', but the callee expects 'i32'}}
    %0 = tt.call @f(%y) : (i64) -> i32
    tt.return
  }
}

// -----

module {
  tt.func private @f(%x: i32) -> i32 {
    tt.return %x : i32
  }
  tt.func @call_result(%y: i32) {
    // expected-error @+1 {{result types do not match the callee's '(i32) -> i32'}}
    %0 = tt.call @f(%y) : (i32) -> f32
    tt.return
  }
}

// -----

tt.func @return_count(%x: i32) -> i32 {
  // expected-error @+1 {{returns 0 values, but the enclosing function has 1 results}}
  tt.return
}

// -----

tt.func @return_type(%x: i64) -> i32 {
  // expected-error @+1 {{operand #0 has type 'i64', but the function returns 'i32'}}
  tt.return %x : i64
}

// -----

tt.func @not_power_of_two(%x: f32) {
  // expected-error @+1 {{tensor 'tensor<6xf32>' must have a power-of-two element count}}
  %0 = tt.splat %x : f32 -> tensor<6xf32>
  tt.return
}

// -----

tt.func @too_large(%x: f32) {
  // expected-error @+1 {{tensor 'tensor<2048x1024xf32>' has more than 1048576 elements}}
  %0 = tt.splat %x : f32 -> tensor<2048x1024xf32>
  tt.return
}

// -----

tt.func @dynamic_shape(%x: f32) {
  // expected-error @+1 {{requires static tensor shapes, got 'tensor<?xf32>'}}
  %0 = tt.splat %x : f32 -> tensor<?xf32>
  tt.return
}

// -----

tt.func @encoding_mismatch(%x: tensor<8x!tt.ptr<f32>, "a">, %o: tensor<8xi32, "b">) {
  // expected-error @+1 {{requires the same encoding for all operands and results}}
  %0 = tt.addptr %x, %o : tensor<8x!tt.ptr<f32>, "a">, tensor<8xi32, "b">
  tt.return
}

// -----

// expected-error @+1 {{pointer address space must be non-negative, got -1}}
tt.func @bad_address_space(%p: !tt.ptr<f32, -1>) {
  tt.return
}

// -----

tt.func @func_outside_module() {
  // expected-error @+1 {{expects parent op 'builtin.module'}}
  tt.func @nested() {
    tt.return
  }
  tt.return
}
