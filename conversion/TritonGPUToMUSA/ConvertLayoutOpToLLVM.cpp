//===- ConvertLayoutOpToLLVM.cpp - ttg.convert_layout -> LLVM ------------===//
//
// The cheapest correct path, decided from the two linear layouts:
//  - registers only, when every lane and warp keeps its data (mapRegisters):
//    the result registers are a selection of the source registers;
//  - warp shuffles, when data only moves between lanes of a warp and each
//    result register comes from one source register in every lane: with
//    C = invertAndCompose(src, dst) (result register/lane/warp -> source
//    register/lane/warp), C keeps warps, lanes map to lanes only, and
//    register r of lane l reads source register C_reg(r) of lane
//    C_lane(r) ^ C_lane(l) with one indexed shuffle;
//  - otherwise through shared memory: each owner thread writes its distinct
//    elements to the op's scratch buffer, laid out row-major (last
//    dimension fastest, unswizzled), then, after a barrier, every thread
//    reads the elements its result layout needs.
// Future work: shuffles whose source register depends on the lane (a
// select after several shuffles), a swizzled scratch layout against bank
// conflicts, vector accesses.
//
//===----------------------------------------------------------------------===//

#include "conversion/TritonGPUToMUSA/LayoutIndices.h"
#include "conversion/TritonGPUToMUSA/PatternTritonGPUOpToLLVM.h"
#include "conversion/TritonGPUToMUSA/Scratch.h"
#include "conversion/TritonGPUToMUSA/SharedMemory.h"
#include "conversion/TritonGPUToMUSA/Utility.h"

#include "dialects/TritonGPU/IR/Dialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"

#include <map>

using namespace mlir;
using namespace mlir::triton_musa;
using mlir::triton_musa::LinearLayout;
namespace ttg = mlir::triton::gpu;

