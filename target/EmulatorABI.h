//===- EmulatorABI.h - The contract between emulated kernels and runtime -===//
//
// Kernels lowered for the CPU emulator (EmulatorTargetInfo.cpp) call into the
// emulator's runtime (emulator/Runtime.cpp and the files beside it) and are
// instrumented (emulator/Instrumentation.cpp, Batching.cpp) and entered by
// emulator/Emulator.cpp. All of them include this header, so the function
// names, the numbering of shuffle and access kinds, the layouts of the
// records the instrumentation hands the runtime and the address spaces are
// agreed in one place. Header only: no link dependency.
//
//   i32    thread_id(i32 dim), block_id(i32 dim), num_blocks(i32 dim)
//   ptr<3> shared_base()                 the block's shared memory
//   void   barrier(), shared_barrier(), warp_sync()
//   i64    shuffle(i32 ShuffleKind, i64 value, i32 offset, i32 width)
//   i64    ballot(i1 pred, i32 word)     bits 64*word.. of the warp's vote
//   i32    printf(ptr format, ...)       C varargs, promoted arguments
//   void   assert_fail(ptr message, ptr file, i32 line, ptr function)
//   void   wmma(i32 kind, i32 m, i32 n, i32 k, ptr a, ptr b, ptr acc)
//          one warp-level MMA atom of the calling warp: a, b hold the
//          thread's operand fragment (raw element bits, dense), acc its
//          accumulators (f32), updated in place; the fragment layouts are
//          the fragment of the catalogue's row m x n x k for the warp
//          size (MatrixInstrs.h), whose owner tables are MatrixUnits.cpp's
//   i32    sqmma_desc(ptr<3> tileStart, i32 leadingBytes, i32 sg, i32 ss)
//          the emulator's SQMMA descriptor of an operand tile (layout in
//          SQMMADescriptor below): the device's desc intrinsic takes the
//          element loaded from the tile start, the emulator its address
//   void   sqmma(i32 kind, i32 m, i32 n, i32 k, i32 descA, i32 descB,
//                i32 transA, i32 transB, ptr acc)
//          one SQMMA instruction of the calling squad (4 warps): every
//          thread of the squad calls it with the same operands; acc holds
//          the thread's m*n/128 accumulators (f32, i32 for s8), updated in
//          place; A and B are read from shared memory through the
//          descriptors, with the swizzle they name
//   void   sqmma_wait()                  the thread's SQMMAs are complete
//   void   async_copy(ptr<3> dst, ptr<1> src, i32 bytes)
//                                        source read now, written to dst at
//                                        the thread's next async_copy_wait
//   void   async_copy_or_zero(ptr<3> dst, ptr<1> src, i32 bytes, i32 pred)
//                                        async_copy where pred != 0; where 0,
//                                        src is not read and dst gets zeros
//                                        at once (MUSA's masked-off store)
//   void   async_copy_wait()             lands the thread's pending copies
//   void   check_global(ptr<1>, i64 bytes, i64 align, i32 AccessKind)
//   void   check_shared(ptr<3>, i64 bytes, i64 align, i32 AccessKind)
//   void   count(i64 instructions)
//   void   tme_load(i32 bar, ptr<3> smem, i64 desc, i32 rank, i32 box x5,
//                   i32 coord x5, i32 sg, i32 ss, i32 sl)
//   void   tme_store(ptr<3> smem, i64 desc, i32 rank, i32 box x5,
//                    i32 coord x5, i32 sg, i32 ss, i32 sl)
//   void   tme_store_commit(), tme_store_read_wait()
//   void   async_bar_record(i32 count)
//   void   async_bar_init(i32 bar, i32 count, i32 phase)
//   void   async_bar_add_trans(i32 bar, i32 bytes)
//   void   async_bar_arrive(i32 bar), async_bar_wait(i32 bar, i32 phase)
//
// Inserted by the instrumentation (not by the lowering):
//   void   check_global_in_turn(...), check_shared_in_turn(...)
//          check_global / check_shared without the switch to the other
//          threads first (kCheckGlobalNoSwitch)
//   ptr    fast_bounds()                 the thread's FastBounds
//   void   async_copy_loaded_src(...), async_copy_or_zero_loaded_src(...)
//          the copies with a source that may be a loaded pointer
//   void   shuffle_batch(i32 count, ptr ops, ptr values)
//   void   shuffle_batch_uniform(i32 count, i32 kind, i32 offset,
//                                i32 width, ptr values)
//   void   store_batch(i32 count, ptr StoreBatchInfo, ptr StoreBatchRecord)
//
// TME boxes and coordinates are innermost first, unused dimensions 1 and
// 0; `desc` is the address of an emulator TME descriptor (TMEDescriptorSlot
// below), which the kernel fills from the tensor's base, shape and strides.
//   void   entry(const i64 *slots)       the trampoline the launcher calls
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_TARGET_EMULATORABI_H
#define TRITON_MUSA_TARGET_EMULATORABI_H

