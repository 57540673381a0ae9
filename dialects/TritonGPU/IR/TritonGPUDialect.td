#ifndef TRITON_MUSA_TRITONGPU_DIALECT_TD
#define TRITON_MUSA_TRITONGPU_DIALECT_TD

include "mlir/IR/OpBase.td"

def TritonGPU_Dialect : Dialect {
  let name = "ttg";
  let cppNamespace = "::mlir::triton::gpu";
  let summary = "TODO";
}

#endif // TRITON_MUSA_TRITONGPU_DIALECT_TD
