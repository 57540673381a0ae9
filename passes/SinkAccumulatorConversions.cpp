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
//    an accumulator read by several of them (an epilogue's gelu) takes the
//    whole elementwise cluster along, when what leaves it is no wider;
//  * a conversion of a conversion becomes one conversion, and a conversion
//    of a splat constant the constant in the new layout;
//  * a conversion used both in its block and in regions nested there gets
//    a copy next to each nested use, so each sinks on its own path (an
//    arith.select's scalar condition stays as it is);
//  * stores into shared memory (ttg.local_store, ttg.local_alloc, and
//    tt.descriptor_store, which --musa-lower-descriptors-to-tme turns into a
//    local_store) take the accumulator layout itself: they write through the
//    layout's linear layout whatever it is, so the conversion is dropped;
//  * an elementwise operand broadcast from a row or column vector
//    (tt.broadcast of tt.expand_dims, e.g. `s - m[:, None]`, also with a
//    conversion of the N x 1 tile between the two, or elementwise ops on it:
//    `start_n + rn[None, :]`) is rebuilt in the accumulator layout from the
//    vector, converted into its slice (where the vector is defined, once,
//    when that is outside the loop) or, an index vector such as
//    `start_n + tl.arange(0, BN)`, recomputed there: the vector moves, not
//    the tile; so is an elementwise tree of such operands and splats (a
//    causal mask `rm[:, None] >= rn[None, :]`);
//  * an operand extended from a narrower tile (`x.to(tl.float32)` of an
//    f16 tile, an addmm's bias) is converted in before the extension: the
//    narrow tile moves, not the accumulator;
//  * a tt.reduce of an accumulator runs in its layout, and the (much
//    smaller) result is converted instead;
//  * a row or column vector of an accumulator (a slice of its layout) is
//    treated as the accumulator is: elementwise ops and loop-carried values
//    stay in the slice;
//  * a loop-carried value that each iteration converts out of an
//    accumulator layout is carried in that layout: the conversion moves to
//    its uses at the top of the body (where the rewrites above carry it on,
//    or it cancels against the conversion into the unit's next dot) and
//    after the loop. Flash attention's accumulator and scores then stay in
//    the unit's layout.
// Conversions from other layouts are left alone: Triton picked those store
// layouts for vectorized, conflict-free shared-memory stores.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialects/MUSAGPU/IR/Dialect.h"
#include "dialects/Triton/IR/Dialect.h"
#include "dialects/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::triton_musa {
#define GEN_PASS_DEF_MUSASINKACCUMULATORCONVERSIONS
#include "passes/Passes.h.inc"
} // namespace mlir::triton_musa

using namespace mlir;
using namespace mlir::triton_musa;
namespace ttg = mlir::triton::gpu;
namespace mgpu = mlir::musagpu;

namespace {

bool isAccumulatorLayout(Attribute encoding) {
  return isa_and_nonnull<mgpu::WMMAEncodingAttr, mgpu::SQMMAEncodingAttr>(
      encoding);
}

/// The accumulator layout `value` is converted from, if it is the result of
/// a ttg.convert_layout out of #musagpu.wmma or #musagpu.sqmma, or out of a
/// slice of one (a row or column vector of an accumulator: attention's row
/// max and sum, which then stay in it too).
Attribute accumulatorSource(Value value) {
  auto cvt = value.getDefiningOp<ttg::ConvertLayoutOp>();
  if (!cvt)
    return {};
  Attribute encoding = cvt.getSrc().getType().getEncoding();
  if (isAccumulatorLayout(encoding))
    return encoding;
  if (auto slice = dyn_cast_or_null<ttg::SliceEncodingAttr>(encoding);
      slice && isAccumulatorLayout(slice.getParent()))
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

/// Whether `vector` is computed, through conversions, from a make_range,
/// splats and splat constants by elementwise ops alone (a row or column
/// index such as `start_n + tl.arange(0, BN)`): then it is recomputed in a
/// layout rather than converted into it (a conversion goes through shared
/// memory and barriers, every iteration of a loop).
bool isIndexVector(Value vector, unsigned depth = 0) {
  Operation *def = vector.getDefiningOp();
  if (!def || depth > 6)
    return false;
  DenseElementsAttr splat;
  if (isa<triton::MakeRangeOp, triton::SplatOp>(def) ||
      (matchPattern(vector, m_Constant(&splat)) && splat.isSplat()))
    return true;
  if (auto cvt = dyn_cast<ttg::ConvertLayoutOp>(def))
    return isIndexVector(cvt.getSrc(), depth + 1);
  if (!def->hasTrait<OpTrait::Elementwise>() || def->getNumResults() != 1 ||
      def->getNumRegions() != 0 || !isMemoryEffectFree(def))
    return false;
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return isa<RankedTensorType>(operand.getType()) &&
           isIndexVector(operand, depth + 1);
  });
}

