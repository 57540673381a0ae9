//===- ViewOpToLLVM.cpp - View ops (splat ... cat) -> LLVM ---------------===//
//
// tt.splat, tt.broadcast, tt.expand_dims, tt.reshape, tt.trans, tt.join,
// tt.split and tt.cat only rename which register holds which element; the
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
using ::triton_musa::LinearLayout;

namespace {

constexpr StringLiteral kPassFlag = "--convert-tritongpu-to-musa";

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
  for (StringRef name : {"lane", "warp", "block"}) {
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
  for (int32_t r = 0, e = layout.getInDimSize("register"); r < e; ++r)
    result.try_emplace(applyLayout(layout, {{"register", r}}), r);
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

/// Replaces `op` by the registers of `src` picked through `toSrc`, which maps
/// result coordinates to source coordinates.
LogicalResult lowerRegisterPermutation(
    Operation *op, Value src, RankedTensorType srcType,
    RankedTensorType dstType,
    function_ref<SmallVector<int32_t>(ArrayRef<int32_t>)> toSrc,
    const LLVMTypeConverter &converter, ConversionPatternRewriter &rewriter) {
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
  auto registers = mapRegisters(*srcLayout, *dstLayout, toSrc);
  if (failed(registers))
    return emitMovesDataError(op, srcType, dstType);
  Location loc = op->getLoc();
  SmallVector<Value> srcValues = unpackLLElements(rewriter, loc, src);
  SmallVector<Value> values;
  for (unsigned r : *registers)
    values.push_back(srcValues[r]);
  rewriter.replaceOp(op, packLLElements(rewriter, loc, values, structType));
  return success();
}

/// Lowers tt.splat: every register holds the scalar.
struct SplatOpConversion : public ConvertOpToLLVMPattern<triton::SplatOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(triton::SplatOp op, OpAdaptor adaptor,
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

/// Lowers tt.broadcast (size-1 dimensions repeated) when each thread already
/// holds the elements it needs.
struct BroadcastOpConversion
    : public ConvertOpToLLVMPattern<triton::BroadcastOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(triton::BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    ArrayRef<int64_t> srcShape = srcType.getShape();
    auto toSrc = [&](ArrayRef<int32_t> coords) {
      SmallVector<int32_t> result(coords);
      for (auto [d, size] : llvm::enumerate(srcShape))
        if (size == 1)
          result[d] = 0;
      return result;
    };
    return lowerRegisterPermutation(op, adaptor.getSrc(), srcType, dstType,
                                    toSrc, *getTypeConverter(), rewriter);
  }
};

/// Lowers tt.expand_dims (a size-1 dimension inserted) when each thread
/// already holds the elements it needs (e.g. slice of the result layout).
struct ExpandDimsOpConversion
    : public ConvertOpToLLVMPattern<triton::ExpandDimsOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(triton::ExpandDimsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    unsigned axis = op.getAxis();
    auto toSrc = [&](ArrayRef<int32_t> coords) {
      SmallVector<int32_t> result(coords);
      result.erase(result.begin() + axis);
      return result;
    };
    return lowerRegisterPermutation(op, adaptor.getSrc(), srcType, dstType,
                                    toSrc, *getTypeConverter(), rewriter);
  }
};

/// Lowers tt.reshape: the row-major element order is kept where the two
/// layouts allow it register by register; with `allow_reorder` (any element
/// order) a thread may instead keep its registers as they are, provided
/// the two layouts duplicate data over the same lanes and warps and never
/// in registers. Otherwise reports the data movement. `efficient_layout`
/// only records that the result layout was picked on purpose: it changes
/// nothing here.
struct ReshapeOpConversion : public ConvertOpToLLVMPattern<triton::ReshapeOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(triton::ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    auto emitError = [&] { return op.emitError(); };
    auto srcLayout = getLinearLayout(srcType, emitError);
    if (failed(srcLayout))
      return failure();
    auto dstLayout = getLinearLayout(dstType, emitError);
    if (failed(dstLayout))
      return failure();
    Type structType = getTypeConverter()->convertType(dstType);
    if (!structType)
      return failure();
    ArrayRef<int64_t> srcShape = srcType.getShape();
    ArrayRef<int64_t> dstShape = dstType.getShape();
    // Row-major reshape on coordinates: linear in GF(2) as the shapes are
    // powers of two, so bases map to bases.
    auto toSrc = [&](ArrayRef<int32_t> coords) {
      return delinearize(linearize(coords, dstShape), srcShape);
    };
    auto registers = mapRegisters(*srcLayout, *dstLayout, toSrc);
    SmallVector<unsigned> picked;
    if (succeeded(registers)) {
      picked = *registers;
    } else if (op.getAllowReorder() && keepsRegisters(*srcLayout, *dstLayout)) {
      picked = llvm::to_vector(
          llvm::seq<unsigned>(0, dstLayout->getInDimSize("register")));
    } else {
      return emitMovesDataError(op, srcType, dstType);
    }
    Location loc = op.getLoc();
    SmallVector<Value> srcValues =
        unpackLLElements(rewriter, loc, adaptor.getSrc());
    SmallVector<Value> values;
    for (unsigned r : picked)
      values.push_back(srcValues[r]);
    rewriter.replaceOp(op, packLLElements(rewriter, loc, values, structType));
    return success();
  }

private:
  /// Whether "thread t's register r of src is thread t's register r of
  /// dst" is a bijection between the elements of the two tensors.
  static bool keepsRegisters(const LinearLayout &src, const LinearLayout &dst) {
    if (src.getInDimSize("register") != dst.getInDimSize("register"))
      return false;
    auto masks = [](const LinearLayout &l) {
      std::map<std::string, int32_t> result;
      for (const auto &[name, mask] : l.getFreeVariableMasks())
        result[name] = mask;
      return result;
    };
    auto srcMasks = masks(src), dstMasks = masks(dst);
    return srcMasks["register"] == 0 && dstMasks["register"] == 0 &&
           srcMasks["lane"] == dstMasks["lane"] &&
           srcMasks["warp"] == dstMasks["warp"] &&
           srcMasks["block"] == dstMasks["block"];
  }
};

