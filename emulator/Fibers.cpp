//===- Fibers.cpp - Context switching of the emulated threads -------------===//
//
// A block's GPU threads are fibers (one small stack each) that the worker
// running the block switches between by hand: the switch itself, the start
// of a fiber, and stopping a fiber's block when the thread fails.
//
//===----------------------------------------------------------------------===//

#include "emulator/RuntimeState.h"

using namespace mlir::triton_musa::emulator;
using namespace mlir::triton_musa::emulator::runtime;

//===----------------------------------------------------------------------===//
// Context switching
//===----------------------------------------------------------------------===//

#if defined(__x86_64__)
// System V x86-64: saves the callee-saved registers on the current stack,
// stores the stack pointer in *save and continues on `load`'s stack. A fresh
// fiber's stack is prepared to "return" into musa_emu_fiber_start with the
// Fiber in r12. MXCSR and the x87 control word, callee-saved too, are not
// switched (they cost three quarters of a switch): every fiber of a block
// runs with the default ones (DefaultFloatingPointControl), and nothing a
// fiber runs leaves them changed at a switch (the host math functions that
// round in another mode restore it before they return).
extern "C" void musa_emu_fiber_start();
extern "C" void musa_emu_fiber_main(Fiber *fiber);
asm(R"(
  .text
  .p2align 4
  .globl musa_emu_switch_context
  .hidden musa_emu_switch_context
  .type musa_emu_switch_context,@function
musa_emu_switch_context:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size musa_emu_switch_context, .-musa_emu_switch_context

  .p2align 4
  .globl musa_emu_fiber_start
  .hidden musa_emu_fiber_start
  .type musa_emu_fiber_start,@function
musa_emu_fiber_start:
  movq %r12, %rdi
  call musa_emu_fiber_main
  ud2
  .size musa_emu_fiber_start, .-musa_emu_fiber_start
)");

void runtime::prepareFiber(Worker &w, Fiber &f) {
  auto top = reinterpret_cast<uintptr_t>(f.stackLow + w.stackBytes) & ~uintptr_t(15);
  auto *frame = reinterpret_cast<uint64_t *>(top - 72);
  frame[0] = frame[1] = frame[2] = 0;                      // r15 r14 r13
  frame[3] = reinterpret_cast<uint64_t>(&f);               // r12
  frame[4] = frame[5] = 0;                                 // rbx rbp
  frame[6] = reinterpret_cast<uint64_t>(&musa_emu_fiber_start);
  f.sp = frame;
}
#else
extern "C" void musa_emu_fiber_main(Fiber *fiber);
static void fiberEntry(unsigned lo, unsigned hi) {
  musa_emu_fiber_main(reinterpret_cast<Fiber *>(
      (static_cast<uintptr_t>(hi) << 32) | static_cast<uintptr_t>(lo)));
}
void runtime::prepareFiber(Worker &w, Fiber &f) {
  getcontext(&f.context);
  f.context.uc_stack.ss_sp = f.stackLow;
  f.context.uc_stack.ss_size = w.stackBytes;
  f.context.uc_link = nullptr;
  auto bits = reinterpret_cast<uintptr_t>(&f);
  makecontext(&f.context, reinterpret_cast<void (*)()>(&fiberEntry), 2,
              unsigned(bits & 0xffffffffu), unsigned(bits >> 32));
}
#endif

extern "C" void musa_emu_fiber_main(Fiber *fiber) {
  Worker &w = *fiber->worker;
  w.entry(w.slots);
  fiber->done = true;
  switchToScheduler(w, *fiber);
  __builtin_unreachable();
}

//===----------------------------------------------------------------------===//
// Stopping a thread's block
//===----------------------------------------------------------------------===//

std::string runtime::describeThread(const Worker &w, const Fiber &f) {
  return llvm::formatv("program id ({0}, {1}, {2}), thread {3} (warp {4}, "
                       "lane {5})",
                       w.blockId[0], w.blockId[1], w.blockId[2], f.tid, f.warp,
                       f.lane)
      .str();
}

/// Stops the calling GPU thread's block with `message`; never returns.
void runtime::failThread(const std::string &message) {
  Worker &w = *tlsWorker;
  Fiber &f = *tlsFiber;
  w.failed = true;
  w.error = "kernel '" + w.config->kernelName + "', " + describeThread(w, f) +
            ": " + message;
  switchToScheduler(w, f);
  __builtin_unreachable();
}
