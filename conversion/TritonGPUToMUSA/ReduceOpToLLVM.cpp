//===- ReduceOpToLLVM.cpp - tt.reduce -> LLVM ----------------------------===//
//
// tt.reduce is lowered from the source's linear layout L in three stages:
//  1. in each thread, the registers that hold one output element (same
//     coordinates across the axis; duplicate registers skipped) are combined
//     in register order;
//  2. across lanes, by a butterfly of xor shuffles over the lane vectors that
//     only move along the axis (a basis of the lanes holding the same output
//     element, less the lanes that hold copies), largest first;
//  3. across warps, when warps hold different parts of one output element:
//     each warp writes its partial to slot (output index, warp slot) of a
//     scratch buffer, a barrier, then every thread that holds an output
//     element in the result layout reads and combines its slots in order.
//     After stage 2 every lane of a group holding one output element (and
//     every warp holding a copy) has the same partial: one of them writes
//     it, so no two threads store to one slot between two barriers.
//     The same shared-memory path produces the result when the result
//     layout does not hold the output elements where stage 2 left them.
// The combine region is cloned on the converted scalars for each combine.
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


/// What the lowering of one tt.reduce does, decided from its layouts only
/// (so the scratch size and the lowering agree).
struct ReducePlan {
  LinearLayout src;
  unsigned axis = 0;
  /// Non-duplicate registers holding one output element, in register order.
  SmallVector<SmallVector<unsigned>> groups;
  /// Lane xor masks of the butterfly, in shuffle order.
  SmallVector<int32_t> laneMasks;
  /// Slot of a warp's partial: XOR of slotCoefficients[i] over the set
  /// bits i of the warp id; numSlots slots per output element.
  SmallVector<int32_t> slotCoefficients;
  unsigned numSlots = 1;
  /// Stage 3 writers: lanes and warps with these id bits clear (one per
  /// group of lanes holding one output element, one per group of warps
  /// holding copies).
  int32_t writerLaneMask = 0;
  int32_t writerWarpMask = 0;
  /// Results go through shared memory.
  bool throughShared = false;
  /// For the register path, the group of each result register.
  SmallVector<unsigned> resultGroups;
  /// Output elements (product of the result shape; 1 for a scalar).
  uint64_t numOutputs = 1;
  SmallVector<int64_t> outShape;
};

/// Packed images of every bit of input dimension `inDim`: across the axis
/// only, or of all coordinates.
SmallVector<uint64_t> getImages(const LinearLayout &layout, StringRef inDim,
                                unsigned axis, bool acrossOnly) {
  SmallVector<uint64_t> images;
  unsigned rank = layout.getNumOutDims();
  for (unsigned i = 0, e = layout.getInDimSizeLog2(inDim); i < e; ++i) {
    SmallVector<int32_t> c =
        applyLayout(layout, {{inDim.str(), int32_t(1) << i}});
    images.push_back(packAcross(layout, c, acrossOnly ? axis : rank));
  }
  return images;
}

/// The lane or warp vectors that combine distinct parts of one output
/// element: a basis of those holding the same output element, less those
/// holding copies.
SmallVector<uint64_t> getCombineVectors(const LinearLayout &layout,
                                        StringRef inDim, unsigned axis) {
  SmallVector<uint64_t> copies =
      getKernelBasis(getImages(layout, inDim, axis, /*acrossOnly=*/false));
  SmallVector<uint64_t> sameOutput =
      getKernelBasis(getImages(layout, inDim, axis, /*acrossOnly=*/true));
  return extendBasis(copies, sameOutput);
}

