//===- TargetInfo.h - The hardware interface of the lowering ----*- C++ -*-===//
//
// Everything the TTGIR -> LLVM lowering needs from the hardware goes through
// TargetInfo: patterns never look at the architecture. An implementation is
// built from a row of the architecture table (MUSAArch.h) and a TargetKind:
// the MUSA GPU itself (`llvm.musa.*` calls, MUSATargetInfo.cpp), the CPU
// emulator emulating that GPU's warps (EmulatorTargetInfo.cpp), or the GPU
// proxy running that GPU's code on an NVIDIA GPU (ProxyTargetInfo.cpp). The
// TTGIR passes ask it the few things they plan by that differ between
// targets (the TME buffers' layout, which descriptors TME reads), so that no
// pass branches on the kind.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_TARGET_TARGETINFO_H
#define TRITON_MUSA_TARGET_TARGETINFO_H

#include "catalogue/MatrixInstrs.h"
#include "dialects/MUSAGPU/IR/Dialect.h"
#include "target/MUSAArch.h"
#include "target/TargetPassOptions.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

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

/// One warp-level matrix instruction (the atom of musagpu.wmma): d = a * b
/// + c on the row's m x k by k x n tile, with the row's element kinds; the
/// LLVM types of the fragment values are those of the calling thread's
/// values (see TargetInfo::wmma).
struct WMMAInstr {
  /// The catalogue's row (catalogue/MatrixInstrs.h).
  const musagpu::MatrixInstr &row;
};

/// What a TME descriptor describes: a tensor in global memory. Shape and
/// strides are outermost first, as in `tt.make_tensor_descriptor`.
struct TMEDescriptorFields {
  /// `!llvm.ptr<1>` base address of the tensor.
  Value base;
  /// i32 per dimension.
  SmallVector<Value> shape;
  /// i64 per dimension, in elements.
  SmallVector<Value> strides;
  unsigned elementBytes = 0;
  /// The tensor's element type (the descriptor's block element type).
  Type elementType;
  /// Out-of-bounds elements read as NaN instead of zero.
  bool padNaN = false;
  /// The kernel parameter holding the host-encoded MUtensorDescriptor (an
  /// argument marked kTMEDescriptorArgAttrName), or null.
  Value hostEncoded;
};

/// The TME descriptor kernel-parameter ABI on the GPU (MUSA-FACTS.md, "ABI"):
/// --musa-lower-descriptors-to-tme marks each `!tt.tensordesc` kernel
/// argument the host passes as a 64-byte MUtensorDescriptor with this unit
/// argument attribute; the kernel then receives it `byval([64 x i8]) align
/// 64` and grid-constant, followed by its i32 shape and i64 strides.
inline constexpr llvm::StringLiteral kTMEDescriptorArgAttrName =
    "musagpu.tme_descriptor";
/// Module attribute (dense i32 array): per tensor-descriptor argument of the
/// kernel, in order, 1 where the host encodes a MUtensorDescriptor, 0 where
/// it passes the tensor's base address (the launcher's tensordesc_meta).
inline constexpr llvm::StringLiteral kTMEDescriptorArgsAttrName =
    "musagpu.tme_descriptor_args";
/// Bytes and alignment of a MUtensorDescriptor.
inline constexpr unsigned kTMEDescriptorBytes = 64;

/// One hardware TME tile transfer between global and shared memory (the
/// operands of `llvm.musa.tme.{ld.tile,st}.<rank>d`, MUSA-FACTS.md).
struct TMETransfer {
  /// i64 descriptor address (getTMEDescriptorAddress).
  Value descriptor;
  /// `!llvm.ptr<3>`: the first byte of the box in shared memory.
  Value shared;
  /// Box size and i32 position, innermost dimension first.
  SmallVector<int32_t> box;
  SmallVector<Value> coords;
  /// Hardware codes of the swizzle (musagpu enums) and cache hints.
  int32_t swizzleGranularity = 0, swizzleStride = 0, swizzleLine = 0;
  int32_t prefetch = 0, innerPersist = 0, outerPersist = 0, l2Policy = 0;
};

