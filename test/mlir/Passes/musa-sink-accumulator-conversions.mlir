// RUN: musa-opt %s --musa-sink-accumulator-conversions --split-input-file | FileCheck %s

// The TME epilogue of a matmul on mp_31: the cast to f16 runs in the SQMMA
// layout and the descriptor store takes that layout: no conversion is left.
// CHECK-LABEL: @descriptor_store_epilogue
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[H:.*]] = arith.truncf %arg1 : tensor<128x128xf32, #sqmma> to tensor<128x128xf16, #sqmma>
// CHECK-NEXT: tt.descriptor_store %arg0[%arg2, %arg2], %[[H]] : !tt.tensordesc<tensor<128x128xf16>>, tensor<128x128xf16, #sqmma>

#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
#sqmma = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [8, 1], instrShape = [64, 128, 64]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @descriptor_store_epilogue(%desc: !tt.tensordesc<tensor<128x128xf16>>, %acc: tensor<128x128xf32, #sqmma>, %i: i32) {
    %d = ttg.convert_layout %acc : tensor<128x128xf32, #sqmma> -> tensor<128x128xf32, #blocked>
    %h = arith.truncf %d : tensor<128x128xf32, #blocked> to tensor<128x128xf16, #blocked>
    %s = ttg.convert_layout %h : tensor<128x128xf16, #blocked> -> tensor<128x128xf16, #blocked1>
    tt.descriptor_store %desc[%i, %i], %s : !tt.tensordesc<tensor<128x128xf16>>, tensor<128x128xf16, #blocked1>
    tt.return
  }
}

// -----

// On mp_22: a scale by a splat constant and the cast run in the WMMA layout
// (the constant rebuilt there); one conversion, of the f16 result, is left
// for the global store, whose pointers are in #blocked. A local_alloc takes
// the WMMA layout.
// CHECK-LABEL: @scale_then_global_store
// CHECK: %[[S:.*]] = arith.constant dense<5.000000e-01> : tensor<64x64xf32, #wmma>
// CHECK-NEXT: %[[M:.*]] = arith.mulf %arg0, %[[S]] : tensor<64x64xf32, #wmma>
// CHECK-NEXT: %[[H:.*]] = arith.truncf %[[M]] : tensor<64x64xf32, #wmma> to tensor<64x64xf16, #wmma>
// CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %[[H]] : tensor<64x64xf16, #wmma> -> tensor<64x64xf16, #blocked>
// CHECK-NEXT: tt.store %arg1, %[[C]] : tensor<64x64x!tt.ptr<f16>, #blocked>
// CHECK-LABEL: @local_alloc
// CHECK-NEXT: ttg.local_alloc %arg0 : (tensor<64x64xf32, #wmma>) -> !ttg.memdesc<64x64xf32, #shared, #smem>

#blocked = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
#wmma = #musagpu.wmma<{versionMajor = 2, versionMinor = 2, warpsPerCTA = [2, 2], instrShape = [32, 32, 16]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @scale_then_global_store(%acc: tensor<64x64xf32, #wmma>, %ptrs: tensor<64x64x!tt.ptr<f16>, #blocked>) {
    %half = arith.constant dense<5.000000e-01> : tensor<64x64xf32, #blocked>
    %d = ttg.convert_layout %acc : tensor<64x64xf32, #wmma> -> tensor<64x64xf32, #blocked>
    %m = arith.mulf %d, %half : tensor<64x64xf32, #blocked>
    %h = arith.truncf %m : tensor<64x64xf32, #blocked> to tensor<64x64xf16, #blocked>
    tt.store %ptrs, %h : tensor<64x64x!tt.ptr<f16>, #blocked>
    tt.return
  }
  tt.func public @local_alloc(%acc: tensor<64x64xf32, #wmma>) -> !ttg.memdesc<64x64xf32, #shared, #smem> {
    %d = ttg.convert_layout %acc : tensor<64x64xf32, #wmma> -> tensor<64x64xf32, #blocked>
    %m = ttg.local_alloc %d : (tensor<64x64xf32, #blocked>) -> !ttg.memdesc<64x64xf32, #shared, #smem>
    tt.return %m : !ttg.memdesc<64x64xf32, #shared, #smem>
  }
}

// -----