/// Lowers tt.trans (result dimension i is source dimension order[i]) when
/// each thread keeps its elements.
struct TransOpConversion : public ConvertOpToLLVMPattern<triton::TransOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(triton::TransOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    ArrayRef<int32_t> order = op.getOrder();
    auto toSrc = [&](ArrayRef<int32_t> coords) {
      SmallVector<int32_t> result(coords.size());
      for (auto [i, d] : llvm::enumerate(order))
        result[d] = coords[i];
      return result;
    };
    return lowerRegisterPermutation(op, adaptor.getSrc(), srcType, dstType,
                                    toSrc, *getTypeConverter(), rewriter);
  }
};

/// Lowers tt.join (a new minor dimension of size 2: lhs at 0, rhs at 1) when
/// each thread holds both halves of its elements.
struct JoinOpConversion : public ConvertOpToLLVMPattern<triton::JoinOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(triton::JoinOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getLhs().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    auto emitError = [&] { return op.emitError(); };
    auto srcLayout = getLinearLayout(srcType, emitError);
    if (failed(srcLayout))
      return failure();
    auto dstLayout = getLinearLayout(dstType, emitError);
    if (failed(dstLayout))
      return failure();
    Type structType = getTypeConverter()->convertType(dstType);
    if (!structType)
      return failure();
    unsigned last = dstType.getRank() - 1;
    auto dropLast = [&](ArrayRef<int32_t> coords) {
      return SmallVector<int32_t>(coords.drop_back());
    };
    auto registers = mapRegisters(*srcLayout, *dstLayout, dropLast);
    if (failed(registers) || !isDimInRegisters(*dstLayout, last))
      return emitMovesDataError(op, srcType, dstType);
    Location loc = op.getLoc();
    SmallVector<Value> lhs = unpackLLElements(rewriter, loc, adaptor.getLhs());
    SmallVector<Value> rhs = unpackLLElements(rewriter, loc, adaptor.getRhs());
    SmallVector<Value> values;
    for (auto [r, srcRegister] : llvm::enumerate(*registers)) {
      int32_t half =
          applyLayout(*dstLayout, {{"register", int32_t(r)}})[last];
      values.push_back(half ? rhs[srcRegister] : lhs[srcRegister]);
    }
    rewriter.replaceOp(op, packLLElements(rewriter, loc, values, structType));
    return success();
  }
};

