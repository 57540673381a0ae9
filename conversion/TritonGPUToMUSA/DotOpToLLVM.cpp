//===- DotOpToLLVM.cpp - tt.dot on the FMA path.
//
// Not lowered yet: these ops are reported by name by the pass.
//
//===----------------------------------------------------------------------===//

#include "conversion/TritonGPUToMUSA/PatternTritonGPUOpToLLVM.h"

using namespace mlir;
using namespace mlir::triton_musa;

void mlir::triton_musa::populateDotOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo) {}
