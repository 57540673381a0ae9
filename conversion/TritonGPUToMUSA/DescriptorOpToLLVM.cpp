//===- DescriptorOpToLLVM.cpp - Tensor descriptors without TME -> LLVM ---===//
//
// Tensor descriptors lowered to plain global loads and stores, with the
// bounds checks TMA/TME semantics demand: out-of-bounds elements read as 0
// (NaN for `padding = nan`) and out-of-bounds writes are dropped. The TME
// path is separate: --musa-lower-descriptors-to-tme rewrites eligible
// loads and stores into musagpu TME ops (TMEOpToLLVM.cpp) on architectures
// with TME; what it leaves here takes this path.
//
// Representation: a `!tt.tensordesc` becomes the `!llvm.ptr<1>` global
// address of its tensor (TypeConverter.cpp). Its shape (i32) and strides
// (i64, in elements) are the SSA values that made it:
//  * `tt.make_tensor_descriptor %base, [shape], [strides]`: its operands;
//  * a kernel argument: Triton's frontend expands a host-side
//    TensorDescriptor into the descriptor argument followed by its rank i32
//    shapes and rank i64 strides, so the host passes the tensor's base
//    address as the descriptor argument and the following arguments are
//    used as shape and strides.
// A descriptor reaching an op any other way (through a loop-carried value,
// a select, a device-function argument) is reported as not supported.
// Kernel-argument descriptors always pad with zero (the host's padding
// choice is not in the TTGIR).
//
//===----------------------------------------------------------------------===//

#include "conversion/TritonGPUToMUSA/LayoutIndices.h"
#include "conversion/TritonGPUToMUSA/PatternTritonGPUOpToLLVM.h"
#include "conversion/TritonGPUToMUSA/PredicatedRegion.h"
#include "conversion/TritonGPUToMUSA/TensorDescriptor.h"
#include "conversion/TritonGPUToMUSA/Utility.h"

#include "dialects/MUSAGPU/IR/Dialect.h"
#include "dialects/Triton/IR/Dialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"

#include <type_traits>

using namespace mlir;
using namespace mlir::triton_musa;
using mlir::triton_musa::LinearLayout;

namespace {

// Errors read "'<op>' is not supported by ... yet <why>", the form the
// corpus test recognises as "not lowered yet".
constexpr StringLiteral kUnsupported =
    " is not supported by --convert-tritongpu-to-musa yet";

} // namespace

namespace {

/// What a descriptor op needs to address its tensor.
using Descriptor = LoweredTensorDesc;

/// The address of the element at global coordinates `coords` (i32 each) and
/// whether it is inside the tensor.
std::pair<Value, Value> emitAddress(OpBuilder &b, Location loc,
                                    const Descriptor &desc, Type elementType,
                                    ArrayRef<Value> coords) {
  Value inBounds, offset;
  Value zero = i32Const(b, loc, 0);
  for (auto [d, coord] : llvm::enumerate(coords)) {
    Value ge = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::sge, coord,
                                    zero);
    Value lt = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::slt, coord,
                                    desc.shape[d]);
    Value ok = LLVM::AndOp::create(b, loc, ge, lt);
    inBounds = andPredicates(b, loc, inBounds, ok);
    Value term = LLVM::MulOp::create(
        b, loc, LLVM::SExtOp::create(b, loc, b.getI64Type(), coord),
        desc.strides[d]);
    offset = offset ? LLVM::AddOp::create(b, loc, offset, term) : term;
  }
  Value ptr = LLVM::GEPOp::create(b, loc, desc.base.getType(), elementType,
                                  desc.base, ValueRange(offset));
  return {ptr, inBounds};
}

unsigned getAlignment(Type type) {
  return std::max<unsigned>(1, type.getIntOrFloatBitWidth() / 8);
}

/// For each register of `type`, the global coordinates it accesses: the
/// tensor's coordinates placed in the descriptor's trailing dimensions (the
/// leading dimensions a load may drop are 0), plus the op's indices.
FailureOr<SmallVector<SmallVector<Value>>>
emitGlobalCoords(Operation *op, OpBuilder &b, const TargetInfo &target,
                 RankedTensorType type, unsigned descRank, ValueRange indices) {
  auto layout = getLinearLayout(type, [&] { return op->emitError(); });
  if (failed(layout))
    return failure();
  Location loc = op->getLoc();
  unsigned dropped = descRank - type.getRank();
  SmallVector<SmallVector<Value>> result;
  for (const SmallVector<Value> &local :
       emitIndices(b, loc, target, *layout)) {
    SmallVector<Value> coords;
    for (unsigned d = 0; d < descRank; ++d) {
      Value index = indices[d];
      coords.push_back(d < dropped
                           ? index
                           : LLVM::AddOp::create(b, loc, index,
                                                 local[d - dropped])
                                 .getResult());
    }
    result.push_back(std::move(coords));
  }
  return result;
}

