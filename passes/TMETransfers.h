//===- TMETransfers.h - Which descriptor tiles TME moves --------*- C++ -*-===//
//
// What --musa-pipeline-loops (descriptor loads it rings) and
// --musa-lower-descriptors-to-tme (every other descriptor load and store)
// agree on: which descriptor transfers of a function go through TME and
// why the others do not, the shared layout of a TME buffer, the box of a
// tile, and the function's async barrier ids, which both passes reserve
// from one `musagpu.async_barrier_record`.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_PASSES_TMETRANSFERS_H
#define TRITON_MUSA_PASSES_TMETRANSFERS_H

#include "dialects/MUSAGPU/IR/Dialect.h"
#include "dialects/Triton/IR/Dialect.h"
#include "target/TargetInfo.h"

#include "llvm/ADT/MapVector.h"

#include <string>

namespace mlir::triton_musa::tme {

/// Async barrier ids are 1..63.
constexpr int32_t kMaxAsyncBarrierId = 63;

/// Per descriptor load and store of a function: why it stays without TME,
/// or "" if it goes through TME.
using TransferReasons = llvm::MapVector<Operation *, std::string>;

/// Every descriptor load and store of `func` with why it stays without TME,
/// on an arch with TME. Where the target's TME reads host-encoded
/// descriptors only, the host passes one form per descriptor argument, so
/// every use of an argument stays without TME when one does; a
/// `musagpu.tme_load` of an argument (a load ringed by the pipeliner)
/// counts as a use through TME. `remarkOthers`: a remark on each gather,
/// scatter and reduce (which TME has no form for).
TransferReasons collectTransfers(triton::FuncOp func,
                                 const TargetInfo &targetInfo,
                                 bool remarkOthers);

/// Where the target's TME reads host-encoded descriptors only: where one
/// use of a kernel-argument descriptor stays without TME (a reason in
/// `reasons`, or an op `reasons` does not list), every use in `reasons` of
/// that argument does too.
void applyOneFormPerArgument(triton::FuncOp func, TransferReasons &reasons);

/// Whether `desc` is a kernel argument followed by its shape and strides.
bool isKernelArgument(Value desc);

/// The TME box of `tile`: its shape, innermost dimension first.
SmallVector<int32_t> getBox(RankedTensorType tile);
/// Tile indices (outermost first, as Triton) as TME coordinates.
SmallVector<Value> innermostFirst(ValueRange indices);
int64_t getTileBytes(RankedTensorType tile);

/// The op --musa-lower-descriptors-to-tme allocates `op`'s TME buffer
/// around (before it, freed after it): the outermost loop around `op`, so
/// one buffer serves every iteration, else `op` itself.
Operation *getBufferScope(Operation *op);

/// Whether `func` has async global->shared copies.
bool hasAsyncCopies(triton::FuncOp func);

/// The first async barrier id of `func` not reserved yet (see
/// reserveAsyncBarrierIds); past 63 when none is left.
int32_t nextAsyncBarrierId(triton::FuncOp func, bool keepIdForCopies);

/// Reserves `count` consecutive async barrier ids of `func` and records the
/// highest id used in the function's one `musagpu.async_barrier_record` (at
/// its entry, made here if missing). The first reservation starts at 2
/// where `keepIdForCopies` (public MUSA code leaves id 1 to g2s copies),
/// else at 1. Returns the first id, or failure past id 63.
FailureOr<int32_t> reserveAsyncBarrierIds(triton::FuncOp func, int32_t count,
                                          bool keepIdForCopies);

} // namespace mlir::triton_musa::tme

#endif // TRITON_MUSA_PASSES_TMETRANSFERS_H
