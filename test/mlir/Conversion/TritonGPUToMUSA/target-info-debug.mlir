// The debug hooks of the target interface: printf -> vprintf(format, args)
// with the arguments promoted (i8/i16 -> i32, f32 -> f64) into a private
// struct allocated at function entry; assertFail -> __assertfail(message,
// file, line, function, 1). Strings are constant module globals in global
// memory (addrspace 1), passed as generic pointers; equal strings are shared.
// RUN: musa-opt %s -allow-unregistered-dialect -test-musa-target-info=arch=mp_31 -o %t.mp_31.mlir
// RUN: FileCheck %s --input-file=%t.mp_31.mlir
// RUN: musa-opt %s -allow-unregistered-dialect -test-musa-target-info=arch=mp_22 -o %t.mp_22.mlir
// RUN: FileCheck %s --input-file=%t.mp_22.mlir

// CHECK-DAG: llvm.mlir.global internal constant @printfFormat_0("x=%i y=%f\0A\00") {addr_space = 1 : i32, alignment = 1 : i64}
// CHECK-DAG: llvm.mlir.global internal constant @assertMessage_0("boom\00")
// CHECK-DAG: llvm.mlir.global internal constant @assertFile_0("k.py\00")
// CHECK-DAG: llvm.mlir.global internal constant @assertFunction_0("kernel\00")
// CHECK-DAG: llvm.func @vprintf(!llvm.ptr, !llvm.ptr) -> i32 attributes {no_unwind}
// CHECK-DAG: llvm.func @__assertfail(!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i64) attributes {no_unwind}

// CHECK-LABEL: llvm.func @print(
// CHECK-SAME: %[[X:.*]]: i16, %[[Y:.*]]: f32)
// CHECK: %[[SLOT:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(i32, f64)> : (i32) -> !llvm.ptr<5>
// CHECK: %[[FMT1:.*]] = llvm.mlir.addressof @printfFormat_0 : !llvm.ptr<1>
// CHECK: %[[FMT:.*]] = llvm.addrspacecast %[[FMT1]] : !llvm.ptr<1> to !llvm.ptr
// CHECK: %[[XW:.*]] = llvm.zext %[[X]] : i16 to i32
// CHECK: %[[YW:.*]] = llvm.fpext %[[Y]] : f32 to f64
// CHECK: %[[BUF:.*]] = llvm.addrspacecast %[[SLOT]] : !llvm.ptr<5> to !llvm.ptr
// CHECK: %[[F0:.*]] = llvm.getelementptr %[[BUF]][0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, f64)>
// CHECK: llvm.store %[[XW]], %[[F0]] : i32, !llvm.ptr
// CHECK: %[[F1:.*]] = llvm.getelementptr %[[BUF]][0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, f64)>
// CHECK: llvm.store %[[YW]], %[[F1]] : f64, !llvm.ptr
// CHECK: llvm.call @vprintf(%[[FMT]], %[[BUF]]) : (!llvm.ptr, !llvm.ptr) -> i32
// Same format again: same global; no argument: a null buffer.
// CHECK: llvm.mlir.addressof @printfFormat_0
// CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: llvm.call @vprintf(%{{.*}}, %[[NULL]])
llvm.func @print(%x: i16, %y: f32) {
  "test.musa.printf"(%x, %y) {format = "x=%i y=%f\n"} : (i16, f32) -> ()
  "test.musa.printf"() {format = "x=%i y=%f\n"} : () -> ()
  llvm.return
}

// CHECK-LABEL: llvm.func @fail()
// CHECK: %[[MSG:.*]] = llvm.mlir.addressof @assertMessage_0 : !llvm.ptr<1>
// CHECK: %[[FILE:.*]] = llvm.mlir.addressof @assertFile_0 : !llvm.ptr<1>
// CHECK: %[[FN:.*]] = llvm.mlir.addressof @assertFunction_0 : !llvm.ptr<1>
// CHECK: %[[LINE:.*]] = llvm.mlir.constant(42 : i32) : i32
// CHECK: llvm.call @__assertfail(%{{.*}}, %{{.*}}, %[[LINE]], %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i64) -> ()
llvm.func @fail() {
  "test.musa.assert_fail"() {message = "boom", file = "k.py", line = 42 : i32, function = "kernel"} : () -> ()
  llvm.return
}
