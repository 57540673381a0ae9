//===- musa-opt.cpp - The triton-musa optimizer driver -------------------===//
//
// Parses TTIR/TTGIR/MUSA IR, runs any registered pass pipeline and prints the
// result: every stage of the Python backend can be replayed on a saved file.
//
//===----------------------------------------------------------------------===//

#include "registration/InitAll.h"
#include "test/lib/TestPasses.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::triton_musa::registerAllDialects(registry);
  mlir::triton_musa::registerAllPasses();
  mlir::triton_musa::registerMUSATestPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "triton-musa optimizer driver\n", registry));
}