#include "catalogue/MatrixInstrs.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace mlir::triton_musa::emulator_abi {

// Runtime functions the lowered kernel calls.
constexpr llvm::StringLiteral kThreadId = "__musa_emu_thread_id";
constexpr llvm::StringLiteral kBlockId = "__musa_emu_block_id";
constexpr llvm::StringLiteral kNumBlocks = "__musa_emu_num_blocks";
constexpr llvm::StringLiteral kSharedBase = "__musa_emu_shared_base";
constexpr llvm::StringLiteral kBarrier = "__musa_emu_barrier";
constexpr llvm::StringLiteral kSharedBarrier = "__musa_emu_shared_barrier";
constexpr llvm::StringLiteral kWarpSync = "__musa_emu_warp_sync";
constexpr llvm::StringLiteral kShuffle = "__musa_emu_shuffle";
constexpr llvm::StringLiteral kBallot = "__musa_emu_ballot";
constexpr llvm::StringLiteral kPrintf = "__musa_emu_printf";
constexpr llvm::StringLiteral kAssertFail = "__musa_emu_assert_fail";
constexpr llvm::StringLiteral kWMMA = "__musa_emu_wmma";
constexpr llvm::StringLiteral kTMELoad = "__musa_emu_tme_load";
constexpr llvm::StringLiteral kTMEStore = "__musa_emu_tme_store";
constexpr llvm::StringLiteral kTMEStoreCommit = "__musa_emu_tme_store_commit";
constexpr llvm::StringLiteral kTMEStoreReadWait =
    "__musa_emu_tme_store_read_wait";
constexpr llvm::StringLiteral kAsyncBarRecord = "__musa_emu_async_bar_record";
constexpr llvm::StringLiteral kAsyncBarInit = "__musa_emu_async_bar_init";
constexpr llvm::StringLiteral kAsyncBarAddTrans =
    "__musa_emu_async_bar_add_trans";
constexpr llvm::StringLiteral kAsyncBarArrive = "__musa_emu_async_bar_arrive";
constexpr llvm::StringLiteral kAsyncBarWait = "__musa_emu_async_bar_wait";
constexpr llvm::StringLiteral kSQMMADesc = "__musa_emu_sqmma_desc";
constexpr llvm::StringLiteral kSQMMA = "__musa_emu_sqmma";
constexpr llvm::StringLiteral kSQMMAWait = "__musa_emu_sqmma_wait";
constexpr llvm::StringLiteral kAsyncCopy = "__musa_emu_async_copy";
constexpr llvm::StringLiteral kAsyncCopyOrZero =
    "__musa_emu_async_copy_or_zero";
constexpr llvm::StringLiteral kAsyncCopyWait = "__musa_emu_async_copy_wait";
// Functions the emulator itself inserts (instrumentation) or defines.
constexpr llvm::StringLiteral kCheckGlobal = "__musa_emu_check_global";
constexpr llvm::StringLiteral kCheckShared = "__musa_emu_check_shared";
constexpr llvm::StringLiteral kCount = "__musa_emu_count";
constexpr llvm::StringLiteral kEntry = "__musa_emu_entry";

/// `__musa_emu_async_copy` with a source that may be a loaded pointer (the
/// instrumentation renames such calls).
constexpr llvm::StringLiteral kAsyncCopyFromLoadedPointer =
    "__musa_emu_async_copy_loaded_src";
constexpr llvm::StringLiteral kAsyncCopyOrZeroFromLoadedPointer =
    "__musa_emu_async_copy_or_zero_loaded_src";

/// `__musa_emu_check_global` and `__musa_emu_check_shared` without the
/// switch to the other threads first: the instrumentation (LockstepPlan in
/// Instrumentation.cpp) calls these at the accesses where no other thread's
/// turn can change what the kernel observes (a load with only loads since
/// the last switch).
constexpr llvm::StringLiteral kCheckGlobalNoSwitch =
    "__musa_emu_check_global_in_turn";
constexpr llvm::StringLiteral kCheckSharedNoSwitch =
    "__musa_emu_check_shared_in_turn";

/// A run of warp shuffles that do not depend on each other, exchanged at
/// once: `void (i32 count, const i32 *ops, i64 *values)`, `ops` holding
/// (kind, offset, width) per shuffle and `values` each shuffle's value in
/// and its result out. The instrumentation (Batching.cpp) replaces such
/// runs of `__musa_emu_shuffle` by one call, so that the lanes of a warp
/// take one turn per run instead of one per shuffle.
constexpr llvm::StringLiteral kShuffleBatch = "__musa_emu_shuffle_batch";
/// The same where every shuffle of the run has the same operands:
/// `void (i32 count, i32 kind, i32 offset, i32 width, i64 *values)`.
constexpr llvm::StringLiteral kShuffleBatchUniform =
    "__musa_emu_shuffle_batch_uniform";

