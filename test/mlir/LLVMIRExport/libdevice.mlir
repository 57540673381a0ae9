// libdevice: only what the kernel calls is linked, internalized, then
// inlined at O3; the result is still LLVM 14 IR.
// RUN: llvm-as-14 -opaque-pointers %S/Inputs/libdevice.ll -o %t.bc
// RUN: musa-translate --musa-to-llvmir --opt-level=0 --libdevice=%t.bc %s -o %t.O0.ll
// RUN: FileCheck %s --check-prefix=O0 --input-file=%t.O0.ll %llvm14-check-not
// RUN: %check-llvm14 %t.O0.ll
// RUN: musa-translate --musa-to-llvmir --libdevice=%t.bc %s -o %t.O3.ll
// RUN: FileCheck %s --check-prefix=O3 --input-file=%t.O3.ll %llvm14-check-not
// RUN: %check-llvm14 %t.O3.ll

// O0: define cc102 void @kernel(
// O0: call float @__mt_fast_expf(
// O0: define internal float @__mt_fast_expf(
// O0-NOT: __mt_unused
// O3: define cc102 void @kernel(
// O3-NOT: __mt_
// O3: call float @llvm.exp2.f32(
module {
  llvm.func @__mt_fast_expf(f32) -> f32
  llvm.func @kernel(%x: f32, %p: !llvm.ptr<1>) attributes {musa.kernel, musa.maxntidx = 256 : i32} {
    %y = llvm.call @__mt_fast_expf(%x) : (f32) -> f32
    llvm.store %y, %p : f32, !llvm.ptr<1>
    llvm.return
  }
}