/// Lowers tt.split (the halves of the minor dimension of size 2) when each
/// thread holds both halves of its elements.
struct SplitOpConversion : public ConvertOpToLLVMPattern<triton::SplitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(triton::SplitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getOutLHS().getType());
    auto emitError = [&] { return op.emitError(); };
    auto srcLayout = getLinearLayout(srcType, emitError);
    if (failed(srcLayout))
      return failure();
    auto dstLayout = getLinearLayout(dstType, emitError);
    if (failed(dstLayout))
      return failure();
    Type structType = getTypeConverter()->convertType(dstType);
    if (!structType)
      return failure();
    auto appendHalf = [](ArrayRef<int32_t> coords, int32_t half) {
      SmallVector<int32_t> result(coords);
      result.push_back(half);
      return result;
    };
    // Half 0 through mapRegisters, which also checks that lanes and warps
    // agree (the source's hold nothing of the minor dimension); half 1 sits
    // in the registers with the minor coordinate set.
    auto lowRegisters = mapRegisters(
        *srcLayout, *dstLayout,
        [&](ArrayRef<int32_t> coords) { return appendHalf(coords, 0); });
    if (failed(lowRegisters))
      return emitMovesDataError(op, srcType, dstType);
    auto registerOf = getRegisterOfCoordinates(*srcLayout);
    Location loc = op.getLoc();
    SmallVector<Value> src = unpackLLElements(rewriter, loc, adaptor.getSrc());
    SmallVector<Value> lo, hi;
    for (auto [r, low] : llvm::enumerate(*lowRegisters)) {
      auto it = registerOf.find(appendHalf(
          applyLayout(*dstLayout, {{"register", int32_t(r)}}), 1));
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
struct CatOpConversion : public ConvertOpToLLVMPattern<triton::CatOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(triton::CatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getLhs().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    auto emitError = [&] { return op.emitError(); };
    auto srcLayout = getLinearLayout(srcType, emitError);
    if (failed(srcLayout))
      return failure();
    auto dstLayout = getLinearLayout(dstType, emitError);
    if (failed(dstLayout))
      return failure();
    Type structType = getTypeConverter()->convertType(dstType);
    if (!structType)
      return failure();
    auto masks = [](const LinearLayout &l) {
      std::map<std::string, int32_t> result;
      for (const auto &[name, mask] : l.getFreeVariableMasks())
        result[name] = mask;
      return result;
    };
    auto srcMasks = masks(*srcLayout), dstMasks = masks(*dstLayout);
    if (dstLayout->getInDimSize("register") !=
            2 * srcLayout->getInDimSize("register") ||
        srcMasks["register"] != 0 || dstMasks["register"] != 0 ||
        srcMasks["lane"] != dstMasks["lane"] ||
        srcMasks["warp"] != dstMasks["warp"] ||
        srcMasks["block"] != dstMasks["block"])
      return emitMovesDataError(op, srcType, dstType);
    Location loc = op.getLoc();
    SmallVector<Value> values =
        unpackLLElements(rewriter, loc, adaptor.getLhs());
    llvm::append_range(values,
                       unpackLLElements(rewriter, loc, adaptor.getRhs()));
    rewriter.replaceOp(op, packLLElements(rewriter, loc, values, structType));
    return success();
  }
};

} // namespace

void mlir::triton_musa::populateViewOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo) {
  patterns.add<SplatOpConversion, BroadcastOpConversion, ExpandDimsOpConversion,
               ReshapeOpConversion, TransOpConversion, JoinOpConversion,
               SplitOpConversion, CatOpConversion>(typeConverter);
}
