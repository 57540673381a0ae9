//===- MemoryChecks.cpp - Access checks, store batches and async copies ---===//
//
// Every global and shared access of a kernel is checked (bounds, alignment,
// and in the race-check mode conflicts between threads) and, where the
// instrumentation asks, taken in lockstep with the other threads first. The
// checks' fast paths are inline in RuntimeState.h; here are the full
// checks, the store batches, and the asynchronous global->shared copies.
//
//===----------------------------------------------------------------------===//

#include "emulator/RuntimeState.h"

#include <cstring>

using namespace mlir::triton_musa::emulator;
using namespace mlir::triton_musa::emulator::runtime;

/// The whole check of a global access, errors and margins included:
/// checkGlobal calls it for every access the fast path there does not pass.
void runtime::checkGlobalSlow(const void *address, uint64_t bytes,
                              uint64_t align, int32_t kind) {
  Worker &w = *tlsWorker;
  bool loadedPointer = kind & abi::kLoadedPointerAccess;
  kind &= ~abi::kLoadedPointerAccess;
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

void runtime::checkSharedSlow(const void *address, uint64_t bytes,
                              uint64_t align, int32_t kind) {
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
  if (abi::AccessKind(kind) == abi::AccessKind::Store)
    checkSQMMAReads(addr - base, bytes, what);
  else
    checkTMELandings(addr - base, bytes, what);
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

void runtime::checkSQMMAReads(uint64_t offset, uint64_t bytes,
                              const char *what) {
  Worker &w = *tlsWorker;
  Fiber &f = *tlsFiber;
  uint64_t epoch = w.blockGen + 1;
  uint32_t squad = f.warp / kSquadWarps;
  for (const Worker::SQMMARead &read : w.sqmmaReads) {
    // Reads waited for before the last block barrier are over for
    // everyone; a thread of the squad that has waited since its last SQMMA
    // knows the unit is done with every operand the squad gave it.
    if (read.waited.isOver(epoch) ||
        (read.waited.happened() && read.squad == squad &&
         f.pendingSQMMA == 0))
      continue;
    // Known over through an async barrier (SQMMAKnowledge).
    if (read.squad < kRaceCheckSquads &&
        read.issue <= f.knownOver[read.squad])
      continue;
    for (int operand = 0; operand < 2; ++operand) {
      if (offset >= read.end[operand] || offset + bytes <= read.begin[operand])
        continue;
      failThread(llvm::formatv(
          "shared-memory race: {0} of {1} bytes at offset {2} overwrites "
          "operand {3} (bytes [{4}, {5})) of an SQMMA of squad {6} still in "
          "flight: {7}",
          what, bytes, offset, operand == 0 ? "A" : "B", read.begin[operand],
          read.end[operand], read.squad,
          !read.waited.happened()
              ? std::string("no thread of the squad has waited for it")
              : std::string("the squad waited for it, but this thread did "
                            "not, and neither a block barrier nor an async "
                            "barrier a waiting thread arrived on came "
                            "between")));
    }
  }
}

void runtime::checkTMELandings(uint64_t offset, uint64_t bytes,
                               const char *what) {
  Worker &w = *tlsWorker;
  Fiber &f = *tlsFiber;
  uint64_t epoch = w.blockGen + 1;
  for (const Worker::TMELanding &landing : w.tmeLandings) {
    if (offset >= landing.end || offset + bytes <= landing.begin ||
        landing.waited.isOver(epoch) ||
        f.seenPhases[landing.barrier] >= landing.phase)
      continue;
    failThread(llvm::formatv(
        "shared-memory race: {0} of {1} bytes at offset {2} reads bytes "
        "[{3}, {4}) of a TME tile load that lands with phase {5} of async "
        "barrier {6}, which this thread has not waited for{7}",
        what, bytes, offset, landing.begin, landing.end, landing.phase,
        landing.barrier,
        !landing.waited.happened()
            ? std::string(" (no thread has)")
            : std::string(" (another thread has, with no block barrier "
                          "since)")));
  }
}

extern "C" {

static FastBounds *emuFastBounds() { return &tlsWorker->fastBounds; }

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
static void emuStoreBatch(int32_t count, const abi::StoreBatchInfo *info,
                          const abi::StoreBatchRecord *records) {
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
  asyncCopy(dst, src, bytes, abi::kLoadedPointerAccess);
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
  asyncCopyOrZero(dst, src, bytes, pred, abi::kLoadedPointerAccess);
}

/// llvm.musa.memcpy.g2s.wait: lands the calling thread's copies, in order.
static void emuAsyncCopyWait() {
  Fiber &f = *tlsFiber;
  for (const Fiber::PendingCopy &copy : f.pendingCopies)
    std::memcpy(copy.dst, copy.data.data(), copy.bytes);
  f.pendingCopies.clear();
}

static void emuCount(uint64_t n) { tlsWorker->instructions += n; }

} // extern "C"

void runtime::appendMemoryCheckSymbols(RuntimeSymbols &symbols) {
  symbols.insert(symbols.end(), {
      {abi::kStoreBatch.data(), reinterpret_cast<void *>(&emuStoreBatch)},
      {abi::kCheckGlobal.data(), reinterpret_cast<void *>(&emuCheckGlobal)},
      {abi::kCheckShared.data(), reinterpret_cast<void *>(&emuCheckShared)},
      {abi::kFastBounds.data(), reinterpret_cast<void *>(&emuFastBounds)},
      {abi::kCheckGlobalNoSwitch.data(),
       reinterpret_cast<void *>(&checkGlobal)},
      {abi::kCheckSharedNoSwitch.data(),
       reinterpret_cast<void *>(&checkShared)},
      {abi::kCount.data(), reinterpret_cast<void *>(&emuCount)},
      {abi::kAsyncCopy.data(), reinterpret_cast<void *>(&emuAsyncCopy)},
      {abi::kAsyncCopyFromLoadedPointer.data(),
       reinterpret_cast<void *>(&emuAsyncCopyLoadedSrc)},
      {abi::kAsyncCopyOrZero.data(),
       reinterpret_cast<void *>(&emuAsyncCopyOrZero)},
      {abi::kAsyncCopyOrZeroFromLoadedPointer.data(),
       reinterpret_cast<void *>(&emuAsyncCopyOrZeroLoadedSrc)},
      {abi::kAsyncCopyWait.data(),
       reinterpret_cast<void *>(&emuAsyncCopyWait)},
  });
}
