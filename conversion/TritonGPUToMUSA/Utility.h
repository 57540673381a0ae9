//===- Utility.h - Helpers shared by the lowering patterns ------*- C++ -*-===//

#ifndef TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_UTILITY_H
#define TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_UTILITY_H

#include "target/LLVMCalls.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::triton_musa {

/// The flag of the conversion, as errors name it.
constexpr StringLiteral kPassFlag = "--convert-tritongpu-to-musa";

/// Runs `lower`, the lowering of `op`. When it fails after reporting an
/// error (naming what it cannot lower), `op` is replaced by poison so the
/// conversion ends quietly instead of adding "failed to legalize", and the
/// reported error fails the pass (the pass's diagnostic watcher in
/// ConvertTritonGPUToMUSA.cpp sees every error of the conversion). A failure without a diagnostic is a plain
/// "does not match", left to other patterns.
LogicalResult lowerOrReport(Operation *op, const TypeConverter &converter,
                            ConversionPatternRewriter &rewriter,
                            llvm::function_ref<LogicalResult()> lower);

/// `lhs && rhs` (i1), where a null operand means no condition: the other is
/// returned as it is.
Value andPredicates(OpBuilder &b, Location loc, Value lhs, Value rhs);

/// Packs the per-thread values of a tensor into its `!llvm.struct` type.
Value packLLElements(OpBuilder &b, Location loc, ValueRange elements,
                     Type structType);

/// The per-thread values of a converted tensor (its struct fields); a
/// non-struct value is returned as its single element.
SmallVector<Value> unpackLLElements(OpBuilder &b, Location loc, Value packed);

/// The per-thread values of a converted operand, or `count` copies of it if
/// the operand is a scalar (broadcast of a scalar into a tensor op).
SmallVector<Value> unpackOrSplat(OpBuilder &b, Location loc, Value packed,
                                 unsigned count);

} // namespace mlir::triton_musa

#endif // TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_UTILITY_H
