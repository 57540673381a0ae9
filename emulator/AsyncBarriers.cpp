//===- AsyncBarriers.cpp - Async barriers and the tensor memory engine ----===//
//
// MUSA's async barriers (integer ids 1..63 per block, with arrival counts,
// expected bytes and phases) and the tensor memory engine's tile loads and
// stores, which complete on them. TME transfers are done at once, checked
// like the accesses of the kernel itself.
//
//===----------------------------------------------------------------------===//

#include "emulator/RuntimeState.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstring>

using namespace mlir::triton_musa::emulator;
using namespace mlir::triton_musa::emulator::runtime;

std::string runtime::describeAsyncBarrier(int32_t id, const AsyncBarrier &bar) {
  return llvm::formatv("async barrier {0} (phase parity {1} in progress, "
                       "{2} of {3} arrivals pending, {4} expected bytes not "
                       "transferred, {5} phases completed)",
                       id, bar.phase, bar.pending, bar.count, bar.bytes,
                       bar.completed)
      .str();
}

extern "C" {

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
  learn(bar.released, bar.arriving);
  bar.arriving = SQMMAKnowledge{};
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
  if (tlsWorker->config->raceCheck)
    learn(bar.arriving, tlsFiber->knownOver);
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
  if (bar.phase == uint32_t(phase)) {
    f.wait = Fiber::Wait::Async;
    f.waitBarrier = id;
    f.waitGen = uint64_t(phase);
    yieldToNext(w, f);
  }
  if (w.config->raceCheck) {
    const AsyncBarrier &done = w.asyncBarriers[id];
    learn(f.knownOver, done.released);
    f.seenPhases[id] = done.completed;
    for (Worker::TMELanding &landing : w.tmeLandings)
      if (landing.barrier == id && landing.phase <= done.completed)
        landing.waited.record(w.blockGen + 1);
  }
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
                int32_t(kind) | abi::kLoadedPointerAccess);
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
  // The bytes the load writes, as one span (its runs fill the buffer).
  uint64_t landsFrom = UINT64_MAX, landsTo = 0;
  forEachBoxRun(
      what, desc, smem, rank, box, coords, sg, ss, sl,
      [&](uint64_t global, uint64_t shared, int64_t runBytes,
          int64_t elemBytes) {
        char *dst = w.shared + shared;
        bytes += runBytes;
        if (w.config->raceCheck) {
          checkSQMMAReads(shared, uint64_t(runBytes), what);
          landsFrom = std::min(landsFrom, shared);
          landsTo = std::max(landsTo, shared + uint64_t(runBytes));
        }
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
  if (w.config->raceCheck && landsFrom < landsTo) {
    // Landings that are over, or whose bytes this load overwrites (a reader
    // of them now waits for this one), are dropped: one per ring slot stays.
    llvm::erase_if(w.tmeLandings, [&](const Worker::TMELanding &landing) {
      return landing.waited.isOver(w.blockGen + 1) ||
             (landsFrom <= landing.begin && landing.end <= landsTo);
    });
    w.tmeLandings.push_back(
        {landsFrom, landsTo, barId, bar.completed + 1, Worker::FirstWait()});
  }
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

} // extern "C"

void runtime::appendAsyncBarrierSymbols(RuntimeSymbols &symbols) {
  symbols.insert(symbols.end(), {
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
  });
}
