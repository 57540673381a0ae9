//===- Passes.h - TTGIR-level MUSA passes -----------------------*- C++ -*-===//
//
// Passes that run on TTGIR before --convert-tritongpu-to-musa, in pipeline
// order: --musa-carry-descriptor-fields,
// --musa-lower-descriptors-to-pointers, --musa-decompose-scaled-dot,
// --musa-accelerate-matmul,
// --musa-sink-accumulator-conversions, --musa-pipeline-loops (pipeline/),
// --musa-lower-descriptors-to-tme, --musa-relayout-gather-offsets,
// --musa-allocate-shared-memory, --musa-insert-barriers; and
// --musa-dot-path-report, which reports the matrix-path selection.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_PASSES_PASSES_H
#define TRITON_MUSA_PASSES_PASSES_H

#include "target/TargetPassOptions.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::triton_musa {

#define GEN_PASS_DECL
#include "passes/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/Passes.h.inc"

} // namespace mlir::triton_musa

#endif // TRITON_MUSA_PASSES_PASSES_H
