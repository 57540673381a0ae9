//===- Runtime.cpp - Fibers, blocks and the runtime functions -------------===//
//
// One worker (the launching thread, or one of a pool of threads kept
// between launches: WorkerPool) runs one block at a time. A block's GPU
// threads are fibers scheduled round-robin by the worker; a fiber runs until it
// finishes, waits at a barrier/collective, or reaches a global or
// shared-memory access that switches (__musa_emu_check_global/_shared), and
// a waiting fiber is resumed only once every live thread of its block (or
// warp) has arrived. Yielding before such an access keeps the lanes of a
// warp in lockstep there, as on SIMT hardware: every lane's earlier accesses
// happen before any lane's next one, so a lane never sees what another lane
// stores in a later statement. The instrumentation (LockstepPlan in
// Emulator.cpp) calls the checks that do not switch (kCheckGlobalNoSwitch)
// at the loads no switch can change: those with only loads since the last
// switch or block barrier. The state
// a runtime function needs is the worker's and the fiber's, both reached
// through thread-locals (fibers never migrate between workers).
//
//===----------------------------------------------------------------------===//

#include "emulator/Runtime.h"
#include "emulator/MatrixUnits.h"
#include "target/EmulatorABI.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <deque>
#include <mutex>
#include <thread>
#include <tuple>

#include <pthread.h>
#include <sched.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif
#include <sys/mman.h>
#include <unistd.h>

#if !defined(__x86_64__)
#include <ucontext.h>
#endif

using namespace mlir::triton_musa::emulator;
namespace abi = mlir::triton_musa::emulator_abi;
using mlir::musagpu::lookupFragment;
using mlir::musagpu::MatrixFragment;
using mlir::musagpu::MatrixUnitKind;
using mlir::musagpu::MmaElementKind;
using mlir::musagpu::stringifyMatrixFragment;

namespace {

struct Worker;

/// One GPU thread.
struct Fiber {
  Worker *worker = nullptr;
  uint32_t tid = 0, lane = 0, warp = 0;
  bool done = false;
  /// What the fiber waits for: the block's or its warp's barrier generation
  /// to move past `waitGen`.
  /// Or for async barrier `waitBarrier`'s phase of parity `waitGen` to
  /// complete.
  enum class Wait { None, Block, Warp, Squad, Async } wait = Wait::None;
  uint64_t waitGen = 0;
  int32_t waitBarrier = 0;
  /// Number of warp collectives this thread has entered (its parity picks
  /// the exchange buffer, see ThreadGroup).
  uint64_t collectives = 0;
  /// The same for the collectives of its squad (SQMMA).
  uint64_t squadCollectives = 0;
  /// SQMMA instructions issued and not yet waited for.
  uint32_t pendingSQMMA = 0;
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

/// The collective state of a group of threads that meet at barriers and
/// exchange values: a warp, or an SQMMA squad (4 consecutive warps). Threads
/// exchange values through `slots[parity]`: a thread can only enter
/// collective k+2 after every thread has arrived at collective k+1, hence
/// after every thread has read collective k's values, so two buffers suffice.
struct ThreadGroup {
  uint32_t live = 0, arrived = 0;
  uint64_t gen = 0;
  std::vector<uint64_t> slots[2];
  /// Values per thread in `slots[parity]` at the collective in progress
  /// (a shuffle batch has several), set by its first thread: a thread that
  /// brings another number took another path to it.
  uint32_t width[2] = {1, 1};
};
using Warp = ThreadGroup;
using Squad = ThreadGroup;

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

/// One async barrier of a block (MUSA's are integer ids 1..63, not memory).
/// A phase completes when all `count` arrivals have come and every
/// expected byte has been transferred; `phase` is the parity of the phase
/// in progress.
struct AsyncBarrier {
  bool initialized = false;
  uint32_t count = 0, pending = 0;
  int64_t bytes = 0; // expected bytes not yet transferred
  uint32_t phase = 0;
  uint64_t completed = 0; // phases completed, for messages
};

/// The memory a launch's `LaunchConfig::liveBuffers` names: looked up once,
/// on the first access outside every buffer of the launch, and shared by
/// all its workers. Buffers are sorted by base; `maxEnd[i]` is the largest
/// end among the first i+1, so a lookup walks back from the last base at or
/// below the address only while a buffer could still hold it (the list may
/// hold overlapping buffers, e.g. two storages over one allocation).
struct LiveBuffers {
  std::once_flag once;
  std::vector<Buffer> sorted;
  std::vector<uint64_t> maxEnd;
  /// Why the lookup failed, if it did (named in out-of-bounds errors).
  std::string lookupError;

  void lookUp(const LiveBufferLookup &lookup) {
    // On a thread of its own: the lookup may run Python, which must not run
    // on a fiber's stack.
    std::thread([&] {
      llvm::Expected<std::vector<Buffer>> found = lookup();
      if (!found) {
        lookupError = llvm::toString(found.takeError());
        return;
      }
      sorted = std::move(*found);
    }).join();
    llvm::erase_if(sorted, [](const Buffer &b) { return b.bytes == 0; });
    llvm::sort(sorted, [](const Buffer &a, const Buffer &b) {
      return a.base < b.base;
    });
    uint64_t end = 0;
    for (const Buffer &b : sorted)
      maxEnd.push_back(end = std::max(end, b.base + b.bytes));
  }

  /// The index of a buffer holding [addr, addr + bytes), or -1.
  int64_t find(uint64_t addr, uint64_t bytes) const {
    auto it = llvm::upper_bound(sorted, addr, [](uint64_t a, const Buffer &b) {
      return a < b.base;
    });
    for (int64_t i = int64_t(it - sorted.begin()) - 1;
         i >= 0 && maxEnd[size_t(i)] > addr; --i) {
      const Buffer &b = sorted[size_t(i)];
      if (addr - b.base <= b.bytes && bytes <= b.bytes - (addr - b.base))
        return i;
    }
    return -1;
  }
};

/// A worker's memory: the fiber stacks (a guard page below each) and the
/// block's shared memory. Mapping it, protecting the guard pages and
/// faulting the stacks in costs more than a small launch itself, so it
/// outlives its launch in a pool (see acquireMemory) and serves the next
/// launch whose threads, stack size and shared memory fit.
struct WorkerMemory {
  char *stacks = nullptr;
  size_t stackBytes = 0, stacksBytes = 0, perFiber = 0;
  uint32_t threads = 0;
  char *shared = nullptr;
  size_t sharedBytes = 0;

  WorkerMemory() = default;
  WorkerMemory(const WorkerMemory &) = delete;
  WorkerMemory &operator=(const WorkerMemory &) = delete;
  ~WorkerMemory() {
    if (stacks)
      munmap(stacks, stacksBytes);
    if (shared)
      munmap(shared, sharedBytes);
  }
};

struct Worker {
  const LaunchConfig *config = nullptr;
  LiveBuffers *liveBuffers = nullptr;
  EntryFn entry = nullptr;
  const uint64_t *slots = nullptr;

  std::vector<Fiber> fibers;
  std::vector<Warp> warps;
  std::vector<Squad> squads;
  std::unique_ptr<WorkerMemory> memory;
  size_t stackBytes = 0;
  char *shared = nullptr;
  std::vector<ShadowByte> shadow; // race-check mode only

  std::array<uint32_t, 3> blockId = {0, 0, 0};
  uint32_t live = 0, arrived = 0;
  uint64_t blockGen = 0;
  std::array<AsyncBarrier, abi::kAsyncBarrierMaxId + 1> asyncBarriers;
  int32_t recordedBarriers = 0; // async_bar_record's count, 0: none
  uint64_t tmeStores = 0, tmeCommits = 0;

  /// The stores of store batches (kStoreBatch) not yet carried out: each
  /// batch's records after its header (see emuStoreBatch).
  struct PendingBatch {
    uint32_t tid, count;
    size_t first; // its first store in pendingStores
  };
  struct PendingStore {
    char *address;
    uint32_t bytes; // 0: masked off
    alignas(16) char value[16];
  };
  std::vector<PendingBatch> pendingBatches;
  std::vector<PendingStore> pendingStores;

  /// Set by a failing fiber; the block stops and the launch reports it.
  bool failed = false;
  std::string error;
  uint64_t instructions = 0;
  /// Last buffer an access hit (accesses come in runs on one buffer).
  size_t lastBuffer = 0;
  /// Its bytes and the shared memory, for the kernel's inline checks.
  FastBounds fastBounds;
  /// The same among the live buffers.
  size_t lastLive = ~size_t(0);

#if defined(__x86_64__)
  void *schedulerSp = nullptr;
#else
  ucontext_t schedulerContext;
#endif

  ~Worker();
};

// Every runtime call reads these: the initial-exec model reaches them
// without a call to __tls_get_addr (two pointers fit in the static TLS
// space a dynamically loaded library may use).
[[gnu::tls_model("initial-exec")]] thread_local Worker *tlsWorker = nullptr;
[[gnu::tls_model("initial-exec")]] thread_local Fiber *tlsFiber = nullptr;

} // namespace

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

static void prepareFiber(Worker &w, Fiber &f) {
  auto top = reinterpret_cast<uintptr_t>(f.stackLow + w.stackBytes) & ~uintptr_t(15);
  auto *frame = reinterpret_cast<uint64_t *>(top - 72);
  frame[0] = frame[1] = frame[2] = 0;                      // r15 r14 r13
  frame[3] = reinterpret_cast<uint64_t>(&f);               // r12
  frame[4] = frame[5] = 0;                                 // rbx rbp
  frame[6] = reinterpret_cast<uint64_t>(&musa_emu_fiber_start);
  f.sp = frame;
}
static void switchToFiber(Worker &w, Fiber &f) {
  musa_emu_switch_context(&w.schedulerSp, f.sp);
}
static void switchToScheduler(Worker &w, Fiber &f) {
  musa_emu_switch_context(&f.sp, w.schedulerSp);
}
static void switchBetweenFibers(Fiber &from, Fiber &to) {
  musa_emu_switch_context(&from.sp, to.sp);
}

/// Sets MXCSR and the x87 control word to their defaults (round to nearest,
/// exceptions masked, no flush to zero) for the fibers of a block, and gives
/// the worker thread its own back: kernels compute the same whatever the
/// launching thread set (torch.set_flush_denormal sets FTZ and DAZ).
class DefaultFloatingPointControl {
public:
  DefaultFloatingPointControl() {
    asm volatile("stmxcsr %0\n\tfnstcw %1" : "=m"(mxcsr), "=m"(x87));
    uint32_t defaultMxcsr = 0x1F80;
    uint16_t defaultX87 = 0x037F;
    asm volatile("ldmxcsr %0\n\tfldcw %1" ::"m"(defaultMxcsr), "m"(defaultX87));
  }
  ~DefaultFloatingPointControl() {
    asm volatile("ldmxcsr %0\n\tfldcw %1" ::"m"(mxcsr), "m"(x87));
  }

private:
  uint32_t mxcsr = 0;
  uint16_t x87 = 0;
};
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
static void switchBetweenFibers(Fiber &from, Fiber &to) {
  swapcontext(&from.context, &to.context);
}
/// swapcontext switches the floating-point state with the rest.
struct DefaultFloatingPointControl {
  DefaultFloatingPointControl() {}
};
#endif

/// Warps per SQMMA squad.
constexpr uint32_t kSquadWarps = 4;

/// Whether the scheduler may resume `f` now.
static bool runnable(const Worker &w, const Fiber &f) {
  switch (f.wait) {
  case Fiber::Wait::None:
    return !f.done;
  case Fiber::Wait::Block:
    return w.blockGen != f.waitGen;
  case Fiber::Wait::Warp:
    return w.warps[f.warp].gen != f.waitGen;
  case Fiber::Wait::Squad:
    return w.squads[f.warp / kSquadWarps].gen != f.waitGen;
  case Fiber::Wait::Async:
    return w.asyncBarriers[f.waitBarrier].phase != f.waitGen;
  }
  return false;
}

/// Suspends `f` (its `wait` says until when) and runs the next runnable
/// fiber of the round, directly where there is one after `f`, else through
/// the scheduler (which starts the next round): the order of the
/// scheduler's round-robin, with one switch instead of two.
static void yieldToNext(Worker &w, Fiber &f) {
  for (size_t i = size_t(f.tid) + 1; i < w.fibers.size(); ++i) {
    Fiber &next = w.fibers[i];
    if (!runnable(w, next))
      continue;
    next.wait = Fiber::Wait::None;
    tlsFiber = &next;
    switchBetweenFibers(f, next);
    return;
  }
  switchToScheduler(w, f);
}

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
  yieldToNext(w, f);
}

