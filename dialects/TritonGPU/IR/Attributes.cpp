//===- Attributes.cpp - ttg layout attributes -----------------------------===//
//
// Parsers, printers and verifiers of the ttg layouts. The text must match
// what Triton 3.6 prints byte for byte, so every printer writes its fields
// in Triton's order and omits exactly the fields Triton omits.
//
//===----------------------------------------------------------------------===//

#include "dialects/TritonGPU/IR/Dialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <variant>

using namespace mlir;
using namespace mlir::triton::gpu;

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

SmallVector<SmallVector<int32_t>>
mlir::triton::gpu::unflattenBases(ArrayRef<int32_t> flat, unsigned rank) {
  SmallVector<SmallVector<int32_t>> bases;
  if (rank == 0)
    return bases;
  for (size_t i = 0; i + rank <= flat.size(); i += rank)
    bases.emplace_back(flat.slice(i, rank));
  return bases;
}

unsigned mlir::triton::gpu::getLayoutRank(Attribute layout) {
  if (auto trait = dyn_cast_or_null<LayoutEncodingTrait>(layout))
    return trait.getRank();
  return 0;
}

namespace {
/// Reads the fields of a `<{key = value, ...}>` layout dictionary, reporting
/// errors at the location of the dictionary.
class DictReader {
public:
  DictReader(AsmParser &parser, SMLoc loc) : parser(parser), loc(loc) {}

  InFlightDiagnostic error() { return parser.emitError(loc); }

  /// Where the value of one key goes: unsigned, bool and integer-array
  /// fields are read and checked here, an Attribute is kept as it is.
  struct Field {
    StringRef key;
    std::variant<unsigned *, bool *, SmallVectorImpl<unsigned> *, Attribute *>
        out;
  };

  /// Reads every key of `dict` into the field of that name, in the order of
  /// the dictionary; a key with no field is an error.
  LogicalResult readFields(DictionaryAttr dict, ArrayRef<Field> fields) {
    for (NamedAttribute entry : dict) {
      StringRef key = entry.getName().strref();
      const Field *field =
          llvm::find_if(fields, [&](const Field &f) { return f.key == key; });
      if (field == fields.end())
        return error() << "unexpected key: " << key;
      Attribute value = entry.getValue();
      LogicalResult result = success();
      if (auto *out = std::get_if<unsigned *>(&field->out))
        result = readUInt(value, key, **out);
      else if (auto *out = std::get_if<bool *>(&field->out))
        result = readBool(value, key, **out);
      else if (auto *out =
                   std::get_if<SmallVectorImpl<unsigned> *>(&field->out))
        result = readUIntArray(value, key, **out);
      else
        *std::get<Attribute *>(field->out) = value;
      if (failed(result))
        return failure();
    }
    return success();
  }

  /// Reports the first of `keys` that `dict` lacks.
  LogicalResult requireKeys(DictionaryAttr dict, ArrayRef<StringRef> keys) {
    for (StringRef key : keys)
      if (!dict.get(key))
        return error() << "missing key '" << key << "'";
    return success();
  }

  LogicalResult readUInt(Attribute value, StringRef key, unsigned &out) {
    auto intAttr = dyn_cast<IntegerAttr>(value);
    if (!intAttr || intAttr.getValue().isNegative() ||
        intAttr.getValue().getActiveBits() > 32)
      return error() << "expected a non-negative integer for '" << key << "'";
    out = intAttr.getValue().getZExtValue();
    return success();
  }

  LogicalResult readBool(Attribute value, StringRef key, bool &out) {
    auto boolAttr = dyn_cast<BoolAttr>(value);
    if (!boolAttr)
      return error() << "expected a bool for '" << key << "'";
    out = boolAttr.getValue();
    return success();
  }

  LogicalResult readUIntArray(Attribute value, StringRef key,
                              SmallVectorImpl<unsigned> &out) {
    auto array = dyn_cast<ArrayAttr>(value);
    if (!array)
      return error() << "expected an array of integers for '" << key << "'";
    for (Attribute element : array) {
      unsigned v = 0;
      if (failed(readUInt(element, key, v)))
        return failure();
      out.push_back(v);
    }
    return success();
  }

  /// Reads `[[b0, b1, ...], ...]` into `flat`. Every basis must have `rank`
  /// entries; a zero `rank` is set from the first basis.
  LogicalResult readBases(Attribute value, StringRef key, unsigned &rank,
                          SmallVectorImpl<int32_t> &flat) {
    auto array = dyn_cast<ArrayAttr>(value);
    if (!array)
      return error() << "expected an array of arrays for '" << key << "'";
    for (Attribute basisAttr : array) {
      auto basis = dyn_cast<ArrayAttr>(basisAttr);
      if (!basis)
        return error() << "expected an array of integers in '" << key << "'";
      if (rank == 0)
        rank = basis.size();
      if (basis.size() != rank || rank == 0)
        return error() << "basis in '" << key << "' has " << basis.size()
                       << " entries, expected the layout rank " << rank;
      for (Attribute element : basis) {
        auto intAttr = dyn_cast<IntegerAttr>(element);
        if (!intAttr || intAttr.getValue().getSignificantBits() > 32)
          return error() << "expected a 32-bit integer in '" << key << "'";
        flat.push_back(intAttr.getValue().getSExtValue());
      }
    }
    return success();
  }

