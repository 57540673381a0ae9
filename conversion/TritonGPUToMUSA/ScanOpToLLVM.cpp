//===- ScanOpToLLVM.cpp - tt.scan -> LLVM --------------------------------===//
//
// An inclusive scan along `axis`, from the layout's linear layout, which
// must place the axis in registers (lowest coordinates), then lanes, then
// warps (as blocked layouts do):
//  1. in each thread, a sequential scan of the registers of one row, in
//     axis order (reversed for `reverse = true`);
//  2. across the lanes along the axis, a Hillis-Steele scan of the thread
//     totals by shuffles up (down when reversed) of 1, 2, 4... positions,
//     each step selected only on lanes at least that far from the start;
//     then each element is combined with the previous lane's total;
//  3. across the warps along the axis, each warp's total goes to a scratch
//     slot, a barrier, and each warp combines the totals of the warps before
//     it in order and applies that prefix to its elements.
// The previous part is always the left operand of the combine region.
//
//===----------------------------------------------------------------------===//

#include "conversion/TritonGPUToMUSA/LayoutIndices.h"
#include "conversion/TritonGPUToMUSA/PatternTritonGPUOpToLLVM.h"
#include "conversion/TritonGPUToMUSA/ReduceScanCommon.h"
#include "conversion/TritonGPUToMUSA/Scratch.h"
#include "conversion/TritonGPUToMUSA/Utility.h"

#include "dialects/Triton/IR/Dialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"

#include <map>

using namespace mlir;
using namespace mlir::triton_musa;
using ::triton_musa::LinearLayout;

