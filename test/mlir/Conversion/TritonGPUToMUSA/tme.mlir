// musagpu TME and async-barrier ops -> llvm.musa.tme.* / llvm.musa.async.*
// on mp_31 (thread 0 issues, a store after a block barrier; every thread
// waits), and
// -> the emulator runtime's __musa_emu_tme_* / __musa_emu_async_bar_* with
// an i64 descriptor address (tme-descriptor.mlir: a !tt.tensordesc).
// mp_22 has no TME: the ops are an error there.
// RUN: musa-opt %s -split-input-file -convert-tritongpu-to-musa=arch=mp_31 -o %t.mp_31.mlir
// RUN: FileCheck %s --check-prefix=MP31 --input-file=%t.mp_31.mlir
// RUN: musa-opt %s -split-input-file -convert-tritongpu-to-musa="arch=mp_31 target=emulator" | FileCheck %s --check-prefix=EMU --implicit-check-not=llvm.musa.
// RUN: not musa-opt %s -split-input-file -convert-tritongpu-to-musa=arch=mp_22 2>&1 | FileCheck %s --check-prefix=MP22

#smem = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32, ttg.shared = 16384 : i32} {
  // A 64x128xf16 box (256 B innermost) and its barrier, from an i64
  // descriptor address (the device form).
  // MP31-LABEL: llvm.func @load_i64(
  // MP31-SAME: %[[DESC:[^:]*]]: i64, %[[X:[^:]*]]: i32, %[[Y:[^:]*]]: i32
  // MP31: llvm.call @llvm.musa.async.bar.record(%{{.*}}) {convergent, no_unwind} : (i32) -> ()
  // MP31: %[[TID:.*]] = llvm.call @llvm.musa.read.ptx.sreg.tid.x()
  // MP31: llvm.cond_br %{{.*}}, ^[[INIT:.*]], ^
  // MP31: ^[[INIT]]:
  // MP31: llvm.call @llvm.musa.async.init.arrival(%[[BAR:.*]], %[[ONE:.*]], %[[ZERO:.*]]) {convergent, no_unwind} : (i32, i32, i32) -> ()
  // MP31: llvm.call @llvm.musa.barrier0()
  // The load's own block barrier is --musa-insert-barriers' (nothing is
  // pending here).
  // MP31: llvm.call @llvm.musa.async.add.trans(%{{.*}}, %{{.*}}) {convergent, no_unwind} : (i32, i32) -> ()
  // MP31-NOT: llvm.musa.barrier0
  // MP31: llvm.call @llvm.musa.tme.ld.tile.2d(%{{.*}}, %{{.*}}, %[[DESC]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {convergent, no_unwind} : (i32, !llvm.ptr<3>, i64, vector<2xi32>, vector<2xi32>, i32, i32, i32, i32, i32, i32, i32) -> ()
  // MP31-NOT: llvm.musa.tme.ld.tile
  // MP31: llvm.call @llvm.musa.async.arrive.none.phaseid(%{{.*}}) {convergent, no_unwind} : (i32) -> ()
  // MP31: llvm.call @llvm.musa.async.wait(%{{.*}}, %{{.*}}) {convergent, no_unwind} : (i32, i32) -> ()
  // MP22: error: "ttg.threads-per-warp" = 32 does not match arch mp_22
  tt.func public @load_i64(%desc: i64, %x: i32, %y: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %bytes = arith.constant 16384 : i32
    musagpu.async_barrier_record 1
    musagpu.async_barrier_init %c1, arrive_count %c1, phase %c0
    %buf = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<64x128xf16, #smem, #ttg.shared_memory, mutable>
    musagpu.async_barrier_expect_bytes %c1, %bytes
    musagpu.tme_load %desc[%x, %y] to %buf, barrier %c1 box [128, 64] : i64, !ttg.memdesc<64x128xf16, #smem, #ttg.shared_memory, mutable>
    musagpu.async_barrier_arrive %c1
    musagpu.async_barrier_wait %c1, phase %c0
    tt.return
  }
}

// -----

#smem = #musagpu.tme_shared<{swizzleGranularity = b16, swizzleStride = b256, swizzleLine = b256, elementBitWidth = 16, order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32, ttg.shared = 16384 : i32} {
  // A 16x256xf16 box (512 B innermost) is two loads of 16x128: the second
  // at column + 128 and shared byte offset 16 * 128 * 2 = 4096; the
  // swizzle codes of b16/b256/b256 are 1, 3, 1.
  // MP31-LABEL: llvm.func @wide_box(
  // MP31-COUNT-2: llvm.call @llvm.musa.tme.ld.tile.2d
  // MP31-NOT: llvm.musa.tme.ld.tile
  // EMU-LABEL: llvm.func @wide_box(
  // EMU-SAME: %[[DESC:[^:]*]]: i64, %[[X:[^:]*]]: i32, %[[Y:[^:]*]]: i32
  // EMU: %[[BASE:.*]] = llvm.call @__musa_emu_shared_base()
  // EMU-DAG: %[[SECOND:.*]] = llvm.getelementptr %[[BASE]][4096] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
  // EMU-DAG: %[[X2:.*]] = llvm.add %[[X]], %{{.*}} : i32
  // EMU: llvm.call @__musa_emu_tme_load(%{{.*}}, %[[BASE]], %[[DESC]], {{.*}}, %[[X]], %[[Y]],
  // EMU: llvm.call @__musa_emu_tme_load(%{{.*}}, %[[SECOND]], %[[DESC]], {{.*}}, %[[X2]], %[[Y]],
  tt.func public @wide_box(%desc: i64, %x: i32, %y: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %buf = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<16x256xf16, #smem, #ttg.shared_memory, mutable>
    musagpu.tme_load %desc[%x, %y] to %buf, barrier %c1 box [256, 16] : i64, !ttg.memdesc<16x256xf16, #smem, #ttg.shared_memory, mutable>
    tt.return
  }
}