// What stays: an accumulator also used in #blocked (sinking would convert
// it twice); an operand in #blocked that is not a conversion (a bias); a
// conversion out of #blocked before a local_store (Triton chose that layout).
// CHECK-LABEL: @two_uses
// CHECK: %[[D:.*]] = ttg.convert_layout %arg0 : tensor<64x64xf32, #wmma> -> tensor<64x64xf32, #blocked>
// CHECK-NEXT: arith.negf %[[D]] : tensor<64x64xf32, #blocked>
// CHECK-NOT: arith.negf %arg0
// CHECK-LABEL: @bias
// CHECK: %[[D:.*]] = ttg.convert_layout %arg0 : tensor<64x64xf32, #wmma> -> tensor<64x64xf32, #blocked>
// CHECK-NEXT: arith.addf %[[D]], %arg1 : tensor<64x64xf32, #blocked>
// CHECK-LABEL: @blocked_source
// CHECK: %[[C:.*]] = ttg.convert_layout %arg0 : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked1>
// CHECK-NEXT: ttg.local_store %[[C]], %arg1 : tensor<64x64xf32, #blocked1>

#blocked = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
#wmma = #musagpu.wmma<{versionMajor = 2, versionMinor = 2, warpsPerCTA = [2, 2], instrShape = [32, 32, 16]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_22", "ttg.threads-per-warp" = 128 : i32} {
  tt.func public @two_uses(%acc: tensor<64x64xf32, #wmma>) -> (tensor<64x64xf32, #blocked>, tensor<64x64xf32, #blocked>) {
    %d = ttg.convert_layout %acc : tensor<64x64xf32, #wmma> -> tensor<64x64xf32, #blocked>
    %n = arith.negf %d : tensor<64x64xf32, #blocked>
    tt.return %d, %n : tensor<64x64xf32, #blocked>, tensor<64x64xf32, #blocked>
  }
  tt.func public @bias(%acc: tensor<64x64xf32, #wmma>, %bias: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %d = ttg.convert_layout %acc : tensor<64x64xf32, #wmma> -> tensor<64x64xf32, #blocked>
    %s = arith.addf %d, %bias : tensor<64x64xf32, #blocked>
    tt.return %s : tensor<64x64xf32, #blocked>
  }
  tt.func public @blocked_source(%x: tensor<64x64xf32, #blocked>, %buf: !ttg.memdesc<64x64xf32, #shared, #smem, mutable>) {
    %c = ttg.convert_layout %x : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked1>
    ttg.local_store %c, %buf : tensor<64x64xf32, #blocked1> -> !ttg.memdesc<64x64xf32, #shared, #smem, mutable>
    tt.return
  }
}

// -----

