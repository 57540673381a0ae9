#include "dialects/MUSAGPU/IR/Dialect.h"

using namespace mlir;
using namespace ::mlir::musagpu;

#include "dialects/MUSAGPU/IR/MUSAGPUDialect.cpp.inc"

void MUSAGPUDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/MUSAGPU/IR/MUSAGPUOps.cpp.inc"
      >();
}

#define GET_OP_CLASSES
#include "dialects/MUSAGPU/IR/MUSAGPUOps.cpp.inc"