  /// Reads the optional CGA bases `cga` of a layout of rank `rank` (the size
  /// of its order); a rank-0 layout with CGA bases fails.
  LogicalResult readCGALayout(Attribute cga, unsigned rank,
                              SmallVectorImpl<int32_t> &flat) {
    if (!cga)
      return success();
    if (rank == 0)
      return failure();
    return readBases(cga, "CGALayout", rank, flat);
  }

  /// Checks the rank learnt from the bases of a linear layout: it must be
  /// known, and hold for every one of `named` (a rank learnt late, e.g. only
  /// from `warp` bases, must hold for the bases read before it).
  LogicalResult
  checkLearntRank(unsigned rank,
                  ArrayRef<std::pair<StringRef, ArrayRef<int32_t>>> named) {
    if (rank == 0)
      return error() << "empty linear layout is not supported";
    for (auto [name, flat] : named)
      if (flat.size() % rank != 0)
        return error() << "bases of '" << name << "' do not match rank "
                       << rank;
    return success();
  }

private:
  AsmParser &parser;
  SMLoc loc;
};
} // namespace

/// Parses `<{...}>`; `loc` is set to the position of the dictionary.
static ParseResult parseLayoutDict(AsmParser &parser, DictionaryAttr &dict,
                                   SMLoc &loc) {
  if (parser.parseLess())
    return failure();
  loc = parser.getCurrentLocation();
  if (parser.parseAttribute(dict) || parser.parseGreater())
    return failure();
  return success();
}

static void printUIntArray(AsmPrinter &printer, ArrayRef<unsigned> values) {
  printer << "[";
  llvm::interleaveComma(values, printer);
  printer << "]";
}

static void printBases(AsmPrinter &printer, ArrayRef<int32_t> flat,
                       unsigned rank) {
  printer << "[";
  llvm::interleaveComma(unflattenBases(flat, rank), printer,
                        [&](ArrayRef<int32_t> basis) {
                          printer << "[";
                          llvm::interleaveComma(basis, printer);
                          printer << "]";
                        });
  printer << "]";
}

static bool isPermutation(ArrayRef<unsigned> order) {
  SmallVector<bool> seen(order.size(), false);
  for (unsigned v : order) {
    if (v >= order.size() || seen[v])
      return false;
    seen[v] = true;
  }
  return true;
}

static LogicalResult verifyOrder(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<unsigned> order) {
  if (order.empty())
    return emitError() << "layout must have rank >= 1";
  if (!isPermutation(order)) {
    InFlightDiagnostic diag = emitError()
                              << "order must be a permutation of 0..(rank-1), "
                                 "but was [";
    llvm::interleaveComma(order, diag);
    return diag << "]";
  }
  return success();
}

/// Checks flattened bases of a layout of rank `rank`: whole bases, each
/// non-negative and moving along at most one dimension.
static LogicalResult verifyBases(function_ref<InFlightDiagnostic()> emitError,
                                 StringRef name, ArrayRef<int32_t> flat,
                                 unsigned rank, bool requirePowerOf2 = false) {
  if (rank == 0)
    return flat.empty() ? success()
                        : emitError() << "'" << name << "' bases need rank >= 1";
  if (flat.size() % rank != 0)
    return emitError() << "'" << name << "' bases must have " << rank
                       << " entries each";
  for (ArrayRef<int32_t> basis : unflattenBases(flat, rank)) {
    if (llvm::any_of(basis, [](int32_t v) { return v < 0; }))
      return emitError() << "'" << name << "' bases must be non-negative";
    if (llvm::count_if(basis, [](int32_t v) { return v != 0; }) > 1)
      return emitError() << "each '" << name
                         << "' basis must move along at most one dimension";
    if (requirePowerOf2 &&
        llvm::any_of(basis, [](int32_t v) {
          return v != 0 && !llvm::isPowerOf2_32(v);
        }))
      return emitError() << "each '" << name
                         << "' basis entry must be 0 or a power of two";
  }
  return success();
}

static LogicalResult checkRank(function_ref<InFlightDiagnostic()> emitError,
                               unsigned layoutRank, ArrayRef<int64_t> shape) {
  if (layoutRank != shape.size())
    return emitError() << "layout rank " << layoutRank
                       << " does not match tensor rank " << shape.size();
  return success();
}

static LogicalResult
checkCount(function_ref<InFlightDiagnostic()> emitError, StringRef what,
           uint64_t actual, StringRef moduleAttr, unsigned expected) {
  if (actual != expected)
    return emitError() << what << " is " << actual << " but the module's \""
                       << moduleAttr << "\" is " << expected;
  return success();
}

static uint64_t product(ArrayRef<unsigned> values) {
  uint64_t result = 1;
  for (unsigned v : values)
    result *= v;
  return result;
}

/// The CGA (cluster) bases shared by blocked and swizzled layouts: printed
/// as `, CGALayout = [[...]]` only when there is more than one CTA.
static void printCGALayout(AsmPrinter &printer, ArrayRef<int32_t> flat,
                           unsigned rank) {
  if (flat.empty())
    return;
  printer << ", CGALayout = ";
  printBases(printer, flat, rank);
}

//===----------------------------------------------------------------------===//
// BlockedEncodingAttr
//===----------------------------------------------------------------------===//

