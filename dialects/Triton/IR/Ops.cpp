//===- Ops.cpp - tt operations: verifiers, effects, functions ------------===//
//
// Verifiers run on unverified user input: they use dyn_cast and report every
// inconsistency with emitOpError instead of asserting.
//
//===----------------------------------------------------------------------===//

#include "dialects/Triton/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::triton;

#define GET_OP_CLASSES
#include "dialects/Triton/IR/TritonOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static int64_t numElements(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

/// Bit width of a scalar element; pointers count as 64 bits. 0 if unknown.
static unsigned getElementBitWidth(Type type) {
  Type elem = getElementTypeOrSelf(type);
  if (isa<PointerType>(elem))
    return 64;
  if (elem.isIntOrFloat())
    return elem.getIntOrFloatBitWidth();
  return 0;
}

/// Descriptor blocks record signedness (`si32`); values are signless.
static bool sameElementIgnoringSign(Type a, Type b) {
  auto ia = dyn_cast<IntegerType>(a), ib = dyn_cast<IntegerType>(b);
  if (ia && ib)
    return ia.getWidth() == ib.getWidth();
  return a == b;
}

static SmallVector<int64_t> dropLeadingOnes(ArrayRef<int64_t> shape) {
  while (!shape.empty() && shape.front() == 1)
    shape = shape.drop_front();
  return SmallVector<int64_t>(shape);
}

/// Checks the block pointer attributes of a load or store: boundaryCheck
/// lists distinct dimensions of the block.
static LogicalResult verifyBoundaryCheck(Operation *op, Type ptrType,
                                         ArrayRef<int32_t> boundaryCheck) {
  auto ptrTy = dyn_cast<PointerType>(ptrType);
  auto blockTy =
      ptrTy ? dyn_cast<RankedTensorType>(ptrTy.getPointeeType()) : nullptr;
  if (!blockTy) {
    if (!boundaryCheck.empty())
      return op->emitOpError(
          "boundaryCheck is only allowed with a block pointer");
    return success();
  }
  llvm::SmallBitVector seen(blockTy.getRank());
  for (int32_t dim : boundaryCheck) {
    if (dim < 0 || dim >= blockTy.getRank())
      return op->emitOpError("boundaryCheck dimension ")
             << dim << " is out of range for a block of rank "
             << blockTy.getRank();
    if (seen.test(dim))
      return op->emitOpError("boundaryCheck lists dimension ")
             << dim << " twice";
    seen.set(dim);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Casts
//===----------------------------------------------------------------------===//

LogicalResult BitcastOp::verify() {
  unsigned srcWidth = getElementBitWidth(getSrc().getType());
  unsigned dstWidth = getElementBitWidth(getType());
  if (srcWidth != dstWidth)
    return emitOpError("requires source and result elements of the same bit "
                       "width, got ")
           << srcWidth << " and " << dstWidth << " bits";
  return success();
}

LogicalResult FpToFpOp::verify() {
  unsigned srcWidth = getElementBitWidth(getSrc().getType());
  unsigned dstWidth = getElementBitWidth(getType());
  if (dstWidth < srcWidth && !getRounding())
    return emitOpError("narrowing from ")
           << getElementTypeOrSelf(getSrc().getType()) << " to "
           << getElementTypeOrSelf(getType()) << " requires a rounding mode";
  return success();
}

//===----------------------------------------------------------------------===//
// Pointer arithmetic, loads and stores
//===----------------------------------------------------------------------===//

LogicalResult AdvanceOp::verify() {
  auto blockTy = cast<RankedTensorType>(
      cast<PointerType>(getPtr().getType()).getPointeeType());
  if (static_cast<int64_t>(getOffsets().size()) != blockTy.getRank())
    return emitOpError("expects one offset per block dimension (")
           << blockTy.getRank() << "), got " << getOffsets().size();
  return success();
}

LogicalResult LoadOp::verify() {
  if (isTensorPointerType(getPtr().getType())) {
    if (getMask() || getOther())
      return emitOpError("block pointer loads take boundaryCheck and padding, "
                         "not mask or other");
  } else if (getPadding()) {
    return emitOpError("padding is only allowed with a block pointer");
  }
  if (getOther() && !getMask())
    return emitOpError("other requires a mask");
  return verifyBoundaryCheck(*this, getPtr().getType(), getBoundaryCheck());
}

void LoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getPtrMutable(),
                       GlobalMemory::get());
  // A volatile load must be neither removed nor reordered with other memory
  // accesses: model it as a write as well.
  if (getIsVolatile())
    effects.emplace_back(MemoryEffects::Write::get(), GlobalMemory::get());
}

