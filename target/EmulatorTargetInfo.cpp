//===- EmulatorTargetInfo.cpp - The CPU emulator's target interface -------===//
//
// The target of `--convert-tritongpu-to-musa{target=emulator}`: the same
// lowering as for the device, but every hardware hook becomes a call into
// the CPU emulator's runtime (the functions of EmulatorABI.h).
//
// The runtime runs each GPU thread as a fiber; a call that synchronizes
// (barriers, shuffles, ballots) switches fibers, so every such call is
// convergent. Warp semantics (size, ballot width) follow the emulated arch.
//
//===----------------------------------------------------------------------===//

#include "target/EmulatorABI.h"
#include "target/LLVMCalls.h"
#include "target/TargetInfo.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::triton_musa;
namespace abi = mlir::triton_musa::emulator_abi;

namespace {

/// Strings live in host memory, the emulator's address space 0.
constexpr unsigned kHostAddressSpace = 0;

abi::ShuffleKind toABI(ShuffleKind kind) {
  switch (kind) {
  case ShuffleKind::Xor:
    return abi::ShuffleKind::Xor;
  case ShuffleKind::Up:
    return abi::ShuffleKind::Up;
  case ShuffleKind::Down:
    return abi::ShuffleKind::Down;
  case ShuffleKind::Idx:
    return abi::ShuffleKind::Idx;
  }
  llvm_unreachable("unknown shuffle kind");
}

/// The target interface of the CPU emulator emulating `arch`.
class EmulatorTargetInfo final : public TargetInfo {
public:
  TargetKind getKind() const override { return TargetKind::Emulator; }
  using TargetInfo::TargetInfo;
  /// The emulated TME reads the descriptor's fields, however made.
  bool tmeReadsHostEncodedDescriptorsOnly() const override { return false; }

  /// The runtime hands each block its buffer; nothing to declare.
  void declareSharedMemory(ModuleOp) const override {}
  Value getSharedMemoryBase(OpBuilder &b, Location loc) const override {
    auto ptrType =
        LLVM::LLVMPointerType::get(b.getContext(), getSharedAddressSpace());
    return callFunction(b, loc, abi::kSharedBase, ptrType, {},
                        CalleeKind::ReadNone);
  }

  Value threadId(OpBuilder &b, Location loc, unsigned dim) const override {
    return readId(b, loc, abi::kThreadId, dim);
  }
  Value blockId(OpBuilder &b, Location loc, unsigned dim) const override {
    return readId(b, loc, abi::kBlockId, dim);
  }
  Value numBlocks(OpBuilder &b, Location loc, unsigned dim) const override {
    return readId(b, loc, abi::kNumBlocks, dim);
  }

  void barrier(OpBuilder &b, Location loc) const override {
    callFunction(b, loc, abi::kBarrier, {}, {}, CalleeKind::Convergent);
  }
  void sharedMemoryBarrier(OpBuilder &b, Location loc) const override {
    callFunction(b, loc, abi::kSharedBarrier, {}, {}, CalleeKind::Convergent);
  }
  void warpSync(OpBuilder &b, Location loc) const override {
    callFunction(b, loc, abi::kWarpSync, {}, {}, CalleeKind::Convergent);
  }

  /// The runtime keeps the copy (its source read now) and writes it to
  /// shared memory only at the thread's wait, so a missing wait shows.
  void asyncCopyGlobalToShared(OpBuilder &b, Location loc, Value dst,
                               Value src, unsigned bytes) const override {
    callFunction(b, loc, abi::kAsyncCopy, {},
                 {dst, src, i32Const(b, loc, bytes)}, CalleeKind::SideEffects);
  }
  /// One runtime call where MUSA's lowering branches around the copy and a
  /// zero store: the same effects (the zeros stored at once, the source not
  /// read), without three host blocks per masked vector.
  bool asyncCopyGlobalToSharedOrZero(OpBuilder &b, Location loc, Value dst,
                                     Value src, unsigned bytes,
                                     Value pred) const override {
    Value flag = LLVM::ZExtOp::create(b, loc, b.getI32Type(), pred);
    callFunction(b, loc, abi::kAsyncCopyOrZero, {},
                 {dst, src, i32Const(b, loc, bytes), flag},
                 CalleeKind::SideEffects);
    return true;
  }
  void asyncCopyWait(OpBuilder &b, Location loc) const override {
    callFunction(b, loc, abi::kAsyncCopyWait, {}, {}, CalleeKind::SideEffects);
  }