FailureOr<ReducePlan> planReduce(triton::ReduceOp op) {
  ReducePlan plan;
  auto srcType = cast<RankedTensorType>(op.getSrcs()[0].getType());
  auto emitError = [&] { return op->emitError(); };
  auto src = getLinearLayout(srcType, emitError);
  if (failed(src))
    return failure();
  if (failed(checkScalarElementTypes(op, op.getSrcs().getTypes())))
    return failure();
  plan.src = *src;
  plan.axis = op.getAxis();
  unsigned axis = plan.axis;
  const LinearLayout &layout = plan.src;

  // One output element's parts must be found by moving registers, lanes
  // and warps independently.
  SmallVector<uint64_t> regImages = getImages(layout, kRegister, axis, true);
  SmallVector<uint64_t> laneImages = getImages(layout, kLane, axis, true);
  SmallVector<uint64_t> warpImages = getImages(layout, kWarp, axis, true);
  SmallVector<uint64_t> all(regImages);
  llvm::append_range(all, laneImages);
  llvm::append_range(all, warpImages);
  if (getKernelBasis(all).size() != getKernelBasis(regImages).size() +
                                        getKernelBasis(laneImages).size() +
                                        getKernelBasis(warpImages).size())
    return op->emitError()
           << "'tt.reduce' along axis " << axis << " of " << srcType
           << ", whose layout mixes registers, lanes and warps across the "
              "axis, is not supported by --convert-tritongpu-to-musa yet";

  // Stage 1: registers by output element, duplicates skipped.
  int32_t duplicates = getDuplicateRegisterMask(layout);
  std::map<uint64_t, unsigned> groupOf;
  for (unsigned r = 0, e = layout.getInDimSize(kRegister); r < e; ++r) {
    if (r & duplicates)
      continue;
    uint64_t key = packAcross(
        layout, applyLayout(layout, {{kRegister, int32_t(r)}}), axis);
    auto [it, inserted] = groupOf.try_emplace(key, plan.groups.size());
    if (inserted)
      plan.groups.emplace_back();
    plan.groups[it->second].push_back(r);
  }

  // Stage 2: lane butterfly, largest mask first.
  for (uint64_t v : getCombineVectors(layout, kLane, axis))
    plan.laneMasks.push_back(int32_t(v));
  llvm::sort(plan.laneMasks, std::greater<int32_t>());

  // Stage 3: slots of the warps holding parts of one output element. The
  // slot is the warp id's coordinates on those vectors, in a basis of the
  // warp ids that starts with the warps holding copies.
  SmallVector<uint64_t> warpCopies =
      getKernelBasis(getImages(layout, kWarp, axis, false));
  SmallVector<uint64_t> warpParts = getCombineVectors(layout, kWarp, axis);
  unsigned numWarpBits = layout.getInDimSizeLog2(kWarp);
  plan.numSlots = 1u << warpParts.size();
  plan.writerLaneMask = int32_t(getCosetPivotMask(
      getKernelBasis(getImages(layout, kLane, axis, /*acrossOnly=*/true))));
  plan.writerWarpMask = int32_t(getCosetPivotMask(warpCopies));
  plan.slotCoefficients.assign(numWarpBits, 0);
  if (!warpParts.empty()) {
    SmallVector<uint64_t> basis = extendBasis({}, warpCopies);
    unsigned numCopies = basis.size();
    llvm::append_range(basis, warpParts);
    SmallVector<uint64_t> units;
    for (unsigned i = 0; i < numWarpBits; ++i)
      units.push_back(uint64_t(1) << i);
    llvm::append_range(basis, extendBasis(basis, units));
    // Coordinates of each unit vector in `basis` (a handful of bits).
    for (uint64_t m = 0, e = uint64_t(1) << basis.size(); m < e; ++m) {
      uint64_t v = 0;
      for (unsigned j = 0; j < basis.size(); ++j)
        if (m & (uint64_t(1) << j))
          v ^= basis[j];
      if (llvm::isPowerOf2_64(v))
        plan.slotCoefficients[llvm::Log2_64(v)] =
            int32_t((m >> numCopies) & (plan.numSlots - 1));
    }
  }

  Type resultType = op.getResult()[0].getType();
  auto resultTensor = dyn_cast<RankedTensorType>(resultType);
  if (resultTensor)
    plan.outShape.assign(resultTensor.getShape().begin(),
                         resultTensor.getShape().end());
  for (int64_t size : plan.outShape)
    plan.numOutputs *= size;
  if (plan.numSlots > 1) {
    plan.throughShared = true;
    return plan;
  }
  if (!resultTensor) {
    // A scalar: the one output element, in every thread after stage 2.
    if (plan.groups.size() != 1)
      return op->emitError() << "'tt.reduce' to a scalar from " << srcType
                             << " has more than one output element";
    return plan;
  }

  // The result layout must hold each output element where stage 2 left it;
  // otherwise the results go through shared memory.
  auto result = getLinearLayout(resultTensor, emitError);
  if (failed(result))
    return failure();
  auto toSource = [&](ArrayRef<int32_t> coords) {
    SmallVector<int32_t> c(coords);
    c.insert(c.begin() + axis, 0);
    return packAcross(layout, c, axis);
  };
  bool sameThreads = true;
  for (auto [inDim, srcImages] :
       {std::pair<StringRef, ArrayRef<uint64_t>>{kLane, laneImages},
        std::pair<StringRef, ArrayRef<uint64_t>>{kWarp, warpImages}}) {
    unsigned bits = result->getInDimSizeLog2(inDim);
    if (bits != srcImages.size()) {
      sameThreads = false;
      break;
    }
    for (unsigned i = 0; i < bits; ++i)
      if (toSource(applyLayout(*result, {{inDim.str(), int32_t(1) << i}})) !=
          srcImages[i])
        sameThreads = false;
  }
  for (unsigned r = 0, e = result->getInDimSize(kRegister);
       sameThreads && r < e; ++r) {
    auto it =
        groupOf.find(toSource(applyLayout(*result, {{kRegister, int32_t(r)}})));
    if (it == groupOf.end())
      sameThreads = false;
    else
      plan.resultGroups.push_back(it->second);
  }
  if (!sameThreads) {
    plan.resultGroups.clear();
    plan.throughShared = true;
  }
  return plan;
}

