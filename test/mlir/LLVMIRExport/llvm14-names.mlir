// Names that look like post-14 keywords are names, not keywords: the
// respelling and the final token check leave them alone.
// RUN: musa-translate --musa-to-llvmir %s -o %t.ll
// RUN: FileCheck %s --input-file=%t.ll
// RUN: %check-llvm14 %t.ll

// CHECK: declare void @memory(ptr addrspace(1)) local_unnamed_addr
// CHECK: declare void @splat(ptr addrspace(1)) local_unnamed_addr
// CHECK-LABEL: define cc102 void @range(
// CHECK: call void @memory(ptr addrspace(1) %0)
// CHECK: call void @splat(ptr addrspace(1) %0)
module {
  llvm.func @memory(!llvm.ptr<1>)
  llvm.func @splat(!llvm.ptr<1>)
  llvm.func @range(%p: !llvm.ptr<1>) attributes {musa.kernel} {
    llvm.call @memory(%p) : (!llvm.ptr<1>) -> ()
    llvm.call @splat(%p) : (!llvm.ptr<1>) -> ()
    llvm.return
  }
}
