//===- LinearLayout.h - Linear layouts over GF(2) ---------------*- C++ -*-===//
//
// A linear layout maps named input dimensions (hardware indices such as
// "register", "lane", "warp", "block", or a shared-memory "offset") to named
// output dimensions (tensor coordinates "dim0", "dim1", ...). Every dimension
// has a power-of-two size, and the map is linear over GF(2): with x split into
// bits, L(x) is the XOR of the basis vectors of the set bits. This is the one
// mechanism the TTGIR -> LLVM lowering uses for index math, layout conversion
// and shared-memory swizzles ("Linear Layouts", Zhou et al., 2025,
// arXiv:2505.23819).
//
// Conventions (they matter for product, reshape and pseudo-inversion):
//
//  * An input dimension of size 2^k is described by k bases; basis i is
//    L(dim = 2^i, every other input = 0), one coordinate per output dimension,
//    in output-dimension order.
//  * Product `A * B`: B is the more-significant part. An input dimension in
//    both gets A's bases in its low bits and B's in its high bits; an output
//    dimension in both has size sizeA * sizeB and B's coordinates in it are
//    scaled by sizeA. Dimension order: A's dimensions, then B's others.
//  * Reshape (flatten/split) is row-major: the last dimension of a list is
//    the most minor, i.e. (d0, d1) with sizes (S0, S1) is index d0 * S1 + d1.
//  * Where several inputs map to the same output, pseudo-inversion prefers
//    the earlier input bits: earlier input dimensions first, then lower bits.
//
// Misuse (unknown or repeated names, sizes that are not powers of two,
// mismatched dimensions, inverting what has no inverse) is reported through
// llvm::Expected, never by assertion: user kernels reach this code.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_LAYOUTS_LINEARLAYOUT_H
#define TRITON_MUSA_LAYOUTS_LINEARLAYOUT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace mlir::triton_musa {

/// The input dimensions of a distributed (register) layout, and of a shared
/// memory layout, as every layout conversion names them.
constexpr const char *kRegister = "register";
constexpr const char *kLane = "lane";
constexpr const char *kWarp = "warp";
constexpr const char *kBlock = "block";
constexpr const char *kOffset = "offset";

class LinearLayout {
public:
  /// One output coordinate per output dimension, in output-dimension order.
  using Basis = std::vector<int32_t>;
  /// An input dimension: its name and its bases, lowest bit first.
  using DimBases = std::pair<std::string, std::vector<Basis>>;
  /// A dimension name with a size (or, in apply(), with a value).
  using DimSize = std::pair<std::string, int32_t>;
  using DimValue = std::pair<std::string, int32_t>;

  /// The largest size of one dimension is 2^kMaxDimLog2.
  static constexpr int32_t kMaxDimLog2 = 30;
  /// The largest total input (or output) size is 2^kMaxTotalLog2.
  static constexpr int32_t kMaxTotalLog2 = 62;

  /// The empty layout: no input and no output dimensions. It is the neutral
  /// element of the product.
  LinearLayout() = default;

  /// Returns the empty layout.
  static LinearLayout empty() { return LinearLayout(); }

  /// Builds a layout from `bases` (input dimensions in order) with the given
  /// output dimensions and sizes. Fails on repeated or empty names, sizes that
  /// are not powers of two, bases of the wrong length, or coordinates outside
  /// their output dimension. The layout need not be surjective.
  static llvm::Expected<LinearLayout> get(llvm::ArrayRef<DimBases> bases,
                                          llvm::ArrayRef<DimSize> outDims);

  /// Builds a layout from `bases` with the named output dimensions, each
  /// sized to the smallest power of two that holds every coordinate the
  /// bases can produce.
  static llvm::Expected<LinearLayout>
  get(llvm::ArrayRef<DimBases> bases, llvm::ArrayRef<std::string> outDimNames);

  /// L(x) = x for x in [0, size), from `inDim` to `outDim` (of size `size`).
  static llvm::Expected<LinearLayout>
  identity1D(int32_t size, llvm::StringRef inDim, llvm::StringRef outDim);

  /// L(x) = 0 for x in [0, size): every input maps to output 0 of an output
  /// dimension of size `outDimSize` (a broadcast).
  static llvm::Expected<LinearLayout> zeros1D(int32_t size,
                                              llvm::StringRef inDim,
                                              llvm::StringRef outDim,
                                              int32_t outDimSize = 1);

  /// L(x) = stride * x for x in [0, size); `stride` is a power of two (any
  /// other stride is not GF(2)-linear) and the output size is stride * size.
  static llvm::Expected<LinearLayout> strided1D(int32_t size, int32_t stride,
                                                llvm::StringRef inDim,
                                                llvm::StringRef outDim);

  //===--------------------------------------------------------------------===//
  // Shape queries. A dimension the layout lacks has size 1 (log2 0): missing
  // and size-1 dimensions behave alike in every operation below.
  //===--------------------------------------------------------------------===//

