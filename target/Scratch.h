//===- Scratch.h - Shared-memory scratch and allocation contract -*- C++ -*-===//
//
// The contract between --musa-allocate-shared-memory and the lowering:
//  - every op whose lowering needs shared memory of its own (scratch) says
//    how much through getScratchSizeInBytes; ttg.local_alloc needs its
//    memdesc's bytes;
//  - the allocation pass stores each buffer's byte offset in the op's
//    `allocation.offset` attribute and the kernel's total in the module's
//    `ttg.shared` attribute;
//  - patterns reach their buffer through getScratchPointer.
// Declared here, below passes/, which allocate by it; defined by the
// conversion: each op family's size function in its <Family>OpToLLVM.cpp,
// next to the lowering whose shared-memory use it describes, the dispatch
// and getScratchPointer in conversion/TritonGPUToMUSA/Scratch.cpp. The
// bytes of a ttg.local_alloc's buffer are layouts/SharedBuffers.h's.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_TARGET_SCRATCH_H
#define TRITON_MUSA_TARGET_SCRATCH_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace mlir::triton_musa {

class TargetInfo;

/// Byte offset of an op's shared-memory buffer (i32 attribute).
constexpr StringLiteral kAllocationOffsetAttr = "allocation.offset";
/// Module attribute: shared memory bytes the kernel needs (i32).
constexpr StringLiteral kSharedMemorySizeAttr = "ttg.shared";

/// Bytes of scratch shared memory the lowering of `op` needs; 0 for ops that
/// need none. Fails (with a diagnostic on `op`) where the op's types cannot
/// be lowered.
FailureOr<unsigned> getScratchSizeInBytes(Operation *op,
                                          const TargetInfo &targetInfo);

/// Per-family scratch sizes (same contract as getScratchSizeInBytes).
FailureOr<unsigned> getConvertLayoutScratchBytes(Operation *op,
                                                 const TargetInfo &targetInfo);
FailureOr<unsigned> getReduceScratchBytes(Operation *op,
                                          const TargetInfo &targetInfo);
FailureOr<unsigned> getScanScratchBytes(Operation *op,
                                        const TargetInfo &targetInfo);
FailureOr<unsigned> getAtomicScratchBytes(Operation *op,
                                          const TargetInfo &targetInfo);
FailureOr<unsigned> getGatherScratchBytes(Operation *op,
                                          const TargetInfo &targetInfo);
FailureOr<unsigned> getHistogramScratchBytes(Operation *op,
                                             const TargetInfo &targetInfo);

/// Pointer (`!llvm.ptr<3>`) to the shared memory allocated for `op`; fails
/// with a diagnostic when the op has no `allocation.offset` (the module did
/// not go through --musa-allocate-shared-memory).
FailureOr<Value> getScratchPointer(OpBuilder &b, Location loc, Operation *op,
                                   const TargetInfo &targetInfo);

} // namespace mlir::triton_musa

#endif // TRITON_MUSA_TARGET_SCRATCH_H
