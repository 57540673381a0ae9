// TME on the GPU proxy is TMA (target=proxy): a host-encoded descriptor is
// a 128-byte CUtensorMap parameter, align 64 and "nvvm.grid_constant"; the
// module records each tensor map's box (innermost first), swizzle
// (CU_TENSOR_MAP_SWIZZLE_128B = 3 for these 128-byte rows) and element
// type for the host; integer async barriers are mbarriers past the
// block's buffers (ttg.shared grows by 64 x 8 bytes); a load is
// expect_tx + cp.async.bulk.tensor on the mbarrier + arrive, every thread
// waits on its parity; a store fences the generic writes of its source for
// the async proxy, then the bulk-group store, commit and read wait.
// RUN: musa-opt %s --pass-pipeline='builtin.module(musa-lower-descriptors-to-tme{target=proxy},musa-allocate-shared-memory,musa-insert-barriers,convert-tritongpu-to-musa{target=proxy},canonicalize,cse)' -o %t.llvm.mlir
// RUN: FileCheck %s --check-prefix=LLVMDIALECT --input-file=%t.llvm.mlir
// RUN: musa-translate --proxy-to-nvptx-llvmir --sm=sm_90a --ptx-version=80 %t.llvm.mlir -o %t.ll
// RUN: FileCheck %s --check-prefix=LLIR --input-file=%t.ll

// 16x64 f16 tiles: 2048 bytes of buffer, the mbarriers at 2048.
// LLVMDIALECT: module attributes {musagpu.proxy_mbarrier_offset = 2048 : i32, musagpu.tma_tensor_maps = {"0" = {box = array<i32: 64, 16>, element = f16, swizzle = 3 : i32}, "5" = {box = array<i32: 64, 16>, element = f16, swizzle = 3 : i32}}, {{.*}}ttg.shared = 2560 : i32
// LLVMDIALECT-LABEL: llvm.func @copy(
// LLVMDIALECT-SAME: %[[IN:[^:]*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, musa.grid_constant}
// LLVMDIALECT: "mbarrier.init.shared::cta.b64 [$0], $1;"
// LLVMDIALECT-NEXT: "fence.mbarrier_init.release.cluster;"
// LLVMDIALECT: "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [$0], $1;"
// LLVMDIALECT: %[[MAP:.*]] = llvm.ptrtoint %[[IN]] : !llvm.ptr to i64
// LLVMDIALECT: "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$0], [$1, {$2, $3}], [$4];", "r,l,r,r,r" %{{.*}}, %[[MAP]], %arg11, %arg10,
// LLVMDIALECT: "mbarrier.arrive.shared::cta.b64 _, [$0];"
// LLVMDIALECT: mbarrier.try_wait.parity.shared::cta.b64
// LLVMDIALECT: "fence.proxy.async.shared::cta;"
// LLVMDIALECT: llvm.call @llvm.nvvm.barrier.cta.sync.aligned.all
// LLVMDIALECT: "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [$0, {$1, $2}], [$3];"
// LLVMDIALECT: "cp.async.bulk.commit_group;"
// LLVMDIALECT: "cp.async.bulk.wait_group.read 0;"
// LLVMDIALECT-NOT: llvm.musa.
// LLIR: define ptx_kernel void @copy(ptr byval([128 x i8]) align 64 "nvvm.grid_constant" %0, i32 %1, i32 %2, i64 %3, i64 %4, ptr byval([128 x i8]) align 64 "nvvm.grid_constant" %5,
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @copy(%in: !tt.tensordesc<tensor<16x64xf16>>, %im: i32, %in_: i32, %ism: i64, %isn: i64,
                       %out: !tt.tensordesc<tensor<16x64xf16>>, %om: i32, %on: i32, %osm: i64, %osn: i64,
                       %i: i32, %j: i32) {
    %t = tt.descriptor_load %in[%i, %j] : !tt.tensordesc<tensor<16x64xf16>> -> tensor<16x64xf16, #blocked>
    tt.descriptor_store %out[%i, %j], %t : !tt.tensordesc<tensor<16x64xf16>>, tensor<16x64xf16, #blocked>
    tt.return
  }
}
