//===- MemoryOpToLLVM.cpp - ttg.local_alloc/local_load/local_store/local_dealloc, memdes
//
// Not lowered yet: these ops are reported by name by the pass.
//
//===----------------------------------------------------------------------===//

#include "conversion/TritonGPUToMUSA/PatternTritonGPUOpToLLVM.h"

using namespace mlir;
using namespace mlir::triton_musa;

void mlir::triton_musa::populateMemoryOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo) {}
