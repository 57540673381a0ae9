//===- LoadStoreOpToLLVM.cpp - tt.load, tt.store, tt.addptr -> LLVM ------===//
//
// A masked access becomes a branch around a plain llvm.load/llvm.store (the
// MUSA backend has no predicated memory instructions in LLVM IR); a masked
// load yields `other` (or zero) on the skipped path. Accesses are issued per
// vector of `vec` consecutive registers: vec is 1 until axis information
// (tt.divisibility / tt.contiguity) is propagated to this stage.
//
//===----------------------------------------------------------------------===//

#include "conversion/TritonGPUToMUSA/LayoutIndices.h"
#include "conversion/TritonGPUToMUSA/PatternTritonGPUOpToLLVM.h"
#include "conversion/TritonGPUToMUSA/Utility.h"

#include "dialects/Triton/IR/Dialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"

using namespace mlir;
using namespace mlir::triton_musa;

namespace {

/// Registers accessed together by one memory instruction.
unsigned getVectorWidth(Value /*ptr*/) {
  // TODO: the contiguity and divisibility of `ptr` (axis analysis) decide
  // this; without them every access is scalar.
  return 1;
}

unsigned getAlignment(Type type) {
  return std::max<unsigned>(1, type.getIntOrFloatBitWidth() / 8);
}

/// Emits `if (pred) { thenBody } ` as a diamond of blocks and leaves the
/// insertion point before the op being rewritten, in the continuation block.
/// `thenBody` returns the value produced on the taken path (or null);
/// `elseValue` is produced otherwise. Returns the merged value, if any.
Value emitIfThen(ConversionPatternRewriter &rewriter, Location loc, Value pred,
                 function_ref<Value()> thenBody, Value elseValue) {
  Block *current = rewriter.getInsertionBlock();
  Block *rest = rewriter.splitBlock(current, rewriter.getInsertionPoint());
  SmallVector<Type> mergedTypes;
  SmallVector<Location> mergedLocs;
  if (elseValue) {
    mergedTypes.push_back(elseValue.getType());
    mergedLocs.push_back(loc);
  }
  Block *join = rewriter.createBlock(rest, mergedTypes, mergedLocs);
  LLVM::BrOp::create(rewriter, loc, ValueRange(), rest);
  Block *then = rewriter.createBlock(join);
  Value produced = thenBody();
  LLVM::BrOp::create(rewriter, loc,
                     produced ? ValueRange(produced) : ValueRange(), join);
  rewriter.setInsertionPointToEnd(current);
  LLVM::CondBrOp::create(rewriter, loc, pred, then, ValueRange(), join,
                         elseValue ? ValueRange(elseValue) : ValueRange());
  rewriter.setInsertionPointToStart(rest);
  return elseValue ? join->getArgument(0) : Value();
}

/// Lowers tt.addptr to one llvm.getelementptr per element.
struct AddPtrOpConversion : public ConvertOpToLLVMPattern<triton::AddPtrOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(triton::AddPtrOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto ptrType =
        cast<triton::PointerType>(getElementTypeOrSelf(op.getType()));
    Type elementType =
        getTypeConverter()->convertType(ptrType.getPointeeType());
    Type llvmPtrType = getTypeConverter()->convertType(ptrType);
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!elementType || !llvmPtrType || !resultType)
      return failure();
    if (!isa<RankedTensorType>(op.getType())) {
      rewriter.replaceOpWithNewOp<LLVM::GEPOp>(op, llvmPtrType, elementType,
                                               adaptor.getPtr(),
                                               ValueRange(adaptor.getOffset()));
      return success();
    }
    SmallVector<Value> ptrs = unpackLLElements(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> offsets =
        unpackLLElements(rewriter, loc, adaptor.getOffset());
    SmallVector<Value> results;
    for (auto [ptr, offset] : llvm::zip_equal(ptrs, offsets))
      results.push_back(LLVM::GEPOp::create(
          rewriter, loc, llvmPtrType, elementType, ptr, ValueRange(offset)));
    rewriter.replaceOp(op, packLLElements(rewriter, loc, results, resultType));
    return success();
  }
};

