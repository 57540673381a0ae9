//===- Dialect.cpp - The tt dialect --------------------------------------===//

#include "dialects/Triton/IR/Dialect.h"

using namespace mlir;
using namespace mlir::triton;

#include "dialects/Triton/IR/TritonDialect.cpp.inc"
#include "dialects/Triton/IR/TritonEnums.cpp.inc"

void TritonDialect::initialize() {
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "dialects/Triton/IR/TritonOps.cpp.inc"
      >();
}
