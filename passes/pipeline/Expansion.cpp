//===- Expansion.cpp - Pieces both pipeline expansions use ----------------===//
//
// See Expansion.h.
//
//===----------------------------------------------------------------------===//

#include "passes/pipeline/Expansion.h"

#include "passes/IfResults.h"

#include "dialects/MUSAGPU/IR/Dialect.h"
#include "dialects/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::triton_musa;
using namespace mlir::triton_musa::pipeline;
namespace ttg = mlir::triton::gpu;
namespace mgpu = mlir::musagpu;

/// (iv - lb) / step, as an i32: the number of the iteration the stage that
/// computes it works for (the pipeliner maps iv per stage).
Value pipeline::iterationNumber(OpBuilder &b, scf::ForOp loop) {
  Location loc = loop.getLoc();
  Value diff = arith::SubIOp::create(b, loc, loop.getInductionVar(),
                                     loop.getLowerBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
  // Exact division: unsigned where both are known non-negative (a shift for
  // a power-of-two step), signed otherwise.
  Value it = step && *step > 0 && lb && *lb >= 0
                 ? Value(arith::DivUIOp::create(b, loc, diff, loop.getStep()))
                 : Value(arith::DivSIOp::create(b, loc, diff, loop.getStep()));
  Type i32 = b.getI32Type();
  if (it.getType().isIndex())
    return arith::IndexCastOp::create(b, loc, i32, it);
  if (it.getType().getIntOrFloatBitWidth() > 32)
    return arith::TruncIOp::create(b, loc, i32, it);
  if (it.getType().getIntOrFloatBitWidth() < 32)
    return arith::ExtSIOp::create(b, loc, i32, it);
  return it;
}

Value pipeline::i32Constant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(value));
}

/// Whether iteration number `it` (i32) is a multiple of `n`.
Value pipeline::isMultipleOf(OpBuilder &b, Location loc, Value it, unsigned n) {
  return arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::RemUIOp::create(b, loc, it, i32Constant(b, loc, n)),
      i32Constant(b, loc, 0));
}

/// The memdesc type `type` with `mutableMemory` set (a view of a ring slot
/// is mutable where the buffer it replaces was not).
static ttg::MemDescType asMutable(ttg::MemDescType type) {
  return ttg::MemDescType::get(type.getContext(), type.getShape(),
                               type.getElementType(), type.getEncoding(),
                               type.getMemorySpace(), /*mutableMemory=*/true,
                               type.getAllocShape());
}

/// Makes the memdesc views derived from `value` mutable, as `value` now is.
static void propagateMutability(Value value) {
  for (Operation *user : value.getUsers()) {
    if (!isa<ttg::MemDescTransOp, ttg::MemDescReshapeOp,
             ttg::MemDescSubsliceOp, ttg::MemDescIndexOp>(user))
      continue;
    Value result = user->getResult(0);
    auto type = cast<ttg::MemDescType>(result.getType());
    if (type.getMutableMemory())
      continue;
    result.setType(asMutable(type));
    propagateMutability(result);
  }
}

/// A ring of `slots` mutable slots for `ringed`'s tiles, allocated at `b`.
Value pipeline::allocateRing(OpBuilder &b, const RingedLoad &ringed,
                             unsigned slots) {
  SmallVector<int64_t> shape = {int64_t(slots)};
  llvm::append_range(shape, ringed.slotType.getShape());
  auto ringType = ttg::MemDescType::get(
      shape, ringed.slotType.getElementType(), ringed.slotType.getEncoding(),
      ringed.slotType.getMemorySpace(), /*mutableMemory=*/true);
  return ttg::LocalAllocOp::create(b, ringed.load->getLoc(), ringType,
                                   /*src=*/Value(),
                                   b.getI32IntegerAttr(ringed.alignment));
}

/// Reads `ring`'s slot `from` in place of `ringed`'s load: the slot itself
/// where the tile was only stored into operand buffers, else a
/// `ttg.local_load` (straight into the layout of a tile converted once).
void pipeline::readSlot(OpBuilder &b, RingedLoad &ringed, Value from) {
  Operation *load = ringed.load;
  Location loc = load->getLoc();
  if (!ringed.inPlaceAllocs.empty()) {
    for (ttg::LocalAllocOp alloc : ringed.inPlaceAllocs) {
      alloc.getResult().replaceAllUsesWith(from);
      alloc.erase();
    }
    propagateMutability(from);
    return;
  }
  ttg::ConvertLayoutOp cvt = ringed.getOnlyConversion();
  Type readType = cvt ? cvt.getType() : load->getResult(0).getType();
  auto read = ttg::LocalLoadOp::create(b, loc, readType, from, Value());
  if (cvt) {
    cvt.getResult().replaceAllUsesWith(read.getResult());
    cvt.erase();
  } else {
    load->getResult(0).replaceAllUsesWith(read.getResult());
  }
}

