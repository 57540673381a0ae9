//===- LayoutConversion.h - Layout attributes to linear layouts -*- C++ -*-===//
//
// Converts every ttg layout attribute and musagpu encoding into a
// LinearLayout: the single source of index math for the TTGIR -> LLVM
// lowering.
//
//  * Distributed layouts (#ttg.blocked, #ttg.slice, #ttg.dot_op with a
//    blocked or #musagpu.wmma parent, #ttg.linear, #musagpu.sqmma,
//    #musagpu.wmma, #musagpu.wmma_operand): input dimensions "register",
//    "lane", "warp", "block" (always all four, in this order, possibly of size
//    1) -> output dimensions "dim0".."dim{rank-1}" (tensor dimension i, sized
//    to the tensor shape).
//  * Shared layouts (#ttg.swizzled_shared, #ttg.padded_shared,
//    #ttg.shared_linear, #musagpu.tme_shared): input dimensions "offset" (the
//    element offset in the allocation) and "block" -> "dim0".."dim{rank-1}".
//    For #ttg.padded_shared "offset" is the offset before padding; see
//    applyPaddedSharedPadding.
//
// Shapes must be powers of two. When the layout's natural tile (e.g. a
// blocked CTA tile) is smaller than the shape it repeats in registers (or in
// "offset" for shared layouts), most-minor dimension of the layout's order
// first; when it is larger, coordinates wrap (the excess lanes and warps
// broadcast, the excess registers are dropped). This follows Triton's
// ensureLayoutNotSmallerThan/ensureLayoutNotLargerThan.
//
// The MUSA fragment arrangements (#musagpu.sqmma, #musagpu.wmma,
// #musagpu.wmma_operand) and the #musagpu.tme_shared swizzle are partly
// inferred; LayoutConversion.cpp documents each assumption where it is made.
// #ttg.nvmma_shared and #ttg.amd_rotating_shared are rejected (not MUSA
// layouts).
//
// Errors (unsupported attributes, malformed parameters, shapes that are not
// powers of two) are reported through emitError and FailureOr, never by
// assertion.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_LAYOUTS_LAYOUTCONVERSION_H
#define TRITON_MUSA_LAYOUTS_LAYOUTCONVERSION_H

#include "layouts/LinearLayout.h"

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/LogicalResult.h"

#include <cstdint>

namespace mlir::triton::gpu {
class MemDescType;
class PaddedSharedEncodingAttr;
} // namespace mlir::triton::gpu

namespace mlir::triton_musa {

/// The linear layout of `layout` for a tensor (or shared buffer) of `shape`.
/// Distributed layouts: "register", "lane", "warp", "block" -> "dim0".. ;
/// shared layouts: "offset", "block" -> "dim0"... Fails, reporting through
/// `emitError` (which may be null: then silently), on unsupported attributes
/// (naming them), malformed parameters and non-power-of-two shapes.
llvm::FailureOr<LinearLayout>
toLinearLayout(llvm::ArrayRef<int64_t> shape, mlir::Attribute layout,
               llvm::function_ref<mlir::InFlightDiagnostic()> emitError);

/// The layout of a tensor type from its encoding; errors are reported at an
/// unknown location of the type's context.
llvm::FailureOr<LinearLayout> toLinearLayout(mlir::RankedTensorType type);

/// The layout of a shared buffer from its encoding, over the allocation
/// shape (the trailing dimensions matching the encoding rank: a
/// multi-buffered allocation's leading buffer index is not part of it).
llvm::FailureOr<LinearLayout>
toLinearLayout(mlir::triton::gpu::MemDescType type);

/// The number of elements each thread holds: the size of the "register"
/// dimension of toLinearLayout(shape, layout), duplicates included.
llvm::FailureOr<unsigned> getNumElementsPerThread(
    llvm::ArrayRef<int64_t> shape, mlir::Attribute layout,
    llvm::function_ref<mlir::InFlightDiagnostic()> emitError = nullptr);

/// The physical element offset of logical (unpadded) `offset` in a
/// #ttg.padded_shared allocation: after every `interval` elements,
/// `padding` elements are skipped, for each (interval, padding) pair.
int64_t applyPaddedSharedPadding(mlir::triton::gpu::PaddedSharedEncodingAttr,
                                 int64_t offset);

} // namespace mlir::triton_musa

#endif // TRITON_MUSA_LAYOUTS_LAYOUTCONVERSION_H
