//===- Utility.cpp - Helpers shared by the lowering patterns -------------===//

#include "conversion/TritonGPUToMUSA/Utility.h"

using namespace mlir;
using namespace mlir::triton_musa;

Value mlir::triton_musa::i32Const(OpBuilder &b, Location loc, int64_t value) {
  return LLVM::ConstantOp::create(b, loc, b.getI32Type(),
                                  b.getI32IntegerAttr(value));
}

Value mlir::triton_musa::packLLElements(OpBuilder &b, Location loc,
                                        ValueRange elements, Type structType) {
  Value packed = LLVM::UndefOp::create(b, loc, structType);
  for (auto [i, v] : llvm::enumerate(elements))
    packed = LLVM::InsertValueOp::create(b, loc, packed, v, int64_t(i));
  return packed;
}

SmallVector<Value>
mlir::triton_musa::unpackLLElements(OpBuilder &b, Location loc, Value packed) {
  auto structType = dyn_cast<LLVM::LLVMStructType>(packed.getType());
  if (!structType)
    return {packed};
  SmallVector<Value> elements;
  for (unsigned i = 0, e = structType.getBody().size(); i < e; ++i)
    elements.push_back(LLVM::ExtractValueOp::create(b, loc, packed, i));
  return elements;
}

SmallVector<Value> mlir::triton_musa::unpackOrSplat(OpBuilder &b, Location loc,
                                                    Value packed,
                                                    unsigned count) {
  if (isa<LLVM::LLVMStructType>(packed.getType()))
    return unpackLLElements(b, loc, packed);
  return SmallVector<Value>(count, packed);
}