/// Waits until every live thread of `group`, the caller's warp or squad,
/// has arrived; `kind` tells the scheduler which of the two it waits on.
static void groupBarrier(ThreadGroup &group, Fiber::Wait kind) {
  Worker &w = *tlsWorker;
  Fiber &f = *tlsFiber;
  if (++group.arrived == group.live) {
    group.arrived = 0;
    ++group.gen;
    return;
  }
  f.wait = kind;
  f.waitGen = group.gen;
  yieldToNext(w, f);
}

/// Publishes `value` at `slot` of the exchange buffer of `group`, waits for
/// every thread, and returns the buffer holding all threads' values.
/// `collectives` counts the caller's collectives in the group (its parity
/// picks the buffer).
static const uint64_t *groupExchange(ThreadGroup &group, Fiber::Wait kind,
                                     uint64_t &collectives, size_t slot,
                                     uint64_t value) {
  unsigned parity = unsigned(collectives++ & 1);
  std::vector<uint64_t> &slots = group.slots[parity];
  if (group.arrived == 0)
    group.width[parity] = 1;
  else if (group.width[parity] != 1)
    failThread(llvm::formatv(
        "lanes of warp {0} meet at different warp collectives: this lane "
        "exchanges one value where an earlier lane exchanged {1} shuffle "
        "values (the lanes diverged before a shuffle)",
        tlsFiber->warp, group.width[parity]));
  // A lane's slot is its lane (no 64-bit division on every shuffle).
  slots[slot < slots.size() ? slot : slot % slots.size()] = value;
  groupBarrier(group, kind);
  return slots.data();
}

static void warpBarrier() {
  groupBarrier(tlsWorker->warps[tlsFiber->warp], Fiber::Wait::Warp);
}

/// Publishes `value` to the warp, waits for every lane, and returns the
/// exchange buffer holding all lanes' values.
static const uint64_t *exchange(uint64_t value) {
  Fiber &f = *tlsFiber;
  return groupExchange(tlsWorker->warps[f.warp], Fiber::Wait::Warp,
                       f.collectives, f.lane, value);
}

static void squadBarrier() {
  groupBarrier(tlsWorker->squads[tlsFiber->warp / kSquadWarps],
               Fiber::Wait::Squad);
}

/// As exchange, among the threads of the caller's squad, indexed by the
/// thread's position in the squad.
static const uint64_t *squadExchange(uint64_t value) {
  Fiber &f = *tlsFiber;
  return groupExchange(tlsWorker->squads[f.warp / kSquadWarps],
                       Fiber::Wait::Squad, f.squadCollectives, f.tid, value);
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
static FastBounds *emuFastBounds() { return &tlsWorker->fastBounds; }
static void emuBarrier() { blockBarrier(); }
static void emuWarpSync() { warpBarrier(); }

/// The lane whose value lane `lane` reads in a shuffle.
static uint32_t shuffleSource(uint32_t lane, uint32_t warpSize, int32_t kind,
                              int32_t offset, int32_t width) {
  uint32_t w = width <= 0 || uint32_t(width) > warpSize ? warpSize
                                                        : uint32_t(width);
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
  return uint32_t(src);
}

static uint64_t emuShuffle(int32_t kind, uint64_t value, int32_t offset,
                           int32_t width) {
  Fiber &f = *tlsFiber;
  uint32_t src = shuffleSource(f.lane, tlsWorker->config->warpSize, kind,
                               offset, width);
  const uint64_t *values = exchange(value);
  return values[src];
}

/// kShuffleBatch: `count` shuffles in one exchange, lane l's value i at
/// slot l * count + i (a lane writes and reads whole rows); `uniform`: every
/// shuffle has the operands `ops[0..2]`.
static void shuffleBatch(int32_t count, const int32_t *ops, bool uniform,
                         uint64_t *values) {
  Worker &w = *tlsWorker;
  Fiber &f = *tlsFiber;
  Warp &warp = w.warps[f.warp];
  uint32_t warpSize = w.config->warpSize;
  unsigned parity = unsigned(f.collectives++ & 1);
  std::vector<uint64_t> &slots = warp.slots[parity];
  auto n = uint32_t(count);
  // No thread reads this buffer now (see ThreadGroup), so it may grow.
  if (slots.size() < size_t(n) * warpSize)
    slots.resize(size_t(n) * warpSize);
  if (warp.arrived == 0)
    warp.width[parity] = n;
  else if (warp.width[parity] != n)
    failThread(llvm::formatv(
        "lanes of warp {0} meet at different warp collectives: this lane "
        "exchanges {1} shuffle value(s) where an earlier lane exchanged {2} "
        "(the lanes diverged before a shuffle)",
        f.warp, n, warp.width[parity]));
  std::memcpy(slots.data() + size_t(f.lane) * n, values, size_t(n) * 8);
  groupBarrier(warp, Fiber::Wait::Warp);
  const uint64_t *all = slots.data();
  // The shuffles of a run mostly share their operands: the source lane
  // changes only where they do (with one source, the row is copied whole).
  if (uniform) {
    uint32_t from = shuffleSource(f.lane, warpSize, ops[0], ops[1], ops[2]);
    std::memcpy(values, all + size_t(from) * n, size_t(n) * 8);
    return;
  }
  const int32_t *last = nullptr;
  uint32_t src = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const int32_t *op = ops + 3 * i;
    if (!last || op[0] != last[0] || op[1] != last[1] || op[2] != last[2]) {
      src = shuffleSource(f.lane, warpSize, op[0], op[1], op[2]);
      last = op;
    }
    values[i] = all[size_t(src) * n + i];
  }
}

static void emuShuffleBatch(int32_t count, const int32_t *ops,
                            uint64_t *values) {
  shuffleBatch(count, ops, false, values);
}

static void emuShuffleBatchUniform(int32_t count, int32_t kind,
                                   int32_t offset, int32_t width,
                                   uint64_t *values) {
  int32_t ops[] = {kind, offset, width};
  shuffleBatch(count, ops, true, values);
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

/// Called before each global or shared access: lets every other runnable
/// thread of the block reach its own next access first (see the top).
static void lockstepYield() {
  Worker &w = *tlsWorker;
  Fiber &f = *tlsFiber;
  f.wait = Fiber::Wait::None;
  yieldToNext(w, f);
}

/// Whether `addr` is a multiple of `align`, which is a power of two (or 0
/// or 1: any address).
static bool isAligned(uint64_t addr, uint64_t align) {
  return align <= 1 || ((align & (align - 1)) == 0 ? (addr & (align - 1)) == 0
                                                   : addr % align == 0);
}

/// The whole check of a global access, errors and margins included:
/// checkGlobal calls it for every access the fast path there does not pass.
[[gnu::noinline, gnu::cold]] static void
checkGlobalSlow(const void *address, uint64_t bytes, uint64_t align,
                int32_t kind) {
  Worker &w = *tlsWorker;
  bool loadedPointer = kind & kLoadedPointerAccess;
  kind &= ~kLoadedPointerAccess;
  auto addr = reinterpret_cast<uint64_t>(address);
  const std::vector<Buffer> &buffers = w.config->buffers;
  auto inside = [&](const Buffer &b) {
    return addr >= b.base && addr - b.base <= b.bytes &&
           bytes <= b.bytes - (addr - b.base);
  };
  static const char *const kKinds[] = {"load", "store", "atomic"};
  const char *what = kKinds[unsigned(kind) % 3];
  if (!isAligned(addr, align))
    failThread(llvm::formatv("misaligned {0} of {1} bytes at address {2:x}: "
                             "the access needs {3}-byte alignment",
                             what, bytes, addr, align));
  if (w.lastBuffer < buffers.size() && inside(buffers[w.lastBuffer]))
    return;
  // With TRITON_MUSA_EMULATOR_BOUNDS=warn the launcher runs the kernel on
  // copies of its tensors with a margin around each (listed after all the
  // tensors, under this prefix) and a report buffer: an access that lands
  // in a margin is counted there, the first one described, and carried out
  // on the margin; the launcher turns the report into a Python warning.
  static constexpr llvm::StringLiteral kMarginPrefix =
      "out-of-bounds margin of ";
  static constexpr llvm::StringLiteral kReportName =
      "out-of-bounds report";
  for (size_t i = 0; i < buffers.size(); ++i) {
    if (buffers[i].name == kReportName || !inside(buffers[i]))
      continue;
    if (!llvm::StringRef(buffers[i].name).starts_with(kMarginPrefix)) {
      w.lastBuffer = i;
      w.fastBounds.globalLo = buffers[i].base;
      w.fastBounds.globalHi = buffers[i].base + buffers[i].bytes;
      return;
    }
    for (const Buffer &report : buffers) {
      if (report.name != kReportName || report.bytes < 4 * sizeof(uint64_t))
        continue;
      // [count, kind, bytes, address] of the first access in a margin.
      auto *slots = reinterpret_cast<uint64_t *>(report.base);
      if (__atomic_fetch_add(&slots[0], 1, __ATOMIC_RELAXED) == 0) {
        slots[1] = uint64_t(kind);
        slots[2] = bytes;
        slots[3] = addr;
      }
      return;
    }
    break; // a margin without a report: fail as without margins
  }
  // Not a buffer of the launch: maybe a live one (a pointer the kernel
  // loaded from memory), looked up once per launch.
  std::string notLive;
  if (loadedPointer && w.config->liveBuffers) {
    LiveBuffers &live = *w.liveBuffers;
    std::call_once(live.once, [&] { live.lookUp(w.config->liveBuffers); });
    if (w.lastLive < live.sorted.size() && inside(live.sorted[w.lastLive]))
      return;
    int64_t found = live.find(addr, bytes);
    if (found >= 0) {
      w.lastLive = size_t(found);
      return;
    }
    notLive = live.lookupError.empty()
                  ? std::string("; nor is it inside any live torch CPU tensor")
                  : "; the lookup of the live torch CPU tensors failed: " +
                        live.lookupError;
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
                           "outside every tensor passed to the kernel{3}{4}",
                           what, bytes, addr, nearest, notLive));
}

