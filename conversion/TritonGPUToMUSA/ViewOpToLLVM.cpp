//===- ViewOpToLLVM.cpp - Splat, broadcast, expand_dims -> LLVM ----------===//
//
// These ops only rename which register holds which element; the mapping of
// destination registers to source registers comes from the two linear
// layouts. Cases that would move data between threads are reported (they
// need a layout conversion, not lowered yet).
//
//===----------------------------------------------------------------------===//

#include "conversion/TritonGPUToMUSA/LayoutIndices.h"
#include "conversion/TritonGPUToMUSA/PatternTritonGPUOpToLLVM.h"
#include "conversion/TritonGPUToMUSA/Utility.h"

#include "dialects/Triton/IR/Dialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"

using namespace mlir;
using namespace mlir::triton_musa;

namespace {

/// Replaces `op` by the registers of `src` picked through `toSrc`, which maps
/// result coordinates to source coordinates.
LogicalResult lowerRegisterPermutation(
    Operation *op, Value src, RankedTensorType srcType,
    RankedTensorType dstType,
    function_ref<SmallVector<int32_t>(ArrayRef<int32_t>)> toSrc,
    const LLVMTypeConverter &converter, ConversionPatternRewriter &rewriter) {
  auto emitError = [&] { return op->emitError(); };
  auto srcLayout = getLinearLayout(srcType, emitError);
  if (failed(srcLayout))
    return failure();
  auto dstLayout = getLinearLayout(dstType, emitError);
  if (failed(dstLayout))
    return failure();
  Type structType = converter.convertType(dstType);
  if (!structType)
    return failure();
  auto registers = mapRegisters(*srcLayout, *dstLayout, toSrc);
  if (failed(registers))
    return op->emitError()
           << "'" << op->getName() << "' from " << srcType << " to " << dstType
           << " moves data between threads, which is not supported by "
              "--convert-tritongpu-to-musa yet";
  Location loc = op->getLoc();
  SmallVector<Value> srcValues = unpackLLElements(rewriter, loc, src);
  SmallVector<Value> values;
  for (unsigned r : *registers)
    values.push_back(srcValues[r]);
  rewriter.replaceOp(op, packLLElements(rewriter, loc, values, structType));
  return success();
}

/// Lowers tt.splat: every register holds the scalar.
struct SplatOpConversion : public ConvertOpToLLVMPattern<triton::SplatOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(triton::SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto structType = dyn_cast_or_null<LLVM::LLVMStructType>(
        getTypeConverter()->convertType(op.getType()));
    if (!structType)
      return failure();
    SmallVector<Value> values(structType.getBody().size(), adaptor.getSrc());
    rewriter.replaceOp(
        op, packLLElements(rewriter, op.getLoc(), values, structType));
    return success();
  }
};

/// Lowers tt.broadcast (size-1 dimensions repeated) when each thread already
/// holds the elements it needs.
struct BroadcastOpConversion
    : public ConvertOpToLLVMPattern<triton::BroadcastOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(triton::BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    ArrayRef<int64_t> srcShape = srcType.getShape();
    auto toSrc = [&](ArrayRef<int32_t> coords) {
      SmallVector<int32_t> result(coords);
      for (auto [d, size] : llvm::enumerate(srcShape))
        if (size == 1)
          result[d] = 0;
      return result;
    };
    return lowerRegisterPermutation(op, adaptor.getSrc(), srcType, dstType,
                                    toSrc, *getTypeConverter(), rewriter);
  }
};

/// Lowers tt.expand_dims (a size-1 dimension inserted) when each thread
/// already holds the elements it needs (e.g. slice of the result layout).
struct ExpandDimsOpConversion
    : public ConvertOpToLLVMPattern<triton::ExpandDimsOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(triton::ExpandDimsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    unsigned axis = op.getAxis();
    auto toSrc = [&](ArrayRef<int32_t> coords) {
      SmallVector<int32_t> result(coords);
      result.erase(result.begin() + axis);
      return result;
    };
    return lowerRegisterPermutation(op, adaptor.getSrc(), srcType, dstType,
                                    toSrc, *getTypeConverter(), rewriter);
  }
};

} // namespace

void mlir::triton_musa::populateViewOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo) {
  patterns
      .add<SplatOpConversion, BroadcastOpConversion, ExpandDimsOpConversion>(
          typeConverter);
}
