//===- Attrs.cpp - musagpu encodings and the hardware legality tables -----===//

#include "dialects/MUSAGPU/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

#include <array>

using namespace mlir;
using namespace mlir::musagpu;

#include "dialects/MUSAGPU/IR/MUSAGPUEnums.cpp.inc"

/// `#musagpu.wmma<...>` (or an alias of one) as a wmma_operand parent.
static FailureOr<WMMAEncodingAttr> parseWMMAParent(AsmParser &parser) {
  WMMAEncodingAttr parent;
  if (parser.parseAttribute(parent))
    return failure();
  return parent;
}

#define GET_ATTRDEF_CLASSES
#include "dialects/MUSAGPU/IR/MUSAGPUAttrDefs.cpp.inc"

void MUSAGPUDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/MUSAGPU/IR/MUSAGPUAttrDefs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Assembly helpers
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<unsigned>>
mlir::musagpu::parseUnsignedArray(AsmParser &parser) {
  SmallVector<unsigned> values;
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
        return parser.parseInteger(values.emplace_back());
      }))
    return failure();
  return values;
}

FailureOr<MatrixFragment> mlir::musagpu::parseMatrixFragment(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  std::string name;
  if (parser.parseKeywordOrString(&name))
    return failure();
  std::optional<MatrixFragment> fragment = symbolizeMatrixFragment(name);
  if (!fragment)
    return parser.emitError(loc) << "unknown matrix fragment '" << name << "'";
  return *fragment;
}

void mlir::musagpu::printUnsignedArray(AsmPrinter &printer,
                                       ArrayRef<unsigned> values) {
  printer << '[';
  llvm::interleaveComma(values, printer);
  printer << ']';
}

//===----------------------------------------------------------------------===//
// Legality: the catalogue's rows (MatrixInstrs.h)
//===----------------------------------------------------------------------===//

std::optional<MmaElementKind> mlir::musagpu::getMmaElementKind(Type type) {
  if (type.isF16())
    return MmaElementKind::F16;
  if (type.isBF16())
    return MmaElementKind::BF16;
  if (type.isF32())
    return MmaElementKind::TF32;
  if (type.isInteger(8))
    return MmaElementKind::S8;
  if (isa<Float8E4M3FNType>(type))
    return MmaElementKind::E4M3;
  if (isa<Float8E5M2Type>(type))
    return MmaElementKind::E5M2;
  return std::nullopt;
}

/// SQMMA exists on PH1 (capability 3.x) only.
constexpr unsigned kSQMMAArchMajor = 3;

static SmallVector<const MatrixInstr *> getSQMMARows(MmaElementKind kind,
                                                    TargetKind target) {
  return getMatrixInstrs(MatrixUnitKind::SQMMA, kSQMMAArchMajor, target, kind);
}

bool mlir::musagpu::isLegalSQMMAInstrMN(MmaElementKind kind, unsigned m,
                                        unsigned n, TargetKind target) {
  return llvm::any_of(getSQMMARows(kind, target), [&](const MatrixInstr *row) {
    return row->m == m && row->n == n;
  });
}

ArrayRef<unsigned> mlir::musagpu::getLegalSQMMAInstrK(MmaElementKind kind,
                                                      TargetKind target) {
  // One list per target and kind, built once from the rows (in their order).
  constexpr unsigned kKinds = unsigned(MmaElementKind::E5M2) + 1;
  constexpr unsigned kTargets = unsigned(TargetKind::Proxy) + 1;
  static const auto ks = [] {
    std::array<std::array<SmallVector<unsigned>, kKinds>, kTargets> lists;
    for (unsigned t = 0; t < kTargets; ++t)
      for (unsigned i = 0; i < kKinds; ++i)
        for (const MatrixInstr *row :
             getSQMMARows(MmaElementKind(i), TargetKind(t)))
          if (!llvm::is_contained(lists[t][i], row->k))
            lists[t][i].push_back(row->k);
    return lists;
  }();
  return ks[unsigned(target)][unsigned(kind)];
}

