// tt.print and tt.assert on the CPU emulator target: device printf is a C
// varargs call of the runtime's __musa_emu_printf (formats in address space
// 0, the host's; default argument promotions: i8 -> i32, f32 -> double), and a
// failed assertion calls __musa_emu_assert_fail(message, file, line,
// function), which stops the block and makes the launch fail.
// RUN: musa-opt %s -convert-tritongpu-to-musa="arch=mp_31 target=emulator" | FileCheck %s
// RUN: sed -e 's/musa:mp_31/musa:mp_22/' -e 's/threadsPerWarp = \[32\]/threadsPerWarp = [128]/' -e 's/"ttg.threads-per-warp" = 32/"ttg.threads-per-warp" = 128/' %s | musa-opt -convert-tritongpu-to-musa="arch=mp_22 target=emulator" | FileCheck %s

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-DAG: llvm.mlir.global internal constant @printfFormat_0("pid (%u, %u, %u) idx () b: %i\0A\00") {addr_space = 0 : i32
  // CHECK-DAG: llvm.mlir.global internal constant @printfFormat_{{[0-9]+}}("pid (%u, %u, %u) idx (%3u) f: %f\0A\00") {addr_space = 0 : i32
  // CHECK-DAG: llvm.mlir.global internal constant @assertMessage_0("negative input\00") {addr_space = 0 : i32
  // CHECK-DAG: llvm.mlir.global internal constant @assertFile_0("kernel.py\00") {addr_space = 0 : i32
  // CHECK-DAG: llvm.mlir.global internal constant @assertFunction_0("debug\00") {addr_space = 0 : i32
  // CHECK-DAG: llvm.func @__musa_emu_printf(!llvm.ptr, ...) -> i32
  // CHECK-DAG: llvm.func @__musa_emu_assert_fail(!llvm.ptr, !llvm.ptr, i32, !llvm.ptr) attributes {convergent, no_unwind}
  // CHECK-NOT: vprintf
  // CHECK-NOT: __assertfail

  // CHECK-LABEL: llvm.func @debug(
  // CHECK: %[[X:.*]] = llvm.call @__musa_emu_block_id(
  // CHECK: %[[Y:.*]] = llvm.call @__musa_emu_block_id(
  // CHECK: %[[Z:.*]] = llvm.call @__musa_emu_block_id(
  // CHECK: %[[FMT0:.*]] = llvm.mlir.addressof @printfFormat_0 : !llvm.ptr
  // CHECK: %[[B:.*]] = llvm.zext %{{.*}} : i8 to i32
  // CHECK: llvm.call @__musa_emu_printf(%[[FMT0]], %[[X]], %[[Y]], %[[Z]], %[[B]]) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32, i32, i32, i32) -> i32
  // CHECK: %[[D:.*]] = llvm.fpext %{{.*}} : f32 to f64
  // CHECK: llvm.call @__musa_emu_printf(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[D]]) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32, i32, i32, i32, f64) -> i32
  // CHECK: llvm.cond_br %{{.*}}, ^[[FAIL:.*]], ^[[OK:.*]]
  // CHECK: ^[[FAIL]]:
  // CHECK: %[[MSG:.*]] = llvm.mlir.addressof @assertMessage_0 : !llvm.ptr
  // CHECK: %[[FILE:.*]] = llvm.mlir.addressof @assertFile_0 : !llvm.ptr
  // CHECK: %[[LINE:.*]] = llvm.mlir.constant(7 : i32) : i32
  // CHECK: %[[FN:.*]] = llvm.mlir.addressof @assertFunction_0 : !llvm.ptr
  // CHECK: llvm.call @__musa_emu_assert_fail(%[[MSG]], %[[FILE]], %[[LINE]], %[[FN]])
  // CHECK: ^[[OK]]:
  // CHECK: llvm.call @__musa_emu_barrier()
  tt.func public @debug(%b: i8, %f: tensor<256xf32, #blocked>, %ok: tensor<256xi1, #blocked>) {
    tt.print " b: " {hex = false, isSigned = array<i32: 1>} : %b : i8
    tt.print " f: " {hex = false, isSigned = array<i32: 1>} : %f : tensor<256xf32, #blocked>
    tt.assert %ok, "negative input" : tensor<256xi1, #blocked> loc("kernel.py":7:3)
    tt.return
  }
}