  /// Any value of at most 64 bits travels as an i64 through one collective.
  Value shuffle(OpBuilder &b, Location loc, ShuffleKind kind, Value value,
                Value offset, unsigned width) const override {
    if (width == 0)
      width = getWarpSize();
    return shuffleInChunks(b, loc, value, /*chunkBits=*/64, [&](Value v64) {
      return callFunction(
          b, loc, abi::kShuffle, b.getI64Type(),
          {i32Const(b, loc, static_cast<int32_t>(toABI(kind))), v64, offset,
           i32Const(b, loc, width)},
          CalleeKind::Convergent);
    });
  }

  /// One collective per 64-lane word of the ballot, low word first.
  Value ballot(OpBuilder &b, Location loc, Value pred) const override {
    Type i64 = b.getI64Type();
    unsigned bits = arch.ballotBits;
    Type resultType = getBallotType(b.getContext());
    Value result;
    for (unsigned word = 0; word * 64 < bits; ++word) {
      Value part = callFunction(b, loc, abi::kBallot, i64,
                                {pred, i32Const(b, loc, word)},
                                CalleeKind::Convergent);
      if (bits < 64) {
        result = LLVM::TruncOp::create(b, loc, resultType, part);
        break;
      }
      if (bits > 64) {
        part = LLVM::ZExtOp::create(b, loc, resultType, part);
        if (word)
          part = LLVM::ShlOp::create(
              b, loc, part,
              LLVM::ConstantOp::create(
                  b, loc, resultType,
                  b.getIntegerAttr(resultType, 64 * word)));
      }
      result = result ? LLVM::OrOp::create(b, loc, result, part).getResult()
                      : part;
    }
    return result;
  }

  /// Whether the emulator takes `row` (the catalogue's): a lowered row
  /// marked for the emulator.
  LogicalResult checkRow(Location loc, const musagpu::MatrixInstr &row) const {
    if (row.isLowered() && row.isFor(TargetKind::Emulator))
      return success();
    return emitError(loc) << "the emulator has no " << row.describe() << " ("
                          << getArchName() << ")";
  }

  /// The thread's fragments go through entry-block slots to the runtime,
  /// which gathers the warp's fragments and computes the instruction.
  FailureOr<SmallVector<Value>> wmma(OpBuilder &b, Location loc,
                                     const WMMAInstr &instr, ArrayRef<Value> a,
                                     ArrayRef<Value> bOperand,
                                     ArrayRef<Value> c) const override {
    if (failed(checkRow(loc, instr.row)))
      return failure();
    auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
    auto slot = [&](ArrayRef<Value> values) {
      Type elem = values.front().getType();
      Value array = getEntryAlloca(
          b, loc, LLVM::LLVMArrayType::get(elem, values.size()),
          kHostAddressSpace);
      for (auto [i, v] : llvm::enumerate(values)) {
        Value ptr = LLVM::GEPOp::create(b, loc, ptrType, elem, array,
                                        ArrayRef<LLVM::GEPArg>{int32_t(i)});
        LLVM::StoreOp::create(b, loc, v, ptr);
      }
      return array;
    };
    Value aSlot = slot(a), bSlot = slot(bOperand), cSlot = slot(c);
    callFunction(b, loc, abi::kWMMA, {},
                 {i32Const(b, loc, abi::toABI(instr.row.a)),
                  i32Const(b, loc, instr.row.m), i32Const(b, loc, instr.row.n),
                  i32Const(b, loc, instr.row.k), aSlot,
                  bSlot, cSlot},
                 CalleeKind::Convergent);
    SmallVector<Value> d;
    Type accType = c.front().getType();
    for (unsigned i = 0; i < c.size(); ++i) {
      Value ptr = LLVM::GEPOp::create(b, loc, ptrType, accType, cSlot,
                                      ArrayRef<LLVM::GEPArg>{int32_t(i)});
      d.push_back(LLVM::LoadOp::create(b, loc, accType, ptr));
    }
    return d;
  }

  /// The runtime encodes the tile's shared address (EmulatorABI.h), where
  /// the device's intrinsic takes the element loaded from it.
  FailureOr<Value>
  sqmmaDescriptor(OpBuilder &b, Location loc,
                  const SQMMAOperandTile &tile) const override {
    return callFunction(b, loc, abi::kSQMMADesc, b.getI32Type(),
                        {tile.tileStart, i32Const(b, loc, tile.leadingBytes),
                         i32Const(b, loc, tile.swizzleGranularity),
                         i32Const(b, loc, tile.swizzleStride)},
                        CalleeKind::ReadNone);
  }

