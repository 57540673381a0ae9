// A TME op on a !tt.tensordesc: on the emulator the kernel builds an
// emulator descriptor from the tensor's base, shape and strides
// (EmulatorABI.h); the GPU reads host-encoded MUtensorDescriptor
// parameters only (tme-device-abi.mlir), and this argument is not marked as
// one: a clear error.
// RUN: musa-opt %s -convert-tritongpu-to-musa="arch=mp_31 target=emulator" | FileCheck %s --check-prefix=EMU --implicit-check-not=llvm.musa.
// RUN: not musa-opt %s -convert-tritongpu-to-musa=arch=mp_31 2>&1 | FileCheck %s --check-prefix=DEVICE

#smem = #musagpu.tme_shared<{swizzleGranularity = none, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 32, order = [1, 0]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32, ttg.shared = 2048 : i32} {
  // A store through a kernel-argument !tt.tensordesc: on the emulator the
  // kernel fills a descriptor (base, rank 2, 4-byte elements, dims and byte
  // strides innermost first, the magic word) and passes its address.
  // EMU-LABEL: llvm.func @store_desc(
  // EMU-SAME: %[[BASEPTR:[^:]*]]: !llvm.ptr<1>, %[[M:[^:]*]]: i32, %[[N:[^:]*]]: i32, %[[SM:[^:]*]]: i64, %[[SN:[^:]*]]: i64
  // EMU: %[[SLOTS:.*]] = llvm.alloca %{{.*}} x !llvm.array<16 x i64>
  // EMU: llvm.call @__musa_emu_tme_store_read_wait()
  // EMU: llvm.call @__musa_emu_barrier()
  // EMU: %[[B:.*]] = llvm.ptrtoint %[[BASEPTR]] : !llvm.ptr<1> to i64
  // EMU: llvm.store %[[B]], %{{.*}} {alignment = 8 : i64} : i64, !llvm.ptr
  // EMU: %[[N64:.*]] = llvm.sext %[[N]] : i32 to i64
  // EMU: %[[NB:.*]] = llvm.mul %[[SN]], %{{.*}} : i64
  // EMU: %[[M64:.*]] = llvm.sext %[[M]] : i32 to i64
  // EMU: %[[MB:.*]] = llvm.mul %[[SM]], %{{.*}} : i64
  // EMU: %[[ADDR:.*]] = llvm.ptrtoint %[[SLOTS]] : !llvm.ptr to i64
  // EMU: llvm.call @__musa_emu_tme_store(%{{.*}}, %[[ADDR]],
  // EMU: llvm.call @__musa_emu_tme_store_commit()
  // DEVICE: error: TME on the MUSA GPU reads host-encoded MUtensorDescriptor kernel parameters; this descriptor is not one
  tt.func public @store_desc(%d: !tt.tensordesc<tensor<16x32xf32>>, %m: i32, %n: i32, %sm: i64, %sn: i64, %v: tensor<16x32xf32, #blocked>, %i: i32) {
    %buf = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<16x32xf32, #smem, #ttg.shared_memory, mutable>
    musagpu.tme_store_wait
    ttg.local_store %v, %buf : tensor<16x32xf32, #blocked> -> !ttg.memdesc<16x32xf32, #smem, #ttg.shared_memory, mutable>
    musagpu.tme_store %buf to %d[%i, %i] box [32, 16] : !ttg.memdesc<16x32xf32, #smem, #ttg.shared_memory, mutable>, !tt.tensordesc<tensor<16x32xf32>>
    musagpu.tme_store_commit
    tt.return
  }
}
