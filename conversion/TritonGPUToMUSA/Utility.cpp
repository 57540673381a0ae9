//===- Utility.cpp - Helpers shared by the lowering patterns -------------===//

#include "conversion/TritonGPUToMUSA/Utility.h"

#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::triton_musa;

Value mlir::triton_musa::packLLElements(OpBuilder &b, Location loc,
                                        ValueRange elements, Type structType) {
  Value packed = LLVM::UndefOp::create(b, loc, structType);
  for (auto [i, v] : llvm::enumerate(elements))
    packed = LLVM::InsertValueOp::create(b, loc, packed, v, int64_t(i));
  return packed;
}

SmallVector<Value>
mlir::triton_musa::unpackLLElements(OpBuilder &b, Location loc, Value packed) {
  auto structType = dyn_cast<LLVM::LLVMStructType>(packed.getType());
  if (!structType)
    return {packed};
  SmallVector<Value> elements;
  for (unsigned i = 0, e = structType.getBody().size(); i < e; ++i)
    elements.push_back(LLVM::ExtractValueOp::create(b, loc, packed, i));
  return elements;
}

SmallVector<Value> mlir::triton_musa::unpackOrSplat(OpBuilder &b, Location loc,
                                                    Value packed,
                                                    unsigned count) {
  if (isa<LLVM::LLVMStructType>(packed.getType()))
    return unpackLLElements(b, loc, packed);
  return SmallVector<Value>(count, packed);
}

LogicalResult
mlir::triton_musa::lowerOrReport(Operation *op, const TypeConverter &converter,
                                 ConversionPatternRewriter &rewriter,
                                 llvm::function_ref<LogicalResult()> lower) {
  bool reported = false;
  LogicalResult result = failure();
  {
    ScopedDiagnosticHandler watch(op->getContext(), [&](Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Error)
        reported = true;
      return failure(); // Let the diagnostic through.
    });
    result = lower();
  }
  if (succeeded(result) || !reported)
    return result;
  SmallVector<Value> poison;
  for (Type type : op->getResultTypes()) {
    Type converted = converter.convertType(type);
    if (!converted)
      return failure();
    poison.push_back(LLVM::PoisonOp::create(rewriter, op->getLoc(), converted));
  }
  rewriter.replaceOp(op, poison);
  return success();
}

Value mlir::triton_musa::andPredicates(OpBuilder &b, Location loc, Value lhs,
                                       Value rhs) {
  if (!lhs)
    return rhs;
  if (!rhs)
    return lhs;
  return LLVM::AndOp::create(b, loc, lhs, rhs);
}