  /// The input dimensions with their bases, in order.
  llvm::ArrayRef<DimBases> getBases() const { return inDims; }
  /// The output dimensions with their sizes, in order.
  llvm::SmallVector<DimSize> getOutDims() const;
  /// The input dimensions with their sizes, in order.
  llvm::SmallVector<DimSize> getInDims() const;
  /// Input dimension names, in order.
  llvm::SmallVector<std::string> getInDimNames() const;
  /// Output dimension names, in order.
  llvm::SmallVector<std::string> getOutDimNames() const;

  size_t getNumOutDims() const { return outDims.size(); }
  bool hasInDim(llvm::StringRef name) const { return findIn(name) >= 0; }
  bool hasOutDim(llvm::StringRef name) const { return findOut(name) >= 0; }

  /// log2 of the size of input dimension `name` (0 if absent).
  int32_t getInDimSizeLog2(llvm::StringRef name) const;
  /// Size of input dimension `name` (1 if absent).
  int32_t getInDimSize(llvm::StringRef name) const {
    return int32_t(1) << getInDimSizeLog2(name);
  }
  /// log2 of the size of output dimension `name` (0 if absent).
  int32_t getOutDimSizeLog2(llvm::StringRef name) const;
  /// Size of output dimension `name` (1 if absent).
  int32_t getOutDimSize(llvm::StringRef name) const {
    return int32_t(1) << getOutDimSizeLog2(name);
  }
  /// Sum of the input dimensions' log2 sizes: the number of input bits.
  int32_t getTotalInDimSizeLog2() const;
  /// Product of the input dimension sizes.
  int64_t getTotalInDimSize() const {
    return int64_t(1) << getTotalInDimSizeLog2();
  }
  /// Sum of the output dimensions' log2 sizes: the number of output bits.
  int32_t getTotalOutDimSizeLog2() const;
  /// Product of the output dimension sizes.
  int64_t getTotalOutDimSize() const {
    return int64_t(1) << getTotalOutDimSizeLog2();
  }

  //===--------------------------------------------------------------------===//
  // Evaluation and linear-algebra properties.
  //===--------------------------------------------------------------------===//

  /// Computes L(inputs). Every input dimension must be given exactly once (in
  /// any order) with a value in [0, size). Returns one value per output
  /// dimension, in output-dimension order.
  llvm::Expected<llvm::SmallVector<DimValue>>
  apply(llvm::ArrayRef<DimValue> inputs) const;

  /// The rank of L as a matrix over GF(2): log2 of the size of its image.
  int32_t getRank() const;
  /// Every output value is produced by some input.
  bool isSurjective() const { return getRank() == getTotalOutDimSizeLog2(); }
  /// No two inputs produce the same output.
  bool isInjective() const { return getRank() == getTotalInDimSizeLog2(); }
  /// Surjective and injective: invert() succeeds.
  bool isInvertible() const { return isSurjective() && isInjective(); }

  /// For each input dimension, in order, a mask of its "free" bits: bits
  /// whose basis is a XOR of bases of earlier bits (earlier dimensions, then
  /// lower bits of the same dimension), zero bases included. Flipping a free
  /// bit can be undone by earlier bits, so only inputs with every free bit
  /// clear are needed to reach every output once: a register/lane/warp
  /// holding a duplicate of another one's value has a free bit set. All masks
  /// are 0 iff the layout is injective.
  llvm::SmallVector<DimValue> getFreeVariableMasks() const;

  /// The largest V such that, for every input x whose first-dimension value
  /// is a multiple of V and every v < V, L(x + v along the first input
  /// dimension) = L(x) + v along the first output dimension (plain addition:
  /// the low bits of that output are v itself). E.g. with (register, lane)
  /// -> (dim1, dim0), how many consecutive registers hold consecutive
  /// elements of dim1: the vector width of a load. 1 if there is no input or
  /// no output dimension.
  int32_t getNumConsecutiveInOut() const;

  //===--------------------------------------------------------------------===//
  // Algebra.
  //===--------------------------------------------------------------------===//

  /// Returns outer ∘ this, i.e. x -> outer(this(x)). This layout's output
  /// dimensions must be outer's input dimensions (same names, any order),
  /// each at most as large as outer's. The result has this layout's inputs
  /// and outer's outputs.
  llvm::Expected<LinearLayout> compose(const LinearLayout &outer) const;

  /// Returns L^-1 for a bijective L: inputs are L's output dimensions and
  /// outputs L's input dimensions, in their orders. Fails if L is not
  /// invertible.
  llvm::Expected<LinearLayout> invert() const;

  /// Returns a right inverse P of a surjective L: L(P(y)) = y for every y.
  /// Among the inputs producing y, P picks the one built from the earliest
  /// input bits (see the pseudo-inversion convention above). Fails if L is
  /// not surjective.
  llvm::Expected<LinearLayout> pseudoinvert() const;

