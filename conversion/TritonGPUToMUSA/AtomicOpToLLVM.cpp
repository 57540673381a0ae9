//===- AtomicOpToLLVM.cpp - tt.atomic_rmw, tt.atomic_cas -> LLVM ----------===//
//
// Each element becomes one LLVM `atomicrmw` / `cmpxchg` on global memory,
// issued under its mask by exactly one thread:
//  - tensors: of the threads (and registers) holding copies of an element,
//    only the owner (emitOwnerPredicate, duplicate registers skipped)
//    issues it;
//  - scalars: thread 0 of the block issues it.
// The old value must then reach every copy. Duplicate registers take it
// from the register they repeat. Where other threads hold copies (scalars,
// tensors whose layout broadcasts over lanes or warps) and the result is
// used, the issuing thread writes it to the op's scratch shared memory
// (getAtomicScratchBytes), a barrier follows, and every thread reads it.
//
// Memory semantics map to LLVM orderings (relaxed -> monotonic, acquire,
// release, acq_rel); the scope maps to the target's syncscope
// (TargetInfo::getSyncScope). Float max/min never reach here from Triton
// 3.6 (the frontend rewrites them to integer max/umin on the bits) and
// LLVM 14 has no atomicrmw fmax/fmin: they are reported.
//
//===----------------------------------------------------------------------===//

#include "conversion/TritonGPUToMUSA/LayoutIndices.h"
#include "conversion/TritonGPUToMUSA/PatternTritonGPUOpToLLVM.h"
#include "conversion/TritonGPUToMUSA/PredicatedRegion.h"
#include "target/Scratch.h"
#include "conversion/TritonGPUToMUSA/Utility.h"

#include "dialects/Triton/IR/Dialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"

using namespace mlir;
using namespace mlir::triton_musa;
using mlir::triton_musa::LinearLayout;

