// Intrinsics whose signature changed after LLVM 14 get it back; constant
// expressions lose their post-14 flags.
// RUN: musa-translate --musa-to-llvmir --musa-arch=mp_31 %s -o %t.ll
// RUN: FileCheck %s --input-file=%t.ll %llvm14-check-not
// RUN: %check-llvm14 %t.ll
// RUN: musa-translate --musa-to-llvmir --no-llvm14-compat %s -o %t.22.ll
// RUN: FileCheck %s --check-prefix=LLVM22 --input-file=%t.22.ll

// CHECK: @tail = {{.*}} getelementptr inbounds (i8, ptr addrspace(1) @table, i64 8)
// LLVM22: @tail = {{.*}} getelementptr inbounds nuw (i8, ptr addrspace(1) @table, i64 8)

// Masked memory intrinsics take their alignment as an i32 argument again.
// CHECK-LABEL: define cc102 void @masked(
// CHECK: call <4 x float> @llvm.masked.load.v4f32.p1(ptr addrspace(1) %0, i32 16, <4 x i1> %1, <4 x float> zeroinitializer)
// CHECK: call void @llvm.masked.store.v4f32.p1(<4 x float> %{{[0-9]+}}, ptr addrspace(1) %2, i32 8, <4 x i1> %1)
// CHECK: declare <4 x float> @llvm.masked.load.v4f32.p1(ptr addrspace(1) nocapture, i32 immarg, <4 x i1>, <4 x float>) [[LOAD:#[0-9]+]]
// CHECK: declare void @llvm.masked.store.v4f32.p1(<4 x float>, ptr addrspace(1) nocapture, i32 immarg, <4 x i1>) [[STORE:#[0-9]+]]
// CHECK-DAG: attributes [[LOAD]] = { {{.*}}argmemonly readonly }
// CHECK-DAG: attributes [[STORE]] = { {{.*}}argmemonly writeonly }
// LLVM22: @llvm.masked.load.v4f32.p1(ptr addrspace(1) align 16 %0, <4 x i1> %1, <4 x float> zeroinitializer)
module {
  llvm.mlir.global external @table(dense<[1, 2, 3, 4]> : tensor<4xi32>) {addr_space = 1 : i32} : !llvm.array<4 x i32>
  llvm.mlir.global external @tail() {addr_space = 1 : i32} : !llvm.ptr<1> {
    %0 = llvm.mlir.addressof @table : !llvm.ptr<1>
    %1 = llvm.getelementptr inbounds %0[0, 2] : (!llvm.ptr<1>) -> !llvm.ptr<1>, !llvm.array<4 x i32>
    llvm.return %1 : !llvm.ptr<1>
  }
  llvm.func @masked(%p: !llvm.ptr<1>, %m: vector<4xi1>, %q: !llvm.ptr<1>) attributes {musa.kernel} {
    %pass = llvm.mlir.zero : vector<4xf32>
    %v = llvm.intr.masked.load %p, %m, %pass {alignment = 16 : i32} : (!llvm.ptr<1>, vector<4xi1>, vector<4xf32>) -> vector<4xf32>
    llvm.intr.masked.store %v, %q, %m {alignment = 8 : i32} : vector<4xf32>, vector<4xi1> into !llvm.ptr<1>
    llvm.return
  }
}
