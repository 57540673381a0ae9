//===- MemoryOpToLLVM.cpp - Shared-memory ops and memdesc views -> LLVM --===//
//
// A `!ttg.memdesc` is a shared pointer to element slot 0 of the buffer it
// views (TypeConverter.h); element addresses come from the view type's
// shared linear layout through SharedMemory.h, which also serves the other
// families' scratch buffers. Accesses are one element per register: vector
// accesses (from the layouts' contiguous registers and slots) and
// bank-conflict-free scratch layouts are future work.
//
//===----------------------------------------------------------------------===//

#include "conversion/TritonGPUToMUSA/LayoutIndices.h"
#include "conversion/TritonGPUToMUSA/PatternTritonGPUOpToLLVM.h"
#include "target/Scratch.h"
#include "conversion/TritonGPUToMUSA/SharedMemory.h"
#include "conversion/TritonGPUToMUSA/Utility.h"

#include "dialects/Triton/IR/Dialect.h"
#include "dialects/TritonGPU/IR/Dialect.h"
#include "layouts/LayoutConversion.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "llvm/Support/MathExtras.h"
#include "layouts/SharedBuffers.h"

using namespace mlir;
using namespace mlir::triton_musa;
using mlir::triton_musa::LinearLayout;
namespace ttg = mlir::triton::gpu;

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

namespace {

/// The shared buffer a memdesc value of `type` lowered to `base` views.
FailureOr<SharedBuffer>
getSharedBuffer(Value base, ttg::MemDescType type,
                function_ref<InFlightDiagnostic()> emitError) {
  auto layout = getSharedBufferLayout(type, emitError);
  if (failed(layout))
    return failure();
  SharedBuffer buffer{base, std::move(*layout), type.getElementType()};
  buffer.padded = dyn_cast<ttg::PaddedSharedEncodingAttr>(type.getEncoding());
  return buffer;
}

/// Stores a tensor of `srcType` (converted: `src`) into the shared memory at
/// `base` of type `type`, as storeDistributedToShared.
LogicalResult
storeTensorToShared(RewriterBase &rewriter, Location loc,
                    const TargetInfo &targetInfo,
                    const TypeConverter &converter, Value base,
                    ttg::MemDescType type, RankedTensorType srcType, Value src,
                    function_ref<InFlightDiagnostic()> emitError) {
  FailureOr<SharedBuffer> buffer = getSharedBuffer(base, type, emitError);
  auto layout = getLinearLayout(srcType, emitError);
  Type elementType = converter.convertType(srcType.getElementType());
  if (failed(buffer) || failed(layout) || !elementType)
    return failure();
  return storeDistributedToShared(rewriter, loc, targetInfo, *buffer, *layout,
                                  unpackLLElements(rewriter, loc, src),
                                  elementType, emitError);
}

/// Lowers ttg.local_alloc to its buffer's pointer (base + allocation.offset),
/// storing the initial value if there is one.
struct LocalAllocOpConversion : public MUSAPattern<ttg::LocalAllocOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(ttg::LocalAllocOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto emitError = [&] { return op.emitError(); };
    FailureOr<Value> base = getScratchPointer(rewriter, loc, op, targetInfo);
    if (failed(base))
      return failure();
    if (Value src = adaptor.getSrc()) {
      if (failed(storeTensorToShared(
              rewriter, loc, targetInfo, *getTypeConverter(), *base,
              cast<ttg::MemDescType>(op.getType()),
              cast<RankedTensorType>(op.getSrc().getType()), src, emitError)))
        return failure();
      if (op->hasAttr(kSQMMAOperandWriteAttr))
        targetInfo.fenceSharedWritesForAsyncReads(rewriter, loc);
    }
    rewriter.replaceOp(op, *base);
    return success();
  }
};

