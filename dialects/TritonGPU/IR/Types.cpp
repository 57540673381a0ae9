//===- Types.cpp - !ttg.memdesc and !ttg.async.token ----------------------===//

#include "dialects/TritonGPU/IR/Dialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::triton::gpu;

static constexpr StringLiteral kMutableMemory = "mutable";

// !ttg.memdesc<SHAPExELT, ENCODING, MEMSPACE[, mutable][, ALLOCSHAPE]>
Type MemDescType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> shape;
  Type elementType;
  Attribute encoding, memorySpace;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false) ||
      parser.parseType(elementType))
    return {};
  if (succeeded(parser.parseOptionalComma()) && parser.parseAttribute(encoding))
    return {};
  bool mutableMemory = false;
  SmallVector<int64_t> allocShape;
  auto parseAllocShape = [&] {
    return parser.parseDimensionList(allocShape, /*allowDynamic=*/false,
                                     /*withTrailingX=*/false);
  };
  // Fields after the encoding, each optional but in this order: memory
  // space, `mutable`, alloc shape. The verifier requires the memory space.
  bool seenComma = succeeded(parser.parseOptionalComma());
  if (seenComma && failed(parser.parseOptionalKeyword(kMutableMemory))) {
    if (parser.parseAttribute(memorySpace))
      return {};
    seenComma = succeeded(parser.parseOptionalComma());
    if (seenComma && succeeded(parser.parseOptionalKeyword(kMutableMemory))) {
      mutableMemory = true;
      seenComma = succeeded(parser.parseOptionalComma());
    }
  } else if (seenComma) {
    mutableMemory = true;
    seenComma = succeeded(parser.parseOptionalComma());
  }
  if (seenComma && parseAllocShape())
    return {};
  if (parser.parseGreater())
    return {};
  if (allocShape.empty())
    allocShape = shape;
  return getChecked([&] { return parser.emitError(loc); },
                    parser.getContext(), shape, elementType, encoding,
                    memorySpace, mutableMemory, allocShape);
}

void MemDescType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t dim : getShape())
    printer << dim << "x";
  printer << getElementType();
  if (getEncoding())
    printer << ", " << getEncoding();
  if (getMemorySpace())
    printer << ", " << getMemorySpace();
  if (getMutableMemory())
    printer << ", " << kMutableMemory;
  if (getAllocShape() != getShape()) {
    printer << ", ";
    llvm::interleave(getAllocShape(), printer, "x");
  }
  printer << ">";
}

LogicalResult MemDescType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> shape, Type elementType,
                                  Attribute encoding, Attribute memorySpace,
                                  bool mutableMemory,
                                  ArrayRef<int64_t> allocShape) {
  if (shape.empty())
    return emitError() << "rank 0 memdesc is not allowed";
  if (llvm::any_of(shape, [](int64_t d) { return d <= 0; }))
    return emitError() << "memdesc dimensions must be positive";
  if (!elementType.isIntOrIndexOrFloat() &&
      !isa<triton::TritonDialect>(elementType.getDialect()))
    return emitError() << "memdesc element type must be an integer, float or "
                          "tt type, got "
                       << elementType;
  if (allocShape.size() < shape.size())
    return emitError()
           << "alloc shape must have at least as many dimensions as shape";
  for (auto [dim, allocDim] :
       llvm::zip(shape, allocShape.take_back(shape.size())))
    if (dim > allocDim)
      return emitError() << "shape must not exceed the alloc shape";
  if (!encoding)
    return emitError() << "memdesc needs an encoding";
  if (!isa<SharedEncodingTrait>(encoding) ||
      !isa<LayoutEncodingTrait>(encoding))
    return emitError() << encoding << " is not a valid memdesc encoding";
  if (!isa_and_nonnull<SharedMemorySpaceAttr>(memorySpace))
    return emitError() << "memorySpace must be #ttg.shared_memory for a "
                          "shared encoding";
  // Multi-buffered allocations carry one extra leading (buffer) dimension.
  unsigned rank = getLayoutRank(encoding);
  if (rank != shape.size() && rank + 1 != shape.size())
    return emitError() << "encoding rank must be equal to or one less than "
                          "the shape rank. Got "
                       << rank << " and " << shape.size();
  return success();
}

MemDescType MemDescType::cloneWith(std::optional<ArrayRef<int64_t>> shape,
                                   Type elementType) const {
  ArrayRef<int64_t> newShape = shape ? *shape : getShape();
  return MemDescType::get(getContext(), newShape, elementType, getEncoding(),
                          getMemorySpace(), getMutableMemory(),
                          shape ? *shape : getAllocShape());
}

#define GET_TYPEDEF_CLASSES
#include "dialects/TritonGPU/IR/TritonGPUTypes.cpp.inc"

void TritonGPUDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/TritonGPU/IR/TritonGPUTypes.cpp.inc"
      >();
}
