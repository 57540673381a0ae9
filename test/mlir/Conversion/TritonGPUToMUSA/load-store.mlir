// tt.addptr, tt.load, tt.store on global memory (addrspace 1). A masked
// access branches around a plain llvm.load / llvm.store; a masked-off load
// yields `other`. Of threads holding copies of an element only one stores.
// RUN: musa-opt %s -split-input-file -convert-tritongpu-to-musa=arch=mp_31 -o %t.mp_31.mlir
// RUN: FileCheck %s --input-file=%t.mp_31.mlir
// RUN: musa-opt %S/Inputs/load-store.mp_22.mlir -split-input-file -convert-tritongpu-to-musa=arch=mp_22 -o %t.mp_22.mlir
// RUN: FileCheck %s --input-file=%t.mp_22.mlir

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // The masked-off value is `other` (-1.0) and the mask is offset < n, per register:
  // followed through the per-register structs from the constant and the argument.
  // CHECK-LABEL: llvm.func @masked(
  // CHECK-SAME: %[[P:[^:]*]]: !llvm.ptr<1>, %[[N:[^:]*]]: i32)
  // CHECK: %[[OTHER:.*]] = llvm.mlir.constant(-1.000000e+00 : f32) : f32
  // CHECK: %[[OS0:.*]] = llvm.insertvalue %[[OTHER]], %{{[^ ]+}}[0] : !llvm.struct<(f32, f32)>
  // CHECK: %[[OS:.*]] = llvm.insertvalue %[[OTHER]], %[[OS0]][1] : !llvm.struct<(f32, f32)>
  // CHECK: %[[OFFS0:.*]] = llvm.insertvalue %[[OFF0:[^ ,]+]], %{{[^ ]+}}[0] : !llvm.struct<(i32, i32)>
  // CHECK: %[[OFFS:.*]] = llvm.insertvalue %[[OFF1:[^ ,]+]], %[[OFFS0]][1] : !llvm.struct<(i32, i32)>
  // CHECK: %[[NS0:.*]] = llvm.insertvalue %[[N]], %{{[^ ]+}}[0] : !llvm.struct<(i32, i32)>
  // CHECK: %[[NS:.*]] = llvm.insertvalue %[[N]], %[[NS0]][1] : !llvm.struct<(i32, i32)>
  // CHECK-DAG: %[[R0:.*]] = llvm.extractvalue %[[OFFS]][0] : !llvm.struct<(i32, i32)>
  // CHECK-DAG: %[[R1:.*]] = llvm.extractvalue %[[OFFS]][1] : !llvm.struct<(i32, i32)>
  // CHECK-DAG: %[[N0:.*]] = llvm.extractvalue %[[NS]][0] : !llvm.struct<(i32, i32)>
  // CHECK-DAG: %[[N1:.*]] = llvm.extractvalue %[[NS]][1] : !llvm.struct<(i32, i32)>
  // CHECK: %[[C0:.*]] = llvm.icmp "slt" %[[R0]], %[[N0]] : i32
  // CHECK: %[[C1:.*]] = llvm.icmp "slt" %[[R1]], %[[N1]] : i32
  // CHECK: %[[MS0:.*]] = llvm.insertvalue %[[C0]], %{{[^ ]+}}[0] : !llvm.struct<(i1, i1)>
  // CHECK: %[[MS:.*]] = llvm.insertvalue %[[C1]], %[[MS0]][1] : !llvm.struct<(i1, i1)>
  // CHECK: %[[P0:.*]] = llvm.getelementptr %{{[^ ]+}}[%{{[^ ]+}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
  // CHECK: %[[P1:.*]] = llvm.getelementptr %{{[^ ]+}}[%{{[^ ]+}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
  // CHECK-DAG: %[[M0:.*]] = llvm.extractvalue %[[MS]][0] : !llvm.struct<(i1, i1)>
  // CHECK-DAG: %[[M1:.*]] = llvm.extractvalue %[[MS]][1] : !llvm.struct<(i1, i1)>
  // CHECK-DAG: %[[O0:.*]] = llvm.extractvalue %[[OS]][0] : !llvm.struct<(f32, f32)>
  // CHECK-DAG: %[[O1:.*]] = llvm.extractvalue %[[OS]][1] : !llvm.struct<(f32, f32)>
  // CHECK: llvm.cond_br %[[M0]], ^[[LOAD0:.*]], ^[[JOIN0:.*]](%[[O0]] : f32)
  // CHECK: ^[[LOAD0]]:
  // CHECK-NEXT: %[[V0:.*]] = llvm.load %{{[^ ]+}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
  // CHECK-NEXT: llvm.br ^[[JOIN0]](%[[V0]] : f32)
  // CHECK: ^[[JOIN0]](%[[X0:.*]]: f32):
  // CHECK: llvm.cond_br %[[M1]], ^[[LOAD1:.*]], ^[[JOIN1:.*]](%[[O1]] : f32)
  // CHECK: ^[[LOAD1]]:
  // CHECK-NEXT: llvm.load
  // CHECK: llvm.insertvalue %[[X0]], %{{.*}}[0] : !llvm.struct<(f32, f32)>
  // CHECK: llvm.fadd
  // CHECK: llvm.cond_br %{{.*}}, ^[[STORE0:.*]], ^[[NEXT0:.*]]
  // CHECK: ^[[STORE0]]:
  // CHECK-NEXT: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<1>
  // CHECK-NEXT: llvm.br
  // CHECK: llvm.cond_br
  // CHECK: llvm.store
  // CHECK: llvm.return
  tt.func public @masked(%p: !tt.ptr<f32>, %n: i32) {
    %other = arith.constant dense<-1.000000e+00> : tensor<256xf32, #blocked>
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<256xi32, #blocked>
    %mask = arith.cmpi slt, %r, %ns : tensor<256xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #blocked>
    %ptrs = tt.addptr %ps, %r : tensor<256x!tt.ptr<f32>, #blocked>, tensor<256xi32, #blocked>
    %v = tt.load %ptrs, %mask, %other : tensor<256x!tt.ptr<f32>, #blocked>
    %w = arith.addf %v, %v : tensor<256xf32, #blocked>
    tt.store %ptrs, %w, %mask : tensor<256x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // Without a mask: straight-line loads and stores.
  // CHECK-LABEL: llvm.func @unmasked(
  // CHECK-NOT: llvm.cond_br
  // CHECK: llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr<1> -> f16
  // CHECK: llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr<1> -> f16
  // CHECK-NOT: llvm.cond_br
  // CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 2 : i64} : f16, !llvm.ptr<1>
  // CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 2 : i64} : f16, !llvm.ptr<1>
  // CHECK-NOT: llvm.cond_br
  // CHECK: llvm.return
  tt.func public @unmasked(%p: !tt.ptr<f16>, %q: !tt.ptr<f16>) {
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<256x!tt.ptr<f16>, #blocked>
    %ptrs = tt.addptr %ps, %r : tensor<256x!tt.ptr<f16>, #blocked>, tensor<256xi32, #blocked>
    %v = tt.load %ptrs : tensor<256x!tt.ptr<f16>, #blocked>
    %qs = tt.splat %q : !tt.ptr<f16> -> tensor<256x!tt.ptr<f16>, #blocked>
    %qptrs = tt.addptr %qs, %r : tensor<256x!tt.ptr<f16>, #blocked>, tensor<256xi32, #blocked>
    tt.store %qptrs, %v : tensor<256x!tt.ptr<f16>, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // A tensor smaller than the CTA tile: the 4 warps hold copies, only warp 0
  // stores (warp & 3 == 0).
  // CHECK-LABEL: llvm.func @duplicated(
  // CHECK: %[[TID:.*]] = llvm.call @llvm.musa.read.ptx.sreg.tid.x()
  // CHECK: %[[TID2:.*]] = llvm.call @llvm.musa.read.ptx.sreg.tid.x()
  // CHECK: %[[WARP:.*]] = llvm.lshr %[[TID2]], %{{.*}} : i32
  // CHECK: %[[C3:.*]] = llvm.mlir.constant(3 : i32) : i32
  // CHECK: %[[BITS:.*]] = llvm.and %[[WARP]], %[[C3]] : i32
  // CHECK: %[[OWNER:.*]] = llvm.icmp "eq" %[[BITS]], %{{.*}} : i32
  // CHECK: llvm.cond_br %[[OWNER]], ^[[STORE:.*]], ^
  // CHECK: ^[[STORE]]:
  // CHECK-NEXT: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<1>
  tt.func public @duplicated(%p: !tt.ptr<i32>) {
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<32x!tt.ptr<i32>, #blocked>
    %ptrs = tt.addptr %ps, %r : tensor<32x!tt.ptr<i32>, #blocked>, tensor<32xi32, #blocked>
    tt.store %ptrs, %r : tensor<32x!tt.ptr<i32>, #blocked>
    tt.return
  }
}

// -----

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // Scalars: one GEP, one load by every thread, one store by thread 0 only
  // (a scalar store happens once per program: were every thread to store,
  // `tl.store(p, tl.load(p) + 1)` would add once per thread; found on the
  // emulator with the corpus spin lock, test_emulator_kernels.py).
  // CHECK-LABEL: llvm.func @scalar(
  // CHECK-SAME: %[[P:.*]]: !llvm.ptr<1>, %[[I:.*]]: i64
  // CHECK: %[[Q:.*]] = llvm.getelementptr %[[P]][%[[I]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f64
  // CHECK: %[[V:.*]] = llvm.load %[[Q]] {alignment = 8 : i64} : !llvm.ptr<1> -> f64
  // CHECK: %[[TID:.*]] = llvm.call @llvm.musa.read.ptx.sreg.tid.x()
  // CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK: %[[FIRST:.*]] = llvm.icmp "eq" %[[TID]], %[[ZERO]] : i32
  // CHECK: llvm.cond_br %[[FIRST]], ^[[STORE:.*]], ^[[DONE:.*]]
  // CHECK: ^[[STORE]]:
  // CHECK-NEXT: llvm.store %[[V]], %[[P]] {alignment = 8 : i64} : f64, !llvm.ptr<1>
  // CHECK-NEXT: llvm.br ^[[DONE]]
  tt.func public @scalar(%p: !tt.ptr<f64>, %i: i64) {
    %q = tt.addptr %p, %i : !tt.ptr<f64>, i64
    %v = tt.load %q : !tt.ptr<f64>
    tt.store %p, %v : !tt.ptr<f64>
    tt.return
  }
}