namespace {

constexpr const char *kRegister = "register";
constexpr const char *kLane = "lane";
constexpr const char *kWarp = "warp";

/// What the lowering of one tt.scan does, decided from its layout only.
struct ScanPlan {
  LinearLayout layout;
  unsigned axis = 0;
  bool reverse = false;
  /// Non-duplicate registers of one row, in scan order.
  SmallVector<SmallVector<unsigned>> groups;
  /// For each register, the register computed with the same coordinates.
  SmallVector<unsigned> representative;
  /// Lane position along the axis: (lane >> laneShift) % 2^numLaneBits.
  unsigned laneShift = 0;
  unsigned numLaneBits = 0;
  /// Warp position along the axis: XOR of warpCoefficients[i] over the set
  /// bits i of the warp id; numWarpPositions positions.
  SmallVector<int32_t> warpCoefficients;
  unsigned numWarpPositions = 1;
  /// The shape without the axis, and its number of elements (rows).
  SmallVector<int64_t> rowShape;
  uint64_t numRows = 1;
};

FailureOr<ScanPlan> planScan(triton::ScanOp op) {
  ScanPlan plan;
  auto type = cast<RankedTensorType>(op.getSrcs()[0].getType());
  auto emitError = [&] { return op->emitError(); };
  auto layout = getLinearLayout(type, emitError);
  if (failed(layout))
    return failure();
  if (failed(checkScalarElementTypes(op, op.getSrcs().getTypes())))
    return failure();
  plan.layout = *layout;
  plan.axis = op.getAxis();
  plan.reverse = op.getReverse();
  unsigned axis = plan.axis;
  auto unsupported = [&]() {
    return op->emitError()
           << "'tt.scan' along axis " << axis << " of " << type
           << " is not supported by --convert-tritongpu-to-musa yet: the "
              "layout must hold the axis in registers, then lanes (one "
              "contiguous range of lane bits), then warps";
  };

  // Registers: axis bits 1, 2, 4... (any order), the others across.
  int32_t duplicates = getDuplicateRegisterMask(plan.layout);
  SmallVector<AxisSplitBasis> regBases =
      getAxisSplitBases(plan.layout, kRegister, axis);
  int32_t regAxisBits = 0;
  unsigned numRegAxisBits = 0;
  for (auto [i, basis] : llvm::enumerate(regBases)) {
    if (duplicates & (1 << i))
      continue;
    if (basis.axis != 0 && basis.across != 0)
      return unsupported();
    if (basis.axis != 0) {
      regAxisBits |= basis.axis;
      ++numRegAxisBits;
    }
  }
  if (regAxisBits != (1 << numRegAxisBits) - 1)
    return unsupported();
  int32_t next = 1 << numRegAxisBits;

  // Lanes: one contiguous range of lane bits continuing the axis.
  std::optional<unsigned> firstLaneBit;
  for (auto [i, basis] :
       llvm::enumerate(getAxisSplitBases(plan.layout, kLane, axis))) {
    if (basis.axis != 0 && basis.across != 0)
      return unsupported();
    if (basis.axis == 0)
      continue;
    if (!firstLaneBit)
      firstLaneBit = i;
    if (basis.axis != next || i != *firstLaneBit + plan.numLaneBits)
      return unsupported();
    next <<= 1;
    ++plan.numLaneBits;
  }
  plan.laneShift = firstLaneBit.value_or(0);

  // Warps: the next axis bits, in order of warp bits.
  unsigned numWarpBits = 0;
  for (const auto &basis : getAxisSplitBases(plan.layout, kWarp, axis)) {
    if (basis.axis != 0 && basis.across != 0)
      return unsupported();
    if (basis.axis == 0) {
      plan.warpCoefficients.push_back(0);
      continue;
    }
    if (basis.axis != next)
      return unsupported();
    next <<= 1;
    plan.warpCoefficients.push_back(1 << numWarpBits++);
  }
  plan.numWarpPositions = 1u << numWarpBits;
  if (next != type.getShape()[axis])
    return unsupported();

  // Rows of non-duplicate registers, in scan order.
  std::map<uint64_t, unsigned> groupOf;
  std::map<SmallVector<int32_t>, unsigned> registerAt;
  SmallVector<int32_t> axisOf;
  for (unsigned r = 0, e = plan.layout.getInDimSize(kRegister); r < e; ++r) {
    SmallVector<int32_t> c =
        applyLayout(plan.layout, {{kRegister, int32_t(r)}});
    axisOf.push_back(c[axis]);
    auto [at, first] = registerAt.try_emplace(c, r);
    plan.representative.push_back(at->second);
    if (!first)
      continue;
    auto [it, inserted] =
        groupOf.try_emplace(packAcross(plan.layout, c, axis), plan.groups.size());
    if (inserted)
      plan.groups.emplace_back();
    plan.groups[it->second].push_back(r);
  }
  for (auto &group : plan.groups)
    llvm::sort(group, [&](unsigned a, unsigned b) {
      return plan.reverse ? axisOf[a] > axisOf[b] : axisOf[a] < axisOf[b];
    });

  for (auto [d, size] : llvm::enumerate(type.getShape()))
    if (d != axis) {
      plan.rowShape.push_back(size);
      plan.numRows *= size;
    }
  return plan;
}

/// Lowers tt.scan (inclusive, forward or reverse, several operands, any
/// combine region).
struct ScanOpConversion : public ConvertOpToLLVMPattern<triton::ScanOp> {
  ScanOpConversion(const LLVMTypeConverter &converter,
                   const TargetInfo &targetInfo)
      : ConvertOpToLLVMPattern(converter), targetInfo(targetInfo) {}

