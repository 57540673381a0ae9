// --musa-lower-descriptors-to-pointers: descriptor loads and stores become
// masked pointer accesses where TME does not take them:
// on the GPU (DEVICE, and the proxy, whose TME answers are the GPU's) every
// in-kernel descriptor, and kernel arguments one of whose uses TME cannot
// take; on the emulator (EMU, mp_31) only boxes TME has no form for; on
// mp_22 (no TME) all.
// RUN: musa-opt %s -split-input-file -musa-lower-descriptors-to-pointers | FileCheck %s --check-prefix=DEVICE
// RUN: musa-opt %s -split-input-file -musa-lower-descriptors-to-pointers=target=proxy | FileCheck %s --check-prefix=DEVICE
// RUN: musa-opt %s -split-input-file -musa-lower-descriptors-to-pointers=target=emulator | FileCheck %s --check-prefix=EMU
// RUN: musa-opt %s -split-input-file -musa-lower-descriptors-to-pointers="arch=mp_22 target=emulator" | FileCheck %s --check-prefix=MP22

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // The tile's start is a scalar (the row index times its stride, the
  // column index alone: stride 1); the tile's offsets are the rows' times
  // the row stride plus the columns' (no multiply); each dimension in
  // bounds where index + i <u size.
  // DEVICE-LABEL: tt.func public @load_made(
  // DEVICE-SAME: %[[P:[^:]*]]: !tt.ptr<f16>, %[[M:[^:]*]]: i32, %[[K:[^:]*]]: i32, %[[SM:[^:]*]]: i64, %[[I:[^:]*]]: i32, %[[J:[^:]*]]: i32
  // DEVICE: %[[IW:.*]] = arith.extsi %[[I]] : i32 to i64
  // DEVICE-NEXT: %[[ROW0:.*]] = arith.muli %[[IW]], %[[SM]] : i64
  // DEVICE-NEXT: %[[JW:.*]] = arith.extsi %[[J]] : i32 to i64
  // DEVICE-NEXT: %[[START:.*]] = arith.addi %[[ROW0]], %[[JW]] : i64
  // DEVICE-NEXT: %[[BASE:.*]] = tt.addptr %[[P]], %[[START]] : !tt.ptr<f16>, i64
  // DEVICE-NEXT: %[[ROWS:.*]] = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
  // DEVICE-NEXT: %[[ROWSW:.*]] = arith.extsi %[[ROWS]] : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> to tensor<64xi64, #ttg.slice<{dim = 1, parent = #blocked}>>
  // DEVICE-NEXT: %[[SMV:.*]] = tt.splat %[[SM]] : i64 -> tensor<64xi64, #ttg.slice<{dim = 1, parent = #blocked}>>
  // DEVICE-NEXT: %[[ROWOFF:.*]] = arith.muli %[[ROWSW]], %[[SMV]]
  // DEVICE-NEXT: %[[ROWOFF2:.*]] = tt.expand_dims %[[ROWOFF]] {axis = 1 : i32} : tensor<64xi64, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi64, #blocked>
  // DEVICE-NEXT: %[[ROWOFF3:.*]] = tt.broadcast %[[ROWOFF2]] : tensor<64x1xi64, #blocked> -> tensor<64x32xi64, #blocked>
  // DEVICE-NEXT: %[[IV:.*]] = tt.splat %[[I]] : i32 -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
  // DEVICE-NEXT: %[[ROWC:.*]] = arith.addi %[[IV]], %[[ROWS]]
  // DEVICE-NEXT: %[[MV:.*]] = tt.splat %[[M]] : i32 -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
  // DEVICE-NEXT: %[[ROWIN:.*]] = arith.cmpi ult, %[[ROWC]], %[[MV]]
  // DEVICE-NEXT: tt.expand_dims %[[ROWIN]] {axis = 1 : i32}
  // DEVICE-NEXT: %[[ROWMASK:.*]] = tt.broadcast
  // DEVICE-NEXT: %[[COLS:.*]] = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
  // DEVICE-NEXT: %[[COLSW:.*]] = arith.extsi %[[COLS]]
  // A multiply here would cost every element: the stride is 1.
  // DEVICE-NOT: arith.muli
  // DEVICE-NEXT: tt.expand_dims %[[COLSW]] {axis = 0 : i32} : tensor<32xi64, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi64, #blocked>
  // DEVICE-NEXT: %[[COLOFF:.*]] = tt.broadcast
  // DEVICE-NEXT: %[[OFF:.*]] = arith.addi %[[ROWOFF3]], %[[COLOFF]] : tensor<64x32xi64, #blocked>
  // DEVICE-NEXT: %[[JV:.*]] = tt.splat %[[J]]
  // DEVICE-NEXT: %[[COLC:.*]] = arith.addi %[[JV]], %[[COLS]]
  // DEVICE-NEXT: %[[KV:.*]] = tt.splat %[[K]]
  // DEVICE-NEXT: %[[COLIN:.*]] = arith.cmpi ult, %[[COLC]], %[[KV]]
  // DEVICE-NEXT: tt.expand_dims %[[COLIN]] {axis = 0 : i32}
  // DEVICE-NEXT: %[[COLMASK:.*]] = tt.broadcast
  // DEVICE-NEXT: %[[MASK:.*]] = arith.andi %[[ROWMASK]], %[[COLMASK]] : tensor<64x32xi1, #blocked>
  // DEVICE-NEXT: %[[BASES:.*]] = tt.splat %[[BASE]] : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>, #blocked>
  // DEVICE-NEXT: %[[PTRS:.*]] = tt.addptr %[[BASES]], %[[OFF]] : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi64, #blocked>
  // DEVICE-NEXT: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<64x32xf16, #blocked>
  // DEVICE-NEXT: %[[T:.*]] = tt.load %[[PTRS]], %[[MASK]], %[[ZERO]] : tensor<64x32x!tt.ptr<f16>, #blocked>
  // DEVICE-NOT: tt.descriptor_load
  // DEVICE: tt.return %[[T]]
  // The emulator's TME builds descriptors made in the kernel: the load stays.
  // EMU-LABEL: tt.func public @load_made(
  // EMU: tt.make_tensor_descriptor
  // EMU-NEXT: tt.descriptor_load
  // MP22-LABEL: tt.func public @load_made(
  // MP22: tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32x!tt.ptr<f16>, #blocked>
  // MP22-NOT: tt.descriptor_load
  tt.func public @load_made(%p: !tt.ptr<f16>, %M: i32, %K: i32, %sm: i64, %i: i32, %j: i32) -> tensor<64x32xf16, #blocked> {
    %c1 = arith.constant 1 : i64
    %d = tt.make_tensor_descriptor %p, [%M, %K], [%sm, %c1] : <f16>, <tensor<64x32xf16>>
    %t = tt.descriptor_load %d[%i, %j] : !tt.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16, #blocked>
    tt.return %t : tensor<64x32xf16, #blocked>
  }

  // A store writes the in-bounds elements only.
  // DEVICE-LABEL: tt.func public @store_made(
  // DEVICE-SAME: %[[V:[^:]*]]: tensor<64x32xf16, #blocked>
  // DEVICE: %[[MASK:.*]] = arith.andi %{{.*}}, %{{.*}} : tensor<64x32xi1, #blocked>
  // DEVICE: %[[PTRS:.*]] = tt.addptr
  // DEVICE-NEXT: tt.store %[[PTRS]], %[[V]], %[[MASK]] : tensor<64x32x!tt.ptr<f16>, #blocked>
  // DEVICE-NOT: tt.descriptor_store
  // EMU-LABEL: tt.func public @store_made(
  // EMU: tt.descriptor_store
  // MP22-LABEL: tt.func public @store_made(
  // MP22: tt.store
  // MP22-NOT: tt.descriptor_store
  tt.func public @store_made(%p: !tt.ptr<f16>, %M: i32, %K: i32, %sm: i64, %i: i32, %j: i32, %v: tensor<64x32xf16, #blocked>) {
    %c1 = arith.constant 1 : i64
    %d = tt.make_tensor_descriptor %p, [%M, %K], [%sm, %c1] : <f16>, <tensor<64x32xf16>>
    tt.descriptor_store %d[%i, %j], %v : !tt.tensordesc<tensor<64x32xf16>>, tensor<64x32xf16, #blocked>
    tt.return
  }

  // A kernel argument's descriptor: TME takes it on mp_31; on mp_22 its
  // base is the address the host passes (made once at the entry), its shape
  // and strides the arguments after it.
  // DEVICE-LABEL: tt.func public @load_arg(
  // DEVICE-NEXT: tt.descriptor_load
  // DEVICE-NEXT: tt.return
  // EMU-LABEL: tt.func public @load_arg(
  // EMU-NEXT: tt.descriptor_load
  // MP22-LABEL: tt.func public @load_arg(
  // MP22-SAME: %[[D:[^:]*]]: !tt.tensordesc<tensor<64x32xf16>>, %[[M:[^:]*]]: i32, %[[N:[^:]*]]: i32, %[[SM:[^:]*]]: i64, %[[SN:[^:]*]]: i64, %[[I:[^:]*]]: i32
  // MP22-NEXT: %[[BASE:.*]] = musagpu.descriptor_base %[[D]] : !tt.tensordesc<tensor<64x32xf16>> -> !tt.ptr<f16>
  // MP22-NEXT: %[[IW:.*]] = arith.extsi %[[I]] : i32 to i64
  // MP22-NEXT: arith.muli %[[IW]], %[[SM]] : i64
  // MP22: tt.addptr %[[BASE]], %{{.*}} : !tt.ptr<f16>, i64
  // MP22: tt.splat %[[SN]] : i64 -> tensor<32xi64, #ttg.slice<{dim = 0, parent = #blocked}>>
  // MP22: arith.cmpi ult, %{{.*}}, %{{.*}} : tensor<32xi32
  // MP22: tt.load
  // MP22-NOT: tt.descriptor_load
  // MP22: tt.return
  tt.func public @load_arg(%d: !tt.tensordesc<tensor<64x32xf16>>, %m: i32, %n: i32, %sm: i64, %sn: i64, %i: i32, %j: i32) -> tensor<64x32xf16, #blocked> {
    %t = tt.descriptor_load %d[%i, %j] : !tt.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16, #blocked>
    tt.return %t : tensor<64x32xf16, #blocked>
  }

  // An argument not followed by i32 sizes and i64 strides has no fields to
  // read: it stays, for the conversion to name.
  // MP22-LABEL: tt.func public @arg_without_fields(
  // MP22-NEXT: tt.descriptor_load
  // MP22-NEXT: tt.return
  tt.func public @arg_without_fields(%d: !tt.tensordesc<tensor<64x32xf16>>, %m: i64, %n: i64, %sm: i32, %sn: i32, %i: i32) -> tensor<64x32xf16, #blocked> {
    %t = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16, #blocked>
    tt.return %t : tensor<64x32xf16, #blocked>
  }

  // On the GPU an argument goes through TME with all of its uses or none:
  // its gather (which TME has no form for) keeps the load off TME too, so
  // the load reads through the argument's address.
  // DEVICE-LABEL: tt.func public @arg_one_form(
  // DEVICE-NEXT: musagpu.descriptor_base
  // DEVICE: tt.load
  // DEVICE: tt.descriptor_gather
  // EMU-LABEL: tt.func public @arg_one_form(
  // EMU-NEXT: tt.descriptor_load
  tt.func public @arg_one_form(%d: !tt.tensordesc<tensor<1x128xbf16>>, %m: i32, %n: i32, %sm: i64, %sn: i64, %i: i32, %x: tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>>) -> (tensor<1x128xbf16, #blocked>, tensor<32x128xbf16, #blocked>) {
    %t = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<1x128xbf16>> -> tensor<1x128xbf16, #blocked>
    %g = tt.descriptor_gather %d[%x, %i] : (!tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>>, i32) -> tensor<32x128xbf16, #blocked>
    tt.return %t, %g : tensor<1x128xbf16, #blocked>, tensor<32x128xbf16, #blocked>
  }

  // A box whose rows are 16 bytes, fewer than TME's 32: pointers on the
  // emulator too. Padded with NaN, it reads NaN out of bounds.
  // EMU-LABEL: tt.func public @narrow_box_nan(
  // EMU: %[[NAN:.*]] = arith.constant dense<0x7E00> : tensor<64x8xf16, #blocked>
  // EMU-NEXT: tt.load %{{.*}}, %{{.*}}, %[[NAN]]
  // EMU-NOT: tt.descriptor_load
  tt.func public @narrow_box_nan(%p: !tt.ptr<f16>, %M: i32, %K: i32, %sm: i64, %i: i32, %j: i32) -> tensor<64x8xf16, #blocked> {
    %c1 = arith.constant 1 : i64
    %d = tt.make_tensor_descriptor %p, [%M, %K], [%sm, %c1] {padding = 2 : i32} : <f16>, <tensor<64x8xf16>>
    %t = tt.descriptor_load %d[%i, %j] : !tt.tensordesc<tensor<64x8xf16>> -> tensor<64x8xf16, #blocked>
    tt.return %t : tensor<64x8xf16, #blocked>
  }

  // A leading block dimension of 1 dropped from the tile: its index adds
  // to the start and its bound to every element's mask.
  // MP22-LABEL: tt.func public @dropped_dimension(
  // MP22-SAME: %[[P:[^:]*]]: !tt.ptr<f16>, %[[B:[^:]*]]: i32, %[[M:[^:]*]]: i32, %[[K:[^:]*]]: i32, %[[SB:[^:]*]]: i64, %[[SM:[^:]*]]: i64, %[[H:[^:]*]]: i32
  // MP22: %[[HW:.*]] = arith.extsi %[[H]] : i32 to i64
  // MP22-NEXT: %[[HOFF:.*]] = arith.muli %[[HW]], %[[SB]] : i64
  // MP22-NEXT: %[[HIN:.*]] = arith.cmpi ult, %[[H]], %[[B]] : i32
  // MP22: %[[TILEMASK:.*]] = arith.andi %{{.*}}, %{{.*}} : tensor<64x32xi1, #blocked>
  // MP22-NEXT: %[[HMASK:.*]] = tt.splat %[[HIN]] : i1 -> tensor<64x32xi1, #blocked>
  // MP22-NEXT: %[[MASK:.*]] = arith.andi %[[TILEMASK]], %[[HMASK]]
  // MP22: tt.load %{{.*}}, %[[MASK]], %{{.*}} : tensor<64x32x!tt.ptr<f16>, #blocked>
  tt.func public @dropped_dimension(%p: !tt.ptr<f16>, %B: i32, %M: i32, %K: i32, %sb: i64, %sm: i64, %h: i32, %i: i32, %j: i32) -> tensor<64x32xf16, #blocked> {
    %c1 = arith.constant 1 : i64
    %d = tt.make_tensor_descriptor %p, [%B, %M, %K], [%sb, %sm, %c1] : <f16>, <tensor<1x64x32xf16>>
    %t = tt.descriptor_load %d[%h, %i, %j] : !tt.tensordesc<tensor<1x64x32xf16>> -> tensor<64x32xf16, #blocked>
    tt.return %t : tensor<64x32xf16, #blocked>
  }
}