  /// The accumulators go through an entry-block slot to the runtime, which
  /// gathers the squad's fragments and computes the instruction.
  FailureOr<SmallVector<Value>> sqmma(OpBuilder &b, Location loc,
                                      const SQMMAInstr &instr, Value descA,
                                      Value descB,
                                      ArrayRef<Value> c) const override {
    if (failed(checkRow(loc, instr.row)))
      return failure();
    auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
    Type accType = c.front().getType();
    Value slot = getEntryAlloca(
        b, loc, LLVM::LLVMArrayType::get(accType, c.size()), kHostAddressSpace);
    auto element = [&](unsigned i) -> Value {
      return LLVM::GEPOp::create(b, loc, ptrType, accType, slot,
                                 ArrayRef<LLVM::GEPArg>{int32_t(i)});
    };
    for (auto [i, v] : llvm::enumerate(c))
      LLVM::StoreOp::create(b, loc, v, element(i));
    callFunction(b, loc, abi::kSQMMA, {},
                 {i32Const(b, loc, abi::toABI(instr.row.a)),
                  i32Const(b, loc, instr.row.m), i32Const(b, loc, instr.row.n),
                  i32Const(b, loc, instr.row.k), descA, descB,
                  i32Const(b, loc, instr.transA),
                  i32Const(b, loc, instr.transB), slot},
                 CalleeKind::Convergent);
    SmallVector<Value> d;
    for (unsigned i = 0; i < c.size(); ++i)
      d.push_back(LLVM::LoadOp::create(b, loc, accType, element(i)));
    return d;
  }

  LogicalResult sqmmaWait(OpBuilder &b, Location loc) const override {
    callFunction(b, loc, abi::kSQMMAWait, {}, {}, CalleeKind::Convergent);
    return success();
  }

  /// A C varargs call of the runtime's printf.
  LogicalResult printf(OpBuilder &b, Location loc, StringRef format,
                       ValueRange args) const override {
    SmallVector<Value> operands{
        getGlobalString(b, loc, "printfFormat", format, kHostAddressSpace)};
    FailureOr<SmallVector<Value>> promoted =
        promotePrintfArguments(b, loc, args);
    if (failed(promoted))
      return failure();
    llvm::append_range(operands, *promoted);
    auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
    LLVM::LLVMFuncOp fn = getOrDeclareFunction(
        b, loc, abi::kPrintf,
        LLVM::LLVMFunctionType::get(b.getI32Type(), {ptrType},
                                    /*isVarArg=*/true),
        CalleeKind::SideEffects);
    if (!fn)
      return failure();
    LLVM::CallOp::create(b, loc, fn, operands);
    return success();
  }

  LogicalResult assertFail(OpBuilder &b, Location loc, StringRef message,
                           StringRef file, unsigned line,
                           StringRef function) const override {
    callFunction(
        b, loc, abi::kAssertFail, {},
        {getGlobalString(b, loc, "assertMessage", message, kHostAddressSpace),
         getGlobalString(b, loc, "assertFile", file, kHostAddressSpace),
         i32Const(b, loc, line),
         getGlobalString(b, loc, "assertFunction", function,
                         kHostAddressSpace)},
        CalleeKind::Convergent);
    return success();
  }

  /// A descriptor in an entry-block slot of the calling thread, filled
  /// here (see TMEDescriptorSlot).
  FailureOr<Value>
  getTMEDescriptorAddress(OpBuilder &b, Location loc,
                          const TMEDescriptorFields &fields) const override {
    if (fields.hostEncoded)
      return emitError(loc)
             << "a host-encoded MUtensorDescriptor parameter is the GPU's "
                "ABI; the emulator builds its own descriptors (run "
                "--musa-lower-descriptors-to-tme with target=emulator)";
    unsigned rank = fields.shape.size();
    if (rank == 0 || rank > unsigned(abi::kTMEMaxRank) ||
        fields.strides.size() != rank)
      return emitError(loc) << "a TME descriptor has rank 1 to "
                            << abi::kTMEMaxRank << ", got " << rank;
    Type i64 = b.getI64Type();
    auto slotsType = LLVM::LLVMArrayType::get(i64, abi::kTMEDescriptorSlots);
    Value slots = getEntryAlloca(b, loc, slotsType, kHostAddressSpace);
    auto i64c = [&](int64_t v) {
      return LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(v));
    };
    auto store = [&](int32_t slot, Value value) {
      Value ptr = LLVM::GEPOp::create(
          b, loc, slots.getType(), i64, slots,
          ArrayRef<LLVM::GEPArg>{LLVM::GEPArg(slot)});
      LLVM::StoreOp::create(b, loc, value, ptr, /*alignment=*/8);
    };
    store(abi::kTMEDescBase,
          LLVM::PtrToIntOp::create(b, loc, i64, fields.base));
    store(abi::kTMEDescRank, i64c(rank));
    store(abi::kTMEDescElementBytes, i64c(fields.elementBytes));
    store(abi::kTMEDescPadNaN, i64c(fields.padNaN));
    store(abi::kTMEDescMagic, i64c(abi::kTMEDescriptorMagic));
    Value elementBytes = i64c(fields.elementBytes);
    for (unsigned i = 0; i < rank; ++i) {
      unsigned d = rank - 1 - i; // innermost first
      store(abi::kTMEDescDims + i,
            LLVM::SExtOp::create(b, loc, i64, fields.shape[d]));
      store(abi::kTMEDescStrides + i,
            LLVM::MulOp::create(b, loc, fields.strides[d], elementBytes));
    }
    return LLVM::PtrToIntOp::create(b, loc, i64, slots).getResult();
  }

