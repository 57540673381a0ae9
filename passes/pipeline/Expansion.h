//===- Expansion.h - Pieces both pipeline expansions use -------*- C++ -*-===//
//
// What the expansion of a plan into a pipelined loop (PipelineLoops.cpp)
// and into a warp-specialized one (WarpSpecialize.cpp) share: iteration
// numbers, the reads of a ring slot in place of a load, and the matrix
// unit kept in flight into the next iteration (decision 5).
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_PASSES_PIPELINE_EXPANSION_H
#define TRITON_MUSA_PASSES_PIPELINE_EXPANSION_H

#include "passes/pipeline/LoopPlan.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::triton_musa::pipeline {

/// Ops the expansion adds, by stage.
struct Stages {
  llvm::DenseSet<Operation *> producer;
  /// The consumer's opening: the iteration number, the wait and barrier.
  SmallVector<Operation *> consumerHead;
};

/// Records into `ops` every op `b` creates from now on directly in `block`
/// (the loop's body: the ops a stage owns; those nested in them move with
/// them), or anywhere where `block` is null.
struct Recorder : public OpBuilder::Listener {
  SmallVectorImpl<Operation *> &ops;
  Block *block;
  explicit Recorder(SmallVectorImpl<Operation *> &ops, Block *block = nullptr)
      : ops(ops), block(block) {}
  void notifyOperationInserted(Operation *op,
                               OpBuilder::InsertPoint) override {
    if (!block || op->getBlock() == block)
      ops.push_back(op);
  }
};


/// (iv - lb) / step, as an i32: the number of the iteration the stage that
/// computes it works for (the pipeliner maps iv per stage).
Value iterationNumber(OpBuilder &b, scf::ForOp loop);

Value i32Constant(OpBuilder &b, Location loc, int64_t value);

/// Whether iteration number `it` (i32) is a multiple of `n`.
Value isMultipleOf(OpBuilder &b, Location loc, Value it, unsigned n);

/// A ring of `slots` mutable slots for `ringed`'s tiles, allocated at `b`.
Value allocateRing(OpBuilder &b, const RingedLoad &ringed, unsigned slots);

/// Reads `ring`'s slot `from` in place of `ringed`'s load: the slot itself
/// where the tile was only stored into operand buffers, else a
/// `ttg.local_load` (straight into the layout of a tile converted once).
void readSlot(OpBuilder &b, RingedLoad &ringed, Value from);

/// Decision 5: each carried SQMMA waits for its previous iteration's
/// instance (at the head of every `unitWaitEvery`-th iteration, decision 7,
/// else just before it is issued) and yields its result unwaited; the
/// waits for the last ones follow the loop. Returns those waits; the
/// waits at the head go to `stages`' consumer head.
SmallVector<Operation *> keepInFlight(LoopPlan &plan, Stages &stages);

} // namespace mlir::triton_musa::pipeline

#endif // TRITON_MUSA_PASSES_PIPELINE_EXPANSION_H
