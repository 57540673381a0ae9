//===- SharedMemory.h - Tensors to and from shared memory -----*- C++ -*-===//
//
// How every pattern family moves a distributed tensor through shared memory
// (defined in SharedMemory.cpp). A buffer is a shared pointer
// (`!llvm.ptr<3>`: a converted `!ttg.memdesc`, or getScratchPointer for an
// op's scratch) plus a shared linear layout S (kOffset -> "dim0".."dimN")
// saying which tensor element each element slot holds. Thread addresses
// come from C = invertAndCompose(S, L) for the tensor's layout L: register
// r of the current thread lives at element C(r, lane, warp).
//
// The helpers issue no barrier: put `targetInfo.sharedMemoryBarrier`
// between a store and the loads of the same op; hazards between ops are
// --musa-insert-barriers' job.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_SHAREDMEMORY_H
#define TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_SHAREDMEMORY_H

#include "dialects/TritonGPU/IR/Dialect.h"
#include "layouts/LinearLayout.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::triton_musa {

class TargetInfo;

/// A shared buffer as the helpers below address it.
struct SharedBuffer {
  /// `!llvm.ptr<3>` to element slot 0.
  Value base;
  /// kOffset (and kBlock) -> tensor dimensions.
  mlir::triton_musa::LinearLayout layout;
  /// Element type in the tensor (before type conversion), e.g. i1, f16,
  /// !tt.ptr<f32>; i1 is kept as i8 in memory.
  Type elementType;
  /// Set for #ttg.padded_shared: slots are padded after every interval.
  triton::gpu::PaddedSharedEncodingAttr padded = nullptr;
};

/// For each register of `layout`: the element slot (i32) of `buffer` that
/// holds the current thread's element there, before padding.
FailureOr<SmallVector<Value>>
emitSharedSlots(RewriterBase &rewriter, Location loc,
                const TargetInfo &targetInfo, const SharedBuffer &buffer,
                const mlir::triton_musa::LinearLayout &layout,
                function_ref<InFlightDiagnostic()> emitError);

/// The widest access of one thread to shared memory, in bytes.
inline constexpr unsigned kMaxSharedAccessBytes = 16;

/// The number of consecutive registers (a power of two, at most `maxVec`)
/// the current thread accesses together: register r + j must hold the
/// element at slot(r) + j of the buffer (`toSlots` maps registers, lanes
/// and warps to slots), with slot(r) a multiple of the width (buffers start
/// aligned to their widest access).
unsigned getSharedVectorWidth(const mlir::triton_musa::LinearLayout &toSlots,
                              const SharedBuffer &buffer, unsigned maxVec);

/// Pointer to element slot `slot` of `buffer` (padding applied).
Value emitSharedSlotPointer(RewriterBase &rewriter, Location loc,
                            const SharedBuffer &buffer, Value slot);

/// Stores the current thread's `values` (converted element values, one per
/// register of `layout`) into `buffer`, as vectors of registers that are
/// consecutive in the buffer (getSharedVectorWidth). Registers that repeat
/// lower registers are skipped and only one of the lanes/warps holding the
/// same elements writes (a branch around the stores).
LogicalResult storeDistributedToShared(
    RewriterBase &rewriter, Location loc, const TargetInfo &targetInfo,
    const SharedBuffer &buffer, const mlir::triton_musa::LinearLayout &layout,
    ArrayRef<Value> values, Type llvmElementType,
    function_ref<InFlightDiagnostic()> emitError);

/// Loads, for every register of `layout`, the element the current thread
/// holds there from `buffer` (vectors as storeDistributedToShared); values
/// have type `llvmElementType`.
FailureOr<SmallVector<Value>> loadDistributedFromShared(
    RewriterBase &rewriter, Location loc, const TargetInfo &targetInfo,
    const SharedBuffer &buffer, const mlir::triton_musa::LinearLayout &layout,
    Type llvmElementType, function_ref<InFlightDiagnostic()> emitError);

} // namespace mlir::triton_musa

#endif // TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_SHAREDMEMORY_H