static SmallVector<const MatrixInstr *>
getWMMARows(MmaElementKind kind, unsigned versionMajor, TargetKind target) {
  return getMatrixInstrs(MatrixUnitKind::WMMA, versionMajor, target, kind);
}

bool mlir::musagpu::isLegalWMMAInstrShape(MmaElementKind kind,
                                          unsigned versionMajor,
                                          ArrayRef<unsigned> instrShape,
                                          TargetKind target) {
  return instrShape.size() == 3 &&
         lookupMatrixInstr(MatrixUnitKind::WMMA, versionMajor, target, kind,
                           instrShape[0], instrShape[1], instrShape[2]);
}

std::string mlir::musagpu::describeLegalSQMMAInstrMN(MmaElementKind kind,
                                                     TargetKind target) {
  return describeMN(getSQMMARows(kind, target));
}

std::string mlir::musagpu::describeLegalWMMAInstrShapes(MmaElementKind kind,
                                                        unsigned versionMajor,
                                                        TargetKind target) {
  return describeMNK(getWMMARows(kind, versionMajor, target));
}

//===----------------------------------------------------------------------===//
// Accumulator encodings
//===----------------------------------------------------------------------===//

/// Checks shared by #musagpu.sqmma and #musagpu.wmma.
static LogicalResult
verifyMmaParams(function_ref<InFlightDiagnostic()> emitError, StringRef name,
                ArrayRef<unsigned> warpsPerCTA, ArrayRef<unsigned> instrShape) {
  if (warpsPerCTA.size() != 2 && warpsPerCTA.size() != 3)
    return emitError() << "#musagpu." << name
                       << " warpsPerCTA must have rank 2 or 3, got "
                       << warpsPerCTA.size();
  if (llvm::is_contained(warpsPerCTA, 0u))
    return emitError() << "#musagpu." << name
                       << " warpsPerCTA entries must be positive";
  if (instrShape.size() != 3)
    return emitError() << "#musagpu." << name
                       << " instrShape must be [M, N, K], got "
                       << instrShape.size() << " entries";
  return success();
}

static LogicalResult
verifyRank(function_ref<InFlightDiagnostic()> emitError, StringRef name,
           unsigned encodingRank, ArrayRef<int64_t> shape) {
  if (shape.size() != encodingRank)
    return emitError() << "#musagpu." << name << " encoding has rank "
                       << encodingRank << " but the tensor has rank "
                       << shape.size();
  return success();
}

LogicalResult
SQMMAEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          unsigned versionMajor, unsigned versionMinor,
                          ArrayRef<unsigned> warpsPerCTA,
                          ArrayRef<unsigned> instrShape,
                          MatrixFragment fragment) {
  if (versionMajor < 3)
    return emitError() << "#musagpu.sqmma needs capability >= 3.1 (mp_31), got "
                       << versionMajor << "." << versionMinor;
  if (fragment != MatrixFragment::SQMMASquad &&
      fragment != MatrixFragment::WGMMAWarpgroup)
    return emitError() << "#musagpu.sqmma fragment must be sqmma_squad or "
                          "wgmma_warpgroup, got "
                       << stringifyMatrixFragment(fragment);
  if (failed(verifyMmaParams(emitError, "sqmma", warpsPerCTA, instrShape)))
    return failure();
  // 4 warps form one squad along M.
  unsigned warpsM = warpsPerCTA[warpsPerCTA.size() - 2];
  if (warpsM % 4 != 0)
    return emitError() << "#musagpu.sqmma warpsPerCTA along M must be a "
                          "multiple of 4 (4 warps per squad), got "
                       << warpsM;
  // Per element type rules are checked by musagpu.sqmma; here only that
  // the shape is legal for some type, among the rows of the fragment's
  // target (the proxy's wgmma computes 64 rows per warpgroup).
  TargetKind target = getFragmentTarget(fragment);
  if (!isLegalSQMMAInstrMN(MmaElementKind::F16, instrShape[0], instrShape[1],
                           target))
    return emitError() << "#musagpu.sqmma instrShape M x N = " << instrShape[0]
                       << "x" << instrShape[1] << " is not a SQMMA shape; legal: "
                       << describeLegalSQMMAInstrMN(MmaElementKind::F16, target);
  if (!llvm::is_contained({8u, 16u, 32u, 64u, 128u}, instrShape[2]))
    return emitError() << "#musagpu.sqmma instrShape K = " << instrShape[2]
                       << " is not one of 8, 16, 32, 64, 128";
  return success();
}