Attribute BlockedEncodingAttr::parse(AsmParser &parser, Type) {
  DictionaryAttr dict;
  SMLoc loc;
  if (parseLayoutDict(parser, dict, loc))
    return {};
  DictReader reader(parser, loc);
  SmallVector<unsigned> sizePerThread, threadsPerWarp, warpsPerCTA, order;
  Attribute cga;
  SmallVector<int32_t> cgaBases;
  if (failed(reader.readFields(dict, {{"sizePerThread", &sizePerThread},
                                     {"threadsPerWarp", &threadsPerWarp},
                                     {"warpsPerCTA", &warpsPerCTA},
                                     {"order", &order},
                                     {"CGALayout", &cga}})) ||
      failed(reader.requireKeys(dict, {"sizePerThread", "threadsPerWarp",
                                       "warpsPerCTA", "order"})) ||
      failed(reader.readCGALayout(cga, order.size(), cgaBases)))
    return {};
  return parser.getChecked<BlockedEncodingAttr>(
      parser.getContext(), sizePerThread, threadsPerWarp, warpsPerCTA, order,
      cgaBases);
}

void BlockedEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{sizePerThread = ";
  printUIntArray(printer, getSizePerThread());
  printer << ", threadsPerWarp = ";
  printUIntArray(printer, getThreadsPerWarp());
  printer << ", warpsPerCTA = ";
  printUIntArray(printer, getWarpsPerCTA());
  printer << ", order = ";
  printUIntArray(printer, getOrder());
  printCGALayout(printer, getCgaBases(), getRank());
  printer << "}>";
}

LogicalResult
BlockedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                            ArrayRef<unsigned> sizePerThread,
                            ArrayRef<unsigned> threadsPerWarp,
                            ArrayRef<unsigned> warpsPerCTA,
                            ArrayRef<unsigned> order,
                            ArrayRef<int32_t> cgaBases) {
  if (!llvm::all_equal({sizePerThread.size(), threadsPerWarp.size(),
                        warpsPerCTA.size(), order.size()}))
    return emitError() << "sizePerThread, threadsPerWarp, warpsPerCTA and "
                          "order must all have the same rank";
  auto notPow2 = [](unsigned v) { return !llvm::isPowerOf2_32(v); };
  if (llvm::any_of(sizePerThread, notPow2))
    return emitError() << "every element of sizePerThread must be a power of two";
  if (llvm::any_of(threadsPerWarp, notPow2))
    return emitError() << "every element of threadsPerWarp must be a power of two";
  if (llvm::any_of(warpsPerCTA, notPow2))
    return emitError() << "every element of warpsPerCTA must be a power of two";
  if (failed(verifyOrder(emitError, order)))
    return failure();
  return verifyBases(emitError, "CGALayout", cgaBases, order.size(),
                     /*requirePowerOf2=*/true);
}

unsigned BlockedEncodingAttr::getRank() const { return getOrder().size(); }

SmallVector<SmallVector<int32_t>> BlockedEncodingAttr::getCGALayout() const {
  return unflattenBases(getCgaBases(), getRank());
}

unsigned BlockedEncodingAttr::getNumCTAs() const {
  return 1u << getCGALayout().size();
}

LogicalResult BlockedEncodingAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type, function_ref<InFlightDiagnostic()> emitError) const {
  return checkRank(emitError, getRank(), shape);
}

LogicalResult BlockedEncodingAttr::verifyForModule(
    unsigned numWarps, unsigned threadsPerWarp, unsigned numCTAs,
    function_ref<InFlightDiagnostic()> emitError) const {
  if (failed(checkCount(emitError, "product of threadsPerWarp",
                        product(getThreadsPerWarp()), "ttg.threads-per-warp",
                        threadsPerWarp)) ||
      failed(checkCount(emitError, "product of warpsPerCTA",
                        product(getWarpsPerCTA()), "ttg.num-warps", numWarps)))
    return failure();
  return checkCount(emitError, "number of CTAs in CGALayout", getNumCTAs(),
                    "ttg.num-ctas", numCTAs);
}

//===----------------------------------------------------------------------===//
// SliceEncodingAttr
//===----------------------------------------------------------------------===//

Attribute SliceEncodingAttr::parse(AsmParser &parser, Type) {
  DictionaryAttr dict;
  SMLoc loc;
  if (parseLayoutDict(parser, dict, loc))
    return {};
  DictReader reader(parser, loc);
  unsigned dim = 0;
  Attribute parent;
  if (failed(reader.readFields(dict, {{"dim", &dim}, {"parent", &parent}})))
    return {};
  if (!dict.get("dim") || !parent) {
    reader.error() << "expected keys 'dim' and 'parent'";
    return {};
  }
  return parser.getChecked<SliceEncodingAttr>(parser.getContext(), dim, parent);
}

void SliceEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{dim = " << getDim() << ", parent = " << getParent() << "}>";
}

LogicalResult
SliceEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          unsigned dim, Attribute parent) {
  if (!isa_and_nonnull<DistributedEncodingTrait>(parent) ||
      !isa<LayoutEncodingTrait>(parent))
    return emitError() << "slice parent must be a distributed layout";
  unsigned rank = getLayoutRank(parent);
  if (rank < 2)
    return emitError() << "slice parent must have rank >= 2";
  if (dim >= rank)
    return emitError() << "slice dim=" << dim
                       << " must be less than the parent rank=" << rank;
  return success();
}

