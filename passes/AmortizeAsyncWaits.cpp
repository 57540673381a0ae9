//===- AmortizeAsyncWaits.cpp - --musa-amortize-async-waits --------------===//
//
// Triton's pipeliner starts, in iteration t, the copies iteration t + L - 1
// reads and waits at the top of each iteration until only the copies of
// the last L - 1 iterations may still be in flight (`num` = (L - 1) * G
// groups). MUSA's g2s wait cannot leave any in flight, so there every wait
// also waits for the copies started one iteration earlier. A wait for
// everything in iteration t covers every group committed before it, which
// is all that iterations t .. t + L - 1 rely on (they read what iterations
// up to t - 1 copied), so one wait per L iterations is as safe as one per
// iteration and lets the copies land during L iterations of compute
// instead of one. See the pass description.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialects/MUSAGPU/IR/Dialect.h"
#include "dialects/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::triton_musa {
#define GEN_PASS_DEF_MUSAAMORTIZEASYNCWAITS
#include "passes/Passes.h.inc"
} // namespace mlir::triton_musa

using namespace mlir;
using namespace mlir::triton_musa;
namespace ttg = mlir::triton::gpu;
namespace mgpu = mlir::musagpu;

namespace {

/// The body's only async wait and the lookahead L of the ring it guards, if
/// the loop has the shape the pass description asks for.
struct PipelinedWait {
  ttg::AsyncWaitOp wait;
  int64_t lookahead;
};

std::optional<PipelinedWait> matchPipelinedWait(scf::ForOp loop) {
  Block &body = *loop.getBody();
  ttg::AsyncWaitOp wait;
  int64_t groups = 0;
  for (Operation &op : body) {
    if (auto w = dyn_cast<ttg::AsyncWaitOp>(op)) {
      if (wait)
        return std::nullopt;
      wait = w;
      continue;
    }
    if (!isa<ttg::AsyncCopyGlobalToLocalOp, ttg::AsyncCommitGroupOp>(op))
      continue;
    // A copy or group before the wait would be covered by the wait of its
    // own iteration, which the lookahead below does not account for.
    if (!wait)
      return std::nullopt;
    if (isa<ttg::AsyncCommitGroupOp>(op))
      ++groups;
  }
  if (!wait || groups == 0)
    return std::nullopt;
  // Async ops in nested regions (a conditional stage, an inner loop) make
  // the groups per iteration unknown.
  WalkResult nested = loop.getBody()->walk([&](Operation *op) {
    if (op->getParentOp() != loop.getOperation() &&
        isa<ttg::AsyncWaitOp, ttg::AsyncCopyGlobalToLocalOp,
            ttg::AsyncCommitGroupOp>(op))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (nested.wasInterrupted())
    return std::nullopt;
  int64_t num = wait.getNum();
  if (num % groups != 0)
    return std::nullopt;
  // The token of the reads becomes one of the wait's operands.
  if (!wait.getRetToken().use_empty() && wait.getAsyncToken().empty())
    return std::nullopt;
  // (iv - lb) / step numbers the iterations only for a positive step.
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!step || *step <= 0)
    return std::nullopt;
  int64_t lookahead = num / groups + 1;
  if (lookahead < 2)
    return std::nullopt;
  return PipelinedWait{wait, lookahead};
}

/// Replaces `loop`'s wait by a wait in the iterations whose number is a
/// multiple of the lookahead, and a block barrier. The iteration number
/// comes from the induction variable, (iv - lb) / step: with a constant
/// power-of-two step and lookahead that is one bit test, where a
/// loop-carried counter measured 2% slower on the GPU proxy (4096^3 fp16
/// matmul).
void amortize(scf::ForOp loop, PipelinedWait pipelined,
              IRRewriter &rewriter) {
  Location loc = pipelined.wait.getLoc();
  ttg::AsyncWaitOp wait = pipelined.wait;
  rewriter.setInsertionPoint(wait);
  Type ivType = loop.getInductionVar().getType();
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantOp::create(rewriter, loc,
                                     rewriter.getIntegerAttr(ivType, value));
  };
  Value iteration = arith::DivUIOp::create(
      rewriter, loc,
      arith::SubIOp::create(rewriter, loc, loop.getInductionVar(),
                            loop.getLowerBound()),
      loop.getStep());
  Value phase = arith::RemUIOp::create(rewriter, loc, iteration,
                                       constant(pipelined.lookahead));
  Value waits = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                      phase, constant(0));

  // The barrier followed the wait in every iteration and still does; the
  // wait's token, which only orders Triton's own analyses, becomes the one
  // it waited on.
  mgpu::AsyncCopyWaitOp::create(rewriter, loc, waits);
  ttg::LocalBarrierOp::create(rewriter, loc);
  if (!wait.getRetToken().use_empty())
    wait.getRetToken().replaceAllUsesWith(wait.getAsyncToken().front());
  rewriter.eraseOp(wait);
}

struct MUSAAmortizeAsyncWaits
    : public mlir::triton_musa::impl::MUSAAmortizeAsyncWaitsBase<
          MUSAAmortizeAsyncWaits> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<std::pair<scf::ForOp, PipelinedWait>> loops;
    getOperation().walk([&](scf::ForOp loop) {
      if (std::optional<PipelinedWait> pipelined = matchPipelinedWait(loop))
        loops.push_back({loop, *pipelined});
    });
    IRRewriter rewriter(&getContext());
    for (auto &[loop, pipelined] : loops)
      amortize(loop, pipelined, rewriter);
  }
};

} // namespace
