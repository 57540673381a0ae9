//===- LinearLayout.cpp - Linear layouts over GF(2) -----------------------===//
//
// The algebra works on "packed" vectors: an input's image with all output
// coordinates concatenated into one 64-bit integer, so that XOR of images is
// XOR of integers and Gaussian elimination is a few shifts per column.
//
//===----------------------------------------------------------------------===//

#include "layouts/LinearLayout.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"

#include <array>

using namespace mlir::triton_musa;
using llvm::ArrayRef;
using llvm::Expected;
using llvm::SmallVector;
using llvm::StringRef;

namespace {

llvm::Error layoutError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "linear layout: " + message);
}

/// log2 of `size` if it is a power of two within the per-dimension limit.
Expected<int32_t> sizeToLog2(int64_t size, const llvm::Twine &what,
                              StringRef name) {
  if (size < 1 || !llvm::isPowerOf2_64(uint64_t(size)))
    return layoutError(what + " '" + name + "' has size " +
                       llvm::Twine(size) + ", which is not a power of two");
  int32_t log2 = int32_t(llvm::Log2_64(uint64_t(size)));
  if (log2 > LinearLayout::kMaxDimLog2)
    return layoutError(what + " '" + name + "' has size " +
                       llvm::Twine(size) + ", larger than 2^" +
                       llvm::Twine(LinearLayout::kMaxDimLog2));
  return log2;
}

/// Gaussian elimination over GF(2) that remembers, for every reduced vector,
/// which input bits XOR to it. Columns are added in input-bit order, so a
/// solution only ever uses the earliest input bits that span the image:
/// that is the pseudo-inversion preference.
class Echelon {
public:
  /// Adds the image `column` of the inputs `inputs` (a mask of input bits).
  /// Returns false if the column is a XOR of columns added before.
  bool add(uint64_t column, uint64_t inputs) {
    auto [rest, used] = reduce(column);
    if (rest == 0)
      return false;
    // The leading bit of `rest` is not yet a pivot: reduce() cleared those.
    pivots[63 - llvm::countl_zero(rest)] = {rest, used ^ inputs};
    ++rank;
    return true;
  }

  /// Reduces `vector` by the pivots from the top bit down. Returns what is
  /// left (0 iff the vector lies in the span) and the inputs producing the
  /// part that was removed. Linear in `vector`.
  std::pair<uint64_t, uint64_t> reduce(uint64_t vector) const {
    uint64_t inputs = 0;
    for (int bit = 63; bit >= 0; --bit) {
      if (!((vector >> bit) & 1) || pivots[bit].vector == 0)
        continue;
      vector ^= pivots[bit].vector;
      inputs ^= pivots[bit].inputs;
    }
    return {vector, inputs};
  }

  int32_t getRank() const { return rank; }

private:
  struct Pivot {
    uint64_t vector = 0; // Its highest set bit is its index in `pivots`.
    uint64_t inputs = 0;
  };
  std::array<Pivot, 64> pivots;
  int32_t rank = 0;
};

/// Checks that `order` names each of `names` exactly once; returns, for each
/// entry of `order`, its index in `names`.
Expected<SmallVector<size_t>> permutation(ArrayRef<std::string> names,
                                          ArrayRef<std::string> order,
                                          StringRef what) {
  auto listNames = [&] {
    std::string text;
    for (const std::string &name : names)
      text += (text.empty() ? "'" : ", '") + name + "'";
    return text;
  };
  if (order.size() != names.size())
    return layoutError("transpose of the " + what + " dimensions needs " +
                       llvm::Twine(names.size()) + " names (" + listNames() +
                       "), got " + llvm::Twine(order.size()));
  SmallVector<size_t> indices;
  llvm::StringSet<> seen;
  for (const std::string &name : order) {
    auto it = llvm::find(names, name);
    if (it == names.end())
      return layoutError("transpose names unknown " + what + " dimension '" +
                         name + "' (have " + listNames() + ")");
    if (!seen.insert(name).second)
      return layoutError("transpose names " + what + " dimension '" + name +
                         "' twice");
    indices.push_back(size_t(it - names.begin()));
  }
  return indices;
}

