//===- LayoutIndices.h - Index math from linear layouts ---------*- C++ -*-===//
//
// All index math of the lowering comes from linear layouts. A distributed
// tensor's layout L maps (register, lane, warp, block) to coordinates; the
// coordinates of register r of the current thread are
//   L(r, 0, 0, 0) XOR L(0, lane, warp, 0),
// the first a compile-time constant, the second computed at run time bit by
// bit from the thread id (tid = lane + warp * warpSize).
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_LAYOUTINDICES_H
#define TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_LAYOUTINDICES_H

#include "layouts/LinearLayout.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::triton_musa {

class TargetInfo;

/// The linear layout of a tensor type with a distributed layout; reports
/// through `emitError` when it has none (or an unsupported one).
FailureOr<mlir::triton_musa::LinearLayout>
getLinearLayout(RankedTensorType type,
                function_ref<InFlightDiagnostic()> emitError);

/// L(inputs) for constant inputs (missing dimensions are 0): one coordinate
/// per output dimension.
SmallVector<int32_t>
applyLayout(const mlir::triton_musa::LinearLayout &layout,
            ArrayRef<mlir::triton_musa::LinearLayout::DimValue> inputs);

/// For each register of `layout`, one i32 per tensor dimension: the
/// coordinates the current thread holds there.
SmallVector<SmallVector<Value>>
emitIndices(OpBuilder &b, Location loc, const TargetInfo &target,
            const mlir::triton_musa::LinearLayout &layout);

/// The current thread's lane and warp ids (i32).
std::pair<Value, Value> emitLaneAndWarpId(OpBuilder &b, Location loc,
                                          const TargetInfo &target);

/// Register-only data movement between layouts `src` and `dst`: for each
/// register of `dst`, the register of `src` that holds the element at
/// `toSrc(dst coordinates)`. Fails if lanes, warps or blocks would have to
/// exchange data (the lane/warp/block parts of the layouts differ under
/// `toSrc`).
FailureOr<SmallVector<unsigned>>
mapRegisters(const mlir::triton_musa::LinearLayout &src,
             const mlir::triton_musa::LinearLayout &dst,
             function_ref<SmallVector<int32_t>(ArrayRef<int32_t>)> toSrc);

/// i1 that is true on the one thread (of the threads holding copies of the
/// same elements) that should write them: lanes and warps with a free
/// (duplicate) bit set are off. Null when every thread holds distinct data.
Value emitOwnerPredicate(OpBuilder &b, Location loc, const TargetInfo &target,
                         const mlir::triton_musa::LinearLayout &layout);

/// i1 that is true where `lane & laneMask` and `warp & warpMask` are both 0;
/// null when both masks are 0.
Value emitIdBitsClearPredicate(OpBuilder &b, Location loc, Value lane,
                               int32_t laneMask, Value warp, int32_t warpMask);

/// Mask of register bits that only repeat data held in lower registers.
int32_t getDuplicateRegisterMask(const mlir::triton_musa::LinearLayout &layout);

} // namespace mlir::triton_musa

#endif // TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_LAYOUTINDICES_H
