//===- BarrierOpToLLVM.cpp - Block barriers -> LLVM ----------------------===//

#include "conversion/TritonGPUToMUSA/PatternTritonGPUOpToLLVM.h"

#include "dialects/TritonGPU/IR/Dialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;
using namespace mlir::triton_musa;

namespace {

/// Lowers gpu.barrier to the block barrier (all memory).
struct GPUBarrierOpConversion : public MUSAPattern<gpu::BarrierOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(gpu::BarrierOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    targetInfo.barrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

/// Lowers ttg.local_barrier to the barrier that orders shared memory only.
struct LocalBarrierOpConversion
    : public MUSAPattern<triton::gpu::LocalBarrierOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(triton::gpu::LocalBarrierOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    targetInfo.sharedMemoryBarrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::triton_musa::populateBarrierOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo) {
  patterns.add<GPUBarrierOpConversion, LocalBarrierOpConversion>(typeConverter,
                                                                 targetInfo);
}
