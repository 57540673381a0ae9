//===- DotOpToLLVM.cpp - tt.dot on the FMA path -> LLVM ------------------===//
//
// The FMA path: A and B are in #ttg.dot_op layouts whose parent is the
// #ttg.blocked layout of the accumulator. Such an operand layout gives each
// thread, for every (batch, m) (resp. (batch, n)) it holds of the result,
// the whole K extent in registers, so a dot is a per-thread, fully unrolled
// K loop of multiply-adds:
//
//   d[r] = c[r];  for k in 0..K-1:  d[r] = fmuladd(a[(b, m, k)], b[(b, k, n)], d[r])
//
// where (b, m, n) are the coordinates of accumulator register r. Which
// register of A (B) holds (b, m, k) ((b, k, n)) comes from the linear
// layouts: the lane and warp parts of A must match the result's on (b, m)
// and be 0 on k (similarly for B), then the register parts are matched by
// coordinates. Nothing moves between threads.
//
// Operands are widened to the accumulation type first, exactly
// (FloatConversion.h): f16/bf16/fp8 -> f32, i8 -> i32 by sign extension.
// A float accumulator narrower than f32 (out_dtype = f16) is accumulated in
// f32 too and rounded (rtne) once at the end, as matrix units do within an
// instruction and as NumPy does: rounding after each of K multiply-adds made
// a 64-deep f16 dot up to 8x less accurate than one final rounding.
//
//===----------------------------------------------------------------------===//

#include "conversion/TritonGPUToMUSA/FloatConversion.h"
#include "conversion/TritonGPUToMUSA/LayoutIndices.h"
#include "conversion/TritonGPUToMUSA/PatternTritonGPUOpToLLVM.h"
#include "conversion/TritonGPUToMUSA/Utility.h"

#include "dialects/Triton/IR/Dialect.h"
#include "dialects/TritonGPU/IR/Dialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"

#include <map>

using namespace mlir;
using namespace mlir::triton_musa;
using mlir::triton_musa::LinearLayout;

