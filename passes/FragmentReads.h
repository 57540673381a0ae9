//===- FragmentReads.h - Buffers read into register fragments ---*- C++ -*-===//
//
// The shared-memory layout of a tile that a matrix unit reads back into a
// register fragment (WMMA operands): --musa-accelerate-matmul gives it to
// the operand buffers it reads, --musa-pipeline-loops to the rings it reads
// them from.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_PASSES_FRAGMENTREADS_H
#define TRITON_MUSA_PASSES_FRAGMENTREADS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/LLVM.h"

namespace mlir::triton_musa {

/// A `#ttg.swizzled_shared` layout of a `shape` tile of `elementBits`-bit
/// elements, `order` fastest dimension first, whose fragment reads spread
/// over the banks. A fragment read takes one 4-byte column (or, from an
/// operand stored N-major, one column of every other row) from 8
/// neighbouring rows; unswizzled rows of 64 bytes put four of them in one
/// bank. Whole 16-byte chunks (so that 16-byte copies still fill them) are
/// XORed with a phase that changes every 8 / min(8, chunks per row) rows,
/// so that one column's chunks in 8 neighbouring rows lie in 8 different
/// 16-byte groups of the 32 four-byte banks.
Attribute getFragmentReadEncoding(MLIRContext *ctx, ArrayRef<int64_t> shape,
                                  unsigned elementBits,
                                  ArrayRef<unsigned> order);

} // namespace mlir::triton_musa

#endif // TRITON_MUSA_PASSES_FRAGMENTREADS_H
