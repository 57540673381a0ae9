//===- ViewOpToLLVM.cpp - View ops (splat ... cat) -> LLVM ---------------===//
//
// tt.splat, tt.unsplat, tt.broadcast, tt.expand_dims, tt.reshape, tt.trans,
// tt.join, tt.split and tt.cat only rename which register holds which element; the
// mapping of destination registers to source registers comes from the
// linear layouts (mapRegisters). Cases that would move data between threads
// are reported by name: Triton picks result layouts for which these ops are
// register-only, and a ttg.convert_layout does any real data movement.
//
//===----------------------------------------------------------------------===//

#include "conversion/TritonGPUToMUSA/LayoutIndices.h"
#include "conversion/TritonGPUToMUSA/PatternTritonGPUOpToLLVM.h"
#include "conversion/TritonGPUToMUSA/Utility.h"

#include "dialects/Triton/IR/Dialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"

#include <map>

using namespace mlir;
using namespace mlir::triton_musa;
using mlir::triton_musa::LinearLayout;

namespace {

InFlightDiagnostic emitMovesDataError(Operation *op, Type srcType,
                                      Type dstType) {
  return op->emitError() << "'" << op->getName() << "' from " << srcType
                         << " to " << dstType
                         << " moves data between threads, which is not "
                            "supported by "
                         << kPassFlag << " yet";
}

/// Whether every lane, warp and block basis of `layout` is 0 in output
/// dimension `dim` (the threads hold all of that dimension in registers).
bool isDimInRegisters(const LinearLayout &layout, unsigned dim) {
  for (StringRef name : {kLane, kWarp, kBlock}) {
    if (!layout.hasInDim(name))
      continue;
    for (int32_t i = 0; i < layout.getInDimSizeLog2(name); ++i)
      if (applyLayout(layout, {{name.str(), int32_t(1) << i}})[dim] != 0)
        return false;
  }
  return true;
}

/// Register index of each register coordinate L(r, 0, 0, 0) of `layout`
/// (the first register where several hold the same element).
std::map<SmallVector<int32_t>, unsigned>
getRegisterOfCoordinates(const LinearLayout &layout) {
  std::map<SmallVector<int32_t>, unsigned> result;
  for (int32_t r = 0, e = layout.getInDimSize(kRegister); r < e; ++r)
    result.try_emplace(applyLayout(layout, {{kRegister, r}}), r);
  return result;
}

/// Row-major coordinates of linear index `linear` in `shape`.
SmallVector<int32_t> delinearize(int64_t linear, ArrayRef<int64_t> shape) {
  SmallVector<int32_t> coords(shape.size());
  for (int d = int(shape.size()) - 1; d >= 0; --d) {
    coords[d] = int32_t(linear % shape[d]);
    linear /= shape[d];
  }
  return coords;
}

int64_t linearize(ArrayRef<int32_t> coords, ArrayRef<int64_t> shape) {
  int64_t linear = 0;
  for (auto [c, size] : llvm::zip_equal(coords, shape))
    linear = linear * size + c;
  return linear;
}

/// What every view op needs: the source and result linear layouts and the
/// result's struct type (failure reported where a layout has none).
struct ViewLayouts {
  LinearLayout src, dst;
  Type structType;
};

FailureOr<ViewLayouts> getViewLayouts(Operation *op, RankedTensorType srcType,
                                      RankedTensorType dstType,
                                      const LLVMTypeConverter &converter) {
  auto emitError = [&] { return op->emitError(); };
  auto srcLayout = getLinearLayout(srcType, emitError);
  if (failed(srcLayout))
    return failure();
  auto dstLayout = getLinearLayout(dstType, emitError);
  if (failed(dstLayout))
    return failure();
  Type structType = converter.convertType(dstType);
  if (!structType)
    return failure();
  return ViewLayouts{std::move(*srcLayout), std::move(*dstLayout), structType};
}

/// The struct of type `structType` whose register r is `values[registers[r]]`.
Value pickRegisters(OpBuilder &b, Location loc, ArrayRef<Value> values,
                    ArrayRef<unsigned> registers, Type structType) {
  SmallVector<Value> picked;
  for (unsigned r : registers)
    picked.push_back(values[r]);
  return packLLElements(b, loc, picked, structType);
}

/// Whether neither layout repeats data in registers and both repeat it over
/// the same lanes, warps and blocks: then "register r of a thread" pairs the
/// elements of the two tensors one to one, in some order.
bool duplicatesDataAlike(const LinearLayout &src, const LinearLayout &dst) {
  auto masks = [](const LinearLayout &l) {
    std::map<std::string, int32_t> result;
    for (const auto &[name, mask] : l.getFreeVariableMasks())
      result[name] = mask;
    return result;
  };
  auto srcMasks = masks(src), dstMasks = masks(dst);
  return srcMasks[kRegister] == 0 && dstMasks[kRegister] == 0 &&
         srcMasks[kLane] == dstMasks[kLane] &&
         srcMasks[kWarp] == dstMasks[kWarp] &&
         srcMasks[kBlock] == dstMasks[kBlock];
}

/// Replaces `op` by the registers of `src` picked through `toSrc`, which maps
/// result coordinates to source coordinates.
LogicalResult lowerRegisterPermutation(
    Operation *op, Value src, RankedTensorType srcType,
    RankedTensorType dstType,
    function_ref<SmallVector<int32_t>(ArrayRef<int32_t>)> toSrc,
    const LLVMTypeConverter &converter, ConversionPatternRewriter &rewriter) {
  auto layouts = getViewLayouts(op, srcType, dstType, converter);
  if (failed(layouts))
    return failure();
  auto registers = mapRegisters(layouts->src, layouts->dst, toSrc);
  if (failed(registers))
    return emitMovesDataError(op, srcType, dstType);
  Location loc = op->getLoc();
  rewriter.replaceOp(op, pickRegisters(rewriter, loc,
                                       unpackLLElements(rewriter, loc, src),
                                       *registers, layouts->structType));
  return success();
}

/// Lowers tt.splat: every register holds the scalar.
struct SplatOpConversion : public MUSAPattern<triton::SplatOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(triton::SplatOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    auto structType = dyn_cast_or_null<LLVM::LLVMStructType>(
        getTypeConverter()->convertType(op.getType()));
    if (!structType)
      return failure();
    SmallVector<Value> values(structType.getBody().size(), adaptor.getSrc());
    rewriter.replaceOp(
        op, packLLElements(rewriter, op.getLoc(), values, structType));
    return success();
  }
};