//===----------------------------------------------------------------------===//
// SQMMA (mp_31 squad MMA)
//===----------------------------------------------------------------------===//

/// One SQMMA instruction of a squad (4 warps): d = a * b + c on the row's
/// m x k by k x n tile, A and B read from shared memory through descriptors,
/// the accumulator (f32, i32 for s8) in the registers of the squad's 128
/// threads, m * n / 128 per thread in the order of MUSA-FACTS.md's fragment
/// (see sqmmaTile in layouts/LayoutConversion.cpp).
struct SQMMAInstr {
  /// The catalogue's row (catalogue/MatrixInstrs.h).
  const musagpu::MatrixInstr &row;
  /// A stored M-major (column-major) / B stored K-major (column-major).
  bool transA = false, transB = false;
};

/// Where one SQMMA operand tile starts in shared memory and how it is laid
/// out: `tileStart` (`!llvm.ptr<3>`) points at the tile's first element
/// (unswizzled address), rows of the operand's contiguous dimension are
/// `leadingBytes` apart (a power of two, at most 256), and the buffer is
/// swizzled with the #musagpu.tme_shared codes `swizzleGranularity`,
/// `swizzleStride` and `swizzleLine`. A contiguous dimension wider than
/// one row continues in the next piece of rows, `pieceStrideBytes` further
/// (all rows of a piece come before the next piece).
struct SQMMAOperandTile {
  Value tileStart;
  /// The element type in memory (f16, bf16, f32, i8, f8...).
  Type elementType;
  unsigned leadingBytes = 0;
  /// The codes of the musagpu enums (MUSAGPUEnums.td): granularity
  /// none/16/32/64/128 B = 0..4, stride 32/64/128/256 B = 0..3, line
  /// 128/256 B = 0/1.
  int32_t swizzleGranularity = 0, swizzleStride = 0, swizzleLine = 0;
  int64_t pieceStrideBytes = 0;

  /// The swizzle in bytes (granularity 0: no swizzle).
  int64_t getSwizzleGranularityBytes() const {
    return swizzleGranularity == 0 ? 0 : int64_t(8) << swizzleGranularity;
  }
  int64_t getSwizzleStrideBytes() const {
    return int64_t(32) << swizzleStride;
  }
  int64_t getSwizzleLineBytes() const { return int64_t(128) << swizzleLine; }
};

class TargetInfo {
public:
  explicit TargetInfo(const MUSAArchInfo &arch) : arch(arch) {}
  virtual ~TargetInfo();

  /// The architecture's row of the table.
  const MUSAArchInfo &getArch() const { return arch; }
  /// What the code runs on: the catalogue's rows of this kind are the
  /// matrix instructions this target issues.
  virtual TargetKind getKind() const = 0;
  /// Why this target cannot run code compiled for its architecture, or "".
  virtual std::string whyNotArch() const { return ""; }
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
  /// Address space of a thread's stack slots (allocas): generic on the
  /// proxy (NVPTX) and the emulator (host).
  virtual unsigned getPrivateAddressSpace() const { return 0; }

  /// Declares, once per module, whatever getSharedMemoryBase refers to.
  /// Called before the conversion on modules that use shared memory. By
  /// default the block's shared memory is one external, zero-length array in
  /// the shared address space whose size the driver sets at launch (as for
  /// NVIDIA's dynamic shared memory), so the kernel's need is only known to
  /// the launcher.
  virtual void declareSharedMemory(ModuleOp module) const;
  /// Pointer (in the shared address space) to byte 0 of the block's shared
  /// memory, which --musa-allocate-shared-memory hands out by offset.
  virtual Value getSharedMemoryBase(OpBuilder &b, Location loc) const;

