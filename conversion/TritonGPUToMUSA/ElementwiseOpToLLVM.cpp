//===- ElementwiseOpToLLVM.cpp - arith/math on tensors -> LLVM -----------===//
//
// An elementwise op on tensors is applied to each register: the pattern
// clones the op once per element with scalar operands, and the upstream
// arith -> LLVM and math -> LLVM patterns (in the same conversion) lower
// the scalar copies. Only ops those patterns lower are listed, so anything
// else is reported as unsupported before the conversion starts.
//
// Also here: ttg.fp4_to_fp (e2m1 pairs unpacked in registers), tt.fp_to_fp
// (through the exact float conversions of FloatConversion.h), tt.clampf,
// math.exp (f32 as exp2(x * log2 e), as Triton's NVIDIA backend does),
// math.erf (a call to MUSA libdevice's __mt_erf_f32 / __mt_erf_f64: there
// is no erf intrinsic), tt.extern_elementwise (a call to the named libdevice
// function, declared in the module; the bitcode at `libpath` is linked when
// the LLVM IR is built) and tt.map_elementwise (its region inlined once per
// element).
//
// Registers that hold equal values are computed once: where the axis
// analysis (AxisAnalysis.h) proves a result constant over aligned runs, a
// register repeats the first register of its run, as Triton's NVIDIA
// lowering de-duplicates by constancy. A mask `cols < n` with n divisible by
// 16 is then one compare per 8 registers instead of 8 compares, and neither
// the 8 predicates nor the column indices stay live (in Liger's layer norm
// they did, across two reductions).
//
//===----------------------------------------------------------------------===//

#include "conversion/TritonGPUToMUSA/AxisAnalysis.h"
#include "conversion/TritonGPUToMUSA/FloatConversion.h"
#include "conversion/TritonGPUToMUSA/LayoutIndices.h"
#include "conversion/TritonGPUToMUSA/PatternTritonGPUOpToLLVM.h"
#include "conversion/TritonGPUToMUSA/Utility.h"

#include "dialects/Triton/IR/Dialect.h"
#include "dialects/TritonGPU/IR/Dialect.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::triton_musa;

namespace {

/// Element types whose LLVM type is the builtin type itself, so a scalar
/// copy of an arith/math op stays valid on the converted values.
LogicalResult checkSameScalarType(Operation *op, Type type,
                                  const TypeConverter &converter) {
  Type element = getElementTypeOrSelf(type);
  if (converter.convertType(element) == element)
    return success();
  return op->emitError() << "'" << op->getName() << "' on " << element
                         << " elements is not supported by "
                            "--convert-tritongpu-to-musa yet";
}

/// For each of the `n` registers of `op`'s tensor result, the register it
/// repeats: itself, or the lowest register of its run of equal values. A
/// register basis whose coordinates all stay below the run lengths (powers
/// of two) the analysis proves only flips bits inside an aligned run, so
/// clearing such bits of a register index keeps the value (a zero basis, a
/// duplicated register, is one of them).
SmallVector<unsigned>
getRepeatedRegisters(Operation *op, unsigned n,
                     ConversionPatternRewriter &rewriter,
                     const LoopFacts &loopFacts) {
  auto sources = llvm::to_vector(llvm::seq<unsigned>(0, n));
  if (n < 2 || op->getNumResults() != 1 || !isMemoryEffectFree(op))
    return sources;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type)
    return sources;
  auto layout = getLinearLayout(type, [] { return InFlightDiagnostic(); });
  if (failed(layout) || layout->getInDimSize(kRegister) != int32_t(n) ||
      layout->getNumOutDims() != size_t(type.getRank()))
    return sources;
  AxisFacts facts = AxisAnalysis(rewriter, loopFacts).get(op->getResult(0));
  if (facts.constancy.size() != size_t(type.getRank()))
    return sources;
  unsigned repeatBits = 0;
  for (const auto &[name, bases] : layout->getBases()) {
    if (name != kRegister)
      continue;
    for (auto [bit, basis] : llvm::enumerate(bases)) {
      bool insideRun = true;
      for (auto [coord, constancy] : llvm::zip_equal(basis, facts.constancy))
        insideRun &= coord < (constancy & -constancy);
      if (insideRun)
        repeatBits |= 1u << bit;
    }
  }
  for (unsigned &source : sources)
    source &= ~repeatBits;
  return sources;
}

/// Lowers an arith/math elementwise op with a tensor result by applying the
/// op to each register (scalar operands are used for every register), once
/// per run of equal registers.
class ElementwiseOpConversion : public ConversionPattern {
public:
  ElementwiseOpConversion(const TypeConverter &converter, MLIRContext *ctx,
                          StringRef opName,
                          const LoopFacts &loopFacts)
      : ConversionPattern(converter, opName, kTensorPatternBenefit, ctx),
        loopFacts(loopFacts) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    return lowerOrReport(op, *getTypeConverter(), rewriter,
                         [&] { return lower(op, operands, rewriter); });
  }