  /// Returns a layout with only the input dimensions `inDimNames` (the others
  /// fixed at 0) and the output dimensions `outDimNames` (the others
  /// dropped). Sizes and the layout's own dimension order are kept. Fails on
  /// names the layout lacks.
  llvm::Expected<LinearLayout>
  sublayout(llvm::ArrayRef<std::string> inDimNames,
            llvm::ArrayRef<std::string> outDimNames) const;

  /// Whether sublayout(inDimNames, outDimNames) maps everything to 0: those
  /// inputs do not move those outputs.
  llvm::Expected<bool>
  sublayoutIsZero(llvm::ArrayRef<std::string> inDimNames,
                  llvm::ArrayRef<std::string> outDimNames) const;

  /// Reorders the input dimensions; `order` is a permutation of their
  /// names. The map itself is unchanged; the order matters for reshape and
  /// for the pseudo-inversion preference.
  llvm::Expected<LinearLayout>
  transposeIns(llvm::ArrayRef<std::string> order) const;
  /// Reorders the output dimensions; `order` is a permutation of their names.
  llvm::Expected<LinearLayout>
  transposeOuts(llvm::ArrayRef<std::string> order) const;

  /// Replaces the input dimensions by `newInDims` (names and power-of-two
  /// sizes of the same total size). Old and new inputs are related through
  /// the row-major flat index (last dimension most minor).
  llvm::Expected<LinearLayout>
  reshapeIns(llvm::ArrayRef<DimSize> newInDims) const;
  /// Replaces the output dimensions by `newOutDims` (names and power-of-two
  /// sizes of the same total size), row-major as in reshapeIns.
  llvm::Expected<LinearLayout>
  reshapeOuts(llvm::ArrayRef<DimSize> newOutDims) const;

  /// Structural equality: same dimensions in the same order, same sizes and
  /// same bases.
  bool operator==(const LinearLayout &other) const;
  bool operator!=(const LinearLayout &other) const { return !(*this == other); }

  /// Prints a readable dump: the signature, then each input dimension's
  /// bases, e.g.
  ///   (register:2, lane:4) -> (dim0:4, dim1:2)
  ///     register: [(0, 1)]
  ///     lane: [(1, 0), (2, 0)]
  void print(llvm::raw_ostream &os) const;
  /// print() to a string.
  std::string toString() const;

private:
  struct OutDim {
    std::string name;
    int32_t sizeLog2;
  };

  LinearLayout(std::vector<DimBases> inDims, std::vector<OutDim> outDims)
      : inDims(std::move(inDims)), outDims(std::move(outDims)) {}

  /// Checks every invariant; the factories and operations build through it.
  static llvm::Expected<LinearLayout> create(std::vector<DimBases> inDims,
                                             std::vector<OutDim> outDims);

  int findIn(llvm::StringRef name) const;
  int findOut(llvm::StringRef name) const;

  /// Each input bit's image with all output coordinates packed into one
  /// integer: output dimension k occupies bits [offset_k, offset_k + log2),
  /// offsets accumulating in output-dimension order.
  std::vector<uint64_t> packedColumns() const;
  std::vector<int32_t> outBitOffsets() const;
  Basis unpackOutputs(uint64_t packed) const;

  friend llvm::Expected<LinearLayout> operator*(const LinearLayout &lhs,
                                                const LinearLayout &rhs);
  friend llvm::Expected<LinearLayout> invertAndCompose(const LinearLayout &a,
                                                       const LinearLayout &b);

  std::vector<DimBases> inDims;
  std::vector<OutDim> outDims;
};

/// The product `lhs * rhs` (see the product convention at the top of this
/// file): independent dimensions are juxtaposed, shared ones are stacked
/// with rhs as the more-significant part. E.g. identity1D(4, "i", "o") *
/// identity1D(2, "i", "o") == identity1D(8, "i", "o"), and
/// identity1D(4, "i", "o") * zeros1D(2, "i", "o") maps x to x % 4. empty()
/// is neutral on both sides; the product is associative, not commutative.
/// Fails only when a dimension outgrows the size limits.
llvm::Expected<LinearLayout> operator*(const LinearLayout &lhs,
                                       const LinearLayout &rhs);

/// Layout conversion: returns C with a(C(x)) == b(x) for every input x of b.
/// C's inputs are b's input dimensions and its outputs a's input dimensions.
/// E.g. with b: (register, lane, warp) -> tensor and a: offset -> tensor,
/// C gives the shared-memory offset each thread stores its registers to.
/// a and b need the same output dimension names (any order); every value b
/// produces must be produced by a as well. Where a is not injective, C picks
/// a's earliest input bits (the pseudo-inversion convention).
llvm::Expected<LinearLayout> invertAndCompose(const LinearLayout &a,
                                              const LinearLayout &b);

inline llvm::raw_ostream &operator<<(llvm::raw_ostream &os,
                                     const LinearLayout &layout) {
  layout.print(os);
  return os;
}

} // namespace mlir::triton_musa

#endif // TRITON_MUSA_LAYOUTS_LINEARLAYOUT_H
