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
  using TargetInfo::TargetInfo;

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

private:
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
