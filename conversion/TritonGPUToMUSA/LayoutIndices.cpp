//===- LayoutIndices.cpp - Index math from linear layouts ----------------===//

#include "conversion/TritonGPUToMUSA/LayoutIndices.h"
#include "conversion/TritonGPUToMUSA/Utility.h"

#include "target/LLVMCalls.h"
#include "target/TargetInfo.h"

#include "layouts/LayoutConversion.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/Support/MathExtras.h"

#include <map>

using namespace mlir;
using namespace mlir::triton_musa;
using mlir::triton_musa::LinearLayout;

namespace {

const std::vector<LinearLayout::Basis> *findBases(const LinearLayout &layout,
                                                  StringRef name) {
  for (const auto &[dim, bases] : layout.getBases())
    if (dim == name)
      return &bases;
  return nullptr;
}
} // namespace

FailureOr<LinearLayout> mlir::triton_musa::getLinearLayout(
    RankedTensorType type, function_ref<InFlightDiagnostic()> emitError) {
  if (!type.getEncoding())
    return emitError() << "tensor type " << type << " has no layout";
  auto layout = mlir::triton_musa::toLinearLayout(type.getShape(),
                                              type.getEncoding(), emitError);
  if (failed(layout))
    return failure();
  // Shared-memory layouts map kOffset, not threads: no register values.
  if (!layout->hasInDim(kRegister))
    return emitError() << "tensor type " << type
                       << " does not have a distributed layout";
  return layout;
}

SmallVector<int32_t>
mlir::triton_musa::applyLayout(const LinearLayout &layout,
                               ArrayRef<LinearLayout::DimValue> inputs) {
  SmallVector<LinearLayout::DimValue> all;
  for (const auto &[name, size] : layout.getInDims()) {
    int32_t value = 0;
    for (const auto &[inName, inValue] : inputs)
      if (inName == name)
        value = inValue;
    all.push_back({name, value});
  }
  // Callers pass in-range values of the layout's own dimensions.
  auto result = llvm::cantFail(layout.apply(all),
                               "applyLayout: input outside the layout");
  SmallVector<int32_t> coords;
  for (const auto &dv : result)
    coords.push_back(dv.second);
  return coords;
}

std::pair<Value, Value>
mlir::triton_musa::emitLaneAndWarpId(OpBuilder &b, Location loc,
                                     const TargetInfo &target) {
  unsigned warpSize = target.getWarpSize();
  Value tid = target.threadId(b, loc, 0);
  Value lane = LLVM::AndOp::create(b, loc, tid, i32Const(b, loc, warpSize - 1));
  Value warp = LLVM::LShrOp::create(b, loc, tid,
                                    i32Const(b, loc, llvm::Log2_32(warpSize)));
  return {lane, warp};
}

SmallVector<SmallVector<Value>>
mlir::triton_musa::emitIndices(OpBuilder &b, Location loc,
                               const TargetInfo &target,
                               const LinearLayout &layout) {
  unsigned rank = layout.getNumOutDims();
  auto [lane, warp] = emitLaneAndWarpId(b, loc, target);

  // The run-time part L(0, lane, warp, 0), per output dimension, and the
  // bits it may set there.
  SmallVector<Value> dynamic(rank);
  SmallVector<int32_t> dynamicBits(rank, 0);
  // Terms are XORed; where their bits cannot overlap (always, for blocked
  // layouts) `or` says the same and folds better into addresses.
  auto accumulate = [&](unsigned d, Value v, int32_t bits) {
    if (!dynamic[d])
      dynamic[d] = v;
    else if (dynamicBits[d] & bits)
      dynamic[d] = LLVM::XOrOp::create(b, loc, dynamic[d], v);
    else
      dynamic[d] = LLVM::OrOp::create(b, loc, dynamic[d], v);
    dynamicBits[d] |= bits;
  };
  for (auto [name, id] : {std::pair<StringRef, Value>{kLane, lane},
                          std::pair<StringRef, Value>{kWarp, warp}}) {
    const auto *bases = findBases(layout, name);
    if (!bases)
      continue;
    unsigned numBits = bases->size();
    for (unsigned d = 0; d < rank; ++d) {
      // Common case (blocked layouts): bit i lands on 2^(i + shift), so the
      // whole contribution is one mask and one shift.
      int32_t mask = 0, bits = 0;
      std::optional<int> shift;
      bool shifted = true;
      for (unsigned i = 0; i < numBits; ++i) {
        int32_t v = (*bases)[i][d];
        if (v == 0)
          continue;
        bits |= v;
        mask |= 1 << i;
        int s = llvm::isPowerOf2_32(v) ? int(llvm::Log2_32(v)) - int(i) : 0;
        if (!llvm::isPowerOf2_32(v) || (shift && *shift != s))
          shifted = false;
        shift = s;
      }
      if (mask == 0)
        continue;
      if (shifted) {
        Value v = id;
        if (mask != (1 << numBits) - 1)
          v = LLVM::AndOp::create(b, loc, v, i32Const(b, loc, mask));
        if (*shift > 0)
          v = LLVM::ShlOp::create(b, loc, v, i32Const(b, loc, *shift));
        else if (*shift < 0)
          v = LLVM::LShrOp::create(b, loc, v, i32Const(b, loc, -*shift));
        accumulate(d, v, bits);
        continue;
      }
      // General basis: bit i contributes basis_i when set.
      for (unsigned i = 0; i < numBits; ++i) {
        int32_t basis = (*bases)[i][d];
        if (basis == 0)
          continue;
        Value bit = LLVM::AndOp::create(
            b, loc, LLVM::LShrOp::create(b, loc, id, i32Const(b, loc, i)),
            i32Const(b, loc, 1));
        accumulate(d, LLVM::MulOp::create(b, loc, bit, i32Const(b, loc, basis)),
                   basis);
      }
    }
  }
  // The block part is 0: the driver only accepts single-CTA modules.

  unsigned numRegs = layout.getInDimSize(kRegister);
  SmallVector<SmallVector<Value>> indices(numRegs);
  for (unsigned r = 0; r < numRegs; ++r) {
    SmallVector<int32_t> c = applyLayout(layout, {{kRegister, int32_t(r)}});
    for (unsigned d = 0; d < rank; ++d) {
      Value v;
      if (!dynamic[d])
        v = i32Const(b, loc, c[d]);
      else if (c[d] == 0)
        v = dynamic[d];
      else if ((c[d] & dynamicBits[d]) == 0)
        // Disjoint bits: `or` is the XOR and keeps address folding simple.
        v = LLVM::OrOp::create(b, loc, dynamic[d], i32Const(b, loc, c[d]));
      else
        v = LLVM::XOrOp::create(b, loc, dynamic[d], i32Const(b, loc, c[d]));
      indices[r].push_back(v);
    }
  }
  return indices;
}