/// Validates reshape targets: unique non-empty names, power-of-two sizes
/// whose log2 sum is `totalLog2`. Returns the log2 sizes.
Expected<SmallVector<int32_t>>
reshapeTargets(ArrayRef<LinearLayout::DimSize> dims, int32_t totalLog2,
               StringRef what) {
  SmallVector<int32_t> log2s;
  llvm::StringSet<> seen;
  int64_t sum = 0;
  for (const auto &[name, size] : dims) {
    if (name.empty())
      return layoutError("reshape of the " + what +
                         " dimensions got an empty name");
    if (!seen.insert(name).second)
      return layoutError("reshape of the " + what + " dimensions names '" +
                         name + "' twice");
    Expected<int32_t> log2 = sizeToLog2(size, what + " dimension", name);
    if (!log2)
      return log2.takeError();
    log2s.push_back(*log2);
    sum += *log2;
  }
  if (sum != totalLog2)
    return layoutError("reshape of the " + what + " dimensions to total size " +
                       "2^" + llvm::Twine(sum) + " does not keep the total " +
                       "size 2^" + llvm::Twine(totalLog2));
  return log2s;
}

} // namespace

//===----------------------------------------------------------------------===//
// Construction
//===----------------------------------------------------------------------===//

Expected<LinearLayout> LinearLayout::create(std::vector<DimBases> inDims,
                                            std::vector<OutDim> outDims) {
  llvm::StringSet<> seen;
  int64_t totalOut = 0;
  for (const OutDim &dim : outDims) {
    if (dim.name.empty())
      return layoutError("an output dimension has an empty name");
    if (!seen.insert(dim.name).second)
      return layoutError("output dimension '" + dim.name + "' appears twice");
    if (dim.sizeLog2 < 0 || dim.sizeLog2 > kMaxDimLog2)
      return layoutError("output dimension '" + dim.name + "' has size 2^" +
                         llvm::Twine(dim.sizeLog2) + ", outside [1, 2^" +
                         llvm::Twine(kMaxDimLog2) + "]");
    totalOut += dim.sizeLog2;
  }
  if (totalOut > kMaxTotalLog2)
    return layoutError("the output dimensions total 2^" +
                       llvm::Twine(totalOut) + " elements, more than 2^" +
                       llvm::Twine(kMaxTotalLog2));

  seen.clear();
  int64_t totalIn = 0;
  for (const auto &[name, bases] : inDims) {
    if (name.empty())
      return layoutError("an input dimension has an empty name");
    if (!seen.insert(name).second)
      return layoutError("input dimension '" + name + "' appears twice");
    if (bases.size() > size_t(kMaxDimLog2))
      return layoutError("input dimension '" + name + "' has " +
                         llvm::Twine(bases.size()) + " bases, more than " +
                         llvm::Twine(kMaxDimLog2));
    totalIn += int64_t(bases.size());
    for (auto [bit, basis] : llvm::enumerate(bases)) {
      if (basis.size() != outDims.size())
        return layoutError("basis " + llvm::Twine(bit) +
                           " of input dimension '" + name + "' has " +
                           llvm::Twine(basis.size()) +
                           " coordinates, expected one per output dimension (" +
                           llvm::Twine(outDims.size()) + ")");
      for (auto [coordinate, outDim] : llvm::zip_equal(basis, outDims)) {
        if (coordinate < 0 || int64_t(coordinate) >= (int64_t(1)
                                                       << outDim.sizeLog2))
          return layoutError(
              "basis " + llvm::Twine(bit) + " of input dimension '" + name +
              "' has coordinate " + llvm::Twine(coordinate) +
              " in output dimension '" + outDim.name + "', outside [0, " +
              llvm::Twine(int64_t(1) << outDim.sizeLog2) + ")");
      }
    }
  }
  if (totalIn > kMaxTotalLog2)
    return layoutError("the input dimensions total 2^" + llvm::Twine(totalIn) +
                       " elements, more than 2^" +
                       llvm::Twine(kMaxTotalLog2));
  return LinearLayout(std::move(inDims), std::move(outDims));
}

Expected<LinearLayout> LinearLayout::get(ArrayRef<DimBases> bases,
                                         ArrayRef<DimSize> outDims) {
  std::vector<OutDim> dims;
  for (const auto &[name, size] : outDims) {
    Expected<int32_t> log2 = sizeToLog2(size, "output dimension", name);
    if (!log2)
      return log2.takeError();
    dims.push_back({name, *log2});
  }
  return create(std::vector<DimBases>(bases.begin(), bases.end()),
                std::move(dims));
}

