//===- PredicatedRegion.h - Code run where a predicate holds ---*- C++ -*-===//
//
// The MUSA backend has no predicated memory instructions in LLVM IR: a
// masked or owner-only access is a branch around it. Shared by the memory,
// atomic, histogram and debug lowerings.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_PREDICATEDREGION_H
#define TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_PREDICATEDREGION_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::triton_musa {

/// Emits `if (pred) { thenBody }` as a diamond of blocks and leaves the
/// insertion point in the continuation block, before what followed it.
/// `thenBody` returns the value produced on the taken path (or null);
/// `elseValue` is produced otherwise. Returns the merged value, if any.
/// A null `pred` always holds (e.g. no owner predicate because every thread
/// holds distinct data): `thenBody` is emitted in line, without a branch.
inline Value emitIfThen(RewriterBase &rewriter, Location loc, Value pred,
                        function_ref<Value()> thenBody, Value elseValue) {
  if (!pred)
    return thenBody();
  Block *current = rewriter.getInsertionBlock();
  Block *rest = rewriter.splitBlock(current, rewriter.getInsertionPoint());
  SmallVector<Type> mergedTypes;
  SmallVector<Location> mergedLocs;
  if (elseValue) {
    mergedTypes.push_back(elseValue.getType());
    mergedLocs.push_back(loc);
  }
  Block *join = rewriter.createBlock(rest, mergedTypes, mergedLocs);
  LLVM::BrOp::create(rewriter, loc, ValueRange(), rest);
  Block *then = rewriter.createBlock(join);
  Value produced = thenBody();
  LLVM::BrOp::create(rewriter, loc,
                     produced ? ValueRange(produced) : ValueRange(), join);
  rewriter.setInsertionPointToEnd(current);
  LLVM::CondBrOp::create(rewriter, loc, pred, then, ValueRange(), join,
                         elseValue ? ValueRange(elseValue) : ValueRange());
  rewriter.setInsertionPointToStart(rest);
  return elseValue ? join->getArgument(0) : Value();
}

} // namespace mlir::triton_musa

#endif // TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_PREDICATEDREGION_H
