#ifndef TRITON_MUSA_DIALECTS_TRITONGPU_IR_DIALECT_H
#define TRITON_MUSA_DIALECTS_TRITONGPU_IR_DIALECT_H

#include "dialects/Triton/IR/Dialect.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"

#include "dialects/TritonGPU/IR/TritonGPUDialect.h.inc"

#define GET_OP_CLASSES
#include "dialects/TritonGPU/IR/TritonGPUOps.h.inc"

#endif // TRITON_MUSA_DIALECTS_TRITONGPU_IR_DIALECT_H
