//===- TypeConverter.h - TTGIR types to LLVM types --------------*- C++ -*-===//
//
// `!tt.ptr<T, as>` becomes `!llvm.ptr<as>`; a tensor with a distributed
// layout becomes an `!llvm.struct` of the values one thread holds, in
// register order of the layout's linear layout.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_TYPECONVERTER_H
#define TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_TYPECONVERTER_H

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"

namespace mlir::triton_musa {

class TargetInfo;

class TritonGPUToMUSATypeConverter : public LLVMTypeConverter {
public:
  TritonGPUToMUSATypeConverter(MLIRContext *ctx,
                               const LowerToLLVMOptions &options,
                               const TargetInfo &targetInfo);

  const TargetInfo &getTargetInfo() const { return targetInfo; }

private:
  const TargetInfo &targetInfo;
};

} // namespace mlir::triton_musa

#endif // TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_TYPECONVERTER_H