unsigned SliceEncodingAttr::getRank() const {
  return getLayoutRank(getParent()) - 1;
}

LogicalResult SliceEncodingAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type, function_ref<InFlightDiagnostic()> emitError) const {
  return checkRank(emitError, getRank(), shape);
}

LogicalResult SliceEncodingAttr::verifyForModule(
    unsigned numWarps, unsigned threadsPerWarp, unsigned numCTAs,
    function_ref<InFlightDiagnostic()> emitError) const {
  return cast<DistributedEncodingTrait>(getParent())
      .verifyForModule(numWarps, threadsPerWarp, numCTAs, emitError);
}

//===----------------------------------------------------------------------===//
// DotOperandEncodingAttr
//===----------------------------------------------------------------------===//

Attribute DotOperandEncodingAttr::parse(AsmParser &parser, Type) {
  DictionaryAttr dict;
  SMLoc loc;
  if (parseLayoutDict(parser, dict, loc))
    return {};
  DictReader reader(parser, loc);
  unsigned opIdx = 0, kWidth = 0;
  Attribute parent;
  if (failed(reader.readFields(
          dict, {{"opIdx", &opIdx}, {"kWidth", &kWidth}, {"parent", &parent}})))
    return {};
  if (!dict.get("opIdx") || !parent) {
    reader.error() << "expected keys 'opIdx' and 'parent'";
    return {};
  }
  return parser.getChecked<DotOperandEncodingAttr>(parser.getContext(), opIdx,
                                                   parent, kWidth);
}

void DotOperandEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{opIdx = " << getOpIdx() << ", parent = " << getParent();
  if (getKWidth() != 0)
    printer << ", kWidth = " << getKWidth();
  printer << "}>";
}

LogicalResult
DotOperandEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               unsigned opIdx, Attribute parent,
                               unsigned kWidth) {
  if (opIdx > 1)
    return emitError() << "dot_op opIdx must be 0 or 1, got " << opIdx;
  if (!isa_and_nonnull<DistributedEncodingTrait>(parent) ||
      !isa<LayoutEncodingTrait>(parent))
    return emitError() << "dot_op parent must be a distributed layout";
  unsigned rank = getLayoutRank(parent);
  if (rank != 2 && rank != 3)
    return emitError() << "dot_op parent must have rank 2 or 3, got " << rank;
  // The FMA path reads operands element by element: a K width only has a
  // meaning for matrix-core parents (as in Triton).
  if (kWidth != 0 && isa<BlockedEncodingAttr>(parent))
    return emitError() << "dot_op kWidth is not supported when the parent is "
                          "a blocked layout";
  return success();
}

unsigned DotOperandEncodingAttr::getRank() const {
  return getLayoutRank(getParent());
}

LogicalResult DotOperandEncodingAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type, function_ref<InFlightDiagnostic()> emitError) const {
  return checkRank(emitError, getRank(), shape);
}

LogicalResult DotOperandEncodingAttr::verifyForModule(
    unsigned numWarps, unsigned threadsPerWarp, unsigned numCTAs,
    function_ref<InFlightDiagnostic()> emitError) const {
  return cast<DistributedEncodingTrait>(getParent())
      .verifyForModule(numWarps, threadsPerWarp, numCTAs, emitError);
}

//===----------------------------------------------------------------------===//
// LinearEncodingAttr
//===----------------------------------------------------------------------===//

static constexpr StringLiteral kLinearInDims[] = {"register", "lane", "warp",
                                                  "block"};

Attribute LinearEncodingAttr::parse(AsmParser &parser, Type) {
  DictionaryAttr dict;
  SMLoc loc;
  if (parseLayoutDict(parser, dict, loc))
    return {};
  DictReader reader(parser, loc);
  for (NamedAttribute field : dict)
    if (!llvm::is_contained(kLinearInDims, field.getName().strref())) {
      reader.error() << "unexpected key: " << field.getName().strref();
      return {};
    }
  unsigned rank = 0;
  SmallVector<int32_t> bases[4];
  for (auto [i, name] : llvm::enumerate(kLinearInDims)) {
    Attribute value = dict.get(name);
    if (!value) {
      reader.error() << "expected basis of '" << name << "'";
      return {};
    }
    if (failed(reader.readBases(value, name, rank, bases[i])))
      return {};
  }
  if (failed(reader.checkLearntRank(rank, {{kLinearInDims[0], bases[0]},
                                           {kLinearInDims[1], bases[1]},
                                           {kLinearInDims[2], bases[2]},
                                           {kLinearInDims[3], bases[3]}})))
    return {};
  return parser.getChecked<LinearEncodingAttr>(parser.getContext(), rank,
                                               bases[0], bases[1], bases[2],
                                               bases[3]);
}

void LinearEncodingAttr::print(AsmPrinter &printer) const {
  unsigned rank = getRank();
  ArrayRef<int32_t> all[] = {getRegisterBases(), getLaneBases(),
                             getWarpBases(), getBlockBases()};
  printer << "<{";
  for (auto [i, name] : llvm::enumerate(kLinearInDims)) {
    if (i)
      printer << ", ";
    printer << name << " = ";
    printBases(printer, all[i], rank);
  }
  printer << "}>";
}