/// `vector` (isIndexVector) recomputed in `encoding`.
Value rebuildIndexVector(RewriterBase &rewriter, Location loc, Value vector,
                         Attribute encoding) {
  RankedTensorType type = withEncoding(vector.getType(), encoding);
  Operation *def = vector.getDefiningOp();
  if (auto cvt = dyn_cast<ttg::ConvertLayoutOp>(def))
    return rebuildIndexVector(rewriter, loc, cvt.getSrc(), encoding);
  if (auto range = dyn_cast<triton::MakeRangeOp>(def))
    return triton::MakeRangeOp::create(rewriter, loc, type,
                                       range.getStartAttr(),
                                       range.getEndAttr());
  DenseElementsAttr splat;
  if (matchPattern(vector, m_Constant(&splat)))
    return arith::ConstantOp::create(rewriter, loc, type,
                                     splat.resizeSplat(type));
  if (auto scalar = dyn_cast<triton::SplatOp>(def))
    return triton::SplatOp::create(rewriter, loc, type, scalar.getSrc());
  SmallVector<Value> operands;
  for (Value operand : def->getOperands())
    operands.push_back(rebuildIndexVector(rewriter, loc, operand, encoding));
  Operation *rebuilt = rewriter.clone(*def);
  rebuilt->setOperands(operands);
  rebuilt->getResult(0).setType(type);
  return rebuilt->getResult(0);
}

/// The vector `vector` of a tt.expand_dims brought into `slice`: an index
/// vector recomputed there, any other converted; a vector defined outside
/// the block of the insertion point (a loop-invariant row of a loop's
/// operand) is converted where it is defined, once, not every iteration.
Value vectorInSlice(RewriterBase &rewriter, Location loc, Value vector,
                    Attribute slice) {
  if (isIndexVector(vector))
    return rebuildIndexVector(rewriter, loc, vector, slice);
  OpBuilder::InsertionGuard guard(rewriter);
  if (vector.getParentBlock() != rewriter.getInsertionBlock())
    rewriter.setInsertionPointAfterValue(vector);
  return ttg::ConvertLayoutOp::create(
      rewriter, loc, withEncoding(vector.getType(), slice), vector);
}

/// How an operand of an elementwise op on accumulators is brought into
/// their layout.
enum class Rebuild {
  /// Not without converting the tile itself.
  No,
  /// Recomputed there from scalars and vectors: a splat (constant or
  /// tt.splat), a broadcast vector, or an elementwise op of such operands
  /// (a causal mask `rm[:, None] >= rn[None, :]`): only vectors move.
  FromVectors,
  /// An extension of a narrower tile (`x.to(tl.float32)` of a loaded f16
  /// tile): the narrow tile is converted in, then extended, which moves
  /// fewer bytes than converting the accumulator out.
  FromNarrowTile,
};

