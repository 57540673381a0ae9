//===- Ops.cpp - musagpu operations and their verifiers -------------------===//

#include "dialects/MUSAGPU/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::musagpu;

#define GET_OP_CLASSES
#include "dialects/MUSAGPU/IR/MUSAGPUOps.cpp.inc"

//===----------------------------------------------------------------------===//
// TME
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<TMEBoxSplit>>
mlir::musagpu::getTMEBoxSplits(ArrayRef<int64_t> box, unsigned elementBitWidth,
                               function_ref<InFlightDiagnostic()> emitError,
                               int64_t maxInnerBytes) {
  auto fail = [&](auto &&...msg) -> FailureOr<SmallVector<TMEBoxSplit>> {
    if (emitError)
      (emitError() << ... << msg);
    return failure();
  };
  if (box.empty() || box.size() > kTMEMaxRank)
    return fail("TME box rank must be 1 to ", kTMEMaxRank, ", got ",
                box.size());
  if (llvm::any_of(box, [](int64_t d) { return d <= 0; }))
    return fail("TME box dimensions must be positive");
  if (elementBitWidth == 0 || elementBitWidth % 8 != 0)
    return fail("TME moves whole bytes: element bit width ", elementBitWidth,
                " is not a multiple of 8");
  int64_t elementBytes = elementBitWidth / 8;
  int64_t innerBytes = box[0] * elementBytes;
  if (innerBytes < kTMEMinBoxInnerBytes)
    return fail("TME box innermost dimension is ", innerBytes,
                " bytes; it must be at least ", kTMEMinBoxInnerBytes, " bytes");
  if (innerBytes <= maxInnerBytes)
    return SmallVector<TMEBoxSplit>{{SmallVector<int64_t>(box), 0, 0}};
  if (innerBytes % maxInnerBytes != 0)
    return fail("TME box innermost dimension is ", innerBytes,
                " bytes; a box wider than ", maxInnerBytes,
                " bytes is split into ", maxInnerBytes,
                "-byte loads and must be a multiple of ", maxInnerBytes,
                " bytes");
  int64_t pieceElems = maxInnerBytes / elementBytes;
  int64_t pieceSize = pieceElems;
  for (int64_t d : box.drop_front())
    pieceSize *= d;
  SmallVector<TMEBoxSplit> splits;
  for (int64_t i = 0, e = innerBytes / maxInnerBytes; i < e; ++i) {
    TMEBoxSplit &split = splits.emplace_back();
    split.box.assign(box.begin(), box.end());
    split.box[0] = pieceElems;
    split.innerOffset = i * pieceElems;
    split.sharedOffset = i * pieceSize;
  }
  return splits;
}

/// A #musagpu.tme_shared encoding of a memdesc must match its element size.
static LogicalResult verifySharedEncoding(Operation *op, ShapedType buffer) {
  auto memdesc = dyn_cast<triton::gpu::MemDescType>(buffer);
  if (!memdesc)
    return success();
  auto enc = dyn_cast<TMESharedEncodingAttr>(memdesc.getEncoding());
  Type elementType = memdesc.getElementType();
  if (enc && elementType.isIntOrFloat() &&
      enc.getElementBitWidth() != elementType.getIntOrFloatBitWidth())
    return op->emitOpError()
           << "shared buffer " << buffer << " holds " << elementType
           << " but its #musagpu.tme_shared encoding is for "
           << enc.getElementBitWidth() << "-bit elements";
  return success();
}