/// Lowers ttg.local_store: every owner thread writes its elements.
struct LocalStoreOpConversion : public MUSAPattern<ttg::LocalStoreOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(ttg::LocalStoreOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto emitError = [&] { return op.emitError(); };
    if (failed(storeTensorToShared(
            rewriter, loc, targetInfo, *getTypeConverter(), adaptor.getDst(),
            cast<ttg::MemDescType>(op.getDst().getType()),
            cast<RankedTensorType>(op.getSrc().getType()), adaptor.getSrc(),
            emitError)))
      return failure();
    if (op->hasAttr(kSQMMAOperandWriteAttr))
      targetInfo.fenceSharedWritesForAsyncReads(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

/// Lowers ttg.local_load: each thread reads the elements its result layout
/// (e.g. a #ttg.dot_op operand) gives it.
struct LocalLoadOpConversion : public MUSAPattern<ttg::LocalLoadOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(ttg::LocalLoadOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto emitError = [&] { return op.emitError(); };
    auto type = cast<ttg::MemDescType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    FailureOr<SharedBuffer> buffer =
        getSharedBuffer(adaptor.getSrc(), type, emitError);
    auto layout = getLinearLayout(dstType, emitError);
    Type elementType =
        getTypeConverter()->convertType(dstType.getElementType());
    Type structType = getTypeConverter()->convertType(dstType);
    if (failed(buffer) || failed(layout) || !elementType || !structType)
      return failure();
    FailureOr<SmallVector<Value>> values = loadDistributedFromShared(
        rewriter, loc, targetInfo, *buffer, *layout, elementType, emitError);
    if (failed(values))
      return failure();
    rewriter.replaceOp(op, packLLElements(rewriter, loc, *values, structType));
    return success();
  }
};

/// Lowers ttg.local_dealloc to nothing: --musa-allocate-shared-memory
/// already ended the buffer's live range there.
struct LocalDeallocOpConversion : public MUSAPattern<ttg::LocalDeallocOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(ttg::LocalDeallocOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

/// Coordinates of each kOffset basis of a memdesc's layout.
FailureOr<SmallVector<SmallVector<int32_t>>>
getOffsetBasisCoords(ttg::MemDescType type,
                     function_ref<InFlightDiagnostic()> emitError) {
  FailureOr<SharedBuffer> buffer = getSharedBuffer(Value(), type, emitError);
  if (failed(buffer))
    return failure();
  SmallVector<SmallVector<int32_t>> coords;
  for (int32_t bit = 0; bit < buffer->layout.getInDimSizeLog2(kOffset);
       ++bit)
    coords.push_back(
        applyLayout(buffer->layout, {{kOffset, int32_t(1) << bit}}));
  return coords;
}

/// Row-major flat index of `coords` in `shape` (powers of two: the digits
/// do not overlap, so the map is linear).
int64_t flatten(ArrayRef<int32_t> coords, ArrayRef<int64_t> shape) {
  int64_t flat = 0;
  for (auto [c, size] : llvm::zip(coords, shape))
    flat = flat * size + c;
  return flat;
}

/// Whether an offset basis at source coordinate `src` and result coordinate
/// `dst` holds the same element: ttg.memdesc_trans puts it at the
/// transposed coordinate, ttg.memdesc_reshape at the same row-major position.
bool holdsSameElement(ttg::MemDescTransOp op, ArrayRef<int32_t> src,
                      ArrayRef<int32_t> dst) {
  ArrayRef<int32_t> order = op.getOrder();
  if (src.size() != order.size() || dst.size() != order.size())
    return false;
  for (unsigned i = 0; i < order.size(); ++i)
    if (dst[i] != src[order[i]])
      return false;
  return true;
}
bool holdsSameElement(ttg::MemDescReshapeOp op, ArrayRef<int32_t> src,
                      ArrayRef<int32_t> dst) {
  return flatten(src, op.getSrc().getType().getShape()) ==
         flatten(dst, op.getType().getShape());
}

/// Lowers ttg.memdesc_trans and ttg.memdesc_reshape to their source
/// pointer: the result's layout must put every slot at the element the
/// view moves it to (holdsSameElement).
template <typename OpTy>
struct MemDescViewConversion : public MUSAPattern<OpTy> {
  using MUSAPattern<OpTy>::MUSAPattern;

  LogicalResult lower(OpTy op, typename OpTy::Adaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    auto emitError = [&] { return op.emitError(); };
    auto srcType = cast<ttg::MemDescType>(op.getSrc().getType());
    auto dstType = cast<ttg::MemDescType>(op.getType());
    auto src = getOffsetBasisCoords(srcType, emitError);
    auto dst = getOffsetBasisCoords(dstType, emitError);
    if (failed(src) || failed(dst))
      return failure();
    bool same = src->size() == dst->size();
    for (unsigned k = 0; same && k < src->size(); ++k)
      same = holdsSameElement(op, (*src)[k], (*dst)[k]);
    if (!same)
      return op.emitError()
             << "'" << op->getName() << "' from " << srcType << " to "
             << dstType << " changes which element each slot holds, which is "
             << "not supported by " << kPassFlag;
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

/// Lowers ttg.memdesc_reinterpret (a whole allocation seen with another
/// shape or element type) to its source pointer.
struct MemDescReinterpretOpConversion
    : public MUSAPattern<ttg::MemDescReinterpretOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(ttg::MemDescReinterpretOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

/// Lowers ttg.memdesc_index to the pointer of buffer `index`:
/// base + index * (bytes of one buffer).
struct MemDescIndexOpConversion : public MUSAPattern<ttg::MemDescIndexOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(ttg::MemDescIndexOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<ttg::MemDescType>(op.getSrc().getType());
    // Bytes between consecutive leading indices: everything after dim 0.
    ArrayRef<int64_t> allocShape = srcType.getAllocShape().empty()
                                       ? srcType.getShape()
                                       : srcType.getAllocShape();
    if (allocShape.size() < 2)
      return op.emitError() << "'ttg.memdesc_index' of a rank-"
                            << allocShape.size() << " buffer";
    FailureOr<int64_t> stride = getSharedAllocationBytes(
        ttg::MemDescType::get(allocShape.drop_front(),
                              srcType.getElementType(),
                              srcType.getEncoding(), srcType.getMemorySpace(),
                              srcType.getMutableMemory(),
                              allocShape.drop_front()),
        [&] { return op.emitError(); });
    if (failed(stride))
      return failure();
    Value index = adaptor.getIndex();
    Value bytes = LLVM::MulOp::create(rewriter, loc, index,
                                      i32Const(rewriter, loc, *stride));
    rewriter.replaceOpWithNewOp<LLVM::GEPOp>(
        op, adaptor.getSrc().getType(), rewriter.getI8Type(), adaptor.getSrc(),
        ValueRange{bytes});
    return success();
  }
};

/// Lowers ttg.memdesc_subslice to a constant byte offset from its source,
/// where the layout allows one: the sub-tile's start slot must not share
/// bits with any slot inside the sub-tile (then slot(start + c) =
/// slot(start) + slot(c)). Padded layouts are not supported.
struct MemDescSubsliceOpConversion
    : public MUSAPattern<ttg::MemDescSubsliceOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(ttg::MemDescSubsliceOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    auto emitError = [&] { return op.emitError(); };
    auto srcType = cast<ttg::MemDescType>(op.getSrc().getType());
    auto dstType = cast<ttg::MemDescType>(op.getType());
    ArrayRef<int32_t> offsets = op.getOffsets();
    auto unsupported = [&](StringRef why) {
      return op.emitError() << "'ttg.memdesc_subslice' of " << srcType
                            << " at offsets [" << offsets << "]: " << why
                            << ", which is not supported by "
                               "--convert-tritongpu-to-musa yet";
    };
    if (llvm::all_of(offsets, [](int32_t o) { return o == 0; })) {
      rewriter.replaceOp(op, adaptor.getSrc());
      return success();
    }
    if (isa<ttg::PaddedSharedEncodingAttr>(srcType.getEncoding()))
      return unsupported("a padded layout");
    FailureOr<SharedBuffer> buffer =
        getSharedBuffer(Value(), dstType, emitError);
    if (failed(buffer))
      return failure();
    unsigned rank = buffer->layout.getNumOutDims();
    if (offsets.size() < rank)
      return unsupported("offsets of another rank than the layout");
    // Leading (buffer) dimensions: whole buffers.
    ArrayRef<int64_t> allocShape = dstType.getAllocShape().empty()
                                       ? dstType.getShape()
                                       : dstType.getAllocShape();
    unsigned lead = offsets.size() - rank;
    FailureOr<int64_t> bufferBytes =
        getSharedBufferBytes(dstType, emitError);
    if (failed(bufferBytes))
      return failure();
    int64_t bytes = 0;
    for (unsigned d = 0; d < lead; ++d)
      bytes = bytes * allocShape[d] + offsets[d];
    bytes *= *bufferBytes;
    // Trailing dimensions: through the inverse layout.
    llvm::Expected<LinearLayout> inverse = buffer->layout.pseudoinvert();
    if (!inverse)
      return unsupported("a layout without an inverse");
    ArrayRef<int64_t> viewShape = dstType.getShape().take_back(rank);
    SmallVector<LinearLayout::DimValue> start;
    int32_t viewSlots = 0;
    for (unsigned d = 0; d < rank; ++d) {
      int32_t o = offsets[lead + d];
      if (o % viewShape[d] != 0)
        return unsupported("an offset that is not a multiple of the view");
      std::string name = "dim" + std::to_string(d);
      start.push_back({name, o});
      for (int32_t bit = 1; bit < viewShape[d]; bit <<= 1)
        viewSlots |= applyLayout(*inverse, {{name, bit}})[0];
    }
    int32_t startSlot = applyLayout(*inverse, start)[0];
    if (startSlot & viewSlots)
      return unsupported("a sub-tile whose slots are not a constant offset "
                         "from its start");
    bytes += int64_t(startSlot) *
             getSharedElementBytes(dstType.getElementType());
    Location loc = op.getLoc();
    rewriter.replaceOpWithNewOp<LLVM::GEPOp>(
        op, adaptor.getSrc().getType(), rewriter.getI8Type(), adaptor.getSrc(),
        ValueRange{i32Const(rewriter, loc, bytes)});
    return success();
  }
};

} // namespace

void mlir::triton_musa::populateMemoryOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo) {
  patterns.add<LocalAllocOpConversion, LocalStoreOpConversion,
               LocalLoadOpConversion, LocalDeallocOpConversion,
               MemDescViewConversion<ttg::MemDescTransOp>,
               MemDescViewConversion<ttg::MemDescReshapeOp>,
               MemDescReinterpretOpConversion, MemDescIndexOpConversion,
               MemDescSubsliceOpConversion>(typeConverter, targetInfo);
}
