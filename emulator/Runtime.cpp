//===- Runtime.cpp - Fibers, blocks and the runtime functions -------------===//
//
// One worker (an OS thread) runs one block at a time. A block's GPU threads
// are fibers scheduled round-robin by the worker; a fiber runs until it
// finishes or waits at a barrier/collective, and a waiting fiber is resumed
// only once every live thread of its block (or warp) has arrived. The state
// a runtime function needs is the worker's and the fiber's, both reached
// through thread-locals (fibers never migrate between workers).
//
//===----------------------------------------------------------------------===//

#include "emulator/Runtime.h"
#include "target/EmulatorABI.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <thread>

#include <sys/mman.h>
#include <unistd.h>

#if !defined(__x86_64__)
#include <ucontext.h>
#endif

using namespace mlir::triton_musa::emulator;
namespace abi = mlir::triton_musa::emulator_abi;

namespace {

struct Worker;

/// One GPU thread.
struct Fiber {
  Worker *worker = nullptr;
  uint32_t tid = 0, lane = 0, warp = 0;
  bool done = false;
  /// What the fiber waits for: the block's or its warp's barrier generation
  /// to move past `waitGen`.
  enum class Wait { None, Block, Warp } wait = Wait::None;
  uint64_t waitGen = 0;
  /// Number of warp collectives this thread has entered (its parity picks
  /// the exchange buffer, see Warp).
  uint64_t collectives = 0;
  /// Asynchronous global->shared copies started and not yet waited for:
  /// the source bytes as read when started, written at the thread's wait.
  struct PendingCopy {
    char *dst;
    uint32_t bytes;
    std::array<char, 16> data;
  };
  std::vector<PendingCopy> pendingCopies;
  char *stackLow = nullptr;
#if defined(__x86_64__)
  void *sp = nullptr;
#else
  ucontext_t context;
#endif
};

/// The collective state of one warp. Lanes exchange values through
/// `slots[parity]`: a lane can only enter collective k+2 after every lane has
/// arrived at collective k+1, hence after every lane has read collective k's
/// values, so two buffers suffice.
struct Warp {
  uint32_t live = 0, arrived = 0;
  uint64_t gen = 0;
  std::vector<uint64_t> slots[2];
};

/// Race-check shadow of one shared-memory byte: the last store and the last
/// load, each with its block-barrier epoch, thread and warp-sync generation.
struct ShadowAccess {
  uint64_t epoch = 0; // 0: none since the block started
  uint32_t thread = 0;
  uint64_t warpGen = 0;
};
struct ShadowByte {
  ShadowAccess store, load;
};

struct Worker {
  const LaunchConfig *config = nullptr;
  EntryFn entry = nullptr;
  const uint64_t *slots = nullptr;

  std::vector<Fiber> fibers;
  std::vector<Warp> warps;
  char *stacks = nullptr;
  size_t stackBytes = 0, stacksBytes = 0;
  char *shared = nullptr;
  size_t sharedBytes = 0;
  std::vector<ShadowByte> shadow; // race-check mode only

  std::array<uint32_t, 3> blockId = {0, 0, 0};
  uint32_t live = 0, arrived = 0;
  uint64_t blockGen = 0;

  /// Set by a failing fiber; the block stops and the launch reports it.
  bool failed = false;
  std::string error;
  uint64_t instructions = 0;
  /// Last buffer an access hit (accesses come in runs on one buffer).
  size_t lastBuffer = 0;

#if defined(__x86_64__)
  void *schedulerSp = nullptr;
#else
  ucontext_t schedulerContext;
#endif

  ~Worker() {
    if (stacks)
      munmap(stacks, stacksBytes);
    if (shared)
      munmap(shared, sharedBytes);
  }
};

thread_local Worker *tlsWorker = nullptr;
thread_local Fiber *tlsFiber = nullptr;

} // namespace

//===----------------------------------------------------------------------===//
// Context switching
//===----------------------------------------------------------------------===//

