//===- Traits.cpp - Op traits shared by the tt and ttg dialects ----------===//

#include "dialects/Triton/IR/Traits.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"

using namespace mlir;

LogicalResult mlir::triton::verifySameEncoding(Operation *op,
                                               bool includeResults) {
  std::optional<Attribute> expected;
  auto check = [&](Type type) -> LogicalResult {
    auto tensorTy = dyn_cast<RankedTensorType>(type);
    if (!tensorTy)
      return success();
    if (!expected) {
      expected = tensorTy.getEncoding();
      return success();
    }
    if (*expected == tensorTy.getEncoding())
      return success();
    return op->emitOpError() << "requires the same encoding for all "
                             << (includeResults ? "operands and results"
                                                : "operands");
  };
  for (Type type : op->getOperandTypes())
    if (failed(check(type)))
      return failure();
  if (includeResults)
    for (Type type : op->getResultTypes())
      if (failed(check(type)))
        return failure();
  return success();
}

LogicalResult mlir::triton::verifyTensorSizes(Operation *op) {
  auto check = [&](Type type) -> LogicalResult {
    auto tensorTy = dyn_cast<RankedTensorType>(type);
    if (!tensorTy)
      return success();
    if (!tensorTy.hasStaticShape())
      return op->emitOpError() << "requires static tensor shapes, got "
                               << tensorTy;
    int64_t numElements = 1;
    for (int64_t dim : tensorTy.getShape()) {
      numElements *= dim;
      if (numElements > kMaxTensorNumElements)
        return op->emitOpError()
               << "tensor " << tensorTy << " has more than "
               << kMaxTensorNumElements << " elements";
    }
    if (!llvm::isPowerOf2_64(numElements))
      return op->emitOpError() << "tensor " << tensorTy
                               << " must have a power-of-two element count";
    return success();
  };
  for (Type type : op->getOperandTypes())
    if (failed(check(type)))
      return failure();
  for (Type type : op->getResultTypes())
    if (failed(check(type)))
      return failure();
  return success();
}
