// ttg.fp4_to_fp: each i8 holds two e2m1 values (low nibble first along
// `axis`); each is decoded exactly by bit manipulation: |value| bits
// (e, m) shifted to the top of the mantissa and the exponent rebiased by
// bias - 1 (bf16: 126 << 7 = 16128, f16: 14 << 10 = 14336) when e > 0, 0.5
// (the same constant) for the subnormal 0b001, 0 for 0; the sign is bit 3.
// RUN: musa-opt %s -convert-tritongpu-to-musa=arch=mp_31 -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: musa-translate --musa-to-llvmir --musa-arch=mp_31 %t.mlir -o %t.ll
// RUN: %check-llvm14 %t.ll

// One byte per thread, unpacked into the thread's two registers.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#linear = #ttg.linear<{register = [[0, 1]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[32, 0], [64, 0]], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @to_bf16(
  // Register 0: the low nibble.
  // CHECK: %[[B0:.*]] = llvm.zext %{{.*}} : i8 to i16
  // CHECK-NOT: llvm.lshr
  // CHECK-DAG: llvm.mlir.constant(7 : i16)
  // CHECK-DAG: llvm.mlir.constant(6 : i16)
  // CHECK-DAG: llvm.mlir.constant(16128 : i16)
  // CHECK-DAG: llvm.icmp "uge"
  // CHECK-DAG: llvm.icmp "eq"
  // CHECK-DAG: llvm.mlir.constant(8 : i16)
  // CHECK-DAG: llvm.mlir.constant(12 : i16)
  // CHECK: %[[V0:.*]] = llvm.bitcast %{{.*}} : i16 to bf16
  // Register 1: the high nibble of the same byte.
  // CHECK: %[[B1:.*]] = llvm.zext %{{.*}} : i8 to i16
  // CHECK: %[[FOUR:.*]] = llvm.mlir.constant(4 : i16)
  // CHECK: llvm.lshr %[[B1]], %[[FOUR]]
  // CHECK: %[[V1:.*]] = llvm.bitcast %{{.*}} : i16 to bf16
  // CHECK-NOT: llvm.bitcast %{{.*}} : i16 to bf16
  // CHECK: llvm.insertvalue %[[V0]], %{{.*}}[0]
  // CHECK: llvm.insertvalue %[[V1]], %{{.*}}[1]
  tt.func public @to_bf16(%x: tensor<128x1xi8, #blocked>) -> tensor<128x2xbf16, #linear> {
    %y = ttg.fp4_to_fp %x {axis = 1 : i32} : tensor<128x1xi8, #blocked> -> tensor<128x2xbf16, #linear>
    tt.return %y : tensor<128x2xbf16, #linear>
  }

  // CHECK-LABEL: llvm.func @to_f16(
  // CHECK-DAG: llvm.mlir.constant(9 : i16)
  // CHECK-DAG: llvm.mlir.constant(14336 : i16)
  // CHECK: llvm.bitcast %{{.*}} : i16 to f16
  tt.func public @to_f16(%x: tensor<128x1xi8, #blocked>) -> tensor<128x2xf16, #linear> {
    %y = ttg.fp4_to_fp %x {axis = 1 : i32} : tensor<128x1xi8, #blocked> -> tensor<128x2xf16, #linear>
    tt.return %y : tensor<128x2xf16, #linear>
  }
}
