//===- MakeRangeOpToLLVM.cpp - tt.make_range -> LLVM ---------------------===//

#include "conversion/TritonGPUToMUSA/LayoutIndices.h"
#include "conversion/TritonGPUToMUSA/PatternTritonGPUOpToLLVM.h"
#include "conversion/TritonGPUToMUSA/Utility.h"

#include "dialects/Triton/IR/Dialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"

using namespace mlir;
using namespace mlir::triton_musa;

namespace {

/// Lowers tt.make_range: each register holds start + its coordinate.
struct MakeRangeOpConversion : public MUSAPattern<triton::MakeRangeOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(triton::MakeRangeOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    auto layout = getLinearLayout(type, [&] { return op.emitError(); });
    if (failed(layout))
      return failure();
    Type structType = getTypeConverter()->convertType(type);
    if (!structType)
      return failure();
    SmallVector<Value> values;
    int64_t start = op.getStart();
    for (const auto &coords : emitIndices(rewriter, loc, targetInfo, *layout)) {
      Value v = coords[0];
      if (start != 0)
        v = LLVM::AddOp::create(rewriter, loc, v,
                                i32Const(rewriter, loc, start));
      values.push_back(v);
    }
    rewriter.replaceOp(op, packLLElements(rewriter, loc, values, structType));
    return success();
  }
};

} // namespace

void mlir::triton_musa::populateMakeRangeOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo) {
  patterns.add<MakeRangeOpConversion>(typeConverter, targetInfo);
}