/// A run of global and shared stores of one thread with nothing but pure
/// computation between them (masked ones included), carried out in one
/// turn: `void (i32 count, const StoreBatchInfo *info, StoreBatchRecord
/// *records)`. The instrumentation (Batching.cpp) replaces such runs by one
/// call; the runtime keeps what converged lanes store in statement order.
constexpr llvm::StringLiteral kStoreBatch = "__musa_emu_store_batch";

/// `ptr __musa_emu_fast_bounds()`: the calling thread's FastBounds, which
/// the instrumentation reads to pass, without a call, the checks that need
/// no switch where an access lies inside them (anything else calls the
/// check).
constexpr llvm::StringLiteral kFastBounds = "__musa_emu_fast_bounds";

/// The `kind` operand of shuffle: which lane each lane reads.
enum class ShuffleKind : int32_t { Xor = 0, Up = 1, Down = 2, Idx = 3 };

/// The `kind` operand of wmma and sqmma: the operands' element type, the
/// value of the catalogue's musagpu::MmaElementKind (MatrixInstrs.h: f16 0,
/// bf16 1, tf32 2, s8 3, e4m3 4, e5m2 5).
inline int32_t toABI(mlir::musagpu::MmaElementKind kind) {
  return int32_t(kind);
}

/// The emulator's SQMMA descriptor, modelled on MUTLASS's bit fields
/// (MUSA-FACTS.md): bits 0-17 the byte offset of the tile start from the
/// block's shared memory, 18-20 the leading stride code (8 B = 1 ... 256 B
/// = 6), 21-23 the swizzle granularity code, 24-25 the swizzle stride code
/// (the device packs the granularity in 2 bits; the emulator's layout is
/// its own, only the runtime decodes it).
namespace sqmma_desc {
constexpr uint32_t kAddressBits = 18, kLeadingShift = 18, kGranularityShift = 21,
                   kStrideShift = 24;
} // namespace sqmma_desc

/// The `kind` operand of the access checks.
enum class AccessKind : int32_t { Load = 0, Store = 1, Atomic = 2 };

/// Or-ed into the access kind of `__musa_emu_check_global` by the
/// instrumentation when the pointer may not derive from a kernel parameter,
/// e.g. it was loaded from memory: only such an access, when it lies inside
/// none of the launch's buffers, is looked up among
/// `LaunchConfig::liveBuffers` (Runtime.h). An access through a parameter
/// (plus any offset) is checked against the buffers alone, so an overrun
/// stays an error even where another live tensor happens to follow.
constexpr int32_t kLoadedPointerAccess = 0x100;

/// What the instrumentation knows of store i of a batch (kStoreBatch; a
/// constant array; the field order is the instrumentation's).
struct StoreBatchInfo {
  uint32_t bytes, align;
  int32_t kind;    // the check's kind bits (a store, maybe of a loaded pointer)
  uint32_t shared; // 1: shared memory, 0: global
};

/// What store i of a batch does at run time, written by the kernel before
/// the call: the address, whether the store happens (its mask), the value.
struct StoreBatchRecord {
  uint64_t address;
  uint64_t enabled;
  alignas(16) char value[16];
};

/// Memory every access inside of which the full check would accept
/// (kFastBounds): the argument buffer the last global access hit, and the
/// block's shared memory (empty in the race-check mode, where every shared
/// access is recorded). Byte ranges [lo, hi); the field order is the
/// instrumentation's.
struct FastBounds {
  uint64_t globalLo = 0, globalHi = 0;
  uint64_t sharedLo = 0, sharedHi = 0;
};

/// The emulator's TME descriptor (the device's is the 64-byte
/// MUtensorDescriptor the host encodes): kTMEDescriptorSlots i64 slots,
/// indexed by TMEDescriptorSlot; dims and byte strides innermost first.
enum TMEDescriptorSlot : int32_t {
  kTMEDescBase = 0,
  kTMEDescRank = 1,
  kTMEDescElementBytes = 2,
  kTMEDescPadNaN = 3,
  kTMEDescDims = 4,     // 5 slots
  kTMEDescStrides = 9,  // 5 slots, in bytes
  kTMEDescMagic = 14,   // kTMEDescriptorMagic: catches a stray address
};
constexpr int32_t kTMEDescriptorSlots = 16;
constexpr int64_t kTMEDescriptorMagic = 0x54'4D45'4445'5343; // "TMEDESC"
constexpr int32_t kTMEMaxRank = 5;
/// Async barrier ids are 1..kAsyncBarrierMaxId.
constexpr int32_t kAsyncBarrierMaxId = 63;

/// Address spaces of the emulated kernel's pointers (those of the device).
constexpr unsigned kGlobalAddressSpace = 1;
constexpr unsigned kSharedAddressSpace = 3;

} // namespace mlir::triton_musa::emulator_abi

#endif // TRITON_MUSA_TARGET_EMULATORABI_H
