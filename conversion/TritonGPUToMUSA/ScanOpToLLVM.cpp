//===- ScanOpToLLVM.cpp - tt.scan -> LLVM --------------------------------===//
//
// An inclusive scan along `axis`, from the layout's linear layout, which
// must place the axis bits, lowest first, in registers, then lanes (one
// contiguous range of lane bits), then warps, then again registers (the
// "chunks" a layout smaller than the tensor repeats in registers):
//  1. in each thread, a sequential scan of the registers of one row and
//     chunk, in axis order (reversed for `reverse = true`);
//  2. across the lanes along the axis, a Hillis-Steele scan of the thread
//     totals by shuffles up (down when reversed) of 1, 2, 4... positions,
//     each step selected only on lanes at least that far from the start;
//     then each element is combined with the previous lane's total;
//  3. across the warps along the axis, each warp's total (from its last
//     lane) goes to a scratch slot, written by its first lane along the
//     axis only (not by copies), a barrier, and each warp combines the
//     totals of the warps before it in order and applies that prefix;
//  4. chunks after the first take the totals of the chunks before them.
// The earlier part is always the left operand of the combine region.
//
//===----------------------------------------------------------------------===//

#include "conversion/TritonGPUToMUSA/LayoutIndices.h"
#include "conversion/TritonGPUToMUSA/PatternTritonGPUOpToLLVM.h"
#include "conversion/TritonGPUToMUSA/PredicatedRegion.h"
#include "conversion/TritonGPUToMUSA/ReduceScanCommon.h"
#include "target/Scratch.h"
#include "conversion/TritonGPUToMUSA/Utility.h"

#include "dialects/Triton/IR/Dialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"

#include <map>

using namespace mlir;
using namespace mlir::triton_musa;
using mlir::triton_musa::LinearLayout;

namespace {


/// Registers of one row and one chunk, in scan order.
struct Segment {
  unsigned chunk = 0;
  SmallVector<unsigned> registers;
};

/// What the lowering of one tt.scan does, decided from its layout only.
struct ScanPlan {
  LinearLayout layout;
  unsigned axis = 0;
  bool reverse = false;
  /// Non-duplicate registers, by segment.
  SmallVector<Segment> segments;
  /// The segments of each row, in scan order of their chunks.
  SmallVector<SmallVector<unsigned>> rows;
  unsigned numChunks = 1;
  /// For each register, the register computed with the same coordinates.
  SmallVector<unsigned> representative;
  /// Lane position along the axis: (lane >> laneShift) % 2^numLaneBits.
  unsigned laneShift = 0;
  unsigned numLaneBits = 0;
  /// Warp position along the axis: XOR of warpCoefficients[i] over the set
  /// bits i of the warp id; numWarpPositions positions.
  SmallVector<int32_t> warpCoefficients;
  unsigned numWarpPositions = 1;
  /// The shape without the axis, and its number of elements.
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
              "contiguous range of lane bits), then warps, then registers";
  };

  // Register axis bits (duplicates skipped); the others must stay in a row.
  int32_t duplicates = getDuplicateRegisterMask(plan.layout);
  int32_t regAxisBits = 0;
  for (auto [i, basis] :
       llvm::enumerate(getAxisSplitBases(plan.layout, kRegister, axis))) {
    if (duplicates & (1 << i))
      continue;
    if (basis.axis != 0 && basis.across != 0)
      return unsupported();
    if (basis.axis != 0) {
      if (!llvm::isPowerOf2_32(basis.axis) || (regAxisBits & basis.axis))
        return unsupported();
      regAxisBits |= basis.axis;
    }
  }
  // Low register bits: 1, 2, 4... as far as they go.
  int32_t next = 1;
  while (regAxisBits & next)
    next <<= 1;
  int32_t chunkUnit = 0; // Axis coordinate of the first chunk bit.

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

  // High register bits (chunks): the rest of the axis.
  chunkUnit = next;
  while (regAxisBits & next)
    next <<= 1;
  if ((regAxisBits & ~(next - 1)) != 0 || next != type.getShape()[axis])
    return unsupported();
  plan.numChunks = unsigned(next / chunkUnit);