/// Checks a TME op's box and coordinates against its shared buffer.
static LogicalResult verifyTMEAccess(Operation *op, ArrayRef<int32_t> box,
                                     size_t numCoords, ShapedType buffer) {
  if (box.empty() || box.size() > kTMEMaxRank)
    return op->emitOpError() << "TME rank must be 1 to " << kTMEMaxRank
                             << ", got a box of rank " << box.size();
  if (numCoords != box.size())
    return op->emitOpError() << "expects one coordinate per box dimension ("
                             << box.size() << "), got " << numCoords;
  if (failed(verifySharedEncoding(op, buffer)))
    return failure();
  Type elementType = buffer.getElementType();
  if (!elementType.isIntOrFloat())
    return op->emitOpError() << "TME moves integer or float elements, got "
                             << elementType;
  SmallVector<int64_t> box64(box.begin(), box.end());
  if (failed(getTMEBoxSplits(box64, elementType.getIntOrFloatBitWidth(),
                             [&] { return op->emitOpError(); })))
    return failure();
  if (buffer.hasStaticShape()) {
    int64_t boxElems = 1;
    for (int64_t d : box64)
      boxElems *= d;
    if (boxElems != buffer.getNumElements())
      return op->emitOpError()
             << "box holds " << boxElems << " elements but the shared buffer "
             << buffer << " holds " << buffer.getNumElements();
  }
  return success();
}

LogicalResult TMELoadOp::verify() {
  return verifyTMEAccess(*this, getBox(), getCoords().size(),
                         cast<ShapedType>(getDst().getType()));
}

LogicalResult TMEStoreOp::verify() {
  return verifyTMEAccess(*this, getBox(), getCoords().size(),
                         cast<ShapedType>(getSrc().getType()));
}

//===----------------------------------------------------------------------===//
// Descriptors without TME
//===----------------------------------------------------------------------===//

LogicalResult DescriptorBaseOp::verify() {
  auto desc = cast<triton::TensorDescType>(getDesc().getType());
  auto base = cast<triton::PointerType>(getBase().getType());
  Type element = desc.getBlockType().getElementType();
  if (base.getPointeeType() != element || base.getAddressSpace() != 1)
    return emitOpError() << "result must be a global pointer to the block's "
                            "element type "
                         << element << ", got " << base;
  return success();
}

//===----------------------------------------------------------------------===//
// Async barriers
//===----------------------------------------------------------------------===//

/// The value of `v` if it is a constant.
static std::optional<int64_t> getConstant(Value v) {
  APInt value;
  if (matchPattern(v, m_ConstantInt(&value)))
    return value.getSExtValue();
  return std::nullopt;
}

static LogicalResult verifyPhase(Operation *op, Value phase) {
  std::optional<int64_t> c = getConstant(phase);
  if (c && *c != 0 && *c != 1)
    return op->emitOpError() << "phase must be 0 or 1, got " << *c;
  return success();
}

LogicalResult AsyncBarrierInitOp::verify() {
  std::optional<int64_t> count = getConstant(getArriveCount());
  if (count && *count <= 0)
    return emitOpError() << "arrive count must be positive, got " << *count;
  return verifyPhase(*this, getPhase());
}

LogicalResult AsyncBarrierExpectBytesOp::verify() {
  std::optional<int64_t> bytes = getConstant(getBytes());
  if (bytes && *bytes <= 0)
    return emitOpError() << "expected byte count must be positive, got "
                         << *bytes;
  return success();
}

LogicalResult AsyncBarrierWaitOp::verify() {
  return verifyPhase(*this, getPhase());
}

//===----------------------------------------------------------------------===//
// Matrix ops
//===----------------------------------------------------------------------===//

/// Element kind of A and B, which must agree and be an MMA input type.
static FailureOr<MmaElementKind> verifyMmaInputTypes(Operation *op, Type aElt,
                                                     Type bElt) {
  if (aElt != bElt)
    return op->emitOpError() << "A and B must have the same element type, got "
                             << aElt << " and " << bElt;
  std::optional<MmaElementKind> kind = getMmaElementKind(aElt);
  if (!kind)
    return op->emitOpError()
           << "unsupported element type " << aElt
           << "; expected f16, bf16, f32 (tf32), i8, f8E4M3FN or f8E5M2";
  return *kind;
}

static LogicalResult verifyAccumulatorType(Operation *op, MmaElementKind kind,
                                           Type accElt) {
  bool isInt = kind == MmaElementKind::S8;
  if (isInt ? !accElt.isInteger(32) : !accElt.isF32())
    return op->emitOpError()
           << "accumulator element type must be " << (isInt ? "i32" : "f32")
           << " for " << stringifyMmaElementKind(kind) << " inputs, got "
           << accElt;
  return success();
}

