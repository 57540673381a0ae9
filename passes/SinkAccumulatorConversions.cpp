//===- SinkAccumulatorConversions.cpp - --musa-sink-accumulator-conversions ===//
//
// After --musa-accelerate-matmul, a matrix unit's result leaves its layout
// (#musagpu.wmma, #musagpu.sqmma) through a ttg.convert_layout back to the
// dot's #ttg.blocked layout, and Triton's epilogue then often converts again
// (to the layout it chose for a store) after elementwise ops (a cast to the
// output type, a scale). Each conversion goes through shared-memory scratch.
// Triton's own layout passes ran before the matrix unit existed, so this pass
// does the part of their work that the accumulator layouts need:
//  * elementwise ops run in the accumulator layout, the conversion moving
//    after them (where the op narrows the type, the scratch traffic halves);
//  * a conversion of a conversion becomes one conversion;
//  * stores into shared memory (ttg.local_store, ttg.local_alloc, and
//    tt.descriptor_store, which --musa-lower-descriptors-to-tme turns into a
//    local_store) take the accumulator layout itself: they write through the
//    layout's linear layout whatever it is, so the conversion is dropped.
// Conversions from other layouts are left alone: Triton picked those store
// layouts for vectorized, conflict-free shared-memory stores.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialects/MUSAGPU/IR/Dialect.h"
#include "dialects/Triton/IR/Dialect.h"
#include "dialects/TritonGPU/IR/Dialect.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::triton_musa {
#define GEN_PASS_DEF_MUSASINKACCUMULATORCONVERSIONS
#include "passes/Passes.h.inc"
} // namespace mlir::triton_musa

using namespace mlir;
using namespace mlir::triton_musa;
namespace ttg = mlir::triton::gpu;
namespace mgpu = mlir::musagpu;

namespace {

/// The accumulator layout `value` is converted from, if it is the result of
/// a ttg.convert_layout out of #musagpu.wmma or #musagpu.sqmma.
Attribute accumulatorSource(Value value) {
  auto cvt = value.getDefiningOp<ttg::ConvertLayoutOp>();
  if (!cvt)
    return {};
  Attribute encoding = cvt.getSrc().getType().getEncoding();
  if (isa_and_nonnull<mgpu::WMMAEncodingAttr, mgpu::SQMMAEncodingAttr>(
          encoding))
    return encoding;
  return {};
}

RankedTensorType withEncoding(Type type, Attribute encoding) {
  auto tensor = cast<RankedTensorType>(type);
  return RankedTensorType::get(tensor.getShape(), tensor.getElementType(),
                               encoding);
}

/// convert_layout(convert_layout(x)) -> convert_layout(x), or x.
struct CollapseConversionChain
    : public OpRewritePattern<ttg::ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ttg::ConvertLayoutOp cvt,
                                PatternRewriter &rewriter) const override {
    auto inner = cvt.getSrc().getDefiningOp<ttg::ConvertLayoutOp>();
    if (!inner)
      return failure();
    if (inner.getSrc().getType() == cvt.getType())
      rewriter.replaceOp(cvt, inner.getSrc());
    else
      rewriter.replaceOpWithNewOp<ttg::ConvertLayoutOp>(cvt, cvt.getType(),
                                                        inner.getSrc());
    return success();
  }
};

/// An elementwise op on accumulators converted out of one accumulator
/// layout (and splat constants) runs in that layout; the conversion follows
/// it. Each converted operand must have no other use, or its conversion
/// would stay and the data would move twice.
struct SinkThroughElementwise : public RewritePattern {
  SinkThroughElementwise(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!op->hasTrait<OpTrait::Elementwise>() || op->getNumResults() != 1 ||
        op->getNumRegions() != 0 || !isMemoryEffectFree(op) ||
        !isa<RankedTensorType>(op->getResult(0).getType()))
      return failure();
    Attribute source;
    for (Value operand : op->getOperands()) {
      if (Attribute encoding = accumulatorSource(operand)) {
        if ((source && source != encoding) || !operand.hasOneUse())
          return failure();
        source = encoding;
        continue;
      }
      DenseElementsAttr splat;
      if (!matchPattern(operand, m_Constant(&splat)) || !splat.isSplat())
        return failure();
    }
    if (!source)
      return failure();
    SmallVector<Value> operands;
    for (Value operand : op->getOperands()) {
      if (auto cvt = operand.getDefiningOp<ttg::ConvertLayoutOp>()) {
        operands.push_back(cvt.getSrc());
        continue;
      }
      DenseElementsAttr splat;
      matchPattern(operand, m_Constant(&splat));
      RankedTensorType type = withEncoding(operand.getType(), source);
      operands.push_back(arith::ConstantOp::create(
          rewriter, op->getLoc(), type, splat.resizeSplat(type)));
    }
    Operation *moved = rewriter.clone(*op);
    moved->setOperands(operands);
    Type resultType = op->getResult(0).getType();
    moved->getResult(0).setType(withEncoding(resultType, source));
    rewriter.replaceOpWithNewOp<ttg::ConvertLayoutOp>(op, resultType,
                                                      moved->getResult(0));
    return success();
  }
};

/// A store into shared memory takes an accumulator out of its layout as it
/// is: operand `operandIndex` of OpTy is the stored tensor.
template <typename OpTy, unsigned operandIndex>
struct StoreAccumulatorLayout : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (op->getNumOperands() <= operandIndex)
      return failure();
    Value stored = op->getOperand(operandIndex);
    if (!accumulatorSource(stored))
      return failure();
    rewriter.modifyOpInPlace(op, [&] {
      op->setOperand(operandIndex,
                     stored.getDefiningOp<ttg::ConvertLayoutOp>().getSrc());
    });
    return success();
  }
};

/// Records whether a walk rewrote anything.
struct ChangeTracker : public RewriterBase::Listener {
  bool changed = false;
  void notifyOperationInserted(Operation *,
                               OpBuilder::InsertPoint) override {
    changed = true;
  }
  void notifyOperationModified(Operation *) override { changed = true; }
};

struct MUSASinkAccumulatorConversions
    : public mlir::triton_musa::impl::MUSASinkAccumulatorConversionsBase<
          MUSASinkAccumulatorConversions> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    patterns.add<CollapseConversionChain, SinkThroughElementwise,
                 StoreAccumulatorLayout<ttg::LocalStoreOp, 0>,
                 StoreAccumulatorLayout<ttg::LocalAllocOp, 0>>(ctx);
    // tt.descriptor_store's operands: the descriptor, the stored tile, then
    // the indices.
    patterns.add<StoreAccumulatorLayout<triton::DescriptorStoreOp, 1>>(ctx);
    FrozenRewritePatternSet frozen(std::move(patterns));
    // A walk applies only these rewrites: the greedy driver would also fold
    // and erase the module's other dead ops, which is not this pass's job.
    // Each rewrite moves a conversion forward, so one walk mostly suffices;
    // walk again while something changed.
    ChangeTracker tracker;
    do {
      tracker.changed = false;
      walkAndApplyPatterns(getOperation(), frozen, &tracker);
    } while (tracker.changed);
    // The conversions out of accumulator layouts the rewrites left without
    // users would still get scratch from --musa-allocate-shared-memory.
    SmallVector<ttg::ConvertLayoutOp> dead;
    do {
      dead.clear();
      getOperation().walk([&](ttg::ConvertLayoutOp cvt) {
        if (cvt->use_empty() && accumulatorSource(cvt.getResult()))
          dead.push_back(cvt);
      });
      for (ttg::ConvertLayoutOp cvt : dead)
        cvt.erase();
    } while (!dead.empty());
  }
};

} // namespace
