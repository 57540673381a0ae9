//===- ConvertLayoutOpToLLVM.cpp - ttg.convert_layout -> LLVM ------------===//
//
// The cheapest correct path, decided from the two linear layouts:
//  - registers only, when every lane and warp keeps its data (mapRegisters):
//    the result registers are a selection of the source registers;
//  - otherwise through shared memory: each owner thread writes its distinct
//    elements to the op's scratch buffer, laid out row-major (last
//    dimension fastest, unswizzled), then, after a barrier, every thread
//    reads the elements its result layout needs.
// Future work: warp shuffles when only lanes of a warp exchange data, a
// swizzled scratch layout against bank conflicts, vector accesses.
//
//===----------------------------------------------------------------------===//

#include "conversion/TritonGPUToMUSA/LayoutIndices.h"
#include "conversion/TritonGPUToMUSA/PatternTritonGPUOpToLLVM.h"
#include "conversion/TritonGPUToMUSA/Scratch.h"
#include "conversion/TritonGPUToMUSA/SharedMemory.h"
#include "conversion/TritonGPUToMUSA/Utility.h"

#include "dialects/TritonGPU/IR/Dialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"

using namespace mlir;
using namespace mlir::triton_musa;
using ::triton_musa::LinearLayout;
namespace ttg = mlir::triton::gpu;

namespace {

/// How a conversion moves data.
enum class ConvertPath { Registers, SharedMemory };

struct ConvertPlan {
  ConvertPath path;
  LinearLayout src;
  LinearLayout dst;
  /// For Registers: the source register of each result register.
  SmallVector<unsigned> registers;
};

FailureOr<ConvertPlan> planConversion(ttg::ConvertLayoutOp op) {
  auto emitError = [&] { return op.emitError(); };
  auto srcType = cast<RankedTensorType>(op.getSrc().getType());
  auto dstType = cast<RankedTensorType>(op.getType());
  auto src = getLinearLayout(srcType, emitError);
  auto dst = getLinearLayout(dstType, emitError);
  if (failed(src) || failed(dst))
    return failure();
  auto identity = [](ArrayRef<int32_t> coords) {
    return SmallVector<int32_t>(coords);
  };
  FailureOr<SmallVector<unsigned>> registers =
      mapRegisters(*src, *dst, identity);
  if (succeeded(registers))
    return ConvertPlan{ConvertPath::Registers, std::move(*src),
                       std::move(*dst), std::move(*registers)};
  return ConvertPlan{ConvertPath::SharedMemory, std::move(*src),
                     std::move(*dst), {}};
}

/// Lowers ttg.convert_layout by a register selection or through scratch
/// shared memory (see the file header).
struct ConvertLayoutOpConversion
    : public ConvertOpToLLVMPattern<ttg::ConvertLayoutOp> {
  ConvertLayoutOpConversion(const LLVMTypeConverter &converter,
                            const TargetInfo &targetInfo)
      : ConvertOpToLLVMPattern(converter), targetInfo(targetInfo) {}

  LogicalResult
  matchAndRewrite(ttg::ConvertLayoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto emitError = [&] { return op.emitError(); };
    auto dstType = cast<RankedTensorType>(op.getType());
    Type structType = getTypeConverter()->convertType(dstType);
    Type elementType =
        getTypeConverter()->convertType(dstType.getElementType());
    if (!structType || !elementType)
      return failure();
    FailureOr<ConvertPlan> plan = planConversion(op);
    if (failed(plan))
      return failure();
    SmallVector<Value> srcValues =
        unpackLLElements(rewriter, loc, adaptor.getSrc());

    if (plan->path == ConvertPath::Registers) {
      SmallVector<Value> values;
      for (unsigned r : plan->registers)
        values.push_back(srcValues[r]);
      rewriter.replaceOp(op,
                         packLLElements(rewriter, loc, values, structType));
      return success();
    }

    FailureOr<Value> base = getScratchPointer(rewriter, loc, op, targetInfo);
    if (failed(base))
      return failure();
    auto scratchLayout =
        getRowMajorSharedLayout(dstType.getShape(), emitError);
    if (failed(scratchLayout))
      return failure();
    SharedBuffer buffer{*base, std::move(*scratchLayout),
                        dstType.getElementType()};
    if (failed(storeDistributedToShared(rewriter, loc, targetInfo, buffer,
                                        plan->src, srcValues, elementType,
                                        emitError)))
      return failure();
    targetInfo.sharedMemoryBarrier(rewriter, loc);
    FailureOr<SmallVector<Value>> values = loadDistributedFromShared(
        rewriter, loc, targetInfo, buffer, plan->dst, elementType, emitError);
    if (failed(values))
      return failure();
    rewriter.replaceOp(op, packLLElements(rewriter, loc, *values, structType));
    return success();
  }

private:
  const TargetInfo &targetInfo;
};

} // namespace

FailureOr<unsigned>
mlir::triton_musa::getConvertLayoutScratchBytes(Operation *op,
                                                const TargetInfo &targetInfo) {
  auto convert = cast<ttg::ConvertLayoutOp>(op);
  FailureOr<ConvertPlan> plan = planConversion(convert);
  if (failed(plan))
    return failure();
  if (plan->path != ConvertPath::SharedMemory)
    return 0u;
  auto type = cast<RankedTensorType>(convert.getType());
  return unsigned(type.getNumElements() *
                  getSharedElementBytes(type.getElementType()));
}

void mlir::triton_musa::populateConvertLayoutOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo) {
  patterns.add<ConvertLayoutOpConversion>(typeConverter, targetInfo);
}
