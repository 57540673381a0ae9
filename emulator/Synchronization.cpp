//===- Synchronization.cpp - Barriers and warp collectives ----------------===//
//
// The runtime functions a GPU thread calls to learn its ids and to meet the
// other threads: block barriers, warp syncs, warp shuffles (one by one or
// batched by the instrumentation) and ballots. A collective suspends the
// calling fiber until every live thread of its block or warp has arrived
// (RuntimeState.h), so each is exact.
//
//===----------------------------------------------------------------------===//

#include "emulator/RuntimeState.h"

#include <cstring>

using namespace mlir::triton_musa::emulator;
using namespace mlir::triton_musa::emulator::runtime;

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

} // extern "C"

void runtime::appendSynchronizationSymbols(RuntimeSymbols &symbols) {
  symbols.insert(symbols.end(), {
      {abi::kThreadId.data(), reinterpret_cast<void *>(&emuThreadId)},
      {abi::kBlockId.data(), reinterpret_cast<void *>(&emuBlockId)},
      {abi::kNumBlocks.data(), reinterpret_cast<void *>(&emuNumBlocks)},
      {abi::kSharedBase.data(), reinterpret_cast<void *>(&emuSharedBase)},
      {abi::kBarrier.data(), reinterpret_cast<void *>(&emuBarrier)},
      {abi::kSharedBarrier.data(), reinterpret_cast<void *>(&emuBarrier)},
      {abi::kWarpSync.data(), reinterpret_cast<void *>(&emuWarpSync)},
      {abi::kShuffle.data(), reinterpret_cast<void *>(&emuShuffle)},
      {abi::kShuffleBatch.data(), reinterpret_cast<void *>(&emuShuffleBatch)},
      {abi::kShuffleBatchUniform.data(),
       reinterpret_cast<void *>(&emuShuffleBatchUniform)},
      {abi::kBallot.data(), reinterpret_cast<void *>(&emuBallot)},
  });
}