private:
  LogicalResult lower(Operation *op, ArrayRef<Value> operands,
                      ConversionPatternRewriter &rewriter) const {
    if (op->getNumResults() != 1 ||
        !isa<RankedTensorType>(op->getResult(0).getType()))
      return failure();
    Location loc = op->getLoc();
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    auto structType = dyn_cast_or_null<LLVM::LLVMStructType>(
        getTypeConverter()->convertType(resultType));
    if (!structType)
      return failure();
    if (failed(checkSameScalarType(op, resultType, *getTypeConverter())))
      return failure();
    for (Value operand : op->getOperands())
      if (failed(
              checkSameScalarType(op, operand.getType(), *getTypeConverter())))
        return failure();

    unsigned n = structType.getBody().size();
    SmallVector<SmallVector<Value>> elements;
    for (Value operand : operands)
      elements.push_back(unpackOrSplat(rewriter, loc, operand, n));
    SmallVector<unsigned> sources =
        getRepeatedRegisters(op, n, rewriter, loopFacts);
    SmallVector<Value> results;
    for (unsigned i = 0; i < n; ++i) {
      if (sources[i] != i) {
        results.push_back(results[sources[i]]);
        continue;
      }
      IRMapping mapping;
      for (auto [original, values] : llvm::zip(op->getOperands(), elements))
        mapping.map(original, values[i]);
      Operation *scalar = rewriter.clone(*op, mapping);
      scalar->getResult(0).setType(resultType.getElementType());
      results.push_back(scalar->getResult(0));
    }
    rewriter.replaceOp(op, packLLElements(rewriter, loc, results, structType));
    return success();
  }

  const LoopFacts &loopFacts;
};

/// A pattern of a tt or arith/math elementwise op: the target, and the
/// loop facts its axis analysis reads.
template <typename OpTy>
class ElementwisePattern : public MUSAPattern<OpTy> {
public:
  ElementwisePattern(const LLVMTypeConverter &converter,
                     const TargetInfo &targetInfo,
                     const LoopFacts &loopFacts,
                     PatternBenefit benefit = 1)
      : MUSAPattern<OpTy>(converter, targetInfo, benefit),
        loopFacts(loopFacts) {}

protected:
  const LoopFacts &loopFacts;
};

/// Lowers a splat arith.constant tensor: every register holds the constant.
struct TensorConstantOpConversion : public MUSAPattern<arith::ConstantOp> {
  TensorConstantOpConversion(const LLVMTypeConverter &converter,
                             const TargetInfo &targetInfo)
      : MUSAPattern(converter, targetInfo, kTensorPatternBenefit) {}

  LogicalResult
  lower(arith::ConstantOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type)
      return failure();
    auto structType = dyn_cast_or_null<LLVM::LLVMStructType>(
        getTypeConverter()->convertType(type));
    if (!structType)
      return failure();
    auto dense = dyn_cast<SplatElementsAttr>(op.getValue());
    if (!dense)
      return op.emitError("'arith.constant' with a non-splat tensor value is "
                          "not supported by --convert-tritongpu-to-musa yet");
    Type element = type.getElementType();
    Type converted = getTypeConverter()->convertType(element);
    Value scalar;
    if (auto floatType = dyn_cast<FloatType>(element);
        floatType && converted && converted != element &&
        converted.isInteger(floatType.getWidth())) {
      // A float type held as its bits (fp8 in an i8): the constant's bits.
      APInt bits = dense.getSplatValue<APFloat>().bitcastToAPInt();
      scalar = LLVM::ConstantOp::create(rewriter, op.getLoc(), converted,
                                        rewriter.getIntegerAttr(converted, bits));
    } else {
      if (failed(checkSameScalarType(op, type, *getTypeConverter())))
        return failure();
      scalar = arith::ConstantOp::create(rewriter, op.getLoc(),
                                         dense.getSplatValue<TypedAttr>());
    }
    SmallVector<Value> values(structType.getBody().size(), scalar);
    rewriter.replaceOp(
        op, packLLElements(rewriter, op.getLoc(), values, structType));
    return success();
  }
};

/// Lowers a tt elementwise op on scalars or tensors: `build` makes the LLVM
/// form of one element from the element's (converted) operands, once per
/// run of equal registers.
template <typename OpTy>
class TritonElementwiseConversion : public ElementwisePattern<OpTy> {
public:
  using Build = Value (*)(OpBuilder &b, Location loc, Type resultType,
                          ValueRange operands);

  TritonElementwiseConversion(const LLVMTypeConverter &converter,
                              const TargetInfo &targetInfo,
                              const LoopFacts &loopFacts,
                              Build build)
      : ElementwisePattern<OpTy>(converter, targetInfo, loopFacts),
        build(build) {}

