#ifndef TRITON_MUSA_DIALECTS_MUSAGPU_IR_DIALECT_H
#define TRITON_MUSA_DIALECTS_MUSAGPU_IR_DIALECT_H

#include "dialects/Triton/IR/Dialect.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"

#include "dialects/MUSAGPU/IR/MUSAGPUDialect.h.inc"

#define GET_OP_CLASSES
#include "dialects/MUSAGPU/IR/MUSAGPUOps.h.inc"

#endif // TRITON_MUSA_DIALECTS_MUSAGPU_IR_DIALECT_H
