// Metadata kinds newer than LLVM 14 (here !mmra) are dropped.
// RUN: musa-translate --musa-to-llvmir --opt-level=0 %s -o %t.ll
// RUN: FileCheck %s --input-file=%t.ll %llvm14-check-not --implicit-check-not=mmra
// RUN: %check-llvm14 %t.ll
// RUN: musa-translate --musa-to-llvmir --opt-level=0 --no-llvm14-compat %s | FileCheck %s --check-prefix=LLVM22

// CHECK: load i32, ptr addrspace(1) %0, align 4{{$}}
// LLVM22: load i32, ptr addrspace(1) %0, align 4, !mmra
module {
  llvm.func @k(%p: !llvm.ptr<1>, %q: !llvm.ptr<1>) attributes {musa.kernel} {
    %v = llvm.load %p {llvm.mmra = #llvm.mmra_tag<"amdgpu-as":"local">} : !llvm.ptr<1> -> i32
    llvm.store %v, %q : i32, !llvm.ptr<1>
    llvm.return
  }
}
