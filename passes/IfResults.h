//===- IfResults.h - Appending results to an scf.if ------------*- C++ -*-===//
//
// What --musa-lower-descriptors-to-tme (a barrier phase carried out of an
// scf.if) and --musa-pipeline-loops (a flattened loop's tile-end epilogue
// yielding the accumulator) both do to an scf.if.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_PASSES_IFRESULTS_H
#define TRITON_MUSA_PASSES_IFRESULTS_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::triton_musa {

/// `ifOp` rebuilt with one more result per value of `thenValues`: its then
/// branch yields `thenValues` too, its else branch `elseValues` (an else
/// branch that only yields them is made where there is none). The old
/// results are replaced by the new if's first ones; returns the new if.
/// `thenValues` and `elseValues` must be visible at the ends of the
/// branches.
scf::IfOp appendIfResults(RewriterBase &rewriter, scf::IfOp ifOp,
                          ValueRange thenValues, ValueRange elseValues);

} // namespace mlir::triton_musa

#endif // TRITON_MUSA_PASSES_IFRESULTS_H