/// The tile-end form of decision 5: the epilogue's scf.if waits for the
/// sqmma itself, then yields the reset value; the other branch yields the
/// sqmma's result unwaited, which the next iteration's sqmma waits for. The
/// select is gone: nothing reads the result before a wait.
static void keepThroughTileEnd(const CarriedSQMMA &carried) {
  auto sqmma = cast<mgpu::SQMMAOp>(carried.sqmma);
  auto reset = cast<arith::SelectOp>(carried.reset);
  auto ifOp = cast<scf::IfOp>(carried.epilogue);
  Value done = carried.wait->getResult(0);
  IRRewriter rewriter(ifOp.getContext());
  // Then: the epilogue, the reset value; else: the result in flight.
  scf::IfOp newIf = appendIfResults(rewriter, ifOp, reset.getTrueValue(),
                                    sqmma.getD());
  // The epilogue reads the result after its own wait.
  rewriter.setInsertionPointToStart(&newIf.getThenRegion().front());
  auto waited = mgpu::SQMMAWaitOp::create(rewriter, sqmma.getLoc(),
                                          ValueRange{sqmma.getD()});
  done.replaceUsesWithIf(waited.getResult(0), [&](OpOperand &use) {
    return newIf->isProperAncestor(use.getOwner());
  });
  rewriter.replaceOp(reset, newIf.getResults().back());
}

/// Decision 7: at the head of the loop's body, `scf.if it % every == 0`
/// around the wait for `acc` (the SQMMAs in flight since the last one),
/// yielding `acc` unwaited in the other iterations. Returns the value the
/// next SQMMA accumulates into; the ops at the body's level go to `head`.
static Value waitOnceARound(scf::ForOp loop, Value acc, unsigned every,
                     SmallVectorImpl<Operation *> &head) {
  Location loc = acc.getLoc();
  Recorder recorder(head, loop.getBody());
  OpBuilder b = OpBuilder::atBlockBegin(loop.getBody(), &recorder);
  Value due = isMultipleOf(b, loc, iterationNumber(b, loop), every);
  auto round =
      scf::IfOp::create(b, loc, TypeRange{acc.getType()}, due, true);
  b.setInsertionPointToStart(round.thenBlock());
  auto waited = mgpu::SQMMAWaitOp::create(b, loc, ValueRange{acc});
  scf::YieldOp::create(b, loc, waited.getResult(0));
  b.setInsertionPointToStart(round.elseBlock());
  scf::YieldOp::create(b, loc, acc);
  return round.getResult(0);
}

/// Decision 5: each carried SQMMA waits for its previous iteration's
/// instance (at the head of every `unitWaitEvery`-th iteration, decision 7,
/// else just before it is issued) and yields its result unwaited; the
/// waits for the last ones follow the loop. Returns those waits; the
/// waits at the head go to `stages`' consumer head.
SmallVector<Operation *> pipeline::keepInFlight(LoopPlan &plan, Stages &stages) {
  scf::ForOp loop = plan.loop;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  SmallVector<Operation *> finals;
  OpBuilder b(loop);
  for (const CarriedSQMMA &carried : plan.inFlight) {
    auto sqmma = cast<mgpu::SQMMAOp>(carried.sqmma);
    Value ready;
    if (plan.unitWaitEvery > 1) {
      ready = waitOnceARound(loop, sqmma.getC(), plan.unitWaitEvery,
                             stages.consumerHead);
    } else {
      b.setInsertionPoint(sqmma);
      ready = mgpu::SQMMAWaitOp::create(b, sqmma.getLoc(),
                                        ValueRange{sqmma.getC()})
                  .getResult(0);
    }
    sqmma.getCMutable().assign(ready);
    if (carried.reset)
      keepThroughTileEnd(carried);
    else
      yield->setOperand(carried.iterArg, sqmma.getD());
    carried.wait->erase();
    b.setInsertionPointAfter(finals.empty() ? loop.getOperation()
                                            : finals.back());
    Value result = loop.getResult(carried.iterArg);
    auto last = mgpu::SQMMAWaitOp::create(b, sqmma.getLoc(),
                                          ValueRange{result});
    result.replaceAllUsesExcept(last.getResult(0), last);
    finals.push_back(last);
  }
  return finals;
}
