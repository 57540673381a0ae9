//===- LoadStoreOpToLLVM.cpp - tt.load, tt.store, tt.addptr -> LLVM ------===//
//
// A masked access becomes a branch around a plain llvm.load/llvm.store (the
// MUSA backend has no predicated memory instructions in LLVM IR); a masked
// load yields `other` (or zero) on the skipped path.
//
// Accesses are issued per vector of `vec` consecutive registers, one
// predicate per vector. `vec` comes from the axis analysis (AxisAnalysis.h)
// of the pointer (and mask) tensors: the contiguity of the addresses, the
// alignment their divisibility proves and the constancy of the mask. The
// width is capped by the registers the layout holds consecutively along one
// dimension, by the alignment the divisibility proves and by 16 bytes.
//
//===----------------------------------------------------------------------===//

#include "conversion/TritonGPUToMUSA/AxisAnalysis.h"
#include "conversion/TritonGPUToMUSA/LayoutIndices.h"
#include "conversion/TritonGPUToMUSA/PatternTritonGPUOpToLLVM.h"
#include "conversion/TritonGPUToMUSA/PredicatedRegion.h"
#include "conversion/TritonGPUToMUSA/Utility.h"

#include "dialects/Triton/IR/Dialect.h"

#include "dialects/TritonGPU/IR/Dialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::triton_musa;

namespace {

/// The vector of `type` holding `elements`, built from undef by inserting
/// them in order.
Value buildVector(OpBuilder &b, Location loc, Type type,
                  ArrayRef<Value> elements) {
  Value vector = LLVM::UndefOp::create(b, loc, type);
  for (auto [j, element] : llvm::enumerate(elements))
    vector = LLVM::InsertElementOp::create(b, loc, vector, element,
                                           i32Const(b, loc, j));
  return vector;
}

unsigned getAlignment(Type type) {
  return std::max<unsigned>(1, type.getIntOrFloatBitWidth() / 8);
}

/// Lowers tt.addptr to one llvm.getelementptr per element.
struct AddPtrOpConversion : public MUSAPattern<triton::AddPtrOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(triton::AddPtrOp op, OpAdaptor adaptor,
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
struct LoadOpConversion : public MUSAPattern<triton::LoadOp> {
  LoadOpConversion(const LLVMTypeConverter &converter, const TargetInfo &targetInfo,
                   const LoopFacts &loopFacts)
      : MUSAPattern(converter, targetInfo), loopFacts(loopFacts) {}

  LogicalResult
  lower(triton::LoadOp op, OpAdaptor adaptor,
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

    unsigned vec =
        getAccessVectorWidth(op.getPtr(), op.getMask(), rewriter, loopFacts);
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
          otherValue = buildVector(rewriter, loc, accessType,
                                   ArrayRef<Value>(others).slice(i, vec));
        }
        // A vector shares one mask: the width only grows where the mask is
        // constant over it.
        if (!op.getIsVolatile())
          v = targetInfo.loadGlobalIf(rewriter, loc, accessType, ptrs[i],
                                      masks[i], otherValue);
        if (!v)
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

  const LoopFacts &loopFacts;
};

/// Lowers tt.store of a pointer or a tensor of pointers (mask supported) to
/// global stores; of the threads (and registers) holding copies of an
/// element only one writes it.
struct StoreOpConversion : public MUSAPattern<triton::StoreOp> {
  StoreOpConversion(const LLVMTypeConverter &converter, const TargetInfo &targetInfo,
                    const LoopFacts &loopFacts)
      : MUSAPattern(converter, targetInfo), loopFacts(loopFacts) {}

  LogicalResult
  lower(triton::StoreOp op, OpAdaptor adaptor,
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
    } else {
      // A scalar store happens once per program, as in Triton: thread 0 of
      // the block issues it. (If every thread stored, a program's
      // `tl.store(p, tl.load(p) + 1)` would add once per thread that loads
      // after another's store.)
      Value tid = targetInfo.threadId(rewriter, loc, 0);
      Value zero = i32Const(rewriter, loc, 0);
      owner = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                   tid, zero);
    }

    unsigned vec =
        getAccessVectorWidth(op.getPtr(), op.getMask(), rewriter, loopFacts);
    unsigned alignment = getAlignment(elementType) * vec;
    for (unsigned i = 0; i < n; i += vec) {
      if (i & duplicateRegisters)
        continue;
      Value value = values[i];
      if (vec > 1) {
        value = buildVector(rewriter, loc,
                            VectorType::get({int64_t(vec)}, elementType),
                            ArrayRef<Value>(values).slice(i, vec));
      }
      auto store = [&]() -> Value {
        LLVM::StoreOp::create(rewriter, loc, value, ptrs[i], alignment);
        return Value();
      };
      Value pred = andPredicates(rewriter, loc, owner,
                                 masks.empty() ? Value() : masks[i]);
      if (!pred || !targetInfo.storeGlobalIf(rewriter, loc, value, ptrs[i],
                                             pred))
        emitIfThen(rewriter, loc, pred, store, Value());
    }
    rewriter.eraseOp(op);
    return success();
  }

  const LoopFacts &loopFacts;
};

} // namespace

void mlir::triton_musa::populateLoadStoreOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo, const LoopFacts &loopFacts) {
  patterns.add<AddPtrOpConversion>(typeConverter, targetInfo);
  patterns.add<LoadOpConversion, StoreOpConversion>(typeConverter, targetInfo,
                                                    loopFacts);
}