// Flash attention's loop on mp_31: the scores leave the first sqmma, are
// scaled by a runtime scalar, reduced per row and shifted by the row max; the
// accumulator is carried across iterations, rescaled by a row vector and fed
// to the second sqmma. Everything stays in the SQMMA layout: the row max is
// reduced there and carried in its slice (its update too), the row vectors
// are broadcast there, and the loop carries the accumulator as #sqmma, so
// the only conversion left is the one of the result after the loop (the
// replaced ops' dead conversions are gone too).
// CHECK-LABEL: @attention_loop
// CHECK-NOT: ttg.convert_layout
// CHECK: scf.for {{.*}} iter_args(%[[ACC:[^ ]*]] = %cst{{[_0-9]*}}, %[[M:[^ ]*]] = %cst{{[_0-9]*}}) -> (tensor<64x64xf32, #sqmma>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #sqmma}>>)
// CHECK-NOT: ttg.convert_layout
// CHECK: musagpu.sqmma_wait
// CHECK: tt.splat %{{.*}} : f32 -> tensor<64x64xf32, #sqmma>
// CHECK: %[[MAX:.*]] = "tt.reduce"(%{{.*}}) <{axis = 1 : i32}>
// CHECK: }) : (tensor<64x64xf32, #sqmma>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #sqmma}>>
// CHECK: %[[MNEW:.*]] = arith.maxnumf %[[M]], %[[MAX]] : tensor<64xf32, #ttg.slice<{dim = 1, parent = #sqmma}>>
// CHECK: tt.broadcast %{{.*}} : tensor<64x1xf32, #sqmma> -> tensor<64x64xf32, #sqmma>
// CHECK: arith.subf %{{.*}}, %{{.*}} : tensor<64x64xf32, #sqmma>
// CHECK: arith.mulf %[[ACC]], %{{.*}} : tensor<64x64xf32, #sqmma>
// CHECK: %[[D:.*]] = musagpu.sqmma
// CHECK: %[[DW:.*]] = musagpu.sqmma_wait %[[D]]
// CHECK-NEXT: scf.yield %[[DW]], %[[MNEW]]
// CHECK: ttg.convert_layout %{{.*}} : tensor<64x64xf32, #sqmma> -> tensor<64x64xf32, #blocked>
// CHECK-NOT: ttg.convert_layout

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#sqmma = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 64]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @attention_loop(%q: !ttg.memdesc<64x64xf16, #sh, #smem>, %k: !ttg.memdesc<64x64xf16, #sh, #smem>, %v: !ttg.memdesc<64x64xf16, #sh, #smem>, %scale: f32, %n: i32, %out: tensor<64x64x!tt.ptr<f32>, #blocked>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
    %szero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #sqmma>
    %minf = arith.constant dense<0xFF800000> : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %m = %minf) -> (tensor<64x64xf32, #blocked>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>) : i32 {
      %qk = musagpu.sqmma %q, %k, %szero : !ttg.memdesc<64x64xf16, #sh, #smem>, !ttg.memdesc<64x64xf16, #sh, #smem> -> tensor<64x64xf32, #sqmma>
      %qkw = musagpu.sqmma_wait %qk : tensor<64x64xf32, #sqmma>
      %s0 = ttg.convert_layout %qkw : tensor<64x64xf32, #sqmma> -> tensor<64x64xf32, #blocked>
      %sc = tt.splat %scale : f32 -> tensor<64x64xf32, #blocked>
      %s = arith.mulf %s0, %sc : tensor<64x64xf32, #blocked>
      %rowmax = "tt.reduce"(%s) <{axis = 1 : i32}> ({
      ^bb0(%x: f32, %y: f32):
        %mx = arith.maxnumf %x, %y : f32
        tt.reduce.return %mx : f32
      }) : (tensor<64x64xf32, #blocked>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %mnew = arith.maxnumf %m, %rowmax : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %me = tt.expand_dims %mnew {axis = 1 : i32} : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xf32, #blocked>
      %mb = tt.broadcast %me : tensor<64x1xf32, #blocked> -> tensor<64x64xf32, #blocked>
      %sh = arith.subf %s, %mb : tensor<64x64xf32, #blocked>
      %p = math.exp %sh : tensor<64x64xf32, #blocked>
      %alpha = arith.subf %m, %mnew : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %ae = tt.expand_dims %alpha {axis = 1 : i32} : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xf32, #blocked>
      %ab = tt.broadcast %ae : tensor<64x1xf32, #blocked> -> tensor<64x64xf32, #blocked>
      %scaled = arith.mulf %acc, %ab : tensor<64x64xf32, #blocked>
      %ph = arith.truncf %p : tensor<64x64xf32, #blocked> to tensor<64x64xf16, #blocked>
      %pbuf = ttg.local_alloc %ph : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #sh, #smem>
      %c = ttg.convert_layout %scaled : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #sqmma>
      %d = musagpu.sqmma %pbuf, %v, %c : !ttg.memdesc<64x64xf16, #sh, #smem>, !ttg.memdesc<64x64xf16, #sh, #smem> -> tensor<64x64xf32, #sqmma>
      %dw = musagpu.sqmma_wait %d : tensor<64x64xf32, #sqmma>
      %next = ttg.convert_layout %dw : tensor<64x64xf32, #sqmma> -> tensor<64x64xf32, #blocked>
      scf.yield %next, %mnew : tensor<64x64xf32, #blocked>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    }
    tt.store %out, %r#0 : tensor<64x64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// Operands rebuilt in the SQMMA layout instead of converting the
// accumulator out (mp_31):
//  * a row vector whose N x 1 tile Triton converted between expand_dims and
//    broadcast: only the vector is converted, into the slice;
//  * a causal mask `rm[:, None] >= rn[None, :]`: the comparison is rebuilt
//    from its two broadcast vectors, no i1 tile moves, and the vectors,
//    index vectors, are recomputed in the layout's slices (not converted:
//    that would go through shared memory each iteration);
//  * an f16 bias extended to f32: the f16 tile is converted in, not the
//    f32 accumulator out.
// CHECK-LABEL: @row_scale_through_convert
// CHECK-NOT: tensor<64x64xf32, #sqmma> -> tensor<64x64xf32, #blocked{{[0-9]*}}>
// CHECK: %[[V:.*]] = ttg.convert_layout %arg1 : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked{{[0-9]*}}}>> -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #sqmma}>>
// CHECK-NEXT: %[[E:.*]] = tt.expand_dims %[[V]] {axis = 1 : i32} : tensor<64xf32, #ttg.slice<{dim = 1, parent = #sqmma}>> -> tensor<64x1xf32, #sqmma>
// CHECK-NEXT: %[[B:.*]] = tt.broadcast %[[E]] : tensor<64x1xf32, #sqmma> -> tensor<64x64xf32, #sqmma>
// CHECK-NEXT: %[[M:.*]] = arith.mulf %arg0, %[[B]] : tensor<64x64xf32, #sqmma>
// CHECK-NEXT: ttg.convert_layout %[[M]] : tensor<64x64xf32, #sqmma> -> tensor<64x64xf32, #blocked{{[0-9]*}}>
// CHECK-NEXT: tt.return
// CHECK-LABEL: @causal_mask
// CHECK-NOT: ttg.convert_layout
// CHECK-DAG: tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #sqmma}>>
// CHECK-DAG: tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #sqmma}>>
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[C:.*]] = arith.cmpi sge, %{{.*}}, %{{.*}} : tensor<64x64xi32, #sqmma>
// CHECK: %[[S:.*]] = arith.select %[[C]], %arg0, %{{.*}} : tensor<64x64xi1, #sqmma>, tensor<64x64xf32, #sqmma>
// CHECK-NEXT: ttg.convert_layout %[[S]] : tensor<64x64xf32, #sqmma> -> tensor<64x64xf32, #blocked{{[0-9]*}}>
// CHECK-NEXT: tt.return
// CHECK-LABEL: @extended_bias
// CHECK: %[[X:.*]] = ttg.convert_layout %arg1 : tensor<64x64xf16, #blocked{{[0-9]*}}> -> tensor<64x64xf16, #sqmma>
// CHECK-NEXT: %[[XE:.*]] = arith.extf %[[X]] : tensor<64x64xf16, #sqmma> to tensor<64x64xf32, #sqmma>
// CHECK-NEXT: %[[A:.*]] = arith.addf %arg0, %[[XE]] : tensor<64x64xf32, #sqmma>
// CHECK-NEXT: ttg.convert_layout %[[A]] : tensor<64x64xf32, #sqmma> -> tensor<64x64xf32, #blocked{{[0-9]*}}>

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#sqmma = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 64]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @row_scale_through_convert(%acc: tensor<64x64xf32, #sqmma>, %v: tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>) -> tensor<64x64xf32, #blocked> {
    %d = ttg.convert_layout %acc : tensor<64x64xf32, #sqmma> -> tensor<64x64xf32, #blocked>
    %e = tt.expand_dims %v {axis = 1 : i32} : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<64x1xf32, #blocked1>
    %c = ttg.convert_layout %e : tensor<64x1xf32, #blocked1> -> tensor<64x1xf32, #blocked>
    %b = tt.broadcast %c : tensor<64x1xf32, #blocked> -> tensor<64x64xf32, #blocked>
    %m = arith.mulf %d, %b : tensor<64x64xf32, #blocked>
    tt.return %m : tensor<64x64xf32, #blocked>
  }
  tt.func public @causal_mask(%acc: tensor<64x64xf32, #sqmma>, %off: i32) -> tensor<64x64xf32, #blocked> {
    %minf = arith.constant dense<0xFF800000> : tensor<64x64xf32, #blocked>
    %d = ttg.convert_layout %acc : tensor<64x64xf32, #sqmma> -> tensor<64x64xf32, #blocked>
    %rm = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %rn0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %offs = tt.splat %off : i32 -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rn = arith.addi %rn0, %offs : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rme = tt.expand_dims %rm {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %rmb = tt.broadcast %rme : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %rne = tt.expand_dims %rn {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %rnb = tt.broadcast %rne : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %mask = arith.cmpi sge, %rmb, %rnb : tensor<64x64xi32, #blocked>
    %s = arith.select %mask, %d, %minf : tensor<64x64xi1, #blocked>, tensor<64x64xf32, #blocked>
    tt.return %s : tensor<64x64xf32, #blocked>
  }
  tt.func public @extended_bias(%acc: tensor<64x64xf32, #sqmma>, %x: tensor<64x64xf16, #blocked>) -> tensor<64x64xf32, #blocked> {
    %d = ttg.convert_layout %acc : tensor<64x64xf32, #sqmma> -> tensor<64x64xf32, #blocked>
    %xe = arith.extf %x : tensor<64x64xf16, #blocked> to tensor<64x64xf32, #blocked>
    %a = arith.addf %d, %xe : tensor<64x64xf32, #blocked>
    tt.return %a : tensor<64x64xf32, #blocked>
  }
}

// -----

// An epilogue that reads the accumulator more than once (gelu's tanh form:
// x * (1 + tanh(k * (x + c * x^3))), here shortened): every op of the
// cluster runs in the SQMMA layout and only its f16 result is converted,
// half the bits of the f32 accumulator. A cluster whose results leave it as
// two f32 tiles keeps the conversion of the accumulator.
// CHECK-LABEL: @gelu_cluster
// CHECK-NOT: tensor<64x64xf32, #sqmma> -> tensor<64x64xf32
// CHECK: %[[X2:.*]] = arith.mulf %arg0, %arg0 : tensor<64x64xf32, #sqmma>
// CHECK: %[[X3:.*]] = arith.mulf %[[X2]], %arg0 : tensor<64x64xf32, #sqmma>
// CHECK: %[[E:.*]] = math.exp %{{.*}} : tensor<64x64xf32, #sqmma>
// CHECK: %[[Y:.*]] = arith.mulf %arg0, %{{.*}} : tensor<64x64xf32, #sqmma>
// CHECK: %[[H:.*]] = arith.truncf %[[Y]] : tensor<64x64xf32, #sqmma> to tensor<64x64xf16, #sqmma>
// CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %[[H]] : tensor<64x64xf16, #sqmma> -> tensor<64x64xf16, #blocked>
// CHECK-NEXT: tt.return %[[C]]
// CHECK-LABEL: @two_wide_exits
// CHECK: %[[D:.*]] = ttg.convert_layout %arg0 : tensor<64x64xf32, #sqmma> -> tensor<64x64xf32, #blocked>
// CHECK-NEXT: arith.mulf %[[D]], %[[D]] : tensor<64x64xf32, #blocked>

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sqmma = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 64]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @gelu_cluster(%acc: tensor<64x64xf32, #sqmma>) -> tensor<64x64xf16, #blocked> {
    %c = arith.constant dense<4.471500e-02> : tensor<64x64xf32, #blocked>
    %one = arith.constant dense<1.000000e+00> : tensor<64x64xf32, #blocked>
    %d = ttg.convert_layout %acc : tensor<64x64xf32, #sqmma> -> tensor<64x64xf32, #blocked>
    %x2 = arith.mulf %d, %d : tensor<64x64xf32, #blocked>
    %x3 = arith.mulf %x2, %d : tensor<64x64xf32, #blocked>
    %cx3 = arith.mulf %x3, %c : tensor<64x64xf32, #blocked>
    %inner = arith.addf %d, %cx3 : tensor<64x64xf32, #blocked>
    %e = math.exp %inner : tensor<64x64xf32, #blocked>
    %t = arith.addf %e, %one : tensor<64x64xf32, #blocked>
    %y = arith.mulf %d, %t : tensor<64x64xf32, #blocked>
    %h = arith.truncf %y : tensor<64x64xf32, #blocked> to tensor<64x64xf16, #blocked>
    tt.return %h : tensor<64x64xf16, #blocked>
  }
  tt.func public @two_wide_exits(%acc: tensor<64x64xf32, #sqmma>) -> (tensor<64x64xf32, #blocked>, tensor<64x64xf32, #blocked>) {
    %d = ttg.convert_layout %acc : tensor<64x64xf32, #sqmma> -> tensor<64x64xf32, #blocked>
    %x2 = arith.mulf %d, %d : tensor<64x64xf32, #blocked>
    %y = arith.addf %d, %x2 : tensor<64x64xf32, #blocked>
    tt.return %x2, %y : tensor<64x64xf32, #blocked>, tensor<64x64xf32, #blocked>
  }
}