  /// Thread index in the block along `dim` (0 = x, 1 = y, 2 = z), i32.
  virtual Value threadId(OpBuilder &b, Location loc, unsigned dim) const = 0;
  /// `warp`, the calling thread's warp index, in a form the target's
  /// compiler knows is the same on every lane (as is). The proxy reads it
  /// through a shuffle from lane 0, as Triton's NVIDIA backend does: ptxas
  /// then keeps what is computed from it (a wgmma descriptor of a squad's
  /// operand) in uniform registers instead of moving it there before every
  /// instruction.
  virtual Value warpUniform(OpBuilder &b, Location loc, Value warp) const {
    return warp;
  }
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
  Value shuffleIdx(OpBuilder &b, Location loc, Value value, Value lane,
                   unsigned width = 0) const;

  /// Integer type of a ballot: one bit per lane of a warp.
  Type getBallotType(MLIRContext *ctx) const {
    return IntegerType::get(ctx, arch.ballotBits);
  }
  /// One bit per lane, set where `pred` (i1) holds.
  virtual Value ballot(OpBuilder &b, Location loc, Value pred) const = 0;

  /// `x / y` on f32 as Triton's `/` means it (tl.math.div_rn is the
  /// correctly rounded one, tt.precise_divf): by default LLVM's fdiv, which
  /// the target's code generator lowers.
  virtual Value divideF32(OpBuilder &b, Location loc, Value x, Value y) const;
  /// 2^x on f32 as tl.exp2 means it (the GPU's approximate base-2
  /// exponential): by default llvm.exp2.
  virtual Value exp2F32(OpBuilder &b, Location loc, Value x) const;

  /// A global load of `type` (a scalar or vector of 2, 4, 8 or 16 bytes)
  /// from `ptr` where `pred` (i1) holds, `other` (of `type`) elsewhere, as
  /// one predicated instruction on a target that has them; null, emitting
  /// nothing, where the caller must branch around a plain load.
  virtual Value loadGlobalIf(OpBuilder &b, Location loc, Type type, Value ptr,
                             Value pred, Value other) const {
    return Value();
  }
  /// A global store of `value` to `ptr` where `pred` holds, as one
  /// predicated instruction (returns true) or nothing (false: the caller
  /// branches), as loadGlobalIf.
  virtual bool storeGlobalIf(OpBuilder &b, Location loc, Value value,
                             Value ptr, Value pred) const {
    return false;
  }

  /// Starts an asynchronous copy of `bytes` (4, 8 or 16; `src` and `dst`
  /// aligned to it) from global `src` to shared `dst` by the calling thread.
  /// The data is only guaranteed in `dst` after this thread's next
  /// asyncCopyWait; other threads see it after a block barrier following
  /// that wait.
  virtual void asyncCopyGlobalToShared(OpBuilder &b, Location loc, Value dst,
                                       Value src, unsigned bytes) const = 0;
  /// As asyncCopyGlobalToShared where `pred` (i1) holds; where it does not,
  /// reads nothing and fills `dst` with zeros instead. One instruction on a
  /// target whose copy takes a source size, one runtime call on the emulator
  /// (returns true); false, emitting nothing, where the caller must branch
  /// (MUSA's g2s has no source size).
  virtual bool asyncCopyGlobalToSharedOrZero(OpBuilder &b, Location loc,
                                             Value dst, Value src,
                                             unsigned bytes,
                                             Value pred) const {
    return false;
  }
  /// Waits until every asynchronous copy the calling thread has started has
  /// landed (only this thread's copies: there are no copy groups).
  virtual void asyncCopyWait(OpBuilder &b, Location loc) const = 0;
  /// As asyncCopyWait where `pred` (i1) holds. One predicated instruction
  /// on a target that has it (returns true); false, emitting nothing, where
  /// the caller must branch.
  virtual bool asyncCopyWaitIf(OpBuilder &b, Location loc, Value pred) const {
    return false;
  }

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