LogicalResult
LinearEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                           unsigned rank, ArrayRef<int32_t> registerBases,
                           ArrayRef<int32_t> laneBases,
                           ArrayRef<int32_t> warpBases,
                           ArrayRef<int32_t> blockBases) {
  if (rank == 0)
    return emitError() << "linear layout must have rank >= 1";
  if (failed(verifyBases(emitError, "register", registerBases, rank)) ||
      failed(verifyBases(emitError, "lane", laneBases, rank)) ||
      failed(verifyBases(emitError, "warp", warpBases, rank)) ||
      failed(verifyBases(emitError, "block", blockBases, rank)))
    return failure();
  return success();
}

unsigned LinearEncodingAttr::getRank() const { return getLayoutRank(); }

SmallVector<SmallVector<int32_t>> LinearEncodingAttr::getRegisterBasisList() const {
  return unflattenBases(getRegisterBases(), getRank());
}
SmallVector<SmallVector<int32_t>> LinearEncodingAttr::getLaneBasisList() const {
  return unflattenBases(getLaneBases(), getRank());
}
SmallVector<SmallVector<int32_t>> LinearEncodingAttr::getWarpBasisList() const {
  return unflattenBases(getWarpBases(), getRank());
}
SmallVector<SmallVector<int32_t>> LinearEncodingAttr::getBlockBasisList() const {
  return unflattenBases(getBlockBases(), getRank());
}

/// Per dimension, one more than the XOR-closure maximum of the bases: the
/// extent the layout covers (bases are single-dimension moves).
static SmallVector<int64_t> coveredShape(unsigned rank,
                                         ArrayRef<ArrayRef<int32_t>> flats) {
  SmallVector<int64_t> maxCoord(rank, 0);
  for (ArrayRef<int32_t> flat : flats)
    for (ArrayRef<int32_t> basis : unflattenBases(flat, rank))
      for (unsigned d = 0; d < rank; ++d)
        maxCoord[d] |= basis[d];
  SmallVector<int64_t> shape;
  for (int64_t m : maxCoord)
    shape.push_back(m == 0 ? 1 : int64_t(llvm::NextPowerOf2(m)));
  return shape;
}

SmallVector<int64_t> LinearEncodingAttr::getCoveredShape() const {
  return coveredShape(getRank(), {getRegisterBases(), getLaneBases(),
                                  getWarpBases(), getBlockBases()});
}

LogicalResult LinearEncodingAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type, function_ref<InFlightDiagnostic()> emitError) const {
  return checkRank(emitError, getRank(), shape);
}

LogicalResult LinearEncodingAttr::verifyForModule(
    unsigned numWarps, unsigned threadsPerWarp, unsigned numCTAs,
    function_ref<InFlightDiagnostic()> emitError) const {
  unsigned rank = getRank();
  if (failed(checkCount(emitError, "2^(number of lane bases)",
                        1ull << (getLaneBases().size() / rank),
                        "ttg.threads-per-warp", threadsPerWarp)) ||
      failed(checkCount(emitError, "2^(number of warp bases)",
                        1ull << (getWarpBases().size() / rank),
                        "ttg.num-warps", numWarps)))
    return failure();
  return checkCount(emitError, "2^(number of block bases)",
                    1ull << (getBlockBases().size() / rank), "ttg.num-ctas",
                    numCTAs);
}

//===----------------------------------------------------------------------===//
// SwizzledSharedEncodingAttr / AMDRotatingSharedEncodingAttr
//===----------------------------------------------------------------------===//

namespace {
struct SwizzleFields {
  unsigned vec = 0, perPhase = 0, maxPhase = 0;
  SmallVector<unsigned> order;
  SmallVector<int32_t> cgaBases;
};
} // namespace

static FailureOr<SwizzleFields> parseSwizzleFields(AsmParser &parser) {
  DictionaryAttr dict;
  SMLoc loc;
  if (parseLayoutDict(parser, dict, loc))
    return failure();
  DictReader reader(parser, loc);
  SwizzleFields fields;
  Attribute cga;
  if (failed(reader.readFields(dict, {{"vec", &fields.vec},
                                      {"perPhase", &fields.perPhase},
                                      {"maxPhase", &fields.maxPhase},
                                      {"order", &fields.order},
                                      {"CGALayout", &cga}})) ||
      failed(reader.requireKeys(dict,
                                {"vec", "perPhase", "maxPhase", "order"})) ||
      failed(reader.readCGALayout(cga, fields.order.size(), fields.cgaBases)))
    return failure();
  return fields;
}

/// Parses a layout of the swizzled family (`SwizzledAttrT` is
/// SwizzledSharedEncodingAttr or AMDRotatingSharedEncodingAttr, which share
/// their fields and text).
template <typename SwizzledAttrT>
static Attribute parseSwizzledLayout(AsmParser &parser) {
  FailureOr<SwizzleFields> f = parseSwizzleFields(parser);
  if (failed(f))
    return {};
  return parser.getChecked<SwizzledAttrT>(parser.getContext(), f->vec,
                                          f->perPhase, f->maxPhase, f->order,
                                          f->cgaBases);
}