#if defined(__x86_64__)
// System V x86-64: saves the callee-saved registers, MXCSR and the x87
// control word on the current stack, stores the stack pointer in *save and
// continues on `load`'s stack. A fresh fiber's stack is prepared to "return"
// into musa_emu_fiber_start with the Fiber in r12.
extern "C" void musa_emu_switch_context(void **save, void *load);
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
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
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

static void prepareFiber(Worker &w, Fiber &f) {
  auto top = reinterpret_cast<uintptr_t>(f.stackLow + w.stackBytes) & ~uintptr_t(15);
  auto *frame = reinterpret_cast<uint64_t *>(top - 80);
  uint32_t mxcsr = 0x1F80;
  uint16_t fpucw = 0x037F;
  frame[0] = uint64_t(mxcsr) | (uint64_t(fpucw) << 32);
  frame[1] = frame[2] = frame[3] = 0;                      // r15 r14 r13
  frame[4] = reinterpret_cast<uint64_t>(&f);               // r12
  frame[5] = frame[6] = 0;                                 // rbx rbp
  frame[7] = reinterpret_cast<uint64_t>(&musa_emu_fiber_start);
  f.sp = frame;
}
static void switchToFiber(Worker &w, Fiber &f) {
  musa_emu_switch_context(&w.schedulerSp, f.sp);
}
static void switchToScheduler(Worker &w, Fiber &f) {
  musa_emu_switch_context(&f.sp, w.schedulerSp);
}
#else
extern "C" void musa_emu_fiber_main(Fiber *fiber);
static void fiberEntry(unsigned lo, unsigned hi) {
  musa_emu_fiber_main(reinterpret_cast<Fiber *>(
      (static_cast<uintptr_t>(hi) << 32) | static_cast<uintptr_t>(lo)));
}
static void prepareFiber(Worker &w, Fiber &f) {
  getcontext(&f.context);
  f.context.uc_stack.ss_sp = f.stackLow;
  f.context.uc_stack.ss_size = w.stackBytes;
  f.context.uc_link = nullptr;
  auto bits = reinterpret_cast<uintptr_t>(&f);
  makecontext(&f.context, reinterpret_cast<void (*)()>(&fiberEntry), 2,
              unsigned(bits & 0xffffffffu), unsigned(bits >> 32));
}
static void switchToFiber(Worker &w, Fiber &f) {
  swapcontext(&w.schedulerContext, &f.context);
}
static void switchToScheduler(Worker &w, Fiber &f) {
  swapcontext(&f.context, &w.schedulerContext);
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
// Synchronization (called on a fiber)
//===----------------------------------------------------------------------===//

static std::string describeThread(const Worker &w, const Fiber &f) {
  return llvm::formatv("program id ({0}, {1}, {2}), thread {3} (warp {4}, "
                       "lane {5})",
                       w.blockId[0], w.blockId[1], w.blockId[2], f.tid, f.warp,
                       f.lane)
      .str();
}

/// Stops the calling GPU thread's block with `message`; never returns.
[[noreturn]] static void failThread(const std::string &message) {
  Worker &w = *tlsWorker;
  Fiber &f = *tlsFiber;
  w.failed = true;
  w.error = "kernel '" + w.config->kernelName + "', " + describeThread(w, f) +
            ": " + message;
  switchToScheduler(w, f);
  __builtin_unreachable();
}

static void blockBarrier() {
  Worker &w = *tlsWorker;
  Fiber &f = *tlsFiber;
  if (++w.arrived == w.live) {
    w.arrived = 0;
    ++w.blockGen;
    return;
  }
  f.wait = Fiber::Wait::Block;
  f.waitGen = w.blockGen;
  switchToScheduler(w, f);
}

static void warpBarrier() {
  Worker &w = *tlsWorker;
  Fiber &f = *tlsFiber;
  Warp &warp = w.warps[f.warp];
  if (++warp.arrived == warp.live) {
    warp.arrived = 0;
    ++warp.gen;
    return;
  }
  f.wait = Fiber::Wait::Warp;
  f.waitGen = warp.gen;
  switchToScheduler(w, f);
}

/// Publishes `value` to the warp, waits for every lane, and returns the
/// exchange buffer holding all lanes' values.
static const uint64_t *exchange(uint64_t value) {
  Worker &w = *tlsWorker;
  Fiber &f = *tlsFiber;
  Warp &warp = w.warps[f.warp];
  std::vector<uint64_t> &slots = warp.slots[f.collectives++ & 1];
  slots[f.lane] = value;
  warpBarrier();
  return slots.data();
}

extern "C" {

static int32_t emuThreadId(int32_t dim) {
  return dim == 0 ? int32_t(tlsFiber->tid) : 0;
}
static int32_t emuBlockId(int32_t dim) {
  return int32_t(tlsWorker->blockId[unsigned(dim) % 3]);
}
static int32_t emuNumBlocks(int32_t dim) {
  return int32_t(tlsWorker->config->grid[unsigned(dim) % 3]);
}
static void *emuSharedBase() { return tlsWorker->shared; }
static void emuBarrier() { blockBarrier(); }
static void emuWarpSync() { warpBarrier(); }

static uint64_t emuShuffle(int32_t kind, uint64_t value, int32_t offset,
                           int32_t width) {
  Fiber &f = *tlsFiber;
  uint32_t warpSize = tlsWorker->config->warpSize;
  uint32_t w = width <= 0 || uint32_t(width) > warpSize ? warpSize
                                                        : uint32_t(width);
  int64_t lane = f.lane;
  int64_t first = lane & ~int64_t(w - 1);
  int64_t last = first + w - 1;
  int64_t src = lane;
  switch (abi::ShuffleKind(kind)) {
  case abi::ShuffleKind::Xor:
    src = lane ^ int64_t(uint32_t(offset));
    break;
  case abi::ShuffleKind::Up:
    src = lane - int64_t(offset);
    break;
  case abi::ShuffleKind::Down:
    src = lane + int64_t(offset);
    break;
  case abi::ShuffleKind::Idx:
  default:
    src = first + (int64_t(uint32_t(offset)) & int64_t(w - 1));
    break;
  }
  if (src < first || src > last)
    src = lane;
  const uint64_t *values = exchange(value);
  return values[src];
}

// `pred` is an i1 in the kernel: only bit 0 is defined.
static uint64_t emuBallot(uint32_t pred, int32_t word) {
  const uint64_t *values = exchange(pred & 1);
  uint32_t warpSize = tlsWorker->config->warpSize;
  uint64_t bits = 0;
  for (uint32_t i = 0; i < 64; ++i) {
    uint32_t lane = uint32_t(word) * 64 + i;
    if (lane < warpSize && values[lane])
      bits |= uint64_t(1) << i;
  }
  return bits;
}

static void emuCheckGlobal(const void *address, uint64_t bytes, uint64_t align,
                           int32_t kind) {
  Worker &w = *tlsWorker;
  auto addr = reinterpret_cast<uint64_t>(address);
  const std::vector<Buffer> &buffers = w.config->buffers;
  auto inside = [&](const Buffer &b) {
    return addr >= b.base && addr - b.base <= b.bytes &&
           bytes <= b.bytes - (addr - b.base);
  };
  static const char *const kKinds[] = {"load", "store", "atomic"};
  const char *what = kKinds[unsigned(kind) % 3];
  if (align > 1 && addr % align != 0)
    failThread(llvm::formatv("misaligned {0} of {1} bytes at address {2:x}: "
                             "the access needs {3}-byte alignment",
                             what, bytes, addr, align));
  if (w.lastBuffer < buffers.size() && inside(buffers[w.lastBuffer]))
    return;
  for (size_t i = 0; i < buffers.size(); ++i) {
    if (inside(buffers[i])) {
      w.lastBuffer = i;
      return;
    }
  }
  // Name the nearest buffer to help find the bad index.
  std::string nearest;
  uint64_t bestDistance = ~uint64_t(0);
  for (const Buffer &b : buffers) {
    uint64_t end = b.base + b.bytes;
    uint64_t distance = addr < b.base ? b.base - addr
                        : addr >= end ? addr - end + 1
                                      : 0;
    if (distance < bestDistance) {
      bestDistance = distance;
      std::string where =
          addr < b.base
              ? llvm::formatv("{0} bytes before", b.base - addr).str()
          : addr >= end
              ? llvm::formatv("{0} bytes past the end of", addr - end).str()
              : std::string("overrunning the end of");
      nearest = llvm::formatv("; it is {0} {1} ([{2:x}, {3:x}), {4} bytes)",
                              where, b.name, b.base, end, b.bytes)
                    .str();
    }
  }
  failThread(llvm::formatv("out-of-bounds {0} of {1} bytes at address {2:x}: "
                           "outside every tensor passed to the kernel{3}",
                           what, bytes, addr, nearest));
}

static void emuCheckShared(const void *address, uint64_t bytes, uint64_t align,
                           int32_t kind) {
  Worker &w = *tlsWorker;
  auto addr = reinterpret_cast<uint64_t>(address);
  auto base = reinterpret_cast<uint64_t>(w.shared);
  uint64_t size = w.config->sharedBytes;
  static const char *const kKinds[] = {"load", "store", "atomic"};
  const char *what = kKinds[unsigned(kind) % 3];
  if (align > 1 && addr % align != 0)
    failThread(llvm::formatv("misaligned shared-memory {0} of {1} bytes at "
                             "offset {2}: the access needs {3}-byte alignment",
                             what, bytes, int64_t(addr - base), align));
  if (addr < base || addr - base > size || bytes > size - (addr - base))
    failThread(llvm::formatv("out-of-bounds shared-memory {0} of {1} bytes at "
                             "offset {2}: the kernel has {3} bytes of shared "
                             "memory (\"ttg.shared\")",
                             what, bytes, int64_t(addr - base), size));
  if (!w.config->raceCheck || abi::AccessKind(kind) == abi::AccessKind::Atomic)
    return;
  // Epochs count block barriers from 1; accesses of one epoch by two
  // threads conflict unless one of them is a load of a load, or both threads
  // are lanes of one warp separated by a warp sync.
  Fiber &f = *tlsFiber;
  uint64_t epoch = w.blockGen + 1;
  uint32_t warpSize = w.config->warpSize;
  uint64_t warpGen = w.warps[f.warp].gen;
  auto conflicts = [&](const ShadowAccess &other) {
    if (other.epoch != epoch || other.thread == f.tid)
      return false;
    bool sameWarp = other.thread / warpSize == f.warp;
    return !(sameWarp && other.warpGen != warpGen);
  };
  uint64_t offset = addr - base;
  for (uint64_t i = 0; i < bytes; ++i) {
    ShadowByte &cell = w.shadow[offset + i];
    const ShadowAccess *other = nullptr;
    const char *otherWhat = nullptr;
    if (conflicts(cell.store)) {
      other = &cell.store;
      otherWhat = "store";
    } else if (abi::AccessKind(kind) == abi::AccessKind::Store &&
               conflicts(cell.load)) {
      other = &cell.load;
      otherWhat = "load";
    }
    if (other)
      failThread(llvm::formatv(
          "shared-memory race: {0} of {1} bytes at offset {2} conflicts with "
          "a {3} of byte {4} by thread {5} (warp {6}, lane {7}) with no "
          "barrier between them",
          what, bytes, offset, otherWhat, offset + i, other->thread,
          other->thread / warpSize, other->thread % warpSize));
    ShadowAccess &mine =
        abi::AccessKind(kind) == abi::AccessKind::Store ? cell.store : cell.load;
    mine = {epoch, f.tid, warpGen};
  }
}

/// An asynchronous global->shared copy (llvm.musa.memcpy.g2s): both sides
/// are checked now, the source is read now, and shared memory is written
/// only at this thread's next wait, so a kernel that reads the buffer
/// without the wait (or its barrier) sees stale data.
static void emuAsyncCopy(void *dst, const void *src, int32_t bytes) {
  if (bytes != 4 && bytes != 8 && bytes != 16)
    failThread(llvm::formatv("asynchronous copy of {0} bytes: 4, 8 or 16 "
                             "bytes per copy",
                             bytes));
  emuCheckGlobal(src, uint64_t(bytes), uint64_t(bytes),
                 int32_t(abi::AccessKind::Load));
  emuCheckShared(dst, uint64_t(bytes), uint64_t(bytes),
                 int32_t(abi::AccessKind::Store));
  Fiber::PendingCopy copy{static_cast<char *>(dst), uint32_t(bytes), {}};
  std::memcpy(copy.data.data(), src, size_t(bytes));
  tlsFiber->pendingCopies.push_back(copy);
}

/// llvm.musa.memcpy.g2s.wait: lands the calling thread's copies, in order.
static void emuAsyncCopyWait() {
  Fiber &f = *tlsFiber;
  for (const Fiber::PendingCopy &copy : f.pendingCopies)
    std::memcpy(copy.dst, copy.data.data(), copy.bytes);
  f.pendingCopies.clear();
}

static void emuCount(uint64_t n) { tlsWorker->instructions += n; }

/// Device printf: one whole line per call, under a lock so that lines of
/// threads of blocks running in parallel do not interleave.
static int32_t emuPrintf(const char *format, ...) {
  static std::mutex printMutex;
  std::lock_guard<std::mutex> lock(printMutex);
  va_list args;
  va_start(args, format);
  int result = std::vfprintf(stdout, format, args);
  va_end(args);
  std::fflush(stdout);
  return int32_t(result);
}

/// A failed tl.device_assert: stops the block; the launch reports it.
static void emuAssertFail(const char *message, const char *file, int32_t line,
                          const char *function) {
  failThread(llvm::formatv("device assertion failed: {0} at {1}:{2} in {3}",
                           message, file, line, function)
                 .str());
}

} // extern "C"

std::vector<std::pair<const char *, void *>>
mlir::triton_musa::emulator::runtimeSymbols() {
  return {
      {abi::kThreadId.data(), reinterpret_cast<void *>(&emuThreadId)},
      {abi::kBlockId.data(), reinterpret_cast<void *>(&emuBlockId)},
      {abi::kNumBlocks.data(), reinterpret_cast<void *>(&emuNumBlocks)},
      {abi::kSharedBase.data(), reinterpret_cast<void *>(&emuSharedBase)},
      {abi::kBarrier.data(), reinterpret_cast<void *>(&emuBarrier)},
      {abi::kSharedBarrier.data(), reinterpret_cast<void *>(&emuBarrier)},
      {abi::kWarpSync.data(), reinterpret_cast<void *>(&emuWarpSync)},
      {abi::kShuffle.data(), reinterpret_cast<void *>(&emuShuffle)},
      {abi::kBallot.data(), reinterpret_cast<void *>(&emuBallot)},
      {abi::kCheckGlobal.data(), reinterpret_cast<void *>(&emuCheckGlobal)},
      {abi::kCheckShared.data(), reinterpret_cast<void *>(&emuCheckShared)},
      {abi::kCount.data(), reinterpret_cast<void *>(&emuCount)},
      {abi::kPrintf.data(), reinterpret_cast<void *>(&emuPrintf)},
      {abi::kAssertFail.data(), reinterpret_cast<void *>(&emuAssertFail)},
      {abi::kAsyncCopy.data(), reinterpret_cast<void *>(&emuAsyncCopy)},
      {abi::kAsyncCopyWait.data(),
       reinterpret_cast<void *>(&emuAsyncCopyWait)},
  };
}

//===----------------------------------------------------------------------===//
// Blocks and the grid
//===----------------------------------------------------------------------===//

static void *mapMemory(size_t bytes, bool low) {
  int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
#ifdef MAP_32BIT
  // Shared pointers are 32-bit on MUSA: a buffer below 2 GiB survives a
  // round trip through an i32.
  if (low) {
    void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, flags | MAP_32BIT,
                   -1, 0);
    if (p != MAP_FAILED)
      return p;
  }
#endif
  (void)low;
  void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, flags, -1, 0);
  return p == MAP_FAILED ? nullptr : p;
}

