//===- LowerDescriptorsToPointers.cpp - In-kernel descriptors as pointers -===//
//
// A descriptor load or store that TME does not take (the GPU's TME reads
// host-encoded kernel arguments only; an arch without TME; a box TME has no
// form for) would reach the conversion's bounds-checked global accesses,
// element by element and never pipelined. Where the descriptor's base,
// shape and strides are SSA values (its `tt.make_tensor_descriptor`'s
// operands, or a kernel argument's address and the arguments after it),
// each access is a plain masked `tt.load`/`tt.store` of a pointer tensor:
// the software pipeliner turns the loads into async copies and the stores
// are vectorized, as in a pointer kernel (tutorial 09's device-descriptor
// matmul; every descriptor kernel on mp_22).
//
// The pointers are the base advanced by the tile's start (a scalar) plus
// the tile's own offsets, which do not depend on the indices (so they are
// loop-invariant); a dimension is in bounds where `index + i` is below its
// size compared unsigned, which also rejects negative coordinates, as the
// descriptor does.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "passes/TMETransfers.h"

#include "dialects/MUSAGPU/IR/Dialect.h"
#include "dialects/Triton/IR/Dialect.h"
#include "dialects/TritonGPU/IR/Dialect.h"
#include "target/MUSAArch.h"
#include "target/TargetInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

namespace mlir::triton_musa {
#define GEN_PASS_DEF_MUSALOWERDESCRIPTORSTOPOINTERS
#include "passes/Passes.h.inc"
} // namespace mlir::triton_musa

using namespace mlir;
using namespace mlir::triton_musa;
namespace ttg = mlir::triton::gpu;
namespace mgpu = mlir::musagpu;

namespace {

constexpr StringLiteral kPassFlag = "--musa-lower-descriptors-to-pointers";

/// Index vectors of one tile, in its layout.
class TileAddressBuilder {
public:
  TileAddressBuilder(OpBuilder &b, Location loc, RankedTensorType tile)
      : b(b), loc(loc), tile(tile) {}

  /// `vector` (a 1-D tensor along tile dimension `dim` in sliceAway(dim))
  /// expanded and broadcast to the whole tile.
  Value spread(Value vector, unsigned dim) {
    auto elementType = cast<RankedTensorType>(vector.getType()).getElementType();
    SmallVector<int64_t> shape = {tile.getDimSize(dim)};
    // Expand in the reverse order of the slices.
    for (auto [axis, encoding] : llvm::reverse(slicesAround(dim))) {
      shape.insert(shape.begin() + axis, 1);
      vector = triton::ExpandDimsOp::create(
          b, loc, RankedTensorType::get(shape, elementType, encoding), vector,
          b.getI32IntegerAttr(axis));
    }
    auto type = RankedTensorType::get(tile.getShape(), elementType,
                                      tile.getEncoding());
    if (vector.getType() == type)
      return vector;
    return triton::BroadcastOp::create(b, loc, type, vector);
  }

  /// 0, 1, ... along tile dimension `dim`, as a 1-D i32 tensor.
  Value range(unsigned dim) {
    auto type = RankedTensorType::get({tile.getDimSize(dim)}, b.getI32Type(),
                                      sliceAway(dim));
    return triton::MakeRangeOp::create(b, loc, type, 0,
                                       tile.getDimSize(dim));
  }

  Value splat(Value scalar, Type vectorType) {
    return triton::SplatOp::create(b, loc, vectorType, scalar);
  }

private:
  /// (axis, layout before slicing it away) for every tile dimension but
  /// `dim`, highest first (slicing a higher dimension keeps the lower ones'
  /// indices).
  SmallVector<std::pair<unsigned, Attribute>> slicesAround(unsigned dim) {
    SmallVector<std::pair<unsigned, Attribute>> slices;
    Attribute encoding = tile.getEncoding();
    for (int axis = tile.getRank() - 1; axis >= 0; --axis) {
      if (unsigned(axis) == dim)
        continue;
      slices.push_back({unsigned(axis), encoding});
      encoding = ttg::SliceEncodingAttr::get(
          b.getContext(), axis, cast<ttg::DistributedEncodingTrait>(encoding));
    }
    return slices;
  }
  /// The tile's layout with every dimension but `dim` sliced away.
  Attribute sliceAway(unsigned dim) {
    Attribute encoding = tile.getEncoding();
    for (auto [axis, before] : slicesAround(dim))
      encoding = ttg::SliceEncodingAttr::get(
          b.getContext(), axis, cast<ttg::DistributedEncodingTrait>(before));
    return encoding;
  }

