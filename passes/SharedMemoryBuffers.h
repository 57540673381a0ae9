//===- SharedMemoryBuffers.h - Shared-memory buffers of TTGIR ---*- C++ -*-===//
//
// What --musa-allocate-shared-memory and --musa-insert-barriers agree on:
// which ops own a buffer, how large it is, and which buffers a memdesc
// value may view.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_PASSES_SHAREDMEMORYBUFFERS_H
#define TRITON_MUSA_PASSES_SHAREDMEMORYBUFFERS_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"

namespace mlir::triton_musa {

class TargetInfo;

/// A buffer an op owns: a ttg.local_alloc's allocation or an op's scratch.
struct OwnedBuffer {
  int64_t bytes = 0;
  int64_t alignment = 16;
  bool isScratch = false;
};

/// The buffer `op` owns, if any (nullopt for ops without one); fails with a
/// diagnostic on `op` where its size cannot be computed.
FailureOr<std::optional<OwnedBuffer>>
getOwnedBuffer(Operation *op, const TargetInfo &targetInfo);

/// Adds to `allocs` the ttg.local_alloc ops whose buffers `memdesc` may
/// view, through memdesc views, scf results and loop-carried values.
/// Returns false when some origin is unknown (a function argument, an op
/// that is not a view): the caller must then assume any buffer.
bool collectViewedAllocs(Value memdesc, SmallVectorImpl<Operation *> &allocs);

} // namespace mlir::triton_musa

#endif // TRITON_MUSA_PASSES_SHAREDMEMORYBUFFERS_H
