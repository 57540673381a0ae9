//===- ElementwiseOpToLLVM.cpp - arith/math on tensors -> LLVM -----------===//
//
// An elementwise op on tensors is applied to each register: the pattern
// clones the op once per element with scalar operands, and the upstream
// arith -> LLVM and math -> LLVM patterns (in the same conversion) lower
// the scalar copies. Only ops those patterns lower are listed, so anything
// else is reported as unsupported before the conversion starts.
//
//===----------------------------------------------------------------------===//

#include "conversion/TritonGPUToMUSA/PatternTritonGPUOpToLLVM.h"
#include "conversion/TritonGPUToMUSA/Utility.h"

#include "dialects/Triton/IR/Dialect.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/IRMapping.h"

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

/// Lowers an arith/math elementwise op with a tensor result by applying the
/// op to each register (scalar operands are used for every register).
class ElementwiseOpConversion : public ConversionPattern {
public:
  ElementwiseOpConversion(const TypeConverter &converter, MLIRContext *ctx,
                          StringRef opName)
      : ConversionPattern(converter, opName, kTensorPatternBenefit, ctx) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
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
    SmallVector<Value> results;
    for (unsigned i = 0; i < n; ++i) {
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
};

/// Lowers a splat arith.constant tensor: every register holds the constant.
struct TensorConstantOpConversion
    : public ConvertOpToLLVMPattern<arith::ConstantOp> {
  TensorConstantOpConversion(const LLVMTypeConverter &converter)
      : ConvertOpToLLVMPattern(converter, kTensorPatternBenefit) {}

  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor adaptor,
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
    if (failed(checkSameScalarType(op, type, *getTypeConverter())))
      return failure();
    Value scalar = arith::ConstantOp::create(rewriter, op.getLoc(),
                                             dense.getSplatValue<TypedAttr>());
    SmallVector<Value> values(structType.getBody().size(), scalar);
    rewriter.replaceOp(
        op, packLLElements(rewriter, op.getLoc(), values, structType));
    return success();
  }
};

/// Lowers a tt elementwise op on scalars or tensors: `build` makes the LLVM
/// form of one element from the element's (converted) operands.
template <typename OpTy>
class TritonElementwiseConversion : public ConvertOpToLLVMPattern<OpTy> {
public:
  using Build = Value (*)(OpBuilder &b, Location loc, Type resultType,
                          ValueRange operands);

  TritonElementwiseConversion(const LLVMTypeConverter &converter, Build build)
      : ConvertOpToLLVMPattern<OpTy>(converter), build(build) {}

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
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
    SmallVector<Value> results;
    for (unsigned i = 0; i < n; ++i) {
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

template <typename... OpTys>
void addElementwise(const TypeConverter &converter,
                    RewritePatternSet &patterns) {
  (patterns.add<ElementwiseOpConversion>(converter, patterns.getContext(),
                                         OpTys::getOperationName()),
   ...);
}

} // namespace

void mlir::triton_musa::populateElementwiseOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo) {
  addElementwise<arith::AddFOp, arith::AddIOp, arith::AndIOp, arith::BitcastOp,
                 arith::CmpFOp, arith::CmpIOp, arith::DivFOp, arith::DivSIOp,
                 arith::DivUIOp, arith::ExtFOp, arith::ExtSIOp, arith::ExtUIOp,
                 arith::FPToSIOp, arith::FPToUIOp, arith::MaxNumFOp,
                 arith::MaximumFOp, arith::MaxSIOp, arith::MaxUIOp,
                 arith::MinNumFOp, arith::MinimumFOp, arith::MinSIOp,
                 arith::MinUIOp, arith::MulFOp, arith::MulIOp, arith::NegFOp,
                 arith::OrIOp, arith::RemFOp, arith::RemSIOp, arith::RemUIOp,
                 arith::SelectOp, arith::ShLIOp, arith::ShRSIOp, arith::ShRUIOp,
                 arith::SIToFPOp, arith::SubFOp, arith::SubIOp, arith::TruncFOp,
                 arith::TruncIOp, arith::UIToFPOp, arith::XOrIOp>(typeConverter,
                                                                  patterns);
  addElementwise<math::AbsFOp, math::AbsIOp, math::CeilOp, math::CopySignOp,
                 math::CosOp, math::CountLeadingZerosOp,
                 math::CountTrailingZerosOp, math::CtPopOp, math::ExpOp,
                 math::Exp2Op, math::ExpM1Op, math::FloorOp, math::FmaOp,
                 math::LogOp, math::Log10Op, math::Log1pOp, math::Log2Op,
                 math::PowFOp, math::RoundEvenOp, math::RoundOp, math::RsqrtOp,
                 math::SinOp, math::SqrtOp, math::TruncOp>(typeConverter,
                                                           patterns);
  patterns.add<TensorConstantOpConversion>(typeConverter);
  patterns.add<TritonElementwiseConversion<triton::BitcastOp>>(typeConverter,
                                                               buildBitcast);
  patterns.add<TritonElementwiseConversion<triton::IntToPtrOp>>(typeConverter,
                                                                buildIntToPtr);
  patterns.add<TritonElementwiseConversion<triton::PtrToIntOp>>(typeConverter,
                                                                buildPtrToInt);
  patterns.add<TritonElementwiseConversion<triton::MulhiUIOp>>(typeConverter,
                                                               buildMulhiUI);
  patterns.add<TritonElementwiseConversion<triton::PreciseSqrtOp>>(
      typeConverter, buildPreciseSqrt);
  patterns.add<TritonElementwiseConversion<triton::PreciseDivFOp>>(
      typeConverter, buildPreciseDivF);

  // Scalars, including the per-element copies made above.
  arith::populateArithToLLVMConversionPatterns(typeConverter, patterns);
  populateMathToLLVMConversionPatterns(typeConverter, patterns);
}
