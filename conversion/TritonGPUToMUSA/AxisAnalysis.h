//===- AxisAnalysis.h - Contiguity, divisibility, constancy -----*- C++ -*-===//
//
// Private to --convert-tritongpu-to-musa: a small axis analysis of tensors
// (integer, pointer and mask ones above all), in the spirit of Triton's
// AxisInfo. Per dimension it knows the contiguity (runs of consecutive
// values), the divisibility (power of two dividing the first value of each
// run, so every value where the contiguity is 1; bytes for pointers, from
// `tt.divisibility` argument hints and constants) and the constancy (runs of
// equal values). Runs are aligned: a run of length c along a dimension
// starts at a coordinate that is a multiple of c, and the constancy runs of
// all dimensions together make rectangles of equal values.
//
// Facts come from make_range, splat, constants, addptr, addi, subi, muli,
// remsi/remui by a splat (taken as unsigned, as Triton does),
// broadcast, expand_dims, convert_layout, integer casts, the comparisons
// and and/or/xor that form masks, and (constancy only) any other pure
// elementwise op, whose result is constant wherever its operands are. A
// loop's induction variable is a multiple of what divides its constant lower
// bound and step, and a loop-carried value keeps what holds for its initial
// value and every yielded one (computeLoopFacts, before scf.for becomes
// branches).
//
// Readers: the vector width of tt.load/tt.store and of async copies
// (getAccessVectorWidth) and
// the de-duplication of elementwise ops by constancy
// (ElementwiseOpToLLVM.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_AXISANALYSIS_H
#define TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_AXISANALYSIS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::triton_musa {

/// What is known about the values of a tensor along each dimension (a
/// scalar has rank 0 and only a divisibility).
struct AxisFacts {
  SmallVector<int64_t> contiguity;
  SmallVector<int64_t> divisibility;
  SmallVector<int64_t> constancy;
  /// Divisibility of a scalar.
  int64_t scalarDivisibility = 1;

  bool operator==(const AxisFacts &other) const {
    return contiguity == other.contiguity &&
           divisibility == other.divisibility &&
           constancy == other.constancy &&
           scalarDivisibility == other.scalarDivisibility;
  }
};

/// Facts about the block arguments of scf.for loops, computed before the
/// conversion turns the loops into branches:
///  - the power of two dividing each induction variable whose lower bound
///    and step are constants (`for i in range(0, n, BLOCK)`);
///  - what holds for a loop-carried value in every iteration: what holds
///    for its initial value and for what the body yields, to a fixpoint (a
///    tile of pointers advanced by a constant each iteration stays
///    contiguous; the software pipeline carries its copies' addresses so).
struct LoopFacts {
  llvm::DenseMap<Value, int64_t> inductionDivisibility;
  llvm::DenseMap<Value, AxisFacts> carried;
};
LoopFacts computeLoopFacts(ModuleOp module);

/// Axis analysis on the TTGIR def-use chains during the conversion (the
/// original ops are still there), memoized per instance: make one per
/// pattern call, since kernel arguments are read through the rewriter's
/// current mapping. Without a rewriter (before the conversion) kernel
/// arguments are read directly.
class AxisAnalysis {
public:
  AxisAnalysis(ConversionPatternRewriter *rewriter, const LoopFacts &loopFacts)
      : rewriter(rewriter), loopFacts(loopFacts) {}
  AxisAnalysis(ConversionPatternRewriter &rewriter, const LoopFacts &loopFacts)
      : AxisAnalysis(&rewriter, loopFacts) {}

  AxisFacts get(Value v, unsigned depth = 0);

private:
  int64_t getArgumentDivisibility(BlockArgument arg);
  AxisFacts compute(Value v, unsigned depth);

  ConversionPatternRewriter *rewriter;
  const LoopFacts &loopFacts;
  llvm::DenseMap<Value, AxisFacts> memo;
};

/// Registers of `ptr` (a tensor of pointers) accessed together by one
/// memory instruction: consecutive registers that hold consecutive
/// elements of one dimension, as far as the addresses are contiguous and
/// aligned and `mask` is constant over them; at most 16 bytes. The width of
/// tt.load/tt.store and of the async copies.
unsigned getAccessVectorWidth(Value ptr, Value mask,
                              ConversionPatternRewriter &rewriter,
                              const LoopFacts &loopFacts);

} // namespace mlir::triton_musa

#endif // TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_AXISANALYSIS_H
