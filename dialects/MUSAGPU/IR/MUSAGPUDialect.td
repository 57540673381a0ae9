#ifndef TRITON_MUSA_MUSAGPU_DIALECT_TD
#define TRITON_MUSA_MUSAGPU_DIALECT_TD

include "mlir/IR/OpBase.td"

def MUSAGPU_Dialect : Dialect {
  let name = "musagpu";
  let cppNamespace = "::mlir::musagpu";
  let summary = "TODO";
}

#endif // TRITON_MUSA_MUSAGPU_DIALECT_TD