/// Lowers tt.load of a pointer or a tensor of pointers (mask and other
/// supported) to global loads.
struct LoadOpConversion : public ConvertOpToLLVMPattern<triton::LoadOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(triton::LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (triton::isTensorPointerType(op.getPtr().getType()))
      return op.emitError("'tt.load' of a block pointer is not supported by "
                          "--convert-tritongpu-to-musa yet");
    Type valueType = getElementTypeOrSelf(op.getType());
    Type elementType = getTypeConverter()->convertType(valueType);
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!elementType || !resultType)
      return failure();

    SmallVector<Value> ptrs = unpackLLElements(rewriter, loc, adaptor.getPtr());
    unsigned n = ptrs.size();
    SmallVector<Value> masks, others;
    if (adaptor.getMask())
      masks = unpackOrSplat(rewriter, loc, adaptor.getMask(), n);
    if (adaptor.getOther())
      others = unpackOrSplat(rewriter, loc, adaptor.getOther(), n);

    unsigned vec = getVectorWidth(op.getPtr());
    Type accessType =
        vec == 1 ? elementType : VectorType::get({int64_t(vec)}, elementType);
    unsigned alignment = getAlignment(elementType) * vec;
    SmallVector<Value> loaded;
    for (unsigned i = 0; i < n; i += vec) {
      auto load = [&]() -> Value {
        return LLVM::LoadOp::create(rewriter, loc, accessType, ptrs[i],
                                    alignment, op.getIsVolatile());
      };
      Value v;
      if (masks.empty()) {
        v = load();
      } else {
        Value otherValue;
        if (others.empty()) {
          otherValue = LLVM::ZeroOp::create(rewriter, loc, accessType);
        } else if (vec == 1) {
          otherValue = others[i];
        } else {
          otherValue = LLVM::UndefOp::create(rewriter, loc, accessType);
          for (unsigned j = 0; j < vec; ++j)
            otherValue = LLVM::InsertElementOp::create(
                rewriter, loc, otherValue, others[i + j],
                i32Const(rewriter, loc, j));
        }
        // A vector shares one mask: the width only grows where the mask is
        // constant over it.
        v = emitIfThen(rewriter, loc, masks[i], load, otherValue);
      }
      if (vec == 1) {
        loaded.push_back(v);
        continue;
      }
      for (unsigned j = 0; j < vec; ++j)
        loaded.push_back(LLVM::ExtractElementOp::create(
            rewriter, loc, v, i32Const(rewriter, loc, j)));
    }
    if (!isa<RankedTensorType>(op.getType()))
      rewriter.replaceOp(op, loaded.front());
    else
      rewriter.replaceOp(op, packLLElements(rewriter, loc, loaded, resultType));
    return success();
  }
};

/// Lowers tt.store of a pointer or a tensor of pointers (mask supported) to
/// global stores; of the threads (and registers) holding copies of an
/// element only one writes it.
struct StoreOpConversion : public ConvertOpToLLVMPattern<triton::StoreOp> {
  StoreOpConversion(TritonGPUToMUSATypeConverter &typeConverter,
                    const TargetInfo &targetInfo)
      : ConvertOpToLLVMPattern(typeConverter), targetInfo(targetInfo) {}

  LogicalResult
  matchAndRewrite(triton::StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (triton::isTensorPointerType(op.getPtr().getType()))
      return op.emitError("'tt.store' of a block pointer is not supported by "
                          "--convert-tritongpu-to-musa yet");
    Type elementType = getTypeConverter()->convertType(
        getElementTypeOrSelf(op.getValue().getType()));
    if (!elementType)
      return failure();

    SmallVector<Value> ptrs = unpackLLElements(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> values =
        unpackLLElements(rewriter, loc, adaptor.getValue());
    unsigned n = ptrs.size();
    SmallVector<Value> masks;
    if (adaptor.getMask())
      masks = unpackOrSplat(rewriter, loc, adaptor.getMask(), n);

    Value owner;
    int32_t duplicateRegisters = 0;
    if (auto type = dyn_cast<RankedTensorType>(op.getPtr().getType())) {
      auto layout = getLinearLayout(type, [&] { return op.emitError(); });
      if (failed(layout))
        return failure();
      owner = emitOwnerPredicate(rewriter, loc, targetInfo, *layout);
      duplicateRegisters = getDuplicateRegisterMask(*layout);
    }

    unsigned vec = getVectorWidth(op.getPtr());
    unsigned alignment = getAlignment(elementType) * vec;
    for (unsigned i = 0; i < n; i += vec) {
      if (i & duplicateRegisters)
        continue;
      Value value = values[i];
      if (vec > 1) {
        value = LLVM::UndefOp::create(
            rewriter, loc, VectorType::get({int64_t(vec)}, elementType));
        for (unsigned j = 0; j < vec; ++j)
          value = LLVM::InsertElementOp::create(
              rewriter, loc, value, values[i + j], i32Const(rewriter, loc, j));
      }
      auto store = [&]() -> Value {
        LLVM::StoreOp::create(rewriter, loc, value, ptrs[i], alignment);
        return Value();
      };
      Value pred = owner;
      if (!masks.empty())
        pred =
            pred
                ? LLVM::AndOp::create(rewriter, loc, pred, masks[i]).getResult()
                : masks[i];
      if (pred)
        emitIfThen(rewriter, loc, pred, store, Value());
      else
        store();
    }
    rewriter.eraseOp(op);
    return success();
  }

private:
  const TargetInfo &targetInfo;
};

} // namespace

void mlir::triton_musa::populateLoadStoreOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo) {
  patterns.add<AddPtrOpConversion, LoadOpConversion>(typeConverter);
  patterns.add<StoreOpConversion>(typeConverter, targetInfo);
}
