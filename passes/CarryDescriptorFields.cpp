//===- CarryDescriptorFields.cpp - --musa-carry-descriptor-fields ---------===//
//
// A descriptor made in the kernel and carried through a loop (the iteration
// value is a `!tt.tensordesc`) is, below TTGIR, a base pointer whose shape
// and strides are read from its `tt.make_tensor_descriptor`; a loop's block
// argument has none. Where every descriptor a loop carries in one iteration
// value is made by `tt.make_tensor_descriptor` (its initial value and what
// the body yields), the loop carries the maker's operands instead (base,
// shape, strides) and makes the descriptor again at the start of the body
// and after the loop. Outer loops first, so that an inner loop's initial
// descriptor is the outer body's new maker.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialects/Triton/IR/Dialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::triton_musa {
#define GEN_PASS_DEF_MUSACARRYDESCRIPTORFIELDS
#include "passes/Passes.h.inc"
} // namespace mlir::triton_musa

using namespace mlir;
using namespace mlir::triton_musa;
namespace tt = mlir::triton;

namespace {

/// The maker of `value`, if it is a `tt.make_tensor_descriptor` of `like`'s
/// type and padding (`like` null: any).
tt::MakeTensorDescOp getMaker(Value value, tt::MakeTensorDescOp like) {
  auto make = value.getDefiningOp<tt::MakeTensorDescOp>();
  if (!make || (like && (make.getType() != like.getType() ||
                         make.getPadding() != like.getPadding())))
    return {};
  return make;
}

/// Whether the descriptor `value`, yielded where the loop's iteration value
/// `carriedArg` is carried, will be made by a maker of `like`'s type and
/// padding once the loops it comes out of are rewritten: a maker, or the
/// result of a nested loop that starts from a maker or from `carriedArg`
/// itself and yields such a value.
bool yieldsMaker(Value value, tt::MakeTensorDescOp like, Value carriedArg) {
  if (getMaker(value, like))
    return true;
  auto result = dyn_cast<OpResult>(value);
  auto inner = result ? dyn_cast<scf::ForOp>(result.getOwner()) : scf::ForOp();
  if (!inner)
    return false;
  unsigned k = result.getResultNumber();
  Value init = inner.getInitArgs()[k];
  if (init != carriedArg && !getMaker(init, like))
    return false;
  auto innerYield = cast<scf::YieldOp>(inner.getBody()->getTerminator());
  return yieldsMaker(innerYield.getOperand(k), like,
                     inner.getRegionIterArgs()[k]);
}

scf::ForOp carryFields(scf::ForOp loop);

/// The maker of the descriptor `value` yields, rewriting the nested loop it
/// comes out of first where yieldsMaker found one.
tt::MakeTensorDescOp getYieldedMaker(OpOperand &yielded) {
  if (auto make = getMaker(yielded.get(), {}))
    return make;
  auto inner = cast<scf::ForOp>(cast<OpResult>(yielded.get()).getOwner());
  carryFields(inner); // replaces the result with a maker after the loop
  return getMaker(yielded.get(), {});
}

/// The operands a maker's descriptor stands for: base, shape, strides.
SmallVector<Value> getFields(tt::MakeTensorDescOp make) {
  SmallVector<Value> fields = {make.getBase()};
  llvm::append_range(fields, make.getShape());
  llvm::append_range(fields, make.getStrides());
  return fields;
}

/// A maker of `like`'s type and padding from `fields` (getFields' order).
Value makeFrom(OpBuilder &b, Location loc, tt::MakeTensorDescOp like,
               ValueRange fields) {
  unsigned rank = like.getShape().size();
  auto make = tt::MakeTensorDescOp::create(
      b, loc, like.getType(), fields.front(), fields.slice(1, rank),
      fields.slice(1 + rank, rank), like.getPadding());
  return make.getResult();
}

/// Rewrites `loop` when some descriptor iteration value can carry its
/// maker's fields; returns the loop that replaces it (or `loop`).
scf::ForOp carryFields(scf::ForOp loop) {
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  unsigned n = loop.getNumRegionIterArgs();
  // Per iteration value, the initial maker (the pattern) where it carries
  // fields.
  SmallVector<tt::MakeTensorDescOp> carried(n);
  bool any = false;
  for (unsigned i = 0; i < n; ++i) {
    if (!isa<tt::TensorDescType>(loop.getRegionIterArgs()[i].getType()))
      continue;
    tt::MakeTensorDescOp init = getMaker(loop.getInitArgs()[i], {});
    if (init && yieldsMaker(yield.getOperand(i), init,
                            loop.getRegionIterArgs()[i])) {
      carried[i] = init;
      any = true;
    }
  }
  if (!any)
    return loop;

  OpBuilder b(loop);
  Location loc = loop.getLoc();
  SmallVector<Value> inits;
  for (unsigned i = 0; i < n; ++i) {
    if (carried[i])
      llvm::append_range(inits, getFields(carried[i]));
    else
      inits.push_back(loop.getInitArgs()[i]);
  }
  auto newLoop = scf::ForOp::create(b, loc, loop.getLowerBound(),
                                    loop.getUpperBound(), loop.getStep(), inits);
  newLoop->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  // The old body, its descriptor arguments replaced by makers of the fields.
  Block *body = newLoop.getBody();
  if (!body->empty()) // the builder's own yield, where it made one
    body->back().erase();
  Block *old = loop.getBody();
  SmallVector<Value> argValues = {body->getArgument(0)};
  b.setInsertionPointToStart(body);
  unsigned next = 1;
  for (unsigned i = 0; i < n; ++i) {
    if (!carried[i]) {
      argValues.push_back(body->getArgument(next++));
      continue;
    }
    unsigned count = 1 + 2 * carried[i].getShape().size();
    argValues.push_back(
        makeFrom(b, loc, carried[i], body->getArguments().slice(next, count)));
    next += count;
  }
  body->getOperations().splice(body->end(), old->getOperations());
  for (auto [oldArg, value] : llvm::zip_equal(old->getArguments(), argValues))
    oldArg.replaceAllUsesWith(value);
  // The yield: the fields of each carried descriptor's maker.
  SmallVector<Value> yielded;
  llvm::SetVector<Operation *> makers; // the old ones, erased if unused
  for (unsigned i = 0; i < n; ++i) {
    if (!carried[i]) {
      yielded.push_back(yield.getOperand(i));
      continue;
    }
    tt::MakeTensorDescOp make = getYieldedMaker(yield->getOpOperand(i));
    llvm::append_range(yielded, getFields(make));
    makers.insert(make);
  }
  b.setInsertionPoint(yield);
  scf::YieldOp::create(b, yield.getLoc(), yielded);
  yield.erase();
  // The results: makers after the loop.
  b.setInsertionPointAfter(newLoop);
  next = 0;
  for (unsigned i = 0; i < n; ++i) {
    if (!carried[i]) {
      loop.getResult(i).replaceAllUsesWith(newLoop.getResult(next++));
      continue;
    }
    unsigned count = 1 + 2 * carried[i].getShape().size();
    if (!loop.getResult(i).use_empty())
      loop.getResult(i).replaceAllUsesWith(makeFrom(
          b, loc, carried[i], newLoop.getResults().slice(next, count)));
    next += count;
  }
  loop.erase();
  for (unsigned i = 0; i < n; ++i)
    if (carried[i])
      makers.insert(carried[i]);
  for (Operation *make : makers)
    if (make->use_empty())
      make->erase();
  return newLoop;
}

struct MUSACarryDescriptorFields
    : public mlir::triton_musa::impl::MUSACarryDescriptorFieldsBase<
          MUSACarryDescriptorFields> {
  void runOnOperation() override {
    // Outer loops first (a rewrite may rewrite loops nested in it, so the
    // walk starts again after each).
    bool changed = true;
    while (changed) {
      changed = false;
      getOperation().walk<WalkOrder::PreOrder>([&](scf::ForOp loop) {
        if (carryFields(loop) == loop)
          return WalkResult::advance();
        changed = true;
        return WalkResult::interrupt();
      });
    }
  }
};

} // namespace