/// Lowers tt.unsplat: a one-element tensor's every register, in every
/// thread, holds its only element.
struct UnsplatOpConversion : public MUSAPattern<triton::UnsplatOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(triton::UnsplatOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, unpackLLElements(rewriter, op.getLoc(), adaptor.getSrc()).front());
    return success();
  }
};

/// The source coordinates of result coordinates `coords` of a view op that
/// only renames registers: tt.broadcast repeats size-1 dimensions,
/// tt.expand_dims inserts one, tt.trans permutes them (result dimension i is
/// source dimension order[i]).
SmallVector<int32_t> getSourceCoords(triton::BroadcastOp op,
                                     ArrayRef<int32_t> coords) {
  SmallVector<int32_t> result(coords);
  auto srcType = cast<RankedTensorType>(op.getSrc().getType());
  for (auto [d, size] : llvm::enumerate(srcType.getShape()))
    if (size == 1)
      result[d] = 0;
  return result;
}
SmallVector<int32_t> getSourceCoords(triton::ExpandDimsOp op,
                                     ArrayRef<int32_t> coords) {
  SmallVector<int32_t> result(coords);
  result.erase(result.begin() + op.getAxis());
  return result;
}
SmallVector<int32_t> getSourceCoords(triton::TransOp op,
                                     ArrayRef<int32_t> coords) {
  SmallVector<int32_t> result(coords.size());
  for (auto [i, d] : llvm::enumerate(op.getOrder()))
    result[d] = coords[i];
  return result;
}

