//===- MUSAGPUOps.td - Python op bindings (ODS) ---------------------------------===//
//
// Wrapper for -gen-python-op-bindings: the generated module's place is taken
// from this file's path (AddMLIRPython), so it includes the dialect's own ops.
//
//===----------------------------------------------------------------------===//
#ifndef TRITON_MUSA_PYTHON_MUSAGPU_OPS
#define TRITON_MUSA_PYTHON_MUSAGPU_OPS

include "dialects/MUSAGPU/IR/MUSAGPUOps.td"

#endif // TRITON_MUSA_PYTHON_MUSAGPU_OPS
