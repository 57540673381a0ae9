// musagpu.async_copy_wait (what --musa-amortize-async-waits leaves in a
// pipelined loop): the thread's wait for all its copies, without a barrier;
// with a predicate, only where it holds: a branch around
// llvm.musa.memcpy.g2s.wait on MUSA (a runtime call on the emulator), one
// predicated cp.async.wait_all on the proxy.
// RUN: musa-opt %s --convert-tritongpu-to-musa=arch=mp_31 | FileCheck %s --check-prefix=MUSA
// RUN: musa-opt %s "--convert-tritongpu-to-musa=arch=mp_31 target=emulator" | FileCheck %s --check-prefix=EMU
// RUN: musa-opt %s "--convert-tritongpu-to-musa=arch=mp_31 target=proxy" | FileCheck %s --check-prefix=PROXY

module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31", ttg.shared = 0 : i32} {
  // MUSA-LABEL: llvm.func @waits
  // MUSA: llvm.call @llvm.musa.memcpy.g2s.wait()
  // MUSA-NEXT: llvm.cond_br %{{.*}}, ^[[THEN:.*]], ^[[JOIN:[^ ]*]]
  // MUSA: ^[[THEN]]:
  // MUSA-NEXT: llvm.call @llvm.musa.memcpy.g2s.wait()
  // MUSA-NEXT: llvm.br ^[[JOIN]]
  // The barrier is the IR's own (a ttg.local_barrier after the wait).
  // MUSA-NOT: llvm.musa.barrier0
  // EMU-LABEL: llvm.func @waits
  // EMU: llvm.call @__musa_emu_async_copy_wait()
  // EMU: llvm.cond_br
  // EMU: llvm.call @__musa_emu_async_copy_wait()
  // PROXY-LABEL: llvm.func @waits
  // PROXY: llvm.call @llvm.nvvm.cp.async.wait.all()
  // PROXY-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "@$0 cp.async.wait_all;", "b" %{{.*}} : (i1) -> !llvm.void
  // PROXY-NOT: llvm.cond_br
  tt.func public @waits(%n: i32) {
    %c0 = arith.constant 0 : i32
    %first = arith.cmpi eq, %n, %c0 : i32
    musagpu.async_copy_wait
    musagpu.async_copy_wait if %first
    tt.return
  }
}
