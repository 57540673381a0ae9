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
  }];
  let dependentDialects = [
    "arith::ArithDialect", "math::MathDialect", "scf::SCFDialect",
    "cf::ControlFlowDialect", "ub::UBDialect"
  ];
}

class TT_Op<string mnemonic, list<Trait> traits = []>
    : Op<Triton_Dialect, mnemonic, traits>;

#endif // TRITON_MUSA_TRITON_DIALECT_TD
