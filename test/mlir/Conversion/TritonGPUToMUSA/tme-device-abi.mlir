// The TME descriptor kernel-parameter ABI on the GPU (mp_31): a
// kernel-argument descriptor that --musa-lower-descriptors-to-tme sends
// through TME (target=musa) arrives as the host-encoded 64-byte
// MUtensorDescriptor, `ptr byval([64 x i8]) align 64` and grid-constant,
// followed by its i32 shape and i64 strides; the TME instructions take the
// parameter's address. A descriptor made in the kernel keeps the path
// without TME (its base address, bounds-checked loads).
// RUN: musa-opt %s --pass-pipeline='builtin.module(musa-lower-descriptors-to-tme,musa-allocate-shared-memory,musa-insert-barriers,convert-tritongpu-to-musa,canonicalize,cse)' -o %t.llvm.mlir
// RUN: FileCheck %s --check-prefix=LLVMDIALECT --input-file=%t.llvm.mlir
// RUN: musa-translate --musa-to-llvmir --musa-arch=mp_31 %t.llvm.mlir -o %t.ll
// RUN: FileCheck %s --check-prefix=LLIR --input-file=%t.ll %llvm14-check-not
// RUN: %check-llvm14 %t.ll

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // LLVMDIALECT-LABEL: llvm.func @copy(
  // LLVMDIALECT-SAME: %[[IN:[^:]*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<64 x i8>, musa.grid_constant}, %{{[^:]*}}: i32, %{{[^:]*}}: i32, %{{[^:]*}}: i64, %{{[^:]*}}: i64,
  // LLVMDIALECT-SAME: %[[OUT:[^:]*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<64 x i8>, musa.grid_constant}, %{{[^:]*}}: i32, %{{[^:]*}}: i32, %{{[^:]*}}: i64, %{{[^:]*}}: i64,
  // LLVMDIALECT-SAME: %[[PLAIN:[^:]*]]: !llvm.ptr<1>,
  // LLVMDIALECT-NOT: musagpu.tme_descriptor
  // LLVMDIALECT: %[[INADDR:.*]] = llvm.ptrtoint %[[IN]] : !llvm.ptr to i64
  // LLVMDIALECT: llvm.call @llvm.musa.tme.ld.tile.2d(%{{.*}}, %{{.*}}, %[[INADDR]],
  // LLVMDIALECT: %[[OUTADDR:.*]] = llvm.ptrtoint %[[OUT]] : !llvm.ptr to i64
  // LLVMDIALECT: llvm.call @llvm.musa.tme.st.2d(%{{.*}}, %[[OUTADDR]],
  // The descriptor made in the kernel: plain global loads from its base.
  // LLVMDIALECT: llvm.getelementptr %[[PLAIN]]
  // LLVMDIALECT-NOT: llvm.musa.tme.ld.tile
  // LLIR-LABEL: define cc102 void @copy(
  // LLIR-SAME: ptr byval([64 x i8]) align 64 %0, i32 %1, i32 %2, i64 %3, i64 %4, ptr byval([64 x i8]) align 64 %5,
  // LLIR: %[[A:[0-9]+]] = ptrtoint ptr %0 to i64
  // LLIR: call void @llvm.musa.tme.ld.tile.2d(i32 1, ptr addrspace(3) {{.*}}, i64 %[[A]], <2 x i32> <i32 32, i32 16>,
  // LLIR: !musa.annotations = !{![[K:[0-9]+]], ![[N:[0-9]+]], ![[G:[0-9]+]]}
  // LLIR-DAG: ![[G]] = !{ptr @copy, !"grid_constant", ![[P:[0-9]+]]}
  // LLIR-DAG: ![[P]] = !{i32 1, i32 6}
  tt.func public @copy(%in: !tt.tensordesc<tensor<16x32xf16>>, %im: i32, %in_: i32, %ism: i64, %isn: i64,
                       %out: !tt.tensordesc<tensor<16x32xf16>>, %om: i32, %on: i32, %osm: i64, %osn: i64,
                       %p: !tt.ptr<f16>, %i: i32, %j: i32) {
    %c1 = arith.constant 1 : i64
    %t = tt.descriptor_load %in[%i, %j] : !tt.tensordesc<tensor<16x32xf16>> -> tensor<16x32xf16, #blocked>
    tt.descriptor_store %out[%i, %j], %t : !tt.tensordesc<tensor<16x32xf16>>, tensor<16x32xf16, #blocked>
    %made = tt.make_tensor_descriptor %p, [%im, %in_], [%ism, %c1] : <f16>, <tensor<16x32xf16>>
    %u = tt.descriptor_load %made[%i, %j] : !tt.tensordesc<tensor<16x32xf16>> -> tensor<16x32xf16, #blocked>
    tt.descriptor_store %out[%j, %i], %u : !tt.tensordesc<tensor<16x32xf16>>, tensor<16x32xf16, #blocked>
    tt.return
  }
}