LogicalResult StoreOp::verify() {
  if (isTensorPointerType(getPtr().getType()) && getMask())
    return emitOpError("block pointer stores take boundaryCheck, not a mask");
  return verifyBoundaryCheck(*this, getPtr().getType(), getBoundaryCheck());
}

//===----------------------------------------------------------------------===//
// Atomics
//===----------------------------------------------------------------------===//

LogicalResult AtomicRMWOp::verify() {
  Type valTy = getVal().getType();
  if (getPointeeType(getPtr().getType()) != valTy)
    return emitOpError("ptr type ")
           << getPtr().getType() << " does not point to values of type "
           << valTy;
  if (getMask() && getMask().getType() != getI1SameShape(valTy))
    return emitOpError("mask type ")
           << getMask().getType() << " does not match the shape of " << valTy;
  if (getType() != valTy)
    return emitOpError("result type must be the value type ") << valTy;

  Type elem = getElementTypeOrSelf(valTy);
  bool isFloat = isa<FloatType>(elem);
  switch (getAtomicRmwOp()) {
  case RMWOp::FADD:
    if (!isFloat)
      return emitOpError("fadd requires floating-point values, got ") << elem;
    break;
  case RMWOp::ADD:
  case RMWOp::AND:
  case RMWOp::OR:
  case RMWOp::XOR:
  case RMWOp::UMAX:
  case RMWOp::UMIN:
    if (!isa<IntegerType>(elem))
      return emitOpError() << stringifyRMWOp(getAtomicRmwOp())
                           << " requires integer values, got " << elem;
    break;
  case RMWOp::MAX:
  case RMWOp::MIN:
  case RMWOp::XCHG:
    break;
  }
  return success();
}

