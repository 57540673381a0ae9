// Tensor descriptors without TME: global loads/stores of the block at the
// given indices, bounds-checked against the descriptor's shape (reads out
// of bounds give the padding value, writes are dropped). A kernel-argument
// descriptor is the tensor's base address followed by its i32 shape and i64
// strides; a tt.make_tensor_descriptor takes them from its operands.
// RUN: musa-opt %s -convert-tritongpu-to-musa=arch=mp_31 -o %t.mp_31.mlir
// RUN: FileCheck %s --check-prefixes=CHECK,MP31 --input-file=%t.mp_31.mlir
// RUN: musa-translate --musa-to-llvmir --musa-arch=mp_31 %t.mp_31.mlir -o %t.mp_31.ll
// RUN: %check-llvm14 %t.mp_31.ll
// RUN: musa-opt %S/Inputs/descriptor.mp_22.mlir -convert-tritongpu-to-musa=arch=mp_22 -o %t.mp_22.mlir
// RUN: FileCheck %s --check-prefixes=CHECK,MP22 --input-file=%t.mp_22.mlir

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @load_arg(
  // CHECK-SAME: %[[D:[^:]*]]: !llvm.ptr<1>, %[[M:[^:]*]]: i32, %[[N:[^:]*]]: i32, %[[SM:[^:]*]]: i64, %[[SN:[^:]*]]: i64, %[[I:[^:]*]]: i32, %[[J:[^:]*]]: i32
  // CHECK: %[[ROW:.*]] = llvm.add %[[I]], %{{.*}} : i32
  // CHECK: %[[COL:.*]] = llvm.add %[[J]], %{{.*}} : i32
  // CHECK: %[[PAD:.*]] = llvm.mlir.zero : f16
  // CHECK: llvm.icmp "sge" %[[ROW]], %{{.*}} : i32
  // CHECK: llvm.icmp "slt" %[[ROW]], %[[M]] : i32
  // CHECK: %[[R64:.*]] = llvm.sext %[[ROW]] : i32 to i64
  // CHECK: %[[OFF0:.*]] = llvm.mul %[[R64]], %[[SM]] : i64
  // CHECK: llvm.icmp "slt" %[[COL]], %[[N]] : i32
  // CHECK: %[[C64:.*]] = llvm.sext %[[COL]] : i32 to i64
  // CHECK: %[[OFF1:.*]] = llvm.mul %[[C64]], %[[SN]] : i64
  // CHECK: %[[OFF:.*]] = llvm.add %[[OFF0]], %[[OFF1]] : i64
  // CHECK: %[[PTR:.*]] = llvm.getelementptr %[[D]][%[[OFF]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f16
  // CHECK: llvm.cond_br %{{.*}}, ^[[LOAD:.*]], ^[[JOIN:.*]](%[[PAD]] : f16)
  // CHECK: ^[[LOAD]]:
  // CHECK: %[[V:.*]] = llvm.load %[[PTR]] {alignment = 2 : i64} : !llvm.ptr<1> -> f16
  // CHECK: llvm.br ^[[JOIN]](%[[V]] : f16)
  tt.func public @load_arg(%d: !tt.tensordesc<tensor<16x8xf16>>, %m: i32, %n: i32, %sm: i64, %sn: i64, %i: i32, %j: i32) -> tensor<16x8xf16, #blocked> {
    %t = tt.descriptor_load %d[%i, %j] : !tt.tensordesc<tensor<16x8xf16>> -> tensor<16x8xf16, #blocked>
    tt.return %t : tensor<16x8xf16, #blocked>
  }

  // The base address of a kernel-argument descriptor is the argument.
  // MP31-LABEL: llvm.func @base_of_arg(
  // MP31-SAME: %[[D:[^:]*]]: !llvm.ptr<1>,
  // MP31-NEXT: llvm.return %[[D]] : !llvm.ptr<1>
  tt.func public @base_of_arg(%d: !tt.tensordesc<tensor<16x8xf16>>, %m: i32, %n: i32, %sm: i64, %sn: i64) -> !tt.ptr<f16> {
    %b = musagpu.descriptor_base %d : !tt.tensordesc<tensor<16x8xf16>> -> !tt.ptr<f16>
    tt.return %b : !tt.ptr<f16>
  }

  // A made descriptor: shape and strides from its operands; stores are
  // dropped out of bounds.
  // CHECK-LABEL: llvm.func @store_made(
  // CHECK-SAME: %[[P:[^:]*]]: !llvm.ptr<1>, %[[M:[^:]*]]: i32, %[[N:[^:]*]]: i32, %[[SM:[^:]*]]: i64
  // CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
  // CHECK: llvm.icmp "slt" %{{.*}}, %[[M]] : i32
  // CHECK: llvm.mul %{{.*}}, %[[SM]] : i64
  // CHECK: llvm.icmp "slt" %{{.*}}, %[[N]] : i32
  // CHECK: llvm.mul %{{.*}}, %[[ONE]] : i64
  // CHECK: %[[PTR:.*]] = llvm.getelementptr %[[P]][%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  // CHECK: llvm.cond_br %{{.*}}, ^[[STORE:[^,]*]], ^
  // CHECK: ^[[STORE]]:
  // CHECK: llvm.store %{{.*}}, %[[PTR]] {alignment = 4 : i64} : f32, !llvm.ptr<1>
  tt.func public @store_made(%p: !tt.ptr<f32>, %m: i32, %n: i32, %sm: i64, %v: tensor<16x8xf32, #blocked>, %i: i32) {
    %c1 = arith.constant 1 : i64
    %d = tt.make_tensor_descriptor %p, [%m, %n], [%sm, %c1] : <f32>, <tensor<16x8xf32>>
    tt.descriptor_store %d[%i, %i], %v : !tt.tensordesc<tensor<16x8xf32>>, tensor<16x8xf32, #blocked>
    tt.return
  }

  // A 1x16x8 block loaded as 16x8: the dropped leading dimension is at the
  // index itself. padding = nan reads NaN out of bounds.
  // CHECK-LABEL: llvm.func @load_3d_nan(
  // CHECK-SAME: %[[P:[^:]*]]: !llvm.ptr<1>, %[[B:[^:]*]]: i32, %[[M:[^:]*]]: i32, %[[N:[^:]*]]: i32, %[[SB:[^:]*]]: i64, %[[SM:[^:]*]]: i64, %[[T:[^:]*]]: i32
  // CHECK: %[[NAN:.*]] = llvm.mlir.constant(0x7FC00000 : f32) : f32
  // CHECK: llvm.icmp "sge" %[[T]], %{{.*}} : i32
  // CHECK: llvm.icmp "slt" %[[T]], %[[B]] : i32
  // CHECK: %[[T64:.*]] = llvm.sext %[[T]] : i32 to i64
  // CHECK: llvm.mul %[[T64]], %[[SB]] : i64
  // CHECK: llvm.icmp "slt" %{{.*}}, %[[M]] : i32
  // CHECK: llvm.icmp "slt" %{{.*}}, %[[N]] : i32
  // CHECK: llvm.cond_br %{{.*}}, ^{{.*}}, ^{{.*}}(%[[NAN]] : f32)
  tt.func public @load_3d_nan(%p: !tt.ptr<f32>, %b: i32, %m: i32, %n: i32, %sb: i64, %sm: i64, %t: i32) -> tensor<16x8xf32, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %d = tt.make_tensor_descriptor %p, [%b, %m, %n], [%sb, %sm, %c1] {padding = 2 : i32} : <f32>, <tensor<1x16x8xf32>>
    %r = tt.descriptor_load %d[%t, %c0, %c0] : !tt.tensordesc<tensor<1x16x8xf32>> -> tensor<16x8xf32, #blocked>
    tt.return %r : tensor<16x8xf32, #blocked>
  }

  // Gather: row = x_offsets[row of the register], column = y + column.
  // CHECK-LABEL: llvm.func @gather(
  // CHECK-SAME: %[[D:[^:]*]]: !llvm.ptr<1>, %[[R:[^:]*]]: i32, %[[C:[^:]*]]: i32, %[[SR:[^:]*]]: i64, %[[SC:[^:]*]]: i64, %[[X:[^:]*]]: !llvm.struct<(i32)>, %[[Y:[^:]*]]: i32
  // CHECK: %[[ROW:.*]] = llvm.extractvalue %[[X]][0] : !llvm.struct<(i32)>
  // CHECK: %[[COL:.*]] = llvm.add %[[Y]], %{{.*}} : i32
  // CHECK: llvm.icmp "slt" %[[ROW]], %[[R]] : i32
  // CHECK: llvm.sext %[[ROW]] : i32 to i64
  // CHECK: llvm.icmp "slt" %[[COL]], %[[C]] : i32
  // CHECK: llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr<1> -> bf16
  tt.func public @gather(%d: !tt.tensordesc<tensor<1x8xbf16>>, %r: i32, %c: i32, %sr: i64, %sc: i64, %x: tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>>, %y: i32) -> tensor<16x8xbf16, #blocked> {
    %g = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x8xbf16>>, tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>>, i32) -> tensor<16x8xbf16, #blocked>
    tt.return %g : tensor<16x8xbf16, #blocked>
  }

  // Scatter: one store per register, in bounds only.
  // The store sits on the in-bounds branch only, with the register's value at
  // row x_offsets[r], column y + c. On mp_22 one 128-lane warp holds the whole
  // 16x8 block, so warps 1..3 hold copies and only warp 0 stores.
  // CHECK-LABEL: llvm.func @scatter(
  // CHECK-SAME: %[[D:[^:]*]]: !llvm.ptr<1>, %[[R:[^:]*]]: i32, %[[C:[^:]*]]: i32, %[[SR:[^:]*]]: i64, %[[SC:[^:]*]]: i64, %[[X:[^:]*]]: !llvm.struct<(i32)>, %[[Y:[^:]*]]: i32, %[[V:[^:]*]]: !llvm.struct<(bf16)>
  // CHECK: %[[ROW:.*]] = llvm.extractvalue %[[X]][0] : !llvm.struct<(i32)>
  // CHECK: %[[COL:.*]] = llvm.add %[[Y]], %{{[^ ]+}} : i32
  // MP22: %[[W7:.*]] = llvm.mlir.constant(7 : i32) : i32
  // MP22: %[[WARP:.*]] = llvm.lshr %{{[^ ,]+}}, %[[W7]] : i32
  // MP22: %[[W3:.*]] = llvm.mlir.constant(3 : i32) : i32
  // MP22: %[[WSLOT:.*]] = llvm.and %[[WARP]], %[[W3]] : i32
  // MP22: %[[OWNER:.*]] = llvm.icmp "eq" %[[WSLOT]], %{{[^ ]+}} : i32
  // CHECK: %[[VAL:.*]] = llvm.extractvalue %[[V]][0] : !llvm.struct<(bf16)>
  // CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK: %[[RGE:.*]] = llvm.icmp "sge" %[[ROW]], %[[ZERO]] : i32
  // CHECK: %[[RLT:.*]] = llvm.icmp "slt" %[[ROW]], %[[R]] : i32
  // CHECK: %[[RIN:.*]] = llvm.and %[[RGE]], %[[RLT]] : i1
  // CHECK: %[[R64:.*]] = llvm.sext %[[ROW]] : i32 to i64
  // CHECK: %[[ROFF:.*]] = llvm.mul %[[R64]], %[[SR]] : i64
  // CHECK: %[[CGE:.*]] = llvm.icmp "sge" %[[COL]], %[[ZERO]] : i32
  // CHECK: %[[CLT:.*]] = llvm.icmp "slt" %[[COL]], %[[C]] : i32
  // CHECK: %[[CIN:.*]] = llvm.and %[[CGE]], %[[CLT]] : i1
  // CHECK: %[[IN:.*]] = llvm.and %[[RIN]], %[[CIN]] : i1
  // CHECK: %[[C64:.*]] = llvm.sext %[[COL]] : i32 to i64
  // CHECK: %[[COFF:.*]] = llvm.mul %[[C64]], %[[SC]] : i64
  // CHECK: %[[OFF:.*]] = llvm.add %[[ROFF]], %[[COFF]] : i64
  // CHECK: %[[PTR:.*]] = llvm.getelementptr %[[D]][%[[OFF]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
  // MP31-NEXT: llvm.cond_br %[[IN]], ^[[STORE:[^,]*]], ^[[SKIP:[^ ]*]]{{$}}
  // MP22-NEXT: %[[GO:.*]] = llvm.and %[[OWNER]], %[[IN]] : i1
  // MP22-NEXT: llvm.cond_br %[[GO]], ^[[STORE:[^,]*]], ^[[SKIP:[^ ]*]]{{$}}
  // CHECK-NEXT: ^[[STORE]]:
  // CHECK-NEXT: llvm.store %[[VAL]], %[[PTR]] {alignment = 2 : i64} : bf16, !llvm.ptr<1>
  // CHECK-NEXT: llvm.br ^[[SKIP]]
  // CHECK-NEXT: ^[[SKIP]]:
  // CHECK-NOT: llvm.store
  // CHECK: llvm.return
  tt.func public @scatter(%d: !tt.tensordesc<tensor<1x8xbf16>>, %r: i32, %c: i32, %sr: i64, %sc: i64, %x: tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>>, %y: i32, %v: tensor<16x8xbf16, #blocked>) {
    tt.descriptor_scatter %d[%x, %y], %v : !tt.tensordesc<tensor<1x8xbf16>>, tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>>, i32, tensor<16x8xbf16, #blocked>
    tt.return
  }
  // reduce: each in-bounds element is one device-scope atomicrmw (no plain
  // store), on the branch the bounds check guards.
  // MP31-LABEL: llvm.func @reduce_made(
  // MP31-SAME: %[[P:[^:]*]]: !llvm.ptr<1>
  // MP31: %[[PTR:.*]] = llvm.getelementptr %[[P]][%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
  // MP31: llvm.cond_br %{{.*}}, ^[[RED:[^,]*]], ^
  // MP31: ^[[RED]]:
  // MP31: llvm.atomicrmw max %[[PTR]], %{{.*}} syncscope("agent") monotonic {alignment = 4 : i64} : !llvm.ptr<1>, i32
  // MP31-NOT: llvm.store
  // MP31: llvm.return
  tt.func public @reduce_made(%p: !tt.ptr<i32>, %m: i32, %n: i32, %sm: i64, %v: tensor<16x8xi32, #blocked>, %i: i32) {
    %c1 = arith.constant 1 : i64
    %d = tt.make_tensor_descriptor %p, [%m, %n], [%sm, %c1] : <i32>, <tensor<16x8xi32>>
    tt.descriptor_reduce max, %d[%i, %i], %v : !tt.tensordesc<tensor<16x8xi32>>, tensor<16x8xi32, #blocked>
    tt.return
  }
}