Rebuild getRebuild(Value value, unsigned accBits, unsigned depth = 0) {
  DenseElementsAttr splat;
  if ((matchPattern(value, m_Constant(&splat)) && splat.isSplat()) ||
      value.getDefiningOp<triton::SplatOp>())
    return Rebuild::FromVectors;
  // A row or column vector made a tile: only the vector moves.
  if (auto expand = value.getDefiningOp<triton::ExpandDimsOp>())
    return cast<RankedTensorType>(expand.getType()).getRank() == 2
               ? Rebuild::FromVectors
               : Rebuild::No;
  if (depth >= 8)
    return Rebuild::No;
  // A broadcast of such a tile (`rm[:, None]`, `start_n + rn[None, :]`),
  // and Triton's conversion of one (an N x 1 tile between its expand_dims
  // and its broadcast): rebuilt from their sources.
  if (isa_and_nonnull<triton::BroadcastOp, ttg::ConvertLayoutOp>(
          value.getDefiningOp()))
    return getRebuild(value.getDefiningOp()->getOperand(0), accBits,
                      depth + 1) == Rebuild::FromVectors
               ? Rebuild::FromVectors
               : Rebuild::No;
  Operation *def = value.getDefiningOp();
  if (!def || def->getNumResults() != 1 || def->getNumRegions() != 0 ||
      !def->hasTrait<OpTrait::Elementwise>() || !isMemoryEffectFree(def))
    return Rebuild::No;
  if (isa<arith::ExtFOp, arith::ExtSIOp, arith::ExtUIOp>(def)) {
    auto narrow = cast<RankedTensorType>(def->getOperand(0).getType());
    if (getRebuild(def->getOperand(0), accBits, depth + 1) ==
            Rebuild::FromVectors)
      return Rebuild::FromVectors;
    return narrow.getElementTypeBitWidth() < accBits ? Rebuild::FromNarrowTile
                                                     : Rebuild::No;
  }
  if (depth >= 4)
    return Rebuild::No;
  for (Value operand : def->getOperands())
    if (!isa<RankedTensorType>(operand.getType()) ||
        getRebuild(operand, accBits, depth + 1) != Rebuild::FromVectors)
      return Rebuild::No;
  return Rebuild::FromVectors;
}

/// `value` (getRebuild != No) computed in `encoding`.
Value rebuildInLayout(RewriterBase &rewriter, Location loc, Value value,
                      Attribute encoding) {
  RankedTensorType type = withEncoding(value.getType(), encoding);
  DenseElementsAttr splat;
  if (matchPattern(value, m_Constant(&splat)))
    return arith::ConstantOp::create(rewriter, loc, type,
                                     splat.resizeSplat(type));
  if (auto scalar = value.getDefiningOp<triton::SplatOp>())
    return triton::SplatOp::create(rewriter, loc, type, scalar.getSrc());
  if (auto expand = value.getDefiningOp<triton::ExpandDimsOp>()) {
    unsigned axis = expand.getAxis();
    auto slice = ttg::SliceEncodingAttr::get(
        rewriter.getContext(), axis,
        cast<ttg::DistributedEncodingTrait>(encoding));
    return triton::ExpandDimsOp::create(
        rewriter, loc, type,
        vectorInSlice(rewriter, loc, expand.getSrc(), slice),
        rewriter.getI32IntegerAttr(axis));
  }
  if (auto broadcast = value.getDefiningOp<triton::BroadcastOp>())
    return triton::BroadcastOp::create(
        rewriter, loc, type,
        rebuildInLayout(rewriter, loc, broadcast.getSrc(), encoding));
  if (auto cvt = value.getDefiningOp<ttg::ConvertLayoutOp>())
    return rebuildInLayout(rewriter, loc, cvt.getSrc(), encoding);
  Operation *def = value.getDefiningOp();
  SmallVector<Value> operands;
  for (Value operand : def->getOperands()) {
    auto accBits = cast<RankedTensorType>(type).getElementTypeBitWidth();
    if (getRebuild(operand, accBits) == Rebuild::FromVectors)
      operands.push_back(rebuildInLayout(rewriter, loc, operand, encoding));
    else
      operands.push_back(ttg::ConvertLayoutOp::create(
          rewriter, loc, withEncoding(operand.getType(), encoding), operand));
  }
  Operation *rebuilt = rewriter.clone(*def);
  rebuilt->setOperands(operands);
  rebuilt->getResult(0).setType(type);
  return rebuilt->getResult(0);
}

