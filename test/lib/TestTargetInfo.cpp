//===- TestTargetInfo.cpp - --test-musa-target-info ----------------------===//
//
// Test only: exercises every hook of the target interface on placeholder
// ops, so the exact `llvm.musa.*` calls of each architecture are checked
// without an op that needs them.
//
//===----------------------------------------------------------------------===//

#include "test/lib/TestPasses.h"
#include "target/TargetInfo.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/StringSwitch.h"

namespace mlir::triton_musa {
#define GEN_PASS_DEF_TESTMUSATARGETINFO
#include "test/lib/TestPasses.h.inc"
} // namespace mlir::triton_musa

using namespace mlir;
using namespace mlir::triton_musa;

namespace {

/// The replacement of one placeholder, or failure (reported) if malformed.
FailureOr<Value> expand(Operation *op, const TargetInfo &target) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  StringRef name =
      op->getName().getStringRef().drop_front(strlen("test.musa."));
  auto dim = [&]() -> unsigned {
    auto attr = op->getAttrOfType<IntegerAttr>("dim");
    return attr ? attr.getInt() : 0;
  };
  if (name == "thread_id")
    return target.threadId(b, loc, dim());
  if (name == "block_id")
    return target.blockId(b, loc, dim());
  if (name == "num_blocks")
    return target.numBlocks(b, loc, dim());
  if (name == "barrier") {
    target.barrier(b, loc);
    return Value();
  }
  if (name == "shared_memory_barrier") {
    target.sharedMemoryBarrier(b, loc);
    return Value();
  }
  if (name == "warp_sync") {
    target.warpSync(b, loc);
    return Value();
  }
  if (name == "ballot" && op->getNumOperands() == 1)
    return target.ballot(b, loc, op->getOperand(0));
  if (name == "shuffle" && op->getNumOperands() == 2) {
    auto kindAttr = op->getAttrOfType<StringAttr>("kind");
    std::optional<ShuffleKind> kind =
        llvm::StringSwitch<std::optional<ShuffleKind>>(
            kindAttr ? kindAttr.getValue() : "")
            .Case("xor", ShuffleKind::Xor)
            .Case("up", ShuffleKind::Up)
            .Case("down", ShuffleKind::Down)
            .Case("idx", ShuffleKind::Idx)
            .Default(std::nullopt);
    if (!kind)
      return op->emitError(
          "expected kind = \"xor\", \"up\", \"down\" or \"idx\"");
    auto width = op->getAttrOfType<IntegerAttr>("width");
    return target.shuffle(b, loc, *kind, op->getOperand(0), op->getOperand(1),
                          width ? width.getInt() : 0);
  }
  if (name == "printf") {
    auto format = op->getAttrOfType<StringAttr>("format");
    if (!format)
      return op->emitError("expected format = \"...\"");
    if (failed(target.printf(b, loc, format.getValue(), op->getOperands())))
      return failure();
    return Value();
  }
  if (name == "assert_fail") {
    auto message = op->getAttrOfType<StringAttr>("message");
    auto file = op->getAttrOfType<StringAttr>("file");
    auto line = op->getAttrOfType<IntegerAttr>("line");
    auto function = op->getAttrOfType<StringAttr>("function");
    if (!message || !file || !line || !function)
      return op->emitError("expected message, file, line and function");
    if (failed(target.assertFail(b, loc, message.getValue(), file.getValue(),
                                 line.getInt(), function.getValue())))
      return failure();
    return Value();
  }
  return op->emitError("unknown target-interface placeholder");
}

struct TestMUSATargetInfo
    : public mlir::triton_musa::impl::TestMUSATargetInfoBase<
          TestMUSATargetInfo> {
  using Base::Base;

  void runOnOperation() override {
    // The module attribute test.musa.target = "emulator" (or "proxy")
    // selects the CPU emulator's (or the GPU proxy's) implementation instead
    // of the device's.
    auto targetAttr =
        getOperation()->getAttrOfType<StringAttr>("test.musa.target");
    FailureOr<const MUSAArchInfo *> musaArch =
        resolveMUSAArch(getOperation(), arch, "--test-musa-target-info");
    if (failed(musaArch))
      return signalPassFailure();
    std::optional<TargetKind> kind =
        targetAttr ? parseTargetKind(targetAttr.getValue()) : TargetKind::Device;
    std::unique_ptr<TargetInfo> targetInfo =
        createTargetInfo(**musaArch, kind.value_or(TargetKind::Device));
    SmallVector<Operation *> placeholders;
    getOperation().walk([&](Operation *op) {
      if (op->getName().getStringRef().starts_with("test.musa."))
        placeholders.push_back(op);
    });
    for (Operation *op : placeholders) {
      FailureOr<Value> result = expand(op, *targetInfo);
      if (failed(result))
        return signalPassFailure();
      if (op->getNumResults() == 1 && *result)
        op->getResult(0).replaceAllUsesWith(*result);
      op->erase();
    }
  }
};

} // namespace