template <typename SwizzledAttrT>
static void printSwizzledLayout(AsmPrinter &printer, SwizzledAttrT attr) {
  printer << "<{vec = " << attr.getVec() << ", perPhase = "
          << attr.getPerPhase() << ", maxPhase = " << attr.getMaxPhase()
          << ", order = ";
  printUIntArray(printer, attr.getOrder());
  printCGALayout(printer, attr.getCgaBases(), attr.getOrder().size());
  printer << "}>";
}

static LogicalResult
verifySwizzleFields(function_ref<InFlightDiagnostic()> emitError,
                    unsigned vec, unsigned perPhase, unsigned maxPhase,
                    ArrayRef<unsigned> order, ArrayRef<int32_t> cgaBases) {
  if (vec == 0 || perPhase == 0 || maxPhase == 0)
    return emitError() << "vec, perPhase and maxPhase must be positive";
  if (failed(verifyOrder(emitError, order)))
    return failure();
  return verifyBases(emitError, "CGALayout", cgaBases, order.size(),
                     /*requirePowerOf2=*/true);
}

Attribute SwizzledSharedEncodingAttr::parse(AsmParser &parser, Type) {
  return parseSwizzledLayout<SwizzledSharedEncodingAttr>(parser);
}

void SwizzledSharedEncodingAttr::print(AsmPrinter &printer) const {
  printSwizzledLayout(printer, *this);
}

LogicalResult SwizzledSharedEncodingAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, unsigned vec,
    unsigned perPhase, unsigned maxPhase, ArrayRef<unsigned> order,
    ArrayRef<int32_t> cgaBases) {
  return verifySwizzleFields(emitError, vec, perPhase, maxPhase, order,
                             cgaBases);
}

unsigned SwizzledSharedEncodingAttr::getRank() const {
  return getOrder().size();
}

Attribute AMDRotatingSharedEncodingAttr::parse(AsmParser &parser, Type) {
  return parseSwizzledLayout<AMDRotatingSharedEncodingAttr>(parser);
}

void AMDRotatingSharedEncodingAttr::print(AsmPrinter &printer) const {
  printSwizzledLayout(printer, *this);
}

LogicalResult AMDRotatingSharedEncodingAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, unsigned vec,
    unsigned perPhase, unsigned maxPhase, ArrayRef<unsigned> order,
    ArrayRef<int32_t> cgaBases) {
  return verifySwizzleFields(emitError, vec, perPhase, maxPhase, order,
                             cgaBases);
}

unsigned AMDRotatingSharedEncodingAttr::getRank() const {
  return getOrder().size();
}

//===----------------------------------------------------------------------===//
// NVMMASharedEncodingAttr
//===----------------------------------------------------------------------===//

Attribute NVMMASharedEncodingAttr::parse(AsmParser &parser, Type) {
  DictionaryAttr dict;
  SMLoc loc;
  if (parseLayoutDict(parser, dict, loc))
    return {};
  DictReader reader(parser, loc);
  unsigned swizzlingByteWidth = 0, elementBitWidth = 0, rank = 0;
  bool transposed = false, fp4Padded = false;
  Attribute cga;
  if (failed(reader.readFields(dict,
                               {{"swizzlingByteWidth", &swizzlingByteWidth},
                                {"transposed", &transposed},
                                {"elementBitWidth", &elementBitWidth},
                                {"fp4Padded", &fp4Padded},
                                {"rank", &rank},
                                {"CGALayout", &cga}})) ||
      failed(reader.requireKeys(
          dict, {"swizzlingByteWidth", "transposed", "elementBitWidth"})))
    return {};
  // Without `rank` the CGA bases give it (Triton omits `rank` then); the
  // default is 2.
  SmallVector<int32_t> cgaBases;
  if (cga && failed(reader.readBases(cga, "CGALayout", rank, cgaBases)))
    return {};
  if (rank == 0)
    rank = 2;
  return parser.getChecked<NVMMASharedEncodingAttr>(
      parser.getContext(), swizzlingByteWidth, transposed, elementBitWidth,
      fp4Padded, rank, cgaBases);
}

void NVMMASharedEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{swizzlingByteWidth = " << getSwizzlingByteWidth()
          << ", transposed = " << (getTransposed() ? "true" : "false")
          << ", elementBitWidth = " << getElementBitWidth();
  if (getFp4Padded())
    printer << ", fp4Padded = true";
  if (getCgaBases().empty() && getLayoutRank() != 2)
    printer << ", rank = " << getLayoutRank();
  else
    printCGALayout(printer, getCgaBases(), getLayoutRank());
  printer << "}>";
}

LogicalResult NVMMASharedEncodingAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, unsigned swizzlingByteWidth,
    bool, unsigned elementBitWidth, bool, unsigned layoutRank,
    ArrayRef<int32_t> cgaBases) {
  if (!llvm::is_contained({0u, 32u, 64u, 128u}, swizzlingByteWidth))
    return emitError() << "swizzlingByteWidth must be 0, 32, 64 or 128, got "
                       << swizzlingByteWidth;
  if (!llvm::isPowerOf2_32(elementBitWidth) || elementBitWidth > 64)
    return emitError() << "elementBitWidth must be a power of two <= 64, got "
                       << elementBitWidth;
  if (layoutRank == 0)
    return emitError() << "rank must be positive";
  return verifyBases(emitError, "CGALayout", cgaBases, layoutRank,
                     /*requirePowerOf2=*/true);
}