/// Lowers tt.reduce (any axis, any combine region, several operands, scalar
/// or sliced tensor results).
struct ReduceOpConversion : public MUSAPattern<triton::ReduceOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(triton::ReduceOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    FailureOr<ReducePlan> plan = planReduce(op);
    if (failed(plan))
      return failure();
    Location loc = op.getLoc();
    Region &combine = op.getCombineOp();
    unsigned numOperands = op.getSrcs().size();
    SmallVector<Type> elementTypes = getElementTypes(op.getSrcs());
    // [register][operand]
    SmallVector<SmallVector<Value>> registerValues =
        unpackByRegister(rewriter, loc, adaptor.getSrcs());

    // Stage 1: in-thread, register order.
    SmallVector<SmallVector<Value>> acc; // [group][operand]
    for (const auto &group : plan->groups) {
      SmallVector<Value> a = registerValues[group.front()];
      for (unsigned r : ArrayRef<unsigned>(group).drop_front())
        a = emitCombine(rewriter, combine, a, registerValues[r]);
      acc.push_back(a);
    }

    // Stage 2: lane butterfly.
    for (int32_t mask : plan->laneMasks)
      for (auto &a : acc) {
        SmallVector<Value> other;
        for (Value v : a)
          other.push_back(targetInfo.shuffleXor(rewriter, loc, v, mask));
        a = emitCombine(rewriter, combine, a, other);
      }

    SmallVector<SmallVector<Value>> results(numOperands); // [operand][reg]
    if (!plan->throughShared) {
      if (plan->resultGroups.empty()) {
        for (unsigned k = 0; k < numOperands; ++k)
          results[k].push_back(acc[0][k]);
      } else {
        for (unsigned g : plan->resultGroups)
          for (unsigned k = 0; k < numOperands; ++k)
            results[k].push_back(acc[g][k]);
      }
    } else if (failed(emitThroughShared(op, *plan, acc, elementTypes, results,
                                        rewriter))) {
      return failure();
    }

    SmallVector<Value> replacements;
    for (auto [k, result] : llvm::enumerate(op.getResult())) {
      if (!isa<RankedTensorType>(result.getType())) {
        replacements.push_back(results[k].front());
        continue;
      }
      Type structType = getTypeConverter()->convertType(result.getType());
      if (!structType)
        return failure();
      replacements.push_back(
          packLLElements(rewriter, loc, results[k], structType));
    }
    rewriter.replaceOp(op, replacements);
    return success();
  }