LogicalResult AtomicCASOp::verify() {
  Type cmpTy = getCmp().getType();
  if (getPointeeType(getPtr().getType()) != cmpTy)
    return emitOpError("ptr type ")
           << getPtr().getType() << " does not point to values of type "
           << cmpTy;
  if (getVal().getType() != cmpTy || getType() != cmpTy)
    return emitOpError("requires cmp, val and result of the same type");
  return success();
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

LogicalResult SplatOp::verify() {
  if (isa<RankedTensorType>(getSrc().getType()))
    return emitOpError("source must be a scalar, got ") << getSrc().getType();
  return success();
}

LogicalResult UnsplatOp::verify() {
  auto srcTy = cast<RankedTensorType>(getSrc().getType());
  if (numElements(srcTy.getShape()) != 1)
    return emitOpError("source must have exactly one element, got ") << srcTy;
  return success();
}

LogicalResult ExpandDimsOp::verify() {
  auto srcTy = cast<RankedTensorType>(getSrc().getType());
  auto dstTy = cast<RankedTensorType>(getType());
  int64_t axis = getAxisAttr().getInt();
  if (axis < 0 || axis > srcTy.getRank())
    return emitOpError("axis ")
           << axis << " is out of range for a source of rank "
           << srcTy.getRank();
  SmallVector<int64_t> expected(srcTy.getShape());
  expected.insert(expected.begin() + axis, 1);
  if (dstTy.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError("result shape must be the source shape with a 1 "
                       "inserted at axis ")
           << axis;
  return success();
}

LogicalResult ReshapeOp::verify() {
  auto srcTy = cast<RankedTensorType>(getSrc().getType());
  auto dstTy = cast<RankedTensorType>(getType());
  if (numElements(srcTy.getShape()) != numElements(dstTy.getShape()))
    return emitOpError("source and result must have the same number of "
                       "elements, got ")
           << srcTy << " and " << dstTy;
  return success();
}

LogicalResult BroadcastOp::verify() {
  auto srcTy = cast<RankedTensorType>(getSrc().getType());
  auto dstTy = cast<RankedTensorType>(getType());
  if (srcTy.getRank() != dstTy.getRank())
    return emitOpError("source and result must have the same rank");
  for (auto [i, src, dst] :
       llvm::enumerate(srcTy.getShape(), dstTy.getShape()))
    if (src != dst && src != 1)
      return emitOpError("dimension ")
             << i << " of size " << src << " cannot broadcast to " << dst;
  return success();
}

LogicalResult CatOp::verify() {
  auto srcTy = cast<RankedTensorType>(getLhs().getType());
  auto dstTy = cast<RankedTensorType>(getType());
  if (srcTy.getRank() != dstTy.getRank() || srcTy.getRank() == 0)
    return emitOpError("result must have the rank of the operands");
  SmallVector<int64_t> expected(srcTy.getShape());
  expected[0] *= 2;
  if (dstTy.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError("result shape must double the first dimension of the "
                       "operands");
  return success();
}

LogicalResult JoinOp::verify() {
  auto srcTy = cast<RankedTensorType>(getLhs().getType());
  auto dstTy = cast<RankedTensorType>(getType());
  SmallVector<int64_t> expected(srcTy.getShape());
  expected.push_back(2);
  if (dstTy.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError("result shape must be the operand shape with a new "
                       "minor dimension of size 2");
  return success();
}

LogicalResult SplitOp::verify() {
  auto srcTy = cast<RankedTensorType>(getSrc().getType());
  auto dstTy = cast<RankedTensorType>(getOutLHS().getType());
  if (srcTy.getRank() == 0 || srcTy.getShape().back() != 2)
    return emitOpError("source must have a last dimension of size 2, got ")
           << srcTy;
  if (dstTy.getShape() != srcTy.getShape().drop_back())
    return emitOpError("result shape must be the source shape without its "
                       "last dimension");
  return success();
}

LogicalResult TransOp::verify() {
  auto srcTy = cast<RankedTensorType>(getSrc().getType());
  auto dstTy = cast<RankedTensorType>(getType());
  ArrayRef<int32_t> order = getOrder();
  if (static_cast<int64_t>(order.size()) != srcTy.getRank())
    return emitOpError("order must have one entry per source dimension");
  llvm::SmallBitVector seen(order.size());
  SmallVector<int64_t> expected;
  for (int32_t dim : order) {
    if (dim < 0 || dim >= srcTy.getRank() || seen.test(dim))
      return emitOpError("order must be a permutation of 0..")
             << srcTy.getRank() - 1;
    seen.set(dim);
    expected.push_back(srcTy.getDimSize(dim));
  }
  if (dstTy.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError("result shape must be the source shape permuted by "
                       "order");
  return success();
}

LogicalResult MakeRangeOp::verify() {
  auto dstTy = cast<RankedTensorType>(getType());
  int64_t start = getStartAttr().getInt(), end = getEndAttr().getInt();
  if (dstTy.getRank() != 1)
    return emitOpError("result must be a 1-D tensor");
  if (!dstTy.getElementType().isInteger(32))
    return emitOpError("result elements must be i32");
  if (end <= start)
    return emitOpError("end (") << end << ") must be greater than start ("
                                << start << ")";
  if (dstTy.getDimSize(0) != end - start)
    return emitOpError("result must have end - start = ")
           << end - start << " elements";
  return success();
}

//===----------------------------------------------------------------------===//
// Matrix multiplication
//===----------------------------------------------------------------------===//

LogicalResult DotOp::verify() {
  auto aTy = cast<RankedTensorType>(getA().getType());
  auto bTy = cast<RankedTensorType>(getB().getType());
  auto cTy = cast<RankedTensorType>(getC().getType());
  int64_t rank = aTy.getRank();
  if ((rank != 2 && rank != 3) || bTy.getRank() != rank ||
      cTy.getRank() != rank)
    return emitOpError("operands must all be 2-D, or all 3-D (batched)");
  auto a = aTy.getShape(), b = bTy.getShape(), c = cTy.getShape();
  if (rank == 3 && (a[0] != b[0] || a[0] != c[0]))
    return emitOpError("operands must have the same batch size");
  int64_t m = a[rank - 2], k = a[rank - 1], n = b[rank - 1];
  if (b[rank - 2] != k)
    return emitOpError("K dimensions of a (")
           << k << ") and b (" << b[rank - 2] << ") differ";
  if (c[rank - 2] != m || c[rank - 1] != n)
    return emitOpError("accumulator shape must be ")
           << m << "x" << n << " (M x N)";
  if (getElementBitWidth(aTy) != getElementBitWidth(bTy))
    return emitOpError("elements of a and b must have the same bit width");
  if (isa<IntegerType>(aTy.getElementType()) !=
      isa<IntegerType>(cTy.getElementType()))
    return emitOpError("integer operands need an integer accumulator and "
                       "float operands a float one");
  return success();
}

LogicalResult DotScaledOp::verify() {
  auto aTy = cast<RankedTensorType>(getA().getType());
  auto bTy = cast<RankedTensorType>(getB().getType());
  auto cTy = cast<RankedTensorType>(getC().getType());
  int64_t rank = aTy.getRank();
  if (rank < 2 || bTy.getRank() != rank || cTy.getRank() != rank)
    return emitOpError("operands must have the same rank, at least 2");
  // fp4 operands hold two values per i8, along K or along M/N.
  bool aPacked = getAElemType() == ScaleDotElemType::E2M1;
  bool bPacked = getBElemType() == ScaleDotElemType::E2M1;
  int64_t aK = aTy.getDimSize(rank - 1) * (aPacked && getLhsKPack() ? 2 : 1);
  int64_t bK = bTy.getDimSize(rank - 2) * (bPacked && getRhsKPack() ? 2 : 1);
  int64_t m = aTy.getDimSize(rank - 2) * (aPacked && !getLhsKPack() ? 2 : 1);
  int64_t n = bTy.getDimSize(rank - 1) * (bPacked && !getRhsKPack() ? 2 : 1);
  if (aK != bK)
    return emitOpError("K dimensions of a (")
           << aK << ") and b (" << bK << ") differ";
  if (cTy.getDimSize(rank - 2) != m || cTy.getDimSize(rank - 1) != n)
    return emitOpError("accumulator shape must be ")
           << m << "x" << n << " (M x N)";
  auto checkScale = [&](Value scale, int64_t rows,
                        StringRef name) -> LogicalResult {
    if (!scale)
      return success();
    auto sTy = cast<RankedTensorType>(scale.getType());
    if (sTy.getRank() != rank)
      return emitOpError() << name << " must have the rank of the operands";
    if (sTy.getDimSize(rank - 2) != rows)
      return emitOpError() << name << " must have " << rows << " rows";
    int64_t groups = sTy.getDimSize(rank - 1);
    if (numElements(sTy.getShape()) != 1 &&
        (groups <= 0 || aK % groups != 0 ||
         (aK / groups != 16 && aK / groups != 32)))
      return emitOpError() << name << " must hold one scale per 16 or 32 "
                           << "elements of K (" << aK << ")";
    return success();
  };
  if (failed(checkScale(getAScale(), m, "a_scale")) ||
      failed(checkScale(getBScale(), n, "b_scale")))
    return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// Reduce, scan and map_elementwise
//===----------------------------------------------------------------------===//

/// Checks a combiner block: its arguments and the operands of its terminator
/// `TerminatorOp` have the expected scalar types.
template <typename TerminatorOp>
static LogicalResult verifyCombiner(Operation *op, Region &region,
                                    ArrayRef<Type> argTypes,
                                    ArrayRef<Type> yieldTypes) {
  Block &block = region.front();
  if (block.getNumArguments() != argTypes.size())
    return op->emitOpError("combiner region must take ")
           << argTypes.size() << " arguments, got " << block.getNumArguments();
  for (auto [i, arg, expected] : llvm::enumerate(block.getArguments(),
                                                  argTypes))
    if (arg.getType() != expected)
      return op->emitOpError("combiner argument #")
             << i << " must have type " << expected << ", got "
             << arg.getType();
  for (Block &b : region) {
    auto term = b.empty() ? nullptr : dyn_cast<TerminatorOp>(&b.back());
    if (!term)
      continue;
    if (term->getNumOperands() != yieldTypes.size())
      return op->emitOpError("combiner must yield ")
             << yieldTypes.size() << " values, got " << term->getNumOperands();
    for (auto [i, v, expected] :
         llvm::enumerate(term->getOperands(), yieldTypes))
      if (v.getType() != expected)
        return op->emitOpError("combiner result #")
               << i << " must have type " << expected << ", got "
               << v.getType();
  }
  return success();
}

static SmallVector<Type> getElementTypes(ValueRange values) {
  return llvm::map_to_vector(
      values, [](Value v) { return getElementTypeOrSelf(v.getType()); });
}

/// Common check of reduce and scan (whose traits already require at least
/// one operand): the axis is a dimension of the operands.
static LogicalResult verifyAxisOp(Operation *op, ValueRange srcs,
                                  int64_t axis) {
  auto srcTy = cast<RankedTensorType>(srcs[0].getType());
  if (axis < 0 || axis >= srcTy.getRank())
    return op->emitOpError("axis ")
           << axis << " is out of range for operands of rank "
           << srcTy.getRank();
  return success();
}

LogicalResult ReduceOp::verify() {
  int64_t axis = getAxisAttr().getInt();
  if (failed(verifyAxisOp(*this, getSrcs(), axis)))
    return failure();
  if (getNumResults() != getSrcs().size())
    return emitOpError("requires one result per operand");
  for (auto [i, src, result] : llvm::enumerate(getSrcs(), getResults())) {
    auto srcTy = cast<RankedTensorType>(src.getType());
    if (srcTy.getRank() == 1) {
      if (result.getType() != srcTy.getElementType())
        return emitOpError("result #")
               << i << " of a 1-D reduction must be the scalar "
               << srcTy.getElementType();
      continue;
    }
    SmallVector<int64_t> expected(srcTy.getShape());
    expected.erase(expected.begin() + axis);
    auto resTy = dyn_cast<RankedTensorType>(result.getType());
    if (!resTy || resTy.getShape() != ArrayRef<int64_t>(expected) ||
        resTy.getElementType() != srcTy.getElementType())
      return emitOpError("result #")
             << i << " must be a tensor of " << srcTy.getElementType()
             << " shaped like operand #" << i << " without axis " << axis;
  }
  return success();
}

LogicalResult ReduceOp::verifyRegions() {
  SmallVector<Type> elems = getElementTypes(getSrcs());
  SmallVector<Type> args(elems);
  args.append(elems);
  return verifyCombiner<ReduceReturnOp>(*this, getCombineOp(), args, elems);
}

LogicalResult ScanOp::verify() {
  if (failed(verifyAxisOp(*this, getSrcs(), getAxisAttr().getInt())))
    return failure();
  if (getResultTypes() != getSrcs().getTypes())
    return emitOpError("result types must be the operand types");
  return success();
}

LogicalResult ScanOp::verifyRegions() {
  SmallVector<Type> elems = getElementTypes(getSrcs());
  SmallVector<Type> args(elems);
  args.append(elems);
  return verifyCombiner<ScanReturnOp>(*this, getCombineOp(), args, elems);
}

LogicalResult MapElementwiseOp::verify() {
  int32_t pack = getPack();
  if (pack < 1)
    return emitOpError("pack must be at least 1, got ") << pack;
  // SameOperandsAndResultShape guarantees at least one operand.
  if (auto tensorTy = dyn_cast<RankedTensorType>(getSrcs()[0].getType()))
    if (numElements(tensorTy.getShape()) % pack != 0)
      return emitOpError("pack (")
             << pack << ") must divide the number of elements";
  return success();
}

LogicalResult MapElementwiseOp::verifyRegions() {
  // Operand-major: pack elements of operand 0, then of operand 1, ...
  auto repeat = [&](ValueRange values) {
    SmallVector<Type> types;
    for (Type t : getElementTypes(values))
      types.append(getPack(), t);
    return types;
  };
  return verifyCombiner<MapElementwiseReturnOp>(
      *this, getScalarOp(), repeat(getSrcs()), repeat(getResults()));
}

//===----------------------------------------------------------------------===//
// External code
//===----------------------------------------------------------------------===//

LogicalResult ExternElementwiseOp::verify() {
  if (getSymbol().empty())
    return emitOpError("requires a non-empty symbol");
  return success();
}

void ExternElementwiseOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (getPure())
    return;
  effects.emplace_back(MemoryEffects::Read::get());
  effects.emplace_back(MemoryEffects::Write::get());
}

LogicalResult ElementwiseInlineAsmOp::verify() {
  int32_t pack = getPackedElement();
  if (pack < 1)
    return emitOpError("packed_element must be at least 1, got ") << pack;
  for (Type t : getResultTypes())
    if (auto tensorTy = dyn_cast<RankedTensorType>(t))
      if (numElements(tensorTy.getShape()) % pack != 0)
        return emitOpError("packed_element (")
               << pack << ") must divide the number of elements of " << t;
  return success();
}

void ElementwiseInlineAsmOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (getPure())
    return;
  effects.emplace_back(MemoryEffects::Read::get());
  effects.emplace_back(MemoryEffects::Write::get());
}

//===----------------------------------------------------------------------===//
// Histogram, gather, print
//===----------------------------------------------------------------------===//

LogicalResult HistogramOp::verify() {
  auto srcTy = cast<RankedTensorType>(getSrc().getType());
  auto dstTy = cast<RankedTensorType>(getType());
  if (srcTy.getRank() != 1 || dstTy.getRank() != 1)
    return emitOpError("source and result must be 1-D tensors");
  if (getMask() &&
      cast<RankedTensorType>(getMask().getType()).getShape() !=
          srcTy.getShape())
    return emitOpError("mask must have the shape of the source");
  return success();
}

LogicalResult GatherOp::verify() {
  auto srcTy = cast<RankedTensorType>(getSrc().getType());
  auto idxTy = cast<RankedTensorType>(getIndices().getType());
  auto dstTy = cast<RankedTensorType>(getType());
  int64_t axis = getAxisAttr().getInt();
  if (srcTy.getRank() != idxTy.getRank())
    return emitOpError("source and indices must have the same rank");
  if (axis < 0 || axis >= srcTy.getRank())
    return emitOpError("axis ") << axis << " is out of range";
  if (dstTy.getShape() != idxTy.getShape())
    return emitOpError("result must have the shape of the indices");
  if (dstTy.getElementType() != srcTy.getElementType())
    return emitOpError("result must have the element type of the source");
  for (int64_t d = 0; d < srcTy.getRank(); ++d)
    if (d != axis && idxTy.getDimSize(d) > srcTy.getDimSize(d))
      return emitOpError("indices dimension ")
             << d << " (" << idxTy.getDimSize(d)
             << ") exceeds the source dimension (" << srcTy.getDimSize(d)
             << ")";
  return success();
}

LogicalResult PrintOp::verify() {
  if (getIsSigned().size() != getArgs().size())
    return emitOpError("isSigned must have one entry per argument (")
           << getArgs().size() << "), got " << getIsSigned().size();
  return success();
}

//===----------------------------------------------------------------------===//
// Block pointers and tensor descriptors
//===----------------------------------------------------------------------===//

LogicalResult MakeTensorPtrOp::verify() {
  auto resTy = cast<PointerType>(getType());
  auto blockTy = cast<RankedTensorType>(resTy.getPointeeType());
  auto baseTy = cast<PointerType>(getBase().getType());
  if (baseTy.getPointeeType() != blockTy.getElementType() ||
      baseTy.getAddressSpace() != resTy.getAddressSpace())
    return emitOpError("base ")
           << baseTy << " must point to " << blockTy.getElementType()
           << " in address space " << resTy.getAddressSpace();
  int64_t rank = blockTy.getRank();
  if (static_cast<int64_t>(getShape().size()) != rank)
    return emitOpError("expects shape, strides and offsets of rank ")
           << rank << ", got " << getShape().size();
  ArrayRef<int32_t> order = getOrder();
  llvm::SmallBitVector seen(rank);
  bool isPermutation = static_cast<int64_t>(order.size()) == rank;
  for (int32_t dim : order) {
    if (!isPermutation || dim < 0 || dim >= rank || seen.test(dim)) {
      isPermutation = false;
      break;
    }
    seen.set(dim);
  }
  if (!isPermutation)
    return emitOpError("order must be a permutation of 0..") << rank - 1;
  return success();
}

LogicalResult MakeTensorDescOp::verify() {
  auto blockTy = cast<TensorDescType>(getType()).getBlockType();
  auto baseTy = cast<PointerType>(getBase().getType());
  if (!sameElementIgnoringSign(baseTy.getPointeeType(),
                               blockTy.getElementType()))
    return emitOpError("base ") << baseTy << " must point to the block "
                                << "element type " << blockTy.getElementType();
  if (static_cast<int64_t>(getShape().size()) != blockTy.getRank())
    return emitOpError("expects shape and strides of rank ")
           << blockTy.getRank() << ", got " << getShape().size();
  return success();
}

/// The value moved through a descriptor holds the block's elements; leading
/// size-1 dimensions of either may be dropped.
static LogicalResult verifyDescriptorValue(Operation *op, Type descType,
                                           Type valueType, size_t numIndices) {
  auto blockTy = cast<TensorDescType>(descType).getBlockType();
  auto valueTy = cast<RankedTensorType>(valueType);
  if (static_cast<int64_t>(numIndices) != blockTy.getRank())
    return op->emitOpError("expects one index per descriptor dimension (")
           << blockTy.getRank() << "), got " << numIndices;
  if (!sameElementIgnoringSign(valueTy.getElementType(),
                               blockTy.getElementType()) ||
      dropLeadingOnes(valueTy.getShape()) !=
          dropLeadingOnes(blockTy.getShape()))
    return op->emitOpError("tensor type ")
           << valueTy << " does not match the descriptor block " << blockTy;
  return success();
}

LogicalResult DescriptorLoadOp::verify() {
  return verifyDescriptorValue(*this, getDesc().getType(), getType(),
                               getIndices().size());
}

LogicalResult DescriptorStoreOp::verify() {
  return verifyDescriptorValue(*this, getDesc().getType(), getSrc().getType(),
                               getIndices().size());
}

LogicalResult DescriptorReduceOp::verify() {
  return verifyDescriptorValue(*this, getDesc().getType(), getSrc().getType(),
                               getIndices().size());
}

/// Gather/scatter: a 1xW block, 1-D row offsets, an NxW value.
static LogicalResult verifyGatherScatter(Operation *op, Type descType,
                                         Type offsetsType, Type valueType) {
  auto blockTy = cast<TensorDescType>(descType).getBlockType();
  auto offTy = cast<RankedTensorType>(offsetsType);
  auto valueTy = cast<RankedTensorType>(valueType);
  if (blockTy.getRank() != 2 || blockTy.getDimSize(0) != 1)
    return op->emitOpError("descriptor block must be 1xW, got ") << blockTy;
  if (offTy.getRank() != 1)
    return op->emitOpError("x_offsets must be a 1-D tensor");
  if (valueTy.getRank() != 2 ||
      valueTy.getDimSize(0) != offTy.getDimSize(0) ||
      valueTy.getDimSize(1) != blockTy.getDimSize(1) ||
      !sameElementIgnoringSign(valueTy.getElementType(),
                               blockTy.getElementType()))
    return op->emitOpError("tensor type ")
           << valueTy << " must be " << offTy.getDimSize(0) << "x"
           << blockTy.getDimSize(1) << " of " << blockTy.getElementType();
  return success();
}

LogicalResult DescriptorGatherOp::verify() {
  return verifyGatherScatter(*this, getDesc().getType(),
                             getXOffsets().getType(), getType());
}

LogicalResult DescriptorScatterOp::verify() {
  return verifyGatherScatter(*this, getDesc().getType(),
                             getXOffsets().getType(), getSrc().getType());
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

void FuncOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                   FunctionType type, ArrayRef<NamedAttribute> attrs,
                   ArrayRef<DictionaryAttr> argAttrs) {
  state.addAttribute(SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addAttribute(getFunctionTypeAttrName(state.name), TypeAttr::get(type));
  state.attributes.append(attrs.begin(), attrs.end());
  state.addRegion();
  if (argAttrs.empty())
    return;
  call_interface_impl::addArgAndResultAttrs(
      builder, state, argAttrs, /*resultAttrs=*/{},
      getArgAttrsAttrName(state.name), getResAttrsAttrName(state.name));
}

ParseResult FuncOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildFuncType = [](Builder &builder, ArrayRef<Type> argTypes,
                          ArrayRef<Type> results,
                          function_interface_impl::VariadicFlag,
                          std::string &) {
    return builder.getFunctionType(argTypes, results);
  };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false,
      getFunctionTypeAttrName(result.name), buildFuncType,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void FuncOp::print(OpAsmPrinter &printer) {
  function_interface_impl::printFunctionOp(
      printer, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto fn = symbolTable.lookupNearestSymbolFrom<FuncOp>(*this, getCalleeAttr());
  if (!fn)
    return emitOpError("'")
           << getCallee() << "' does not reference a valid tt.func";
  FunctionType fnType = fn.getFunctionType();
  if (fnType.getNumInputs() != getNumOperands())
    return emitOpError("passes ")
           << getNumOperands() << " operands, but the callee takes "
           << fnType.getNumInputs();
  for (auto [i, operand, expected] :
       llvm::enumerate(getOperandTypes(), fnType.getInputs()))
    if (operand != expected)
      return emitOpError("operand #")
             << i << " has type " << operand << ", but the callee expects "
             << expected;
  if (TypeRange(fnType.getResults()) != TypeRange(getResultTypes()))
    return emitOpError("result types do not match the callee's ")
           << fnType;
  return success();
}

LogicalResult ReturnOp::verify() {
  auto fn = cast<FuncOp>((*this)->getParentOp());
  ArrayRef<Type> results = fn.getFunctionType().getResults();
  if (getNumOperands() != results.size())
    return emitOpError("returns ")
           << getNumOperands() << " values, but the enclosing function has "
           << results.size() << " results";
  for (auto [i, operand, expected] :
       llvm::enumerate(getOperandTypes(), results))
    if (operand != expected)
      return emitOpError("operand #")
             << i << " has type " << operand << ", but the function returns "
             << expected;
  return success();
}