namespace {


unsigned getElementBytes(Type type) {
  unsigned bits = getElementTypeOrSelf(type).getIntOrFloatBitWidth();
  return std::max<unsigned>(1, bits / 8);
}

/// Whether the old value, once loaded by the issuing thread, must be passed
/// to other threads through shared memory.
FailureOr<bool> needsSharedBroadcast(Operation *op) {
  Value result = op->getResult(0);
  if (result.use_empty())
    return false;
  auto type = dyn_cast<RankedTensorType>(result.getType());
  if (!type)
    return true;
  auto layout = getLinearLayout(type, [&] { return op->emitError(); });
  if (failed(layout))
    return failure();
  for (const auto &[name, mask] : layout->getFreeVariableMasks())
    if ((name == kLane || name == kWarp) && mask != 0)
      return true;
  return false;
}

LLVM::AtomicOrdering getOrdering(triton::MemSemantic sem) {
  switch (sem) {
  case triton::MemSemantic::RELAXED:
    return LLVM::AtomicOrdering::monotonic;
  case triton::MemSemantic::ACQUIRE:
    return LLVM::AtomicOrdering::acquire;
  case triton::MemSemantic::RELEASE:
    return LLVM::AtomicOrdering::release;
  case triton::MemSemantic::ACQUIRE_RELEASE:
    return LLVM::AtomicOrdering::acq_rel;
  }
  return LLVM::AtomicOrdering::acq_rel;
}

/// A cmpxchg's failure ordering: the load part of its success ordering.
LLVM::AtomicOrdering getFailureOrdering(LLVM::AtomicOrdering success) {
  if (success == LLVM::AtomicOrdering::acquire ||
      success == LLVM::AtomicOrdering::acq_rel)
    return LLVM::AtomicOrdering::acquire;
  return LLVM::AtomicOrdering::monotonic;
}

MemoryScope getScope(triton::MemSyncScope scope) {
  switch (scope) {
  case triton::MemSyncScope::CTA:
    return MemoryScope::Block;
  case triton::MemSyncScope::GPU:
    return MemoryScope::Device;
  case triton::MemSyncScope::SYSTEM:
    return MemoryScope::System;
  }
  return MemoryScope::System;
}

/// The LLVM operation of `kind` on elements of `type`, or failure.
FailureOr<LLVM::AtomicBinOp> getBinOp(triton::RMWOp kind, Type type) {
  bool isFloat = isa<FloatType>(type);
  switch (kind) {
  case triton::RMWOp::ADD:
  case triton::RMWOp::FADD:
    return isFloat ? LLVM::AtomicBinOp::fadd : LLVM::AtomicBinOp::add;
  case triton::RMWOp::XCHG:
    // Floats are exchanged as integers of the same width.
    return LLVM::AtomicBinOp::xchg;
  default:
    break;
  }
  if (isFloat)
    return failure();
  switch (kind) {
  case triton::RMWOp::AND:
    return LLVM::AtomicBinOp::_and;
  case triton::RMWOp::OR:
    return LLVM::AtomicBinOp::_or;
  case triton::RMWOp::XOR:
    return LLVM::AtomicBinOp::_xor;
  case triton::RMWOp::MAX:
    return LLVM::AtomicBinOp::max;
  case triton::RMWOp::MIN:
    return LLVM::AtomicBinOp::min;
  case triton::RMWOp::UMAX:
    return LLVM::AtomicBinOp::umax;
  case triton::RMWOp::UMIN:
    return LLVM::AtomicBinOp::umin;
  default:
    return failure();
  }
}

Value bitcastIfNeeded(OpBuilder &b, Location loc, Value v, Type type) {
  if (v.getType() == type)
    return v;
  return LLVM::BitcastOp::create(b, loc, type, v);
}

/// Emits the atomic of one element (pointer `ptr`; `operands` are the
/// element's value, or compare and value) and returns the old value.
using EmitAtomic = function_ref<Value(Value ptr, ArrayRef<Value> operands)>;

/// The shared driver of both patterns. `operands` lists, per element
/// operand (value; or compare and value), its converted form.
LogicalResult lowerAtomic(Operation *op, Value ptr, ArrayRef<Value> operands,
                          Value mask, Type elementType,
                          const LLVMTypeConverter &converter,
                          const TargetInfo &targetInfo, EmitAtomic emitAtomic,
                          ConversionPatternRewriter &rewriter) {
  Location loc = op->getLoc();
  Type resultType = converter.convertType(op->getResult(0).getType());
  if (!resultType)
    return failure();
  auto broadcast = needsSharedBroadcast(op);
  if (failed(broadcast))
    return failure();
  Value zero = LLVM::ZeroOp::create(rewriter, loc, elementType);

  auto tensorType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!tensorType) {
    // Scalar: thread 0 of the block issues it.
    Value tid = targetInfo.threadId(rewriter, loc, 0);
    Value isFirst = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                         tid, i32Const(rewriter, loc, 0));
    Value pred = andPredicates(rewriter, loc, isFirst, mask);
    Value old = emitIfThen(
        rewriter, loc, pred, [&] { return emitAtomic(ptr, operands); }, zero);
    if (*broadcast) {
      auto scratch = getScratchPointer(rewriter, loc, op, targetInfo);
      if (failed(scratch))
        return failure();
      emitIfThen(
          rewriter, loc, isFirst,
          [&] {
            LLVM::StoreOp::create(rewriter, loc, old, *scratch);
            return Value();
          },
          Value());
      targetInfo.sharedMemoryBarrier(rewriter, loc);
      old = LLVM::LoadOp::create(rewriter, loc, elementType, *scratch);
    }
    rewriter.replaceOp(op, old);
    return success();
  }

  auto layout = getLinearLayout(tensorType, [&] { return op->emitError(); });
  if (failed(layout))
    return failure();
  Value owner = emitOwnerPredicate(rewriter, loc, targetInfo, *layout);
  int32_t duplicateRegisters = getDuplicateRegisterMask(*layout);
  SmallVector<Value> ptrs = unpackLLElements(rewriter, loc, ptr);
  unsigned n = ptrs.size();
  SmallVector<SmallVector<Value>> values;
  for (Value operand : operands)
    values.push_back(unpackOrSplat(rewriter, loc, operand, n));
  SmallVector<Value> masks;
  if (mask)
    masks = unpackOrSplat(rewriter, loc, mask, n);

  SmallVector<Value> results(n);
  for (unsigned i = 0; i < n; ++i) {
    if (i & duplicateRegisters) {
      // Register i repeats register i without its duplicate bits (whose
      // bases are zero), which comes first.
      results[i] = results[i & ~duplicateRegisters];
      continue;
    }
    SmallVector<Value> elementOperands;
    for (auto &v : values)
      elementOperands.push_back(v[i]);
    Value pred =
        andPredicates(rewriter, loc, owner, masks.empty() ? Value() : masks[i]);
    results[i] = emitIfThen(
        rewriter, loc, pred,
        [&] { return emitAtomic(ptrs[i], elementOperands); }, zero);
  }

  if (*broadcast) {
    // The owners publish the old values at their row-major element index;
    // every copy reads them back.
    auto scratch = getScratchPointer(rewriter, loc, op, targetInfo);
    if (failed(scratch))
      return failure();
    SmallVector<SmallVector<Value>> indices =
        emitIndices(rewriter, loc, targetInfo, *layout);
    ArrayRef<int64_t> shape = tensorType.getShape();
    SmallVector<Value> slots(n);
    auto sharedPtr = (*scratch).getType();
    for (unsigned i = 0; i < n; ++i) {
      Value linear;
      int64_t stride = 1;
      for (int d = int(shape.size()) - 1; d >= 0; --d) {
        Value term = indices[i][d];
        if (stride != 1)
          term = LLVM::MulOp::create(rewriter, loc, term,
                                     i32Const(rewriter, loc, stride));
        linear = linear ? LLVM::AddOp::create(rewriter, loc, linear, term)
                              .getResult()
                        : term;
        stride *= shape[d];
      }
      slots[i] = LLVM::GEPOp::create(rewriter, loc, sharedPtr, elementType,
                                     *scratch, ValueRange{linear});
    }
    auto publish = [&]() -> Value {
      for (unsigned i = 0; i < n; ++i)
        if (!(i & duplicateRegisters))
          LLVM::StoreOp::create(rewriter, loc, results[i], slots[i]);
      return Value();
    };
    emitIfThen(rewriter, loc, owner, publish, Value());
    targetInfo.sharedMemoryBarrier(rewriter, loc);
    for (unsigned i = 0; i < n; ++i)
      results[i] = LLVM::LoadOp::create(rewriter, loc, elementType, slots[i]);
  }
  rewriter.replaceOp(op, packLLElements(rewriter, loc, results, resultType));
  return success();
}