/// Checks an MMA layout against the module's launch shape.
static LogicalResult
verifyMmaForModule(function_ref<InFlightDiagnostic()> emitError, StringRef name,
                   ArrayRef<unsigned> warpsPerCTA, unsigned layoutThreads,
                   unsigned numWarps, unsigned threadsPerWarp) {
  if (threadsPerWarp != layoutThreads)
    return emitError() << "#musagpu." << name << " needs "
                       << layoutThreads
                       << " threads per warp but ttg.threads-per-warp is "
                       << threadsPerWarp;
  unsigned warps = 1;
  for (unsigned w : warpsPerCTA)
    warps *= w;
  if (warps != numWarps)
    return emitError() << "#musagpu." << name << " product of warpsPerCTA ("
                       << warps << ") does not match ttg.num-warps ("
                       << numWarps << ")";
  return success();
}

unsigned SQMMAEncodingAttr::getRank() const { return getWarpsPerCTA().size(); }

LogicalResult SQMMAEncodingAttr::verifyForModule(
    unsigned numWarps, unsigned threadsPerWarp, unsigned,
    function_ref<InFlightDiagnostic()> emitError) const {
  // PH1 warps are 32 threads.
  return verifyMmaForModule(emitError, "sqmma", getWarpsPerCTA(), 32, numWarps,
                            threadsPerWarp);
}

LogicalResult SQMMAEncodingAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type,
    function_ref<InFlightDiagnostic()> emitError) const {
  return verifyRank(emitError, "sqmma", getRank(), shape);
}

LogicalResult
WMMAEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         unsigned versionMajor, unsigned versionMinor,
                         ArrayRef<unsigned> warpsPerCTA,
                         ArrayRef<unsigned> instrShape,
                         MatrixFragment fragment) {
  if (versionMajor != 2 && versionMajor != 3)
    return emitError() << "#musagpu.wmma versionMajor must be 2 (mp_2x) or 3 "
                          "(mp_31), got "
                       << versionMajor;
  if (failed(verifyMmaParams(emitError, "wmma", warpsPerCTA, instrShape)))
    return failure();
  if (fragment == MatrixFragment::MmaSyncWarp) {
    // Only the proxy's rows hold values this way.
    bool proxyRow = llvm::any_of(getMatrixInstrs(), [&](const MatrixInstr &r) {
      return r.fragment == fragment && r.archMajor == versionMajor &&
             r.m == instrShape[0] && r.n == instrShape[1] &&
             r.k == instrShape[2];
    });
    if (!proxyRow)
      return emitError() << "#musagpu.wmma with the mma_sync_warp fragment "
                            "needs one of the GPU proxy's WMMA shapes of "
                            "capability 3 (16x16x16, 16x16x32), got "
                         << instrShape[0] << "x" << instrShape[1] << "x"
                         << instrShape[2] << " on capability " << versionMajor;
    return success();
  }
  if (fragment != MatrixFragment::None)
    return emitError() << "#musagpu.wmma fragment must be left out (the "
                          "device's) or mma_sync_warp, got "
                       << stringifyMatrixFragment(fragment);
  bool legalForSomeType = llvm::any_of(
      ArrayRef<MmaElementKind>{MmaElementKind::F16, MmaElementKind::TF32,
                               MmaElementKind::S8},
      [&](MmaElementKind kind) {
        return isLegalWMMAInstrShape(kind, versionMajor, instrShape,
                                     TargetKind::Device);
      });
  if (!legalForSomeType)
    return emitError() << "#musagpu.wmma instrShape " << instrShape[0] << "x"
                       << instrShape[1] << "x" << instrShape[2]
                       << " is not a WMMA atom of capability " << versionMajor
                       << "." << versionMinor << "; legal: "
                       << describeLegalWMMAInstrShapes(MmaElementKind::F16,
                                                       versionMajor,
                                                       TargetKind::Device)
                       << " (f16/bf16), "
                       << describeLegalWMMAInstrShapes(MmaElementKind::TF32,
                                                       versionMajor,
                                                       TargetKind::Device)
                       << " (tf32), "
                       << describeLegalWMMAInstrShapes(MmaElementKind::S8,
                                                       versionMajor,
                                                       TargetKind::Device)
                       << " (s8)";
  return success();
}