Expected<LinearLayout> LinearLayout::get(ArrayRef<DimBases> bases,
                                         ArrayRef<std::string> outDimNames) {
  // Every value the bases can produce lies below the OR of their coordinates
  // rounded up to a power of two.
  std::vector<uint32_t> reach(outDimNames.size(), 0);
  for (const auto &[name, dimBases] : bases) {
    for (auto [bit, basis] : llvm::enumerate(dimBases)) {
      if (basis.size() != outDimNames.size())
        return layoutError("basis " + llvm::Twine(bit) +
                           " of input dimension '" + name + "' has " +
                           llvm::Twine(basis.size()) +
                           " coordinates, expected one per output dimension (" +
                           llvm::Twine(outDimNames.size()) + ")");
      for (auto [coordinate, seen] : llvm::zip_equal(basis, reach)) {
        if (coordinate < 0)
          return layoutError("basis " + llvm::Twine(bit) +
                             " of input dimension '" + name +
                             "' has the negative coordinate " +
                             llvm::Twine(coordinate));
        seen |= uint32_t(coordinate);
      }
    }
  }
  std::vector<OutDim> dims;
  for (auto [name, seen] : llvm::zip_equal(outDimNames, reach))
    dims.push_back({name, int32_t(32 - llvm::countl_zero(seen))});
  return create(std::vector<DimBases>(bases.begin(), bases.end()),
                std::move(dims));
}

Expected<LinearLayout> LinearLayout::identity1D(int32_t size, StringRef inDim,
                                                StringRef outDim) {
  Expected<int32_t> log2 = sizeToLog2(size, "input dimension", inDim);
  if (!log2)
    return log2.takeError();
  std::vector<Basis> bases;
  for (int32_t bit = 0; bit < *log2; ++bit)
    bases.push_back({int32_t(1) << bit});
  return create({{inDim.str(), std::move(bases)}}, {{outDim.str(), *log2}});
}

Expected<LinearLayout> LinearLayout::zeros1D(int32_t size, StringRef inDim,
                                             StringRef outDim,
                                             int32_t outDimSize) {
  Expected<int32_t> log2 = sizeToLog2(size, "input dimension", inDim);
  if (!log2)
    return log2.takeError();
  Expected<int32_t> outLog2 =
      sizeToLog2(outDimSize, "output dimension", outDim);
  if (!outLog2)
    return outLog2.takeError();
  return create({{inDim.str(), std::vector<Basis>(*log2, Basis{0})}},
                {{outDim.str(), *outLog2}});
}

Expected<LinearLayout> LinearLayout::strided1D(int32_t size, int32_t stride,
                                               StringRef inDim,
                                               StringRef outDim) {
  Expected<int32_t> log2 = sizeToLog2(size, "input dimension", inDim);
  if (!log2)
    return log2.takeError();
  if (stride < 1 || !llvm::isPowerOf2_32(uint32_t(stride)))
    return layoutError("stride " + llvm::Twine(stride) + " from '" + inDim +
                       "' to '" + outDim +
                       "' is not a power of two (so not GF(2)-linear)");
  int32_t strideLog2 = int32_t(llvm::Log2_32(uint32_t(stride)));
  if (*log2 + strideLog2 > kMaxDimLog2)
    return layoutError("strided layout from '" + inDim + "' to '" + outDim +
                       "' needs an output of size 2^" +
                       llvm::Twine(*log2 + strideLog2) + ", more than 2^" +
                       llvm::Twine(kMaxDimLog2));
  std::vector<Basis> bases;
  for (int32_t bit = 0; bit < *log2; ++bit)
    bases.push_back({int32_t(1) << (bit + strideLog2)});
  return create({{inDim.str(), std::move(bases)}},
                {{outDim.str(), *log2 + strideLog2}});
}

//===----------------------------------------------------------------------===//
// Shape queries
//===----------------------------------------------------------------------===//

int LinearLayout::findIn(StringRef name) const {
  for (auto [index, dim] : llvm::enumerate(inDims))
    if (dim.first == name)
      return int(index);
  return -1;
}

int LinearLayout::findOut(StringRef name) const {
  for (auto [index, dim] : llvm::enumerate(outDims))
    if (dim.name == name)
      return int(index);
  return -1;
}

