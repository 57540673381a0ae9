//===- TritonOps.td - Python op bindings (ODS) ---------------------------------===//
//
// Wrapper for -gen-python-op-bindings: the generated module's place is taken
// from this file's path (AddMLIRPython), so it includes the dialect's own ops.
//
//===----------------------------------------------------------------------===//
#ifndef TRITON_MUSA_PYTHON_TT_OPS
#define TRITON_MUSA_PYTHON_TT_OPS

include "dialects/Triton/IR/TritonOps.td"

#endif // TRITON_MUSA_PYTHON_TT_OPS