unsigned NVMMASharedEncodingAttr::getRank() const { return getLayoutRank(); }

unsigned NVMMASharedEncodingAttr::getVec() const {
  return getSwizzlingByteWidth() == 0 ? 1 : 128 / getElementBitWidth();
}
unsigned NVMMASharedEncodingAttr::getPerPhase() const {
  return getSwizzlingByteWidth() == 0 ? 1 : 128 / getSwizzlingByteWidth();
}
unsigned NVMMASharedEncodingAttr::getMaxPhase() const {
  return getSwizzlingByteWidth() == 0 ? 1 : getSwizzlingByteWidth() / 16;
}

//===----------------------------------------------------------------------===//
// PaddedSharedEncodingAttr
//===----------------------------------------------------------------------===//

/// Identity offset bases for `shape` walked in `order` (fastest first).
static FailureOr<SmallVector<int32_t>>
identityBases(ArrayRef<unsigned> shape, ArrayRef<unsigned> order) {
  unsigned rank = shape.size();
  SmallVector<int32_t> flat;
  for (unsigned d : order) {
    if (d >= rank || !llvm::isPowerOf2_32(shape[d]))
      return failure();
    for (unsigned step = 1; step < shape[d]; step *= 2)
      for (unsigned k = 0; k < rank; ++k)
        flat.push_back(k == d ? step : 0);
  }
  return flat;
}

/// Order of dimensions along `flat` bases; dimensions the bases never move
/// along follow in descending order.
static SmallVector<unsigned> orderOfBases(ArrayRef<int32_t> flat,
                                          unsigned rank) {
  llvm::SetVector<unsigned> order;
  for (ArrayRef<int32_t> basis : unflattenBases(flat, rank)) {
    const auto *it = llvm::find_if(basis, [](int32_t v) { return v != 0; });
    if (it != basis.end())
      order.insert(it - basis.begin());
  }
  for (unsigned d = rank; d-- > 0;)
    order.insert(d);
  return order.takeVector();
}

Attribute PaddedSharedEncodingAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess() || parser.parseLSquare())
    return {};
  SmallVector<unsigned> intervals, paddings;
  auto parsePair = [&]() -> ParseResult {
    unsigned interval = 0, padding = 0;
    if (parser.parseInteger(interval) || parser.parseColon() ||
        parser.parsePlus() || parser.parseInteger(padding))
      return failure();
    intervals.push_back(interval);
    paddings.push_back(padding);
    return success();
  };
  if (parser.parseCommaSeparatedList(parsePair) || parser.parseRSquare())
    return {};
  SMLoc loc = parser.getCurrentLocation();
  DictionaryAttr dict;
  if (parser.parseAttribute(dict) || parser.parseGreater())
    return {};
  DictReader reader(parser, loc);
  unsigned rank = 0;
  SmallVector<int32_t> offsetBases, blockBases;
  if (dict.get("offset") || dict.get("block")) {
    for (NamedAttribute field : dict)
      if (!llvm::is_contained({"offset", "block"}, field.getName().strref())) {
        reader.error() << "unexpected key: " << field.getName().strref();
        return {};
      }
    if (!dict.get("offset") || !dict.get("block")) {
      reader.error() << "expected both 'offset' and 'block' bases";
      return {};
    }
    if (failed(reader.readBases(dict.get("offset"), "offset", rank,
                                offsetBases)) ||
        failed(reader.readBases(dict.get("block"), "block", rank, blockBases)))
      return {};
    if (failed(reader.checkLearntRank(rank, {{"offset", offsetBases}})))
      return {};
  } else {
    SmallVector<unsigned> order, shape;
    if (failed(
            reader.readFields(dict, {{"order", &order}, {"shape", &shape}})))
      return {};
    if (order.empty() || order.size() != shape.size() ||
        !isPermutation(order)) {
      reader.error() << "padded layout needs 'order' (a permutation) and "
                        "'shape' of the same rank";
      return {};
    }
    FailureOr<SmallVector<int32_t>> identity = identityBases(shape, order);
    if (failed(identity)) {
      reader.error() << "padded layout shape must be powers of two";
      return {};
    }
    rank = shape.size();
    offsetBases = std::move(*identity);
  }
  return parser.getChecked<PaddedSharedEncodingAttr>(
      parser.getContext(), intervals, paddings, rank, offsetBases, blockBases);
}

void PaddedSharedEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<[";
  llvm::interleaveComma(llvm::zip(getIntervals(), getPaddings()), printer,
                        [&](auto pair) {
                          printer << std::get<0>(pair) << ":+"
                                  << std::get<1>(pair);
                        });
  printer << "] {";
  // Triton prints an identity offset map in the short `order/shape` form.
  SmallVector<unsigned> order = getOrder();
  SmallVector<unsigned> shape;
  for (int64_t s : getCoveredShape())
    shape.push_back(s);
  FailureOr<SmallVector<int32_t>> identity = identityBases(shape, order);
  if (getBlockBases().empty() && succeeded(identity) &&
      ArrayRef<int32_t>(*identity) == getOffsetBases()) {
    printer << "order = ";
    printUIntArray(printer, order);
    printer << ", shape = ";
    printUIntArray(printer, shape);
  } else {
    printer << "offset = ";
    printBases(printer, getOffsetBases(), getRank());
    printer << ", block = ";
    printBases(printer, getBlockBases(), getRank());
  }
  printer << "}>";
}