/// Erases the ops defining `values` and, transitively, their operands'
/// defining ops, while they are memory-effect free and unused: the
/// originals of operands rebuilt in an accumulator layout, which would
/// otherwise keep their conversions' scratch and barriers. (The trees may
/// share ops: each is erased once.)
void eraseDeadTrees(RewriterBase &rewriter, ArrayRef<Value> values) {
  SmallVector<Operation *> worklist;
  for (Value value : values)
    if (Operation *def = value.getDefiningOp())
      worklist.push_back(def);
  llvm::SmallPtrSet<Operation *, 16> erased;
  while (!worklist.empty()) {
    Operation *def = worklist.pop_back_val();
    if (erased.contains(def) || !def->use_empty() ||
        def->getNumRegions() != 0 || !isMemoryEffectFree(def))
      continue;
    for (Value operand : def->getOperands())
      if (Operation *operandDef = operand.getDefiningOp())
        worklist.push_back(operandDef);
    erased.insert(def);
    rewriter.eraseOp(def);
  }
}

/// convert_layout of a splat constant -> the constant in the new layout (a
/// loop-carried accumulator's zero init, once it is carried as such).
struct ConvertSplatConstant : public OpRewritePattern<ttg::ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ttg::ConvertLayoutOp cvt,
                                PatternRewriter &rewriter) const override {
    DenseElementsAttr splat;
    if (!matchPattern(cvt.getSrc(), m_Constant(&splat)) || !splat.isSplat())
      return failure();
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        cvt, cvt.getType(), splat.resizeSplat(cvt.getType()));
    return success();
  }
};

/// An elementwise op on accumulators converted out of one accumulator
/// layout (and splats, and broadcast vectors; on a row or column vector of
/// one, any other vectors, converted in) runs in that layout; the
/// conversion follows it. Each converted operand must have no other use, or its conversion
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
    unsigned accBits = 0;
    for (Value operand : op->getOperands()) {
      if (Attribute encoding = accumulatorSource(operand)) {
        // A vector's conversion may stay for other users (it is cheap); a
        // tile's must go with this one.
        if ((source && source != encoding) ||
            (!operand.hasOneUse() && !isa<ttg::SliceEncodingAttr>(encoding)))
          return failure();
        source = encoding;
        accBits = std::max(accBits, cast<RankedTensorType>(operand.getType())
                                        .getElementTypeBitWidth());
      }
    }
    if (!source)
      return failure();
    // Other operands are rebuilt in the layout, or converted in where that
    // moves a vector (the source is a slice of an accumulator layout) or a
    // tile narrower than the accumulator, not one as wide.
    bool vectors = isa<ttg::SliceEncodingAttr>(source);
    for (Value operand : op->getOperands())
      if (!accumulatorSource(operand) && !vectors &&
          isa<RankedTensorType>(operand.getType()) &&
          getRebuild(operand, accBits) == Rebuild::No)
        return failure();
    SmallVector<Value> operands;
    for (Value operand : op->getOperands()) {
      // A scalar operand (arith.select's condition) has no layout.
      if (!isa<RankedTensorType>(operand.getType())) {
        operands.push_back(operand);
        continue;
      }
      if (accumulatorSource(operand)) {
        operands.push_back(
            operand.getDefiningOp<ttg::ConvertLayoutOp>().getSrc());
        continue;
      }
      if (getRebuild(operand, accBits) != Rebuild::No) {
        operands.push_back(
            rebuildInLayout(rewriter, op->getLoc(), operand, source));
        continue;
      }
      operands.push_back(ttg::ConvertLayoutOp::create(
          rewriter, op->getLoc(), withEncoding(operand.getType(), source),
          operand));
    }
    Operation *moved = rewriter.clone(*op);
    moved->setOperands(operands);
    Type resultType = op->getResult(0).getType();
    moved->getResult(0).setType(withEncoding(resultType, source));
    SmallVector<Value> originals;
    for (Value operand : op->getOperands())
      if (isa<RankedTensorType>(operand.getType()) &&
          !accumulatorSource(operand))
        originals.push_back(operand);
    rewriter.replaceOpWithNewOp<ttg::ConvertLayoutOp>(op, resultType,
                                                      moved->getResult(0));
    eraseDeadTrees(rewriter, originals);
    return success();
  }
};

