#include "dialects/Triton/IR/Dialect.h"

using namespace mlir;
using namespace mlir::triton;

#include "dialects/Triton/IR/TritonDialect.cpp.inc"

void TritonDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/Triton/IR/TritonOps.cpp.inc"
      >();
}

#define GET_OP_CLASSES
#include "dialects/Triton/IR/TritonOps.cpp.inc"