// -----

// The flattened persistent loop (Triton's tutorial 09): the accumulator is
// reset by an arith.select at each tile's end (a scalar i1 condition) and
// stored by the epilogue inside an scf.if. The epilogue gets a conversion of
// its own, which sinks through its cast into the store; the select runs in
// the SQMMA layout, so the loop carries the accumulator in it and no
// conversion is left. A bug would print two 64 KiB conversions per
// iteration (#blocked -> #sqmma before the sqmma and back after it).
// CHECK-LABEL: @flattened_accumulator
// CHECK-NOT: ttg.convert_layout
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<128x128xf32, #sqmma>)
// CHECK: %[[D:.*]] = musagpu.sqmma %{{.*}}, %{{.*}}, %[[ACC]]
// CHECK-NEXT: %[[W:.*]] = musagpu.sqmma_wait %[[D]]
// CHECK: %[[RESET:.*]] = arith.select %{{.*}}, %{{.*}}, %[[W]] : tensor<128x128xf32, #sqmma>
// CHECK-NEXT: scf.if
// CHECK-NEXT: %[[H:.*]] = arith.truncf %[[W]] : tensor<128x128xf32, #sqmma> to tensor<128x128xf16, #sqmma>
// CHECK-NEXT: tt.descriptor_store %{{.*}}, %[[H]] : !tt.tensordesc<tensor<128x128xf16>>, tensor<128x128xf16, #sqmma>
// CHECK: scf.yield %[[RESET]]
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return