/// A global access: aligned and inside the buffer the last access hit is
/// valid (the common case, checked inline); anything else gets the whole
/// check.
static void checkGlobal(const void *address, uint64_t bytes, uint64_t align,
                        int32_t kind) {
  Worker &w = *tlsWorker;
  auto addr = reinterpret_cast<uint64_t>(address);
  const std::vector<Buffer> &buffers = w.config->buffers;
  if (w.lastBuffer < buffers.size() && isAligned(addr, align)) {
    const Buffer &b = buffers[w.lastBuffer];
    if (addr >= b.base && addr - b.base <= b.bytes &&
        bytes <= b.bytes - (addr - b.base))
      return;
  }
  checkGlobalSlow(address, bytes, align, kind);
}

[[gnu::noinline, gnu::cold]] static void
checkSharedSlow(const void *address, uint64_t bytes, uint64_t align,
                int32_t kind) {
  Worker &w = *tlsWorker;
  auto addr = reinterpret_cast<uint64_t>(address);
  auto base = reinterpret_cast<uint64_t>(w.shared);
  uint64_t size = w.config->sharedBytes;
  static const char *const kKinds[] = {"load", "store", "atomic"};
  const char *what = kKinds[unsigned(kind) % 3];
  if (!isAligned(addr, align))
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

/// A shared-memory access: aligned and inside the kernel's shared memory,
/// with no race check to run, is valid (checked inline); anything else gets
/// the whole check.
static void checkShared(const void *address, uint64_t bytes, uint64_t align,
                        int32_t kind) {
  Worker &w = *tlsWorker;
  auto addr = reinterpret_cast<uint64_t>(address);
  auto base = reinterpret_cast<uint64_t>(w.shared);
  uint64_t size = w.config->sharedBytes;
  if (!w.config->raceCheck && isAligned(addr, align) && addr >= base &&
      addr - base <= size && bytes <= size - (addr - base))
    return;
  checkSharedSlow(address, bytes, align, kind);
}

/// The checks the kernel calls before each of its own loads, stores and
/// atomics: in lockstep (lockstepYield), then checked.
static void emuCheckGlobal(const void *address, uint64_t bytes, uint64_t align,
                           int32_t kind) {
  lockstepYield();
  checkGlobal(address, bytes, align, kind);
}

static void emuCheckShared(const void *address, uint64_t bytes, uint64_t align,
                           int32_t kind) {
  lockstepYield();
  checkShared(address, bytes, align, kind);
}

/// Carries out the pending store batches, statement by statement (store i
/// of every batch, in thread order, before store i + 1 of any), which for
/// converged lanes is the order of one turn per store.
static void flushPendingStores(Worker &w) {
  if (w.pendingBatches.empty())
    return;
  auto byThread = [](const Worker::PendingBatch &a,
                     const Worker::PendingBatch &b) { return a.tid < b.tid; };
  if (!std::is_sorted(w.pendingBatches.begin(), w.pendingBatches.end(),
                      byThread))
    std::stable_sort(w.pendingBatches.begin(), w.pendingBatches.end(),
                     byThread);
  uint32_t most = 0;
  for (const Worker::PendingBatch &batch : w.pendingBatches)
    most = std::max(most, batch.count);
  for (uint32_t i = 0; i < most; ++i)
    for (const Worker::PendingBatch &batch : w.pendingBatches) {
      if (i >= batch.count)
        continue;
      const Worker::PendingStore &store = w.pendingStores[batch.first + i];
      std::memcpy(store.address, store.value, store.bytes);
    }
  w.pendingBatches.clear();
  w.pendingStores.clear();
}

/// kStoreBatch: `count` stores of the calling thread in one turn. They are
/// checked and logged, the thread yields (every converged lane logs its
/// own meanwhile), and the first logging thread to resume carries out every
/// logged store in statement order. A thread that logged is suspended until
/// then, so its stores take effect before it does anything else; another
/// thread that runs meanwhile is not converged with it (it would be logging
/// at the same batch) and may see the stores before or after, as with any
/// order of unsynchronized threads. The race check keeps one turn per store,
/// so that it records each access as it happens.
static void emuStoreBatch(int32_t count, const StoreBatchInfo *info,
                          const StoreBatchRecord *records) {
  Worker &w = *tlsWorker;
  auto n = uint32_t(count);
  auto check = [&](uint32_t i) {
    void *address = reinterpret_cast<void *>(records[i].address);
    if (info[i].shared)
      checkShared(address, info[i].bytes, info[i].align, info[i].kind);
    else
      checkGlobal(address, info[i].bytes, info[i].align, info[i].kind);
  };
  if (w.config->raceCheck) {
    for (uint32_t i = 0; i < n; ++i) {
      if (!records[i].enabled)
        continue;
      lockstepYield();
      check(i);
      std::memcpy(reinterpret_cast<char *>(records[i].address),
                  records[i].value, info[i].bytes);
    }
    // The turn the next access would have taken (the batch ends clean).
    lockstepYield();
    return;
  }
  for (uint32_t i = 0; i < n; ++i)
    if (records[i].enabled)
      check(i);
  w.pendingBatches.push_back({tlsFiber->tid, n, w.pendingStores.size()});
  for (uint32_t i = 0; i < n; ++i) {
    Worker::PendingStore store;
    store.address = reinterpret_cast<char *>(records[i].address);
    store.bytes = records[i].enabled ? info[i].bytes : 0;
    std::memcpy(store.value, records[i].value, sizeof(store.value));
    w.pendingStores.push_back(store);
  }
  lockstepYield();
  flushPendingStores(w);
}

/// An asynchronous global->shared copy (llvm.musa.memcpy.g2s): both sides
/// are checked now, the source is read now, and shared memory is written
/// only at this thread's next wait, so a kernel that reads the buffer
/// without the wait (or its barrier) sees stale data.
/// A g2s copy moves 4, 8 or 16 bytes.
static void checkAsyncCopySize(int32_t bytes) {
  if (bytes != 4 && bytes != 8 && bytes != 16)
    failThread(llvm::formatv("asynchronous copy of {0} bytes: 4, 8 or 16 "
                             "bytes per copy",
                             bytes));
}

static void asyncCopy(void *dst, const void *src, int32_t bytes,
                      int32_t loadedPointer) {
  checkAsyncCopySize(bytes);
  checkGlobal(src, uint64_t(bytes), uint64_t(bytes),
              int32_t(abi::AccessKind::Load) | loadedPointer);
  checkShared(dst, uint64_t(bytes), uint64_t(bytes),
                 int32_t(abi::AccessKind::Store));
  Fiber::PendingCopy copy{static_cast<char *>(dst), uint32_t(bytes), {}};
  std::memcpy(copy.data.data(), src, size_t(bytes));
  tlsFiber->pendingCopies.push_back(copy);
}

static void emuAsyncCopy(void *dst, const void *src, int32_t bytes) {
  asyncCopy(dst, src, bytes, 0);
}
static void emuAsyncCopyLoadedSrc(void *dst, const void *src, int32_t bytes) {
  asyncCopy(dst, src, bytes, kLoadedPointerAccess);
}

/// A masked copy: the copy where `pred` holds; elsewhere what MUSA's lowering
/// does instead, a plain shared store of zeros now (in lockstep and checked
/// as the instrumented store would be), the source not read.
static void asyncCopyOrZero(void *dst, const void *src, int32_t bytes,
                            int32_t pred, int32_t loadedPointer) {
  if (pred) {
    asyncCopy(dst, src, bytes, loadedPointer);
    return;
  }
  checkAsyncCopySize(bytes);
  lockstepYield();
  checkShared(dst, uint64_t(bytes), uint64_t(bytes),
              int32_t(abi::AccessKind::Store));
  std::memset(dst, 0, size_t(bytes));
}

static void emuAsyncCopyOrZero(void *dst, const void *src, int32_t bytes,
                               int32_t pred) {
  asyncCopyOrZero(dst, src, bytes, pred, 0);
}
static void emuAsyncCopyOrZeroLoadedSrc(void *dst, const void *src,
                                        int32_t bytes, int32_t pred) {
  asyncCopyOrZero(dst, src, bytes, pred, kLoadedPointerAccess);
}

/// llvm.musa.memcpy.g2s.wait: lands the calling thread's copies, in order.
static void emuAsyncCopyWait() {
  Fiber &f = *tlsFiber;
  for (const Fiber::PendingCopy &copy : f.pendingCopies)
    std::memcpy(copy.dst, copy.data.data(), copy.bytes);
  f.pendingCopies.clear();
}

static void emuCount(uint64_t n) { tlsWorker->instructions += n; }

//===----------------------------------------------------------------------===//
// Async barriers and the tensor memory engine
//===----------------------------------------------------------------------===//

static std::string describeAsyncBarrier(int32_t id, const AsyncBarrier &bar) {
  return llvm::formatv("async barrier {0} (phase parity {1} in progress, "
                       "{2} of {3} arrivals pending, {4} expected bytes not "
                       "transferred, {5} phases completed)",
                       id, bar.phase, bar.pending, bar.count, bar.bytes,
                       bar.completed)
      .str();
}

/// The barrier `id`, which must be in range and, unless `forInit`,
/// initialized.
static AsyncBarrier &getAsyncBarrier(int32_t id, const char *what,
                                     bool forInit = false) {
  Worker &w = *tlsWorker;
  if (id < 1 || id > abi::kAsyncBarrierMaxId)
    failThread(llvm::formatv("{0}: async barrier id {1} is outside 1..{2}",
                             what, id, abi::kAsyncBarrierMaxId));
  if (w.recordedBarriers && id > w.recordedBarriers)
    failThread(llvm::formatv("{0}: async barrier {1} is above the {2} ids "
                             "the kernel recorded (async.bar.record)",
                             what, id, w.recordedBarriers));
  AsyncBarrier &bar = w.asyncBarriers[id];
  if (!forInit && !bar.initialized)
    failThread(llvm::formatv("{0}: async barrier {1} is not initialized "
                             "(async.init.arrival)",
                             what, id));
  return bar;
}

/// Completes the barrier's phase once nothing is pending.
static void advanceAsyncBarrier(AsyncBarrier &bar) {
  if (bar.pending != 0 || bar.bytes != 0)
    return;
  bar.phase ^= 1;
  bar.pending = bar.count;
  ++bar.completed;
}

static void emuAsyncBarRecord(int32_t count) {
  if (count < 1 || count > abi::kAsyncBarrierMaxId)
    failThread(llvm::formatv("async.bar.record: count {0} is outside 1..{1}",
                             count, abi::kAsyncBarrierMaxId));
  tlsWorker->recordedBarriers = count;
}

static void emuAsyncBarInit(int32_t id, int32_t count, int32_t phase) {
  AsyncBarrier &bar = getAsyncBarrier(id, "async.init.arrival", true);
  if (count <= 0)
    failThread(llvm::formatv("async.init.arrival: arrival count {0} of async "
                             "barrier {1} is not positive",
                             count, id));
  if (phase != 0 && phase != 1)
    failThread(llvm::formatv("async.init.arrival: phase {0} of async barrier "
                             "{1} is not 0 or 1",
                             phase, id));
  bar = AsyncBarrier();
  bar.initialized = true;
  bar.count = bar.pending = uint32_t(count);
  bar.phase = uint32_t(phase);
}

static void emuAsyncBarAddTrans(int32_t id, int32_t bytes) {
  AsyncBarrier &bar = getAsyncBarrier(id, "async.add.trans");
  if (bytes <= 0)
    failThread(llvm::formatv("async.add.trans: {0} bytes on async barrier {1}",
                             bytes, id));
  bar.bytes += bytes;
}

static void emuAsyncBarArrive(int32_t id) {
  AsyncBarrier &bar = getAsyncBarrier(id, "async.arrive");
  if (bar.pending == 0)
    failThread("async.arrive: more arrivals than the count on " +
               describeAsyncBarrier(id, bar));
  --bar.pending;
  advanceAsyncBarrier(bar);
}

static void emuAsyncBarWait(int32_t id, int32_t phase) {
  Worker &w = *tlsWorker;
  Fiber &f = *tlsFiber;
  AsyncBarrier &bar = getAsyncBarrier(id, "async.wait");
  if (phase != 0 && phase != 1)
    failThread(llvm::formatv("async.wait: phase {0} on async barrier {1} is "
                             "not 0 or 1",
                             phase, id));
  // The phase of parity `phase` has completed once the one in progress has
  // the other parity.
  if (bar.phase != uint32_t(phase))
    return;
  f.wait = Fiber::Wait::Async;
  f.waitBarrier = id;
  f.waitGen = uint64_t(phase);
  yieldToNext(w, f);
}

/// The emulator's TME descriptor at `address` (see EmulatorABI.h).
static const int64_t *getTMEDescriptor(uint64_t address, const char *what) {
  auto *desc = reinterpret_cast<const int64_t *>(address);
  if (!desc || address % 8 != 0 || desc[abi::kTMEDescMagic] !=
                                       abi::kTMEDescriptorMagic)
    failThread(llvm::formatv("{0}: {1:x} is not the address of a TME "
                             "descriptor",
                             what, address));
  return desc;
}

/// Byte offset `a` from the start of shared memory after the TME swizzle
/// with the hardware codes `sg`, `ss`, `sl` (MUSA-FACTS.md: the G-byte
/// granule index within each S-byte span XOR the L-byte line index mod S/G).
static uint64_t swizzleSharedOffset(uint64_t a, int32_t sg, int32_t ss,
                                    int32_t sl) {
  if (sg == 0)
    return a;
  uint64_t granule = uint64_t(8) << sg, stride = uint64_t(32) << ss,
           line = uint64_t(128) << sl;
  return a ^ (((a / line) % (stride / granule)) * granule);
}

/// Calls `run(globalAddress or 0 when out of bounds, sharedOffset, bytes,
/// elemBytes)` for every element of the box, merged into runs where the box
/// allows: a row's in-bounds elements, contiguous in global memory (an
/// innermost stride of one element), come in pieces contiguous in shared
/// memory too (one swizzle granule at most); out-of-bounds elements come
/// one by one.
static void forEachBoxRun(
    const char *what, const int64_t *desc, char *smem, int32_t rank,
    const int32_t *box, const int32_t *coords, int32_t sg, int32_t ss,
    int32_t sl,
    llvm::function_ref<void(uint64_t, uint64_t, int64_t, int64_t)> run) {
  Worker &w = *tlsWorker;
  if (rank < 1 || rank > abi::kTMEMaxRank || rank != desc[abi::kTMEDescRank])
    failThread(llvm::formatv("{0}: a rank-{1} box on a rank-{2} descriptor",
                             what, rank, desc[abi::kTMEDescRank]));
  if (sg < 0 || sg > 4 || ss < 0 || ss > 3 || sl < 0 || sl > 1)
    failThread(llvm::formatv("{0}: invalid swizzle codes ({1}, {2}, {3})",
                             what, sg, ss, sl));
  int64_t elemBytes = desc[abi::kTMEDescElementBytes];
  int64_t total = 1;
  for (int32_t d = 0; d < rank; ++d) {
    if (box[d] <= 0)
      failThread(llvm::formatv("{0}: box dimension {1} is {2}", what, d,
                               box[d]));
    total *= box[d];
  }
  uint64_t start = uint64_t(smem - w.shared);
  if (smem < w.shared || start + uint64_t(total * elemBytes) >
                             uint64_t(w.config->sharedBytes))
    failThread(llvm::formatv("{0}: the box of {1} bytes at shared offset {2} "
                             "overruns the kernel's {3} bytes of shared "
                             "memory",
                             what, total * elemBytes, int64_t(start),
                             w.config->sharedBytes));
  // Shared bytes stay contiguous under the swizzle within a granule.
  uint64_t granule = sg == 0 ? ~uint64_t(0) : uint64_t(8) << sg;
  bool contiguousRows = desc[abi::kTMEDescStrides] == elemBytes;
  int32_t index[abi::kTMEMaxRank] = {0, 0, 0, 0, 0};
  for (int64_t linear = 0; linear < total; linear += box[0]) {
    // The row of box indices `index` (index[0] == 0).
    bool rowInBounds = true;
    int64_t rowOffset = 0;
    for (int32_t d = 1; d < rank; ++d) {
      int64_t g = int64_t(coords[d]) + index[d];
      rowInBounds &= g >= 0 && g < desc[abi::kTMEDescDims + d];
      rowOffset += g * desc[abi::kTMEDescStrides + d];
    }
    int64_t dim0 = desc[abi::kTMEDescDims], stride0 = desc[abi::kTMEDescStrides];
    for (int64_t i = 0; i < box[0];) {
      int64_t g = int64_t(coords[0]) + i;
      uint64_t shared = start + uint64_t(linear + i) * uint64_t(elemBytes);
      if (!rowInBounds || g < 0 || g >= dim0) {
        run(0, swizzleSharedOffset(shared, sg, ss, sl), elemBytes, elemBytes);
        ++i;
        continue;
      }
      // In bounds: as many elements as stay contiguous on both sides.
      int64_t count = 1;
      if (contiguousRows) {
        uint64_t granuleEnd =
            granule == ~uint64_t(0) ? ~uint64_t(0)
                                    : (shared / granule + 1) * granule;
        int64_t limit = std::min<int64_t>(box[0] - i, dim0 - g);
        uint64_t inGranule = (granuleEnd - shared) / uint64_t(elemBytes);
        count = std::max<int64_t>(
            1, inGranule < uint64_t(limit) ? int64_t(inGranule) : limit);
      }
      uint64_t global =
          uint64_t(desc[abi::kTMEDescBase] + rowOffset + g * stride0);
      run(global, swizzleSharedOffset(shared, sg, ss, sl), count * elemBytes,
          elemBytes);
      i += count;
    }
    for (int32_t d = 1; d < rank && ++index[d] == box[d]; ++d)
      index[d] = 0;
  }
}

/// checkGlobal for `bytes` at `global`, a run of elements of `elemBytes`:
/// at once where the run lies inside one argument tensor, element by
/// element otherwise (so that errors, margins and live tensors are the
/// same as for single elements). A TME run may be inside any live tensor:
/// a descriptor made in the kernel may take its base from memory (one that
/// fill_2d_tma_descriptor wrote, an int64 tensor of data_ptr()s), as a
/// loaded pointer does.
static void checkGlobalRun(uint64_t global, int64_t bytes, int64_t elemBytes,
                           abi::AccessKind kind) {
  Worker &w = *tlsWorker;
  const std::vector<Buffer> &buffers = w.config->buffers;
  if (bytes > elemBytes && global % uint64_t(elemBytes) == 0 &&
      w.lastBuffer < buffers.size()) {
    const Buffer &b = buffers[w.lastBuffer];
    if (global >= b.base && global - b.base <= b.bytes &&
        uint64_t(bytes) <= b.bytes - (global - b.base))
      return;
  }
  for (int64_t at = 0; at < bytes; at += elemBytes)
    checkGlobal(reinterpret_cast<void *>(global + uint64_t(at)),
                uint64_t(elemBytes), uint64_t(elemBytes),
                int32_t(kind) | kLoadedPointerAccess);
}

/// A TME tile load, done at once; its bytes count on the barrier.
static void emuTMELoad(int32_t barId, char *smem, uint64_t descAddress,
                       int32_t rank, int32_t b0, int32_t b1, int32_t b2,
                       int32_t b3, int32_t b4, int32_t c0, int32_t c1,
                       int32_t c2, int32_t c3, int32_t c4, int32_t sg,
                       int32_t ss, int32_t sl) {
  Worker &w = *tlsWorker;
  const char *what = "tme.ld.tile";
  AsyncBarrier &bar = getAsyncBarrier(barId, what);
  const int64_t *desc = getTMEDescriptor(descAddress, what);
  int32_t box[] = {b0, b1, b2, b3, b4}, coords[] = {c0, c1, c2, c3, c4};
  bool padNaN = desc[abi::kTMEDescPadNaN] != 0;
  int64_t bytes = 0;
  forEachBoxRun(
      what, desc, smem, rank, box, coords, sg, ss, sl,
      [&](uint64_t global, uint64_t shared, int64_t runBytes,
          int64_t elemBytes) {
        char *dst = w.shared + shared;
        bytes += runBytes;
        if (global) {
          checkGlobalRun(global, runBytes, elemBytes, abi::AccessKind::Load);
          std::memcpy(dst, reinterpret_cast<const void *>(global),
                      size_t(runBytes));
        } else if (padNaN && elemBytes == 2) {
          uint16_t nan = 0x7E00; // fp16 quiet NaN (bf16 has none here)
          std::memcpy(dst, &nan, 2);
        } else if (padNaN && elemBytes == 4) {
          uint32_t nan = 0x7FC00000;
          std::memcpy(dst, &nan, 4);
        } else if (padNaN && elemBytes == 8) {
          uint64_t nan = 0x7FF8000000000000ull;
          std::memcpy(dst, &nan, 8);
        } else {
          std::memset(dst, 0, size_t(elemBytes));
        }
      });
  if (bytes > bar.bytes)
    failThread(llvm::formatv("{0}: the load moves {1} bytes but only {2} are "
                             "expected on {3}",
                             what, bytes, bar.bytes,
                             describeAsyncBarrier(barId, bar)));
  bar.bytes -= bytes;
  advanceAsyncBarrier(bar);
}

/// A TME tile store, done at once: in-bounds elements only.
static void emuTMEStore(char *smem, uint64_t descAddress, int32_t rank,
                        int32_t b0, int32_t b1, int32_t b2, int32_t b3,
                        int32_t b4, int32_t c0, int32_t c1, int32_t c2,
                        int32_t c3, int32_t c4, int32_t sg, int32_t ss,
                        int32_t sl) {
  Worker &w = *tlsWorker;
  const char *what = "tme.st";
  const int64_t *desc = getTMEDescriptor(descAddress, what);
  int32_t box[] = {b0, b1, b2, b3, b4}, coords[] = {c0, c1, c2, c3, c4};
  forEachBoxRun(what, desc, smem, rank, box, coords, sg, ss, sl,
                [&](uint64_t global, uint64_t shared, int64_t runBytes,
                    int64_t elemBytes) {
                  if (!global)
                    return;
                  checkGlobalRun(global, runBytes, elemBytes,
                                 abi::AccessKind::Store);
                  std::memcpy(reinterpret_cast<void *>(global),
                              w.shared + shared, size_t(runBytes));
                });
  ++w.tmeStores;
}

static void emuTMEStoreCommit() { tlsWorker->tmeCommits = tlsWorker->tmeStores; }
static void emuTMEStoreReadWait() {}

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

// One WMMA atom of the calling warp (EmulatorABI.h): every lane publishes
// where its fragments and accumulators are; the first lane to resume
// decodes the warp's A and B once into dense tiles and computes every lane's
// accumulators (each operand value was decoded once per lane that reads it:
// 32 times an atom on QY2's 128-lane warps); all leave only when the atom
// is done.
static void emuWmma(int32_t kind, int32_t m, int32_t n, int32_t k,
                    const uint16_t *a, const uint16_t *b, float *acc) {
  Worker &w = *tlsWorker;
  uint32_t warpSize = w.config->warpSize;
  // The catalogue names the fragment of the instruction; the owner tables
  // are the emulator's own (MatrixUnits.cpp).
  MatrixFragment fragment =
      m > 0 && n > 0 && k > 0
          ? lookupFragment(MatrixUnitKind::WMMA, warpSize, uint32_t(m),
                           uint32_t(n), uint32_t(k))
          : MatrixFragment::None;
  const WMMAAtomLayout *atom =
      lookupWMMAAtom(fragment, uint32_t(m), uint32_t(n), uint32_t(k));
  if (!atom)
    failThread(llvm::formatv("no WMMA atom m{0}n{1}k{2} on {3}-thread warps "
                             "(fragment {4})",
                             m, n, k, warpSize,
                             stringifyMatrixFragment(fragment))
                   .str());
  if (kind != abi::toABI(MmaElementKind::F16) &&
      kind != abi::toABI(MmaElementKind::BF16))
    failThread(llvm::formatv("WMMA operand kind {0} is not emulated", kind).str());
  bool bf16 = kind == abi::toABI(MmaElementKind::BF16);
  // On the lanes' stacks until the final barrier; a block's fibers take
  // turns on one thread, so the first lane's flag needs no lock.
  struct Fragments {
    const uint16_t *a, *b;
    float *acc;
    bool computed;
  } mine{a, b, acc, false};
  const uint64_t *published = exchange(reinterpret_cast<uint64_t>(&mine));
  auto lane = [&](uint32_t l) {
    return reinterpret_cast<Fragments *>(published[l]);
  };
  if (!lane(0)->computed) {
    lane(0)->computed = true;
    uint32_t mm = uint32_t(m), nn = uint32_t(n), kk = uint32_t(k);
    thread_local std::vector<float> denseA, denseB;
    denseA.resize(size_t(mm) * kk);
    denseB.resize(size_t(kk) * nn);
    for (uint32_t i = 0; i < mm * kk; ++i) {
      FragmentSlot s = atom->aOwner[i];
      denseA[i] = decode16BitFloat(lane(s.lane)->a[s.reg], bf16);
    }
    for (uint32_t i = 0; i < kk * nn; ++i) {
      FragmentSlot s = atom->bOwner[i];
      denseB[i] = decode16BitFloat(lane(s.lane)->b[s.reg], bf16);
    }
    for (uint32_t l = 0; l < warpSize; ++l) {
      float *out = lane(l)->acc;
      for (uint32_t r = 0; r < atom->cRegs; ++r) {
        uint32_t row = atom->cRow[l * atom->cRegs + r];
        uint32_t col = atom->cCol[l * atom->cRegs + r];
        float sum = out[r];
        for (uint32_t q = 0; q < kk; ++q)
          // Products of 16-bit floats are exact in f32; one rounding per
          // add, in K order as the unit's.
          sum = sum + denseA[row * kk + q] * denseB[q * nn + col];
        out[r] = sum;
      }
    }
  }
  // Fragments live on the lanes' stacks: keep them until the atom is done.
  warpBarrier();
}

// The emulator's SQMMA descriptor of a tile at `tileStart` (EmulatorABI.h).
static int32_t emuSqmmaDesc(char *tileStart, int32_t leadingBytes, int32_t sg,
                            int32_t ss) {
  Worker &w = *tlsWorker;
  SQMMADescriptor desc;
  desc.start = uint64_t(tileStart - w.shared);
  desc.leadingBytes = uint32_t(leadingBytes);
  desc.granularity = sg;
  desc.stride = ss;
  uint32_t bits = 0;
  if (tileStart < w.shared ||
      desc.start >= uint64_t(w.config->sharedBytes) ||
      !encodeSQMMADescriptor(desc, bits))
    failThread(llvm::formatv("sqmma.desc: no descriptor for a tile at shared "
                             "offset {0} (of {1} bytes) with leading stride "
                             "{2} B and swizzle codes ({3}, {4})",
                             int64_t(tileStart - w.shared),
                             w.config->sharedBytes, leadingBytes, sg, ss));
  return int32_t(bits);
}

/// What one thread of a squad issues; all 128 must agree (but `acc`).
struct SQMMAIssue {
  int32_t kind, m, n, k, descA, descB, transA, transB;
  void *acc;
  bool sameInstruction(const SQMMAIssue &o) const {
    return kind == o.kind && m == o.m && n == o.n && k == o.k &&
           descA == o.descA && descB == o.descB && transA == o.transA &&
           transB == o.transB;
  }
};

} // extern "C"

