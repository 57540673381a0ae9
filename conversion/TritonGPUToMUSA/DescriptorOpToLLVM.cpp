//===- DescriptorOpToLLVM.cpp - tt.make_tensor_descriptor, tt.descriptor_load/store/gather/s
//
// Not lowered yet: these ops are reported by name by the pass.
//
//===----------------------------------------------------------------------===//

#include "conversion/TritonGPUToMUSA/PatternTritonGPUOpToLLVM.h"

using namespace mlir;
using namespace mlir::triton_musa;

void mlir::triton_musa::populateDescriptorOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo) {}