static llvm::Error setUpWorker(Worker &w, const LaunchConfig &config) {
  size_t page = size_t(sysconf(_SC_PAGESIZE));
  w.config = &config;
  w.stackBytes = config.stackBytes ? config.stackBytes : 256 * 1024;
  w.stackBytes = (w.stackBytes + page - 1) / page * page;
  // One guard page below each stack turns an overflow into a fault rather
  // than a silent overwrite of the neighbouring stack.
  size_t perFiber = w.stackBytes + page;
  w.stacksBytes = perFiber * config.numThreads;
  w.stacks = static_cast<char *>(mapMemory(w.stacksBytes, false));
  if (!w.stacks)
    return llvm::createStringError("cannot map %zu bytes of fiber stacks",
                                   w.stacksBytes);
  w.fibers.resize(config.numThreads);
  for (uint32_t t = 0; t < config.numThreads; ++t) {
    Fiber &f = w.fibers[t];
    f.worker = &w;
    f.tid = t;
    f.lane = t % config.warpSize;
    f.warp = t / config.warpSize;
    char *guard = w.stacks + perFiber * t;
    mprotect(guard, page, PROT_NONE);
    f.stackLow = guard + page;
  }
  uint32_t numWarps = (config.numThreads + config.warpSize - 1) / config.warpSize;
  w.warps.resize(numWarps);
  for (Warp &warp : w.warps)
    for (auto &slots : warp.slots)
      slots.assign(config.warpSize, 0);
  w.sharedBytes = std::max<size_t>(config.sharedBytes, 16);
  w.sharedBytes = (w.sharedBytes + page - 1) / page * page;
  w.shared = static_cast<char *>(mapMemory(w.sharedBytes, true));
  if (!w.shared)
    return llvm::createStringError("cannot map %zu bytes of shared memory",
                                   w.sharedBytes);
  return llvm::Error::success();
}

