//===- RuntimeState.h - The emulator runtime's shared state -----*- C++ -*-===//
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
// Instrumentation.cpp) calls the checks that do not switch
// (kCheckGlobalNoSwitch) at the loads no switch can change: those with only
// loads since the last switch or block barrier. The state a runtime function
// needs is the worker's and the fiber's, both reached through thread-locals
// (fibers never migrate between workers).
//
// Private to emulator/: the state and the small helpers every part of the
// runtime uses, shared by Fibers.cpp (context switching), Synchronization.cpp
// (ids, barriers, warp collectives), MemoryChecks.cpp (access checks, store
// batches, asynchronous copies), AsyncBarriers.cpp (async barriers and the
// TME), MatrixMultiply.cpp (WMMA and SQMMA), Launch.cpp (blocks, the grid
// and the worker pool) and Runtime.cpp (the symbol table). The helpers on
// the path of every runtime call (scheduling, barriers, the checks' fast
// paths) are inline here, so that they inline into each file's callers.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_EMULATOR_RUNTIMESTATE_H
#define TRITON_MUSA_EMULATOR_RUNTIMESTATE_H

#include "emulator/Runtime.h"
#include "target/EmulatorABI.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <sys/mman.h>

#if !defined(__x86_64__)
#include <ucontext.h>
#endif

