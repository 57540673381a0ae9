//===- PatternErrors.h - Ending a pattern on a reported error ---*- C++ -*-===//
//
// A pattern that reports an error (naming what it cannot lower) and returns
// failure makes the conversion driver add "failed to legalize operation",
// a second, less useful diagnostic. lowerOrReport runs a lowering and, when
// it failed after reporting an error, replaces the op with poison values so
// the conversion ends quietly; the reported error still fails the pass
// (--convert-tritongpu-to-musa fails on any error diagnostic). A failure
// without a diagnostic is returned as is.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_PATTERNERRORS_H
#define TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_PATTERNERRORS_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::triton_musa {

template <typename Lower>
LogicalResult lowerOrReport(Operation *op, const TypeConverter &converter,
                            ConversionPatternRewriter &rewriter,
                            Lower &&lower) {
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

} // namespace mlir::triton_musa

#endif // TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_PATTERNERRORS_H
