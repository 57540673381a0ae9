//===- ScanOpToLLVM.cpp - tt.scan.
//
// Not lowered yet: these ops are reported by name by the pass.
//
//===----------------------------------------------------------------------===//

#include "conversion/TritonGPUToMUSA/PatternTritonGPUOpToLLVM.h"
#include "conversion/TritonGPUToMUSA/Scratch.h"

using namespace mlir;
using namespace mlir::triton_musa;

FailureOr<unsigned>
mlir::triton_musa::getScanScratchBytes(Operation *op,
                                          const TargetInfo &targetInfo) {
  return 0u;
}

void mlir::triton_musa::populateScanOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo) {}