  // Segments of non-duplicate registers, in scan order.
  std::map<std::pair<uint64_t, unsigned>, unsigned> segmentOf;
  std::map<uint64_t, unsigned> rowOf;
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
    uint64_t across = packAcross(plan.layout, c, axis);
    unsigned chunk = unsigned(c[axis] / chunkUnit);
    auto [row, newRow] = rowOf.try_emplace(across, plan.rows.size());
    if (newRow)
      plan.rows.emplace_back();
    auto [it, inserted] =
        segmentOf.try_emplace({across, chunk}, plan.segments.size());
    if (inserted) {
      plan.segments.push_back({chunk, {}});
      plan.rows[row->second].push_back(it->second);
    }
    plan.segments[it->second].registers.push_back(r);
  }
  for (auto &segment : plan.segments)
    llvm::sort(segment.registers, [&](unsigned a, unsigned b) {
      return plan.reverse ? axisOf[a] > axisOf[b] : axisOf[a] < axisOf[b];
    });
  for (auto &row : plan.rows)
    llvm::sort(row, [&](unsigned a, unsigned b) {
      unsigned ca = plan.segments[a].chunk, cb = plan.segments[b].chunk;
      return plan.reverse ? ca > cb : ca < cb;
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
struct ScanOpConversion : public MUSAPattern<triton::ScanOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(triton::ScanOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    FailureOr<ScanPlan> plan = planScan(op);
    if (failed(plan))
      return failure();
    Location loc = op.getLoc();
    Region &combine = op.getCombineOp();
    SmallVector<Type> elementTypes = getElementTypes(op.getSrcs());
    // [register][operand]
    SmallVector<SmallVector<Value>> scanned =
        unpackByRegister(rewriter, loc, adaptor.getSrcs());

    auto select = [&](Value cond, ArrayRef<Value> a, ArrayRef<Value> b) {
      SmallVector<Value> v;
      for (auto [x, y] : llvm::zip(a, b))
        v.push_back(LLVM::SelectOp::create(rewriter, loc, cond, x, y));
      return v;
    };

    // Stage 1: in each thread, sequentially along each segment.
    SmallVector<SmallVector<Value>> totals; // [segment][operand]
    for (const Segment &segment : plan->segments) {
      ArrayRef<unsigned> regs = segment.registers;
      for (auto [prev, r] : llvm::zip(regs, regs.drop_front()))
        scanned[r] = emitCombine(rewriter, combine, scanned[prev], scanned[r]);
      totals.push_back(scanned[regs.back()]);
    }

    Value lane, warp;
    if (plan->numLaneBits > 0 || plan->numWarpPositions > 1)
      std::tie(lane, warp) = emitLaneAndWarpId(rewriter, loc, targetInfo);
    ShuffleKind fromEarlier =
        plan->reverse ? ShuffleKind::Down : ShuffleKind::Up;
    bool needBlockTotals = plan->numChunks > 1;

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
      for (auto [s, segment] : llvm::enumerate(plan->segments)) {
        SmallVector<Value> earlier = shuffleFromEarlier(totals[s], 1);
        for (unsigned r : segment.registers)
          scanned[r] = select(hasEarlier,
                              emitCombine(rewriter, combine, earlier, scanned[r]),
                              scanned[r]);
      }
      // The warp's total, from its last lane along the axis.
      if (plan->numWarpPositions > 1 || needBlockTotals) {
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

    // Stage 3: warps, through shared memory; `totals` become the totals of
    // whole segments (all lanes and warps).
    if (plan->numWarpPositions > 1 &&
        failed(emitAcrossWarps(op, *plan, warp, totals, scanned, elementTypes,
                               rewriter)))
      return failure();

    // Stage 4: chunks after the first of a row, in scan order.
    if (needBlockTotals) {
      for (const auto &row : plan->rows) {
        SmallVector<Value> running = totals[row.front()];
        for (unsigned s : ArrayRef<unsigned>(row).drop_front()) {
          for (unsigned r : plan->segments[s].registers)
            scanned[r] = emitCombine(rewriter, combine, running, scanned[r]);
          if (s != row.back())
            running = emitCombine(rewriter, combine, running, totals[s]);
        }
      }
    }

    SmallVector<Value> replacements;
    for (auto [k, result] : llvm::enumerate(op.getResult())) {
      Type structType = getTypeConverter()->convertType(result.getType());
      if (!structType)
        return failure();
      SmallVector<Value> elements;
      for (unsigned representative : plan->representative)
        elements.push_back(scanned[representative][k]);
      replacements.push_back(
          packLLElements(rewriter, loc, elements, structType));
    }
    rewriter.replaceOp(op, replacements);
    return success();
  }

private:
  /// Stage 3: each warp's segment totals to slot
  /// (row * numChunks + chunk) * numWarpPositions + warp position, barrier,
  /// the earlier warps' totals applied to the elements; `totals` becomes
  /// the totals of all warps.
  LogicalResult emitAcrossWarps(triton::ScanOp op, const ScanPlan &plan,
                                Value warp,
                                SmallVector<SmallVector<Value>> &totals,
                                SmallVector<SmallVector<Value>> &scanned,
                                TypeRange elementTypes,
                                ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    unsigned numOperands = elementTypes.size();
    unsigned numPositions = plan.numWarpPositions;
    FailureOr<SmallVector<Value>> scratch = getStackedScratchRegions(
        rewriter, loc, op, targetInfo, elementTypes,
        plan.numRows * plan.numChunks * numPositions);
    if (failed(scratch))
      return failure();
    ArrayRef<Value> regions = *scratch;

    Value position =
        emitLinearFunction(rewriter, loc, warp, plan.warpCoefficients);
    if (plan.reverse)
      position = LLVM::XOrOp::create(rewriter, loc, position,
                                     i32Const(rewriter, loc, numPositions - 1));
    SmallVector<SmallVector<Value>> indices;
    if (!plan.rowShape.empty())
      indices = emitIndices(rewriter, loc, targetInfo, plan.layout);
    SmallVector<Value> segmentStarts, slots;
    for (auto [s, segment] : llvm::enumerate(plan.segments)) {
      Value row = i32Const(rewriter, loc, 0);
      if (!plan.rowShape.empty()) {
        SmallVector<Value> coords(indices[segment.registers.front()]);
        coords.erase(coords.begin() + plan.axis);
        row = linearizeIndex(rewriter, loc, coords, plan.rowShape);
      }
      Value start = row;
      if (plan.numChunks > 1)
        start = LLVM::AddOp::create(
            rewriter, loc,
            LLVM::MulOp::create(rewriter, loc, row,
                                i32Const(rewriter, loc, plan.numChunks)),
            i32Const(rewriter, loc, segment.chunk));
      start = LLVM::MulOp::create(rewriter, loc, start,
                                  i32Const(rewriter, loc, numPositions));
      segmentStarts.push_back(start);
      slots.push_back(LLVM::AddOp::create(rewriter, loc, start, position));
    }
    // Every lane along the axis holds the warp's total, as does every copy
    // of a lane or warp: one of them writes it.
    auto emitStores = [&]() -> Value {
      for (auto [s, slot] : llvm::enumerate(slots))
        for (unsigned k = 0; k < numOperands; ++k)
          storeShared(rewriter, loc, regions[k], slot, totals[s][k]);
      return Value();
    };
    Value writer = emitOwnerPredicate(rewriter, loc, targetInfo, plan.layout);
    if (plan.numLaneBits > 0) {
      Value lane = emitLaneAndWarpId(rewriter, loc, targetInfo).first;
      int32_t axisBits = int32_t((1u << plan.numLaneBits) - 1)
                         << plan.laneShift;
      Value first = LLVM::ICmpOp::create(
          rewriter, loc, LLVM::ICmpPredicate::eq,
          LLVM::AndOp::create(rewriter, loc, lane,
                              i32Const(rewriter, loc, axisBits)),
          i32Const(rewriter, loc, 0));
      writer = andPredicates(rewriter, loc, writer, first);
    }
    emitIfThen(rewriter, loc, writer, emitStores, Value());
    targetInfo.sharedMemoryBarrier(rewriter, loc);

    Region &combine = op.getCombineOp();
    Value hasEarlier =
        LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ne, position,
                             i32Const(rewriter, loc, 0));
    // The last warp's total only matters for the chunks after this one.
    unsigned numLoads =
        plan.numChunks > 1 ? numPositions : numPositions - 1;
    for (auto [s, segment] : llvm::enumerate(plan.segments)) {
      // prefix(q) = totals of warps 0..q in scan order; warp p needs
      // prefix(p - 1).
      SmallVector<Value> prefix, earlier;
      for (unsigned q = 0; q < numLoads; ++q) {
        Value slot = LLVM::AddOp::create(rewriter, loc, segmentStarts[s],
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
        if (q + 1 == numPositions)
          continue;
        Value isNext =
            LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                 position, i32Const(rewriter, loc, q + 1));
        for (auto [e, p] : llvm::zip(earlier, prefix))
          e = LLVM::SelectOp::create(rewriter, loc, isNext, p, e);
      }
      for (unsigned r : segment.registers) {
        SmallVector<Value> applied =
            emitCombine(rewriter, combine, earlier, scanned[r]);
        for (auto [v, a] : llvm::zip(scanned[r], applied))
          v = LLVM::SelectOp::create(rewriter, loc, hasEarlier, a, v);
      }
      totals[s] = prefix;
    }
    return success();
  }
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
  return getStackedRegionBytes(getElementTypes(scan.getSrcs()), plan->numRows * plan->numChunks *
                                                 plan->numWarpPositions);
}

void mlir::triton_musa::populateScanOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo) {
  patterns.add<ScanOpConversion>(typeConverter, targetInfo);
}