  LogicalResult
  lower(OpTy op, typename OpTy::Adaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type type = op->getResult(0).getType();
    Type resultType = this->getTypeConverter()->convertType(type);
    Type elementType =
        this->getTypeConverter()->convertType(getElementTypeOrSelf(type));
    if (!resultType || !elementType)
      return failure();
    ValueRange operands = adaptor.getOperands();
    if (!isa<RankedTensorType>(type)) {
      rewriter.replaceOp(op, build(rewriter, loc, elementType, operands));
      return success();
    }
    unsigned n = cast<LLVM::LLVMStructType>(resultType).getBody().size();
    SmallVector<SmallVector<Value>> elements;
    for (Value operand : operands)
      elements.push_back(unpackOrSplat(rewriter, loc, operand, n));
    SmallVector<unsigned> sources =
        getRepeatedRegisters(op, n, rewriter, this->loopFacts);
    SmallVector<Value> results;
    for (unsigned i = 0; i < n; ++i) {
      if (sources[i] != i) {
        results.push_back(results[sources[i]]);
        continue;
      }
      SmallVector<Value> scalars;
      for (const auto &values : elements)
        scalars.push_back(values[i]);
      results.push_back(build(rewriter, loc, elementType, scalars));
    }
    rewriter.replaceOp(op, packLLElements(rewriter, loc, results, resultType));
    return success();
  }

private:
  Build build;
};

/// tt.bitcast: a no-op between pointers (opaque), else llvm.bitcast.
Value buildBitcast(OpBuilder &b, Location loc, Type type, ValueRange ops) {
  if (ops[0].getType() == type)
    return ops[0];
  return LLVM::BitcastOp::create(b, loc, type, ops[0]);
}
Value buildIntToPtr(OpBuilder &b, Location loc, Type type, ValueRange ops) {
  return LLVM::IntToPtrOp::create(b, loc, type, ops[0]);
}
Value buildPtrToInt(OpBuilder &b, Location loc, Type type, ValueRange ops) {
  return LLVM::PtrToIntOp::create(b, loc, type, ops[0]);
}
/// tt.mulhiui: the high half of the double-width unsigned product.
Value buildMulhiUI(OpBuilder &b, Location loc, Type type, ValueRange ops) {
  unsigned width = type.getIntOrFloatBitWidth();
  Type wide = b.getIntegerType(2 * width);
  Value x = LLVM::ZExtOp::create(b, loc, wide, ops[0]);
  Value y = LLVM::ZExtOp::create(b, loc, wide, ops[1]);
  Value product = LLVM::MulOp::create(b, loc, x, y);
  Value shift = LLVM::ConstantOp::create(b, loc, wide,
                                         b.getIntegerAttr(wide, width));
  return LLVM::TruncOp::create(b, loc, type,
                               LLVM::LShrOp::create(b, loc, product, shift));
}
/// tt.precise_sqrt / tt.precise_divf: LLVM's sqrt and fdiv are IEEE exact.
Value buildPreciseSqrt(OpBuilder &b, Location loc, Type type, ValueRange ops) {
  return LLVM::SqrtOp::create(b, loc, type, ops[0]);
}
Value buildPreciseDivF(OpBuilder &b, Location loc, Type type, ValueRange ops) {
  return LLVM::FDivOp::create(b, loc, type, ops[0], ops[1]);
}

/// Applies `build` to each element of a tt op's operands (scalars are used
/// for every element), once per run of equal registers, and replaces the
/// op's single result.
LogicalResult
lowerPerElement(Operation *op, ValueRange operands,
                const TypeConverter &converter,
                ConversionPatternRewriter &rewriter,
                const LoopFacts &loopFacts,
                function_ref<FailureOr<Value>(ValueRange scalars)> build) {
  Location loc = op->getLoc();
  Type type = op->getResult(0).getType();
  Type resultType = converter.convertType(type);
  if (!resultType)
    return failure();
  if (!isa<RankedTensorType>(type)) {
    FailureOr<Value> v = build(operands);
    if (failed(v))
      return failure();
    rewriter.replaceOp(op, *v);
    return success();
  }
  unsigned n = cast<LLVM::LLVMStructType>(resultType).getBody().size();
  SmallVector<SmallVector<Value>> elements;
  for (Value operand : operands)
    elements.push_back(unpackOrSplat(rewriter, loc, operand, n));
  SmallVector<unsigned> sources =
      getRepeatedRegisters(op, n, rewriter, loopFacts);
  SmallVector<Value> results;
  for (unsigned i = 0; i < n; ++i) {
    if (sources[i] != i) {
      results.push_back(results[sources[i]]);
      continue;
    }
    SmallVector<Value> scalars;
    for (const auto &values : elements)
      scalars.push_back(values[i]);
    FailureOr<Value> v = build(scalars);
    if (failed(v))
      return failure();
    results.push_back(*v);
  }
  rewriter.replaceOp(op, packLLElements(rewriter, loc, results, resultType));
  return success();
}

/// Lowers tt.fp_to_fp through the exact integer conversions of
/// FloatConversion.h (rounding rtne by default, rtz when asked).
struct FpToFpOpConversion : public ElementwisePattern<triton::FpToFpOp> {
  using ElementwisePattern::ElementwisePattern;

