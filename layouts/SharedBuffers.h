//===- SharedBuffers.h - Layout and bytes of shared-memory buffers -*- C++ -*-===//
//
// What a `!ttg.memdesc` buffer holds: its linear layout (offset -> tensor
// dimensions) and its bytes. Below the passes, which allocate by it
// (--musa-allocate-shared-memory, --musa-pipeline-loops' budget), and the
// lowering, which addresses by it.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_LAYOUTS_SHAREDBUFFERS_H
#define TRITON_MUSA_LAYOUTS_SHAREDBUFFERS_H

#include "layouts/LinearLayout.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Types.h"
#include "mlir/Support/LLVM.h"

namespace mlir::triton::gpu {
class MemDescType;
} // namespace mlir::triton::gpu

namespace mlir::triton_musa {

/// Bytes one element of `elementType` takes in shared memory: i1 is stored
/// as i8, pointers as 8 bytes, other ints and floats in their own width.
unsigned getSharedElementBytes(Type elementType);

/// The linear layout (offset -> tensor dims) of one buffer of `type`: the
/// trailing dimensions of its allocation shape that its encoding covers.
FailureOr<mlir::triton_musa::LinearLayout>
getSharedBufferLayout(triton::gpu::MemDescType type,
                      function_ref<InFlightDiagnostic()> emitError);

/// Bytes of one buffer of `type` (the trailing dimensions its encoding
/// covers, padding of #ttg.padded_shared included); fails with a diagnostic
/// through `emitError` on shapes or layouts without a linear layout.
FailureOr<int64_t>
getSharedBufferBytes(triton::gpu::MemDescType type,
                     function_ref<InFlightDiagnostic()> emitError);

/// Bytes of the whole allocation of `type` (its allocation shape: the
/// leading buffer dimension of a multi-buffered allocation included).
FailureOr<int64_t>
getSharedAllocationBytes(triton::gpu::MemDescType type,
                         function_ref<InFlightDiagnostic()> emitError);

} // namespace mlir::triton_musa

#endif // TRITON_MUSA_LAYOUTS_SHAREDBUFFERS_H
