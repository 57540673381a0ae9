//===- HistogramOpToLLVM.cpp - tt.histogram.
//
// Not lowered yet: these ops are reported by name by the pass.
//
//===----------------------------------------------------------------------===//

#include "conversion/TritonGPUToMUSA/PatternTritonGPUOpToLLVM.h"
#include "conversion/TritonGPUToMUSA/Scratch.h"

using namespace mlir;
using namespace mlir::triton_musa;

FailureOr<unsigned>
mlir::triton_musa::getHistogramScratchBytes(Operation *op,
                                          const TargetInfo &targetInfo) {
  return 0u;
}

void mlir::triton_musa::populateHistogramOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo) {}
