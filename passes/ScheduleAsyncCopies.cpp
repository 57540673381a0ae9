//===- ScheduleAsyncCopies.cpp - --musa-schedule-async-copies ------------===//
//
// Triton's pipeliner leaves each pipelined loop as: wait, read the current
// buffers, compute (tt.dot), then start the copies that refill a buffer for a
// later iteration. Every ttg.async_wait on MUSA waits for all of the thread's
// copies (AsyncCopyOpToLLVM.cpp), so copies started after the compute are
// waited for at the top of the next iteration without overlapping anything.
// This pass moves the compute below the copies: each tt.dot of the loop body
// that comes before the body's last async copy, with everything that depends
// on it in the body, goes to just before the terminator. That is legal
// whenever all of those ops are free of memory effects (then only their
// data dependencies matter, and every op they use still precedes them); a
// loop where one is not is left alone. See the pass description.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialects/Triton/IR/Dialect.h"
#include "dialects/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::triton_musa {
#define GEN_PASS_DEF_MUSASCHEDULEASYNCCOPIES
#include "passes/Passes.h.inc"
} // namespace mlir::triton_musa

using namespace mlir;
using namespace mlir::triton_musa;
namespace ttg = mlir::triton::gpu;

namespace {

/// Moves the dots of `body` that precede its last async copy, with their
/// users in `body`, to just before its terminator, if they are all free of
/// memory effects.
void scheduleBody(Block &body) {
  Operation *lastCopy = nullptr;
  for (Operation &op : body)
    if (isa<ttg::AsyncCopyGlobalToLocalOp>(op))
      lastCopy = &op;
  if (!lastCopy)
    return;
  // The ops to move: dots before the last copy and, transitively, the ops
  // of `body` (found through their ancestors in `body`) that use them.
  llvm::SetVector<Operation *> moved;
  for (Operation &op : body) {
    if (&op == lastCopy)
      break;
    if (isa<triton::DotOp>(op))
      moved.insert(&op);
  }
  if (moved.empty())
    return;
  for (unsigned i = 0; i < moved.size(); ++i)
    for (Value result : moved[i]->getResults())
      for (Operation *user : result.getUsers()) {
        Operation *inBody = body.findAncestorOpInBlock(*user);
        if (inBody && inBody != body.getTerminator())
          moved.insert(inBody);
      }
  if (!llvm::all_of(moved,
                    [](Operation *op) { return isMemoryEffectFree(op); }))
    return;
  // Only worth it if a copy comes after a moved op.
  if (llvm::none_of(moved, [&](Operation *op) {
        return op->isBeforeInBlock(lastCopy);
      }))
    return;
  SmallVector<Operation *> ordered(moved.begin(), moved.end());
  llvm::sort(ordered, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });
  for (Operation *op : ordered)
    op->moveBefore(body.getTerminator());
}

struct MUSAScheduleAsyncCopies
    : public mlir::triton_musa::impl::MUSAScheduleAsyncCopiesBase<
          MUSAScheduleAsyncCopies> {
  using Base::Base;

  void runOnOperation() override {
    getOperation().walk(
        [](scf::ForOp forOp) { scheduleBody(*forOp.getBody()); });
  }
};

} // namespace
