// Malformed input is rejected with a file:line:col diagnostic and a non-zero
// exit status, never a crash.
// RUN: not musa-opt %s -split-input-file 2>&1 | FileCheck %s

// An unknown keyword where a load clause is expected.
tt.func @unknown_field(%p: tensor<8x!tt.ptr<f32>>) {
  // CHECK: parse-errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: expected ':'
  %0 = tt.load %p bogus = 1 : tensor<8x!tt.ptr<f32>>
  tt.return
}

// -----

// A value that is not one of the enum's spellings.
tt.func @unknown_enum(%p: !tt.ptr<f32>) {
  // CHECK: parse-errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: {{.*}}enum values for attribute 'cache' [none, ca, cg, wb, cs, wt, cv]
  %0 = tt.load %p cacheModifier = xx : !tt.ptr<f32>
  tt.return
}

// -----

// A malformed pointer type: the address space must be an integer.
// CHECK: parse-errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: expected integer value
tt.func @bad_ptr_type(%p: !tt.ptr<f32, global>) {
  tt.return
}

// -----

// A tensor descriptor must describe a tensor block.
// CHECK: parse-errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: invalid kind of type specified: expected builtin.tensor, but found 'f16'
tt.func @bad_desc_type(%d: !tt.tensordesc<f16>) {
  tt.return
}

// -----

// Loads go through pointers: the type after ':' must be a pointer type.
tt.func @load_from_int(%p: tensor<8xi32>) {
  // CHECK: parse-errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: custom op 'tt.load' 'ptr' must be pointer
  %0 = tt.load %p : tensor<8xi32>
  tt.return
}

// -----

tt.func @unknown_op() {
  // CHECK: parse-errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: custom op 'tt.bogus' is unknown
  tt.bogus
  tt.return
}