private:
  /// Stage 3: partials to shared memory, barrier, results from it.
  LogicalResult
  emitThroughShared(triton::ReduceOp op, const ReducePlan &plan,
                    ArrayRef<SmallVector<Value>> acc, TypeRange elementTypes,
                    SmallVector<SmallVector<Value>> &results,
                    ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    unsigned numOperands = elementTypes.size();
    FailureOr<SmallVector<Value>> scratch =
        getStackedScratchRegions(rewriter, loc, op, targetInfo, elementTypes,
                                 plan.numOutputs * plan.numSlots);
    if (failed(scratch))
      return failure();
    ArrayRef<Value> regions = *scratch;

    auto [lane, warp] = emitLaneAndWarpId(rewriter, loc, targetInfo);
    Value slot = emitLinearFunction(rewriter, loc, warp, plan.slotCoefficients);
    // A scalar has one output element, at index 0.
    SmallVector<SmallVector<Value>> srcIndices;
    if (!plan.outShape.empty())
      srcIndices = emitIndices(rewriter, loc, targetInfo, plan.src);
    Value numSlots = i32Const(rewriter, loc, plan.numSlots);
    SmallVector<Value> stores; // slot of each group
    for (auto [g, group] : llvm::enumerate(plan.groups)) {
      Value index;
      if (plan.outShape.empty()) {
        index = i32Const(rewriter, loc, 0);
      } else {
        SmallVector<Value> coords(srcIndices[group.front()]);
        coords.erase(coords.begin() + plan.axis);
        index = linearizeIndex(rewriter, loc, coords, plan.outShape);
      }
      if (plan.numSlots > 1)
        index = LLVM::AddOp::create(
            rewriter, loc, LLVM::MulOp::create(rewriter, loc, index, numSlots),
            slot);
      stores.push_back(index);
    }
    auto emitStores = [&]() -> Value {
      for (auto [g, index] : llvm::enumerate(stores))
        for (unsigned k = 0; k < numOperands; ++k)
          storeShared(rewriter, loc, regions[k], index, acc[g][k]);
      return Value();
    };
    Value writer = emitIdBitsClearPredicate(
        rewriter, loc, lane, plan.writerLaneMask, warp, plan.writerWarpMask);
    emitIfThen(rewriter, loc, writer, emitStores, Value());
    targetInfo.sharedMemoryBarrier(rewriter, loc);

    Region &combine = op.getCombineOp();
    auto readOutput = [&](Value index) {
      SmallVector<Value> value;
      Value first = index;
      if (plan.numSlots > 1)
        first = LLVM::MulOp::create(rewriter, loc, index, numSlots);
      for (unsigned s = 0; s < plan.numSlots; ++s) {
        Value at = first;
        if (s > 0)
          at = LLVM::AddOp::create(rewriter, loc, first,
                                   i32Const(rewriter, loc, s));
        SmallVector<Value> part;
        for (unsigned k = 0; k < numOperands; ++k)
          part.push_back(loadShared(rewriter, loc, regions[k], at,
                                    elementTypes[k]));
        value = s == 0 ? part : emitCombine(rewriter, combine, value, part);
      }
      return value;
    };

    auto resultTensor =
        dyn_cast<RankedTensorType>(op.getResult()[0].getType());
    if (!resultTensor) {
      SmallVector<Value> value = readOutput(i32Const(rewriter, loc, 0));
      for (unsigned k = 0; k < numOperands; ++k)
        results[k].push_back(value[k]);
      return success();
    }
    auto emitError = [&] { return op->emitError(); };
    auto result = getLinearLayout(resultTensor, emitError);
    if (failed(result))
      return failure();
    SmallVector<SmallVector<Value>> resultIndices =
        emitIndices(rewriter, loc, targetInfo, *result);
    // Registers with the same coordinates read once.
    std::map<SmallVector<int32_t>, SmallVector<Value>> read;
    for (unsigned r = 0, e = result->getInDimSize(kRegister); r < e; ++r) {
      SmallVector<int32_t> key =
          applyLayout(*result, {{kRegister, int32_t(r)}});
      auto it = read.find(key);
      if (it == read.end())
        it = read
                 .try_emplace(key,
                              readOutput(linearizeIndex(rewriter, loc,
                                                        resultIndices[r],
                                                        plan.outShape)))
                 .first;
      for (unsigned k = 0; k < numOperands; ++k)
        results[k].push_back(it->second[k]);
    }
    return success();
  }
};

} // namespace

FailureOr<unsigned>
mlir::triton_musa::getReduceScratchBytes(Operation *op,
                                         const TargetInfo &targetInfo) {
  auto reduce = dyn_cast<triton::ReduceOp>(op);
  if (!reduce)
    return 0u;
  FailureOr<ReducePlan> plan = planReduce(reduce);
  if (failed(plan))
    return failure();
  if (!plan->throughShared)
    return 0u;
  return getStackedRegionBytes(getElementTypes(reduce.getSrcs()),
                               plan->numOutputs * plan->numSlots);
}

void mlir::triton_musa::populateReduceOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo) {
  patterns.add<ReduceOpConversion>(typeConverter, targetInfo);
}