/// A conversion out of an accumulator layout used in its own block and in
/// regions nested there (the flattened persistent loop's accumulator:
/// reset by an arith.select in the body and stored by the epilogue in an
/// scf.if): each nested user gets a conversion of its own, next to it, so
/// that each conversion can sink on its own path; the body's then often
/// leaves the loop, and the epilogue's runs only when the branch does.
struct SplitNestedUses : public OpRewritePattern<ttg::ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ttg::ConvertLayoutOp cvt,
                                PatternRewriter &rewriter) const override {
    if (!isAccumulatorLayout(cvt.getSrc().getType().getEncoding()))
      return failure();
    Block *block = cvt->getBlock();
    // Uses under scf.if only: a copy in a loop would run every iteration.
    auto underIfs = [&](Operation *user) {
      for (Operation *p = user->getParentOp(); p != block->getParentOp();
           p = p->getParentOp())
        if (!isa<scf::IfOp>(p))
          return false;
      return true;
    };
    llvm::MapVector<Block *, SmallVector<OpOperand *>> nested;
    bool local = false;
    for (OpOperand &use : cvt->getUses()) {
      Operation *user = use.getOwner();
      if (user->getBlock() == block)
        local = true;
      else if (block->getParentOp()->isProperAncestor(user) &&
               underIfs(user))
        nested[user->getBlock()].push_back(&use);
    }
    if (nested.empty() || (!local && nested.size() == 1))
      return failure();
    // One copy per block, before its first use there.
    for (auto &[useBlock, uses] : nested) {
      Operation *first = uses.front()->getOwner();
      for (OpOperand *use : uses)
        if (use->getOwner()->isBeforeInBlock(first))
          first = use->getOwner();
      rewriter.setInsertionPoint(first);
      auto copy = ttg::ConvertLayoutOp::create(rewriter, cvt.getLoc(),
                                               cvt.getType(), cvt.getSrc());
      for (OpOperand *use : uses)
        rewriter.modifyOpInPlace(use->getOwner(), [&] { use->set(copy); });
    }
    return success();
  }
};

