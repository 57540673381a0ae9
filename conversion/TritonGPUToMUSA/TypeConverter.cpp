//===- TypeConverter.cpp - TTGIR types to LLVM types ---------------------===//

#include "conversion/TritonGPUToMUSA/TypeConverter.h"

#include "conversion/TritonGPUToMUSA/LayoutIndices.h"
#include "conversion/TritonGPUToMUSA/TargetInfo.h"
#include "dialects/Triton/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"

using namespace mlir;
using namespace mlir::triton_musa;

TritonGPUToMUSATypeConverter::TritonGPUToMUSATypeConverter(
    MLIRContext *ctx, const LowerToLLVMOptions &options,
    const TargetInfo &targetInfo)
    : LLVMTypeConverter(ctx, options), targetInfo(targetInfo) {
  addConversion([ctx](triton::PointerType type) -> std::optional<Type> {
    if (isa<RankedTensorType>(type.getPointeeType()))
      return std::nullopt; // Block pointers: not lowered yet.
    return LLVM::LLVMPointerType::get(ctx, type.getAddressSpace());
  });
  // A tensor descriptor is the global address of its tensor; shape and
  // strides are SSA values found by DescriptorOpToLLVM.cpp (see there).
  addConversion([ctx, &targetInfo](triton::TensorDescType) -> Type {
    return LLVM::LLVMPointerType::get(ctx,
                                      targetInfo.getGlobalAddressSpace());
  });
  addConversion([this](RankedTensorType type) -> std::optional<Type> {
    // Layouts without a linear layout (shared, none) are rejected before the
    // conversion starts, with a diagnostic naming the op; here a failure only
    // means "not convertible".
    ScopedDiagnosticHandler quiet(type.getContext(),
                                  [](Diagnostic &) { return success(); });
    auto layout = getLinearLayout(
        type, [&] { return emitError(UnknownLoc::get(type.getContext())); });
    if (failed(layout))
      return std::nullopt;
    Type elementType = convertType(type.getElementType());
    if (!elementType)
      return std::nullopt;
    SmallVector<Type> fields(layout->getInDimSize("register"), elementType);
    return LLVM::LLVMStructType::getLiteral(type.getContext(), fields);
  });
}