namespace {

namespace ttg = mlir::triton::gpu;

// Errors read "'tt.dot' is not supported by ... yet <why>", the form the
// corpus test recognises as "not lowered yet".
constexpr StringLiteral kUnsupported =
    " is not supported by --convert-tritongpu-to-musa yet";

/// The register of the current thread that holds each coordinate tuple of a
/// layout (register part only, L(r, 0, 0, 0); the first of duplicates).
using RegisterIndex = std::map<SmallVector<int32_t>, unsigned>;

RegisterIndex indexRegisters(const LinearLayout &layout) {
  RegisterIndex index;
  for (unsigned r = 0, e = layout.getInDimSize(kRegister); r < e; ++r)
    index.try_emplace(applyLayout(layout, {{kRegister, int32_t(r)}}), r);
  return index;
}

/// Checks that every lane/warp bit moves the operand exactly as it moves
/// the result on the shared dimensions, and not at all along K: then the
/// thread holding accumulator (b, m, n) holds A(b, m, :) and B(b, :, n).
bool threadsAgree(const LinearLayout &operand, const LinearLayout &result,
                  unsigned kDim, unsigned otherDim) {
  unsigned rank = result.getNumOutDims();
  for (StringRef name : {kLane, kWarp, kBlock}) {
    unsigned bits = std::max(operand.getInDimSizeLog2(name),
                             result.getInDimSizeLog2(name));
    for (unsigned i = 0; i < bits; ++i) {
      auto at = [&](const LinearLayout &l) {
        if (int32_t(i) >= l.getInDimSizeLog2(name))
          return SmallVector<int32_t>(rank, 0);
        return applyLayout(l, {{name.str(), int32_t(1) << i}});
      };
      SmallVector<int32_t> o = at(operand), c = at(result);
      if (o[kDim] != 0)
        return false;
      for (unsigned d = 0; d < rank; ++d)
        if (d != kDim && d != otherDim && o[d] != c[d])
          return false;
      // The operand's non-K dimension is the result's dimension otherDim.
      if (o[otherDim] != c[otherDim])
        return false;
    }
  }
  return true;
}

/// Widens an operand element (LLVM value `v` of builtin element type
/// `srcType`) to the accumulation type `accType` (a builtin type).
FailureOr<Value> widen(OpBuilder &b, Location loc, Value v, Type srcType,
                       Type accType) {
  if (srcType == accType)
    return v;
  if (auto accInt = dyn_cast<IntegerType>(accType)) {
    auto srcInt = dyn_cast<IntegerType>(srcType);
    if (!srcInt || srcInt.getWidth() > accInt.getWidth())
      return failure();
    // Triton's integer dots are signed (int8 x int8 -> int32).
    return LLVM::SExtOp::create(b, loc, accType, v).getResult();
  }
  auto srcFloat = dyn_cast<FloatType>(srcType);
  auto accFloat = cast<FloatType>(accType);
  if (!srcFloat || !isSupportedFloatFormat(srcFloat) ||
      !isSupportedFloatFormat(accFloat))
    return failure();
  // Exact: every supported operand format is a subset of the accumulator's
  // (checked by the caller through the bit widths).
  return emitFloatConversion(b, loc, v, srcFloat, accFloat, /*rtz=*/false);
}

/// Lowers tt.dot with #ttg.dot_op<{parent = #ttg.blocked}> operands to
/// per-thread multiply-adds (llvm.intr.fmuladd, or mul + add for integers).
///
/// inputPrecision (tf32, tf32x3, bf16x3, bf16x6, ieee) does not change the
/// result here: on the FMA path every f32 product is computed in full f32
/// precision, which is what ieee asks and at least as precise as the
/// others. maxNumImpreciseAcc only concerns reduced-precision fp8 MMA
/// accumulation and is ignored: FMA accumulates in at least f32.
struct DotOpConversion : public MUSAPattern<triton::DotOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(triton::DotOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto aType = cast<RankedTensorType>(op.getA().getType());
    auto bType = cast<RankedTensorType>(op.getB().getType());
    auto dType = cast<RankedTensorType>(op.getD().getType());
    auto blocked = dyn_cast_or_null<ttg::BlockedEncodingAttr>(
        dType.getEncoding());
    if (!blocked)
      return op.emitError() << "'tt.dot'" << kUnsupported
                            << " with a result in layout "
                            << dType.getEncoding()
                            << " (the FMA path needs #ttg.blocked)";
    RankedTensorType operandTypes[] = {aType, bType};
    for (auto [idx, type] : llvm::enumerate(operandTypes)) {
      auto dot = dyn_cast_or_null<ttg::DotOperandEncodingAttr>(
          type.getEncoding());
      if (!dot || dot.getOpIdx() != idx || dot.getParent() != blocked)
        return op.emitError()
               << "'tt.dot'" << kUnsupported << " with operand "
               << (idx == 0 ? "A" : "B") << " in layout " << type.getEncoding()
               << " (the FMA path needs #ttg.dot_op<{opIdx = " << idx
               << ", parent = " << blocked << "}>)";
    }

    Type accType = getTypeConverter()->convertType(dType.getElementType());
    if (!accType)
      return failure();
    // Supported: float operands no wider than a float accumulator (f16/bf16/
    // fp8/f32/f64 combinations Triton builds), integer operands no wider
    // than an integer accumulator.
    Type accScalar = dType.getElementType();
    auto checkOperand = [&](Type operand) {
      if (isa<IntegerType>(accScalar))
        return isa<IntegerType>(operand) &&
               operand.getIntOrFloatBitWidth() <=
                   accScalar.getIntOrFloatBitWidth();
      if (!isa<FloatType>(accScalar) || !isa<FloatType>(operand) ||
          !isSupportedFloatFormat(accScalar) ||
          !isSupportedFloatFormat(operand))
        return false;
      if (operand == accScalar)
        return true;
      // Widening must be exact: the operand has fewer mantissa bits and no
      // more exponent range (bf16 only into f32/f64).
      auto in = cast<FloatType>(operand), acc = cast<FloatType>(accScalar);
      return in.getFPMantissaWidth() <= acc.getFPMantissaWidth() &&
             in.getWidth() < acc.getWidth() && !(in.isBF16() && acc.isF16());
    };
    for (Type operand : {aType.getElementType(), bType.getElementType()})
      if (!checkOperand(operand))
        return op.emitError() << "'tt.dot'" << kUnsupported << " for "
                              << operand << " operands into " << accScalar
                              << " accumulators";

    auto emitError = [&] { return op.emitError(); };
    auto la = getLinearLayout(aType, emitError);
    auto lb = getLinearLayout(bType, emitError);
    auto lc = getLinearLayout(dType, emitError);
    if (failed(la) || failed(lb) || failed(lc))
      return failure();
    unsigned rank = dType.getRank();
    unsigned mDim = rank - 2, nDim = rank - 1;
    int64_t numK = aType.getShape()[rank - 1];
    // A is [.., M, K]: K at nDim, M at mDim. B is [.., K, N]: K at mDim.
    if (!threadsAgree(*la, *lc, /*kDim=*/nDim, /*otherDim=*/mDim) ||
        !threadsAgree(*lb, *lc, /*kDim=*/mDim, /*otherDim=*/nDim))
      return op.emitError()
             << "'tt.dot'" << kUnsupported
             << " where the operand layouts do not give each thread the rows "
                "and columns of its accumulators";

    RegisterIndex aIndex = indexRegisters(*la), bIndex = indexRegisters(*lb);
    SmallVector<Value> aRaw = unpackLLElements(rewriter, loc, adaptor.getA());
    SmallVector<Value> bRaw = unpackLLElements(rewriter, loc, adaptor.getB());
    SmallVector<Value> acc = unpackLLElements(rewriter, loc, adaptor.getC());

    // Narrow float accumulators are summed in f32 and rounded once.
    bool isInt = isa<IntegerType>(accType);
    Type workScalar = accScalar;
    if (!isInt && accScalar.getIntOrFloatBitWidth() < 32)
      workScalar = rewriter.getF32Type();

    // Operand registers are widened once, on first use.
    SmallVector<Value> aWide(aRaw.size()), bWide(bRaw.size());
    auto operand = [&](SmallVector<Value> &wide, ArrayRef<Value> raw,
                       unsigned r, Type scalar) -> FailureOr<Value> {
      if (!wide[r]) {
        FailureOr<Value> v = widen(rewriter, loc, raw[r], scalar, workScalar);
        if (failed(v))
          return failure();
        wide[r] = *v;
      }
      return wide[r];
    };

    for (unsigned r = 0, e = acc.size(); r < e; ++r) {
      SmallVector<int32_t> c = applyLayout(*lc, {{kRegister, int32_t(r)}});
      FailureOr<Value> init =
          widen(rewriter, loc, acc[r], accScalar, workScalar);
      if (failed(init))
        return failure();
      Value sum = *init;
      for (int32_t k = 0; k < numK; ++k) {
        SmallVector<int32_t> ac(c), bc(c);
        ac[nDim] = k;
        bc[mDim] = k;
        auto ai = aIndex.find(ac), bi = bIndex.find(bc);
        if (ai == aIndex.end() || bi == bIndex.end())
          return op.emitError()
                 << "'tt.dot'" << kUnsupported
                 << " where a thread does not hold the operand elements of its "
                    "accumulators";
        FailureOr<Value> x =
            operand(aWide, aRaw, ai->second, aType.getElementType());
        FailureOr<Value> y =
            operand(bWide, bRaw, bi->second, bType.getElementType());
        if (failed(x) || failed(y))
          return op.emitError() << "'tt.dot'" << kUnsupported
                                << " for operands converted to " << workScalar;
        if (isInt)
          sum = LLVM::AddOp::create(rewriter, loc, sum,
                                    LLVM::MulOp::create(rewriter, loc, *x, *y));
        else
          sum = LLVM::FMulAddOp::create(rewriter, loc, *x, *y, sum);
      }
      if (workScalar != accScalar)
        sum = emitFloatConversion(rewriter, loc, sum,
                                  cast<FloatType>(workScalar),
                                  cast<FloatType>(accScalar), /*rtz=*/false);
      acc[r] = sum;
    }
    Type structType = getTypeConverter()->convertType(dType);
    if (!structType)
      return failure();
    rewriter.replaceOp(op, packLLElements(rewriter, loc, acc, structType));
    return success();
  }
};

} // namespace

void mlir::triton_musa::populateDotOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo) {
  patterns.add<DotOpConversion>(typeConverter, targetInfo);
}
