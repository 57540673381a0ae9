//===- TargetInfo.h - The hardware interface of the lowering ----*- C++ -*-===//
//
// Everything the TTGIR -> LLVM lowering needs from the hardware goes through
// TargetInfo: patterns never look at the architecture. The MUSA
// implementations (mp_31, mp_22) emit calls to the `llvm.musa.*` functions,
// declared once per module as external llvm.funcs; a CPU emulator target can
// implement the same interface.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_TARGETINFO_H
#define TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_TARGETINFO_H

#include "conversion/TritonGPUToMUSA/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Value.h"

#include <memory>

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
  virtual ~TargetInfo();

  /// Architecture name as in the target string, e.g. "mp_31".
  virtual StringRef getArchName() const = 0;
  /// Threads per warp.
  virtual unsigned getWarpSize() const = 0;
  /// Static shared memory per block, in bytes.
  virtual unsigned getMaxSharedMemoryBytes() const = 0;

  /// Address spaces of global and shared memory pointers.
  virtual unsigned getGlobalAddressSpace() const = 0;
  virtual unsigned getSharedAddressSpace() const = 0;

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
  virtual Type getBallotType(MLIRContext *ctx) const = 0;
  /// One bit per lane, set where `pred` (i1) holds.
  virtual Value ballot(OpBuilder &b, Location loc, Value pred) const = 0;

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
};

/// What the lowering runs on: the MUSA GPU itself, or the CPU emulator
/// (emulator/) emulating that GPU's warps.
enum class TargetKind { Device, Emulator };

/// The target interface of `arch` on `kind`.
std::unique_ptr<TargetInfo> createTargetInfo(MUSAArch arch,
                                             TargetKind kind = TargetKind::Device);
/// The CPU emulator's implementation (EmulatorTargetInfo.cpp).
std::unique_ptr<TargetInfo> createEmulatorTargetInfo(MUSAArch arch);

} // namespace mlir::triton_musa

#endif // TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_TARGETINFO_H