/// Runs one block to completion; false if a thread failed (w.error says why).
static bool runBlock(Worker &w) {
  const LaunchConfig &config = *w.config;
  for (Fiber &f : w.fibers) {
    f.done = false;
    f.wait = Fiber::Wait::None;
    f.collectives = 0;
    // Copies never waited for are dropped with their block, as their data
    // was never guaranteed to land.
    f.pendingCopies.clear();
    prepareFiber(w, f);
  }
  for (Warp &warp : w.warps) {
    warp.live = 0;
    warp.arrived = 0;
  }
  for (Fiber &f : w.fibers)
    ++w.warps[f.warp].live;
  w.live = config.numThreads;
  w.arrived = 0;
  w.blockGen = 0;
  for (Warp &warp : w.warps)
    warp.gen = 0;
  if (config.raceCheck)
    w.shadow.assign(config.sharedBytes, ShadowByte());
  tlsWorker = &w;
  while (w.live > 0) {
    bool progress = false;
    for (Fiber &f : w.fibers) {
      if (f.done)
        continue;
      if (f.wait == Fiber::Wait::Block && w.blockGen == f.waitGen)
        continue;
      if (f.wait == Fiber::Wait::Warp && w.warps[f.warp].gen == f.waitGen)
        continue;
      f.wait = Fiber::Wait::None;
      tlsFiber = &f;
      switchToFiber(w, f);
      tlsFiber = nullptr;
      progress = true;
      if (w.failed)
        return false;
      if (!f.done)
        continue;
      // A finished thread no longer holds back the barriers of the others.
      --w.live;
      Warp &warp = w.warps[f.warp];
      --warp.live;
      if (w.arrived > 0 && w.arrived == w.live) {
        w.arrived = 0;
        ++w.blockGen;
      }
      if (warp.arrived > 0 && warp.arrived == warp.live) {
        warp.arrived = 0;
        ++warp.gen;
      }
    }
    if (!progress) {
      std::string waiting;
      for (const Fiber &f : w.fibers)
        if (!f.done && waiting.size() < 200)
          waiting += llvm::formatv(" {0}({1})", f.tid,
                                   f.wait == Fiber::Wait::Block ? "block"
                                                                : "warp");
      w.failed = true;
      w.error = llvm::formatv("kernel '{0}', program id ({1}, {2}, {3}): "
                              "deadlock: threads wait at barriers that can "
                              "never complete (thread(barrier):{4})",
                              config.kernelName, w.blockId[0], w.blockId[1],
                              w.blockId[2], waiting)
                    .str();
      return false;
    }
  }
  return true;
}