/// A conversion of an accumulator tile with several users, all in an
/// elementwise cluster (an epilogue that reads the accumulator more than
/// once: gelu's `x * (1 + tanh(k * (x + c * x * x * x)))`): the whole
/// cluster runs in the accumulator layout, its other operands rebuilt there
/// (getRebuild), and only the values leaving the cluster are converted,
/// when they move no more bits per element than the accumulator does (the
/// f16 result of the epilogue, say). Not a pattern: it erases ops after the
/// conversion, which the pattern walk may be about to visit.
LogicalResult sinkThroughElementwiseCluster(ttg::ConvertLayoutOp cvt,
                                            RewriterBase &rewriter) {
  Attribute source = cvt.getSrc().getType().getEncoding();
  if (!isAccumulatorLayout(source) || cvt->hasOneUse() || cvt->use_empty())
    return failure();
  unsigned accBits = cvt.getType().getElementTypeBitWidth();
  Block *block = cvt->getBlock();
  auto isElementwise = [&](Operation *op) {
    return op->getBlock() == block &&
           op->hasTrait<OpTrait::Elementwise>() &&
           op->getNumResults() == 1 && op->getNumRegions() == 0 &&
           isMemoryEffectFree(op) &&
           isa<RankedTensorType>(op->getResult(0).getType());
  };
  // The elementwise ops reached from the conversion through elementwise
  // users; then those with an operand that is neither the conversion, nor
  // the cluster's, nor rebuildable leave it, until none does.
  llvm::SetVector<Operation *> cluster;
  SmallVector<Value> worklist{cvt.getResult()};
  while (!worklist.empty())
    for (Operation *user : worklist.pop_back_val().getUsers())
      if (isElementwise(user) && cluster.insert(user))
        worklist.push_back(user->getResult(0));
  auto inCluster = [&](Value value) {
    Operation *def = value.getDefiningOp();
    return def && cluster.contains(def);
  };
  for (bool pruned = true; pruned;) {
    pruned = false;
    for (Operation *op : SmallVector<Operation *>(cluster.getArrayRef()))
      if (llvm::any_of(op->getOperands(), [&](Value operand) {
            return operand != cvt.getResult() && !inCluster(operand) &&
                   (!isa<RankedTensorType>(operand.getType()) ||
                    getRebuild(operand, accBits) == Rebuild::No);
          })) {
        cluster.remove(op);
        pruned = true;
      }
  }
  if (!llvm::all_of(cvt->getUsers(),
                    [&](Operation *user) { return cluster.contains(user); }))
    return failure();
  SmallVector<Value> exits;
  unsigned exitBits = 0;
  for (Operation *op : cluster) {
    Value result = op->getResult(0);
    if (llvm::any_of(result.getUsers(), [&](Operation *user) {
          return !cluster.contains(user);
        })) {
      exits.push_back(result);
      exitBits +=
          cast<RankedTensorType>(result.getType()).getElementTypeBitWidth();
    }
  }
  if (exits.empty() || exitBits > accBits)
    return failure();

  SmallVector<Operation *> ordered(cluster.begin(), cluster.end());
  llvm::sort(ordered, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });
  IRMapping mapping;
  mapping.map(cvt.getResult(), cvt.getSrc());
  SmallVector<Value> rebuiltOriginals;
  for (Operation *op : ordered) {
    rewriter.setInsertionPoint(op);
    SmallVector<Value> operands;
    for (Value operand : op->getOperands()) {
      if (Value mapped = mapping.lookupOrNull(operand)) {
        operands.push_back(mapped);
        continue;
      }
      operands.push_back(
          rebuildInLayout(rewriter, op->getLoc(), operand, source));
      rebuiltOriginals.push_back(operand);
    }
    Operation *moved = rewriter.clone(*op);
    moved->setOperands(operands);
    moved->getResult(0).setType(
        withEncoding(op->getResult(0).getType(), source));
    mapping.map(op->getResult(0), moved->getResult(0));
  }
  for (Value exit : exits) {
    Value moved = mapping.lookup(exit);
    rewriter.setInsertionPointAfterValue(moved);
    Value back = ttg::ConvertLayoutOp::create(rewriter, exit.getLoc(),
                                              exit.getType(), moved);
    rewriter.replaceUsesWithIf(exit, back, [&](OpOperand &use) {
      return !cluster.contains(use.getOwner());
    });
  }
  for (Operation *op : llvm::reverse(ordered))
    rewriter.eraseOp(op);
  rewriter.eraseOp(cvt);
  eraseDeadTrees(rewriter, rebuiltOriginals);
  return success();
}

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

/// A tt.reduce of accumulators converted out of one accumulator layout
/// reduces them in that layout; its
/// results, in the slice of that layout, are converted to the old types.
struct SinkThroughReduce : public OpRewritePattern<triton::ReduceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(triton::ReduceOp reduce,
                                PatternRewriter &rewriter) const override {
    Attribute source;
    // The conversion may have other users: the reduce reads the registers
    // either way, and the other users keep the conversion (or sink it too).
    for (Value operand : reduce.getSrcs()) {
      Attribute encoding = accumulatorSource(operand);
      if (!isAccumulatorLayout(encoding) || (source && source != encoding))
        return failure();
      source = encoding;
    }
    if (!source || llvm::any_of(reduce.getResultTypes(), [](Type t) {
          return !isa<RankedTensorType>(t);
        }))
      return failure();
    auto slice = ttg::SliceEncodingAttr::get(
        rewriter.getContext(), reduce.getAxis(),
        cast<ttg::DistributedEncodingTrait>(source));
    Operation *moved = rewriter.clone(*reduce);
    for (OpOperand &operand : moved->getOpOperands())
      operand.set(operand.get().getDefiningOp<ttg::ConvertLayoutOp>().getSrc());
    SmallVector<Value> results;
    for (OpResult result : moved->getResults()) {
      Type oldType = result.getType();
      result.setType(withEncoding(oldType, slice));
      results.push_back(ttg::ConvertLayoutOp::create(
          rewriter, reduce.getLoc(), oldType, result));
    }
    rewriter.replaceOp(reduce, results);
    return success();
  }
};