/// Loads each register's element, or the padding value out of bounds.
Value emitMaskedLoads(ConversionPatternRewriter &rewriter, Location loc,
                      const Descriptor &desc, Type elementType,
                      ArrayRef<SmallVector<Value>> coords, Type structType) {
  Value pad;
  if (desc.padNaN && isa<FloatType>(elementType))
    pad = LLVM::ConstantOp::create(
        rewriter, loc, elementType,
        rewriter.getFloatAttr(elementType,
                              APFloat::getQNaN(cast<FloatType>(elementType)
                                                   .getFloatSemantics())));
  else
    pad = LLVM::ZeroOp::create(rewriter, loc, elementType);
  SmallVector<Value> values;
  for (ArrayRef<Value> c : coords) {
    std::pair<Value, Value> address =
        emitAddress(rewriter, loc, desc, elementType, c);
    Value ptr = address.first, inBounds = address.second;
    values.push_back(emitIfThen(
        rewriter, loc, inBounds,
        [&]() -> Value {
          return LLVM::LoadOp::create(rewriter, loc, elementType, ptr,
                                      getAlignment(elementType));
        },
        pad));
  }
  return packLLElements(rewriter, loc, values, structType);
}

/// Writes each register's element where it is in bounds, from one thread per
/// distinct element (duplicate registers, lanes and warps skip), through
/// `write(ptr, value)`; erases `op`.
LogicalResult emitMaskedWrites(Operation *op,
                               ConversionPatternRewriter &rewriter,
                               const TargetInfo &target, const Descriptor &desc,
                               RankedTensorType srcType, Value src,
                               ArrayRef<SmallVector<Value>> coords,
                               function_ref<void(Value ptr, Value value)> write) {
  Location loc = op->getLoc();
  auto layout = getLinearLayout(srcType, [&] { return op->emitError(); });
  if (failed(layout))
    return failure();
  int32_t duplicates = getDuplicateRegisterMask(*layout);
  Value owner = emitOwnerPredicate(rewriter, loc, target, *layout);
  SmallVector<Value> values = unpackLLElements(rewriter, loc, src);
  for (unsigned r = 0, e = coords.size(); r < e; ++r) {
    if (int32_t(r) & duplicates)
      continue;
    ArrayRef<Value> c = coords[r];
    Value value = values[r];
    std::pair<Value, Value> address =
        emitAddress(rewriter, loc, desc, value.getType(), c);
    Value ptr = address.first, inBounds = address.second;
    Value pred = andPredicates(rewriter, loc, owner, inBounds);
    emitIfThen(
        rewriter, loc, pred,
        [&]() -> Value {
          write(ptr, value);
          return {};
        },
        Value());
  }
  rewriter.eraseOp(op);
  return success();
}

/// Stores each register's element where it is in bounds (emitMaskedWrites).
LogicalResult emitMaskedStores(Operation *op,
                               ConversionPatternRewriter &rewriter,
                               const TargetInfo &target, const Descriptor &desc,
                               RankedTensorType srcType, Value src,
                               ArrayRef<SmallVector<Value>> coords) {
  return emitMaskedWrites(op, rewriter, target, desc, srcType, src, coords,
                          [&](Value ptr, Value value) {
                            LLVM::StoreOp::create(rewriter, op->getLoc(), value,
                                                  ptr,
                                                  getAlignment(value.getType()));
                          });
}

