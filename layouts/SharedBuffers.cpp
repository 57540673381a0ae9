//===- SharedBuffers.cpp - Layout and bytes of shared-memory buffers ------===//

#include "layouts/SharedBuffers.h"

#include "dialects/Triton/IR/Dialect.h"
#include "dialects/TritonGPU/IR/Dialect.h"
#include "layouts/LayoutConversion.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"

using namespace mlir;
using namespace mlir::triton_musa;
namespace ttg = mlir::triton::gpu;

unsigned mlir::triton_musa::getSharedElementBytes(Type elementType) {
  if (isa<triton::PointerType, LLVM::LLVMPointerType>(elementType))
    return 8;
  return std::max<unsigned>(1, elementType.getIntOrFloatBitWidth() / 8);
}

FailureOr<mlir::triton_musa::LinearLayout>
mlir::triton_musa::getSharedBufferLayout(
    ttg::MemDescType type, function_ref<InFlightDiagnostic()> emitError) {
  ArrayRef<int64_t> shape = type.getAllocShape().empty()
                                ? type.getShape()
                                : type.getAllocShape();
  unsigned rank = ttg::getLayoutRank(type.getEncoding());
  if (rank != 0 && rank < shape.size())
    shape = shape.take_back(rank);
  return mlir::triton_musa::toLinearLayout(shape, type.getEncoding(), emitError);
}

FailureOr<int64_t> mlir::triton_musa::getSharedBufferBytes(
    ttg::MemDescType type, function_ref<InFlightDiagnostic()> emitError) {
  auto layout = getSharedBufferLayout(type, emitError);
  if (failed(layout))
    return failure();
  int64_t elements = layout->getInDimSize(kOffset);
  if (auto padded = dyn_cast<ttg::PaddedSharedEncodingAttr>(type.getEncoding()))
    elements =
        mlir::triton_musa::applyPaddedSharedPadding(padded, elements - 1) + 1;
  return elements * getSharedElementBytes(type.getElementType());
}

FailureOr<int64_t> mlir::triton_musa::getSharedAllocationBytes(
    ttg::MemDescType type, function_ref<InFlightDiagnostic()> emitError) {
  FailureOr<int64_t> buffer = getSharedBufferBytes(type, emitError);
  if (failed(buffer))
    return failure();
  ArrayRef<int64_t> shape = type.getAllocShape().empty()
                                ? type.getShape()
                                : type.getAllocShape();
  unsigned rank = ttg::getLayoutRank(type.getEncoding());
  int64_t buffers = 1;
  if (rank != 0 && rank < shape.size())
    for (int64_t size : shape.drop_back(rank))
      buffers *= size;
  return *buffer * buffers;
}
