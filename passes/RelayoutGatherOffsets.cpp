//===- RelayoutGatherOffsets.cpp - --musa-relayout-gather-offsets --------===//
//
// The FMA-path lowering of tt.descriptor_gather/scatter has each thread
// address the rows it holds, so it needs each row's offset in the thread
// that holds the row: x_offsets in #ttg.slice<{dim = 1, parent = L}> where L
// is the tile's layout. Triton's layout passes leave x_offsets in whatever
// layout produced them; this pass inserts the ttg.convert_layout, which the
// allocation and barrier passes then treat like any other.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialects/Triton/IR/Dialect.h"
#include "dialects/TritonGPU/IR/Dialect.h"

#include "mlir/IR/Builders.h"

namespace mlir::triton_musa {
#define GEN_PASS_DEF_MUSARELAYOUTGATHEROFFSETS
#include "passes/Passes.h.inc"
} // namespace mlir::triton_musa

using namespace mlir;
using namespace mlir::triton_musa;
namespace ttg = mlir::triton::gpu;

namespace {

/// Converts `op`'s x_offsets operand to the slice of `tile`'s layout.
void relayoutOffsets(Operation *op, OpOperand &offsets, RankedTensorType tile) {
  auto offsetsType = cast<RankedTensorType>(offsets.get().getType());
  if (!tile.getEncoding() || !offsetsType.getEncoding())
    return;
  auto wanted = ttg::SliceEncodingAttr::get(op->getContext(), 1,
                                            tile.getEncoding());
  if (offsetsType.getEncoding() == wanted)
    return;
  OpBuilder b(op);
  auto type = RankedTensorType::get(offsetsType.getShape(),
                                    offsetsType.getElementType(), wanted);
  offsets.set(ttg::ConvertLayoutOp::create(b, op->getLoc(), type,
                                           offsets.get()));
}

struct MUSARelayoutGatherOffsets
    : public mlir::triton_musa::impl::MUSARelayoutGatherOffsetsBase<
          MUSARelayoutGatherOffsets> {
  using Base::Base;

  void runOnOperation() override {
    getOperation().walk([](Operation *op) {
      if (auto gather = dyn_cast<triton::DescriptorGatherOp>(op))
        relayoutOffsets(op, gather.getXOffsetsMutable(),
                        cast<RankedTensorType>(gather.getResult().getType()));
      else if (auto scatter = dyn_cast<triton::DescriptorScatterOp>(op))
        relayoutOffsets(op, scatter.getXOffsetsMutable(),
                        cast<RankedTensorType>(scatter.getSrc().getType()));
    });
  }
};

} // namespace