/// What both atomics take from the op: the element type (as written and
/// converted), the memory ordering, the target's sync scope and the
/// alignment of one element.
struct AtomicAccess {
  Type valueType, elementType;
  LLVM::AtomicOrdering ordering;
  StringRef scope;
  unsigned alignment;
};

template <typename OpTy>
FailureOr<AtomicAccess> getAtomicAccess(OpTy op,
                                        const LLVMTypeConverter &converter,
                                        const TargetInfo &targetInfo) {
  Type valueType = getElementTypeOrSelf(op.getType());
  Type elementType = converter.convertType(valueType);
  if (!elementType)
    return failure();
  return AtomicAccess{valueType, elementType, getOrdering(op.getSem()),
                      targetInfo.getSyncScope(getScope(op.getScope())),
                      getElementBytes(valueType)};
}

/// Lowers tt.atomic_rmw (scalar or tensor, masked or not) to `atomicrmw`.
struct AtomicRMWOpConversion : public MUSAPattern<triton::AtomicRMWOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(triton::AtomicRMWOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto access = getAtomicAccess(op, *getTypeConverter(), targetInfo);
    if (failed(access))
      return failure();
    Type valueType = access->valueType, elementType = access->elementType;
    auto binOp = getBinOp(op.getAtomicRmwOp(), valueType);
    if (failed(binOp))
      return op.emitError()
             << "'tt.atomic_rmw' " << stringifyRMWOp(op.getAtomicRmwOp())
             << " on " << valueType << " is not supported by " << kPassFlag
             << " yet (LLVM 14 has no atomic fmax/fmin; Triton rewrites float "
                "max/min into integer atomics)";
    // Floats are exchanged as integers of the same width.
    Type atomicType = elementType;
    if (*binOp == LLVM::AtomicBinOp::xchg && isa<FloatType>(elementType))
      atomicType = rewriter.getIntegerType(elementType.getIntOrFloatBitWidth());
    auto emitAtomic = [&](Value ptr, ArrayRef<Value> operands) -> Value {
      Value val = bitcastIfNeeded(rewriter, loc, operands[0], atomicType);
      Value old = LLVM::AtomicRMWOp::create(rewriter, loc, *binOp, ptr, val,
                                            access->ordering, access->scope,
                                            access->alignment);
      return bitcastIfNeeded(rewriter, loc, old, elementType);
    };
    return lowerAtomic(op, adaptor.getPtr(), {adaptor.getVal()},
                       adaptor.getMask(), elementType, *getTypeConverter(),
                       targetInfo, emitAtomic, rewriter);
  }
};