/// The `atomicrmw` operation of tt.descriptor_reduce `kind` on `type`, or
/// failure (reported) where LLVM 14 has none: float min/max, and the
/// wrapping inc/dec.
FailureOr<LLVM::AtomicBinOp> getReduceBinOp(Operation *op,
                                            triton::DescriptorReduceKind kind,
                                            Type type) {
  bool isFloat = isa<FloatType>(type);
  switch (kind) {
  case triton::DescriptorReduceKind::ADD:
    return isFloat ? LLVM::AtomicBinOp::fadd : LLVM::AtomicBinOp::add;
  case triton::DescriptorReduceKind::MIN:
    if (!isFloat)
      return LLVM::AtomicBinOp::min;
    break;
  case triton::DescriptorReduceKind::MAX:
    if (!isFloat)
      return LLVM::AtomicBinOp::max;
    break;
  case triton::DescriptorReduceKind::AND:
    if (!isFloat)
      return LLVM::AtomicBinOp::_and;
    break;
  case triton::DescriptorReduceKind::OR:
    if (!isFloat)
      return LLVM::AtomicBinOp::_or;
    break;
  case triton::DescriptorReduceKind::XOR:
    if (!isFloat)
      return LLVM::AtomicBinOp::_xor;
    break;
  case triton::DescriptorReduceKind::INC:
  case triton::DescriptorReduceKind::DEC:
    break;
  }
  return op->emitError() << "'tt.descriptor_reduce' "
                         << triton::stringifyDescriptorReduceKind(kind)
                         << " on " << type << " is not supported by "
                         << kPassFlag
                         << " yet (no such atomic in LLVM 14)";
}

/// For gather/scatter: the per-register global coordinates (row from
/// `x_offsets`, column `y_offset` + the register's column). `x_offsets` must
/// already be held by the threads that hold the rows of `type`.
FailureOr<SmallVector<SmallVector<Value>>>
emitGatherCoords(Operation *op, ConversionPatternRewriter &rewriter,
                 const TargetInfo &target, RankedTensorType type,
                 Value xOffsets, Value xOffsetsLowered, Value yOffset) {
  Location loc = op->getLoc();
  auto xType = cast<RankedTensorType>(xOffsets.getType());
  auto emitError = [&] { return op->emitError(); };
  auto layout = getLinearLayout(type, emitError);
  auto xLayout = getLinearLayout(xType, emitError);
  if (failed(layout) || failed(xLayout))
    return failure();
  auto rows = mapRegisters(*xLayout, *layout, [](ArrayRef<int32_t> c) {
    return SmallVector<int32_t>{c[0]};
  });
  if (failed(rows))
    return op->emitError()
           << "'" << op->getName() << "'" << kUnsupported
           << " with x_offsets in layout " << xType.getEncoding()
           << ", whose threads do not hold the rows of the tile in layout "
           << type.getEncoding() << " (x_offsets needs #ttg.slice<{dim = 1, parent = "
           << type.getEncoding() << "}> or an equivalent layout)";
  SmallVector<Value> x = unpackLLElements(rewriter, loc, xOffsetsLowered);
  SmallVector<SmallVector<Value>> result;
  for (auto [r, local] :
       llvm::enumerate(emitIndices(rewriter, loc, target, *layout)))
    result.push_back(
        {x[(*rows)[r]], LLVM::AddOp::create(rewriter, loc, yOffset, local[1])});
  return result;
}

/// Lowers tt.make_tensor_descriptor to its base address (its shape and
/// strides are read from its operands by the ops that use it).
struct MakeTensorDescOpConversion
    : public MUSAPattern<triton::MakeTensorDescOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(triton::MakeTensorDescOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getBase());
    return success();
  }
};

/// Lowers musagpu.descriptor_base to the kernel argument itself: the base
/// address the host passes for a descriptor TME does not read.
struct DescriptorBaseOpConversion
    : public MUSAPattern<musagpu::DescriptorBaseOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(musagpu::DescriptorBaseOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    auto pointer = dyn_cast<LLVM::LLVMPointerType>(adaptor.getDesc().getType());
    if (!pointer || pointer.getAddressSpace() != 1)
      return op.emitError() << "'" << op->getName() << "' needs a descriptor "
                               "the host passes as a global address, got "
                            << adaptor.getDesc().getType()
                            << " (a host-encoded TME descriptor?)";
    rewriter.replaceOp(op, adaptor.getDesc());
    return success();
  }
};

/// A descriptor op's descriptor and, per register of `type`, the global
/// coordinates it accesses: the block at `indices` for loads and stores,
/// rows `x_offsets` and columns from `y_offset` for gathers and scatters.
struct DescriptorAccess {
  Descriptor desc;
  SmallVector<SmallVector<Value>> coords;
};