SmallVector<LinearLayout::DimSize> LinearLayout::getOutDims() const {
  SmallVector<DimSize> dims;
  for (const OutDim &dim : outDims)
    dims.push_back({dim.name, int32_t(1) << dim.sizeLog2});
  return dims;
}

SmallVector<LinearLayout::DimSize> LinearLayout::getInDims() const {
  SmallVector<DimSize> dims;
  for (const auto &[name, bases] : inDims)
    dims.push_back({name, int32_t(1) << bases.size()});
  return dims;
}

SmallVector<std::string> LinearLayout::getInDimNames() const {
  SmallVector<std::string> names;
  for (const auto &dim : inDims)
    names.push_back(dim.first);
  return names;
}

SmallVector<std::string> LinearLayout::getOutDimNames() const {
  SmallVector<std::string> names;
  for (const OutDim &dim : outDims)
    names.push_back(dim.name);
  return names;
}

int32_t LinearLayout::getInDimSizeLog2(StringRef name) const {
  int index = findIn(name);
  return index < 0 ? 0 : int32_t(inDims[index].second.size());
}

int32_t LinearLayout::getOutDimSizeLog2(StringRef name) const {
  int index = findOut(name);
  return index < 0 ? 0 : outDims[index].sizeLog2;
}

int32_t LinearLayout::getTotalInDimSizeLog2() const {
  int32_t total = 0;
  for (const auto &dim : inDims)
    total += int32_t(dim.second.size());
  return total;
}

int32_t LinearLayout::getTotalOutDimSizeLog2() const {
  int32_t total = 0;
  for (const OutDim &dim : outDims)
    total += dim.sizeLog2;
  return total;
}

//===----------------------------------------------------------------------===//
// Packed vectors
//===----------------------------------------------------------------------===//

std::vector<int32_t> LinearLayout::outBitOffsets() const {
  std::vector<int32_t> offsets;
  int32_t offset = 0;
  for (const OutDim &dim : outDims) {
    offsets.push_back(offset);
    offset += dim.sizeLog2;
  }
  return offsets;
}

std::vector<uint64_t> LinearLayout::packedColumns() const {
  std::vector<int32_t> offsets = outBitOffsets();
  std::vector<uint64_t> columns;
  for (const auto &dim : inDims) {
    for (const Basis &basis : dim.second) {
      uint64_t packed = 0;
      for (auto [coordinate, offset] : llvm::zip_equal(basis, offsets))
        packed |= uint64_t(uint32_t(coordinate)) << offset;
      columns.push_back(packed);
    }
  }
  return columns;
}

LinearLayout::Basis LinearLayout::unpackOutputs(uint64_t packed) const {
  Basis coordinates;
  for (const OutDim &dim : outDims) {
    coordinates.push_back(int32_t(packed & ((uint64_t(1) << dim.sizeLog2) - 1)));
    packed >>= dim.sizeLog2;
  }
  return coordinates;
}

//===----------------------------------------------------------------------===//
// Evaluation and properties
//===----------------------------------------------------------------------===//

Expected<SmallVector<LinearLayout::DimValue>>
LinearLayout::apply(ArrayRef<DimValue> inputs) const {
  std::vector<int32_t> values(inDims.size(), 0);
  std::vector<bool> given(inDims.size(), false);
  for (const auto &[name, value] : inputs) {
    int index = findIn(name);
    if (index < 0)
      return layoutError("apply got unknown input dimension '" + name + "'");
    if (given[index])
      return layoutError("apply got input dimension '" + name + "' twice");
    int64_t size = int64_t(1) << inDims[index].second.size();
    if (value < 0 || value >= size)
      return layoutError("apply got " + name + "=" + llvm::Twine(value) +
                         ", outside [0, " + llvm::Twine(size) + ")");
    given[index] = true;
    values[index] = value;
  }
  for (auto [index, dim] : llvm::enumerate(inDims))
    if (!given[index])
      return layoutError("apply is missing input dimension '" + dim.first +
                         "'");

  Basis result(outDims.size(), 0);
  for (auto [dim, value] : llvm::zip_equal(inDims, values))
    for (auto [bit, basis] : llvm::enumerate(dim.second))
      if ((value >> bit) & 1)
        for (auto [out, coordinate] : llvm::zip_equal(result, basis))
          out ^= coordinate;

  SmallVector<DimValue> outputs;
  for (auto [dim, value] : llvm::zip_equal(outDims, result))
    outputs.push_back({dim.name, value});
  return outputs;
}

