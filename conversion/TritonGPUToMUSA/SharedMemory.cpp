//===- SharedMemory.cpp - Tensors to and from shared memory ----*- C++ -*-===//
//
// The helpers of SharedMemory.h: thread addresses from the composition of
// the buffer's shared layout with the tensor's layout, and guarded stores.
//
//===----------------------------------------------------------------------===//

#include "conversion/TritonGPUToMUSA/SharedMemory.h"
#include "conversion/TritonGPUToMUSA/LayoutIndices.h"
#include "conversion/TritonGPUToMUSA/TypeConverter.h"
#include "conversion/TritonGPUToMUSA/Utility.h"
#include "target/TargetInfo.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::triton_musa;
using mlir::triton_musa::LinearLayout;

namespace {

/// Runs `body` only where `pred` holds (always when `pred` is null), as a
/// branch; leaves the insertion point after it.
void emitGuarded(RewriterBase &rewriter, Location loc, Value pred,
                 function_ref<void()> body) {
  if (!pred) {
    body();
    return;
  }
  Block *current = rewriter.getInsertionBlock();
  Block *rest = rewriter.splitBlock(current, rewriter.getInsertionPoint());
  Block *then = rewriter.createBlock(rest);
  body();
  LLVM::BrOp::create(rewriter, loc, ValueRange(), rest);
  rewriter.setInsertionPointToEnd(current);
  LLVM::CondBrOp::create(rewriter, loc, pred, then, ValueRange(), rest,
                         ValueRange());
  rewriter.setInsertionPointToStart(rest);
}

} // namespace

FailureOr<SmallVector<Value>> mlir::triton_musa::emitSharedSlots(
    RewriterBase &rewriter, Location loc, const TargetInfo &targetInfo,
    const SharedBuffer &buffer, const LinearLayout &layout,
    function_ref<InFlightDiagnostic()> emitError) {
  llvm::Expected<LinearLayout> toSlots =
      mlir::triton_musa::invertAndCompose(buffer.layout, layout);
  if (!toSlots)
    return emitError() << "cannot address shared memory of layout "
                       << buffer.layout.toString() << " from registers of "
                       << layout.toString() << ": "
                       << llvm::toString(toSlots.takeError());
  SmallVector<SmallVector<Value>> indices =
      emitIndices(rewriter, loc, targetInfo, *toSlots);
  int offsetDim = -1;
  for (auto [i, name] : llvm::enumerate(toSlots->getOutDimNames()))
    if (name == kOffset)
      offsetDim = i;
  SmallVector<Value> slots;
  for (SmallVector<Value> &index : indices)
    slots.push_back(offsetDim < 0 ? i32Const(rewriter, loc, 0)
                                  : index[offsetDim]);
  return slots;
}

Value mlir::triton_musa::emitSharedSlotPointer(RewriterBase &rewriter,
                                               Location loc,
                                               const SharedBuffer &buffer,
                                               Value slot) {
  Value physical = slot;
  if (buffer.padded) {
    for (auto [interval, padding] : llvm::zip(buffer.padded.getIntervals(),
                                              buffer.padded.getPaddings())) {
      if (interval == 0 || padding == 0)
        continue;
      Value rows =
          llvm::isPowerOf2_32(interval)
              ? LLVM::LShrOp::create(
                    rewriter, loc, slot,
                    i32Const(rewriter, loc, llvm::Log2_32(interval)))
                    .getResult()
              : LLVM::UDivOp::create(rewriter, loc, slot,
                                     i32Const(rewriter, loc, interval))
                    .getResult();
      physical = LLVM::AddOp::create(
          rewriter, loc, physical,
          LLVM::MulOp::create(rewriter, loc, rows,
                              i32Const(rewriter, loc, padding)));
    }
  }
  unsigned bytes = getSharedElementBytes(buffer.elementType);
  Value byteOffset = LLVM::MulOp::create(rewriter, loc, physical,
                                         i32Const(rewriter, loc, bytes));
  return LLVM::GEPOp::create(rewriter, loc, buffer.base.getType(),
                             rewriter.getI8Type(), buffer.base,
                             ValueRange{byteOffset});
}

namespace {

/// The type an element of `llvmElementType` has in memory (i1 -> i8).
Type getMemoryType(Type llvmElementType) {
  if (llvmElementType.isInteger(1))
    return IntegerType::get(llvmElementType.getContext(), 8);
  return llvmElementType;
}

} // namespace

LogicalResult mlir::triton_musa::storeDistributedToShared(
    RewriterBase &rewriter, Location loc, const TargetInfo &targetInfo,
    const SharedBuffer &buffer, const LinearLayout &layout,
    ArrayRef<Value> values, Type llvmElementType,
    function_ref<InFlightDiagnostic()> emitError) {
  FailureOr<SmallVector<Value>> slots =
      emitSharedSlots(rewriter, loc, targetInfo, buffer, layout, emitError);
  if (failed(slots))
    return failure();
  if (slots->size() != values.size())
    return emitError() << "expected " << slots->size()
                       << " values to store to shared memory, got "
                       << values.size();
  int32_t duplicates = getDuplicateRegisterMask(layout);
  Value owner = emitOwnerPredicate(rewriter, loc, targetInfo, layout);
  Type memoryType = getMemoryType(llvmElementType);
  unsigned alignment = getSharedElementBytes(buffer.elementType);
  SmallVector<std::pair<Value, Value>> stores;
  for (auto [r, slot] : llvm::enumerate(*slots)) {
    if (r & duplicates)
      continue;
    Value value = values[r];
    if (memoryType != llvmElementType)
      value = LLVM::ZExtOp::create(rewriter, loc, memoryType, value);
    stores.push_back({value, emitSharedSlotPointer(rewriter, loc, buffer, slot)});
  }
  emitGuarded(rewriter, loc, owner, [&] {
    for (auto [value, ptr] : stores)
      LLVM::StoreOp::create(rewriter, loc, value, ptr, alignment);
  });
  return success();
}

FailureOr<SmallVector<Value>> mlir::triton_musa::loadDistributedFromShared(
    RewriterBase &rewriter, Location loc, const TargetInfo &targetInfo,
    const SharedBuffer &buffer, const LinearLayout &layout,
    Type llvmElementType, function_ref<InFlightDiagnostic()> emitError) {
  FailureOr<SmallVector<Value>> slots =
      emitSharedSlots(rewriter, loc, targetInfo, buffer, layout, emitError);
  if (failed(slots))
    return failure();
  Type memoryType = getMemoryType(llvmElementType);
  unsigned alignment = getSharedElementBytes(buffer.elementType);
  SmallVector<Value> values;
  // Registers holding the same element load the same slot; CSE merges them.
  for (Value slot : *slots) {
    Value ptr = emitSharedSlotPointer(rewriter, loc, buffer, slot);
    Value value = LLVM::LoadOp::create(rewriter, loc, memoryType, ptr,
                                       alignment);
    if (memoryType != llvmElementType)
      value = LLVM::TruncOp::create(rewriter, loc, llvmElementType, value);
    values.push_back(value);
  }
  return values;
}