/// Carries in the accumulator layout each iter_arg of `loop` whose yielded
/// value is converted out of one (and used only by the yield, unless it is
/// a vector): the init is converted in before the loop, the body's uses and
/// the loop's result get a conversion out. Returns whether anything changed.
bool carryInAccumulatorLayout(scf::ForOp loop) {
  bool changed = false;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (unsigned k = 0, e = loop.getNumRegionIterArgs(); k < e; ++k) {
    Value yielded = yield.getOperand(k);
    Attribute source = accumulatorSource(yielded);
    if (!source ||
        (!yielded.hasOneUse() && !isa<ttg::SliceEncodingAttr>(source)))
      continue;
    auto cvt = yielded.getDefiningOp<ttg::ConvertLayoutOp>();
    Type plainType = yielded.getType();
    Type accType = cvt.getSrc().getType();
    OpBuilder b(loop);
    Value init = ttg::ConvertLayoutOp::create(b, loop.getLoc(), accType,
                                              loop.getInitArgs()[k]);
    loop.getInitArgsMutable()[k].assign(init);
    BlockArgument arg = loop.getRegionIterArg(k);
    arg.setType(accType);
    b.setInsertionPointToStart(loop.getBody());
    auto inBody = ttg::ConvertLayoutOp::create(b, loop.getLoc(), plainType, arg);
    arg.replaceAllUsesExcept(inBody.getResult(), inBody);
    yield->setOperand(k, cvt.getSrc());
    if (cvt->use_empty())
      cvt->erase();
    OpResult result = loop->getResult(k);
    result.setType(accType);
    b.setInsertionPointAfter(loop);
    auto after = ttg::ConvertLayoutOp::create(b, loop.getLoc(), plainType, result);
    result.replaceAllUsesExcept(after.getResult(), after);
    changed = true;
  }
  return changed;
}

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
    patterns.add<CollapseConversionChain, ConvertSplatConstant,
                 SinkThroughElementwise, SinkThroughReduce, SplitNestedUses,
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
    bool carried;
    do {
      do {
        tracker.changed = false;
        walkAndApplyPatterns(getOperation(), frozen, &tracker);
      } while (tracker.changed);
      carried = false;
      getOperation().walk(
          [&](scf::ForOp loop) { carried |= carryInAccumulatorLayout(loop); });
      // One cluster per round: a rewrite may erase other conversions.
      IRRewriter rewriter(ctx);
      getOperation().walk([&](ttg::ConvertLayoutOp cvt) {
        if (succeeded(sinkThroughElementwiseCluster(cvt, rewriter))) {
          carried = true;
          return WalkResult::interrupt();
        }
        return WalkResult::advance();
      });
    } while (carried);
    // The conversions out of accumulator layouts the rewrites left without
    // users, or with only users that are dead themselves (the ops the
    // rewrites replaced), would still get scratch from
    // --musa-allocate-shared-memory and barriers around it. Each round
    // erases the chains' ops that have no users left.
    // A set: chains of two conversions may share their dead users.
    llvm::SetVector<Operation *> dead;
    do {
      dead.clear();
      getOperation().walk([&](ttg::ConvertLayoutOp cvt) {
        if (accumulatorSource(cvt.getResult()))
          collectDeadChain(cvt, dead);
      });
      for (Operation *op : llvm::reverse(dead))
        if (op->use_empty())
          op->erase();
    } while (!dead.empty());
  }

  /// Appends `op` and the ops using it (transitively, users first are
  /// later in the list) when none has a memory effect or a region and
  /// nothing else uses their results: a chain that computes nothing.
  static void collectDeadChain(Operation *op,
                               llvm::SetVector<Operation *> &dead) {
    SmallVector<Operation *> chain{op};
    for (unsigned i = 0; i < chain.size(); ++i) {
      Operation *current = chain[i];
      if (current->getNumRegions() != 0 || !isMemoryEffectFree(current) ||
          current->hasTrait<OpTrait::IsTerminator>())
        return;
      for (Operation *user : current->getUsers())
        if (!llvm::is_contained(chain, user))
          chain.push_back(user);
      if (chain.size() > 64)
        return;
    }
    dead.insert(chain.begin(), chain.end());
  }
};

} // namespace
