//===- IfResults.cpp - Appending results to an scf.if ---------------------===//
//
// See IfResults.h.
//
//===----------------------------------------------------------------------===//

#include "passes/IfResults.h"

using namespace mlir;

scf::IfOp mlir::triton_musa::appendIfResults(RewriterBase &rewriter,
                                             scf::IfOp ifOp,
                                             ValueRange thenValues,
                                             ValueRange elseValues) {
  SmallVector<Type> types(ifOp.getResultTypes());
  for (Value v : thenValues)
    types.push_back(v.getType());
  rewriter.setInsertionPoint(ifOp);
  // With results, the new if's blocks come without terminators.
  auto newIf = scf::IfOp::create(rewriter, ifOp.getLoc(), types,
                                 ifOp.getCondition(), /*withElse=*/true);
  auto moveBranch = [&](Region &from, Region &to, ValueRange extra) {
    if (from.empty()) {
      rewriter.setInsertionPointToEnd(&to.front());
      scf::YieldOp::create(rewriter, ifOp.getLoc(), extra);
      return;
    }
    rewriter.eraseBlock(&to.front());
    rewriter.inlineRegionBefore(from, to, to.end());
    auto yield = cast<scf::YieldOp>(to.front().getTerminator());
    rewriter.modifyOpInPlace(
        yield, [&] { yield.getResultsMutable().append(extra); });
  };
  moveBranch(ifOp.getThenRegion(), newIf.getThenRegion(), thenValues);
  moveBranch(ifOp.getElseRegion(), newIf.getElseRegion(), elseValues);
  rewriter.replaceOp(ifOp, newIf.getResults().take_front(ifOp.getNumResults()));
  return newIf;
}
