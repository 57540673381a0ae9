//===- TargetInfo.h - The hardware interface of the lowering ----*- C++ -*-===//
//
// Everything the TTGIR -> LLVM lowering needs from the hardware goes through
// TargetInfo: patterns never look at the architecture. An implementation is
// built from a row of the architecture table (MUSAArch.h) and a TargetKind:
// the MUSA GPU itself (`llvm.musa.*` calls, MUSATargetInfo.cpp) or the CPU
// emulator emulating that GPU's warps (EmulatorTargetInfo.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_TARGET_TARGETINFO_H
#define TRITON_MUSA_TARGET_TARGETINFO_H

#include "target/MUSAArch.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Value.h"

#include <memory>
#include <optional>

namespace mlir::triton_musa {

/// Kind of a warp shuffle: which source lane each lane reads.
enum class ShuffleKind {
  /// lane ^ offset.
  Xor,
  /// lane - offset (a lane below the segment start keeps its value).
  Up,
  /// lane + offset (a lane past the segment end keeps its value).
  Down,
  /// lane `offset` of the segment.
  Idx,
};

/// Which threads an atomic operation synchronizes with (the `scope` of
/// tt.atomic_rmw / tt.atomic_cas).
enum class MemoryScope {
  /// The threads of the block (`cta`).
  Block,
  /// Every thread of the device (`gpu`).
  Device,
  /// The device and the host (`sys`).
  System,
};

class TargetInfo {
public:
  explicit TargetInfo(const MUSAArchInfo &arch) : arch(arch) {}
  virtual ~TargetInfo();

  /// The architecture's row of the table.
  const MUSAArchInfo &getArch() const { return arch; }
  /// Architecture name as in the target string, e.g. "mp_31".
  StringRef getArchName() const { return arch.name; }
  /// Threads per warp.
  unsigned getWarpSize() const { return arch.warpSize; }
  /// Static shared memory per block, in bytes.
  unsigned getMaxSharedMemoryBytes() const {
    return arch.maxSharedMemoryBytes;
  }

  /// Address spaces of global and shared memory pointers (those of the
  /// device, which the emulator keeps).
  virtual unsigned getGlobalAddressSpace() const { return 1; }
  virtual unsigned getSharedAddressSpace() const { return 3; }

  /// Declares, once per module, whatever getSharedMemoryBase refers to.
  /// Called before the conversion on modules that use shared memory.
  virtual void declareSharedMemory(ModuleOp module) const = 0;
  /// Pointer (in the shared address space) to byte 0 of the block's shared
  /// memory, which --musa-allocate-shared-memory hands out by offset.
  virtual Value getSharedMemoryBase(OpBuilder &b, Location loc) const = 0;

  /// Thread index in the block along `dim` (0 = x, 1 = y, 2 = z), i32.
  virtual Value threadId(OpBuilder &b, Location loc, unsigned dim) const = 0;
  /// Block index in the grid along `dim`, i32.
  virtual Value blockId(OpBuilder &b, Location loc, unsigned dim) const = 0;
  /// Number of blocks in the grid along `dim`, i32.
  virtual Value numBlocks(OpBuilder &b, Location loc, unsigned dim) const = 0;

  /// Barrier of every thread of the block, ordering all memory accesses.
  virtual void barrier(OpBuilder &b, Location loc) const = 0;
  /// Barrier of the block that only orders shared-memory accesses.
  virtual void sharedMemoryBarrier(OpBuilder &b, Location loc) const = 0;
  /// Synchronizes the lanes of a warp.
  virtual void warpSync(OpBuilder &b, Location loc) const = 0;

  /// Warp shuffle of `value` (an integer or float of at most 64 bits) within
  /// segments of `width` lanes (a power of two, at most the warp size; 0
  /// means the whole warp). `offset` is an i32 lane delta or lane index.
  virtual Value shuffle(OpBuilder &b, Location loc, ShuffleKind kind,
                        Value value, Value offset,
                        unsigned width = 0) const = 0;
  Value shuffleXor(OpBuilder &b, Location loc, Value value, int mask,
                   unsigned width = 0) const;
  Value shuffleUp(OpBuilder &b, Location loc, Value value, int delta,
                  unsigned width = 0) const;
  Value shuffleDown(OpBuilder &b, Location loc, Value value, int delta,
                    unsigned width = 0) const;
  Value shuffleIdx(OpBuilder &b, Location loc, Value value, Value lane,
                   unsigned width = 0) const;

  /// Integer type of a ballot: one bit per lane of a warp.
  Type getBallotType(MLIRContext *ctx) const {
    return IntegerType::get(ctx, arch.ballotBits);
  }
  /// One bit per lane, set where `pred` (i1) holds.
  virtual Value ballot(OpBuilder &b, Location loc, Value pred) const = 0;

  /// Starts an asynchronous copy of `bytes` (4, 8 or 16; `src` and `dst`
  /// aligned to it) from global `src` to shared `dst` by the calling thread.
  /// The data is only guaranteed in `dst` after this thread's next
  /// asyncCopyWait; other threads see it after a block barrier following
  /// that wait.
  virtual void asyncCopyGlobalToShared(OpBuilder &b, Location loc, Value dst,
                                       Value src, unsigned bytes) const = 0;
  /// Waits until every asynchronous copy the calling thread has started has
  /// landed (only this thread's copies: there are no copy groups).
  virtual void asyncCopyWait(OpBuilder &b, Location loc) const = 0;

  /// The LLVM `syncscope` of atomics of `scope`; "" is LLVM's default, the
  /// whole system, which is always correct (and what the base class gives).
  virtual StringRef getSyncScope(MemoryScope scope) const { return ""; }

  /// Prints, from the current thread, the printf-style `format` with `args`
  /// (integers of at most 64 bits, floats, pointers). Fails (reporting at
  /// `loc`) on a target without device-side printing.
  virtual LogicalResult printf(OpBuilder &b, Location loc, StringRef format,
                               ValueRange args) const;

  /// Reports a failed device-side assertion (`message` at `file`:`line` in
  /// `function`) and stops the kernel. Fails (reporting at `loc`) on a
  /// target without device-side assertions.
  virtual LogicalResult assertFail(OpBuilder &b, Location loc,
                                   StringRef message, StringRef file,
                                   unsigned line, StringRef function) const;

protected:
  const MUSAArchInfo &arch;
};

/// What the lowering runs on: the MUSA GPU itself, or the CPU emulator
/// (emulator/) emulating that GPU's warps.
enum class TargetKind { Device, Emulator };

/// "musa" -> Device, "emulator" -> Emulator (the `target=` pass option).
std::optional<TargetKind> parseTargetKind(StringRef name);

/// The target interface of `arch` on `kind`.
std::unique_ptr<TargetInfo>
createTargetInfo(const MUSAArchInfo &arch,
                 TargetKind kind = TargetKind::Device);
/// The MUSA GPU's implementation (MUSATargetInfo.cpp).
std::unique_ptr<TargetInfo> createMUSATargetInfo(const MUSAArchInfo &arch);
/// The CPU emulator's implementation (EmulatorTargetInfo.cpp).
std::unique_ptr<TargetInfo> createEmulatorTargetInfo(const MUSAArchInfo &arch);

} // namespace mlir::triton_musa

#endif // TRITON_MUSA_TARGET_TARGETINFO_H
