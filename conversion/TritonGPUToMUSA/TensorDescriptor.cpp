//===- TensorDescriptor.cpp - A lowered !tt.tensordesc ---------*- C++ -*-===//
//
// getLoweredTensorDesc (TensorDescriptor.h): the base, shape and strides of
// a descriptor, from its tt.make_tensor_descriptor or from the kernel
// arguments that follow it.
//
//===----------------------------------------------------------------------===//

#include "conversion/TritonGPUToMUSA/TensorDescriptor.h"
#include "conversion/LLVMIRExport/LLVMIRExport.h"
#include "conversion/TritonGPUToMUSA/Utility.h"

#include "dialects/Triton/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::triton_musa;

/// See DescriptorOpToLLVM.cpp's file comment for where shape and strides
/// come from.
FailureOr<LoweredTensorDesc>
mlir::triton_musa::getLoweredTensorDesc(Operation *op, Value desc,
                                        Value lowered,
                                        ConversionPatternRewriter &rewriter) {
  auto type = cast<triton::TensorDescType>(desc.getType());
  unsigned rank = type.getBlockType().getRank();
  LoweredTensorDesc result;
  result.base = lowered;
  if (auto make = desc.getDefiningOp<triton::MakeTensorDescOp>()) {
    for (Value v : make.getShape())
      result.shape.push_back(rewriter.getRemappedValue(v));
    for (Value v : make.getStrides())
      result.strides.push_back(rewriter.getRemappedValue(v));
    result.padNaN = make.getPadding() == triton::PaddingOption::PAD_NAN;
    if (llvm::is_contained(result.shape, Value()) ||
        llvm::is_contained(result.strides, Value()))
      return failure();
    return result;
  }
  // A kernel argument: the converted value is an argument of the llvm.func
  // entry block, followed by rank i32 and rank i64 arguments.
  auto arg = dyn_cast<BlockArgument>(lowered);
  Block *entry = arg ? arg.getOwner() : nullptr;
  auto func = entry ? dyn_cast_or_null<LLVM::LLVMFuncOp>(entry->getParentOp())
                    : nullptr;
  if (func && func->hasAttr(kKernelAttrName) && entry->isEntryBlock() &&
      arg.getArgNumber() + 2 * rank < entry->getNumArguments()) {
    unsigned first = arg.getArgNumber() + 1;
    bool ok = true;
    for (unsigned d = 0; d < rank; ++d) {
      Value shape = entry->getArgument(first + d);
      Value stride = entry->getArgument(first + rank + d);
      ok &= shape.getType().isInteger(32) && stride.getType().isInteger(64);
      result.shape.push_back(shape);
      result.strides.push_back(stride);
    }
    if (ok)
      return result;
  }
  op->emitError() << "'" << op->getName() << "' is not supported by "
                  << kPassFlag
                  << " yet on a descriptor that is neither made by "
                     "'tt.make_tensor_descriptor' nor a kernel argument "
                     "followed by its shape and strides";
  return failure();
}