int32_t LinearLayout::getRank() const {
  Echelon echelon;
  for (uint64_t column : packedColumns())
    echelon.add(column, 0);
  return echelon.getRank();
}

SmallVector<LinearLayout::DimValue> LinearLayout::getFreeVariableMasks() const {
  std::vector<uint64_t> columns = packedColumns();
  Echelon echelon;
  SmallVector<DimValue> masks;
  size_t column = 0;
  for (const auto &[name, bases] : inDims) {
    int32_t mask = 0;
    for (size_t bit = 0; bit < bases.size(); ++bit, ++column)
      if (!echelon.add(columns[column], 0))
        mask |= int32_t(1) << bit;
    masks.push_back({name, mask});
  }
  return masks;
}

int32_t LinearLayout::getNumConsecutiveInOut() const {
  if (inDims.empty() || outDims.empty())
    return 1;
  // The leading bases of the first input that are unit steps 1, 2, 4, ... of
  // the first output and nothing else.
  const std::vector<Basis> &first = inDims.front().second;
  size_t run = 0;
  for (; run < first.size(); ++run) {
    const Basis &basis = first[run];
    if (basis[0] != (int32_t(1) << run) ||
        llvm::any_of(llvm::drop_begin(basis), [](int32_t c) { return c; }))
      break;
  }
  // Plain addition needs every other basis to leave those low bits clear;
  // one that sets bit b caps the run at b.
  auto cap = [&](const Basis &basis) {
    uint32_t low = uint32_t(basis[0]) & ((uint32_t(1) << run) - 1);
    if (low)
      run = std::min<size_t>(run, size_t(llvm::countr_zero(low)));
  };
  for (size_t bit = run; bit < first.size(); ++bit)
    cap(first[bit]);
  for (const auto &dim : llvm::drop_begin(inDims))
    for (const Basis &basis : dim.second)
      cap(basis);
  return int32_t(1) << run;
}

//===----------------------------------------------------------------------===//
// Algebra
//===----------------------------------------------------------------------===//

Expected<LinearLayout> LinearLayout::compose(const LinearLayout &outer) const {
  if (outDims.size() != outer.inDims.size())
    return layoutError("compose needs the inner layout's " +
                       llvm::Twine(outDims.size()) +
                       " output dimensions to be the outer layout's " +
                       llvm::Twine(outer.inDims.size()) + " input dimensions");
  std::vector<int32_t> outerIndex;
  for (const OutDim &dim : outDims) {
    int index = outer.findIn(dim.name);
    if (index < 0)
      return layoutError("compose: output dimension '" + dim.name +
                         "' is not an input dimension of the outer layout");
    if (size_t(dim.sizeLog2) > outer.inDims[index].second.size())
      return layoutError("compose: output dimension '" + dim.name +
                         "' has size 2^" + llvm::Twine(dim.sizeLog2) +
                         " but the outer layout's input takes only 2^" +
                         llvm::Twine(outer.inDims[index].second.size()));
    outerIndex.push_back(index);
  }

  // The image of outer's input bit `bit` of input dimension `dim`.
  std::vector<uint64_t> outerColumns = outer.packedColumns();
  std::vector<size_t> outerStart;
  size_t start = 0;
  for (const auto &dim : outer.inDims) {
    outerStart.push_back(start);
    start += dim.second.size();
  }

  std::vector<DimBases> result;
  for (const auto &[name, bases] : inDims) {
    std::vector<Basis> composed;
    for (const Basis &basis : bases) {
      uint64_t packed = 0;
      for (auto [coordinate, index] : llvm::zip_equal(basis, outerIndex))
        for (uint32_t bits = uint32_t(coordinate); bits; bits &= bits - 1)
          packed ^= outerColumns[outerStart[index] + llvm::countr_zero(bits)];
      composed.push_back(outer.unpackOutputs(packed));
    }
    result.push_back({name, std::move(composed)});
  }
  return create(std::move(result), outer.outDims);
}