  /// One WMMA instruction of the calling warp: `a`, `b`, `c` are the
  /// calling thread's fragment values in the atom's register order (the
  /// low register bits of #musagpu.wmma_operand / #musagpu.wmma, see
  /// layouts/LayoutConversion.cpp), as LLVM values of the element types;
  /// returns the thread's d values in c's order. Fails (reporting at `loc`)
  /// where the target has no such instruction (the base class: none).
  virtual FailureOr<SmallVector<Value>> wmma(OpBuilder &b, Location loc,
                                             const WMMAInstr &instr,
                                             ArrayRef<Value> a,
                                             ArrayRef<Value> bOperand,
                                             ArrayRef<Value> c) const;

  //===--------------------------------------------------------------------===//
  // TME and async barriers (architectures with `hasTME`). Each hook is what
  // one thread issues; callers pick the thread and place block barriers.
  // The base class reports, at `loc`, that the target has no TME (which
  // fails the conversion): --musa-lower-descriptors-to-tme only produces
  // these ops for targets that implement them.
  //===--------------------------------------------------------------------===//

  /// Whether the architecture has the tensor memory engine and async
  /// barriers (patterns ask this instead of reading the arch row).
  bool hasTME() const { return arch.hasTME; }

  /// The i64 address of a TME descriptor of `fields`, built at the builder's
  /// insertion point: on the GPU that of the host-encoded parameter, on the
  /// emulator one the kernel builds. Fails (reporting at `loc`) where the
  /// target cannot make one.
  virtual FailureOr<Value>
  getTMEDescriptorAddress(OpBuilder &b, Location loc,
                          const TMEDescriptorFields &fields) const;
  /// Bytes (and alignment) of a host-encoded descriptor kernel parameter:
  /// a MUtensorDescriptor (64) on the MUSA GPU.
  virtual unsigned getTMEDescriptorBytes() const { return kTMEDescriptorBytes; }
  /// Whether TME reads only descriptors the host encoded (kernel
  /// arguments): one the kernel makes (`tt.make_tensor_descriptor`) then
  /// stays without TME, and the host passes a descriptor argument in one
  /// form for all its uses. The emulator's TME reads a descriptor's fields
  /// however they were made.
  virtual bool tmeReadsHostEncodedDescriptorsOnly() const { return true; }
  /// Why `box` (innermost dimension first), a legal MUSA TME box, is not one
  /// transfer of this target, or "".
  virtual std::string whyNotTMEBox(ArrayRef<int64_t> box) const { return ""; }
  /// The shared layout of a TME buffer of `shape` (dims fastest last), and
  /// the alignment its swizzle needs (TME swizzles absolute addresses).
  virtual std::pair<musagpu::TMESharedEncodingAttr, int32_t>
  getTMESharedEncoding(MLIRContext *ctx, ArrayRef<int64_t> shape,
                       unsigned elementBits) const;
  /// Makes the calling thread's earlier shared-memory writes visible to the
  /// asynchronous readers of shared memory: a TME tile store's source and
  /// an SQMMA's operand tiles. Every writing thread runs it before the block
  /// barrier that precedes the read (nothing where those units read shared
  /// memory as the threads wrote it, as on MUSA).
  virtual void fenceSharedWritesForAsyncReads(OpBuilder &b,
                                              Location loc) const {}
  /// Starts a tile load whose bytes complete on async barrier `barrier`
  /// (i32).
  virtual void tmeLoad(OpBuilder &b, Location loc, Value barrier,
                       const TMETransfer &transfer) const;
  /// Starts a tile store.
  virtual void tmeStore(OpBuilder &b, Location loc,
                        const TMETransfer &transfer) const;
  /// Closes the group of started stores.
  virtual void tmeStoreCommit(OpBuilder &b, Location loc) const;
  /// Waits until committed stores have read their shared-memory sources.
  virtual void tmeStoreReadWait(OpBuilder &b, Location loc) const;
  /// Reserves async barrier ids 1..count for the function.
  virtual void asyncBarrierRecord(OpBuilder &b, Location loc,
                                  unsigned count) const;
  /// Async barrier `barrier` completes a phase after `arriveCount` arrivals
  /// (and its expected bytes), starting in phase `phase` (i32 operands).
  virtual void asyncBarrierInit(OpBuilder &b, Location loc, Value barrier,
                                Value arriveCount, Value phase) const;
  /// The current phase of `barrier` also waits for `bytes` (i32).
  virtual void asyncBarrierExpectBytes(OpBuilder &b, Location loc,
                                       Value barrier, Value bytes) const;
  /// One arrival on `barrier`.
  virtual void asyncBarrierArrive(OpBuilder &b, Location loc,
                                  Value barrier) const;
  /// Waits until the phase of parity `phase` of `barrier` has completed.
  virtual void asyncBarrierWait(OpBuilder &b, Location loc, Value barrier,
                                Value phase) const;