  OpBuilder &b;
  Location loc;
  RankedTensorType tile;
};

/// What a descriptor is below TTGIR: its base address, i32 shape, i64
/// strides and padding.
struct DescriptorFields {
  Value base;
  SmallVector<Value> shape;
  SmallVector<Value> strides;
  triton::PaddingOption padding = triton::PaddingOption::PAD_ZERO;
};

/// The fields of `desc`: its maker's operands, or a kernel argument's base
/// address (musagpu.descriptor_base at the function's entry) and the i32
/// shape and i64 strides arguments after it. None for any other descriptor
/// (the conversion then names what it cannot lower).
std::optional<DescriptorFields> getFields(Value desc) {
  DescriptorFields fields;
  if (auto make = desc.getDefiningOp<triton::MakeTensorDescOp>()) {
    fields.base = make.getBase();
    fields.shape.assign(make.getShape().begin(), make.getShape().end());
    fields.strides.assign(make.getStrides().begin(), make.getStrides().end());
    fields.padding = make.getPadding();
    return fields;
  }
  if (!tme::isKernelArgument(desc))
    return std::nullopt;
  auto arg = cast<BlockArgument>(desc);
  Block *entry = arg.getOwner();
  auto type = cast<triton::TensorDescType>(desc.getType());
  unsigned rank = type.getBlockType().getRank();
  for (unsigned d = 0; d < rank; ++d) {
    Value size = entry->getArgument(arg.getArgNumber() + 1 + d);
    Value stride = entry->getArgument(arg.getArgNumber() + 1 + rank + d);
    if (!size.getType().isInteger(32) || !stride.getType().isInteger(64))
      return std::nullopt;
    fields.shape.push_back(size);
    fields.strides.push_back(stride);
  }
  OpBuilder b = OpBuilder::atBlockBegin(entry);
  fields.base = mgpu::DescriptorBaseOp::create(
      b, arg.getLoc(),
      triton::PointerType::get(type.getBlockType().getElementType(), 1), desc);
  return fields;
}

/// The pointers and the in-bounds mask of the tile at `indices` of the
/// descriptor `desc`, in the layout of `tile`.
struct TilePointers {
  Value pointers;
  Value mask;
};

FailureOr<TilePointers> buildTilePointers(Operation *access,
                                          const DescriptorFields &desc,
                                          ValueRange indices,
                                          RankedTensorType tile) {
  if (!tile.getEncoding())
    return access->emitError(kPassFlag)
           << ": expects a distributed layout on the tile, got " << tile;
  OpBuilder b(access);
  Location loc = access->getLoc();
  Type i64 = b.getI64Type();
  unsigned rank = desc.shape.size();
  // Leading size-1 block dimensions may be dropped from the tile.
  unsigned dropped = rank - tile.getRank();
  TileAddressBuilder build(b, loc, tile);

  // The tile's start: a scalar offset, and whether each dropped dimension
  // is in bounds.
  Value start;
  Value droppedInBounds;
  for (unsigned d = 0; d < rank; ++d) {
    Value term = arith::ExtSIOp::create(b, loc, i64, indices[d]);
    if (!matchPattern(desc.strides[d], m_One()))
      term = arith::MulIOp::create(b, loc, term, desc.strides[d]);
    start = start ? arith::AddIOp::create(b, loc, start, term) : term;
    if (d >= dropped)
      continue;
    Value inBounds = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ult, indices[d], desc.shape[d]);
    droppedInBounds = droppedInBounds
                          ? arith::AndIOp::create(b, loc, droppedInBounds,
                                                  inBounds)
                          : inBounds;
  }
  Value base =
      triton::AddPtrOp::create(b, loc, desc.base.getType(), desc.base, start);

  // The tile's own offsets and bounds, per kept dimension.
  Value offsets, mask;
  for (unsigned d = dropped; d < rank; ++d) {
    unsigned dim = d - dropped;
    Value range = build.range(dim);
    auto rangeType = cast<RankedTensorType>(range.getType());
    auto wideType = rangeType.clone(i64);
    Value offset = arith::ExtSIOp::create(b, loc, wideType, range);
    if (!matchPattern(desc.strides[d], m_One()))
      offset = arith::MulIOp::create(
          b, loc, offset, build.splat(desc.strides[d], wideType));
    offset = build.spread(offset, dim);
    offsets = offsets ? arith::AddIOp::create(b, loc, offsets, offset) : offset;

    Value coordinate = arith::AddIOp::create(
        b, loc, build.splat(indices[d], rangeType), range);
    Value inBounds = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ult, coordinate,
        build.splat(desc.shape[d], rangeType));
    inBounds = build.spread(inBounds, dim);
    mask = mask ? arith::AndIOp::create(b, loc, mask, inBounds) : inBounds;
  }
  if (droppedInBounds)
    mask = arith::AndIOp::create(
        b, loc, mask,
        build.splat(droppedInBounds, cast<RankedTensorType>(mask.getType())));
  auto pointerType = tile.clone(desc.base.getType());
  Value pointers = triton::AddPtrOp::create(
      b, loc, pointerType, build.splat(base, pointerType), offsets);
  return TilePointers{pointers, mask};
}