unsigned WMMAEncodingAttr::getRank() const { return getWarpsPerCTA().size(); }

MatrixFragment WMMAEncodingAttr::getResolvedFragment() const {
  if (getFragment() != MatrixFragment::None)
    return getFragment();
  // An encoding that names no fragment is the device's (which the emulator
  // runs too).
  return lookupFragment(MatrixUnitKind::WMMA, TargetKind::Device,
                        getThreadsPerWarp(), getInstrM(), getInstrN(),
                        getInstrK());
}

LogicalResult WMMAEncodingAttr::verifyForModule(
    unsigned numWarps, unsigned threadsPerWarp, unsigned,
    function_ref<InFlightDiagnostic()> emitError) const {
  return verifyMmaForModule(emitError, "wmma", getWarpsPerCTA(),
                            getThreadsPerWarp(), numWarps, threadsPerWarp);
}

LogicalResult WMMAEncodingAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type,
    function_ref<InFlightDiagnostic()> emitError) const {
  return verifyRank(emitError, "wmma", getRank(), shape);
}

LogicalResult
WMMAOperandEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                unsigned opIdx, WMMAEncodingAttr parent) {
  if (opIdx > 1)
    return emitError() << "#musagpu.wmma_operand opIdx must be 0 (A) or 1 (B), "
                          "got "
                       << opIdx;
  if (!parent)
    return emitError() << "#musagpu.wmma_operand needs a #musagpu.wmma parent";
  return success();
}

unsigned WMMAOperandEncodingAttr::getRank() const {
  return getParent().getRank();
}

LogicalResult WMMAOperandEncodingAttr::verifyForModule(
    unsigned numWarps, unsigned threadsPerWarp, unsigned numCTAs,
    function_ref<InFlightDiagnostic()> emitError) const {
  return getParent().verifyForModule(numWarps, threadsPerWarp, numCTAs,
                                     emitError);
}

LogicalResult WMMAOperandEncodingAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type,
    function_ref<InFlightDiagnostic()> emitError) const {
  return verifyRank(emitError, "wmma_operand", getParent().getRank(), shape);
}

//===----------------------------------------------------------------------===//
// TME shared encoding
//===----------------------------------------------------------------------===//

static unsigned getBytes(TMESwizzleGranularity g) {
  return g == TMESwizzleGranularity::None
             ? 0
             : 8u << static_cast<uint32_t>(g); // 1 -> 16 B ... 4 -> 128 B
}
static unsigned getBytes(TMESwizzleStride s) {
  return 32u << static_cast<uint32_t>(s); // 0 -> 32 B ... 3 -> 256 B
}
static unsigned getBytes(TMESwizzleLine l) {
  return 128u << static_cast<uint32_t>(l); // 0 -> 128 B, 1 -> 256 B
}

unsigned TMESharedEncodingAttr::getRank() const { return getOrder().size(); }

unsigned TMESharedEncodingAttr::getSwizzleGranularityBytes() const {
  return getBytes(getSwizzleGranularity());
}
unsigned TMESharedEncodingAttr::getSwizzleStrideBytes() const {
  return getBytes(getSwizzleStride());
}
unsigned TMESharedEncodingAttr::getSwizzleLineBytes() const {
  return getBytes(getSwizzleLine());
}

