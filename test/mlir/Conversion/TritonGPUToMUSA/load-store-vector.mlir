// Vectorized global accesses: the axis analysis proves the pointers of
// `base + pid * 1024 + make_range` contiguous and 16-byte aligned (from
// tt.divisibility = 16) and the mask `offs < n` (n divisible by 16) constant
// over runs of 16: each thread's 4 consecutive f32 registers (sizePerThread
// 4) become one <4 x f32> access behind one predicate. Without
// the hints every access stays scalar.
// RUN: musa-opt %s -split-input-file -convert-tritongpu-to-musa=arch=mp_31 -o %t.mp_31.mlir
// RUN: FileCheck %s --input-file=%t.mp_31.mlir '--implicit-check-not={{^ *(%[^ ]* = )?"?ttg?\.[a-z_]+}}'

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @copy_aligned(
  // CHECK: llvm.cond_br %{{.*}}, ^[[L:.*]], ^[[J:.*]](%{{.*}} : vector<4xf32>)
  // CHECK: ^[[L]]:
  // CHECK-NEXT: %[[V:.*]] = llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
  // CHECK: llvm.extractelement
  // CHECK: llvm.cond_br %{{.*}}, ^[[L2:.*]], ^{{.*}}(%{{.*}} : vector<4xf32>)
  // CHECK: ^[[L2]]:
  // CHECK-NEXT: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
  // CHECK-NOT: llvm.load
  // CHECK: llvm.insertelement
  // CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
  // CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
  // CHECK-NOT: llvm.store
  // CHECK: llvm.return
  tt.func public @copy_aligned(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %c1024_i32 = arith.constant 1024 : i32
    %pid = tt.get_program_id x : i32
    %offs = arith.muli %pid, %c1024_i32 : i32
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %s = tt.splat %offs : i32 -> tensor<1024xi32, #blocked>
    %o = arith.addi %s, %r : tensor<1024xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %mask = arith.cmpi slt, %o, %ns : tensor<1024xi32, #blocked>
    %x = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %xp = tt.addptr %x, %o : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %v = tt.load %xp, %mask : tensor<1024x!tt.ptr<f32>, #blocked>
    %out = tt.splat %out_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %op = tt.addptr %out, %o : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    tt.store %op, %v, %mask : tensor<1024x!tt.ptr<f32>, #blocked>
    tt.return
  }

  // The same without divisibility hints: 8 scalar loads.
  // CHECK-LABEL: llvm.func @copy_unknown(
  // CHECK-COUNT-8: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
  // CHECK-NOT: vector<
  // CHECK: llvm.return
  tt.func public @copy_unknown(%x_ptr: !tt.ptr<f32>, %out_ptr: !tt.ptr<f32>) {
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %x = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %xp = tt.addptr %x, %r : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %v = tt.load %xp : tensor<1024x!tt.ptr<f32>, #blocked>
    %out = tt.splat %out_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %op = tt.addptr %out, %r : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    tt.store %op, %v : tensor<1024x!tt.ptr<f32>, #blocked>
    tt.return
  }

  // An offset of 2 elements (8 bytes) from an aligned base: pairs only.
  // CHECK-LABEL: llvm.func @copy_offset(
  // CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xf32>
  // CHECK-NOT: llvm.load
  // CHECK: llvm.return
  tt.func public @copy_offset(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %c2 = arith.constant 2 : i32
    %x0 = tt.addptr %x_ptr, %c2 : !tt.ptr<f32>, i32
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %x = tt.splat %x0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %xp = tt.addptr %x, %r : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %v = tt.load %xp : tensor<1024x!tt.ptr<f32>, #blocked>
    %out = tt.splat %out_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %op = tt.addptr %out, %r : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    tt.store %op, %v : tensor<1024x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// A loop over columns, `for i in range(0, n, 1024): offs = i + arange`: the
// induction variable is a multiple of 1024 (constant lower bound 0 and step
// 1024), so the loads and stores in the loop are <4 x f32> as above. A loop
// whose step is 2 proves only 8-byte alignment: pairs.
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @loop_over_columns(
  // CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
  // CHECK-NOT: -> f32
  // CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
  // CHECK-LABEL: llvm.func @loop_step_two(
  // CHECK: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xf32>
  // CHECK-NOT: vector<4xf32>
  // CHECK: llvm.return
  tt.func public @loop_over_columns(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %c1024 = arith.constant 1024 : i32
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %x = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    scf.for %i = %c0 to %n step %c1024 : i32 {
      %s = tt.splat %i : i32 -> tensor<1024xi32, #blocked>
      %o = arith.addi %s, %r : tensor<1024xi32, #blocked>
      %o64 = arith.extsi %o : tensor<1024xi32, #blocked> to tensor<1024xi64, #blocked>
      %p = tt.addptr %x, %o64 : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi64, #blocked>
      %mask = arith.cmpi slt, %o, %ns : tensor<1024xi32, #blocked>
      %v = tt.load %p, %mask : tensor<1024x!tt.ptr<f32>, #blocked>
      %w = arith.addf %v, %v : tensor<1024xf32, #blocked>
      tt.store %p, %w, %mask : tensor<1024x!tt.ptr<f32>, #blocked>
    }
    tt.return
  }
  tt.func public @loop_step_two(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c2 = arith.constant 2 : i32
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %x = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    scf.for %i = %c0 to %n step %c2 : i32 {
      %s = tt.splat %i : i32 -> tensor<1024xi32, #blocked>
      %o = arith.addi %s, %r : tensor<1024xi32, #blocked>
      %p = tt.addptr %x, %o : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
      %v = tt.load %p : tensor<1024x!tt.ptr<f32>, #blocked>
      tt.store %p, %v : tensor<1024x!tt.ptr<f32>, #blocked>
    }
    tt.return
  }
}

// -----

// Rows of a 2-D tile, `base + rows[:, None] * stride + cols[None, :]`: a
// row's first element is aligned only as far as the stride is. Each thread
// loads 4 consecutive f32 of one row: <4 x f32> with a stride divisible by
// 16, scalar loads with an unknown stride (a row index times an odd stride
// is odd, whatever divides the first row index).
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @rows_aligned_stride(
  // CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
  // CHECK-LABEL: llvm.func @rows_unknown_stride(
  // CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
  // CHECK-NOT: vector<4xf32>
  // CHECK-LABEL: llvm.func @rows_scaled_first(
  // CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
  // CHECK-NOT: vector<4xf32>
  // CHECK: llvm.return
  tt.func public @rows_aligned_stride(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %stride: i32 {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %re = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<16x1xi32, #blocked>
    %rows = tt.broadcast %re : tensor<16x1xi32, #blocked> -> tensor<16x32xi32, #blocked>
    %c = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %ce = tt.expand_dims %c {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %cols = tt.broadcast %ce : tensor<1x32xi32, #blocked> -> tensor<16x32xi32, #blocked>
    %s = tt.splat %stride : i32 -> tensor<16x32xi32, #blocked>
    %ro = arith.muli %rows, %s : tensor<16x32xi32, #blocked>
    %o = arith.addi %ro, %cols : tensor<16x32xi32, #blocked>
    %x = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<16x32x!tt.ptr<f32>, #blocked>
    %p = tt.addptr %x, %o : tensor<16x32x!tt.ptr<f32>, #blocked>, tensor<16x32xi32, #blocked>
    %v = tt.load %p : tensor<16x32x!tt.ptr<f32>, #blocked>
    tt.return
  }
  tt.func public @rows_unknown_stride(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %stride: i32) {
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %re = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<16x1xi32, #blocked>
    %rows = tt.broadcast %re : tensor<16x1xi32, #blocked> -> tensor<16x32xi32, #blocked>
    %c = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %ce = tt.expand_dims %c {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %cols = tt.broadcast %ce : tensor<1x32xi32, #blocked> -> tensor<16x32xi32, #blocked>
    %s = tt.splat %stride : i32 -> tensor<16x32xi32, #blocked>
    %ro = arith.muli %rows, %s : tensor<16x32xi32, #blocked>
    %o = arith.addi %ro, %cols : tensor<16x32xi32, #blocked>
    %x = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<16x32x!tt.ptr<f32>, #blocked>
    %p = tt.addptr %x, %o : tensor<16x32x!tt.ptr<f32>, #blocked>, tensor<16x32xi32, #blocked>
    %v = tt.load %p : tensor<16x32x!tt.ptr<f32>, #blocked>
    tt.return
  }  // The same with the rows scaled before expand_dims: rows * stride.
  tt.func public @rows_scaled_first(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %stride: i32) {
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %s = tt.splat %stride : i32 -> tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %ro = arith.muli %r, %s : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %re = tt.expand_dims %ro {axis = 1 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<16x1xi32, #blocked>
    %rows = tt.broadcast %re : tensor<16x1xi32, #blocked> -> tensor<16x32xi32, #blocked>
    %c = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %ce = tt.expand_dims %c {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %cols = tt.broadcast %ce : tensor<1x32xi32, #blocked> -> tensor<16x32xi32, #blocked>
    %o = arith.addi %rows, %cols : tensor<16x32xi32, #blocked>
    %x = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<16x32x!tt.ptr<f32>, #blocked>
    %p = tt.addptr %x, %o : tensor<16x32x!tt.ptr<f32>, #blocked>, tensor<16x32xi32, #blocked>
    %v = tt.load %p : tensor<16x32x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
