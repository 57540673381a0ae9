//===- HistogramOpToLLVM.cpp - tt.histogram -> LLVM ----------------------===//
//
// The bins live in the op's scratch shared memory (one result element per
// bin, getHistogramScratchBytes):
//   1. the owners of the result's elements zero their bins; barrier;
//   2. each source element (once: owner thread, no duplicate register; under
//      its mask; only values in [0, bins)) adds 1 to its bin with a
//      shared-memory `atomicrmw add` (monotonic, block scope); barrier;
//   3. every thread reads the bins its result registers hold.
//
//===----------------------------------------------------------------------===//

#include "conversion/TritonGPUToMUSA/LayoutIndices.h"
#include "conversion/TritonGPUToMUSA/PatternTritonGPUOpToLLVM.h"
#include "conversion/TritonGPUToMUSA/PredicatedRegion.h"
#include "target/Scratch.h"
#include "conversion/TritonGPUToMUSA/Utility.h"

#include "dialects/Triton/IR/Dialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"

using namespace mlir;
using namespace mlir::triton_musa;

namespace {

/// Lowers tt.histogram (with or without mask) through shared-memory atomics.
struct HistogramOpConversion : public MUSAPattern<triton::HistogramOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(triton::HistogramOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    auto emitError = [&] { return op.emitError(); };
    auto srcLayout = getLinearLayout(srcType, emitError);
    if (failed(srcLayout))
      return failure();
    auto dstLayout = getLinearLayout(dstType, emitError);
    if (failed(dstLayout))
      return failure();
    Type binType = getTypeConverter()->convertType(dstType.getElementType());
    Type resultType = getTypeConverter()->convertType(dstType);
    if (!binType || !resultType)
      return failure();
    int64_t numBins = dstType.getNumElements();
    auto scratch = getScratchPointer(rewriter, loc, op, targetInfo);
    if (failed(scratch))
      return failure();
    Type sharedPtr = (*scratch).getType();
    auto binPtr = [&](Value index) -> Value {
      return LLVM::GEPOp::create(rewriter, loc, sharedPtr, binType, *scratch,
                                 ValueRange{index});
    };

    // 1. Zero the bins: each result element is written by its owner.
    SmallVector<SmallVector<Value>> dstIndices =
        emitIndices(rewriter, loc, targetInfo, *dstLayout);
    Value dstOwner = emitOwnerPredicate(rewriter, loc, targetInfo, *dstLayout);
    int32_t dstDuplicates = getDuplicateRegisterMask(*dstLayout);
    Value zero = LLVM::ZeroOp::create(rewriter, loc, binType);
    auto zeroBins = [&]() -> Value {
      for (unsigned r = 0; r < dstIndices.size(); ++r)
        if (!(r & dstDuplicates))
          LLVM::StoreOp::create(rewriter, loc, zero, binPtr(dstIndices[r][0]));
      return Value();
    };
    if (dstOwner)
      emitIfThen(rewriter, loc, dstOwner, zeroBins, Value());
    else
      zeroBins();
    targetInfo.sharedMemoryBarrier(rewriter, loc);

    // 2. Count each source element once.
    SmallVector<Value> values =
        unpackLLElements(rewriter, loc, adaptor.getSrc());
    SmallVector<Value> masks;
    if (adaptor.getMask())
      masks = unpackLLElements(rewriter, loc, adaptor.getMask());
    Value srcOwner = emitOwnerPredicate(rewriter, loc, targetInfo, *srcLayout);
    int32_t srcDuplicates = getDuplicateRegisterMask(*srcLayout);
    Value one = LLVM::ConstantOp::create(rewriter, loc, binType,
                                         rewriter.getIntegerAttr(binType, 1));
    StringRef blockScope = targetInfo.getSyncScope(MemoryScope::Block);
    for (unsigned r = 0; r < values.size(); ++r) {
      if (r & srcDuplicates)
        continue;
      Value value = values[r];
      Type valueType = value.getType();
      unsigned bits = valueType.getIntOrFloatBitWidth();
      // Negative values are large unsigned ones: one unsigned compare
      // keeps exactly [0, bins).
      Value inRange = LLVM::ICmpOp::create(
          rewriter, loc, LLVM::ICmpPredicate::ult, value,
          LLVM::ConstantOp::create(
              rewriter, loc, valueType,
              rewriter.getIntegerAttr(valueType,
                                      APInt(bits, uint64_t(numBins)))));
      Value pred = inRange;
      if (srcOwner)
        pred = LLVM::AndOp::create(rewriter, loc, pred, srcOwner);
      if (!masks.empty())
        pred = LLVM::AndOp::create(rewriter, loc, pred, masks[r]);
      emitIfThen(
          rewriter, loc, pred,
          [&]() -> Value {
            Value index = value;
            if (bits > 32)
              index = LLVM::TruncOp::create(rewriter, loc,
                                            rewriter.getI32Type(), value);
            else if (bits < 32)
              index = LLVM::ZExtOp::create(rewriter, loc,
                                           rewriter.getI32Type(), value);
            LLVM::AtomicRMWOp::create(rewriter, loc, LLVM::AtomicBinOp::add,
                                      binPtr(index), one,
                                      LLVM::AtomicOrdering::monotonic,
                                      blockScope);
            return Value();
          },
          Value());
    }
    targetInfo.sharedMemoryBarrier(rewriter, loc);

    // 3. Read the bins of the result registers.
    SmallVector<Value> results;
    for (auto &index : dstIndices)
      results.push_back(
          LLVM::LoadOp::create(rewriter, loc, binType, binPtr(index[0])));
    rewriter.replaceOp(op, packLLElements(rewriter, loc, results, resultType));
    return success();
  }
};

} // namespace

FailureOr<unsigned>
mlir::triton_musa::getHistogramScratchBytes(Operation *op,
                                            const TargetInfo &targetInfo) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  unsigned bits = type.getElementType().getIntOrFloatBitWidth();
  if (bits != 32 && bits != 64)
    return op->emitError() << "'tt.histogram' with " << type.getElementType()
                           << " bins is not supported by "
                              "--convert-tritongpu-to-musa yet";
  return unsigned(type.getNumElements()) * (bits / 8);
}

void mlir::triton_musa::populateHistogramOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo) {
  patterns.add<HistogramOpConversion>(typeConverter, targetInfo);
}