  LogicalResult
  lower(triton::FpToFpOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<FloatType>(getElementTypeOrSelf(op.getSrc().getType()));
    auto dstType = cast<FloatType>(getElementTypeOrSelf(op.getType()));
    for (FloatType type : {srcType, dstType})
      if (!isSupportedFloatFormat(type))
        return op.emitError() << "'tt.fp_to_fp' is not supported by "
                                 "--convert-tritongpu-to-musa yet from "
                              << srcType << " to " << dstType << " (" << type
                              << " is not a known float format)";
    bool rtz = op.getRounding() == triton::RoundingMode::RTZ;
    Location loc = op.getLoc();
    return lowerPerElement(
        op, adaptor.getOperands(), *getTypeConverter(), rewriter, loopFacts,
        [&](ValueRange s) -> FailureOr<Value> {
          return emitFloatConversion(rewriter, loc, s[0], srcType, dstType,
                                     rtz);
        });
  }
};

/// The bf16/f16 bits (i16) of the e2m1 value in the low nibble of `nibble`
/// (i16): sign, 2 exponent bits (bias 1), 1 mantissa bit. Every e2m1 value
/// is exact in both: normal ones rebias the exponent, the subnormal is 0.5.
Value decodeE2M1(OpBuilder &b, Location loc, Value nibble, FloatType type) {
  auto i16 = b.getI16Type();
  auto c = [&](int64_t v) {
    return LLVM::ConstantOp::create(b, loc, i16, b.getIntegerAttr(i16, v));
  };
  unsigned mantissa = type.isBF16() ? 7 : 10;
  int64_t bias = type.isBF16() ? 127 : 15;
  Value em = LLVM::AndOp::create(b, loc, nibble, c(0x7));
  // (e, m) moved to the top of the mantissa field, exponent rebiased by
  // bias - 1.
  Value normal = LLVM::AddOp::create(
      b, loc, LLVM::ShlOp::create(b, loc, em, c(mantissa - 1)),
      c((bias - 1) << mantissa));
  Value half = c((bias - 1) << mantissa);
  Value isNormal =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::uge, em, c(2));
  Value isHalf = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, em, c(1));
  Value magnitude = LLVM::SelectOp::create(
      b, loc, isNormal, normal,
      LLVM::SelectOp::create(b, loc, isHalf, half, c(0)));
  Value sign = LLVM::ShlOp::create(
      b, loc, LLVM::AndOp::create(b, loc, nibble, c(0x8)), c(12));
  return LLVM::BitcastOp::create(b, loc, type,
                                 LLVM::OrOp::create(b, loc, magnitude, sign));
}

/// Lowers ttg.fp4_to_fp where each thread holds both values of its bytes:
/// result register r takes the low (even coordinate along `axis`) or high
/// nibble of the source register holding coordinate / 2.
struct Fp4ToFpOpConversion : public MUSAPattern<triton::gpu::Fp4ToFpOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(triton::gpu::Fp4ToFpOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    auto floatType = dyn_cast<FloatType>(dstType.getElementType());
    if (!floatType || !(floatType.isBF16() || floatType.isF16()))
      return op.emitError() << "'ttg.fp4_to_fp' to " << dstType.getElementType()
                            << " is not supported by " << kPassFlag
                            << " (bf16 or f16 only)";
    auto emitError = [&] { return op.emitError(); };
    auto srcLayout = getLinearLayout(srcType, emitError);
    auto dstLayout = getLinearLayout(dstType, emitError);
    if (failed(srcLayout) || failed(dstLayout))
      return failure();
    unsigned axis = op.getAxis();
    auto registers =
        mapRegisters(*srcLayout, *dstLayout, [&](ArrayRef<int32_t> coords) {
          SmallVector<int32_t> src(coords);
          src[axis] /= 2;
          return src;
        });
    if (failed(registers))
      return op.emitError() << "'ttg.fp4_to_fp' from " << srcType << " to "
                            << dstType
                            << " splits bytes between threads, which is not "
                               "supported by "
                            << kPassFlag;
    Type structType = getTypeConverter()->convertType(dstType);
    if (!structType)
      return failure();
    Location loc = op.getLoc();
    SmallVector<Value> src = unpackLLElements(rewriter, loc, adaptor.getSrc());
    auto i16 = rewriter.getI16Type();
    SmallVector<Value> values;
    for (auto [r, srcRegister] : llvm::enumerate(*registers)) {
      bool high = applyLayout(*dstLayout, {{kRegister, int32_t(r)}})[axis] & 1;
      Value byte = LLVM::ZExtOp::create(rewriter, loc, i16, src[srcRegister]);
      if (high)
        byte = LLVM::LShrOp::create(
            rewriter, loc, byte,
            LLVM::ConstantOp::create(rewriter, loc, i16,
                                     rewriter.getIntegerAttr(i16, 4)));
      values.push_back(decodeE2M1(rewriter, loc, byte, floatType));
    }
    rewriter.replaceOp(op, packLLElements(rewriter, loc, values, structType));
    return success();
  }
};