FailureOr<SmallVector<unsigned>> mlir::triton_musa::mapRegisters(
    const LinearLayout &src, const LinearLayout &dst,
    function_ref<SmallVector<int32_t>(ArrayRef<int32_t>)> toSrc) {
  // Lanes, warps and blocks must see the same data in both layouts.
  for (StringRef name : {kLane, kWarp, kBlock}) {
    unsigned srcBits = src.getInDimSizeLog2(name);
    unsigned dstBits = dst.getInDimSizeLog2(name);
    for (unsigned i = 0; i < std::max(srcBits, dstBits); ++i) {
      int32_t bit = int32_t(1) << i;
      SmallVector<int32_t> s =
          i < srcBits ? applyLayout(src, {{name.str(), bit}})
                      : SmallVector<int32_t>(src.getNumOutDims(), 0);
      SmallVector<int32_t> d =
          i < dstBits ? toSrc(applyLayout(dst, {{name.str(), bit}}))
                      : SmallVector<int32_t>(src.getNumOutDims(), 0);
      if (s != d)
        return failure();
    }
  }
  std::map<SmallVector<int32_t>, unsigned> srcRegisterOf;
  unsigned numSrcRegs = src.getInDimSize(kRegister);
  for (unsigned r = 0; r < numSrcRegs; ++r)
    srcRegisterOf.try_emplace(applyLayout(src, {{kRegister, int32_t(r)}}), r);
  SmallVector<unsigned> result;
  unsigned numDstRegs = dst.getInDimSize(kRegister);
  for (unsigned r = 0; r < numDstRegs; ++r) {
    auto it =
        srcRegisterOf.find(toSrc(applyLayout(dst, {{kRegister, int32_t(r)}})));
    if (it == srcRegisterOf.end())
      return failure();
    result.push_back(it->second);
  }
  return result;
}

Value mlir::triton_musa::emitOwnerPredicate(OpBuilder &b, Location loc,
                                            const TargetInfo &target,
                                            const LinearLayout &layout) {
  int32_t laneMask = 0, warpMask = 0;
  for (const auto &[name, mask] : layout.getFreeVariableMasks()) {
    if (name == kLane)
      laneMask = mask;
    else if (name == kWarp)
      warpMask = mask;
  }
  if (!laneMask && !warpMask)
    return {};
  auto [lane, warp] = emitLaneAndWarpId(b, loc, target);
  return emitIdBitsClearPredicate(b, loc, lane, laneMask, warp, warpMask);
}

Value mlir::triton_musa::emitIdBitsClearPredicate(OpBuilder &b, Location loc,
                                                  Value lane, int32_t laneMask,
                                                  Value warp,
                                                  int32_t warpMask) {
  Value pred;
  for (auto [id, mask] : {std::pair<Value, int32_t>{lane, laneMask},
                          std::pair<Value, int32_t>{warp, warpMask}}) {
    if (!mask)
      continue;
    Value bits = LLVM::AndOp::create(b, loc, id, i32Const(b, loc, mask));
    Value isZero = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, bits,
                                        i32Const(b, loc, 0));
    pred = andPredicates(b, loc, pred, isZero);
  }
  return pred;
}

int32_t
mlir::triton_musa::getDuplicateRegisterMask(const LinearLayout &layout) {
  for (const auto &[name, mask] : layout.getFreeVariableMasks())
    if (name == kRegister)
      return mask;
  return 0;
}