namespace mlir::triton_musa::emulator {
// Hidden, as the one file's static functions were: calls between the files
// bind directly, not through the PLT.
namespace [[gnu::visibility("hidden")]] runtime {

namespace abi = mlir::triton_musa::emulator_abi;
using abi::FastBounds;

struct Worker;

/// Race-check mode: per squad (up to kRaceCheckSquads), the issue number
/// (Worker::sqmmaIssues) of the last of its SQMMAs a thread knows to be
/// over: by its own wait for the squad's SQMMAs, or from the threads that
/// had waited for them and then arrived on an async barrier whose phase it
/// waited for (a warp-specialized loop's producer learns so that the
/// consumers are done with a ring slot).
constexpr uint32_t kRaceCheckSquads = 16;
using SQMMAKnowledge = std::array<uint64_t, kRaceCheckSquads>;
inline void learn(SQMMAKnowledge &into, const SQMMAKnowledge &from) {
  for (uint32_t squad = 0; squad < kRaceCheckSquads; ++squad)
    into[squad] = std::max(into[squad], from[squad]);
}

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
  /// Race-check mode: the SQMMAs this thread knows to be over.
  SQMMAKnowledge knownOver{};
  /// Race-check mode: per async barrier, the phases completed when this
  /// thread's last wait on it returned (TMELanding).
  std::array<uint64_t, abi::kAsyncBarrierMaxId + 1> seenPhases{};
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
  /// Race-check mode: what the arrivals of the phase in progress knew of
  /// the SQMMAs, and what a wait for a completed phase learns.
  SQMMAKnowledge arriving{}, released{};
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
  /// Race-check mode: the first wait for an asynchronous access (an SQMMA's
  /// operand reads, a TME tile's landing), by the block-barrier epoch it
  /// happened in: once a block barrier follows it, every thread knows the
  /// access is over.
  struct FirstWait {
    uint64_t epoch = 0; // 0: nobody has waited yet
    bool happened() const { return epoch != 0; }
    void record(uint64_t now) {
      if (epoch == 0)
        epoch = now;
    }
    /// Waited for before the block barrier that opened `now`.
    bool isOver(uint64_t now) const { return epoch != 0 && epoch < now; }
  };
  /// Race-check mode: the operand bytes of the SQMMAs in flight. The
  /// emulator computes an SQMMA at its issue, the hardware reads the
  /// operands until the squad waits for it: a shared store into them before
  /// that wait (or, by a thread that has not waited itself, before a block
  /// barrier after it) races with the matrix unit.
  struct SQMMARead {
    /// A's and B's bytes, [begin, end) offsets into shared memory.
    uint64_t begin[2], end[2];
    uint32_t squad;
    /// Its issue number (Worker::sqmmaIssues), for SQMMAKnowledge.
    uint64_t issue;
    /// The squad's first wait for it.
    FirstWait waited;
  };
  std::vector<SQMMARead> sqmmaReads;
  /// SQMMAs issued in the block so far.
  uint64_t sqmmaIssues = 0;
  /// Race-check mode: the bytes of TME tile loads, which the emulator
  /// writes at the issue and the hardware writes until the load's barrier
  /// completes its phase: a read of them by a thread that has not waited
  /// for that phase (nor passed a block barrier after a thread's wait for
  /// it) may see the old bytes.
  struct TMELanding {
    uint64_t begin, end;
    int32_t barrier;
    /// The barrier's phase (its count of completed phases) the bytes land
    /// with.
    uint64_t phase;
    /// The first wait that saw it land.
    FirstWait waited;
  };
  std::vector<TMELanding> tmeLandings;

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
// space a dynamically loaded library may use). Inline variables with a
// constant initializer: every file reads them directly, without the call
// to a TLS wrapper an `extern thread_local` costs.
[[gnu::tls_model("initial-exec"), gnu::visibility("hidden")]]
inline thread_local Worker *tlsWorker = nullptr;
[[gnu::tls_model("initial-exec"), gnu::visibility("hidden")]]
inline thread_local Fiber *tlsFiber = nullptr;

//===----------------------------------------------------------------------===//
// Context switching (Fibers.cpp)
//===----------------------------------------------------------------------===//

/// A fresh fiber's stack, prepared to start the kernel's entry.
void prepareFiber(Worker &w, Fiber &f);

#if defined(__x86_64__)
/// Saves the callee-saved registers, stores the stack pointer in *save and
/// continues on `load`'s stack (Fibers.cpp).
extern "C" void musa_emu_switch_context(void **save, void *load);
inline void switchToFiber(Worker &w, Fiber &f) {
  musa_emu_switch_context(&w.schedulerSp, f.sp);
}
inline void switchToScheduler(Worker &w, Fiber &f) {
  musa_emu_switch_context(&f.sp, w.schedulerSp);
}
inline void switchBetweenFibers(Fiber &from, Fiber &to) {
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
inline void switchToFiber(Worker &w, Fiber &f) {
  swapcontext(&w.schedulerContext, &f.context);
}
inline void switchToScheduler(Worker &w, Fiber &f) {
  swapcontext(&f.context, &w.schedulerContext);
}
inline void switchBetweenFibers(Fiber &from, Fiber &to) {
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
inline bool runnable(const Worker &w, const Fiber &f) {
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
inline void yieldToNext(Worker &w, Fiber &f) {
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

//===----------------------------------------------------------------------===//
// Synchronization (called on a fiber)
//===----------------------------------------------------------------------===//

std::string describeThread(const Worker &w, const Fiber &f);

/// Stops the calling GPU thread's block with `message`; never returns.
[[noreturn]] void failThread(const std::string &message);

inline void blockBarrier() {
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
inline void groupBarrier(ThreadGroup &group, Fiber::Wait kind) {
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
inline const uint64_t *groupExchange(ThreadGroup &group, Fiber::Wait kind,
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

inline void warpBarrier() {
  groupBarrier(tlsWorker->warps[tlsFiber->warp], Fiber::Wait::Warp);
}

/// Publishes `value` to the warp, waits for every lane, and returns the
/// exchange buffer holding all lanes' values.
inline const uint64_t *exchange(uint64_t value) {
  Fiber &f = *tlsFiber;
  return groupExchange(tlsWorker->warps[f.warp], Fiber::Wait::Warp,
                       f.collectives, f.lane, value);
}

inline void squadBarrier() {
  groupBarrier(tlsWorker->squads[tlsFiber->warp / kSquadWarps],
               Fiber::Wait::Squad);
}

/// As exchange, among the threads of the caller's squad, indexed by the
/// thread's position in the squad.
inline const uint64_t *squadExchange(uint64_t value) {
  Fiber &f = *tlsFiber;
  return groupExchange(tlsWorker->squads[f.warp / kSquadWarps],
                       Fiber::Wait::Squad, f.squadCollectives, f.tid, value);
}

//===----------------------------------------------------------------------===//
// Memory checks (MemoryChecks.cpp)
//===----------------------------------------------------------------------===//

/// Called before each global or shared access: lets every other runnable
/// thread of the block reach its own next access first (see the top).
inline void lockstepYield() {
  Worker &w = *tlsWorker;
  Fiber &f = *tlsFiber;
  f.wait = Fiber::Wait::None;
  yieldToNext(w, f);
}

/// Whether `addr` is a multiple of `align`, which is a power of two (or 0
/// or 1: any address).
inline bool isAligned(uint64_t addr, uint64_t align) {
  return align <= 1 || ((align & (align - 1)) == 0 ? (addr & (align - 1)) == 0
                                                   : addr % align == 0);
}

/// The whole check of a global access, errors and margins included:
/// checkGlobal calls it for every access the fast path there does not pass.
[[gnu::noinline, gnu::cold]] void checkGlobalSlow(const void *address,
                                                  uint64_t bytes,
                                                  uint64_t align, int32_t kind);
/// The same for shared memory, with the race check.
[[gnu::noinline, gnu::cold]] void checkSharedSlow(const void *address,
                                                  uint64_t bytes,
                                                  uint64_t align, int32_t kind);

/// A global access: aligned and inside the buffer the last access hit is
/// valid (the common case, checked inline); anything else gets the whole
/// check.
inline void checkGlobal(const void *address, uint64_t bytes, uint64_t align,
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

/// A shared-memory access: aligned and inside the kernel's shared memory,
/// with no race check to run, is valid (checked inline); anything else gets
/// the whole check.
/// Race-check mode: fails the thread where storing `bytes` at shared offset
/// `offset` overwrites operand bytes an SQMMA in flight may still read
/// (Worker::sqmmaReads); `what` names the store.
void checkSQMMAReads(uint64_t offset, uint64_t bytes, const char *what);
/// Race-check mode: fails the thread if bytes [offset, offset + bytes) of
/// shared memory are a TME tile still landing for it (Worker::TMELanding);
/// `what` names the read.
void checkTMELandings(uint64_t offset, uint64_t bytes, const char *what);

inline void checkShared(const void *address, uint64_t bytes, uint64_t align,
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

//===----------------------------------------------------------------------===//
// Async barriers (AsyncBarriers.cpp)
//===----------------------------------------------------------------------===//

std::string describeAsyncBarrier(int32_t id, const AsyncBarrier &bar);

//===----------------------------------------------------------------------===//
// The symbol table (Runtime.cpp)
//===----------------------------------------------------------------------===//

/// Each file's runtime functions by name, appended to `symbols`.
using RuntimeSymbols = std::vector<std::pair<const char *, void *>>;
void appendSynchronizationSymbols(RuntimeSymbols &symbols);
void appendMemoryCheckSymbols(RuntimeSymbols &symbols);
void appendAsyncBarrierSymbols(RuntimeSymbols &symbols);
void appendMatrixMultiplySymbols(RuntimeSymbols &symbols);

} // namespace runtime
} // namespace mlir::triton_musa::emulator

#endif // TRITON_MUSA_EMULATOR_RUNTIMESTATE_H