/// A is [.., M, K], B is [.., K, N], C is [.., M, N], and each of M, N, K
/// a whole number of instruction tiles.
static LogicalResult verifyMmaShapes(Operation *op, ArrayRef<int64_t> a,
                                     ArrayRef<int64_t> b, ArrayRef<int64_t> c,
                                     ArrayRef<unsigned> instr) {
  if (a.size() != c.size() || b.size() != c.size())
    return op->emitOpError() << "A, B and the accumulator must have the same "
                                "rank, got "
                             << a.size() << ", " << b.size() << " and "
                             << c.size();
  size_t r = c.size();
  if (r < 2)
    return op->emitOpError() << "operands must have rank >= 2";
  int64_t m = c[r - 2], n = c[r - 1], k = a[r - 1];
  if (a[r - 2] != m || b[r - 2] != k || b[r - 1] != n)
    return op->emitOpError()
           << "shape mismatch: A must be MxK, B KxN and the accumulator MxN, "
              "got A "
           << a[r - 2] << "x" << a[r - 1] << ", B " << b[r - 2] << "x"
           << b[r - 1] << ", accumulator " << m << "x" << n;
  if (m % instr[0] || n % instr[1] || k % instr[2])
    return op->emitOpError() << "tile " << m << "x" << n << "x" << k
                             << " is not a multiple of the instruction shape "
                             << instr[0] << "x" << instr[1] << "x" << instr[2];
  return success();
}

LogicalResult SQMMAOp::verify() {
  auto cType = cast<RankedTensorType>(getC().getType());
  auto enc = dyn_cast_or_null<SQMMAEncodingAttr>(cType.getEncoding());
  if (!enc)
    return emitOpError() << "accumulator must have a #musagpu.sqmma encoding";
  auto aType = cast<ShapedType>(getA().getType());
  auto bType = cast<ShapedType>(getB().getType());
  if (failed(verifySharedEncoding(*this, aType)) ||
      failed(verifySharedEncoding(*this, bType)))
    return failure();
  FailureOr<MmaElementKind> kind = verifyMmaInputTypes(
      *this, aType.getElementType(), bType.getElementType());
  if (failed(kind))
    return failure();
  if (failed(verifyAccumulatorType(*this, *kind, cType.getElementType())))
    return failure();

  ArrayRef<unsigned> instr = enc.getInstrShape();
  unsigned m = instr[0], n = instr[1], k = instr[2];
  StringRef typeName = stringifyMmaElementKind(*kind);
  TargetKind target = getFragmentTarget(enc.getFragment());
  if (!isLegalSQMMAInstrMN(*kind, m, n, target))
    return emitOpError() << "illegal SQMMA instruction M x N = " << m << "x"
                         << n << " for " << typeName << "; legal: "
                         << describeLegalSQMMAInstrMN(*kind, target);
  bool is16Bit =
      *kind == MmaElementKind::F16 || *kind == MmaElementKind::BF16;
  if (is16Bit && k == 128)
    return emitOpError() << "SQMMA K = 128 is not a single instruction for "
                         << typeName
                         << " (the MUSA 5.2 toolchain crashes on it): use "
                            "instrShape K = 64, the lowering issues two";
  ArrayRef<unsigned> legalK = getLegalSQMMAInstrK(*kind, target);
  if (!llvm::is_contained(legalK, k)) {
    InFlightDiagnostic diag = emitOpError()
                              << "illegal SQMMA instruction K = " << k
                              << " for " << typeName << "; legal: ";
    llvm::interleaveComma(legalK, diag);
    return diag;
  }

  // Per instruction, an operand's fastest dim spans at most one 256-byte
  // swizzle line (inferred from public MUSA code).
  unsigned elementBytes = aType.getElementTypeBitWidth() / 8;
  unsigned aInner = getTransA() ? m : k;
  unsigned bInner = getTransB() ? k : n;
  for (auto [name, inner] : {std::pair<StringRef, unsigned>{"A", aInner},
                             std::pair<StringRef, unsigned>{"B", bInner}}) {
    if (inner * elementBytes > 256)
      return emitOpError() << "operand " << name << " spans "
                           << inner * elementBytes
                           << " bytes per instruction along its fastest "
                              "dimension; SQMMA reads at most 256";
  }
  return verifyMmaShapes(*this, aType.getShape(), bType.getShape(),
                         cType.getShape(), instr);
}

