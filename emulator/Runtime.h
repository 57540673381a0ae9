//===- Runtime.h - The CPU emulator's execution engine ---------*- C++ -*-===//
//
// Runs a kernel compiled for the host (see Emulator.h) over a grid the way a
// MUSA GPU would: every GPU thread of a block is a fiber (its own small
// stack), switched cooperatively whenever it reaches a barrier or a warp
// collective (shuffle, ballot, warp sync), so that these are exact; blocks
// run in parallel, one per worker thread, each worker with its own shared
// memory buffer of the kernel's `ttg.shared` bytes.
//
// The compiled kernel reaches the runtime through the C functions below,
// whose names the emulator target (conversion/TritonGPUToMUSA/
// EmulatorTargetInfo.cpp) and the global-access instrumentation (Emulator.cpp)
// emit:
//
//   __musa_emu_thread_id(dim), __musa_emu_block_id(dim),
//   __musa_emu_num_blocks(dim)       ids of the calling GPU thread (i32)
//   __musa_emu_shared_base()         the block's shared memory
//   __musa_emu_barrier(), __musa_emu_shared_barrier()
//                                    block barrier (all threads)
//   __musa_emu_warp_sync()           warp barrier
//   __musa_emu_shuffle(kind, value, offset, width)
//                                    warp shuffle, kind 0 xor, 1 up, 2 down,
//                                    3 idx; lanes whose source is outside
//                                    their `width`-lane segment keep their
//                                    own value
//   __musa_emu_ballot(pred, word)    bits 64*word.. of the warp's ballot
//   __musa_emu_check_global(addr, bytes, align, kind)
//                                    bounds and alignment check of a global
//                                    access (kind 0 load, 1 store, 2 atomic,
//                                    | kLoadedPointerAccess below)
//   __musa_emu_check_shared(addr, bytes, align, kind)
//                                    the same for a shared-memory access,
//                                    against the kernel's `ttg.shared` bytes
//   __musa_emu_async_copy(dst, src, bytes)
//                                    asynchronous global->shared copy: checked
//                                    and read now, written to shared memory
//                                    at the thread's next
//   __musa_emu_async_copy_or_zero(dst, src, bytes, pred)
//                                    the copy where pred != 0; else zeros
//                                    stored to dst at once, src not read
//   __musa_emu_async_copy_wait()     which lands its pending copies
//   __musa_emu_count(n)              adds n to the executed instructions
//   __musa_emu_printf(format, ...)   device printf (C varargs), one line
//                                    per call, flushed
//   __musa_emu_assert_fail(message, file, line, function)
//                                    a failed device assertion: stops the
//                                    block like any other error
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

/// Or-ed into the access kind of `__musa_emu_check_global` by the
/// instrumentation (Emulator.cpp) when the pointer may not derive from a
/// kernel parameter, e.g. it was loaded from memory: only such an access,
/// when it lies inside none of the launch's buffers, is looked up among
/// `LaunchConfig::liveBuffers`. An access through a parameter (plus any
/// offset) is checked against the buffers alone, so an overrun stays an
/// error even where another live tensor happens to follow.
constexpr int32_t kLoadedPointerAccess = 0x100;
/// `__musa_emu_async_copy` with a source that may be a loaded pointer (the
/// instrumentation renames such calls).
constexpr const char *kAsyncCopyFromLoadedPointer =
    "__musa_emu_async_copy_loaded_src";
constexpr const char *kAsyncCopyOrZeroFromLoadedPointer =
    "__musa_emu_async_copy_or_zero_loaded_src";

/// `__musa_emu_check_global` and `__musa_emu_check_shared` without the
/// switch to the other threads first: the instrumentation (Emulator.cpp)
/// calls these at the accesses where no other thread's turn can change
/// what the kernel observes (a load with only loads since the last switch).
constexpr const char *kCheckGlobalNoSwitch = "__musa_emu_check_global_in_turn";
constexpr const char *kCheckSharedNoSwitch = "__musa_emu_check_shared_in_turn";

/// A run of warp shuffles that do not depend on each other, exchanged at
/// once: `void (i32 count, const i32 *ops, i64 *values)`, `ops` holding
/// (kind, offset, width) per shuffle and `values` each shuffle's value in
/// and its result out. The instrumentation (Emulator.cpp) replaces such
/// runs of `__musa_emu_shuffle` by one call, so that the lanes of a warp
/// take one turn per run instead of one per shuffle.
constexpr const char *kShuffleBatch = "__musa_emu_shuffle_batch";
/// The same where every shuffle of the run has the same operands:
/// `void (i32 count, i32 kind, i32 offset, i32 width, i64 *values)`.
constexpr const char *kShuffleBatchUniform =
    "__musa_emu_shuffle_batch_uniform";

/// A run of global and shared stores of one thread with nothing but pure
/// computation between them (masked ones included), carried out in one
/// turn: `void (i32 count, const StoreBatchInfo *info, StoreBatchRecord
/// *records)`. The instrumentation (Emulator.cpp) replaces such runs by one
/// call; the runtime keeps what converged lanes store in statement order.
constexpr const char *kStoreBatch = "__musa_emu_store_batch";

/// What the instrumentation knows of store i of a batch (a constant array;
/// the field order is the instrumentation's).
struct StoreBatchInfo {
  uint32_t bytes, align;
  int32_t kind;      // the check's kind bits (a store, maybe via a loaded pointer)
  uint32_t shared;   // 1: shared memory, 0: global
};

/// What store i of a batch does at run time, written by the kernel before
/// the call: the address, whether the store happens (its mask), the value.
struct StoreBatchRecord {
  uint64_t address;
  uint64_t enabled;
  alignas(16) char value[16];
};

/// `ptr __musa_emu_fast_bounds()`: the calling thread's FastBounds, which
/// the instrumentation reads to pass, without a call, the checks that need
/// no switch where an access lies inside them (anything else calls the
/// check).
constexpr const char *kFastBounds = "__musa_emu_fast_bounds";

/// Memory every access inside of which the full check would accept: the
/// argument buffer the last global access hit, and the block's shared
/// memory (empty in the race-check mode, where every shared access is
/// recorded). Byte ranges [lo, hi); the field order is the instrumentation's.
struct FastBounds {
  uint64_t globalLo = 0, globalHi = 0;
  uint64_t sharedLo = 0, sharedHi = 0;
};

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
