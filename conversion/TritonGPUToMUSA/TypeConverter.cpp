//===- TypeConverter.cpp - TTGIR types to LLVM types ---------------------===//

#include "conversion/TritonGPUToMUSA/TypeConverter.h"

#include "conversion/TritonGPUToMUSA/LayoutIndices.h"
#include "target/TargetInfo.h"
#include "dialects/Triton/IR/Dialect.h"
#include "dialects/TritonGPU/IR/Dialect.h"
#include "layouts/LayoutConversion.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"

using namespace mlir;
using namespace mlir::triton_musa;
namespace ttg = mlir::triton::gpu;

TritonGPUToMUSATypeConverter::TritonGPUToMUSATypeConverter(
    MLIRContext *ctx, const LowerToLLVMOptions &options,
    const TargetInfo &targetInfo)
    : LLVMTypeConverter(ctx, options) {
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
    SmallVector<Type> fields(layout->getInDimSize(kRegister), elementType);
    return LLVM::LLVMStructType::getLiteral(type.getContext(), fields);
  });
  // A shared-memory view is the shared pointer to element 0 of the buffer it
  // addresses (see the header).
  addConversion([ctx, &targetInfo](ttg::MemDescType) -> std::optional<Type> {
    return LLVM::LLVMPointerType::get(ctx,
                                      targetInfo.getSharedAddressSpace());
  });
  // Async-copy tokens carry nothing at run time (MUSA has no copy groups,
  // see AsyncCopyOpToLLVM.cpp): an i32 that is always 0.
  addConversion([ctx](ttg::AsyncTokenType) -> Type {
    return IntegerType::get(ctx, 32);
  });
}