LogicalResult
TMESharedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                              TMESwizzleGranularity granularity,
                              TMESwizzleStride stride, TMESwizzleLine,
                              unsigned elementBitWidth,
                              ArrayRef<unsigned> order) {
  if (!llvm::is_contained({8u, 16u, 32u, 64u}, elementBitWidth))
    return emitError() << "#musagpu.tme_shared elementBitWidth must be 8, 16, "
                          "32 or 64, got "
                       << elementBitWidth;
  if (order.empty() || order.size() > kTMEMaxRank)
    return emitError() << "#musagpu.tme_shared order must have 1 to "
                       << kTMEMaxRank << " entries, got " << order.size();
  SmallVector<bool> seen(order.size(), false);
  for (unsigned dim : order) {
    if (dim >= order.size() || seen[dim])
      return emitError() << "#musagpu.tme_shared order must be a permutation "
                            "of [0, "
                         << order.size() << ")";
    seen[dim] = true;
  }
  // A swizzle permutes granules within a stride.
  if (getBytes(granularity) > getBytes(stride))
    return emitError() << "#musagpu.tme_shared swizzle granularity ("
                       << getBytes(granularity)
                       << " B) must not exceed the swizzle stride ("
                       << getBytes(stride) << " B)";
  return success();
}

LogicalResult TMESharedEncodingAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type elementType,
    function_ref<InFlightDiagnostic()> emitError) const {
  if (failed(verifyRank(emitError, "tme_shared", getOrder().size(), shape)))
    return failure();
  if (elementType.isIntOrFloat() &&
      elementType.getIntOrFloatBitWidth() != getElementBitWidth())
    return emitError() << "#musagpu.tme_shared is for " << getElementBitWidth()
                       << "-bit elements but the element type is "
                       << elementType;
  return success();
}

TMESharedEncodingAttr TMESharedEncodingAttr::getForSQMMAOperand(
    MLIRContext *ctx, unsigned opIdx, ArrayRef<unsigned> order,
    unsigned elementBitWidth) {
  // A is [.., M, K] and B is [.., K, N]: K is the last dim of A and the
  // second to last of B (a batch dim, if any, leads).
  unsigned rank = std::max<size_t>(order.size(), 2);
  unsigned kDim = opIdx == 0 ? rank - 1 : rank - 2;
  bool kMajor = !order.empty() && order[0] == kDim;
  TMESwizzleGranularity granularity = TMESwizzleGranularity::B16;
  if (!kMajor && elementBitWidth == 16)
    granularity = TMESwizzleGranularity::B32;
  else if (!kMajor && elementBitWidth == 32)
    granularity = TMESwizzleGranularity::B64;
  return get(ctx, granularity, TMESwizzleStride::B256, TMESwizzleLine::B256,
             elementBitWidth, order);
}

TMESharedEncodingAttr TMESharedEncodingAttr::getForWGMMAOperand(
    MLIRContext *ctx, ArrayRef<unsigned> order, unsigned elementBitWidth,
    int64_t innerBytes) {
  TMESwizzleStride stride = innerBytes >= 128  ? TMESwizzleStride::B128
                            : innerBytes >= 64 ? TMESwizzleStride::B64
                                               : TMESwizzleStride::B32;
  return get(ctx, TMESwizzleGranularity::B16, stride, TMESwizzleLine::B128,
             elementBitWidth, order);
}

TMESharedEncodingAttr TMESharedEncodingAttr::getForMatrixOperand(
    MLIRContext *ctx, MatrixFragment fragment, unsigned opIdx,
    ArrayRef<unsigned> order, unsigned elementBitWidth, int64_t innerBytes) {
  if (fragment == MatrixFragment::WGMMAWarpgroup)
    return getForWGMMAOperand(ctx, order, elementBitWidth, innerBytes);
  return getForSQMMAOperand(ctx, opIdx, order, elementBitWidth);
}

int64_t TMESharedEncodingAttr::getSwizzlePeriodBytes() const {
  unsigned granule = getSwizzleGranularityBytes();
  if (granule == 0)
    return 16;
  return int64_t(getSwizzleLineBytes()) * getSwizzleStrideBytes() / granule;
}

int64_t TMESharedEncodingAttr::getPieceBytes() const {
  if (getSwizzleGranularity() == TMESwizzleGranularity::None)
    return kTMEMaxBoxInnerBytes;
  return std::min<int64_t>(kTMEMaxBoxInnerBytes, getSwizzleLineBytes());
}