/// c[M x N] += a[M x K] x b[K x N], each element's products added in k
/// order with one rounding per add (the column loop vectorizes; there is
/// no fused multiply-add in it, as the runtime is built for plain x86-64).
template <typename T>
[[gnu::always_inline]] static inline void
addTileProductsImpl(T *__restrict c, const T *__restrict a,
                    const T *__restrict b, uint32_t M, uint32_t N,
                    uint32_t K) {
  for (uint32_t row = 0; row < M; ++row) {
    T *__restrict cRow = c + size_t(row) * N;
    for (uint32_t kk = 0; kk < K; ++kk) {
      T x = a[size_t(row) * K + kk];
      const T *__restrict bRow = b + size_t(kk) * N;
      for (uint32_t col = 0; col < N; ++col) {
        T product = x * bRow[col];
        cRow[col] = cRow[col] + product;
      }
    }
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
// The same loop 8 lanes wide where the host has AVX2 (no FMA enabled,
// though products of the matrix units' inputs are exact in f32 anyway).
template <typename T>
[[gnu::target("avx2")]] static void
addTileProductsAVX2(T *__restrict c, const T *__restrict a,
                    const T *__restrict b, uint32_t M, uint32_t N, uint32_t K) {
  addTileProductsImpl(c, a, b, M, N, K);
}
#endif

template <typename T>
static void addTileProducts(T *__restrict c, const T *__restrict a,
                            const T *__restrict b, uint32_t M, uint32_t N,
                            uint32_t K) {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (avx2)
    return addTileProductsAVX2(c, a, b, M, N, K);
#endif
  addTileProductsImpl(c, a, b, M, N, K);
}

/// Where accumulator register r of squad thread t is in an m x n SQMMA
/// tile (row * n + col at t * regs + r), computed once per shape.
static const std::vector<uint32_t> &sqmmaAccumulatorPlaces(uint32_t m,
                                                           uint32_t n) {
  static std::mutex mutex;
  static std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>> known;
  std::lock_guard<std::mutex> lock(mutex);
  std::vector<uint32_t> &places = known[{m, n}];
  if (places.empty()) {
    uint32_t threads = kSquadWarps * 32, regs = m * n / threads;
    places.resize(size_t(threads) * regs);
    for (uint32_t t = 0; t < threads; ++t)
      for (uint32_t r = 0; r < regs; ++r) {
        SQMMACoord c = sqmmaAccumulatorCoord(m, n, t % 32, t / 32, r);
        places[size_t(t) * regs + r] = c.row * n + c.col;
      }
  }
  return places;
}

/// Operand element `i` of A or B (row-major m x k or k x n) as the matrix
/// unit reads it: its byte offset from the start of shared memory; and the
/// same as runs of elements contiguous in shared memory (a swizzle moves
/// whole granules), which 16-bit operands are decoded by.
struct SQMMAOperandOffsets {
  std::vector<uint64_t> offsets;
  struct Run {
    uint32_t index, count;
    uint64_t offset;
  };
  std::vector<Run> runs;

  size_t size() const { return offsets.size(); }
  uint64_t operator[](size_t i) const { return offsets[i]; }
};

/// The offsets of a rows x cols operand read through descriptor `bits`
/// (transposed: the descriptor's contiguous dimension is the rows). They
/// depend on nothing else, and a kernel's SQMMAs read a few ring slots
/// over and over: each worker thread keeps the ones it computed.
static const SQMMAOperandOffsets &sqmmaOperandOffsets(uint32_t bits,
                                                      bool trans,
                                                      uint32_t rows,
                                                      uint32_t cols,
                                                      uint32_t elemBytes) {
  using Key = std::tuple<uint32_t, bool, uint32_t, uint32_t, uint32_t>;
  thread_local std::map<Key, SQMMAOperandOffsets> known;
  Key key{bits, trans, rows, cols, elemBytes};
  auto it = known.find(key);
  if (it != known.end())
    return it->second;
  if (known.size() >= 256)
    known.clear();
  SQMMADescriptor desc = decodeSQMMADescriptor(bits);
  SQMMAOperandOffsets result;
  std::vector<uint64_t> &offsets = result.offsets;
  offsets.resize(size_t(rows) * cols);
  for (uint32_t r = 0; r < rows; ++r)
    for (uint32_t c = 0; c < cols; ++c)
      offsets[size_t(r) * cols + c] =
          trans ? sqmmaOperandOffset(desc, c, r, elemBytes)
                : sqmmaOperandOffset(desc, r, c, elemBytes);
  for (size_t i = 0; i < offsets.size(); ++i) {
    auto &runs = result.runs;
    if (!runs.empty() && i % cols != 0 &&
        offsets[i] == runs.back().offset + uint64_t(runs.back().count) *
                                                elemBytes)
      ++runs.back().count;
    else
      runs.push_back({uint32_t(i), 1, offsets[i]});
  }
  return known.emplace(key, std::move(result)).first->second;
}

/// Reads an operand of an SQMMA into `out` (read(offset) decodes one
/// element), checking every element's bounds; with the race check, every
/// element's read is recorded as one by the calling thread.
template <typename T, typename Read>
static void readSQMMAOperands(Worker &w, uint32_t elemBytes,
                              const SQMMAOperandOffsets &offsets, T *out,
                              Read read) {
  uint64_t size = w.config->sharedBytes;
  bool raceCheck = w.config->raceCheck;
  for (size_t i = 0; i < offsets.size(); ++i) {
    uint64_t offset = offsets[i];
    if (raceCheck || offset % elemBytes != 0 || offset > size ||
        elemBytes > size - offset)
      checkShared(w.shared + offset, elemBytes, elemBytes,
                  int32_t(abi::AccessKind::Load));
    out[i] = read(offset);
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
/// `count` halves at `in` as floats, 8 at a time (F16C converts exactly,
/// subnormals included).
[[gnu::target("avx,f16c")]] static void decodeHalvesF16C(const char *in,
                                                         uint32_t count,
                                                         float *out) {
  uint32_t i = 0;
  for (; i + 8 <= count; i += 8)
    _mm256_storeu_ps(out + i, _mm256_cvtph_ps(_mm_loadu_si128(
                                  reinterpret_cast<const __m128i *>(in + 2 * i))));
  for (; i < count; ++i) {
    uint16_t bits;
    std::memcpy(&bits, in + 2 * i, 2);
    out[i] = _cvtsh_ss(bits);
  }
}
#endif

/// decode16BitFloat with the common cases inline.
static inline float decodeHalfOrBFloat(uint16_t bits, bool bf16) {
  uint32_t word;
  if (bf16) {
    word = uint32_t(bits) << 16;
  } else {
    uint32_t exp = (bits >> 10) & 0x1f;
    if (exp == 0 || exp == 0x1f)
      return decode16BitFloat(bits, false);
    word = (uint32_t(bits & 0x8000) << 16) | ((exp + 112) << 23) |
           (uint32_t(bits & 0x3ff) << 13);
  }
  float value;
  std::memcpy(&value, &word, sizeof(value));
  return value;
}

/// readSQMMAOperands for f16 and bf16 operands: a run inside shared memory
/// (and not race-checked) is decoded at once; any other element as there.
template <typename Read>
static void readSQMMA16BitOperands(Worker &w,
                                   const SQMMAOperandOffsets &offsets,
                                   float *out, bool bf16, Read read) {
  uint64_t size = w.config->sharedBytes;
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool f16c = __builtin_cpu_supports("f16c");
#endif
  for (const SQMMAOperandOffsets::Run &run : offsets.runs) {
    uint64_t bytes = uint64_t(run.count) * 2;
    float *dst = out + run.index;
    if (w.config->raceCheck || run.offset % 2 != 0 || run.offset > size ||
        bytes > size - run.offset) {
      for (uint32_t i = 0; i < run.count; ++i) {
        uint64_t offset = run.offset + 2 * uint64_t(i);
        checkShared(w.shared + offset, 2, 2, int32_t(abi::AccessKind::Load));
        dst[i] = read(offset);
      }
      continue;
    }
    const char *src = w.shared + run.offset;
#if defined(__x86_64__) && defined(__GNUC__)
    if (!bf16 && f16c) {
      decodeHalvesF16C(src, run.count, dst);
      continue;
    }
#endif
    for (uint32_t i = 0; i < run.count; ++i) {
      uint16_t bits;
      std::memcpy(&bits, src + 2 * i, 2);
      dst[i] = decodeHalfOrBFloat(bits, bf16);
    }
  }
}

extern "C" {

// One SQMMA instruction of the calling squad (EmulatorABI.h). The squad's
// 128 threads meet (like the hardware, which issues once per squad), and
// the first thread of the squad checks that all issued the same
// instruction and computes the whole tile: it reads A and B from shared
// memory once (checking each element's bounds and, in the race check, its
// read), and adds A x B to every thread's accumulators, each in its
// thread's registers as MUSA-FACTS.md's fragment lays them out
// (MatrixUnits.cpp). Each accumulator adds its products in k order, one
// rounding per add, as a thread computing only its own would. The threads
// leave together once the tile is done. The result is complete at once;
// sqmma_wait only closes the count, and a thread that ends with SQMMAs
// never waited for fails the launch.
static void emuSqmma(int32_t kind, int32_t m, int32_t n, int32_t k,
                     int32_t descA, int32_t descB, int32_t transA,
                     int32_t transB, void *acc) {
  Worker &w = *tlsWorker;
  Fiber &f = *tlsFiber;
  if (w.config->warpSize != 32)
    failThread(llvm::formatv("SQMMA needs 32-thread warps, the kernel has "
                             "{0}",
                             w.config->warpSize));
  if (w.warps.size() % kSquadWarps != 0)
    failThread(llvm::formatv("SQMMA needs whole squads of 4 warps, the block "
                             "has {0} warps",
                             w.warps.size()));
  if (kind < 0 || kind > abi::toABI(MmaElementKind::E5M2) || m <= 0 || n <= 0 ||
      k <= 0 || m % 16 != 0 || n % 8 != 0)
    failThread(llvm::formatv("sqmma: invalid instruction (kind {0}, "
                             "m{1}n{2}k{3})",
                             kind, m, n, k));
  SQMMAIssue mine{kind, m, n, k, descA, descB, transA, transB, acc};
  const uint64_t *published = squadExchange(reinterpret_cast<uint64_t>(&mine));
  uint32_t squadThreads = kSquadWarps * 32;
  uint32_t first = (f.tid / squadThreads) * squadThreads;
  ++f.pendingSQMMA;
  if (f.tid != first) {
    // The issues and accumulators live on the threads' stacks: keep them
    // until the first thread has computed the tile.
    squadBarrier();
    return;
  }
  for (uint32_t t = 0; t < squadThreads; ++t) {
    auto *other = reinterpret_cast<const SQMMAIssue *>(published[t]);
    if (!other->sameInstruction(mine))
      failThread(llvm::formatv("sqmma: thread {0} of the squad issued a "
                               "different instruction (kind {1}, m{2}n{3}k{4}, "
                               "descriptors {5:x}/{6:x}) than this thread "
                               "(kind {7}, m{8}n{9}k{10}, descriptors "
                               "{11:x}/{12:x})",
                               first + t, other->kind, other->m, other->n,
                               other->k, other->descA, other->descB, kind, m,
                               n, k, descA, descB));
  }
  auto sqKind = MmaElementKind(kind);
  uint32_t elemBytes = sqKind == MmaElementKind::F16 ||
                               sqKind == MmaElementKind::BF16
                           ? 2
                       : sqKind == MmaElementKind::TF32 ? 4
                                                        : 1;
  auto M = uint32_t(m), N = uint32_t(n), K = uint32_t(k);
  // A[row][kk]: K contiguous unless transA; B[kk][col]: N contiguous unless
  // transB.
  const SQMMAOperandOffsets &aOffsets =
      sqmmaOperandOffsets(uint32_t(descA), transA, M, K, elemBytes);
  const SQMMAOperandOffsets &bOffsets =
      sqmmaOperandOffsets(uint32_t(descB), transB, K, N, elemBytes);
  auto value = [&](uint64_t offset) -> float {
    const char *p = w.shared + offset;
    switch (sqKind) {
    case MmaElementKind::F16:
    case MmaElementKind::BF16: {
      uint16_t bits;
      std::memcpy(&bits, p, 2);
      return decodeHalfOrBFloat(bits, sqKind == MmaElementKind::BF16);
    }
    case MmaElementKind::TF32: {
      // (inferred) f32 rounded to tf32's 10 mantissa bits, to nearest with
      // ties away from zero, as NVIDIA's cvt.rna.tf32.f32.
      uint32_t bits;
      std::memcpy(&bits, p, 4);
      if (((bits >> 23) & 0xff) != 0xff)
        bits = (bits + 0x1000u) & ~0x1fffu;
      float x;
      std::memcpy(&x, &bits, 4);
      return x;
    }
    case MmaElementKind::E4M3:
    case MmaElementKind::E5M2:
      return decodeFp8(uint8_t(*p), sqKind == MmaElementKind::E5M2);
    case MmaElementKind::S8:
      return float(int8_t(*p));
    }
    return 0.0f;
  };
  uint32_t regs = M * N / squadThreads;
  const std::vector<uint32_t> &where = sqmmaAccumulatorPlaces(M, N);
  auto accOf = [&](uint32_t t) {
    return reinterpret_cast<const SQMMAIssue *>(published[t])->acc;
  };
  if (sqKind == MmaElementKind::S8) {
    std::vector<uint32_t> a(aOffsets.size()), b(bOffsets.size());
    auto int8At = [&](uint64_t o) {
      return uint32_t(int32_t(int8_t(w.shared[o])));
    };
    readSQMMAOperands(w, elemBytes, aOffsets, a.data(), int8At);
    readSQMMAOperands(w, elemBytes, bOffsets, b.data(), int8At);
    std::vector<uint32_t> c(size_t(M) * N);
    for (uint32_t t = 0; t < squadThreads; ++t)
      for (uint32_t r = 0; r < regs; ++r)
        c[where[size_t(t) * regs + r]] =
            uint32_t(static_cast<int32_t *>(accOf(t))[r]);
    // Wrapping integer arithmetic: any order gives the same sums.
    addTileProducts(c.data(), a.data(), b.data(), M, N, K);
    for (uint32_t t = 0; t < squadThreads; ++t)
      for (uint32_t r = 0; r < regs; ++r)
        static_cast<int32_t *>(accOf(t))[r] =
            int32_t(c[where[size_t(t) * regs + r]]);
  } else {
    thread_local std::vector<float> a, b, c;
    a.resize(aOffsets.size());
    b.resize(bOffsets.size());
    c.resize(size_t(M) * N);
    if (sqKind == MmaElementKind::F16 || sqKind == MmaElementKind::BF16) {
      // The common kinds run by run, without the switch per element.
      bool bf16 = sqKind == MmaElementKind::BF16;
      auto at = [&](uint64_t o) {
        uint16_t bits;
        std::memcpy(&bits, w.shared + o, 2);
        return decodeHalfOrBFloat(bits, bf16);
      };
      readSQMMA16BitOperands(w, aOffsets, a.data(), bf16, at);
      readSQMMA16BitOperands(w, bOffsets, b.data(), bf16, at);
    } else {
      readSQMMAOperands(w, elemBytes, aOffsets, a.data(), value);
      readSQMMAOperands(w, elemBytes, bOffsets, b.data(), value);
    }
    // The tile's columns go in the order col % 8, then col / 8: a thread's
    // registers of one row of the fragment (columns lane % 8 + 8 * j) are
    // then side by side in `c` and move as one copy. B's columns are
    // permuted the same way; every element's sum is unchanged.
    uint32_t colGroups = N / 8, rowGroups = M / 16;
    thread_local std::vector<float> permutedB;
    permutedB.resize(b.size());
    for (uint32_t kk = 0; kk < K; ++kk) {
      const float *from = b.data() + size_t(kk) * N;
      float *to = permutedB.data() + size_t(kk) * N;
      for (uint32_t col = 0; col < N; ++col)
        to[(col % 8) * colGroups + col / 8] = from[col];
    }
    // (sqmmaAccumulatorCoord: register rm * colGroups + j of a thread is
    // in one row, at column col0 + 8 * j.)
    auto fragmentRow = [&](uint32_t t, uint32_t rm) {
      uint32_t place = where[size_t(t) * regs + rm * colGroups];
      return c.data() + size_t(place / N) * N + (place % N % 8) * colGroups;
    };
    for (uint32_t t = 0; t < squadThreads; ++t)
      for (uint32_t rm = 0; rm < rowGroups; ++rm)
        std::memcpy(fragmentRow(t, rm),
                    static_cast<float *>(accOf(t)) + rm * colGroups,
                    colGroups * sizeof(float));
    // Products of these inputs are exact in f32; one rounding per add, in
    // k order for every element.
    addTileProducts(c.data(), a.data(), permutedB.data(), M, N, K);
    for (uint32_t t = 0; t < squadThreads; ++t)
      for (uint32_t rm = 0; rm < rowGroups; ++rm)
        std::memcpy(static_cast<float *>(accOf(t)) + rm * colGroups,
                    fragmentRow(t, rm), colGroups * sizeof(float));
  }
  squadBarrier();
}

static void emuSqmmaWait() { tlsFiber->pendingSQMMA = 0; }

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
      {kShuffleBatch, reinterpret_cast<void *>(&emuShuffleBatch)},
      {kStoreBatch, reinterpret_cast<void *>(&emuStoreBatch)},
      {kShuffleBatchUniform,
       reinterpret_cast<void *>(&emuShuffleBatchUniform)},
      {abi::kBallot.data(), reinterpret_cast<void *>(&emuBallot)},
      {abi::kCheckGlobal.data(), reinterpret_cast<void *>(&emuCheckGlobal)},
      {abi::kCheckShared.data(), reinterpret_cast<void *>(&emuCheckShared)},
      {kFastBounds, reinterpret_cast<void *>(&emuFastBounds)},
      {kCheckGlobalNoSwitch, reinterpret_cast<void *>(&checkGlobal)},
      {kCheckSharedNoSwitch, reinterpret_cast<void *>(&checkShared)},
      {abi::kCount.data(), reinterpret_cast<void *>(&emuCount)},
      {abi::kPrintf.data(), reinterpret_cast<void *>(&emuPrintf)},
      {abi::kAssertFail.data(), reinterpret_cast<void *>(&emuAssertFail)},
      {abi::kWMMA.data(), reinterpret_cast<void *>(&emuWmma)},
      {abi::kTMELoad.data(), reinterpret_cast<void *>(&emuTMELoad)},
      {abi::kTMEStore.data(), reinterpret_cast<void *>(&emuTMEStore)},
      {abi::kTMEStoreCommit.data(),
       reinterpret_cast<void *>(&emuTMEStoreCommit)},
      {abi::kTMEStoreReadWait.data(),
       reinterpret_cast<void *>(&emuTMEStoreReadWait)},
      {abi::kAsyncBarRecord.data(),
       reinterpret_cast<void *>(&emuAsyncBarRecord)},
      {abi::kAsyncBarInit.data(), reinterpret_cast<void *>(&emuAsyncBarInit)},
      {abi::kAsyncBarAddTrans.data(),
       reinterpret_cast<void *>(&emuAsyncBarAddTrans)},
      {abi::kAsyncBarArrive.data(),
       reinterpret_cast<void *>(&emuAsyncBarArrive)},
      {abi::kAsyncBarWait.data(), reinterpret_cast<void *>(&emuAsyncBarWait)},
      {abi::kAsyncCopy.data(), reinterpret_cast<void *>(&emuAsyncCopy)},
      {kAsyncCopyFromLoadedPointer,
       reinterpret_cast<void *>(&emuAsyncCopyLoadedSrc)},
      {abi::kAsyncCopyOrZero.data(),
       reinterpret_cast<void *>(&emuAsyncCopyOrZero)},
      {kAsyncCopyOrZeroFromLoadedPointer,
       reinterpret_cast<void *>(&emuAsyncCopyOrZeroLoadedSrc)},
      {abi::kSQMMADesc.data(), reinterpret_cast<void *>(&emuSqmmaDesc)},
      {abi::kSQMMA.data(), reinterpret_cast<void *>(&emuSqmma)},
      {abi::kSQMMAWait.data(), reinterpret_cast<void *>(&emuSqmmaWait)},
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

namespace {
/// The pool of WorkerMemory between launches, at most kPooledMemories.
std::mutex memoryPoolMutex;
std::vector<std::unique_ptr<WorkerMemory>> memoryPool;
constexpr size_t kPooledMemories = 64;
} // namespace

/// Memory for `threads` fibers of `stackBytes` each (a page multiple) and
/// `sharedBytes` (a page multiple) of shared memory: a pooled one that fits,
/// else a new mapping; null if it cannot be mapped. The shared memory
/// starts zeroed, as in a fresh mapping.
static std::unique_ptr<WorkerMemory> acquireMemory(uint32_t threads,
                                                   size_t stackBytes,
                                                   size_t sharedBytes) {
  std::unique_ptr<WorkerMemory> memory;
  {
    std::lock_guard<std::mutex> lock(memoryPoolMutex);
    for (auto it = memoryPool.begin(); it != memoryPool.end(); ++it) {
      WorkerMemory &m = **it;
      if (m.threads >= threads && m.stackBytes == stackBytes &&
          m.sharedBytes >= sharedBytes) {
        memory = std::move(*it);
        memoryPool.erase(it);
        break;
      }
    }
  }
  if (memory) {
    std::memset(memory->shared, 0, sharedBytes);
    return memory;
  }
  size_t page = size_t(sysconf(_SC_PAGESIZE));
  memory = std::make_unique<WorkerMemory>();
  memory->stackBytes = stackBytes;
  memory->threads = threads;
  // One guard page below each stack turns an overflow into a fault rather
  // than a silent overwrite of the neighbouring stack.
  memory->perFiber = stackBytes + page;
  memory->stacksBytes = memory->perFiber * threads;
  memory->stacks =
      static_cast<char *>(mapMemory(memory->stacksBytes, false));
  if (!memory->stacks)
    return nullptr;
  for (uint32_t t = 0; t < threads; ++t)
    mprotect(memory->stacks + memory->perFiber * t, page, PROT_NONE);
  memory->sharedBytes = sharedBytes;
  memory->shared = static_cast<char *>(mapMemory(sharedBytes, true));
  if (!memory->shared)
    return nullptr;
  return memory;
}

/// Returns a worker's memory to the pool (the oldest one is unmapped when
/// the pool is full).
static void releaseMemory(std::unique_ptr<WorkerMemory> memory) {
  if (!memory)
    return;
  std::unique_ptr<WorkerMemory> dropped;
  std::lock_guard<std::mutex> lock(memoryPoolMutex);
  if (memoryPool.size() >= kPooledMemories) {
    dropped = std::move(memoryPool.front());
    memoryPool.erase(memoryPool.begin());
  }
  memoryPool.push_back(std::move(memory));
}

Worker::~Worker() { releaseMemory(std::move(memory)); }

static llvm::Error setUpWorker(Worker &w, const LaunchConfig &config) {
  size_t page = size_t(sysconf(_SC_PAGESIZE));
  w.config = &config;
  w.stackBytes = config.stackBytes ? config.stackBytes : 256 * 1024;
  w.stackBytes = (w.stackBytes + page - 1) / page * page;
  size_t sharedBytes = std::max<size_t>(config.sharedBytes, 16);
  sharedBytes = (sharedBytes + page - 1) / page * page;
  w.memory = acquireMemory(config.numThreads, w.stackBytes, sharedBytes);
  if (!w.memory)
    return llvm::createStringError(
        "cannot map %zu bytes of fiber stacks and %zu of shared memory",
        (w.stackBytes + page) * config.numThreads, sharedBytes);
  w.shared = w.memory->shared;
  w.fibers.resize(config.numThreads);
  for (uint32_t t = 0; t < config.numThreads; ++t) {
    Fiber &f = w.fibers[t];
    f.worker = &w;
    f.tid = t;
    f.lane = t % config.warpSize;
    f.warp = t / config.warpSize;
    f.stackLow = w.memory->stacks + w.memory->perFiber * t + page;
  }
  uint32_t numWarps = (config.numThreads + config.warpSize - 1) / config.warpSize;
  w.warps.resize(numWarps);
  for (Warp &warp : w.warps)
    for (auto &slots : warp.slots)
      slots.assign(config.warpSize, 0);
  w.squads.resize((numWarps + kSquadWarps - 1) / kSquadWarps);
  for (Squad &squad : w.squads)
    for (auto &slots : squad.slots)
      slots.assign(kSquadWarps * config.warpSize, 0);
  return llvm::Error::success();
}

/// Runs one block to completion; false if a thread failed (w.error says why).
static bool runBlock(Worker &w) {
  const LaunchConfig &config = *w.config;
  for (Fiber &f : w.fibers) {
    f.done = false;
    f.wait = Fiber::Wait::None;
    f.collectives = 0;
    f.squadCollectives = 0;
    f.pendingSQMMA = 0;
    // Copies never waited for are dropped with their block, as their data
    // was never guaranteed to land.
    f.pendingCopies.clear();
    prepareFiber(w, f);
  }
  for (Warp &warp : w.warps) {
    warp.live = 0;
    warp.arrived = 0;
  }
  for (Squad &squad : w.squads) {
    squad.live = 0;
    squad.arrived = 0;
    squad.gen = 0;
  }
  for (Fiber &f : w.fibers) {
    ++w.warps[f.warp].live;
    ++w.squads[f.warp / kSquadWarps].live;
  }
  w.live = config.numThreads;
  w.arrived = 0;
  w.blockGen = 0;
  w.asyncBarriers.fill(AsyncBarrier());
  w.recordedBarriers = 0;
  w.tmeStores = w.tmeCommits = 0;
  // A failed block may leave its batches' stores behind.
  w.pendingBatches.clear();
  w.pendingStores.clear();
  for (Warp &warp : w.warps)
    warp.gen = 0;
  if (config.raceCheck)
    w.shadow.assign(config.sharedBytes, ShadowByte());
  // What checkGlobal's own fast path accepts.
  w.fastBounds = FastBounds();
  if (w.lastBuffer < config.buffers.size()) {
    const Buffer &last = config.buffers[w.lastBuffer];
    w.fastBounds.globalLo = last.base;
    w.fastBounds.globalHi = last.base + last.bytes;
  }
  if (!config.raceCheck) {
    w.fastBounds.sharedLo = reinterpret_cast<uint64_t>(w.shared);
    w.fastBounds.sharedHi = w.fastBounds.sharedLo + config.sharedBytes;
  }
  tlsWorker = &w;
  DefaultFloatingPointControl floatingPointControl;
  while (w.live > 0) {
    bool progress = false;
    for (size_t i = 0; i < w.fibers.size(); ++i) {
      if (!runnable(w, w.fibers[i]))
        continue;
      w.fibers[i].wait = Fiber::Wait::None;
      tlsFiber = &w.fibers[i];
      switchToFiber(w, w.fibers[i]);
      // The fiber that switched back (yieldToNext may have run later ones).
      Fiber &f = *tlsFiber;
      tlsFiber = nullptr;
      i = f.tid;
      progress = true;
      if (w.failed)
        return false;
      if (!f.done)
        continue;
      if (f.pendingSQMMA) {
        w.failed = true;
        w.error = "kernel '" + config.kernelName + "', " +
                  describeThread(w, f) + ": " +
                  std::to_string(f.pendingSQMMA) +
                  " SQMMA instruction(s) issued and never waited for "
                  "(llvm.musa.sqmma.wait)";
        return false;
      }
      // A finished thread no longer holds back the barriers of the others.
      --w.live;
      Warp &warp = w.warps[f.warp];
      --warp.live;
      Squad &squad = w.squads[f.warp / kSquadWarps];
      --squad.live;
      if (squad.arrived > 0 && squad.arrived == squad.live) {
        squad.arrived = 0;
        ++squad.gen;
      }
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
      std::string waiting, asyncBarriers;
      std::array<bool, abi::kAsyncBarrierMaxId + 1> named{};
      for (const Fiber &f : w.fibers) {
        if (f.done)
          continue;
        if (f.wait == Fiber::Wait::Async && !named[f.waitBarrier]) {
          named[f.waitBarrier] = true;
          asyncBarriers +=
              llvm::formatv("; thread {0} waits for phase parity {1} of {2}",
                            f.tid, f.waitGen,
                            describeAsyncBarrier(
                                f.waitBarrier,
                                w.asyncBarriers[f.waitBarrier]))
                  .str();
        }
        if (waiting.size() < 200)
          waiting += llvm::formatv(
              " {0}({1})", f.tid,
              f.wait == Fiber::Wait::Block  ? "block"
              : f.wait == Fiber::Wait::Warp ? "warp"
              : f.wait == Fiber::Wait::Squad ? "squad"
                                            : "async barrier " +
                                                  std::to_string(
                                                      f.waitBarrier));
      }
      w.failed = true;
      w.error = llvm::formatv("kernel '{0}', program id ({1}, {2}, {3}): "
                              "deadlock: threads wait at barriers that can "
                              "never complete (thread(barrier):{4}){5}",
                              config.kernelName, w.blockId[0], w.blockId[1],
                              w.blockId[2], waiting, asyncBarriers)
                    .str();
      return false;
    }
  }
  return true;
}

namespace {
/// The threads that run a launch's blocks beside the launching thread. They
/// outlive their launch and wait for the next one: starting and joining a
/// thread costs more than a small launch's blocks (50 us of a 3-block
/// vector add that takes 150 us). A launch hands the pool copies of its
/// work loop (`run`); copies that no thread has started by the time the
/// launching thread's own copy returns are withdrawn, so a launch whose
/// caller took every block never waits for a thread to wake up. Launches
/// from several threads at once share the pool, which grows to the largest
/// demand. The threads are never joined (the pool is never destroyed, so
/// none is destroyed while it waits); a forked child, which has none of
/// them, starts a fresh pool.
class WorkerPool {
public:
  static WorkerPool &get() {
    static std::once_flag registered;
    std::call_once(registered, [] {
      pthread_atfork(nullptr, nullptr, [] { instance = new WorkerPool(); });
    });
    WorkerPool *pool = instance.load();
    if (!pool) {
      auto *fresh = new WorkerPool();
      if (instance.compare_exchange_strong(pool, fresh))
        pool = fresh;
      else
        delete fresh;
    }
    return *pool;
  }

  /// Runs `job` on the calling thread and on up to `copies` pool threads;
  /// returns once the caller's copy and every copy a pool thread started
  /// have returned.
  void run(unsigned copies, llvm::function_ref<void()> job) {
    Group group;
    std::vector<Task> tasks(copies, Task{&group, job, currentCpu()});
    {
      std::lock_guard<std::mutex> lock(mutex);
      for (Task &task : tasks)
        queue.push_back(&task);
      queued.store(queue.size(), std::memory_order_relaxed);
      for (; idle < queue.size(); ++idle)
        std::thread([this] { serve(); }).detach();
    }
    // Outside the lock: a woken thread does not wait for it.
    for (unsigned i = 0; i < copies; ++i)
      wake.notify_one();
    job();
    std::unique_lock<std::mutex> lock(mutex);
    llvm::erase_if(queue, [&](Task *task) { return task->group == &group; });
    queued.store(queue.size(), std::memory_order_relaxed);
    group.finished.wait(lock, [&] { return group.running == 0; });
  }

private:
  struct Group {
    unsigned running = 0; // copies started and not yet returned
    std::condition_variable finished;
  };
  struct Task {
    Group *group;
    llvm::function_ref<void()> job;
    int launcherCpu; // the core the launching thread ran on, or -1
  };

  /// The core the calling thread runs on, or -1 where that is unknown.
  static int currentCpu() {
#if defined(__linux__)
    return sched_getcpu();
#else
    return -1;
#endif
  }

  /// Runs `task` off the launching thread's core: a thread woken for a
  /// launch is often placed on its waker's core, where the two share one
  /// core for the whole launch; moving it there costs two system calls,
  /// and only when it landed there.
  static void runAwayFrom(const Task &task) {
#if defined(__linux__)
    cpu_set_t allowed;
    if (task.launcherCpu < 0 || currentCpu() != task.launcherCpu ||
        sched_getaffinity(0, sizeof(allowed), &allowed) != 0) {
      task.job();
      return;
    }
    cpu_set_t elsewhere = allowed;
    CPU_CLR(task.launcherCpu, &elsewhere);
    bool moved = CPU_COUNT(&elsewhere) > 0 &&
                 sched_setaffinity(0, sizeof(elsewhere), &elsewhere) == 0;
    task.job();
    if (moved)
      sched_setaffinity(0, sizeof(allowed), &allowed);
#else
    task.job();
#endif
  }

  void serve() {
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      wake.wait(lock, [&] { return !queue.empty(); });
      Task task = *queue.front();
      queue.pop_front();
      queued.store(queue.size(), std::memory_order_relaxed);
      --idle;
      ++task.group->running;
      lock.unlock();
      runAwayFrom(task);
      lock.lock();
      ++idle;
      if (--task.group->running == 0)
        task.group->finished.notify_all();
      if (queue.empty()) {
        // Launches come back to back (a benchmark, a test suite): a thread
        // that waits a little before it sleeps is still running, on its own
        // core, when the next one starts; one woken from sleep often starts
        // on the launching thread's core and takes no block from it.
        lock.unlock();
        auto until = std::chrono::steady_clock::now() + kSpinBeforeSleep;
        while (queued.load(std::memory_order_relaxed) == 0 &&
               std::chrono::steady_clock::now() < until)
          pause();
        lock.lock();
      }
    }
  }

  static void pause() {
#if defined(__x86_64__)
    _mm_pause();
#else
    std::this_thread::yield();
#endif
  }

  static constexpr std::chrono::microseconds kSpinBeforeSleep{500};
  std::atomic<size_t> queued{0}; // queue.size(), read without the lock

  std::mutex mutex;
  std::condition_variable wake;
  std::deque<Task *> queue; // copies not yet started, of every launch
  size_t idle = 0;          // threads waiting for a copy, or about to
  static inline std::atomic<WorkerPool *> instance{nullptr};
};
} // namespace

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
  LiveBuffers live;

  auto work = [&]() {
    Worker w;
    w.liveBuffers = &live;
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

  if (workers == 1)
    work();
  else
    WorkerPool::get().run(workers - 1, work);
  if (!firstError.empty())
    return llvm::createStringError(firstError);
  stats.instructions = instructions;
  return stats;
}