#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#shared1 = #musagpu.tme_shared<{swizzleGranularity = b32, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
#sqmma = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [128, 128, 64]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @flattened_accumulator(%c: !tt.tensordesc<tensor<128x128xf16>>, %a: !ttg.memdesc<128x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x128xf16, #shared1, #smem>, %k_tiles: i32, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #blocked>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x128xf32, #blocked>) : i32 {
      %ki = arith.remsi %i, %k_tiles : i32
      %last = arith.cmpi eq, %ki, %k_tiles : i32
      %in = ttg.convert_layout %acc : tensor<128x128xf32, #blocked> -> tensor<128x128xf32, #sqmma>
      %d = musagpu.sqmma %a, %b, %in : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared1, #smem> -> tensor<128x128xf32, #sqmma>
      %w = musagpu.sqmma_wait %d : tensor<128x128xf32, #sqmma>
      %out = ttg.convert_layout %w : tensor<128x128xf32, #sqmma> -> tensor<128x128xf32, #blocked>
      %reset = arith.select %last, %zero, %out : tensor<128x128xf32, #blocked>
      scf.if %last {
        %h = arith.truncf %out : tensor<128x128xf32, #blocked> to tensor<128x128xf16, #blocked>
        %hs = ttg.convert_layout %h : tensor<128x128xf16, #blocked> -> tensor<128x128xf16, #blocked1>
        tt.descriptor_store %c[%c0, %c0], %hs : !tt.tensordesc<tensor<128x128xf16>>, tensor<128x128xf16, #blocked1>
      }
      scf.yield %reset : tensor<128x128xf32, #blocked>
    }
    tt.return
  }
}

