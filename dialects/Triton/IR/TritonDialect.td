#ifndef TRITON_MUSA_TRITON_DIALECT_TD
#define TRITON_MUSA_TRITON_DIALECT_TD

include "mlir/IR/OpBase.td"

def Triton_Dialect : Dialect {
  let name = "tt";
  let cppNamespace = "::mlir::triton";
  let summary = "Triton 3.6 IR (the interchange form Triton prints)";
  let description = [{
    Our own declaration of Triton's `tt` dialect: enough to parse, verify and
    print the TTIR/TTGIR text that Triton 3.6.0 emits for a MUSA target.
    Tensor encodings (`#ttg.*`) are opaque here: `tt` verifiers check shapes,
    element types and operand/result consistency, never layouts.
  }];
  let dependentDialects = [
    "arith::ArithDialect", "math::MathDialect", "scf::SCFDialect",
    "cf::ControlFlowDialect", "ub::UBDialect"
  ];
  let useDefaultTypePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerTypes();
  }];
}

#endif // TRITON_MUSA_TRITON_DIALECT_TD