LogicalResult PaddedSharedEncodingAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, ArrayRef<unsigned> intervals,
    ArrayRef<unsigned> paddings, unsigned rank, ArrayRef<int32_t> offsetBases,
    ArrayRef<int32_t> blockBases) {
  if (intervals.size() != paddings.size())
    return emitError() << "intervals size (" << intervals.size()
                       << ") must match paddings size (" << paddings.size()
                       << ")";
  if (intervals.empty())
    return emitError() << "must have at least one interval-padding pair";
  if (!llvm::all_of(intervals, llvm::isPowerOf2_32))
    return emitError() << "interval values must all be powers of two";
  if (!llvm::all_of(paddings, llvm::isPowerOf2_32))
    return emitError() << "padding values must all be powers of two";
  if (llvm::SmallSet<unsigned, 4>(intervals.begin(), intervals.end()).size() !=
      intervals.size())
    return emitError() << "interval values cannot have duplicates";
  if (rank == 0)
    return emitError() << "padded layout must have rank >= 1";
  if (failed(verifyBases(emitError, "offset", offsetBases, rank, true)) ||
      failed(verifyBases(emitError, "block", blockBases, rank, true)))
    return failure();
  // Each element has exactly one place: no zero or repeated bases.
  llvm::SmallSet<std::pair<unsigned, int32_t>, 16> seen;
  for (ArrayRef<int32_t> flat : {offsetBases, blockBases})
    for (ArrayRef<int32_t> basis : unflattenBases(flat, rank)) {
      const auto *it = llvm::find_if(basis, [](int32_t v) { return v != 0; });
      if (it == basis.end() ||
          !seen.insert({unsigned(it - basis.begin()), *it}).second)
        return emitError() << "broadcasting is not supported in a padded layout";
    }
  return success();
}

unsigned PaddedSharedEncodingAttr::getRank() const { return getLayoutRank(); }

SmallVector<unsigned> PaddedSharedEncodingAttr::getOrder() const {
  return orderOfBases(getOffsetBases(), getRank());
}

SmallVector<int64_t> PaddedSharedEncodingAttr::getCoveredShape() const {
  return coveredShape(getRank(), {getOffsetBases(), getBlockBases()});
}

//===----------------------------------------------------------------------===//
// SharedLinearEncodingAttr
//===----------------------------------------------------------------------===//

Attribute SharedLinearEncodingAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess())
    return {};
  SMLoc loc = parser.getCurrentLocation();
  DictionaryAttr dict;
  if (parser.parseAttribute(dict))
    return {};
  DictReader reader(parser, loc);
  for (NamedAttribute field : dict)
    if (!llvm::is_contained({"offset", "block"}, field.getName().strref())) {
      if (field.getName().strref() == "alignment")
        reader.error() << "alignment must be specified outside of the linear "
                          "layout braces";
      else
        reader.error() << "unexpected key: " << field.getName().strref();
      return {};
    }
  unsigned alignment = 0;
  if (parser.parseComma() || parser.parseKeyword("alignment") ||
      parser.parseEqual() || parser.parseInteger(alignment) ||
      parser.parseGreater())
    return {};
  unsigned rank = 0;
  SmallVector<int32_t> offsetBases, blockBases;
  if (!dict.get("offset")) {
    reader.error() << "expected basis of 'offset'";
    return {};
  }
  if (failed(reader.readBases(dict.get("offset"), "offset", rank,
                              offsetBases)))
    return {};
  if (Attribute block = dict.get("block"))
    if (failed(reader.readBases(block, "block", rank, blockBases)))
      return {};
  if (failed(reader.checkLearntRank(rank, {{"offset", offsetBases}})))
    return {};
  return parser.getChecked<SharedLinearEncodingAttr>(
      parser.getContext(), rank, offsetBases, blockBases, alignment);
}

void SharedLinearEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{offset = ";
  printBases(printer, getOffsetBases(), getRank());
  if (!getBlockBases().empty()) {
    printer << ", block = ";
    printBases(printer, getBlockBases(), getRank());
  }
  printer << "}, alignment = " << getAlignment() << ">";
}

LogicalResult SharedLinearEncodingAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, unsigned rank,
    ArrayRef<int32_t> offsetBases, ArrayRef<int32_t> blockBases,
    unsigned alignment) {
  if (alignment == 0 || !llvm::isPowerOf2_32(alignment))
    return emitError() << "alignment must be a positive power of two";
  if (rank == 0)
    return emitError() << "shared_linear layout must have rank >= 1";
  if (failed(verifyBases(emitError, "offset", offsetBases, rank, true)) ||
      failed(verifyBases(emitError, "block", blockBases, rank, true)))
    return failure();
  return success();
}

unsigned SharedLinearEncodingAttr::getRank() const { return getLayoutRank(); }

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

#include "dialects/TritonGPU/IR/TritonGPUAttrInterfaces.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/TritonGPU/IR/TritonGPUAttrDefs.cpp.inc"

void TritonGPUDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/TritonGPU/IR/TritonGPUAttrDefs.cpp.inc"
      >();
}
