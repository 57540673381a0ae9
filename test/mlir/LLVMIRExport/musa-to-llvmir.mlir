// The llir stage on a small kernel: target, kernel conventions, llvm.musa.*
// attributes; the output is LLVM 14 IR for both architectures.
// RUN: musa-translate --musa-to-llvmir --musa-arch=mp_31 %s -o %t.mp31.ll
// RUN: FileCheck %s --input-file=%t.mp31.ll %llvm14-check-not
// RUN: %check-llvm14 %t.mp31.ll
// RUN: musa-translate --musa-to-llvmir --musa-arch=mp_22 %s -o %t.mp22.ll
// RUN: FileCheck %s --input-file=%t.mp22.ll %llvm14-check-not
// RUN: %check-llvm14 %t.mp22.ll
// Without the compatibility step: what LLVM 22 prints (the rules are needed).
// RUN: musa-translate --musa-to-llvmir --no-llvm14-compat %s -o %t.22.ll
// RUN: FileCheck %s --check-prefix=LLVM22 --input-file=%t.22.ll

// CHECK: target datalayout = "e-p:64:64:64:64-p1:64:64:64:64-p2:64:64:64:64-p3:32:32-p4:32:32-p5:64:64-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128"
// CHECK: target triple = "mtgpu-mt-musa"

// Thread ids are pure: read once, CSE'd.
// CHECK: declare i32 @llvm.musa.read.ptx.sreg.tid.x() [[PURE:#[0-9]+]]
// CHECK: declare void @llvm.musa.barrier0() [[CONV:#[0-9]+]]

// CHECK-LABEL: define cc102 void @kernel(
// CHECK-SAME: ptr addrspace(1) writeonly nocapture %0
// CHECK: call i32 @llvm.musa.read.ptx.sreg.tid.x()
// CHECK-NOT: @llvm.musa.read.ptx.sreg.tid.x()
// llvm.scmp is expanded to two compares.
// CHECK: icmp sgt i32
// CHECK: icmp slt i32
// CHECK: mul <4 x i32> %{{[0-9]+}}, <i32 3, i32 3, i32 3, i32 3>
// Lifetime markers take their size again.
// CHECK: call void @llvm.lifetime.start.p0(i64 16, ptr %[[A:[0-9]+]])
// CHECK: call void @llvm.lifetime.end.p0(i64 16, ptr %[[A]])
// CHECK: call void @llvm.musa.barrier0() [[CONV]]
// CHECK: ret void

// A helper stays an ordinary function.
// CHECK-LABEL: define void @helper(
// CHECK: ret void

// CHECK: declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) [[LIFETIME:#[0-9]+]]
// CHECK-DAG: attributes [[PURE]] = { {{.*}}nounwind willreturn readnone }
// CHECK-DAG: attributes [[CONV]] = { convergent nounwind }
// CHECK-DAG: attributes [[LIFETIME]] = { nounwind willreturn argmemonly }
// CHECK: !musa.annotations = !{![[K:[0-9]+]], ![[N:[0-9]+]]}
// CHECK-DAG: ![[K]] = !{ptr @kernel, !"kernel", i32 1}
// CHECK-DAG: ![[N]] = !{ptr @kernel, !"maxntidx", i32 128}

// LLVM22: define aarch64_sme_preservemost_from_x0 void @kernel(
// LLVM22-SAME: captures(none)
// LLVM22: splat (i32 3)
// LLVM22: call void @llvm.lifetime.start.p0(ptr
// LLVM22: declare range(i32 -1, 2) i32 @llvm.scmp.i32.i32
// LLVM22: memory(none)

module {
  llvm.func @llvm.musa.read.ptx.sreg.tid.x() -> i32
  llvm.func @llvm.musa.barrier0()
  llvm.func @use(!llvm.ptr)
  llvm.func @kernel(%out: !llvm.ptr<1>, %x: i32, %v: vector<4xi32>, %vout: !llvm.ptr<1>) attributes {musa.kernel, musa.maxntidx = 128 : i32} {
    %c1 = llvm.mlir.constant(1 : i32) : i32
    %t0 = llvm.call @llvm.musa.read.ptx.sreg.tid.x() : () -> i32
    %t1 = llvm.call @llvm.musa.read.ptx.sreg.tid.x() : () -> i32
    %t = llvm.add %t0, %t1 : i32
    %cmp = llvm.call_intrinsic "llvm.scmp.i32.i32"(%x, %t) : (i32, i32) -> i32
    %z = llvm.zext %t : i32 to i64
    %p = llvm.getelementptr %out[%z] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
    llvm.store %cmp, %p : i32, !llvm.ptr<1>
    %three = llvm.mlir.constant(dense<3> : vector<4xi32>) : vector<4xi32>
    %vm = llvm.mul %v, %three : vector<4xi32>
    llvm.store %vm, %vout : vector<4xi32>, !llvm.ptr<1>
    %n = llvm.mlir.constant(4 : i64) : i64
    %a = llvm.alloca %n x i32 : (i64) -> !llvm.ptr
    llvm.intr.lifetime.start %a : !llvm.ptr
    llvm.call @use(%a) : (!llvm.ptr) -> ()
    llvm.intr.lifetime.end %a : !llvm.ptr
    llvm.call @llvm.musa.barrier0() : () -> ()
    llvm.return
  }
  llvm.func @helper(%p: !llvm.ptr) {
    llvm.call @use(%p) : (!llvm.ptr) -> ()
    llvm.return
  }
}
