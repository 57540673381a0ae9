// --musa-lower-descriptors-to-tme: descriptor tiles through TME and integer
// async barriers on mp_31; mp_22 (no TME) keeps the path without TME; the
// GPU target (DEVICE) takes TME for host-encoded kernel arguments only,
// each argument with all of its uses or none; the GPU proxy (PROXY) as the
// GPU, in its TMA buffer layouts (Hopper's swizzles).
// RUN: musa-opt %s -split-input-file -musa-lower-descriptors-to-tme=target=emulator 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: musa-opt %s -split-input-file -musa-lower-descriptors-to-tme="arch=mp_22 target=emulator" 2>&1 | FileCheck %s --check-prefix=MP22 --implicit-check-not=musagpu.
// RUN: musa-opt %s -split-input-file -musa-lower-descriptors-to-tme 2>%t.device-remarks | FileCheck %s --check-prefix=DEVICE
// RUN: FileCheck %s --check-prefix=DEVICE-REMARK --input-file=%t.device-remarks
// RUN: musa-opt %s -split-input-file -musa-lower-descriptors-to-tme=target=proxy 2>/dev/null | FileCheck %s --check-prefix=PROXY

// CHECK: #shared = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
// The proxy: 128-byte rows take TMA's 128-byte swizzle, aligned to its
// 1024-byte period.
// PROXY: #shared = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b128, swizzleLine = b128, elementBitWidth = 16, order = [1, 0]}>
// PROXY: module attributes {musagpu.tme_descriptor_args = array<i32: 1>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // One load of a kernel-argument descriptor: barrier 1 set up at entry,
  // the box (innermost first) at the indices (innermost first), phase 0.
  // CHECK-LABEL: tt.func public @load_arg(
  // CHECK-SAME: %[[D:[^:]*]]: !tt.tensordesc<tensor<64x64xf16>>, {{.*}}, %[[I:[^:]*]]: i32, %[[J:[^:]*]]: i32
  // CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i32
  // CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i32
  // CHECK: musagpu.async_barrier_record 1
  // CHECK-NEXT: %[[BAR:.*]] = arith.constant 1 : i32
  // CHECK-NEXT: musagpu.async_barrier_init %[[BAR]], arrive_count %[[C1]], phase %[[C0]]
  // CHECK: %[[BUF:.*]] = ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
  // CHECK: %[[BYTES:.*]] = arith.constant 8192 : i32
  // CHECK-NEXT: musagpu.async_barrier_expect_bytes %[[BAR]], %[[BYTES]]
  // CHECK-NEXT: musagpu.tme_load %[[D]][%[[J]], %[[I]]] to %[[BUF]], barrier %[[BAR]] box [64, 64]
  // CHECK-NEXT: musagpu.async_barrier_arrive %[[BAR]]
  // CHECK-NEXT: musagpu.async_barrier_wait %[[BAR]], phase %[[C0]]
  // CHECK-NEXT: %[[T:.*]] = ttg.local_load %[[BUF]] : {{.*}} -> tensor<64x64xf16, #blocked>
  // CHECK: ttg.local_dealloc %[[BUF]]
  // CHECK-NOT: tt.descriptor_load
  // CHECK: tt.return %[[T]]
  // PROXY-LABEL: tt.func public @load_arg(
  // PROXY-SAME: !tt.tensordesc<tensor<64x64xf16>> {musagpu.tme_descriptor}
  // PROXY: ttg.local_alloc {alignment = 1024 : i32} : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
  // PROXY: musagpu.tme_load %{{.*}} box [64, 64]
  // PROXY-NOT: tt.descriptor_load
  // PROXY: tt.return
  // MP22-LABEL: tt.func public @load_arg(
  // MP22: tt.descriptor_load
  // The GPU: the argument is marked host-encoded, listed in the module.
  // DEVICE: module attributes {{.*}}musagpu.tme_descriptor_args = array<i32: 1>
  // DEVICE-LABEL: tt.func public @load_arg(
  // DEVICE-SAME: !tt.tensordesc<tensor<64x64xf16>> {musagpu.tme_descriptor}
  // DEVICE: musagpu.tme_load
  // DEVICE-NOT: tt.descriptor_load
  tt.func public @load_arg(%d: !tt.tensordesc<tensor<64x64xf16>>, %m: i32, %n: i32, %sm: i64, %sn: i64, %i: i32, %j: i32) -> tensor<64x64xf16, #blocked> {
    %t = tt.descriptor_load %d[%i, %j] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
    tt.return %t : tensor<64x64xf16, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK: #shared = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 32
  // A load in a K loop: one buffer before the loop, the phase carried
  // through the loop and flipped after each wait.
  // A descriptor made in the kernel has no host encoding on the GPU.
  // DEVICE-LABEL: tt.func public @load_in_loop(
  // DEVICE-NOT: musagpu.tme_load
  // DEVICE: tt.descriptor_load
  // DEVICE-REMARK: remark: descriptor load stays without TME: TME on the MUSA GPU reads host-encoded descriptors (kernel arguments); encoding one made by 'tt.make_tensor_descriptor' on the device is not known for MUSA
  // CHECK-LABEL: tt.func public @load_in_loop(
  // CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i32
  // CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i32
  // CHECK: %[[BAR:.*]] = arith.constant 1 : i32
  // CHECK: %[[BUF:.*]] = ttg.local_alloc {alignment = 4096 : i32} : () -> !ttg.memdesc<32x32xf32, #shared, #smem, mutable>
  // CHECK: %[[R:.*]]:2 = scf.for %[[K:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[PHASE:.*]] = %[[C0]]) -> (tensor<32x32xf32, #blocked>, i32)
  // CHECK: musagpu.tme_load %{{.*}}[%[[K]], %{{.*}}] to %[[BUF]], barrier %[[BAR]] box [32, 32]
  // CHECK: musagpu.async_barrier_wait %[[BAR]], phase %[[PHASE]]
  // CHECK: %[[NEXT:.*]] = arith.xori %[[PHASE]], %[[C1]] : i32
  // CHECK: scf.yield %{{.*}}, %[[NEXT]] : tensor<32x32xf32, #blocked>, i32
  // CHECK: ttg.local_dealloc %[[BUF]]
  // CHECK: tt.return %[[R]]#0
  tt.func public @load_in_loop(%p: !tt.ptr<f32>, %m: i32, %k: i32, %sm: i64, %row: i32) -> tensor<32x32xf32, #blocked> {
    %c0 = arith.constant 0 : i32
    %c32 = arith.constant 32 : i32
    %c1 = arith.constant 1 : i64
    %zero = arith.constant dense<0.0> : tensor<32x32xf32, #blocked>
    %d = tt.make_tensor_descriptor %p, [%m, %k], [%sm, %c1] : <f32>, <tensor<32x32xf32>>
    %r = scf.for %kk = %c0 to %k step %c32 iter_args(%acc = %zero) -> (tensor<32x32xf32, #blocked>) : i32 {
      %t = tt.descriptor_load %d[%row, %kk] : !tt.tensordesc<tensor<32x32xf32>> -> tensor<32x32xf32, #blocked>
      %s = arith.addf %acc, %t : tensor<32x32xf32, #blocked>
      scf.yield %s : tensor<32x32xf32, #blocked>
    }
    tt.return %r : tensor<32x32xf32, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK: #shared = #musagpu.tme_shared<{swizzleGranularity = b64,
  // Stores in a loop: wait for the previous store to read the buffer,
  // fill it, store, commit; one wait after the loop before the free.
  // DEVICE-LABEL: tt.func public @store_in_loop(
  // DEVICE-SAME: {musagpu.tme_descriptor}
  // DEVICE: musagpu.tme_store
  // CHECK-LABEL: tt.func public @store_in_loop(
  // CHECK-NOT: musagpu.async_barrier
  // A 1 KiB buffer: the 64-byte granularity is the one whose period fits.
  // CHECK: %[[BUF:.*]] = ttg.local_alloc {alignment = 1024 : i32} : () -> !ttg.memdesc<16x32xf16, #shared, #smem, mutable>
  // CHECK: scf.for %[[I:[^ ]*]] =
  // CHECK-NEXT: musagpu.tme_store_wait
  // CHECK-NEXT: ttg.local_store %{{.*}}, %[[BUF]]
  // CHECK-NEXT: musagpu.tme_store %[[BUF]] to %{{.*}}[%{{.*}}, %[[I]]] box [32, 16]
  // CHECK-NEXT: musagpu.tme_store_commit
  // CHECK: }
  // CHECK-NEXT: musagpu.tme_store_wait
  // CHECK-NEXT: ttg.local_dealloc %[[BUF]]
  tt.func public @store_in_loop(%d: !tt.tensordesc<tensor<16x32xf16>>, %m: i32, %n: i32, %sm: i64, %sn: i64, %v: tensor<16x32xf16, #blocked>, %n_tiles: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n_tiles step %c1 : i32 {
      tt.descriptor_store %d[%i, %i], %v : !tt.tensordesc<tensor<16x32xf16>>, tensor<16x32xf16, #blocked>
    }
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // A box 512 bytes wide stays one op (the lowering issues two 256-byte
  // loads); a 16-byte-wide box and a load in an scf.while keep the plain
  // path.
  // CHECK-LABEL: tt.func public @boxes(
  // CHECK: musagpu.async_barrier_record 1
  // CHECK: musagpu.tme_load {{.*}} box [256, 16]
  // CHECK: scf.while
  // CHECK: tt.descriptor_load {{.*}} -> tensor<16x256xf16
  // CHECK: tt.descriptor_load {{.*}} -> tensor<16x8xf16
  // REMARK: remark: descriptor load stays without TME: it is inside 'scf.while' (loads are tracked through scf.for and scf.if only)
  // REMARK: remark: descriptor load stays without TME: the box is not a legal TME box
  tt.func public @boxes(%p: !tt.ptr<f16>, %m: i32, %n: i32, %sm: i64, %c: i1) -> (tensor<16x256xf16, #blocked>, tensor<16x256xf16, #blocked>, tensor<16x8xf16, #blocked>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %d = tt.make_tensor_descriptor %p, [%m, %n], [%sm, %c1] : <f16>, <tensor<16x256xf16>>
    %narrow = tt.make_tensor_descriptor %p, [%m, %n], [%sm, %c1] : <f16>, <tensor<16x8xf16>>
    %a = tt.descriptor_load %d[%c0, %c0] : !tt.tensordesc<tensor<16x256xf16>> -> tensor<16x256xf16, #blocked>
    %b = scf.while (%arg = %a) : (tensor<16x256xf16, #blocked>) -> tensor<16x256xf16, #blocked> {
      scf.condition(%c) %arg : tensor<16x256xf16, #blocked>
    } do {
    ^bb0(%arg2: tensor<16x256xf16, #blocked>):
      %x = tt.descriptor_load %d[%c0, %c0] : !tt.tensordesc<tensor<16x256xf16>> -> tensor<16x256xf16, #blocked>
      scf.yield %x : tensor<16x256xf16, #blocked>
    }
    %e = tt.descriptor_load %narrow[%c0, %c0] : !tt.tensordesc<tensor<16x8xf16>> -> tensor<16x8xf16, #blocked>
    tt.return %a, %b, %e : tensor<16x256xf16, #blocked>, tensor<16x256xf16, #blocked>, tensor<16x8xf16, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // On the GPU one use of %a without TME (in an scf.while) keeps its other
  // use without TME too (the host passes one form per argument); %b goes
  // through TME. The module lists the host-encoded arguments: only %b.
  // DEVICE: module attributes {{.*}}musagpu.tme_descriptor_args = array<i32: 0, 1>
  // DEVICE-LABEL: tt.func public @one_form(
  // DEVICE-SAME: %{{[^:]*}}: !tt.tensordesc<tensor<16x32xf16>>, %{{[^:]*}}: i32
  // DEVICE-SAME: %{{[^:]*}}: !tt.tensordesc<tensor<16x32xf16>> {musagpu.tme_descriptor}
  // DEVICE: tt.descriptor_load %arg0
  // DEVICE: musagpu.tme_load %arg5
  // DEVICE: scf.while
  // DEVICE: tt.descriptor_load %arg0
  // DEVICE-REMARK: remark: descriptor load stays without TME: another use of its descriptor argument stays without TME (it is inside 'scf.while' (loads are tracked through scf.for and scf.if only)) and the host passes one form per argument
  // DEVICE-REMARK: remark: descriptor load stays without TME: it is inside 'scf.while'
  tt.func public @one_form(%a: !tt.tensordesc<tensor<16x32xf16>>, %am: i32, %an: i32, %asm: i64, %asn: i64, %b: !tt.tensordesc<tensor<16x32xf16>>, %bm: i32, %bn: i32, %bsm: i64, %bsn: i64, %c: i1) -> (tensor<16x32xf16, #blocked>, tensor<16x32xf16, #blocked>, tensor<16x32xf16, #blocked>) {
    %c0 = arith.constant 0 : i32
    %x = tt.descriptor_load %a[%c0, %c0] : !tt.tensordesc<tensor<16x32xf16>> -> tensor<16x32xf16, #blocked>
    %y = tt.descriptor_load %b[%c0, %c0] : !tt.tensordesc<tensor<16x32xf16>> -> tensor<16x32xf16, #blocked>
    %z = scf.while (%arg = %x) : (tensor<16x32xf16, #blocked>) -> tensor<16x32xf16, #blocked> {
      scf.condition(%c) %arg : tensor<16x32xf16, #blocked>
    } do {
    ^bb0(%arg2: tensor<16x32xf16, #blocked>):
      %w = tt.descriptor_load %a[%c0, %c0] : !tt.tensordesc<tensor<16x32xf16>> -> tensor<16x32xf16, #blocked>
      scf.yield %w : tensor<16x32xf16, #blocked>
    }
    tt.return %x, %y, %z : tensor<16x32xf16, #blocked>, tensor<16x32xf16, #blocked>, tensor<16x32xf16, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // Loads under scf.if in a loop: the phase goes through the if as one
  // more result, flipped in the branch that loads and passed on unchanged
  // in the other one (an else made for an if without one), and through
  // the loop as an iter_arg. A bug would wait in a stale phase after an
  // iteration that did not load.
  // CHECK-LABEL: tt.func public @under_if(
  // CHECK: musagpu.async_barrier_record 2
  // CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[P1:.*]] = %{{.*}}, %[[P2:.*]] = %{{.*}}) -> (tensor<16x32xf16, #blocked>, i32, i32)
  // CHECK: %[[IF:.*]]:2 = scf.if %{{.*}} -> (tensor<16x32xf16, #blocked>, i32) {
  // CHECK: musagpu.async_barrier_wait %{{.*}}, phase %[[P1]]
  // CHECK: %[[FLIP:.*]] = arith.xori %[[P1]], %{{.*}} : i32
  // CHECK-NEXT: scf.yield %{{.*}}, %[[FLIP]] : tensor<16x32xf16, #blocked>, i32
  // CHECK-NEXT: } else {
  // CHECK-NEXT: scf.yield %{{.*}}, %[[P1]] : tensor<16x32xf16, #blocked>, i32
  // CHECK: %[[STORE:.*]] = scf.if %{{.*}} -> (i32) {
  // CHECK: musagpu.async_barrier_wait %{{.*}}, phase %[[P2]]
  // CHECK: %[[FLIP2:.*]] = arith.xori %[[P2]], %{{.*}} : i32
  // CHECK: scf.yield %[[FLIP2]] : i32
  // CHECK-NEXT: } else {
  // CHECK-NEXT: scf.yield %[[P2]] : i32
  // CHECK: scf.yield %{{.*}}, %[[IF]]#1, %[[STORE]] : tensor<16x32xf16, #blocked>, i32, i32
  tt.func public @under_if(%d: !tt.tensordesc<tensor<16x32xf16>>, %dm: i32, %dn: i32, %dsm: i64, %dsn: i64, %out: tensor<16x32x!tt.ptr<f16>, #blocked>, %n: i32, %c: i1) -> tensor<16x32xf16, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<16x32xf16, #blocked>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<16x32xf16, #blocked>) : i32 {
      %t = scf.if %c -> (tensor<16x32xf16, #blocked>) {
        %x = tt.descriptor_load %d[%i, %c0] : !tt.tensordesc<tensor<16x32xf16>> -> tensor<16x32xf16, #blocked>
        scf.yield %x : tensor<16x32xf16, #blocked>
      } else {
        scf.yield %acc : tensor<16x32xf16, #blocked>
      }
      scf.if %c {
        %y = tt.descriptor_load %d[%c0, %i] : !tt.tensordesc<tensor<16x32xf16>> -> tensor<16x32xf16, #blocked>
        tt.store %out, %y : tensor<16x32x!tt.ptr<f16>, #blocked>
      }
      %s = arith.addf %acc, %t : tensor<16x32xf16, #blocked>
      scf.yield %s : tensor<16x32xf16, #blocked>
    }
    tt.return %r : tensor<16x32xf16, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // A load under two nested scf.ifs in a loop: the phase goes out through
  // both ifs (the inner one rebuilt first, then the outer one around it).
  // CHECK-LABEL: tt.func public @under_nested_ifs(
  // CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[P:.*]] = %{{.*}}) -> (tensor<16x32xf16, #blocked>, i32)
  // CHECK: %[[OUTER:.*]]:2 = scf.if %{{.*}} -> (tensor<16x32xf16, #blocked>, i32) {
  // CHECK: %[[INNER:.*]]:2 = scf.if %{{.*}} -> (tensor<16x32xf16, #blocked>, i32) {
  // CHECK: musagpu.async_barrier_wait %{{.*}}, phase %[[P]]
  // CHECK: scf.yield %{{.*}}, %[[INNER]]#1 : tensor<16x32xf16, #blocked>, i32
  // CHECK: scf.yield %{{.*}}, %[[OUTER]]#1
  tt.func public @under_nested_ifs(%d: !tt.tensordesc<tensor<16x32xf16>>, %dm: i32, %dn: i32, %dsm: i64, %dsn: i64, %n: i32, %c: i1, %e: i1) -> tensor<16x32xf16, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<16x32xf16, #blocked>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<16x32xf16, #blocked>) : i32 {
      %t = scf.if %c -> (tensor<16x32xf16, #blocked>) {
        %u = scf.if %e -> (tensor<16x32xf16, #blocked>) {
          %x = tt.descriptor_load %d[%i, %c0] : !tt.tensordesc<tensor<16x32xf16>> -> tensor<16x32xf16, #blocked>
          scf.yield %x : tensor<16x32xf16, #blocked>
        } else {
          scf.yield %acc : tensor<16x32xf16, #blocked>
        }
        scf.yield %u : tensor<16x32xf16, #blocked>
      } else {
        scf.yield %acc : tensor<16x32xf16, #blocked>
      }
      %s = arith.addf %acc, %t : tensor<16x32xf16, #blocked>
      scf.yield %s : tensor<16x32xf16, #blocked>
    }
    tt.return %r : tensor<16x32xf16, #blocked>
  }
}