/// Lowers tt.clampf to min(max(x, lo), hi) with llvm.maxnum/minnum; with
/// propagateNan = all a NaN in any input gives NaN (a select, rather than
/// llvm.maximum/minimum, which the LLVM 14 MUSA llc may not lower).
struct ClampFOpConversion : public ElementwisePattern<triton::ClampFOp> {
  using ElementwisePattern::ElementwisePattern;

  LogicalResult
  lower(triton::ClampFOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    bool propagate = op.getPropagateNan() == triton::PropagateNan::ALL;
    auto floatType = cast<FloatType>(getElementTypeOrSelf(op.getType()));
    return lowerPerElement(
        op, adaptor.getOperands(), *getTypeConverter(), rewriter, loopFacts,
        [&](ValueRange s) -> FailureOr<Value> {
          Value x = s[0], lo = s[1], hi = s[2];
          Value r = LLVM::MinNumOp::create(
              rewriter, loc, LLVM::MaxNumOp::create(rewriter, loc, x, lo), hi);
          if (!propagate)
            return r;
          auto uno = [&](Value a, Value b) {
            return LLVM::FCmpOp::create(rewriter, loc, LLVM::FCmpPredicate::uno,
                                        a, b);
          };
          Value xNaN = uno(x, x);
          Value boundNaN = uno(lo, hi);
          Value anyNaN = LLVM::OrOp::create(rewriter, loc, xNaN, boundNaN);
          Value nan = LLVM::ConstantOp::create(
              rewriter, loc, s[0].getType(),
              rewriter.getFloatAttr(
                  floatType, APFloat::getQNaN(floatType.getFloatSemantics())));
          return LLVM::SelectOp::create(rewriter, loc, anyNaN, nan, r)
              .getResult();
        });
  }
};

/// math.absf (tl.abs) on fp8 elements, which are i8 once converted: clears
/// the sign bit, bit 7 in every fp8 format. Before the generic elementwise
/// pattern, which cannot run LLVM's fabs on i8. In the fnuz formats 0x80 is
/// the NaN, not a negative zero, and stays (not in Triton's fp8e4b15, whose
/// codes are all finite, language/fp8e4b15.py).
struct Fp8AbsFOpConversion : public ElementwisePattern<math::AbsFOp> {
  Fp8AbsFOpConversion(const LLVMTypeConverter &converter,
                      const TargetInfo &targetInfo, const LoopFacts &loopFacts)
      : ElementwisePattern(converter, targetInfo, loopFacts,
                           kTensorPatternBenefit + 1) {}

  LogicalResult
  lower(math::AbsFOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    auto elem = dyn_cast<FloatType>(getElementTypeOrSelf(op.getType()));
    if (!elem || elem.getWidth() != 8)
      return failure();
    bool fnuz = isa<Float8E4M3FNUZType, Float8E5M2FNUZType>(elem);
    Location loc = op.getLoc();
    return lowerPerElement(
        op, adaptor.getOperands(), *getTypeConverter(), rewriter, loopFacts,
        [&](ValueRange s) -> FailureOr<Value> {
          Type i8 = s[0].getType();
          auto constant = [&](int64_t v) {
            return LLVM::ConstantOp::create(rewriter, loc, i8,
                                            rewriter.getIntegerAttr(i8, v));
          };
          Value cleared = LLVM::AndOp::create(rewriter, loc, s[0], constant(0x7f));
          if (!fnuz)
            return cleared;
          Value nan = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                           s[0], constant(0x80));
          return LLVM::SelectOp::create(rewriter, loc, nan, s[0], cleared)
              .getResult();
        });
  }
};

/// The declaration of device-library function `name` in `module`, added if
/// missing; fails if it exists with another type.
FailureOr<LLVM::LLVMFuncOp> getOrDeclareFunction(
    Operation *op, ConversionPatternRewriter &rewriter, StringRef name,
    LLVM::LLVMFunctionType type) {
  auto module = op->getParentOfType<ModuleOp>();
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name)) {
    if (existing.getFunctionType() != type) {
      op->emitError() << "'" << op->getName() << "' calls '" << name
                      << "' as " << type << " but it is declared as "
                      << existing.getFunctionType();
      return failure();
    }
    return existing;
  }
  if (module.lookupSymbol(name)) {
    op->emitError() << "'" << op->getName() << "' calls '" << name
                    << "', a name already used by a non-LLVM function";
    return failure();
  }
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(module.getBody());
  return LLVM::LLVMFuncOp::create(rewriter, op->getLoc(), name, type);
}

