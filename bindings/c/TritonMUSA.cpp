//===- TritonMUSA.cpp - C API of triton-musa's dialects and passes --------===//

#include "bindings/c/TritonMUSA.h"
#include "registration/InitAll.h"

#include "mlir/CAPI/IR.h"
#include "mlir/IR/DialectRegistry.h"

#include <mutex>

void mlirTritonMUSARegisterAllDialects(MlirDialectRegistry registry) {
  mlir::triton_musa::registerAllDialects(*unwrap(registry));
}

void mlirTritonMUSARegisterAllPasses(void) {
  static std::once_flag once;
  std::call_once(once, [] { mlir::triton_musa::registerAllPasses(); });
}
