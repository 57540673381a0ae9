//===- Passes.h - TTGIR -> LLVM dialect for MUSA ----------------*- C++ -*-===//
//
// Public entry points of --convert-tritongpu-to-musa.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_PASSES_H
#define TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_PASSES_H

#include "target/TargetPassOptions.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::triton_musa {

#define GEN_PASS_DECL
#include "conversion/TritonGPUToMUSA/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "conversion/TritonGPUToMUSA/Passes.h.inc"

} // namespace mlir::triton_musa

#endif // TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_PASSES_H