// -----

// Tutorial 06's on-band causal mask, as Triton 3.6 prints it: the row index
// `offs_m[:, None]` is broadcast before the loop (hoisted there), and the
// column offset is added to the 1 x N tile (`start_n + offs_n[None, :]`),
// which is then broadcast. The mask is rebuilt in the SQMMA layout through
// both broadcasts, so the scores stay there: before, the 64x64 f32 scores
// went through shared memory every iteration (the scratch also cost the
// kernel its second block per SM).
// CHECK-LABEL: @causal_mask_of_tile_offset
// CHECK-NOT: ttg.convert_layout
// CHECK: scf.for
// CHECK-NOT: ttg.convert_layout
// CHECK-DAG: tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #sqmma}>>
// CHECK-DAG: tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #sqmma}>>
// CHECK-DAG: %[[OFF:.*]] = tt.splat %{{.*}} : i32 -> tensor<1x64xi32, #sqmma>
// CHECK: %[[COL:.*]] = arith.addi %[[OFF]], %{{.*}} : tensor<1x64xi32, #sqmma>
// CHECK: %[[COLS:.*]] = tt.broadcast %[[COL]] : tensor<1x64xi32, #sqmma> -> tensor<64x64xi32, #sqmma>
// CHECK: %[[MASK:.*]] = arith.cmpi sge, %{{.*}}, %[[COLS]] : tensor<64x64xi32, #sqmma>
// CHECK: arith.select %[[MASK]], %{{.*}}, %{{.*}} : tensor<64x64xi1, #sqmma>, tensor<64x64xf32, #sqmma>
// CHECK: %[[S:.*]] = arith.addf %{{.*}}, %{{.*}} : tensor<64x64xf32, #sqmma>
// CHECK-NEXT: ttg.convert_layout %[[S]] : tensor<64x64xf32, #sqmma> -> tensor<64x64xf32, #blocked>