llvm::Expected<LaunchStats>
mlir::triton_musa::emulator::launch(EntryFn entry,
                                    const std::vector<uint64_t> &slots,
                                    const LaunchConfig &config) {
  if (config.numThreads == 0 || config.warpSize == 0)
    return llvm::createStringError("a block needs at least one thread");
  uint64_t numBlocks =
      uint64_t(config.grid[0]) * config.grid[1] * config.grid[2];
  LaunchStats stats;
  stats.blocks = numBlocks;
  if (numBlocks == 0)
    return stats;
  unsigned workers = config.numWorkers
                         ? config.numWorkers
                         : std::max(1u, std::thread::hardware_concurrency());
  workers = unsigned(std::min<uint64_t>(workers, numBlocks));

  std::atomic<uint64_t> nextBlock{0};
  std::atomic<bool> stop{false};
  std::mutex errorMutex;
  std::string firstError;
  uint64_t firstErrorBlock = ~uint64_t(0);
  std::atomic<uint64_t> instructions{0};

  auto work = [&]() {
    Worker w;
    w.entry = entry;
    w.slots = slots.data();
    if (llvm::Error err = setUpWorker(w, config)) {
      std::lock_guard<std::mutex> lock(errorMutex);
      firstError = llvm::toString(std::move(err));
      firstErrorBlock = 0;
      stop = true;
      return;
    }
    while (!stop.load(std::memory_order_relaxed)) {
      uint64_t block = nextBlock.fetch_add(1);
      if (block >= numBlocks)
        break;
      w.blockId = {uint32_t(block % config.grid[0]),
                   uint32_t(block / config.grid[0] % config.grid[1]),
                   uint32_t(block / config.grid[0] / config.grid[1])};
      if (!runBlock(w)) {
        std::lock_guard<std::mutex> lock(errorMutex);
        // Report the lowest failing block: the same error whatever the
        // interleaving of the workers.
        if (block < firstErrorBlock) {
          firstErrorBlock = block;
          firstError = w.error;
        }
        stop = true;
        break;
      }
    }
    tlsWorker = nullptr;
    instructions += w.instructions;
  };

  if (workers == 1) {
    work();
  } else {
    std::vector<std::thread> threads;
    threads.reserve(workers - 1);
    for (unsigned i = 1; i < workers; ++i)
      threads.emplace_back(work);
    work();
    for (std::thread &t : threads)
      t.join();
  }
  if (!firstError.empty())
    return llvm::createStringError(firstError);
  stats.instructions = instructions;
  return stats;
}