/// One call of `name` per element (per run of equal registers where the
/// call is pure): result type = the op's element type.
LogicalResult lowerToCalls(Operation *op, ValueRange operands, StringRef name,
                           const TypeConverter &converter,
                           ConversionPatternRewriter &rewriter,
                           const LoopFacts &loopFacts) {
  Type resultElem =
      converter.convertType(getElementTypeOrSelf(op->getResult(0).getType()));
  SmallVector<Type> argTypes;
  for (Value operand : op->getOperands())
    argTypes.push_back(
        converter.convertType(getElementTypeOrSelf(operand.getType())));
  if (!resultElem || llvm::is_contained(argTypes, Type()))
    return failure();
  auto fnType = LLVM::LLVMFunctionType::get(resultElem, argTypes);
  FailureOr<LLVM::LLVMFuncOp> fn =
      getOrDeclareFunction(op, rewriter, name, fnType);
  if (failed(fn))
    return failure();
  Location loc = op->getLoc();
  return lowerPerElement(op, operands, converter, rewriter, loopFacts,
                         [&](ValueRange s) -> FailureOr<Value> {
                           return LLVM::CallOp::create(rewriter, loc, *fn, s)
                               .getResult();
                         });
}

/// Lowers math.exp (tl.exp). On f32, as exp2(x * log2(e)): one multiply
/// and the GPU's native base-2 exponential, as Triton's NVIDIA and AMD
/// backends lower it, instead of LLVM's expansion of an accurate expf (in
/// flash attention's loop on the proxy 4x the instructions: range
/// reduction, rounding and scaling around the same ex2). Other types keep
/// llvm.exp.
struct ExpOpConversion : public ElementwisePattern<math::ExpOp> {
  ExpOpConversion(const LLVMTypeConverter &converter,
                  const TargetInfo &targetInfo,
                  const LoopFacts &loopFacts)
      : ElementwisePattern(converter, targetInfo, loopFacts,
                           kTensorPatternBenefit) {}

  LogicalResult
  lower(math::ExpOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elem = getElementTypeOrSelf(op.getType());
    if (failed(checkSameScalarType(op, elem, *getTypeConverter())))
      return failure();
    return lowerPerElement(
        op, adaptor.getOperands(), *getTypeConverter(), rewriter, loopFacts,
        [&](ValueRange s) -> FailureOr<Value> {
          if (!elem.isF32())
            return LLVM::ExpOp::create(rewriter, loc, elem, s[0]).getResult();
          Value log2e = LLVM::ConstantOp::create(
              rewriter, loc, elem, rewriter.getF32FloatAttr(M_LOG2E));
          Value scaled = LLVM::FMulOp::create(rewriter, loc, s[0], log2e);
          return LLVM::Exp2Op::create(rewriter, loc, elem, scaled).getResult();
        });
  }
};

/// Lowers an `OpTy` on f32 through a TargetInfo hook (`emitF32`: what
/// Triton's op means there, which need not be LLVM's correctly rounded
/// op), on other types to `LLVMOpTy`: arith.divf (Triton's `/`;
/// TargetInfo::divideF32, div.full.f32 on the GPU proxy, as Triton's
/// NVIDIA backend emits) and math.exp2 (TargetInfo::exp2F32).
template <typename OpTy, typename LLVMOpTy>
struct F32TargetOpConversion : public ElementwisePattern<OpTy> {
  using EmitF32 = Value (*)(const TargetInfo &, OpBuilder &, Location,
                            ValueRange);
  F32TargetOpConversion(const LLVMTypeConverter &converter,
                        const TargetInfo &targetInfo,
                        const LoopFacts &loopFacts,
                        EmitF32 emitF32)
      : ElementwisePattern<OpTy>(converter, targetInfo, loopFacts,
                                 kTensorPatternBenefit),
        emitF32(emitF32) {}

  LogicalResult
  lower(OpTy op, typename OpTy::Adaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elem = getElementTypeOrSelf(op.getType());
    if (failed(checkSameScalarType(op, elem, *this->getTypeConverter())))
      return failure();
    return lowerPerElement(
        op, adaptor.getOperands(), *this->getTypeConverter(), rewriter,
        this->loopFacts,
        [&](ValueRange s) -> FailureOr<Value> {
          if (elem.isF32())
            return emitF32(this->targetInfo, rewriter, loc, s);
          return LLVMOpTy::create(rewriter, loc, TypeRange{elem}, s)
              ->getResult(0);
        });
  }

  EmitF32 emitF32;
};

Value emitDivideF32(const TargetInfo &target, OpBuilder &b, Location loc,
                    ValueRange operands) {
  return target.divideF32(b, loc, operands[0], operands[1]);
}

Value emitExp2F32(const TargetInfo &target, OpBuilder &b, Location loc,
                  ValueRange operands) {
  return target.exp2F32(b, loc, operands[0]);
}

/// Lowers math.erf to MUSA libdevice's __mt_erf_f32 / __mt_erf_f64 (MUSA
/// has no erf intrinsic; the names are those of
/// triton_musa.language.libdevice.erf).
struct ErfOpConversion : public ElementwisePattern<math::ErfOp> {
  ErfOpConversion(const LLVMTypeConverter &converter,
                  const TargetInfo &targetInfo,
                  const LoopFacts &loopFacts)
      : ElementwisePattern(converter, targetInfo, loopFacts,
                           kTensorPatternBenefit) {}

