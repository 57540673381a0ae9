//===- Types.cpp - tt types and type helpers ------------------------------===//

#include "dialects/Triton/IR/Dialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::triton;

#define GET_TYPEDEF_CLASSES
#include "dialects/Triton/IR/TritonTypes.cpp.inc"

void TritonDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/Triton/IR/TritonTypes.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// PointerType: `!tt.ptr<pointee>` or `!tt.ptr<pointee, addrspace>`; the
// default address space 1 is not printed.
//===----------------------------------------------------------------------===//

Type PointerType::parse(AsmParser &parser) {
  Type pointee;
  int addressSpace = 1;
  if (parser.parseLess() || parser.parseType(pointee))
    return Type();
  if (succeeded(parser.parseOptionalComma()) &&
      parser.parseInteger(addressSpace))
    return Type();
  if (parser.parseGreater())
    return Type();
  return parser.getChecked<PointerType>(pointee.getContext(), pointee,
                                        addressSpace);
}

void PointerType::print(AsmPrinter &printer) const {
  printer << "<" << getPointeeType();
  if (getAddressSpace() != 1)
    printer << ", " << getAddressSpace();
  printer << ">";
}

LogicalResult
PointerType::verify(function_ref<InFlightDiagnostic()> emitError,
                    Type pointeeType, int addressSpace) {
  if (!pointeeType)
    return emitError() << "pointer needs a pointee type";
  if (addressSpace < 0)
    return emitError() << "pointer address space must be non-negative, got "
                       << addressSpace;
  return success();
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

bool mlir::triton::isTensorPointerType(Type type) {
  auto ptrTy = dyn_cast_or_null<PointerType>(type);
  return ptrTy && isa<RankedTensorType>(ptrTy.getPointeeType());
}

Type mlir::triton::getPointeeType(Type type) {
  if (auto ptrTy = dyn_cast<PointerType>(type))
    return ptrTy.getPointeeType();
  if (auto tensorTy = dyn_cast<RankedTensorType>(type))
    if (auto ptrTy = dyn_cast<PointerType>(tensorTy.getElementType()))
      return tensorTy.clone(ptrTy.getPointeeType());
  return type;
}

Type mlir::triton::getI1SameShape(Type type) {
  auto i1 = IntegerType::get(type.getContext(), 1);
  if (auto tensorTy = dyn_cast<RankedTensorType>(type))
    return tensorTy.clone(i1);
  return i1;
}

Type mlir::triton::getBlockPointerBaseType(Type type) {
  auto ptrTy = dyn_cast<PointerType>(type);
  if (!ptrTy)
    return type;
  auto blockTy = dyn_cast<RankedTensorType>(ptrTy.getPointeeType());
  if (!blockTy)
    return type;
  return PointerType::get(blockTy.getElementType(), ptrTy.getAddressSpace());
}
