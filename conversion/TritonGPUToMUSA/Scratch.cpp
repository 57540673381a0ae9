//===- Scratch.cpp - Shared-memory scratch and allocation contract -------===//

#include "target/Scratch.h"

#include "target/TargetInfo.h"

#include "dialects/Triton/IR/Dialect.h"
#include "dialects/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::triton_musa;

FailureOr<unsigned>
mlir::triton_musa::getScratchSizeInBytes(Operation *op,
                                         const TargetInfo &targetInfo) {
  if (isa<triton::gpu::ConvertLayoutOp>(op))
    return getConvertLayoutScratchBytes(op, targetInfo);
  if (isa<triton::ReduceOp>(op))
    return getReduceScratchBytes(op, targetInfo);
  if (isa<triton::ScanOp>(op))
    return getScanScratchBytes(op, targetInfo);
  if (isa<triton::AtomicRMWOp, triton::AtomicCASOp>(op))
    return getAtomicScratchBytes(op, targetInfo);
  if (isa<triton::GatherOp>(op))
    return getGatherScratchBytes(op, targetInfo);
  if (isa<triton::HistogramOp>(op))
    return getHistogramScratchBytes(op, targetInfo);
  return 0u;
}

FailureOr<Value>
mlir::triton_musa::getScratchPointer(OpBuilder &b, Location loc, Operation *op,
                                     const TargetInfo &targetInfo) {
  auto offset = op->getAttrOfType<IntegerAttr>(kAllocationOffsetAttr);
  if (!offset)
    return op->emitError()
           << "'" << op->getName()
           << "' needs shared memory but has no \"" << kAllocationOffsetAttr
           << "\"; run --musa-allocate-shared-memory first";
  Value base = targetInfo.getSharedMemoryBase(b, loc);
  if (offset.getInt() == 0)
    return base;
  Value bytes = LLVM::ConstantOp::create(b, loc, b.getI32Type(),
                                         b.getI32IntegerAttr(offset.getInt()));
  return LLVM::GEPOp::create(b, loc, base.getType(), b.getI8Type(), base,
                             ValueRange{bytes})
      .getResult();
}
