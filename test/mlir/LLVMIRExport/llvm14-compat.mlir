// The LLVM 14 compatibility rules, one function each. The LLVM22 prefix
// checks that -O3 really produces the construct a rule removes, the default
// prefix what is left of it; the output must be LLVM 14 IR.
// RUN: musa-translate --musa-to-llvmir --musa-arch=mp_31 %s -o %t.ll
// RUN: FileCheck %s --input-file=%t.ll %llvm14-check-not
// RUN: %check-llvm14 %t.ll
// RUN: musa-translate --musa-to-llvmir --no-llvm14-compat %s -o %t.22.ll
// RUN: FileCheck %s --check-prefix=LLVM22 --input-file=%t.22.ll

module {
  llvm.func @llvm.musa.read.ptx.sreg.tid.x() -> i32
  llvm.func @llvm.musa.shfl.xor.sync.i32(i32, i32, i32, !llvm.ptr<5>) -> i32
  llvm.func @llvm.musa.vote.ballot.sync(i1) -> i32

  // Instruction flags: nneg, disjoint, samesign, GEP nuw; `initializes` and
  // `captures(none)` on the output pointer.
  // CHECK-LABEL: define cc102 void @flags(ptr addrspace(1) writeonly nocapture %0,
  // CHECK: zext i32 %{{[0-9]+}} to i64
  // CHECK: getelementptr inbounds float, ptr addrspace(1)
  // CHECK: or i32 %{{[0-9]+}}, 1
  // CHECK: icmp ult i32
  // CHECK: uitofp i32 %{{[0-9]+}} to float
  // CHECK: call i32 @llvm.musa.shfl.xor.sync.i32({{.*}}) [[CONV:#[0-9]+]]
  // CHECK: call i32 @llvm.musa.vote.ballot.sync({{.*}}) [[CONV]]
  // LLVM22-LABEL: define {{.*}} @flags(ptr addrspace(1) writeonly captures(none) initializes((16, 20)) %0,
  // LLVM22: zext nneg i32
  // LLVM22: getelementptr inbounds nuw float
  // LLVM22: or disjoint i32
  // LLVM22: icmp samesign ult
  // LLVM22: uitofp nneg i32
  llvm.func @flags(%out: !llvm.ptr<1>, %x: i32, %v: vector<4xf32>) attributes {musa.kernel, musa.maxntidx = 128 : i32} {
    %c127 = llvm.mlir.constant(127 : i32) : i32
    %c1 = llvm.mlir.constant(1 : i32) : i32
    %c4 = llvm.mlir.constant(4 : i32) : i32
    %tid = llvm.call @llvm.musa.read.ptx.sreg.tid.x() : () -> i32
    %a = llvm.and %tid, %c127 : i32
    %b = llvm.and %x, %c127 : i32
    %z = llvm.zext %a : i32 to i64
    %p = llvm.getelementptr inbounds %out[%z] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    %s = llvm.shl %a, %c4 : i32
    %o = llvm.or %s, %c1 : i32
    %lt = llvm.icmp "slt" %a, %b : i32
    %sel = llvm.select %lt, %o, %b : i1, i32
    %f = llvm.uitofp %sel : i32 to f32
    llvm.store %f, %p : f32, !llvm.ptr<1>
    %one = llvm.mlir.constant(1 : i64) : i64
    %pred = llvm.alloca %one x i32 : (i64) -> !llvm.ptr<5>
    %sh = llvm.call @llvm.musa.shfl.xor.sync.i32(%tid, %c1, %c127, %pred) : (i32, i32, i32, !llvm.ptr<5>) -> i32
    %ballot = llvm.call @llvm.musa.vote.ballot.sync(%lt) : (i1) -> i32
    %sb = llvm.add %sh, %ballot : i32
    %q = llvm.getelementptr inbounds %out[%c4] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
    llvm.store %sb, %q : i32, !llvm.ptr<1>
    llvm.return
  }

  // trunc nuw/nsw; `range` on an argument; memory(argmem: read) inferred.
  // CHECK-LABEL: define i8 @narrow(
  // CHECK-SAME: i32 %0, ptr addrspace(1) readonly nocapture %1) {{.*}}[[ARGREAD:#[0-9]+]]
  // CHECK: trunc i32 %{{[0-9]+}} to i8
  // LLVM22-LABEL: define {{.*}} @narrow(i32 range(i32 0, 100) %0,
  // LLVM22: trunc nuw nsw i32
  llvm.func @narrow(%x: i32 {llvm.range = #llvm.constant_range<i32, 0, 100>}, %p: !llvm.ptr<1>) -> i8 {
    %v = llvm.load %p : !llvm.ptr<1> -> i32
    %s = llvm.add %x, %v : i32
    %c = llvm.mlir.constant(127 : i32) : i32
    %m = llvm.and %x, %c : i32
    %t = llvm.trunc %m : i32 to i8
    %u = llvm.trunc %s : i32 to i8
    %r = llvm.add %t, %u : i8
    llvm.return %r : i8
  }

  // Splats of one element in two vector lengths: each gets its own length.
  // CHECK-LABEL: define void @splats(
  // CHECK: add <4 x i32> %{{[0-9]+}}, <i32 7, i32 7, i32 7, i32 7>
  // CHECK: add <2 x i32> %{{[0-9]+}}, <i32 7, i32 7>
  // CHECK: fmul <2 x float> %{{[0-9]+}}, <float 5.000000e-01, float 5.000000e-01>
  // LLVM22: add <4 x i32> %{{[0-9]+}}, splat (i32 7)
  llvm.func @splats(%a: vector<4xi32>, %b: vector<2xi32>, %c: vector<2xf32>, %p: !llvm.ptr<1>) {
    %s4 = llvm.mlir.constant(dense<7> : vector<4xi32>) : vector<4xi32>
    %s2 = llvm.mlir.constant(dense<7> : vector<2xi32>) : vector<2xi32>
    %h2 = llvm.mlir.constant(dense<5.000000e-01> : vector<2xf32>) : vector<2xf32>
    %x = llvm.add %a, %s4 : vector<4xi32>
    %y = llvm.add %b, %s2 : vector<2xi32>
    %z = llvm.fmul %c, %h2 : vector<2xf32>
    llvm.store volatile %x, %p : vector<4xi32>, !llvm.ptr<1>
    llvm.store volatile %y, %p : vector<2xi32>, !llvm.ptr<1>
    llvm.store volatile %z, %p : vector<2xf32>, !llvm.ptr<1>
    llvm.return
  }

  // -O3 forms llvm.ldexp from x * exp2(sitofp n) and llvm.scmp from a
  // select chain; both are expanded again (ldexp exactly, musl's scalbn).
  // CHECK-LABEL: define void @formed(
  // CHECK: icmp sgt i32 %1, 127
  // CHECK: icmp slt i32 %{{[0-9]+}}, -126
  // CHECK: shl i32 %{{[0-9]+}}, 23
  // CHECK: bitcast i32 %{{[0-9]+}} to float
  // CHECK: icmp sgt i32 %3, %4
  // CHECK: icmp slt i32 %3, %4
  // CHECK: sub i32
  // LLVM22-LABEL: define void @formed(
  // LLVM22: call float @llvm.ldexp.f32.i32(float 1.000000e+00, i32 %1)
  // LLVM22: call i32 @llvm.scmp.i32.i32(i32 %3, i32 %4)
  llvm.func @formed(%x: f32, %n: i32, %p: !llvm.ptr<1>, %a: i32, %b: i32, %q: !llvm.ptr<1>) {
    %f = llvm.sitofp %n : i32 to f32
    %e = llvm.intr.exp2(%f) : (f32) -> f32
    %y = llvm.fmul %x, %e : f32
    llvm.store %y, %p : f32, !llvm.ptr<1>
    %lt = llvm.icmp "slt" %a, %b : i32
    %gt = llvm.icmp "sgt" %a, %b : i32
    %m1 = llvm.mlir.constant(-1 : i32) : i32
    %one = llvm.mlir.constant(1 : i32) : i32
    %zero = llvm.mlir.constant(0 : i32) : i32
    %s0 = llvm.select %gt, %one, %zero : i1, i32
    %s = llvm.select %lt, %m1, %s0 : i1, i32
    llvm.store %s, %q : i32, !llvm.ptr<1>
    llvm.return
  }

  // -O3 forms llvm.is.fpclass from isinf || isnan || |x| < FLT_MIN; it is
  // expanded to tests on the bits.
  // CHECK-LABEL: define void @fpclass(
  // CHECK: bitcast float %0 to i32
  // CHECK: and i32 %{{[0-9]+}}, 2147483647
  // CHECK: icmp ugt i32 %{{[0-9]+}}, 2139095040
  // LLVM22-LABEL: define void @fpclass(
  // LLVM22: call i1 @llvm.is.fpclass.f32(float %0, i32 759)
  llvm.func @fpclass(%x: f32, %q: !llvm.ptr<1>) {
    %a = llvm.intr.fabs(%x) : (f32) -> f32
    %inf = llvm.mlir.constant(0x7F800000 : f32) : f32
    %c = llvm.fcmp "oeq" %a, %inf : f32
    %n = llvm.fcmp "uno" %x, %x : f32
    %o = llvm.or %c, %n : i1
    %s = llvm.mlir.constant(1.17549435E-38 : f32) : f32
    %d = llvm.fcmp "olt" %a, %s : f32
    %o2 = llvm.or %o, %d : i1
    %z = llvm.zext %o2 : i1 to i32
    llvm.store %z, %q : i32, !llvm.ptr<1>
    llvm.return
  }

  // CHECK-DAG: attributes [[CONV]] = { convergent nounwind }
  // CHECK-DAG: attributes [[ARGREAD]] = { {{.*}}argmemonly readonly }
  // LLVM22: memory(argmem: read)
}