namespace {

/// How a conversion moves data.
enum class ConvertPath { Registers, WarpShuffle, SharedMemory };

struct ConvertPlan {
  ConvertPath path;
  LinearLayout src;
  LinearLayout dst;
  /// For Registers and WarpShuffle: the source register of each result
  /// register.
  SmallVector<unsigned> registers;
  /// For WarpShuffle: result (register, lane, warp, block) -> source ones.
  LinearLayout toSource;
};

/// Coordinates of input bit `bit` of `name` in `layout`, as a map from
/// output dimension name to value.
std::map<std::string, int32_t> imageOf(const LinearLayout &layout,
                                       StringRef name, int32_t bit) {
  SmallVector<int32_t> coords = applyLayout(layout, {{name.str(), bit}});
  std::map<std::string, int32_t> result;
  for (auto [i, out] : llvm::enumerate(layout.getOutDimNames()))
    result[out] = coords[i];
  return result;
}

/// The map C of a shuffle-only conversion (see the file header), if the
/// conversion is one.
std::optional<LinearLayout> getShuffleMap(const LinearLayout &src,
                                          const LinearLayout &dst) {
  llvm::Expected<LinearLayout> c = mlir::triton_musa::invertAndCompose(src, dst);
  if (!c) {
    llvm::consumeError(c.takeError());
    return std::nullopt;
  }
  if (c->getInDimSize(kWarp) != c->getOutDimSize(kWarp) ||
      c->getInDimSize(kBlock) != 1)
    return std::nullopt;
  for (int32_t i = 0; i < c->getInDimSizeLog2(kWarp); ++i) {
    auto image = imageOf(*c, kWarp, int32_t(1) << i);
    if (image[kWarp] != (int32_t(1) << i) || image[kRegister] ||
        image[kLane] || image[kBlock])
      return std::nullopt;
  }
  for (int32_t i = 0; i < c->getInDimSizeLog2(kLane); ++i) {
    auto image = imageOf(*c, kLane, int32_t(1) << i);
    if (image[kRegister] || image[kWarp] || image[kBlock])
      return std::nullopt;
  }
  for (int32_t i = 0; i < c->getInDimSizeLog2(kRegister); ++i) {
    auto image = imageOf(*c, kRegister, int32_t(1) << i);
    if (image[kWarp] || image[kBlock])
      return std::nullopt;
  }
  return std::move(*c);
}

FailureOr<ConvertPlan> planConversion(ttg::ConvertLayoutOp op) {
  auto emitError = [&] { return op.emitError(); };
  auto srcType = cast<RankedTensorType>(op.getSrc().getType());
  auto dstType = cast<RankedTensorType>(op.getType());
  auto src = getLinearLayout(srcType, emitError);
  auto dst = getLinearLayout(dstType, emitError);
  if (failed(src) || failed(dst))
    return failure();
  auto identity = [](ArrayRef<int32_t> coords) {
    return SmallVector<int32_t>(coords);
  };
  FailureOr<SmallVector<unsigned>> registers =
      mapRegisters(*src, *dst, identity);
  if (succeeded(registers))
    return ConvertPlan{ConvertPath::Registers, std::move(*src),
                       std::move(*dst), std::move(*registers), {}};
  if (std::optional<LinearLayout> c = getShuffleMap(*src, *dst)) {
    SmallVector<unsigned> sources;
    for (int32_t r = 0; r < dst->getInDimSize(kRegister); ++r)
      sources.push_back(imageOf(*c, kRegister, r)[kRegister]);
    return ConvertPlan{ConvertPath::WarpShuffle, std::move(*src),
                       std::move(*dst), std::move(sources), std::move(*c)};
  }
  return ConvertPlan{ConvertPath::SharedMemory, std::move(*src),
                     std::move(*dst), {}, {}};
}

/// Lowers ttg.convert_layout by a register selection or through scratch
/// shared memory (see the file header).
struct ConvertLayoutOpConversion : public MUSAPattern<ttg::ConvertLayoutOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(ttg::ConvertLayoutOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto emitError = [&] { return op.emitError(); };
    auto dstType = cast<RankedTensorType>(op.getType());
    Type structType = getTypeConverter()->convertType(dstType);
    Type elementType =
        getTypeConverter()->convertType(dstType.getElementType());
    if (!structType || !elementType)
      return failure();
    FailureOr<ConvertPlan> plan = planConversion(op);
    if (failed(plan))
      return failure();
    SmallVector<Value> srcValues =
        unpackLLElements(rewriter, loc, adaptor.getSrc());

    if (plan->path == ConvertPath::Registers) {
      SmallVector<Value> values;
      for (unsigned r : plan->registers)
        values.push_back(srcValues[r]);
      rewriter.replaceOp(op,
                         packLLElements(rewriter, loc, values, structType));
      return success();
    }

    if (plan->path == ConvertPath::WarpShuffle) {
      // The source lane of each result register: C's kLane output.
      SmallVector<SmallVector<Value>> sources =
          emitIndices(rewriter, loc, targetInfo, plan->toSource);
      int laneDim = -1;
      for (auto [i, name] : llvm::enumerate(plan->toSource.getOutDimNames()))
        if (name == kLane)
          laneDim = i;
      SmallVector<Value> values;
      for (auto [r, srcRegister] : llvm::enumerate(plan->registers)) {
        Value lane = laneDim < 0 ? i32Const(rewriter, loc, 0)
                                 : sources[r][laneDim];
        values.push_back(emitShuffleIdx(rewriter, loc, srcValues[srcRegister],
                                        lane));
      }
      rewriter.replaceOp(op,
                         packLLElements(rewriter, loc, values, structType));
      return success();
    }

    FailureOr<Value> base = getScratchPointer(rewriter, loc, op, targetInfo);
    if (failed(base))
      return failure();
    auto scratchLayout =
        getRowMajorSharedLayout(dstType.getShape(), emitError);
    if (failed(scratchLayout))
      return failure();
    SharedBuffer buffer{*base, std::move(*scratchLayout),
                        dstType.getElementType()};
    if (failed(storeDistributedToShared(rewriter, loc, targetInfo, buffer,
                                        plan->src, srcValues, elementType,
                                        emitError)))
      return failure();
    targetInfo.sharedMemoryBarrier(rewriter, loc);
    FailureOr<SmallVector<Value>> values = loadDistributedFromShared(
        rewriter, loc, targetInfo, buffer, plan->dst, elementType, emitError);
    if (failed(values))
      return failure();
    rewriter.replaceOp(op, packLLElements(rewriter, loc, *values, structType));
    return success();
  }

private:
  /// Reads `value` of lane `lane`: as an i32 (or i64) through the target's
  /// indexed shuffle, whatever the element type.
  Value emitShuffleIdx(ConversionPatternRewriter &rewriter, Location loc,
                       Value value, Value lane) const {
    Type type = value.getType();
    if (isa<LLVM::LLVMPointerType>(type)) {
      Value bits = LLVM::PtrToIntOp::create(rewriter, loc,
                                            rewriter.getI64Type(), value);
      Value moved = targetInfo.shuffleIdx(rewriter, loc, bits, lane);
      return LLVM::IntToPtrOp::create(rewriter, loc, type, moved);
    }
    unsigned width = type.getIntOrFloatBitWidth();
    if (width == 32 || width == 64)
      return targetInfo.shuffleIdx(rewriter, loc, value, lane);
    // Narrow values travel zero-extended in an i32.
    Type narrow = rewriter.getIntegerType(width);
    Value bits = value;
    if (!type.isInteger(width))
      bits = LLVM::BitcastOp::create(rewriter, loc, narrow, value);
    bits = LLVM::ZExtOp::create(rewriter, loc, rewriter.getI32Type(), bits);
    Value moved = targetInfo.shuffleIdx(rewriter, loc, bits, lane);
    moved = LLVM::TruncOp::create(rewriter, loc, narrow, moved);
    if (!type.isInteger(width))
      moved = LLVM::BitcastOp::create(rewriter, loc, type, moved);
    return moved;
  }
};

} // namespace

FailureOr<unsigned>
mlir::triton_musa::getConvertLayoutScratchBytes(Operation *op,
                                                const TargetInfo &targetInfo) {
  auto convert = cast<ttg::ConvertLayoutOp>(op);
  FailureOr<ConvertPlan> plan = planConversion(convert);
  if (failed(plan))
    return failure();
  if (plan->path != ConvertPath::SharedMemory)
    return 0u;
  auto type = cast<RankedTensorType>(convert.getType());
  return unsigned(type.getNumElements() *
                  getSharedElementBytes(type.getElementType()));
}

void mlir::triton_musa::populateConvertLayoutOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo) {
  patterns.add<ConvertLayoutOpConversion>(typeConverter, targetInfo);
}