Expected<LinearLayout> LinearLayout::pseudoinvert() const {
  if (!isSurjective())
    return layoutError("pseudoinvert needs a surjective layout, but the "
                       "image has size 2^" +
                       llvm::Twine(getRank()) + " of 2^" +
                       llvm::Twine(getTotalOutDimSizeLog2()) + ":\n" +
                       toString());
  // The identity on our outputs, pulled back through us.
  std::vector<DimBases> identityIns;
  for (auto [index, dim] : llvm::enumerate(outDims)) {
    std::vector<Basis> bases;
    for (int32_t bit = 0; bit < dim.sizeLog2; ++bit) {
      Basis basis(outDims.size(), 0);
      basis[index] = int32_t(1) << bit;
      bases.push_back(std::move(basis));
    }
    identityIns.push_back({dim.name, std::move(bases)});
  }
  return invertAndCompose(*this, LinearLayout(std::move(identityIns), outDims));
}

Expected<LinearLayout> LinearLayout::invert() const {
  if (!isInvertible())
    return layoutError(
        "invert needs a bijective layout, but this one has " +
        llvm::Twine(getTotalInDimSizeLog2()) + " input bits, " +
        llvm::Twine(getTotalOutDimSizeLog2()) + " output bits and rank " +
        llvm::Twine(getRank()) + ":\n" + toString());
  return pseudoinvert();
}

Expected<LinearLayout>
LinearLayout::sublayout(ArrayRef<std::string> inDimNames,
                        ArrayRef<std::string> outDimNames) const {
  for (const std::string &name : inDimNames)
    if (!hasInDim(name))
      return layoutError("sublayout names unknown input dimension '" + name +
                         "'");
  for (const std::string &name : outDimNames)
    if (!hasOutDim(name))
      return layoutError("sublayout names unknown output dimension '" + name +
                         "'");
  std::vector<OutDim> keptOuts;
  std::vector<size_t> keptIndices;
  for (auto [index, dim] : llvm::enumerate(outDims)) {
    if (llvm::is_contained(outDimNames, dim.name)) {
      keptOuts.push_back(dim);
      keptIndices.push_back(index);
    }
  }
  std::vector<DimBases> keptIns;
  for (const auto &[name, bases] : inDims) {
    if (!llvm::is_contained(inDimNames, name))
      continue;
    std::vector<Basis> kept;
    for (const Basis &basis : bases) {
      Basis restricted;
      for (size_t index : keptIndices)
        restricted.push_back(basis[index]);
      kept.push_back(std::move(restricted));
    }
    keptIns.push_back({name, std::move(kept)});
  }
  return LinearLayout(std::move(keptIns), std::move(keptOuts));
}

Expected<bool>
LinearLayout::sublayoutIsZero(ArrayRef<std::string> inDimNames,
                              ArrayRef<std::string> outDimNames) const {
  Expected<LinearLayout> sub = sublayout(inDimNames, outDimNames);
  if (!sub)
    return sub.takeError();
  return llvm::all_of(sub->packedColumns(),
                      [](uint64_t column) { return column == 0; });
}

Expected<LinearLayout>
LinearLayout::transposeIns(ArrayRef<std::string> order) const {
  Expected<SmallVector<size_t>> indices =
      permutation(getInDimNames(), order, "input");
  if (!indices)
    return indices.takeError();
  std::vector<DimBases> reordered;
  for (size_t index : *indices)
    reordered.push_back(inDims[index]);
  return LinearLayout(std::move(reordered), outDims);
}

Expected<LinearLayout>
LinearLayout::transposeOuts(ArrayRef<std::string> order) const {
  Expected<SmallVector<size_t>> indices =
      permutation(getOutDimNames(), order, "output");
  if (!indices)
    return indices.takeError();
  std::vector<OutDim> reorderedOuts;
  for (size_t index : *indices)
    reorderedOuts.push_back(outDims[index]);
  std::vector<DimBases> reorderedIns;
  for (const auto &[name, bases] : inDims) {
    std::vector<Basis> permuted;
    for (const Basis &basis : bases) {
      Basis coordinates;
      for (size_t index : *indices)
        coordinates.push_back(basis[index]);
      permuted.push_back(std::move(coordinates));
    }
    reorderedIns.push_back({name, std::move(permuted)});
  }
  return LinearLayout(std::move(reorderedIns), std::move(reorderedOuts));
}