  LogicalResult
  matchAndRewrite(triton::ScanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<ScanPlan> plan = planScan(op);
    if (failed(plan))
      return failure();
    Location loc = op.getLoc();
    Region &combine = op.getCombineOp();
    unsigned numOperands = op.getSrcs().size();
    SmallVector<Type> elementTypes;
    for (Value src : op.getSrcs())
      elementTypes.push_back(getElementTypeOrSelf(src.getType()));

    SmallVector<SmallVector<Value>> values; // [operand][register]
    for (Value src : adaptor.getSrcs())
      values.push_back(unpackLLElements(rewriter, loc, src));
    unsigned numRegs = plan->representative.size();
    SmallVector<SmallVector<Value>> scanned(numRegs); // [register][operand]
    for (unsigned r = 0; r < numRegs; ++r)
      for (unsigned k = 0; k < numOperands; ++k)
        scanned[r].push_back(values[k][r]);

    auto select = [&](Value cond, ArrayRef<Value> a, ArrayRef<Value> b) {
      SmallVector<Value> v;
      for (auto [x, y] : llvm::zip(a, b))
        v.push_back(LLVM::SelectOp::create(rewriter, loc, cond, x, y));
      return v;
    };

    // Stage 1: in each thread, sequentially along each row.
    SmallVector<SmallVector<Value>> totals; // [group][operand]
    for (const auto &group : plan->groups) {
      for (auto [prev, r] : llvm::zip(group, ArrayRef(group).drop_front()))
        scanned[r] = emitCombine(rewriter, combine, scanned[prev], scanned[r]);
      totals.push_back(scanned[group.back()]);
    }

    auto [lane, warp] = emitLaneAndWarpId(rewriter, loc, targetInfo);
    ShuffleKind fromEarlier =
        plan->reverse ? ShuffleKind::Down : ShuffleKind::Up;

    // Stage 2: Hillis-Steele over the lanes along the axis.
    if (plan->numLaneBits > 0) {
      unsigned n = 1u << plan->numLaneBits;
      Value shifted = lane;
      if (plan->laneShift != 0)
        shifted = LLVM::LShrOp::create(rewriter, loc, lane,
                                       i32Const(rewriter, loc, plan->laneShift));
      Value position = LLVM::AndOp::create(rewriter, loc, shifted,
                                           i32Const(rewriter, loc, n - 1));
      if (plan->reverse)
        position = LLVM::XOrOp::create(rewriter, loc, position,
                                       i32Const(rewriter, loc, n - 1));
      auto shuffleFromEarlier = [&](ArrayRef<Value> v, unsigned distance) {
        SmallVector<Value> result;
        Value delta = i32Const(rewriter, loc, distance << plan->laneShift);
        for (Value x : v)
          result.push_back(
              targetInfo.shuffle(rewriter, loc, fromEarlier, x, delta));
        return result;
      };
      for (unsigned d = 1; d < n; d <<= 1) {
        Value inRange =
            LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::uge,
                                 position, i32Const(rewriter, loc, d));
        for (auto &total : totals) {
          SmallVector<Value> earlier = shuffleFromEarlier(total, d);
          total = select(inRange, emitCombine(rewriter, combine, earlier, total),
                         total);
        }
      }
      // Elements take the total of the lanes before theirs.
      Value hasEarlier =
          LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ne,
                               position, i32Const(rewriter, loc, 0));
      for (auto [g, group] : llvm::enumerate(plan->groups)) {
        SmallVector<Value> earlier = shuffleFromEarlier(totals[g], 1);
        for (unsigned r : group)
          scanned[r] = select(hasEarlier,
                              emitCombine(rewriter, combine, earlier, scanned[r]),
                              scanned[r]);
      }
      // The warp's total, from its last lane along the axis.
      if (plan->numWarpPositions > 1) {
        int32_t bits = int32_t(n - 1) << plan->laneShift;
        Value lastLane =
            plan->reverse
                ? LLVM::AndOp::create(rewriter, loc, lane,
                                      i32Const(rewriter, loc, ~bits))
                      .getResult()
                : LLVM::OrOp::create(rewriter, loc, lane,
                                     i32Const(rewriter, loc, bits))
                      .getResult();
        for (auto &total : totals)
          for (Value &v : total)
            v = targetInfo.shuffleIdx(rewriter, loc, v, lastLane);
      }
    }

    // Stage 3: warps, through shared memory.
    if (plan->numWarpPositions > 1 &&
        failed(emitAcrossWarps(op, *plan, warp, totals, scanned, elementTypes,
                               rewriter)))
      return failure();

    SmallVector<Value> replacements;
    for (auto [k, result] : llvm::enumerate(op.getResult())) {
      Type structType = getTypeConverter()->convertType(result.getType());
      if (!structType)
        return failure();
      SmallVector<Value> elements;
      for (unsigned r = 0; r < numRegs; ++r)
        elements.push_back(scanned[plan->representative[r]][k]);
      replacements.push_back(
          packLLElements(rewriter, loc, elements, structType));
    }
    rewriter.replaceOp(op, replacements);
    return success();
  }

