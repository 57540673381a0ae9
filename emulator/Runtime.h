//===- Runtime.h - The CPU emulator's execution engine ---------*- C++ -*-===//
//
// Runs a kernel compiled for the host (see Emulator.h) over a grid the way a
// MUSA GPU would: every GPU thread of a block is a fiber (its own small
// stack), switched cooperatively whenever it reaches a barrier or a warp
// collective (shuffle, ballot, warp sync), so that these are exact; blocks
// run in parallel, one per worker thread, each worker with its own shared
// memory buffer of the kernel's `ttg.shared` bytes.
//
// The compiled kernel reaches the runtime through the C functions of
// target/EmulatorABI.h (runtimeSymbols() binds each name to its function).
//
// An error in a GPU thread (an access outside every buffer passed in and
// every live buffer the launch's lookup names, a failed device assertion, a
// shared-memory race in the race-check mode, a deadlock) stops its block and
// the launch; launch() returns it as an llvm::Error naming the kernel, the
// program id, the thread and the address.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_EMULATOR_RUNTIME_H
#define TRITON_MUSA_EMULATOR_RUNTIME_H

#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace mlir::triton_musa::emulator {

/// A region of host memory the kernel may access (a tensor's storage).
struct Buffer {
  uint64_t base = 0;
  uint64_t bytes = 0;
  /// Shown in error messages, e.g. "argument 'x_ptr'".
  std::string name;
};

/// Looks up further memory the kernel may access beyond `LaunchConfig::
/// buffers`, e.g. every live host tensor for a kernel that loads pointers
/// from memory (a table of addresses). See `LaunchConfig::liveBuffers`.
using LiveBufferLookup =
    std::function<llvm::Expected<std::vector<Buffer>>()>;

/// The kernel's entry trampoline: reads each parameter from an 8-byte slot.
using EntryFn = void (*)(const uint64_t *slots);

struct LaunchConfig {
  std::string kernelName;
  std::array<uint32_t, 3> grid = {1, 1, 1};
  uint32_t numThreads = 0; // per block; 0: the kernel's num_warps x warp size
  uint32_t warpSize = 0; // 0: the kernel's
  uint64_t sharedBytes = 0;
  std::vector<Buffer> buffers;
  /// Consulted on the first global access of the launch that lies inside
  /// none of `buffers` (never when every access does): called once per
  /// launch, on a thread of its own (never on a fiber's small stack), while
  /// the workers that reach such an access wait for it. An access inside
  /// one of the buffers it returns is valid; one inside neither list is the
  /// usual out-of-bounds error. Unset: `buffers` is all there is.
  LiveBufferLookup liveBuffers;
  /// Worker threads running blocks in parallel (0: one per core): the
  /// calling thread and threads of a pool kept between launches.
  unsigned numWorkers = 0;
  /// Bytes of stack per GPU thread (0: the default, 256 KiB).
  uint64_t stackBytes = 0;
  /// Debug mode: report conflicting shared-memory accesses of two threads
  /// with no barrier between them (a store and a load or store of the same
  /// byte; atomics excluded; lanes of one warp are ordered by a warp sync).
  /// Only the last reader of each byte is remembered, so a race with an
  /// earlier reader can go unreported.
  bool raceCheck = false;
};

struct LaunchStats {
  /// Instructions executed (only counted by kernels loaded to count them).
  uint64_t instructions = 0;
  uint64_t blocks = 0;
};

/// Runs `entry(slots)` on every thread of every block of the grid.
llvm::Expected<LaunchStats> launch(EntryFn entry,
                                   const std::vector<uint64_t> &slots,
                                   const LaunchConfig &config);

/// The runtime functions the compiled kernel calls, by name.
std::vector<std::pair<const char *, void *>> runtimeSymbols();

} // namespace mlir::triton_musa::emulator

#endif // TRITON_MUSA_EMULATOR_RUNTIME_H