Expected<LinearLayout>
LinearLayout::reshapeIns(ArrayRef<DimSize> newInDims) const {
  Expected<SmallVector<int32_t>> log2s =
      reshapeTargets(newInDims, getTotalInDimSizeLog2(), "input");
  if (!log2s)
    return log2s.takeError();
  // Row-major: the flat index's low bits are the last dimension's.
  std::vector<Basis> flat;
  for (const auto &dim : llvm::reverse(inDims))
    llvm::append_range(flat, dim.second);
  std::vector<DimBases> reshaped(newInDims.size());
  size_t next = 0;
  for (size_t index = newInDims.size(); index-- > 0;) {
    reshaped[index].first = newInDims[index].first;
    for (int32_t bit = 0; bit < (*log2s)[index]; ++bit)
      reshaped[index].second.push_back(flat[next++]);
  }
  return LinearLayout(std::move(reshaped), outDims);
}

Expected<LinearLayout>
LinearLayout::reshapeOuts(ArrayRef<DimSize> newOutDims) const {
  Expected<SmallVector<int32_t>> log2s =
      reshapeTargets(newOutDims, getTotalOutDimSizeLog2(), "output");
  if (!log2s)
    return log2s.takeError();
  std::vector<OutDim> reshapedOuts;
  for (auto [dim, log2] : llvm::zip_equal(newOutDims, *log2s))
    reshapedOuts.push_back({dim.first, log2});

  std::vector<DimBases> reshapedIns;
  for (const auto &[name, bases] : inDims) {
    std::vector<Basis> converted;
    for (const Basis &basis : bases) {
      // Row-major flat coordinate: the last dimension is the most minor.
      uint64_t flat = 0;
      for (auto [coordinate, dim] : llvm::zip_equal(basis, outDims))
        flat = (flat << dim.sizeLog2) | uint64_t(uint32_t(coordinate));
      Basis split(reshapedOuts.size(), 0);
      for (size_t index = reshapedOuts.size(); index-- > 0;) {
        int32_t log2 = reshapedOuts[index].sizeLog2;
        split[index] = int32_t(flat & ((uint64_t(1) << log2) - 1));
        flat >>= log2;
      }
      converted.push_back(std::move(split));
    }
    reshapedIns.push_back({name, std::move(converted)});
  }
  return LinearLayout(std::move(reshapedIns), std::move(reshapedOuts));
}

bool LinearLayout::operator==(const LinearLayout &other) const {
  if (inDims != other.inDims || outDims.size() != other.outDims.size())
    return false;
  for (auto [mine, theirs] : llvm::zip_equal(outDims, other.outDims))
    if (mine.name != theirs.name || mine.sizeLog2 != theirs.sizeLog2)
      return false;
  return true;
}

void LinearLayout::print(llvm::raw_ostream &os) const {
  auto signature = [&os](ArrayRef<DimSize> dims) {
    os << '(';
    llvm::interleaveComma(dims, os, [&os](const DimSize &dim) {
      os << dim.first << ':' << dim.second;
    });
    os << ')';
  };
  signature(getInDims());
  os << " -> ";
  signature(getOutDims());
  for (const auto &[name, bases] : inDims) {
    os << "\n  " << name << ": [";
    llvm::interleaveComma(bases, os, [&os](const Basis &basis) {
      os << '(';
      llvm::interleaveComma(basis, os);
      os << ')';
    });
    os << ']';
  }
}

std::string LinearLayout::toString() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  print(os);
  return text;
}

//===----------------------------------------------------------------------===//
// Product and conversion
//===----------------------------------------------------------------------===//