private:
  LogicalResult emitAcrossWarps(triton::ScanOp op, const ScanPlan &plan,
                                Value warp,
                                ArrayRef<SmallVector<Value>> totals,
                                SmallVector<SmallVector<Value>> &scanned,
                                TypeRange elementTypes,
                                ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    FailureOr<Value> base = getScratchPointer(rewriter, loc, op, targetInfo);
    if (failed(base))
      return failure();
    unsigned numOperands = elementTypes.size();
    unsigned numPositions = plan.numWarpPositions;
    uint64_t count = plan.numRows * numPositions;
    SmallVector<Value> regions;
    for (unsigned k = 0; k < numOperands; ++k)
      regions.push_back(
          getStackedRegion(rewriter, loc, *base, elementTypes, count, k));

    Value position =
        emitLinearFunction(rewriter, loc, warp, plan.warpCoefficients);
    if (plan.reverse)
      position = LLVM::XOrOp::create(rewriter, loc, position,
                                     i32Const(rewriter, loc, numPositions - 1));
    SmallVector<SmallVector<Value>> indices =
        emitIndices(rewriter, loc, targetInfo, plan.layout);
    Value numPositionsValue = i32Const(rewriter, loc, numPositions);
    SmallVector<Value> rowStarts;
    for (auto [g, group] : llvm::enumerate(plan.groups)) {
      SmallVector<Value> coords(indices[group.front()]);
      coords.erase(coords.begin() + plan.axis);
      Value row = linearizeIndex(rewriter, loc, coords, plan.rowShape);
      Value start =
          LLVM::MulOp::create(rewriter, loc, row, numPositionsValue);
      rowStarts.push_back(start);
      Value slot = LLVM::AddOp::create(rewriter, loc, start, position);
      for (unsigned k = 0; k < numOperands; ++k)
        storeShared(rewriter, loc, regions[k], slot, totals[g][k]);
    }
    targetInfo.sharedMemoryBarrier(rewriter, loc);

    Region &combine = op.getCombineOp();
    Value hasEarlier =
        LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ne, position,
                             i32Const(rewriter, loc, 0));
    for (auto [g, group] : llvm::enumerate(plan.groups)) {
      // prefix(q) = totals of warps 0..q in scan order; warp p needs
      // prefix(p - 1).
      SmallVector<Value> prefix, earlier;
      for (unsigned q = 0; q + 1 < numPositions; ++q) {
        Value slot = LLVM::AddOp::create(rewriter, loc, rowStarts[g],
                                         i32Const(rewriter, loc, q));
        SmallVector<Value> total;
        for (unsigned k = 0; k < numOperands; ++k)
          total.push_back(
              loadShared(rewriter, loc, regions[k], slot, elementTypes[k]));
        prefix = q == 0 ? total : emitCombine(rewriter, combine, prefix, total);
        if (q == 0) {
          earlier = prefix;
          continue;
        }
        Value isNext =
            LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                 position, i32Const(rewriter, loc, q + 1));
        for (auto [e, p] : llvm::zip(earlier, prefix))
          e = LLVM::SelectOp::create(rewriter, loc, isNext, p, e);
      }
      for (unsigned r : group) {
        SmallVector<Value> applied =
            emitCombine(rewriter, combine, earlier, scanned[r]);
        for (auto [s, a] : llvm::zip(scanned[r], applied))
          s = LLVM::SelectOp::create(rewriter, loc, hasEarlier, a, s);
      }
    }
    return success();
  }

  const TargetInfo &targetInfo;
};

} // namespace

FailureOr<unsigned>
mlir::triton_musa::getScanScratchBytes(Operation *op,
                                       const TargetInfo &targetInfo) {
  auto scan = dyn_cast<triton::ScanOp>(op);
  if (!scan)
    return 0u;
  FailureOr<ScanPlan> plan = planScan(scan);
  if (failed(plan))
    return failure();
  if (plan->numWarpPositions == 1)
    return 0u;
  SmallVector<Type> elementTypes;
  for (Value src : scan.getSrcs())
    elementTypes.push_back(getElementTypeOrSelf(src.getType()));
  return getStackedRegionBytes(elementTypes,
                               plan->numRows * plan->numWarpPositions);
}

void mlir::triton_musa::populateScanOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo) {
  patterns.add<ScanOpConversion>(typeConverter, targetInfo);
}