/// Lowers tt.atomic_cas (scalar or tensor) to `cmpxchg`; floats are compared
/// and swapped as integers of the same width.
struct AtomicCASOpConversion : public MUSAPattern<triton::AtomicCASOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(triton::AtomicCASOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto access = getAtomicAccess(op, *getTypeConverter(), targetInfo);
    if (failed(access))
      return failure();
    Type valueType = access->valueType, elementType = access->elementType;
    if (!elementType.isIntOrFloat())
      return op.emitError() << "'tt.atomic_cas' on " << valueType
                            << " is not supported by " << kPassFlag << " yet";
    Type intType =
        rewriter.getIntegerType(elementType.getIntOrFloatBitWidth());
    auto emitAtomic = [&](Value ptr, ArrayRef<Value> operands) -> Value {
      Value cmp = bitcastIfNeeded(rewriter, loc, operands[0], intType);
      Value val = bitcastIfNeeded(rewriter, loc, operands[1], intType);
      auto cas = LLVM::AtomicCmpXchgOp::create(
          rewriter, loc, ptr, cmp, val, access->ordering,
          getFailureOrdering(access->ordering), access->scope,
          access->alignment);
      Value old = LLVM::ExtractValueOp::create(rewriter, loc, cas, 0);
      return bitcastIfNeeded(rewriter, loc, old, elementType);
    };
    return lowerAtomic(op, adaptor.getPtr(),
                       {adaptor.getCmp(), adaptor.getVal()}, Value(),
                       elementType, *getTypeConverter(), targetInfo,
                       emitAtomic, rewriter);
  }
};

} // namespace

FailureOr<unsigned>
mlir::triton_musa::getAtomicScratchBytes(Operation *op,
                                         const TargetInfo &targetInfo) {
  auto broadcast = needsSharedBroadcast(op);
  if (failed(broadcast))
    return failure();
  if (!*broadcast)
    return 0u;
  Type type = op->getResult(0).getType();
  unsigned bytes = getElementBytes(type);
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    bytes *= tensor.getNumElements();
  return bytes;
}

void mlir::triton_musa::populateAtomicOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo) {
  patterns.add<AtomicRMWOpConversion, AtomicCASOpConversion>(typeConverter,
                                                             targetInfo);
}
