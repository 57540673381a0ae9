//===- SPMDOpToLLVM.cpp - Program ids and counts -> LLVM -----------------===//

#include "conversion/TritonGPUToMUSA/PatternTritonGPUOpToLLVM.h"

#include "dialects/Triton/IR/Dialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"

using namespace mlir;
using namespace mlir::triton_musa;

namespace {

/// Lowers tt.get_program_id to the block id along its axis.
struct GetProgramIdOpConversion : public MUSAPattern<triton::GetProgramIdOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(triton::GetProgramIdOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, targetInfo.blockId(rewriter, op.getLoc(), unsigned(op.getAxis())));
    return success();
  }
};

/// Lowers tt.get_num_programs to the grid size along its axis.
struct GetNumProgramsOpConversion
    : public MUSAPattern<triton::GetNumProgramsOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(triton::GetNumProgramsOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, targetInfo.numBlocks(rewriter, op.getLoc(),
                                                unsigned(op.getAxis())));
    return success();
  }
};

} // namespace

void mlir::triton_musa::populateSPMDOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo) {
  patterns.add<GetProgramIdOpConversion, GetNumProgramsOpConversion>(
      typeConverter, targetInfo);
}
