// End to end from TTGIR: --convert-tritongpu-to-musa, then the llir stage;
// the result is LLVM 14 IR with the kernel conventions in place.
// RUN: musa-opt %s -convert-tritongpu-to-musa=arch=mp_31 -o %t.llvm.mlir
// RUN: musa-translate --musa-to-llvmir --musa-arch=mp_31 %t.llvm.mlir -o %t.ll
// RUN: FileCheck %s --input-file=%t.ll %llvm14-check-not
// RUN: %check-llvm14 %t.ll

// CHECK: target triple = "mtgpu-mt-musa"
// CHECK-LABEL: define cc102 void @add_one(
// CHECK: call i32 @llvm.musa.read.ptx.sreg.tid.x()
// CHECK: fadd
// CHECK: !musa.annotations = !{![[K:[0-9]+]], ![[N:[0-9]+]]}
// CHECK-DAG: ![[K]] = !{ptr @add_one, !"kernel", i32 1}
// CHECK-DAG: ![[N]] = !{ptr @add_one, !"maxntidx", i32 128}
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @add_one(%p: !tt.ptr<f32>, %n: i32) {
    %one = arith.constant dense<1.000000e+00> : tensor<256xf32, #blocked>
    %other = arith.constant dense<0.000000e+00> : tensor<256xf32, #blocked>
    %pid = tt.get_program_id x : i32
    %c256 = arith.constant 256 : i32
    %start = arith.muli %pid, %c256 : i32
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %starts = tt.splat %start : i32 -> tensor<256xi32, #blocked>
    %offs = arith.addi %starts, %r : tensor<256xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<256xi32, #blocked>
    %mask = arith.cmpi slt, %offs, %ns : tensor<256xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #blocked>
    %ptrs = tt.addptr %ps, %offs : tensor<256x!tt.ptr<f32>, #blocked>, tensor<256xi32, #blocked>
    %v = tt.load %ptrs, %mask, %other : tensor<256x!tt.ptr<f32>, #blocked>
    %w = arith.addf %v, %one : tensor<256xf32, #blocked>
    tt.store %ptrs, %w, %mask : tensor<256x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
