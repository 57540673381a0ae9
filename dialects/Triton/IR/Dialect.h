#ifndef TRITON_MUSA_DIALECTS_TRITON_IR_DIALECT_H
#define TRITON_MUSA_DIALECTS_TRITON_IR_DIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"

#include "dialects/Triton/IR/TritonDialect.h.inc"

#define GET_OP_CLASSES
#include "dialects/Triton/IR/TritonOps.h.inc"

#endif // TRITON_MUSA_DIALECTS_TRITON_IR_DIALECT_H