template <typename OpTy>
FailureOr<DescriptorAccess>
getDescriptorAccess(OpTy op, typename OpTy::Adaptor adaptor,
                    ConversionPatternRewriter &rewriter,
                    const TargetInfo &target, RankedTensorType type) {
  FailureOr<Descriptor> desc =
      getLoweredTensorDesc(op, op.getDesc(), adaptor.getDesc(), rewriter);
  if (failed(desc))
    return failure();
  FailureOr<SmallVector<SmallVector<Value>>> coords;
  if constexpr (std::is_same_v<OpTy, triton::DescriptorGatherOp> ||
                std::is_same_v<OpTy, triton::DescriptorScatterOp>)
    coords = emitGatherCoords(op, rewriter, target, type, op.getXOffsets(),
                              adaptor.getXOffsets(), adaptor.getYOffset());
  else
    coords = emitGlobalCoords(op, rewriter, target, type, desc->shape.size(),
                              adaptor.getIndices());
  if (failed(coords))
    return failure();
  return DescriptorAccess{std::move(*desc), std::move(*coords)};
}

/// Lowers tt.descriptor_load and tt.descriptor_gather to bounds-checked
/// global loads (the padding value out of bounds).
template <typename OpTy>
struct DescriptorLoadConversion : public MUSAPattern<OpTy> {
  using MUSAPattern<OpTy>::MUSAPattern;

  LogicalResult lower(OpTy op, typename OpTy::Adaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    Type structType = this->getTypeConverter()->convertType(type);
    Type elementType =
        this->getTypeConverter()->convertType(type.getElementType());
    if (!structType || !elementType)
      return failure();
    auto access =
        getDescriptorAccess(op, adaptor, rewriter, this->targetInfo, type);
    if (failed(access))
      return failure();
    rewriter.replaceOp(op,
                       emitMaskedLoads(rewriter, op.getLoc(), access->desc,
                                       elementType, access->coords, structType));
    return success();
  }
};

/// Lowers tt.descriptor_store and tt.descriptor_scatter to bounds-checked
/// global stores.
template <typename OpTy>
struct DescriptorStoreConversion : public MUSAPattern<OpTy> {
  using MUSAPattern<OpTy>::MUSAPattern;

  LogicalResult lower(OpTy op, typename OpTy::Adaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getSrc().getType());
    auto access =
        getDescriptorAccess(op, adaptor, rewriter, this->targetInfo, type);
    if (failed(access))
      return failure();
    return emitMaskedStores(op, rewriter, this->targetInfo, access->desc, type,
                            adaptor.getSrc(), access->coords);
  }
};

/// Lowers tt.descriptor_reduce to bounds-checked device-scope atomics, one
/// per distinct element (integers min/max are signed: Triton's integer
/// element types carry no sign).
struct DescriptorReduceOpConversion
    : public MUSAPattern<triton::DescriptorReduceOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(triton::DescriptorReduceOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getSrc().getType());
    Type elementType = getTypeConverter()->convertType(type.getElementType());
    if (!elementType)
      return failure();
    FailureOr<LLVM::AtomicBinOp> binOp =
        getReduceBinOp(op, op.getKind(), elementType);
    if (failed(binOp))
      return failure();
    auto access = getDescriptorAccess(op, adaptor, rewriter, targetInfo, type);
    if (failed(access))
      return failure();
    StringRef scope = targetInfo.getSyncScope(MemoryScope::Device);
    return emitMaskedWrites(
        op, rewriter, targetInfo, access->desc, type, adaptor.getSrc(),
        access->coords, [&](Value ptr, Value value) {
          LLVM::AtomicRMWOp::create(rewriter, op.getLoc(), *binOp, ptr, value,
                                    LLVM::AtomicOrdering::monotonic, scope,
                                    getAlignment(elementType));
        });
  }
};

} // namespace

void mlir::triton_musa::populateDescriptorOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo) {
  patterns.add<MakeTensorDescOpConversion, DescriptorBaseOpConversion,
               DescriptorLoadConversion<triton::DescriptorLoadOp>,
               DescriptorLoadConversion<triton::DescriptorGatherOp>,
               DescriptorStoreConversion<triton::DescriptorStoreOp>,
               DescriptorStoreConversion<triton::DescriptorScatterOp>,
               DescriptorReduceOpConversion>(
      typeConverter, targetInfo);
}