  //===--------------------------------------------------------------------===//
  // SQMMA (architectures whose matrix unit is SQMMA). Every thread of a
  // squad issues the same calls with the same operands. The base class
  // reports, at `loc`, "SQMMA is not available on this target".
  //===--------------------------------------------------------------------===//

  /// The i32 shared-memory descriptor of one operand tile.
  virtual FailureOr<Value> sqmmaDescriptor(OpBuilder &b, Location loc,
                                           const SQMMAOperandTile &tile) const;
  /// Issues one SQMMA instruction on descriptors `descA`, `descB` and the
  /// calling thread's accumulators `c` (LLVM f32 or i32 values); returns d
  /// in c's order. The result may only be read after sqmmaWait.
  virtual FailureOr<SmallVector<Value>> sqmma(OpBuilder &b, Location loc,
                                              const SQMMAInstr &instr,
                                              Value descA, Value descB,
                                              ArrayRef<Value> c) const;
  /// Waits until the SQMMA instructions the calling thread issued are done.
  virtual LogicalResult sqmmaWait(OpBuilder &b, Location loc) const;

  /// What the lowering calls: one SQMMA instruction on operand tiles `a`
  /// and `bTile`. By default a descriptor per tile (which has no swizzle
  /// line field: the line must be 256 bytes, as on MUSA) and sqmma(); a
  /// target whose instruction is smaller than SQMMA's (the proxy's wgmma)
  /// issues several, addressing sub-tiles itself.
  virtual FailureOr<SmallVector<Value>>
  sqmmaOnTiles(OpBuilder &b, Location loc, const SQMMAInstr &instr,
               const SQMMAOperandTile &a, const SQMMAOperandTile &bTile,
               ArrayRef<Value> c) const;
  /// What the lowering calls for musagpu.sqmma_wait on the accumulator
  /// values `values` (LLVM scalars): sqmmaWait(), then the values, which
  /// may only be read after the wait. A target whose results arrive in the
  /// registers asynchronously (wgmma) returns them from the wait itself, so
  /// that no read is scheduled before it.
  virtual FailureOr<SmallVector<Value>>
  sqmmaWaitFor(OpBuilder &b, Location loc, ArrayRef<Value> values) const;

protected:
  const MUSAArchInfo &arch;
};

/// The target interface of `arch` on `kind`.
std::unique_ptr<TargetInfo>
createTargetInfo(const MUSAArchInfo &arch,
                 TargetKind kind = TargetKind::Device);
/// The MUSA GPU's implementation (MUSATargetInfo.cpp).
std::unique_ptr<TargetInfo> createMUSATargetInfo(const MUSAArchInfo &arch);
/// The CPU emulator's implementation (EmulatorTargetInfo.cpp).
std::unique_ptr<TargetInfo> createEmulatorTargetInfo(const MUSAArchInfo &arch);
/// The GPU proxy's implementation (ProxyTargetInfo.cpp, NVVM).
std::unique_ptr<TargetInfo> createProxyTargetInfo(const MUSAArchInfo &arch);

} // namespace mlir::triton_musa

#endif // TRITON_MUSA_TARGET_TARGETINFO_H