  LogicalResult
  lower(math::ErfOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    Type elem = getElementTypeOrSelf(op.getType());
    StringRef name;
    if (elem.isF32())
      name = "__mt_erf_f32";
    else if (elem.isF64())
      name = "__mt_erf_f64";
    else
      return op.emitError() << "'math.erf' is not supported by "
                               "--convert-tritongpu-to-musa yet on "
                            << elem << " (f32, f64)";
    return lowerToCalls(op, adaptor.getOperands(), name, *getTypeConverter(),
                        rewriter, loopFacts);
  }
};

/// Lowers tt.extern_elementwise to one call per element of the named
/// function, declared in the module. The bitcode at `libpath` is linked
/// into the LLVM IR later; here only the MUSA libraries are accepted. MUSA's
/// libdevice (the SDK's mtgpu/bitcode/) exports some functions under CUDA's
/// `__nv_*` names, so those are refused only from another library.
struct ExternElementwiseOpConversion
    : public ElementwisePattern<triton::ExternElementwiseOp> {
  using ElementwisePattern::ElementwisePattern;

  LogicalResult
  lower(triton::ExternElementwiseOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    StringRef symbol = op.getSymbol();
    bool musaLibrary = op.getLibpath().contains("mtgpu/bitcode/");
    for (StringRef foreign : {"__nv_", "__ocml_", "__ockl_"})
      if (symbol.starts_with(foreign) && !(musaLibrary && foreign == "__nv_"))
        return op.emitError()
               << "'tt.extern_elementwise' calls '" << symbol
               << "' from another vendor's device library (" << op.getLibpath()
               << "), which cannot run on MUSA: use "
                  "triton_musa.language.libdevice (the SDK's "
                  "mtgpu/bitcode/libdevice)";
    return lowerToCalls(op, adaptor.getOperands(), symbol, *getTypeConverter(),
                        rewriter, loopFacts);
  }
};

/// Lowers tt.map_elementwise by inlining its region once per group of `pack`
/// elements of a thread: the region's blocks are cloned in front of the op's
/// continuation, entered with the group's operands (operand k's element j is
/// argument k * pack + j, as Triton's map_elementwise builds the block), and
/// each tt.map_elementwise.return branches to the next copy (the last to the
/// continuation, whose arguments are the results; result r of element j is
/// returned value r * pack + j). When a thread's element count is not a
/// multiple of `pack`, the last group is filled up with copies of its first
/// element and the results for the filler are dropped.
struct MapElementwiseOpConversion
    : public MUSAPattern<triton::MapElementwiseOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(triton::MapElementwiseOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    unsigned pack = op.getPack();
    Location loc = op.getLoc();
    SmallVector<Type> resultTypes, elemTypes;
    for (Type t : op.getResultTypes()) {
      Type converted = getTypeConverter()->convertType(t);
      Type elem = getTypeConverter()->convertType(getElementTypeOrSelf(t));
      if (!converted || !elem)
        return failure();
      resultTypes.push_back(converted);
      elemTypes.push_back(elem);
    }
    bool isTensor = isa<RankedTensorType>(op->getResult(0).getType());
    unsigned n =
        isTensor
            ? cast<LLVM::LLVMStructType>(resultTypes[0]).getBody().size()
            : 1;
    SmallVector<SmallVector<Value>> operands;
    for (Value operand : adaptor.getSrcs())
      operands.push_back(unpackOrSplat(rewriter, loc, operand, n));

    // Block structure: current -> copy 0 -> ... -> copy n-1 -> rest.
    Block *current = rewriter.getInsertionBlock();
    Block *rest = rewriter.splitBlock(current, rewriter.getInsertionPoint());
    Region &body = op.getScalarOp();
    SmallVector<SmallVector<Value>> results(op.getNumResults());
    SmallVector<Type> joinTypes;
    for (Type elem : elemTypes)
      joinTypes.append(pack, elem);
    Block *from = current;
    for (unsigned first = 0; first < n; first += pack) {
      // Where this group's returns go: a block taking its element results.
      SmallVector<Location> locs(joinTypes.size(), loc);
      Block *join = rewriter.createBlock(rest, joinTypes, locs);
      IRMapping mapping;
      rewriter.cloneRegionBefore(body, *rest->getParent(), join->getIterator(),
                                 mapping);
      Block *entry = mapping.lookup(&body.front());
      rewriter.setInsertionPointToEnd(from);
      SmallVector<Value> args;
      for (auto &values : operands)
        for (unsigned j = 0; j < pack; ++j)
          args.push_back(values[first + j < n ? first + j : first]);
      LLVM::BrOp::create(rewriter, loc, args, entry);
      for (Block &original : body) {
        Block *copy = mapping.lookup(&original);
        auto ret = dyn_cast<triton::MapElementwiseReturnOp>(copy->getTerminator());
        if (!ret)
          continue;
        rewriter.setInsertionPoint(ret);
        rewriter.replaceOpWithNewOp<LLVM::BrOp>(ret, ret.getOperands(), join);
      }
      for (unsigned r = 0; r < results.size(); ++r)
        for (unsigned j = 0; j < pack && first + j < n; ++j)
          results[r].push_back(join->getArgument(r * pack + j));
      from = join;
    }
    rewriter.setInsertionPointToEnd(from);
    LLVM::BrOp::create(rewriter, loc, ValueRange(), rest);
    rewriter.setInsertionPointToStart(rest);
    SmallVector<Value> replacements;
    for (auto [j, type] : llvm::enumerate(resultTypes))
      replacements.push_back(
          isTensor ? packLLElements(rewriter, loc, results[j], type)
                   : results[j][0]);
    rewriter.replaceOp(op, replacements);
    return success();
  }
};

