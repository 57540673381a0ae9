#include "dialects/TritonGPU/IR/Dialect.h"

using namespace mlir;
using namespace ::mlir::triton::gpu;

#include "dialects/TritonGPU/IR/TritonGPUDialect.cpp.inc"

void TritonGPUDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/TritonGPU/IR/TritonGPUOps.cpp.inc"
      >();
}

#define GET_OP_CLASSES
#include "dialects/TritonGPU/IR/TritonGPUOps.cpp.inc"