Expected<LinearLayout> mlir::triton_musa::operator*(const LinearLayout &lhs,
                                              const LinearLayout &rhs) {
  using OutDim = LinearLayout::OutDim;
  using Basis = LinearLayout::Basis;

  // Output dimensions: lhs's, then rhs's others; shared ones grow.
  std::vector<OutDim> outDims = lhs.outDims;
  std::vector<int> lhsOut, rhsOut; // Result index of each operand's outputs.
  for (size_t index = 0; index < lhs.outDims.size(); ++index)
    lhsOut.push_back(int(index));
  for (const OutDim &dim : rhs.outDims) {
    int index = lhs.findOut(dim.name);
    if (index < 0) {
      index = int(outDims.size());
      outDims.push_back({dim.name, 0});
    }
    outDims[index].sizeLog2 += dim.sizeLog2;
    rhsOut.push_back(index);
  }
  for (const OutDim &dim : outDims)
    if (dim.sizeLog2 > LinearLayout::kMaxDimLog2)
      return layoutError("product: output dimension '" + dim.name +
                         "' would have size 2^" + llvm::Twine(dim.sizeLog2) +
                         ", more than 2^" +
                         llvm::Twine(LinearLayout::kMaxDimLog2));

  // Re-expresses an operand's basis in the result's output dimensions; rhs's
  // coordinates in a shared dimension move above lhs's.
  auto widen = [&](const Basis &basis, ArrayRef<int> where, bool isRhs) {
    Basis result(outDims.size(), 0);
    for (auto [coordinate, index] : llvm::zip_equal(basis, where)) {
      int32_t shift = isRhs ? lhs.getOutDimSizeLog2(outDims[index].name) : 0;
      result[index] = coordinate << shift;
    }
    return result;
  };

  std::vector<LinearLayout::DimBases> inDims;
  auto inIndex = [&](const std::string &name) {
    for (auto [index, dim] : llvm::enumerate(inDims))
      if (dim.first == name)
        return index;
    inDims.push_back({name, {}});
    return inDims.size() - 1;
  };
  for (const auto &[name, bases] : lhs.inDims) {
    size_t index = inIndex(name);
    for (const Basis &basis : bases)
      inDims[index].second.push_back(widen(basis, lhsOut, false));
  }
  for (const auto &[name, bases] : rhs.inDims) {
    size_t index = inIndex(name);
    for (const Basis &basis : bases)
      inDims[index].second.push_back(widen(basis, rhsOut, true));
  }
  return LinearLayout::create(std::move(inDims), std::move(outDims));
}

Expected<LinearLayout> mlir::triton_musa::invertAndCompose(const LinearLayout &a,
                                                     const LinearLayout &b) {
  using Basis = LinearLayout::Basis;
  if (a.outDims.size() != b.outDims.size())
    return layoutError("invertAndCompose needs both layouts to have the same "
                       "output dimensions, got " +
                       llvm::Twine(a.outDims.size()) + " and " +
                       llvm::Twine(b.outDims.size()));
  std::vector<int32_t> offsets = a.outBitOffsets();
  std::vector<int> aIndex; // a's index of each of b's output dimensions.
  for (const auto &dim : b.outDims) {
    int index = a.findOut(dim.name);
    if (index < 0)
      return layoutError("invertAndCompose: output dimension '" + dim.name +
                         "' of the converted layout is not an output of the "
                         "target layout");
    aIndex.push_back(index);
  }

  Echelon echelon;
  std::vector<uint64_t> columns = a.packedColumns();
  for (auto [bit, column] : llvm::enumerate(columns))
    echelon.add(column, uint64_t(1) << bit);

  std::vector<LinearLayout::DimBases> inDims;
  for (const auto &[name, bases] : b.inDims) {
    std::vector<Basis> converted;
    for (auto [bit, basis] : llvm::enumerate(bases)) {
      uint64_t packed = 0;
      bool fits = true;
      for (auto [coordinate, index] : llvm::zip_equal(basis, aIndex)) {
        fits &= coordinate < a.getOutDimSize(a.outDims[index].name);
        packed |= uint64_t(uint32_t(coordinate)) << offsets[index];
      }
      auto [rest, inputs] = echelon.reduce(packed);
      if (!fits || rest != 0) {
        std::string text;
        llvm::raw_string_ostream os(text);
        os << "invertAndCompose: " << name << "=" << (int64_t(1) << bit)
           << " maps to (";
        llvm::interleaveComma(basis, os);
        os << "), which the target layout never produces; target:\n"
           << a << "\nconverted:\n"
           << b;
        return layoutError(text);
      }
      // Unpack the chosen input bits into a's input dimensions.
      Basis coordinates;
      for (const auto &dim : a.inDims) {
        size_t width = dim.second.size();
        coordinates.push_back(int32_t(inputs & ((uint64_t(1) << width) - 1)));
        inputs >>= width;
      }
      converted.push_back(std::move(coordinates));
    }
    inDims.push_back({name, std::move(converted)});
  }
  std::vector<LinearLayout::OutDim> outDims;
  for (const auto &[name, bases] : a.inDims)
    outDims.push_back({name, int32_t(bases.size())});
  return LinearLayout::create(std::move(inDims), std::move(outDims));
}
