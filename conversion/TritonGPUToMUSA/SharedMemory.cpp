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
#include "layouts/SharedBuffers.h"

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

unsigned mlir::triton_musa::getSharedVectorWidth(const LinearLayout &toSlots,
                              const SharedBuffer &buffer, unsigned maxVec) {
  int offsetDim = -1;
  for (auto [i, name] : llvm::enumerate(toSlots.getOutDimNames()))
    if (name == kOffset)
      offsetDim = i;
  if (offsetDim < 0)
    return 1;
  unsigned vec = 1;
  unsigned registerBits = toSlots.getInDimSizeLog2(kRegister);
  for (unsigned k = 0; k < registerBits && (vec << 1) <= maxVec; ++k) {
    SmallVector<int32_t> slot =
        applyLayout(toSlots, {{kRegister, int32_t(1) << k}});
    if (slot[offsetDim] != (int32_t(1) << k))
      break;
    vec <<= 1;
  }
  // Every other basis must keep the low bits of the slot clear.
  auto aligned = [&](unsigned width) {
    for (const auto &[name, bases] : toSlots.getBases())
      for (auto [i, basis] : llvm::enumerate(bases)) {
        if (name == kRegister && (1u << i) < width)
          continue;
        if (basis[offsetDim] & int32_t(width - 1))
          return false;
      }
    // Padding keeps a vector whole and aligned when both the interval and
    // the padding are multiples of it.
    if (buffer.padded)
      for (auto [interval, padding] :
           llvm::zip(buffer.padded.getIntervals(),
                     buffer.padded.getPaddings()))
        if (interval % width != 0 || padding % width != 0)
          return false;
    return true;
  };
  while (vec > 1 && !aligned(vec))
    vec >>= 1;
  return vec;
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

/// A vector of `vec` elements of `memoryType` (the type itself for 1).
Type getAccessType(Type memoryType, unsigned vec) {
  return vec == 1 ? memoryType : VectorType::get({int64_t(vec)}, memoryType);
}

/// How the current thread reaches its registers' elements in a buffer:
/// the slot of every register and the vector width (registers r .. r +
/// width - 1, r a multiple of it, sit in consecutive slots; at most 16
/// bytes, the widest shared-memory access).
struct SharedAccess {
  SmallVector<Value> slots;
  unsigned vectorWidth = 1;
  unsigned alignment = 1;
};

FailureOr<SharedAccess>
getSharedAccess(RewriterBase &rewriter, Location loc,
                const TargetInfo &targetInfo, const SharedBuffer &buffer,
                const LinearLayout &layout, Type llvmElementType,
                function_ref<InFlightDiagnostic()> emitError) {
  FailureOr<SmallVector<Value>> slots =
      emitSharedSlots(rewriter, loc, targetInfo, buffer, layout, emitError);
  if (failed(slots))
    return failure();
  SharedAccess access;
  access.slots = std::move(*slots);
  unsigned bytes = getSharedElementBytes(buffer.elementType);
  access.alignment = bytes;
  // Only integer and float elements form vectors (not i1, kept as i8, nor
  // pointers).
  if (!llvmElementType.isIntOrFloat() || llvmElementType.isInteger(1))
    return access;
  llvm::Expected<LinearLayout> toSlots =
      invertAndCompose(buffer.layout, layout);
  if (!toSlots) {
    llvm::consumeError(toSlots.takeError());
    return access;
  }
  access.vectorWidth =
      getSharedVectorWidth(*toSlots, buffer, std::max(1u, kMaxSharedAccessBytes / bytes));
  access.alignment = bytes * access.vectorWidth;
  return access;
}

} // namespace

LogicalResult mlir::triton_musa::storeDistributedToShared(
    RewriterBase &rewriter, Location loc, const TargetInfo &targetInfo,
    const SharedBuffer &buffer, const LinearLayout &layout,
    ArrayRef<Value> values, Type llvmElementType,
    function_ref<InFlightDiagnostic()> emitError) {
  FailureOr<SharedAccess> access = getSharedAccess(
      rewriter, loc, targetInfo, buffer, layout, llvmElementType, emitError);
  if (failed(access))
    return failure();
  if (access->slots.size() != values.size())
    return emitError() << "expected " << access->slots.size()
                       << " values to store to shared memory, got "
                       << values.size();
  int32_t duplicates = getDuplicateRegisterMask(layout);
  Value owner = emitOwnerPredicate(rewriter, loc, targetInfo, layout);
  Type memoryType = getMemoryType(llvmElementType);
  unsigned vec = access->vectorWidth;
  Type vectorType = getAccessType(memoryType, vec);
  SmallVector<std::pair<Value, Value>> stores;
  for (unsigned r = 0; r < values.size(); r += vec) {
    if (r & duplicates)
      continue;
    Value stored;
    for (unsigned j = 0; j < vec; ++j) {
      Value value = values[r + j];
      if (memoryType != llvmElementType)
        value = LLVM::ZExtOp::create(rewriter, loc, memoryType, value);
      if (vec == 1) {
        stored = value;
        break;
      }
      if (!stored)
        stored = LLVM::UndefOp::create(rewriter, loc, vectorType);
      stored = LLVM::InsertElementOp::create(rewriter, loc, stored, value,
                                             i32Const(rewriter, loc, j));
    }
    stores.push_back(
        {stored, emitSharedSlotPointer(rewriter, loc, buffer, access->slots[r])});
  }
  emitGuarded(rewriter, loc, owner, [&] {
    for (auto [value, ptr] : stores)
      LLVM::StoreOp::create(rewriter, loc, value, ptr, access->alignment);
  });
  return success();
}

FailureOr<SmallVector<Value>> mlir::triton_musa::loadDistributedFromShared(
    RewriterBase &rewriter, Location loc, const TargetInfo &targetInfo,
    const SharedBuffer &buffer, const LinearLayout &layout,
    Type llvmElementType, function_ref<InFlightDiagnostic()> emitError) {
  FailureOr<SharedAccess> access = getSharedAccess(
      rewriter, loc, targetInfo, buffer, layout, llvmElementType, emitError);
  if (failed(access))
    return failure();
  Type memoryType = getMemoryType(llvmElementType);
  unsigned vec = access->vectorWidth;
  Type vectorType = getAccessType(memoryType, vec);
  SmallVector<Value> values;
  // Registers holding the same element load the same slot; CSE merges them.
  for (unsigned r = 0; r < access->slots.size(); r += vec) {
    Value ptr = emitSharedSlotPointer(rewriter, loc, buffer, access->slots[r]);
    Value loaded = LLVM::LoadOp::create(rewriter, loc, vectorType, ptr,
                                        access->alignment);
    for (unsigned j = 0; j < vec; ++j) {
      Value value = vec == 1 ? loaded
                             : LLVM::ExtractElementOp::create(
                                   rewriter, loc, loaded,
                                   i32Const(rewriter, loc, j))
                                   .getResult();
      if (memoryType != llvmElementType)
        value = LLVM::TruncOp::create(rewriter, loc, llvmElementType, value);
      values.push_back(value);
    }
  }
  return values;
}
