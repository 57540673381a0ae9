//===- TensorDescriptor.h - A lowered !tt.tensordesc --------------*- C++ -*-===//
//
// Private to --convert-tritongpu-to-musa: what the lowering knows about a
// tensor descriptor (defined in TensorDescriptor.cpp). The descriptor
// ops without TME and the TME ops (TMEOpToLLVM.cpp) both address the tensor
// through it.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_TENSORDESCRIPTOR_H
#define TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_TENSORDESCRIPTOR_H

#include "mlir/IR/Operation.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::triton_musa {

/// A `!tt.tensordesc` as the lowering sees it: the global base address of
/// its tensor and the SSA values of its shape and strides.
struct LoweredTensorDesc {
  Value base;                 // !llvm.ptr<1>
  SmallVector<Value> shape;   // i32 per dimension, outermost first
  SmallVector<Value> strides; // i64 per dimension, in elements
  bool padNaN = false;
};

/// Finds the base, shape and strides of `desc` (used by `op`), whose
/// converted value is `lowered`: the operands of the
/// `tt.make_tensor_descriptor` that made it, or the kernel arguments that
/// follow a kernel-argument descriptor. Reports an error on `op` and fails
/// for a descriptor reaching `op` any other way.
FailureOr<LoweredTensorDesc>
getLoweredTensorDesc(Operation *op, Value desc, Value lowered,
                     ConversionPatternRewriter &rewriter);

} // namespace mlir::triton_musa

#endif // TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_TENSORDESCRIPTOR_H