/// Rewrites `load` as a masked `tt.load`.
LogicalResult lowerToPointers(triton::DescriptorLoadOp load,
                              const DescriptorFields &desc) {
  auto tile = cast<RankedTensorType>(load.getType());
  FailureOr<TilePointers> access =
      buildTilePointers(load, desc, load.getIndices(), tile);
  if (failed(access))
    return failure();
  OpBuilder b(load);
  Type elementType = tile.getElementType();
  TypedAttr padding = b.getZeroAttr(elementType);
  if (auto floatType = dyn_cast<FloatType>(elementType);
      floatType && desc.padding == triton::PaddingOption::PAD_NAN)
    padding = b.getFloatAttr(floatType,
                             APFloat::getNaN(floatType.getFloatSemantics()));
  Value other = arith::ConstantOp::create(
      b, load.getLoc(), tile, DenseElementsAttr::get(tile, padding));
  auto replacement = triton::LoadOp::create(
      b, load.getLoc(), access->pointers, access->mask, other,
      /*boundaryCheck=*/ArrayRef<int32_t>{}, /*padding=*/nullptr,
      load.getCache(), load.getEvict(), /*isVolatile=*/false);
  load.replaceAllUsesWith(replacement.getResult());
  load.erase();
  return success();
}

/// Rewrites `store` as a masked `tt.store`.
LogicalResult lowerToPointers(triton::DescriptorStoreOp store,
                              const DescriptorFields &desc) {
  FailureOr<TilePointers> access =
      buildTilePointers(store, desc, store.getIndices(),
                        cast<RankedTensorType>(store.getSrc().getType()));
  if (failed(access))
    return failure();
  OpBuilder b(store);
  triton::StoreOp::create(b, store.getLoc(), access->pointers, store.getSrc(),
                          access->mask, /*boundaryCheck=*/ArrayRef<int32_t>{},
                          triton::CacheModifier::NONE,
                          triton::EvictionPolicy::NORMAL);
  store.erase();
  return success();
}

struct MUSALowerDescriptorsToPointers
    : public mlir::triton_musa::impl::MUSALowerDescriptorsToPointersBase<
          MUSALowerDescriptorsToPointers> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<const MUSAArchInfo *> musaArch =
        resolveMUSAArch(module, arch, kPassFlag);
    if (failed(musaArch))
      return signalPassFailure();
    std::unique_ptr<TargetInfo> targetInfo =
        createTargetInfo(**musaArch, target);
    for (auto func : module.getOps<triton::FuncOp>()) {
      // On an arch with TME, the transfers TME takes stay descriptor ops.
      tme::TransferReasons reasons;
      if ((*musaArch)->hasTME)
        reasons = tme::collectTransfers(func, *targetInfo,
                                        /*remarkOthers=*/false);
      auto viaTME = [&](Operation *op) {
        auto it = reasons.find(op);
        return it != reasons.end() && it->second.empty();
      };
      SmallVector<Operation *> accesses;
      func.walk([&](Operation *op) {
        if (isa<triton::DescriptorLoadOp, triton::DescriptorStoreOp>(op) &&
            !viaTME(op))
          accesses.push_back(op);
      });
      // Read once per descriptor (one base address per kernel argument).
      llvm::DenseMap<Value, std::optional<DescriptorFields>> fieldsOf;
      for (Operation *op : accesses) {
        Value desc = op->getOperand(0);
        auto [it, first] = fieldsOf.try_emplace(desc);
        if (first)
          it->second = getFields(desc);
        const std::optional<DescriptorFields> &fields = it->second;
        if (!fields)
          continue;
        LogicalResult lowered =
            isa<triton::DescriptorLoadOp>(op)
                ? lowerToPointers(cast<triton::DescriptorLoadOp>(op), *fields)
                : lowerToPointers(cast<triton::DescriptorStoreOp>(op), *fields);
        if (failed(lowered))
          return signalPassFailure();
      }
    }
  }
};

} // namespace
