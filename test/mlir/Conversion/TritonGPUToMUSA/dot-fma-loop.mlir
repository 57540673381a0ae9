// tt.dot on the FMA path past 2048 products (accumulators x K) per thread:
// the thread's operand values are stored once into two entry-block arrays
// ([k][row] and [k][column], private memory on MUSA, generic on the proxy),
// and an LLVM loop over K, its body unrolled over a chunk of 512 products,
// carries the accumulators; its back edge disables LLVM's unrolling, so the
// IR grows with the accumulators, not with K. At 2048 products the dot stays
// unrolled in full (dot-fma.mlir).
// RUN: musa-opt %s -convert-tritongpu-to-musa=arch=mp_31 -o %t.mp_31.mlir
// RUN: FileCheck %s --check-prefixes=CHECK,MUSA --input-file=%t.mp_31.mlir
// RUN: musa-translate --musa-to-llvmir --musa-arch=mp_31 %t.mp_31.mlir -o %t.mp_31.ll
// RUN: FileCheck %s --check-prefix=LLIR --input-file=%t.mp_31.ll
// RUN: %check-llvm14 %t.mp_31.ll
// RUN: musa-opt %s -convert-tritongpu-to-musa="arch=mp_31 target=proxy" -o %t.proxy.mlir
// RUN: FileCheck %s --check-prefixes=CHECK,PROXY --input-file=%t.proxy.mlir
// RUN: musa-translate --proxy-to-nvptx-llvmir --emit-ptx %t.proxy.mlir -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t.ptx

// 128x64 accumulators over 128 threads: 64 per thread (8 rows x 8 columns),
// K = 64: 4096 products, a loop of 8 iterations over chunks of 8 k.
#big = #ttg.blocked<{sizePerThread = [8, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// 64x64 over 128 threads: 32 per thread, K = 64: 2048 products.
#small = #ttg.blocked<{sizePerThread = [4, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

// CHECK-DAG: #[[UNROLL:.*]] = #llvm.loop_unroll<disable = true>
// CHECK-DAG: #[[ANN:.*]] = #llvm.loop_annotation<unroll = #[[UNROLL]]>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @dot_loop(
  // One array per operand: 8 slots x 64 k.
  // MUSA-COUNT-2: llvm.alloca %{{.*}} x !llvm.array<512 x f32> {alignment = 16 : i64} : (i32) -> !llvm.ptr<5>
  // PROXY-COUNT-2: llvm.alloca %{{.*}} x !llvm.array<512 x f32> {alignment = 16 : i64} : (i32) -> !llvm.ptr{{$}}
  // Every operand value is stored once, none multiplied before the loop.
  // CHECK-NOT: llvm.intr.fmuladd
  // CHECK-COUNT-1024: llvm.store
  // CHECK-NOT: llvm.intr.fmuladd
  // CHECK: llvm.br ^[[LOOP:bb[0-9]+]](%{{.*}} : i32, f32,
  // CHECK: ^[[LOOP]](%[[K:.*]]: i32, %{{.*}}: f32,
  // Row k of each array, then constant offsets within the chunk.
  // CHECK: llvm.mul %[[K]], %{{.*}} : i32
  // CHECK: llvm.getelementptr inbounds %{{.*}}[%{{.*}}] : ({{.*}}, i32) -> {{.*}}, f32
  // CHECK: llvm.load %{{.*}} : !llvm.ptr{{.*}} -> f32
  // The body: 64 accumulators x 8 k, no more.
  // CHECK-COUNT-512: llvm.intr.fmuladd
  // CHECK-NOT: llvm.intr.fmuladd
  // CHECK: %[[NEXT:.*]] = llvm.add %[[K]], %{{.*}} : i32
  // CHECK: %[[MORE:.*]] = llvm.icmp "slt" %[[NEXT]], %{{.*}} : i32
  // CHECK: llvm.cond_br %[[MORE]], ^[[LOOP]](%[[NEXT]], {{.*}}), ^[[REST:bb[0-9]+]] {loop_annotation = #[[ANN]]}
  // CHECK: ^[[REST]]:
  // Fully unrolled, the K loop would print 4096 multiply-adds; none follow.
  // CHECK-NOT: llvm.intr.fmuladd
  // CHECK: llvm.return
  // LLIR-LABEL: define {{.*}} @dot_loop
  // LLIR: br i1 %{{.*}}, label %{{.*}}, label %{{.*}}, !llvm.loop ![[LOOPMD:[0-9]+]]
  // LLIR-LABEL: define {{.*}} @dot_unrolled_at_limit
  // LLIR-NOT: !llvm.loop
  // LLIR: ![[LOOPMD]] = distinct !{![[LOOPMD]], ![[DISABLE:[0-9]+]]}
  // LLIR: ![[DISABLE]] = !{!"llvm.loop.unroll.disable"}
  // NVPTX passes the metadata on as ptxas's hint.
  // PTX-LABEL: dot_loop(
  // PTX: .pragma "nounroll";
  // PTX-LABEL: dot_unrolled_at_limit(
  // PTX-NOT: .pragma "nounroll";
  tt.func public @dot_loop(%a: tensor<128x64xf32, #ttg.dot_op<{opIdx = 0, parent = #big}>>, %b: tensor<64x64xf32, #ttg.dot_op<{opIdx = 1, parent = #big}>>, %c: tensor<128x64xf32, #big>) -> tensor<128x64xf32, #big> {
    %d = tt.dot %a, %b, %c, inputPrecision = ieee : tensor<128x64xf32, #ttg.dot_op<{opIdx = 0, parent = #big}>> * tensor<64x64xf32, #ttg.dot_op<{opIdx = 1, parent = #big}>> -> tensor<128x64xf32, #big>
    tt.return %d : tensor<128x64xf32, #big>
  }

  // CHECK-LABEL: llvm.func @dot_unrolled_at_limit(
  // CHECK-NOT: llvm.alloca
  // CHECK-COUNT-2048: llvm.intr.fmuladd
  // CHECK-NOT: llvm.cond_br
  // CHECK: llvm.return
  tt.func public @dot_unrolled_at_limit(%a: tensor<64x64xf32, #ttg.dot_op<{opIdx = 0, parent = #small}>>, %b: tensor<64x64xf32, #ttg.dot_op<{opIdx = 1, parent = #small}>>, %c: tensor<64x64xf32, #small>) -> tensor<64x64xf32, #small> {
    %d = tt.dot %a, %b, %c, inputPrecision = ieee : tensor<64x64xf32, #ttg.dot_op<{opIdx = 0, parent = #small}>> * tensor<64x64xf32, #ttg.dot_op<{opIdx = 1, parent = #small}>> -> tensor<64x64xf32, #small>
    tt.return %d : tensor<64x64xf32, #small>
  }
}