/// Lowers tt.broadcast, tt.expand_dims and tt.trans when each thread already
/// holds the elements it needs (e.g. a slice of the result layout).
template <typename OpTy>
struct RegisterPermutationConversion : public MUSAPattern<OpTy> {
  using MUSAPattern<OpTy>::MUSAPattern;

  LogicalResult lower(OpTy op, typename OpTy::Adaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    return lowerRegisterPermutation(
        op, adaptor.getSrc(), cast<RankedTensorType>(op.getSrc().getType()),
        cast<RankedTensorType>(op.getType()),
        [&](ArrayRef<int32_t> coords) { return getSourceCoords(op, coords); },
        *this->getTypeConverter(), rewriter);
  }
};

/// Lowers tt.reshape: the row-major element order is kept where the two
/// layouts allow it register by register; with `allow_reorder` (any element
/// order) a thread may instead keep its registers as they are, provided
/// the two layouts duplicate data over the same lanes and warps and never
/// in registers. Otherwise reports the data movement. `efficient_layout`
/// only records that the result layout was picked on purpose: it changes
/// nothing here.
struct ReshapeOpConversion : public MUSAPattern<triton::ReshapeOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(triton::ReshapeOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    auto layouts = getViewLayouts(op, srcType, dstType, *getTypeConverter());
    if (failed(layouts))
      return failure();
    ArrayRef<int64_t> srcShape = srcType.getShape();
    ArrayRef<int64_t> dstShape = dstType.getShape();
    // Row-major reshape on coordinates: linear in GF(2) as the shapes are
    // powers of two, so bases map to bases.
    auto toSrc = [&](ArrayRef<int32_t> coords) {
      return delinearize(linearize(coords, dstShape), srcShape);
    };
    auto registers = mapRegisters(layouts->src, layouts->dst, toSrc);
    SmallVector<unsigned> picked;
    unsigned numRegisters = layouts->dst.getInDimSize(kRegister);
    if (succeeded(registers)) {
      picked = *registers;
    } else if (op.getAllowReorder() &&
               unsigned(layouts->src.getInDimSize(kRegister)) == numRegisters &&
               duplicatesDataAlike(layouts->src, layouts->dst)) {
      // Any element order: each thread keeps its registers as they are.
      picked = llvm::to_vector(llvm::seq<unsigned>(0, numRegisters));
    } else {
      return emitMovesDataError(op, srcType, dstType);
    }
    Location loc = op.getLoc();
    rewriter.replaceOp(
        op, pickRegisters(rewriter, loc,
                          unpackLLElements(rewriter, loc, adaptor.getSrc()),
                          picked, layouts->structType));
    return success();
  }
};

/// Lowers tt.join (a new minor dimension of size 2: lhs at 0, rhs at 1) when
/// each thread holds both halves of its elements.
struct JoinOpConversion : public MUSAPattern<triton::JoinOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(triton::JoinOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getLhs().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    auto layouts = getViewLayouts(op, srcType, dstType, *getTypeConverter());
    if (failed(layouts))
      return failure();
    const LinearLayout &dstLayout = layouts->dst;
    unsigned last = dstType.getRank() - 1;
    auto dropLast = [&](ArrayRef<int32_t> coords) {
      return SmallVector<int32_t>(coords.drop_back());
    };
    auto registers = mapRegisters(layouts->src, dstLayout, dropLast);
    if (failed(registers) || !isDimInRegisters(dstLayout, last))
      return emitMovesDataError(op, srcType, dstType);
    Location loc = op.getLoc();
    SmallVector<Value> lhs = unpackLLElements(rewriter, loc, adaptor.getLhs());
    SmallVector<Value> rhs = unpackLLElements(rewriter, loc, adaptor.getRhs());
    SmallVector<Value> values;
    for (auto [r, srcRegister] : llvm::enumerate(*registers)) {
      int32_t half = applyLayout(dstLayout, {{kRegister, int32_t(r)}})[last];
      values.push_back(half ? rhs[srcRegister] : lhs[srcRegister]);
    }
    rewriter.replaceOp(
        op, packLLElements(rewriter, loc, values, layouts->structType));
    return success();
  }
};