  void tmeLoad(OpBuilder &b, Location loc, Value barrier,
               const TMETransfer &t) const override {
    SmallVector<Value> args{barrier, t.shared, t.descriptor};
    appendTransfer(b, loc, t, args);
    callFunction(b, loc, abi::kTMELoad, {}, args, CalleeKind::Convergent);
  }
  void tmeStore(OpBuilder &b, Location loc,
                const TMETransfer &t) const override {
    SmallVector<Value> args{t.shared, t.descriptor};
    appendTransfer(b, loc, t, args);
    callFunction(b, loc, abi::kTMEStore, {}, args, CalleeKind::Convergent);
  }
  void tmeStoreCommit(OpBuilder &b, Location loc) const override {
    callFunction(b, loc, abi::kTMEStoreCommit, {}, {}, CalleeKind::Convergent);
  }
  void tmeStoreReadWait(OpBuilder &b, Location loc) const override {
    callFunction(b, loc, abi::kTMEStoreReadWait, {}, {},
                 CalleeKind::Convergent);
  }
  void asyncBarrierRecord(OpBuilder &b, Location loc,
                          unsigned count) const override {
    callFunction(b, loc, abi::kAsyncBarRecord, {}, {i32Const(b, loc, count)},
                 CalleeKind::Convergent);
  }
  void asyncBarrierInit(OpBuilder &b, Location loc, Value barrier,
                        Value arriveCount, Value phase) const override {
    callFunction(b, loc, abi::kAsyncBarInit, {}, {barrier, arriveCount, phase},
                 CalleeKind::Convergent);
  }
  void asyncBarrierExpectBytes(OpBuilder &b, Location loc, Value barrier,
                               Value bytes) const override {
    callFunction(b, loc, abi::kAsyncBarAddTrans, {}, {barrier, bytes},
                 CalleeKind::Convergent);
  }
  void asyncBarrierArrive(OpBuilder &b, Location loc,
                          Value barrier) const override {
    callFunction(b, loc, abi::kAsyncBarArrive, {}, {barrier},
                 CalleeKind::Convergent);
  }
  void asyncBarrierWait(OpBuilder &b, Location loc, Value barrier,
                        Value phase) const override {
    callFunction(b, loc, abi::kAsyncBarWait, {}, {barrier, phase},
                 CalleeKind::Convergent);
  }

private:
  /// rank, box x5, coords x5 (innermost first; 1 and 0 past the rank), then
  /// the swizzle codes.
  static void appendTransfer(OpBuilder &b, Location loc, const TMETransfer &t,
                             SmallVectorImpl<Value> &args) {
    args.push_back(i32Const(b, loc, t.box.size()));
    for (int i = 0; i < abi::kTMEMaxRank; ++i)
      args.push_back(i32Const(b, loc, i < int(t.box.size()) ? t.box[i] : 1));
    for (int i = 0; i < abi::kTMEMaxRank; ++i)
      args.push_back(i < int(t.coords.size()) ? t.coords[i]
                                              : i32Const(b, loc, 0));
    args.push_back(i32Const(b, loc, t.swizzleGranularity));
    args.push_back(i32Const(b, loc, t.swizzleStride));
    args.push_back(i32Const(b, loc, t.swizzleLine));
  }

  static Value readId(OpBuilder &b, Location loc, StringRef fn, unsigned dim) {
    return callFunction(b, loc, fn, b.getI32Type(), {i32Const(b, loc, dim)},
                        CalleeKind::ReadNone);
  }
};

} // namespace

std::unique_ptr<TargetInfo>
mlir::triton_musa::createEmulatorTargetInfo(const MUSAArchInfo &arch) {
  return std::make_unique<EmulatorTargetInfo>(arch);
}