template <typename... OpTys>
void addElementwise(const TypeConverter &converter, RewritePatternSet &patterns,
                    const LoopFacts &loopFacts) {
  (patterns.add<ElementwiseOpConversion>(converter, patterns.getContext(),
                                         OpTys::getOperationName(), loopFacts),
   ...);
}

} // namespace

void mlir::triton_musa::populateElementwiseOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo, const LoopFacts &loopFacts) {
  addElementwise<arith::AddFOp, arith::AddIOp, arith::AndIOp, arith::BitcastOp,
                 arith::CmpFOp, arith::CmpIOp, arith::DivSIOp,
                 arith::DivUIOp, arith::ExtFOp, arith::ExtSIOp, arith::ExtUIOp,
                 arith::FPToSIOp, arith::FPToUIOp, arith::MaxNumFOp,
                 arith::MaximumFOp, arith::MaxSIOp, arith::MaxUIOp,
                 arith::MinNumFOp, arith::MinimumFOp, arith::MinSIOp,
                 arith::MinUIOp, arith::MulFOp, arith::MulIOp, arith::NegFOp,
                 arith::OrIOp, arith::RemFOp, arith::RemSIOp, arith::RemUIOp,
                 arith::SelectOp, arith::ShLIOp, arith::ShRSIOp, arith::ShRUIOp,
                 arith::SIToFPOp, arith::SubFOp, arith::SubIOp, arith::TruncFOp,
                 arith::TruncIOp, arith::UIToFPOp, arith::XOrIOp>(
      typeConverter, patterns, loopFacts);
  addElementwise<math::AbsFOp, math::AbsIOp, math::CeilOp, math::CopySignOp,
                 math::CosOp, math::CountLeadingZerosOp,
                 math::CountTrailingZerosOp, math::CtPopOp, math::ExpM1Op, math::FloorOp, math::FmaOp,
                 math::LogOp, math::Log10Op, math::Log1pOp, math::Log2Op,
                 math::PowFOp, math::RoundEvenOp, math::RoundOp, math::RsqrtOp,
                 math::SinOp, math::SqrtOp, math::TruncOp>(
      typeConverter, patterns, loopFacts);
  patterns.add<TensorConstantOpConversion>(typeConverter, targetInfo);
  patterns.add<TritonElementwiseConversion<triton::BitcastOp>>(
      typeConverter, targetInfo, loopFacts, buildBitcast);
  patterns.add<TritonElementwiseConversion<triton::IntToPtrOp>>(
      typeConverter, targetInfo, loopFacts, buildIntToPtr);
  patterns.add<TritonElementwiseConversion<triton::PtrToIntOp>>(
      typeConverter, targetInfo, loopFacts, buildPtrToInt);
  patterns.add<TritonElementwiseConversion<triton::MulhiUIOp>>(
      typeConverter, targetInfo, loopFacts, buildMulhiUI);
  patterns.add<TritonElementwiseConversion<triton::PreciseSqrtOp>>(
      typeConverter, targetInfo, loopFacts, buildPreciseSqrt);
  patterns.add<TritonElementwiseConversion<triton::PreciseDivFOp>>(
      typeConverter, targetInfo, loopFacts, buildPreciseDivF);
  patterns.add<F32TargetOpConversion<arith::DivFOp, LLVM::FDivOp>>(
      typeConverter, targetInfo, loopFacts, emitDivideF32);
  patterns.add<F32TargetOpConversion<math::Exp2Op, LLVM::Exp2Op>>(
      typeConverter, targetInfo, loopFacts, emitExp2F32);
  patterns.add<Fp4ToFpOpConversion, MapElementwiseOpConversion>(typeConverter,
                                                               targetInfo);
  patterns.add<Fp8AbsFOpConversion>(typeConverter, targetInfo, loopFacts);
  patterns.add<FpToFpOpConversion, ClampFOpConversion, ErfOpConversion,
               ExpOpConversion, ExternElementwiseOpConversion>(
      typeConverter, targetInfo, loopFacts);

  // Scalars, including the per-element copies made above.
  arith::populateArithToLLVMConversionPatterns(typeConverter, patterns);
  populateMathToLLVMConversionPatterns(typeConverter, patterns);
}