LogicalResult SQMMAWaitOp::inferReturnTypes(
    MLIRContext *, std::optional<Location>, ValueRange operands,
    DictionaryAttr, OpaqueProperties, RegionRange,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  llvm::append_range(inferredReturnTypes, operands.getTypes());
  return success();
}

LogicalResult WMMAOp::verify() {
  auto aType = cast<RankedTensorType>(getA().getType());
  auto bType = cast<RankedTensorType>(getB().getType());
  auto cType = cast<RankedTensorType>(getC().getType());
  auto enc = dyn_cast_or_null<WMMAEncodingAttr>(cType.getEncoding());
  if (!enc)
    return emitOpError() << "accumulator must have a #musagpu.wmma encoding";
  RankedTensorType operandTypes[] = {aType, bType};
  for (auto [opIdx, type] : llvm::enumerate(operandTypes)) {
    auto opEnc = dyn_cast_or_null<WMMAOperandEncodingAttr>(type.getEncoding());
    if (!opEnc || opEnc.getOpIdx() != opIdx || opEnc.getParent() != enc)
      return emitOpError() << "operand " << (opIdx == 0 ? "A" : "B")
                           << " must have encoding #musagpu.wmma_operand<{opIdx"
                              " = "
                           << opIdx << ", parent = " << enc << "}>";
  }
  FailureOr<MmaElementKind> kind = verifyMmaInputTypes(
      *this, aType.getElementType(), bType.getElementType());
  if (failed(kind))
    return failure();
  if (failed(verifyAccumulatorType(*this, *kind, cType.getElementType())))
    return failure();
  StringRef typeName = stringifyMmaElementKind(*kind);
  if (*kind == MmaElementKind::BF16 &&
      std::make_pair(enc.getVersionMajor(), enc.getVersionMinor()) <
          std::make_pair(2u, 2u))
    return emitOpError() << "bf16 needs capability >= 2.2";
  ArrayRef<unsigned> instr = enc.getInstrShape();
  TargetKind target = getFragmentTarget(enc.getFragment());
  if (!isLegalWMMAInstrShape(*kind, enc.getVersionMajor(), instr, target)) {
    std::string legal =
        describeLegalWMMAInstrShapes(*kind, enc.getVersionMajor(), target);
    return emitOpError() << "illegal WMMA instruction shape " << instr[0]
                         << "x" << instr[1] << "x" << instr[2] << " for "
                         << typeName << " on capability "
                         << enc.getVersionMajor() << "."
                         << enc.getVersionMinor() << "; legal: "
                         << (legal.empty() ? "none (needs capability >= 3.1)"
                                           : legal);
  }
  return verifyMmaShapes(*this, aType.getShape(), bType.getShape(),
                         cType.getShape(), instr);
}

//===----------------------------------------------------------------------===//
// Async copies
//===----------------------------------------------------------------------===//

LogicalResult AsyncCopyGlobalToSharedOp::verify() {
  Type type = getElementType();
  Type scalar = getElementTypeOrSelf(type);
  if (auto vec = dyn_cast<VectorType>(type);
      vec && (vec.isScalable() || vec.getRank() != 1))
    return emitOpError() << "element type must be a scalar or a fixed 1-D "
                            "vector, got "
                         << type;
  if (!scalar.isIntOrFloat())
    return emitOpError() << "element type must be integer or float, got "
                         << type;
  int64_t bits = scalar.getIntOrFloatBitWidth();
  if (auto vec = dyn_cast<VectorType>(type))
    bits *= vec.getNumElements();
  if (!llvm::is_contained({8, 16, 32, 64}, bits))
    return emitOpError() << "async global->shared copies move 8, 16, 32 or "
                            "64-bit elements, got "
                         << type << " (" << bits << " bits)";
  return success();
}