// A row vector that is not an index (here an argument) broadcast before a
// loop is converted into the SQMMA layout's slice once, where it is
// defined, not in every iteration.
// CHECK-LABEL: @row_vector_before_loop
// CHECK: %[[V:.*]] = ttg.convert_layout %arg1 : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #sqmma}>>
// CHECK: scf.for
// CHECK-NOT: ttg.convert_layout %arg1
// CHECK: %[[E:.*]] = tt.expand_dims %[[V]] {axis = 1 : i32} : tensor<64xf32, #ttg.slice<{dim = 1, parent = #sqmma}>> -> tensor<64x1xf32, #sqmma>
// CHECK: %[[B:.*]] = tt.broadcast %[[E]] : tensor<64x1xf32, #sqmma> -> tensor<64x64xf32, #sqmma>
// CHECK: arith.mulf %{{.*}}, %[[B]] : tensor<64x64xf32, #sqmma>

#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
#sqmma = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], instrShape = [64, 64, 64]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @causal_mask_of_tile_offset(%q: !ttg.memdesc<64x64xf16, #sh, #smem>, %k: !ttg.memdesc<64x64xf16, #sh, #smem>, %start_m: i32, %lo: i32, %hi: i32, %out: tensor<64x64x!tt.ptr<f32>, #blocked>) {
    %c64 = arith.constant 64 : i32
    %szero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #sqmma>
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
    %neg = arith.constant dense<-1.000000e+06> : tensor<64x64xf32, #blocked>
    %rm0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %sm = tt.splat %start_m : i32 -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %rm = arith.addi %sm, %rm0 : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %rme = tt.expand_dims %rm {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %rmb = tt.broadcast %rme : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %rn0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rne = tt.expand_dims %rn0 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    scf.for %n = %lo to %hi step %c64 : i32 {
      %qk = musagpu.sqmma %q, %k, %szero : !ttg.memdesc<64x64xf16, #sh, #smem>, !ttg.memdesc<64x64xf16, #sh, #smem> -> tensor<64x64xf32, #sqmma>
      %qkw = musagpu.sqmma_wait %qk : tensor<64x64xf32, #sqmma>
      %s0 = ttg.convert_layout %qkw : tensor<64x64xf32, #sqmma> -> tensor<64x64xf32, #blocked>
      %off = tt.splat %n : i32 -> tensor<1x64xi32, #blocked>
      %col = arith.addi %off, %rne : tensor<1x64xi32, #blocked>
      %cols = tt.broadcast %col : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
      %mask = arith.cmpi sge, %rmb, %cols : tensor<64x64xi32, #blocked>
      %bias = arith.select %mask, %zero, %neg : tensor<64x64xi1, #blocked>, tensor<64x64xf32, #blocked>
      %s = arith.addf %s0, %bias : tensor<64x64xf32, #blocked>
      tt.store %out, %s : tensor<64x64x!tt.ptr<f32>, #blocked>
    }
    tt.return
  }
  tt.func public @row_vector_before_loop(%acc: tensor<64x64xf32, #sqmma>, %v: tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, %n: i32, %out: tensor<64x64x!tt.ptr<f32>, #blocked>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %ve = tt.expand_dims %v {axis = 1 : i32} : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xf32, #blocked>
    %vb = tt.broadcast %ve : tensor<64x1xf32, #blocked> -> tensor<64x64xf32, #blocked>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %d = ttg.convert_layout %acc : tensor<64x64xf32, #sqmma> -> tensor<64x64xf32, #blocked>
      %m = arith.mulf %d, %vb : tensor<64x64xf32, #blocked>
      tt.store %out, %m : tensor<64x64x!tt.ptr<f32>, #blocked>
    }
    tt.return
  }
}
