//===- GatherOpToLLVM.cpp - tt.gather -> LLVM ----------------------------===//
//
// The general path: every thread writes the source elements it holds to a
// scratch buffer (the source tensor in row-major order), a barrier, then
// each result element is loaded at its own coordinates with the axis
// coordinate replaced by the gathered index. Indices are not clamped: an
// index outside the axis is undefined behaviour, as in Triton.
//
//===----------------------------------------------------------------------===//

#include "conversion/TritonGPUToMUSA/LayoutIndices.h"
#include "conversion/TritonGPUToMUSA/PatternTritonGPUOpToLLVM.h"
#include "conversion/TritonGPUToMUSA/ReduceScanCommon.h"
#include "target/Scratch.h"
#include "conversion/TritonGPUToMUSA/Utility.h"

#include "dialects/Triton/IR/Dialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"

using namespace mlir;
using namespace mlir::triton_musa;

namespace {


/// Checks the types the shared-memory path handles.
LogicalResult checkGather(triton::GatherOp op) {
  if (failed(checkScalarElementTypes(op, op.getSrc().getType())))
    return failure();
  auto indicesType = cast<RankedTensorType>(op.getIndices().getType());
  auto resultType = cast<RankedTensorType>(op.getType());
  if (indicesType.getEncoding() != resultType.getEncoding())
    return op->emitError()
           << "'tt.gather' whose result layout differs from its indices' "
              "layout is not supported by --convert-tritongpu-to-musa yet";
  return success();
}

/// Lowers tt.gather through shared memory.
struct GatherOpConversion : public MUSAPattern<triton::GatherOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(triton::GatherOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    if (failed(checkGather(op)))
      return failure();
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    auto emitError = [&] { return op->emitError(); };
    auto srcLayout = getLinearLayout(srcType, emitError);
    if (failed(srcLayout))
      return failure();
    auto resultLayout = getLinearLayout(resultType, emitError);
    if (failed(resultLayout))
      return failure();
    Type structType = getTypeConverter()->convertType(resultType);
    if (!structType)
      return failure();
    FailureOr<Value> base = getScratchPointer(rewriter, loc, op, targetInfo);
    if (failed(base))
      return failure();
    ArrayRef<int64_t> srcShape = srcType.getShape();
    unsigned axis = op.getAxis();

    // The source, in row-major order (duplicate registers written once).
    SmallVector<Value> srcValues =
        unpackLLElements(rewriter, loc, adaptor.getSrc());
    SmallVector<SmallVector<Value>> srcIndices =
        emitIndices(rewriter, loc, targetInfo, *srcLayout);
    int32_t duplicates = getDuplicateRegisterMask(*srcLayout);
    for (auto [r, value] : llvm::enumerate(srcValues)) {
      if (r & duplicates)
        continue;
      storeShared(rewriter, loc, *base,
                  linearizeIndex(rewriter, loc, srcIndices[r], srcShape),
                  value);
    }
    targetInfo.sharedMemoryBarrier(rewriter, loc);

    SmallVector<Value> gatherIndices =
        unpackLLElements(rewriter, loc, adaptor.getIndices());
    SmallVector<SmallVector<Value>> resultIndices =
        emitIndices(rewriter, loc, targetInfo, *resultLayout);
    Type elementType = srcType.getElementType();
    SmallVector<Value> results;
    for (unsigned r = 0, e = resultLayout->getInDimSize(kRegister); r < e;
         ++r) {
      SmallVector<Value> coords(resultIndices[r]);
      Value index = gatherIndices[r];
      unsigned width = index.getType().getIntOrFloatBitWidth();
      if (width > 32)
        index = LLVM::TruncOp::create(rewriter, loc, rewriter.getI32Type(),
                                      index);
      else if (width < 32)
        index = LLVM::SExtOp::create(rewriter, loc, rewriter.getI32Type(),
                                     index);
      coords[axis] = index;
      results.push_back(
          loadShared(rewriter, loc, *base,
                     linearizeIndex(rewriter, loc, coords, srcShape),
                     elementType));
    }
    rewriter.replaceOp(op, packLLElements(rewriter, loc, results, structType));
    return success();
  }
};

} // namespace

FailureOr<unsigned>
mlir::triton_musa::getGatherScratchBytes(Operation *op,
                                         const TargetInfo &targetInfo) {
  auto gather = dyn_cast<triton::GatherOp>(op);
  if (!gather)
    return 0u;
  if (failed(checkGather(gather)))
    return failure();
  auto srcType = cast<RankedTensorType>(gather.getSrc().getType());
  return getStackedRegionBytes(srcType.getElementType(),
                               srcType.getNumElements());
}

void mlir::triton_musa::populateGatherOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo) {
  patterns.add<GatherOpConversion>(typeConverter, targetInfo);
}