/// Lowers tt.split (the halves of the minor dimension of size 2) when each
/// thread holds both halves of its elements.
struct SplitOpConversion : public MUSAPattern<triton::SplitOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(triton::SplitOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getOutLHS().getType());
    auto layouts = getViewLayouts(op, srcType, dstType, *getTypeConverter());
    if (failed(layouts))
      return failure();
    Type structType = layouts->structType;
    auto appendHalf = [](ArrayRef<int32_t> coords, int32_t half) {
      SmallVector<int32_t> result(coords);
      result.push_back(half);
      return result;
    };
    // Half 0 through mapRegisters, which also checks that lanes and warps
    // agree (the source's hold nothing of the minor dimension); half 1 sits
    // in the registers with the minor coordinate set.
    auto lowRegisters = mapRegisters(
        layouts->src, layouts->dst,
        [&](ArrayRef<int32_t> coords) { return appendHalf(coords, 0); });
    if (failed(lowRegisters))
      return emitMovesDataError(op, srcType, dstType);
    auto registerOf = getRegisterOfCoordinates(layouts->src);
    Location loc = op.getLoc();
    SmallVector<Value> src = unpackLLElements(rewriter, loc, adaptor.getSrc());
    SmallVector<Value> lo, hi;
    for (auto [r, low] : llvm::enumerate(*lowRegisters)) {
      auto it = registerOf.find(appendHalf(
          applyLayout(layouts->dst, {{kRegister, int32_t(r)}}), 1));
      if (it == registerOf.end())
        return emitMovesDataError(op, srcType, dstType);
      lo.push_back(src[low]);
      hi.push_back(src[it->second]);
    }
    rewriter.replaceOp(op, {packLLElements(rewriter, loc, lo, structType),
                            packLLElements(rewriter, loc, hi, structType)});
    return success();
  }
};

/// Lowers tt.cat, whose element order is unspecified: a thread's result
/// registers are its lhs registers followed by its rhs registers. That is a
/// bijection when the result holds twice the registers, no layout repeats
/// data in registers, and all three repeat data over the same lanes and
/// warps.
struct CatOpConversion : public MUSAPattern<triton::CatOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(triton::CatOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getLhs().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    auto layouts = getViewLayouts(op, srcType, dstType, *getTypeConverter());
    if (failed(layouts))
      return failure();
    if (layouts->dst.getInDimSize(kRegister) !=
            2 * layouts->src.getInDimSize(kRegister) ||
        !duplicatesDataAlike(layouts->src, layouts->dst))
      return emitMovesDataError(op, srcType, dstType);
    Location loc = op.getLoc();
    SmallVector<Value> values =
        unpackLLElements(rewriter, loc, adaptor.getLhs());
    llvm::append_range(values,
                       unpackLLElements(rewriter, loc, adaptor.getRhs()));
    rewriter.replaceOp(
        op, packLLElements(rewriter, loc, values, layouts->structType));
    return success();
  }
};

} // namespace

void mlir::triton_musa::populateViewOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo) {
  patterns.add<SplatOpConversion, UnsplatOpConversion,
               RegisterPermutationConversion<triton::BroadcastOp>,
               RegisterPermutationConversion<triton::ExpandDimsOp>,
               RegisterPermutationConversion<triton::TransOp>,
               ReshapeOpConversion, JoinOpConversion, SplitOpConversion,
               CatOpConversion>(typeConverter, targetInfo);
}
