// tt.print: one vprintf per value a thread holds, with Triton's device_print
// line "pid (x, y, z) idx (i...)<prefix>[(operand k) ]<value>\n" as a module
// global (indices padded to the width of the largest one); tt.assert:
// __assertfail(message, file, line, function, 1) where any element of the
// condition the thread holds is false, then a block barrier.
// RUN: musa-opt %s -split-input-file -convert-tritongpu-to-musa=arch=mp_31 -o %t.mp_31.mlir
// RUN: FileCheck %s --input-file=%t.mp_31.mlir '--implicit-check-not={{^ *(%[^ ]* = )?"?ttg?\.[a-z_]+}}'

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-DAG: llvm.mlir.global internal constant @printfFormat_0("pid (%u, %u, %u) idx () pid: %i\0A\00") {addr_space = 1 : i32
  // CHECK-DAG: llvm.mlir.global internal constant @printfFormat_1("pid (%u, %u, %u) idx (%3u) x=: 0x%08x\0A\00") {addr_space = 1 : i32
  // CHECK-DAG: llvm.mlir.global internal constant @printfFormat_2("pid (%u, %u, %u) idx (%3u) two: (operand 0) %f\0A\00") {addr_space = 1 : i32
  // CHECK-DAG: llvm.mlir.global internal constant @printfFormat_3("pid (%u, %u, %u) idx (%3u) two: (operand 1) %llu\0A\00") {addr_space = 1 : i32
  // CHECK-DAG: llvm.mlir.global internal constant @assertMessage_0("negative input\00") {addr_space = 1 : i32
  // CHECK-DAG: llvm.mlir.global internal constant @assertFile_0("kernel.py\00") {addr_space = 1 : i32
  // CHECK-DAG: llvm.mlir.global internal constant @assertFunction_0("debug\00") {addr_space = 1 : i32

  // CHECK-LABEL: llvm.func @debug(
  // Scalar: pid, then the value.
  // CHECK: %[[X:.*]] = llvm.call @llvm.musa.read.ptx.sreg.ctaid.x()
  // CHECK: %[[Y:.*]] = llvm.call @llvm.musa.read.ptx.sreg.ctaid.y()
  // CHECK: %[[Z:.*]] = llvm.call @llvm.musa.read.ptx.sreg.ctaid.z()
  // CHECK: llvm.mlir.addressof @printfFormat_0
  // CHECK: llvm.store %[[X]]
  // CHECK: llvm.store %[[Y]]
  // CHECK: llvm.store %[[Z]]
  // CHECK: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr
  // CHECK: llvm.call @vprintf(
  // Tensor: two registers, two lines each with the element's index.
  // CHECK: llvm.mlir.addressof @printfFormat_1
  // CHECK: llvm.call @vprintf(
  // CHECK: llvm.mlir.addressof @printfFormat_1
  // CHECK: llvm.call @vprintf(
  // Two operands: floats printed as double.
  // CHECK: llvm.mlir.addressof @printfFormat_2
  // CHECK: llvm.fpext %{{.*}} : f32 to f64
  // CHECK: llvm.call @vprintf(
  // CHECK: llvm.mlir.addressof @printfFormat_2
  // CHECK: llvm.call @vprintf(
  // CHECK: llvm.mlir.addressof @printfFormat_3
  // CHECK: llvm.call @vprintf(
  // CHECK: llvm.mlir.addressof @printfFormat_3
  // CHECK: llvm.call @vprintf(
  // Assert: any false element of the thread's two fails it.
  // CHECK: %[[F:.*]] = llvm.mlir.constant(false) : i1
  // CHECK: %[[N0:.*]] = llvm.icmp "eq" %{{.*}}, %[[F]] : i1
  // CHECK: %[[N1:.*]] = llvm.icmp "eq" %{{.*}}, %[[F]] : i1
  // CHECK: %[[ANY:.*]] = llvm.or %[[N0]], %[[N1]] : i1
  // CHECK: llvm.cond_br %[[ANY]], ^[[FAIL:.*]], ^[[OK:.*]]
  // CHECK: ^[[FAIL]]:
  // CHECK: %[[LINE:.*]] = llvm.mlir.constant(7 : i32) : i32
  // CHECK: llvm.call @__assertfail(%{{.*}}, %{{.*}}, %[[LINE]], %{{.*}}, %{{.*}})
  // CHECK: ^[[OK]]:
  // CHECK: llvm.call @llvm.musa.barrier0()
  // CHECK: llvm.return
  tt.func public @debug(%pid: i32, %x: tensor<256xi32, #blocked>, %f: tensor<256xf32, #blocked>, %u: tensor<256xi64, #blocked>, %ok: tensor<256xi1, #blocked>) {
    tt.print " pid: " {hex = false, isSigned = array<i32: 1>} : %pid : i32
    tt.print " x=: " {hex = true, isSigned = array<i32: 1>} : %x : tensor<256xi32, #blocked>
    tt.print " two: " {hex = false, isSigned = array<i32: 1, 0>} : %f, %u : tensor<256xf32, #blocked>, tensor<256xi64, #blocked>
    tt.assert %ok, "negative input" : tensor<256xi1, #blocked> loc("kernel.py":7:3)
    tt.return
  }
}
