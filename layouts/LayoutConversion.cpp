//===- LayoutConversion.cpp - Layout attributes to linear layouts ---------===//
//
// Each layout is first built as a `Tile`: per input dimension a list of
// bases in tensor-dimension order, with the extent the bases cover per
// dimension. Tiles are then fitted to the tensor shape (repeat or wrap) and
// turned into a LinearLayout, which checks every invariant once more.
//
// The semantics of the ttg layouts follow Triton 3.6
// (lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp). The MUSA encodings
// are derived from MUSA-FACTS.md; what no public source states is marked
// "(inferred)".
//
//===----------------------------------------------------------------------===//

#include "layouts/LayoutConversion.h"

#include "layouts/HopperFragments.h"

#include "dialects/MUSAGPU/IR/Dialect.h"
#include "dialects/TritonGPU/IR/Dialect.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <deque>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <vector>

using namespace mlir;
namespace ttg = mlir::triton::gpu;
namespace mgpu = mlir::musagpu;

namespace mlir::triton_musa {
namespace {


using Basis = std::vector<int32_t>;
using EmitErrorFn = function_ref<InFlightDiagnostic()>;

/// Reports `message` through `emitError` (when there is one) and fails.
struct ErrorReporter {
  EmitErrorFn emitError;

  LogicalResult fail(const std::string &message) const {
    if (emitError)
      emitError() << message;
    return failure();
  }
};

std::string describe(Attribute attr) {
  std::string text;
  llvm::raw_string_ostream os(text);
  attr.print(os);
  return text;
}

//===----------------------------------------------------------------------===//
// Tile: a layout under construction
//===----------------------------------------------------------------------===//

/// Input dimensions with their bases (coordinates in tensor-dimension order)
/// and the extent covered along each tensor dimension (a power of two).
/// A deque: references returned by in() survive adding dimensions.
struct Tile {
  std::deque<std::pair<std::string, std::vector<Basis>>> ins;
  SmallVector<int64_t> sizes;

  explicit Tile(unsigned rank) : sizes(rank, 1) {}

  unsigned rank() const { return sizes.size(); }

  std::vector<Basis> &in(StringRef name) {
    for (auto &[inName, bases] : ins)
      if (inName == name)
        return bases;
    ins.emplace_back(name.str(), std::vector<Basis>());
    return ins.back().second;
  }

  const std::vector<Basis> *find(StringRef name) const {
    for (const auto &[inName, bases] : ins)
      if (inName == name)
        return &bases;
    return nullptr;
  }

  /// Product with identity1D(size, inDim, dim): the new bits of `inDim` are
  /// its most significant and walk `dim` past what the tile covers so far.
  void appendIdentity(StringRef inDim, int64_t size, unsigned dim) {
    std::vector<Basis> &bases = in(inDim);
    for (int64_t step = 1; step < size; step *= 2) {
      Basis basis(rank(), 0);
      basis[dim] = static_cast<int32_t>(sizes[dim] * step);
      bases.push_back(std::move(basis));
    }
    sizes[dim] *= size;
  }

  /// Product with zeros1D(size, inDim, ...): `size` more values of `inDim`
  /// that all hold the same data (a broadcast).
  void appendZeros(StringRef inDim, int64_t size) {
    std::vector<Basis> &bases = in(inDim);
    for (int64_t step = 1; step < size; step *= 2)
      bases.emplace_back(rank(), 0);
  }

  /// Identity over `shape` along `order` (most minor first), as Triton's
  /// identityStandardND; dimension `broadcastDim` gets zeros instead.
  void appendIdentityND(StringRef inDim, ArrayRef<int64_t> shape,
                        ArrayRef<unsigned> order,
                        std::optional<unsigned> broadcastDim = std::nullopt) {
    in(inDim);
    for (unsigned dim : order) {
      if (broadcastDim && dim == *broadcastDim)
        appendZeros(inDim, shape[dim]);
      else
        appendIdentity(inDim, shape[dim], dim);
    }
  }
};

bool isPow2(int64_t v) { return v > 0 && llvm::isPowerOf2_64(v); }

/// Checks that `order` is a permutation of [0, rank).
LogicalResult checkOrder(const ErrorReporter &err, StringRef what,
                         ArrayRef<unsigned> order, unsigned rank) {
  SmallVector<bool> seen(rank, false);
  if (order.size() != rank)
    return err.fail((what + " order has " + Twine(order.size()) +
                     " entries but the tensor has rank " + Twine(rank))
                        .str());
  for (unsigned d : order) {
    if (d >= rank || seen[d])
      return err.fail((what + " order is not a permutation of [0, " +
                       Twine(rank) + ")")
                          .str());
    seen[d] = true;
  }
  return success();
}

/// Checks that every entry of a per-dimension parameter is a power of two.
LogicalResult checkPow2s(const ErrorReporter &err, StringRef what,
                         ArrayRef<unsigned> values, unsigned rank) {
  if (values.size() != rank)
    return err.fail((what + " has " + Twine(values.size()) +
                     " entries but the tensor has rank " + Twine(rank))
                        .str());
  for (unsigned v : values)
    if (!isPow2(v))
      return err.fail((what + " entries must be powers of two, got " +
                       Twine(v))
                          .str());
  return success();
}

SmallVector<int64_t> toInt64(ArrayRef<unsigned> values) {
  return SmallVector<int64_t>(values.begin(), values.end());
}

/// [rank-1, ..., 0]: the last dimension most minor.
SmallVector<unsigned> defaultOrder(unsigned rank) {
  SmallVector<unsigned> order(rank);
  std::iota(order.rbegin(), order.rend(), 0u);
  return order;
}

/// Repeats the tile along `repeatIn` until it covers `shape`, dimensions in
/// `order` (Triton's ensureLayoutNotSmallerThan).
void ensureNotSmaller(Tile &tile, ArrayRef<int64_t> shape,
                      ArrayRef<unsigned> order, StringRef repeatIn) {
  tile.in(repeatIn);
  for (unsigned dim : order)
    if (tile.sizes[dim] < shape[dim])
      tile.appendIdentity(repeatIn, shape[dim] / tile.sizes[dim], dim);
}

/// Wraps coordinates into `shape` (x mod size, which is GF(2)-linear for
/// power-of-two sizes): lanes, warps and blocks beyond the shape broadcast,
/// and registers that only reached past it are dropped when
/// `dropRegisters` (Triton's ensureLayoutNotLargerThan).
void ensureNotLarger(Tile &tile, ArrayRef<int64_t> shape, bool dropRegisters) {
  for (auto &[name, bases] : tile.ins) {
    std::vector<Basis> kept;
    for (Basis &basis : bases) {
      bool wasZero = llvm::all_of(basis, [](int32_t c) { return c == 0; });
      for (unsigned d = 0; d < tile.rank(); ++d)
        basis[d] &= static_cast<int32_t>(shape[d] - 1);
      bool isZero = llvm::all_of(basis, [](int32_t c) { return c == 0; });
      if (dropRegisters && name == kRegister && isZero && !wasZero)
        continue;
      kept.push_back(std::move(basis));
    }
    bases = std::move(kept);
  }
  for (unsigned d = 0; d < tile.rank(); ++d)
    tile.sizes[d] = std::min(tile.sizes[d], shape[d]);
}

/// Splits flattened bases (`rank` per basis).
FailureOr<std::vector<Basis>> unflatten(const ErrorReporter &err,
                                        StringRef what, ArrayRef<int32_t> flat,
                                        unsigned rank) {
  if (rank == 0 ? !flat.empty() : flat.size() % rank != 0)
    return err.fail((what + " bases do not have " + Twine(rank) +
                     " coordinates each")
                        .str());
  std::vector<Basis> bases;
  for (size_t i = 0; rank != 0 && i < flat.size(); i += rank)
    bases.emplace_back(flat.begin() + i, flat.begin() + i + rank);
  for (const Basis &basis : bases)
    for (int32_t c : basis)
      if (c < 0)
        return err.fail((what + " bases must be non-negative, got " +
                         Twine(c))
                            .str());
  return bases;
}

/// The smallest power of two above every coordinate along each dimension.
SmallVector<int64_t> coveredSizes(const Tile &tile) {
  SmallVector<int64_t> sizes(tile.rank(), 1);
  for (const auto &[name, bases] : tile.ins)
    for (const Basis &basis : bases)
      for (unsigned d = 0; d < tile.rank(); ++d)
        sizes[d] = std::max<int64_t>(
            sizes[d], int64_t(llvm::PowerOf2Ceil(uint64_t(basis[d]) + 1)));
  return sizes;
}

/// Combines a CTA tile with the CGA bases (one per CTA-index bit, in units
/// of CTA tiles) and fits the result to `shape`, as Triton's
/// combineCtaCgaWithShape: the CGA splits the shape, the CTA tile repeats
/// (along `repeatIn`, dimensions in `order`) or wraps to cover one split.
FailureOr<Tile> combineWithShape(const ErrorReporter &err, Tile cta,
                                 ArrayRef<int32_t> cgaFlat,
                                 ArrayRef<int64_t> shape,
                                 ArrayRef<unsigned> order, StringRef repeatIn,
                                 bool dropRegisters) {
  unsigned rank = shape.size();
  FailureOr<std::vector<Basis>> cgaBases =
      unflatten(err, "CGALayout", cgaFlat, rank);
  if (failed(cgaBases))
    return failure();
  Tile cga(rank);
  cga.in(kBlock) = *cgaBases;
  cga.sizes = coveredSizes(cga);
  ensureNotLarger(cga, shape, /*dropRegisters=*/false);

  SmallVector<int64_t> ctaShape(rank);
  for (unsigned d = 0; d < rank; ++d)
    ctaShape[d] = std::max<int64_t>(1, shape[d] / cga.sizes[d]);
  ensureNotSmaller(cta, ctaShape, order, repeatIn);
  ensureNotLarger(cta, ctaShape, dropRegisters);

  // The CGA is the more significant part: its coordinates count CTA tiles.
  std::vector<Basis> &block = cta.in(kBlock);
  for (Basis basis : cga.in(kBlock)) {
    for (unsigned d = 0; d < rank; ++d)
      basis[d] = static_cast<int32_t>(basis[d] * cta.sizes[d]);
    block.push_back(std::move(basis));
  }
  for (unsigned d = 0; d < rank; ++d)
    cta.sizes[d] *= cga.sizes[d];
  return cta;
}

//===----------------------------------------------------------------------===//
// Distributed layouts
//===----------------------------------------------------------------------===//

FailureOr<Tile> distributedTile(const ErrorReporter &err,
                                ArrayRef<int64_t> shape, Attribute layout);

/// Checks what both the blocked layout and its FMA dot operands rely on:
/// power-of-two per-dimension counts of the tensor's rank, and a valid order.
LogicalResult checkBlockedParams(const ErrorReporter &err,
                                 ttg::BlockedEncodingAttr blocked,
                                 unsigned rank) {
  if (failed(checkPow2s(err, "#ttg.blocked sizePerThread",
                        blocked.getSizePerThread(), rank)) ||
      failed(checkPow2s(err, "#ttg.blocked threadsPerWarp",
                        blocked.getThreadsPerWarp(), rank)) ||
      failed(checkPow2s(err, "#ttg.blocked warpsPerCTA",
                        blocked.getWarpsPerCTA(), rank)))
    return failure();
  return checkOrder(err, "#ttg.blocked", blocked.getOrder(), rank);
}

FailureOr<Tile> blockedTile(const ErrorReporter &err, ArrayRef<int64_t> shape,
                            ttg::BlockedEncodingAttr blocked) {
  unsigned rank = shape.size();
  if (failed(checkBlockedParams(err, blocked, rank)))
    return failure();
  ArrayRef<unsigned> order = blocked.getOrder();
  Tile cta(rank);
  cta.appendIdentityND(kRegister, toInt64(blocked.getSizePerThread()), order);
  cta.appendIdentityND(kLane, toInt64(blocked.getThreadsPerWarp()), order);
  cta.appendIdentityND(kWarp, toInt64(blocked.getWarpsPerCTA()), order);
  return combineWithShape(err, std::move(cta), blocked.getCgaBases(), shape,
                          order, kRegister, /*dropRegisters=*/true);
}

/// The parent's layout with dimension `dim` of size 1, that coordinate
/// dropped: every parent thread keeps its data, those that differed only
/// along `dim` now hold the same elements. Registers left without data are
/// removed (Triton's SliceEncodingAttr::toLinearLayout).
FailureOr<Tile> sliceTile(const ErrorReporter &err, ArrayRef<int64_t> shape,
                          ttg::SliceEncodingAttr slice) {
  unsigned dim = slice.getDim();
  if (dim > shape.size())
    return err.fail("#ttg.slice dim " + std::to_string(dim) +
                    " is out of range for a tensor of rank " +
                    std::to_string(shape.size()));
  SmallVector<int64_t> parentShape(shape);
  parentShape.insert(parentShape.begin() + dim, 1);
  FailureOr<Tile> parent = distributedTile(err, parentShape, slice.getParent());
  if (failed(parent))
    return failure();
  Tile result(shape.size());
  for (auto &[name, bases] : parent->ins) {
    std::vector<Basis> &out = result.in(name);
    for (Basis basis : bases) {
      basis.erase(basis.begin() + dim);
      if (name == kRegister &&
          llvm::all_of(basis, [](int32_t c) { return c == 0; }))
        continue;
      out.push_back(std::move(basis));
    }
  }
  result.sizes = SmallVector<int64_t>(shape);
  return result;
}

/// FMA operand of a dot whose result is blocked: A [.., M, K] is replicated
/// along the N threads and warps, B [.., K, N] along the M ones, and each
/// thread holds the whole K extent.
FailureOr<Tile> fmaDotTile(const ErrorReporter &err, ArrayRef<int64_t> shape,
                           ttg::DotOperandEncodingAttr dot,
                           ttg::BlockedEncodingAttr blocked) {
  unsigned rank = shape.size();
  if (rank < 2)
    return err.fail("#ttg.dot_op needs a tensor of rank >= 2, got rank " +
                    std::to_string(rank));
  if (dot.getOpIdx() > 1)
    return err.fail("#ttg.dot_op opIdx must be 0 or 1, got " +
                    std::to_string(dot.getOpIdx()));
  if (failed(checkBlockedParams(err, blocked, rank)))
    return failure();
  unsigned kDim = dot.getOpIdx() == 0 ? rank - 1 : rank - 2;
  ArrayRef<unsigned> order = blocked.getOrder();
  SmallVector<int64_t> perThread = toInt64(blocked.getSizePerThread());
  perThread[kDim] = shape[kDim];
  Tile cta(rank);
  cta.appendIdentityND(kRegister, perThread, order);
  cta.appendIdentityND(kLane, toInt64(blocked.getThreadsPerWarp()), order,
                       kDim);
  cta.appendIdentityND(kWarp, toInt64(blocked.getWarpsPerCTA()), order, kDim);
  // CTAs never split K: where the result's CTAs split its dimension kDim
  // (N for A, M for B), they hold the same operand.
  SmallVector<int32_t> cga(blocked.getCgaBases());
  for (size_t i = kDim; i < cga.size(); i += rank)
    cga[i] = 0;
  return combineWithShape(err, std::move(cta), cga, shape, order, kRegister,
                          /*dropRegisters=*/true);
}

/// The dimensions ordered by the first register basis that moves them, the
/// others last in default order (Triton's LinearEncodingAttr::getOrder).
SmallVector<unsigned> registerOrder(const std::vector<Basis> &registers,
                                    unsigned rank) {
  SmallVector<unsigned> order;
  for (const Basis &basis : registers)
    for (unsigned d = 0; d < rank; ++d)
      if (basis[d] != 0 && !llvm::is_contained(order, d))
        order.push_back(d);
  for (unsigned d : defaultOrder(rank))
    if (!llvm::is_contained(order, d))
      order.push_back(d);
  return order;
}

FailureOr<Tile> linearTile(const ErrorReporter &err, ArrayRef<int64_t> shape,
                           ttg::LinearEncodingAttr linear) {
  unsigned rank = shape.size();
  if (linear.getLayoutRank() != rank)
    return err.fail("#ttg.linear has rank " +
                    std::to_string(linear.getLayoutRank()) +
                    " but the tensor has rank " + std::to_string(rank));
  Tile tile(rank);
  std::pair<const char *, ArrayRef<int32_t>> dims[] = {
      {kRegister, linear.getRegisterBases()},
      {kLane, linear.getLaneBases()},
      {kWarp, linear.getWarpBases()},
      {kBlock, linear.getBlockBases()}};
  for (auto [name, flat] : dims) {
    FailureOr<std::vector<Basis>> bases =
        unflatten(err, "#ttg.linear", flat, rank);
    if (failed(bases))
      return failure();
    tile.in(name) = std::move(*bases);
  }
  tile.sizes = coveredSizes(tile);
  ensureNotSmaller(tile, shape, registerOrder(*tile.find(kRegister), rank),
                   kRegister);
  ensureNotLarger(tile, shape, /*dropRegisters=*/true);
  return tile;
}

//===----------------------------------------------------------------------===//
// MUSA matrix layouts
//
// The QY2 (mp_22) m32n32k16 atom follows MUSA-FACTS.md's last section
// (kQY2AccumulatorAtom / kQY2OperandAtom below; only the register order
// within a thread is inferred) and is what the WMMA path uses on mp_22. The
// other atoms follow the one public MUSA Triton backend's PH1 (mp_31) WMMA
// layouts, which state the register order too (its linear layouts are the
// fragments it hands the intrinsic, two 16-bit values per 32-bit word,
// lowest register first):
//  * accumulator, per warp, on an M x N atom: lanes -> N 1, 2, 4, then M 1,
//    2; registers -> N from 8, then M from 4. E.g. m16n16: lane [N 1, N 2,
//    N 4, M 1, M 2], register [N 8, M 4, M 8]: C row = (l >> 3) + 4i,
//    col = (l & 7) + 8j, register j + 2i. Our generalization to tiles with
//    more rows than 4 x lanes / 8 (e.g. mp_22 32x32: lanes continue along
//    M, then N) is (inferred) and unused.
//  * A [M, K] / B [K, N] operands: on the M x K (N x K) atom, lanes -> K 1,
//    2, then M (N) 1, 2, 4; registers -> K from 4, then M (N) from 8. E.g.
//    m16n16k16 A: lane [K 1, K 2, M 1, M 2, M 4], register [K 4, K 8, M 8]:
//    m = (l >> 2) + 8j, k = (l & 3) + 4i, register i + 4j (K-adjacent
//    registers, k and k + 4, share a 32-bit word).
//  * warps (stated for PH1, inferred for QY2): N fastest (warp 1 holds the
//    tile right of warp 0), then M, then batch; operands broadcast along the
//    other operand's warps.
//  * repetitions over a larger tensor: in registers, N (or K) first.
//===----------------------------------------------------------------------===//

/// How a warp's fragment spreads over lanes (see above): `laneLeadCols`
/// column bits along the first lanes, then at most `laneRows` row bits;
/// the registers take the remaining columns, then the remaining rows.
struct FragmentPattern {
  unsigned laneLeadCols;
  unsigned laneRows;
};

constexpr FragmentPattern kAccumulatorPattern = {3, 32};
constexpr FragmentPattern kOperandPattern = {2, 3};

/// One warp's share of a `rows` x `cols` tile (dims `rowDim`, `colDim`)
/// with `lanes` threads, following `pattern`; fails when the tile has fewer
/// elements than the warp has lanes.
LogicalResult appendFragment(const ErrorReporter &err, StringRef what,
                             Tile &tile, int64_t rows, int64_t cols,
                             int64_t lanes, unsigned rowDim, unsigned colDim,
                             const FragmentPattern &pattern) {
  auto unit = [&](unsigned dim, int64_t value) {
    Basis basis(tile.rank(), 0);
    basis[dim] = static_cast<int32_t>(value);
    return basis;
  };
  // The next row and column bit still unassigned.
  int64_t row = 1, col = 1;
  std::vector<Basis> &regs = tile.in(kRegister);
  std::vector<Basis> &laneBases = tile.in(kLane);
  unsigned laneCols = 0, laneRows = 0;
  for (int64_t lane = 1; lane < lanes; lane *= 2) {
    if (laneCols < pattern.laneLeadCols && col < cols) {
      laneBases.push_back(unit(colDim, col));
      col *= 2;
      ++laneCols;
    } else if (laneRows < pattern.laneRows && row < rows) {
      laneBases.push_back(unit(rowDim, row));
      row *= 2;
      ++laneRows;
    } else if (col < cols) {
      laneBases.push_back(unit(colDim, col));
      col *= 2;
    } else if (row < rows) {
      laneBases.push_back(unit(rowDim, row));
      row *= 2;
    } else {
      return err.fail((what + " tile " + Twine(rows) + "x" + Twine(cols) +
                       " is too small for " + Twine(lanes) + " threads")
                          .str());
    }
  }
  for (; col < cols; col *= 2)
    regs.push_back(unit(colDim, col));
  for (; row < rows; row *= 2)
    regs.push_back(unit(rowDim, row));
  tile.sizes[rowDim] *= rows;
  tile.sizes[colDim] *= cols;
  return success();
}

/// The QY2 (mp_22) m32n32k16 atom, from MUSA-FACTS.md's last section (the
/// open MUSA backend's QY2 fragment formulas), for thread t of 128:
///   C [32 x 32]: row = 4(t/64) + (t/8)%4 + {0,8,16,24},
///                col = 8((t/32)%2) + t%8 + {0,16};
///   A [32 x 16]: row = (t/4)%16 + {0,16}, col (K) = 2(4(t/64) + t%4) + {0,1};
///   B [16 x 32]: mirrors A with N in the role of M.
/// The formulas give each thread's set of elements; which of its registers
/// holds which is not stated. Inferred: the two K-adjacent 16-bit operand
/// values share one 32-bit register (register bit 0 -> K 1, as the
/// instruction packs 2 x 16 bits), then M+16 (N+16); for C, col+16 first,
/// then row+8, row+16 (columns fastest, as PH1's C is stated to be).
/// Unit bases as (row?, step): true = the row dimension.
struct AtomBits {
  std::initializer_list<std::pair<bool, int32_t>> regs, lanes;
};
constexpr bool kRow = true, kCol = false;
const AtomBits kQY2AccumulatorAtom = {
    {{kCol, 16}, {kRow, 8}, {kRow, 16}},
    {{kCol, 1}, {kCol, 2}, {kCol, 4}, {kRow, 1}, {kRow, 2}, {kCol, 8},
     {kRow, 4}}};
// For A (rows M, cols K) and B (rows N, cols K).
const AtomBits kQY2OperandAtom = {
    {{kCol, 1}, {kRow, 16}},
    {{kCol, 2}, {kCol, 4}, {kRow, 1}, {kRow, 2}, {kRow, 4}, {kRow, 8},
     {kCol, 8}}};

/// The GPU proxy's WMMA fragment (mma_sync_warp): an m16n16kK instruction
/// is mma.sync.m16n8k16 pieces, and a warp holds each piece as the PTX ISA
/// states ("Matrix Fragments for mma.m16n8k16"), lane l = 4 g + t:
///   C [16 x 8]: c0, c1 at row g, col 2t + {0, 1}; c2, c3 at row g + 8;
///   A [16 x 16]: a0, a1 at row g, k 2t + {0, 1}; a2, a3 row g + 8; a4, a5
///     k + 8; a6, a7 row g + 8, k + 8;
///   B [16 x 8]: b0, b1 at k 2t + {0, 1}, col g; b2, b3 at k + 8.
/// The pieces follow each other in registers: C's second 8 columns, A's
/// second 16 K (k32), B's second 16 K, then its second 8 columns, so that
/// one mma.sync reads contiguous registers (ProxyTargetInfo::wmma).
const AtomBits kMmaSyncAccumulatorAtom = {
    {{kCol, 1}, {kRow, 8}, {kCol, 8}},
    {{kCol, 2}, {kCol, 4}, {kRow, 1}, {kRow, 2}, {kRow, 4}}};
// A (rows M, cols K) and B (rows N, cols K), for K = 16 and K = 32. A's
// 16 x 16 piece pair is laid out as C's 16 x 16, with K for N.
const AtomBits &kMmaSyncAAtomK16 = kMmaSyncAccumulatorAtom;
const AtomBits kMmaSyncAAtomK32 = {
    {{kCol, 1}, {kRow, 8}, {kCol, 8}, {kCol, 16}},
    {{kCol, 2}, {kCol, 4}, {kRow, 1}, {kRow, 2}, {kRow, 4}}};
const AtomBits kMmaSyncBAtomK16 = {
    {{kCol, 1}, {kCol, 8}, {kRow, 8}},
    {{kCol, 2}, {kCol, 4}, {kRow, 1}, {kRow, 2}, {kRow, 4}}};
const AtomBits kMmaSyncBAtomK32 = {
    {{kCol, 1}, {kCol, 8}, {kCol, 16}, {kRow, 8}},
    {{kCol, 2}, {kCol, 4}, {kRow, 1}, {kRow, 2}, {kRow, 4}}};

/// Appends `atom` (rows x cols, dims rowDim/colDim) to `tile`.
void appendAtom(Tile &tile, const AtomBits &atom, int64_t rows, int64_t cols,
                unsigned rowDim, unsigned colDim) {
  auto add = [&](std::vector<Basis> &bases,
                 std::initializer_list<std::pair<bool, int32_t>> units) {
    for (auto [isRow, step] : units) {
      Basis basis(tile.rank(), 0);
      basis[isRow ? rowDim : colDim] = step;
      bases.push_back(std::move(basis));
    }
  };
  add(tile.in(kRegister), atom.regs);
  add(tile.in(kLane), atom.lanes);
  tile.sizes[rowDim] *= rows;
  tile.sizes[colDim] *= cols;
}

/// Checks the common parameters of the MUSA accumulator layouts.
LogicalResult checkMma(const ErrorReporter &err, StringRef what,
                       ArrayRef<unsigned> warpsPerCTA,
                       ArrayRef<unsigned> instrShape, unsigned rank) {
  if (rank != 2 && rank != 3)
    return err.fail((what + " needs a tensor of rank 2 or 3, got rank " +
                     Twine(rank))
                        .str());
  if (failed(checkPow2s(err, (what + " warpsPerCTA").str(), warpsPerCTA,
                        rank)) ||
      failed(checkPow2s(err, (what + " instrShape").str(), instrShape, 3)))
    return failure();
  return success();
}

/// Warps over the tensor, N fastest, skipping `broadcastDim` (operands are
/// replicated along the other operand's dimension). `unitSizes` is the
/// extent of one warp's tile per dimension.
void appendWarps(Tile &tile, ArrayRef<unsigned> warpsPerCTA,
                 std::optional<unsigned> broadcastDim = std::nullopt) {
  tile.appendIdentityND(kWarp, toInt64(warpsPerCTA),
                        defaultOrder(tile.rank()), broadcastDim);
}

FailureOr<Tile> wmmaTile(const ErrorReporter &err, ArrayRef<int64_t> shape,
                         mgpu::WMMAEncodingAttr wmma,
                         std::optional<unsigned> opIdx) {
  unsigned rank = shape.size();
  StringRef what = opIdx ? "#musagpu.wmma_operand" : "#musagpu.wmma";
  if (failed(checkMma(err, what, wmma.getWarpsPerCTA(), wmma.getInstrShape(),
                      rank)))
    return failure();
  unsigned mDim = rank - 2, nDim = rank - 1;
  int64_t m = wmma.getInstrM(), n = wmma.getInstrN(), k = wmma.getInstrK();
  int64_t lanes = wmma.getThreadsPerWarp();
  Tile cta(rank);
  LogicalResult built = success();
  std::optional<unsigned> broadcastDim;
  SmallVector<unsigned> repOrder = defaultOrder(rank);
  // The fragment is the catalogue's (catalogue/MatrixInstrs.h).
  mgpu::MatrixFragment fragment = wmma.getResolvedFragment();
  if (fragment == mgpu::MatrixFragment::None)
    return err.fail((what + " instrShape " + Twine(m) + "x" + Twine(n) + "x" +
                     Twine(k) + " on " + Twine(lanes) +
                     "-thread warps has no known fragment (no row of the "
                     "matrix-instruction catalogue names one)")
                        .str());
  bool mmaSync = fragment == mgpu::MatrixFragment::MmaSyncWarp;
  if (mmaSync && (m != 16 || n != 16 || (k != 16 && k != 32)))
    return err.fail((what + " with the mma_sync_warp fragment has no layout "
                            "for instrShape " +
                     Twine(m) + "x" + Twine(n) + "x" + Twine(k))
                        .str());
  if (fragment == mgpu::MatrixFragment::QY2WMMA || mmaSync) {
    const AtomBits &accumulator =
        mmaSync ? kMmaSyncAccumulatorAtom : kQY2AccumulatorAtom;
    const AtomBits &operandA = !mmaSync ? kQY2OperandAtom
                               : k == 16 ? kMmaSyncAAtomK16
                                         : kMmaSyncAAtomK32;
    const AtomBits &operandB = !mmaSync ? kQY2OperandAtom
                               : k == 16 ? kMmaSyncBAtomK16
                                         : kMmaSyncBAtomK32;
    if (!opIdx)
      appendAtom(cta, accumulator, m, n, mDim, nDim);
    else if (*opIdx == 0)
      appendAtom(cta, operandA, m, k, mDim, nDim);
    else
      appendAtom(cta, operandB, n, k, nDim, mDim);
    if (opIdx)
      broadcastDim = *opIdx == 0 ? nDim : mDim;
    if (opIdx && *opIdx == 1)
      std::swap(repOrder[0], repOrder[1]);
  } else if (fragment != mgpu::MatrixFragment::PH1WMMA) {
    return err.fail((what + " has no linear layout for fragment " +
                     mgpu::stringifyMatrixFragment(fragment))
                        .str());
  } else if (!opIdx) {
    built = appendFragment(err, what, cta, m, n, lanes, mDim, nDim,
                           kAccumulatorPattern);
  } else if (*opIdx == 0) {
    // A [M, K]: K plays the column.
    built = appendFragment(err, what, cta, m, k, lanes, mDim, nDim,
                           kOperandPattern);
    broadcastDim = nDim;
  } else {
    // B [K, N]: K plays the column, N the row; K repeats first.
    built = appendFragment(err, what, cta, n, k, lanes, nDim, mDim,
                           kOperandPattern);
    broadcastDim = mDim;
    std::swap(repOrder[0], repOrder[1]);
  }
  if (failed(built))
    return failure();
  appendWarps(cta, wmma.getWarpsPerCTA(), broadcastDim);
  return combineWithShape(err, std::move(cta), {}, shape, repOrder, kRegister,
                          /*dropRegisters=*/true);
}

/// SQMMA accumulator (MUSA-FACTS.md, last section, from the open MUSA
/// backend): per instruction of instM x instN and squad, lane l < 32, warp
/// of the squad w < 4, register r = rn + (instN/8) * rm:
///   row = (l >> 3) + 4w + 16 rm,  col = (l & 7) + 8 rn,
/// so lanes -> [N 1, N 2, N 4, M 1, M 2], warp bits 0-1 -> [M 4, M 8],
/// registers -> [N 8, N 16, .., then M 16, M 32, ..]. Further warps are
/// squads (warp / 4): along M first (squadM = squad % squadsM, instM rows
/// each), then N (instN columns each), then batch. Repetitions over a larger
/// tensor take the next registers, N first (our choice: the lowering finds
/// each instruction's fragment from the layout, SQMMAOpToLLVM.cpp). With
/// the wgmma_warpgroup fragment (the GPU proxy's rows) the squad's part is
/// wgmma's accumulator instead (layouts/HopperFragments.h); the squads and
/// repetitions around it are the same.
FailureOr<Tile> sqmmaTile(const ErrorReporter &err, ArrayRef<int64_t> shape,
                          mgpu::SQMMAEncodingAttr sqmma) {
  unsigned rank = shape.size();
  StringRef what = "#musagpu.sqmma";
  ArrayRef<unsigned> warpsPerCTA = sqmma.getWarpsPerCTA();
  if (failed(checkMma(err, what, warpsPerCTA, sqmma.getInstrShape(), rank)))
    return failure();
  unsigned mDim = rank - 2, nDim = rank - 1;
  int64_t m = sqmma.getInstrM(), n = sqmma.getInstrN();
  constexpr int64_t kSquadWarps = 4;
  if (warpsPerCTA[mDim] % kSquadWarps != 0 || m < 16 || n < 8)
    return err.fail("#musagpu.sqmma needs warpsPerCTA along M a multiple of 4 "
                    "(4 warps per squad) and an instruction of at least 16 "
                    "rows and 8 columns");
  Tile cta(rank);
  auto unit = [&](unsigned dim, int64_t step) {
    Basis basis(rank, 0);
    basis[dim] = static_cast<int32_t>(step);
    return basis;
  };
  if (sqmma.getFragment() == mgpu::MatrixFragment::WGMMAWarpgroup) {
    // The GPU proxy's rows: the squad holds the tile as wgmma does.
    llvm::Expected<LinearLayout> wgmma = getWGMMAAccumulatorLayout(m, n);
    if (!wgmma)
      return err.fail("#musagpu.sqmma with the wgmma_warpgroup fragment: " +
                      llvm::toString(wgmma.takeError()));
    for (const auto &[inDim, bases] : wgmma->getBases())
      for (const LinearLayout::Basis &rowCol : bases) {
        Basis basis(rank, 0);
        basis[mDim] = rowCol[0];
        basis[nDim] = rowCol[1];
        cta.in(inDim).push_back(std::move(basis));
      }
  } else {
    std::vector<Basis> &regs = cta.in(kRegister);
    for (int64_t col = 8; col < n; col *= 2)
      regs.push_back(unit(nDim, col));
    for (int64_t row = 16; row < m; row *= 2)
      regs.push_back(unit(mDim, row));
    std::vector<Basis> &lanes = cta.in(kLane);
    for (int64_t col : {1, 2, 4})
      lanes.push_back(unit(nDim, col));
    for (int64_t row : {1, 2})
      lanes.push_back(unit(mDim, row));
    std::vector<Basis> &warps = cta.in(kWarp);
    for (int64_t row : {4, 8})
      warps.push_back(unit(mDim, row));
  }
  cta.sizes[mDim] = m;
  cta.sizes[nDim] = n;
  SmallVector<int64_t> squads = toInt64(warpsPerCTA);
  squads[mDim] /= kSquadWarps;
  SmallVector<unsigned> squadOrder = {mDim, nDim};
  if (rank == 3)
    squadOrder.push_back(0);
  cta.appendIdentityND(kWarp, squads, squadOrder);
  return combineWithShape(err, std::move(cta), {}, shape, defaultOrder(rank),
                          kRegister, /*dropRegisters=*/true);
}

FailureOr<Tile> distributedTile(const ErrorReporter &err,
                                ArrayRef<int64_t> shape, Attribute layout) {
  if (auto blocked = dyn_cast<ttg::BlockedEncodingAttr>(layout))
    return blockedTile(err, shape, blocked);
  if (auto slice = dyn_cast<ttg::SliceEncodingAttr>(layout))
    return sliceTile(err, shape, slice);
  if (auto linear = dyn_cast<ttg::LinearEncodingAttr>(layout))
    return linearTile(err, shape, linear);
  if (auto dot = dyn_cast<ttg::DotOperandEncodingAttr>(layout)) {
    if (auto blocked = dyn_cast<ttg::BlockedEncodingAttr>(dot.getParent()))
      return fmaDotTile(err, shape, dot, blocked);
    if (auto wmma = dyn_cast<mgpu::WMMAEncodingAttr>(dot.getParent())) {
      if (dot.getOpIdx() > 1)
        return err.fail("#ttg.dot_op opIdx must be 0 or 1, got " +
                        std::to_string(dot.getOpIdx()));
      return wmmaTile(err, shape, wmma, dot.getOpIdx());
    }
    return err.fail("#ttg.dot_op with parent " + describe(dot.getParent()) +
                    " has no linear layout on MUSA (supported parents: "
                    "#ttg.blocked, #musagpu.wmma)");
  }
  if (auto sqmma = dyn_cast<mgpu::SQMMAEncodingAttr>(layout))
    return sqmmaTile(err, shape, sqmma);
  if (auto wmma = dyn_cast<mgpu::WMMAEncodingAttr>(layout))
    return wmmaTile(err, shape, wmma, std::nullopt);
  if (auto operand = dyn_cast<mgpu::WMMAOperandEncodingAttr>(layout)) {
    if (operand.getOpIdx() > 1)
      return err.fail("#musagpu.wmma_operand opIdx must be 0 or 1, got " +
                      std::to_string(operand.getOpIdx()));
    return wmmaTile(err, shape, operand.getParent(), operand.getOpIdx());
  }
  return err.fail("layout " + describe(layout) +
                  " is not a supported distributed layout");
}

//===----------------------------------------------------------------------===//
// Shared layouts
//===----------------------------------------------------------------------===//

/// Rows along order[0] stored contiguously; each row's groups of `vec`
/// elements XOR-permuted by its phase (row / perPhase) % maxPhase.
FailureOr<Tile> swizzledTile(const ErrorReporter &err, ArrayRef<int64_t> shape,
                             ttg::SwizzledSharedEncodingAttr shared) {
  unsigned rank = shape.size();
  ArrayRef<unsigned> order = shared.getOrder();
  if (failed(checkOrder(err, "#ttg.swizzled_shared", order, rank)))
    return failure();
  for (unsigned v : {shared.getVec(), shared.getPerPhase(),
                     shared.getMaxPhase()})
    if (!isPow2(v))
      return err.fail("#ttg.swizzled_shared vec, perPhase and maxPhase must "
                      "be powers of two for a linear layout, got " +
                      describe(shared));
  FailureOr<std::vector<Basis>> cgaBases =
      unflatten(err, "CGALayout", shared.getCgaBases(), rank);
  if (failed(cgaBases))
    return failure();
  // The CTA tile is the per-CTA share of the shape.
  Tile cga(rank);
  cga.in(kBlock) = *cgaBases;
  cga.sizes = coveredSizes(cga);
  SmallVector<int64_t> ctaShape(rank);
  for (unsigned d = 0; d < rank; ++d)
    ctaShape[d] = std::max<int64_t>(1, shape[d] / cga.sizes[d]);

  Tile cta(rank);
  cta.in(kOffset);
  cta.appendIdentity(kOffset, ctaShape[order[0]], order[0]);
  if (rank >= 2) {
    unsigned colDim = order[0], rowDim = order[1];
    int64_t numCols = ctaShape[colDim];
    for (int64_t row = 1; row < ctaShape[rowDim]; row *= 2) {
      Basis basis(rank, 0);
      basis[rowDim] = static_cast<int32_t>(row);
      int64_t phase =
          (row / shared.getPerPhase()) % int64_t(shared.getMaxPhase());
      basis[colDim] = static_cast<int32_t>((shared.getVec() * phase) %
                                           numCols);
      cta.in(kOffset).push_back(std::move(basis));
    }
    cta.sizes[rowDim] = ctaShape[rowDim];
    for (unsigned i = 2; i < rank; ++i)
      cta.appendIdentity(kOffset, ctaShape[order[i]], order[i]);
  }
  return combineWithShape(err, std::move(cta), shared.getCgaBases(), shape,
                          order, kOffset, /*dropRegisters=*/false);
}

/// A shared layout given by offset/block bases, fitted to `shape` (repeated
/// along "offset" or wrapped).
FailureOr<Tile> sharedBasesTile(const ErrorReporter &err, StringRef what,
                                ArrayRef<int64_t> shape, unsigned layoutRank,
                                ArrayRef<int32_t> offsetFlat,
                                ArrayRef<int32_t> blockFlat) {
  unsigned rank = shape.size();
  if (layoutRank != rank)
    return err.fail((what + " has rank " + Twine(layoutRank) +
                     " but the buffer has rank " + Twine(rank))
                        .str());
  FailureOr<std::vector<Basis>> offset = unflatten(err, what, offsetFlat, rank);
  FailureOr<std::vector<Basis>> block = unflatten(err, what, blockFlat, rank);
  if (failed(offset) || failed(block))
    return failure();
  Tile tile(rank);
  tile.in(kOffset) = std::move(*offset);
  tile.in(kBlock) = std::move(*block);
  tile.sizes = coveredSizes(tile);
  ensureNotSmaller(tile, shape,
                   registerOrder(*tile.find(kOffset), rank), kOffset);
  ensureNotLarger(tile, shape, /*dropRegisters=*/false);
  return tile;
}

/// #musagpu.tme_shared (interpretation, inferred): the buffer is the TME box
/// stored densely with order[0] fastest, cut into 256-byte-wide column
/// pieces stored one after another when the innermost dimension is wider
/// (as getTMEBoxSplits lays them out; 128-byte pieces with a 128-byte
/// swizzle line, Hopper's swizzle atoms, getPieceBytes). On top, the swizzle acts on byte
/// addresses like CuTe's Swizzle<log2(S/G), log2(G), log2(L/G)>: with
/// granularity G, stride S and line L, the index of the G-byte granule
/// within each S-byte span is XORed with (address / L) mod (S / G). So a
/// G-byte granule never splits, S / G granules rotate, and consecutive
/// L-byte lines take consecutive phases (G = 16, S = L = 128 is NVIDIA's
/// 128-byte swizzle). Granularity `none` is no swizzle. The swizzle uses the
/// offset from the start of the allocation, assumed aligned to L * S / G.
FailureOr<Tile> tmeSharedTile(const ErrorReporter &err,
                              ArrayRef<int64_t> shape,
                              mgpu::TMESharedEncodingAttr tme) {
  unsigned rank = shape.size();
  ArrayRef<unsigned> order = tme.getOrder();
  if (failed(checkOrder(err, "#musagpu.tme_shared", order, rank)))
    return failure();
  unsigned bits = tme.getElementBitWidth();
  if (bits < 8 || !isPow2(bits))
    return err.fail("#musagpu.tme_shared elementBitWidth must be a power of "
                    "two of at least 8, got " +
                    std::to_string(bits));
  int64_t elemBytes = bits / 8;
  int64_t pieceElems = tme.getPieceBytes() / elemBytes;

  // Unswizzled: logical offset -> coordinates.
  Tile dense(rank);
  unsigned inner = order[0];
  int64_t innerPiece = std::min(shape[inner], pieceElems);
  dense.in(kOffset);
  dense.appendIdentity(kOffset, innerPiece, inner);
  for (unsigned i = 1; i < rank; ++i)
    dense.appendIdentity(kOffset, shape[order[i]], order[i]);
  dense.appendIdentity(kOffset, shape[inner] / innerPiece, inner);
  dense.in(kBlock);

  int64_t granule = tme.getSwizzleGranularityBytes();
  if (granule == 0)
    return dense;
  int64_t stride = tme.getSwizzleStrideBytes();
  int64_t line = tme.getSwizzleLineBytes();
  if (granule < elemBytes)
    return err.fail("#musagpu.tme_shared swizzle granularity is smaller than "
                    "an element: " +
                    describe(tme));
  // In elements: XOR bits [log2 G, log2 S) with the bits from log2 L up.
  unsigned gShift = llvm::Log2_64(granule / elemBytes);
  unsigned lShift = llvm::Log2_64(line / elemBytes);
  uint64_t phaseMask = uint64_t(stride / granule) - 1;
  auto swizzle = [&](uint64_t logical) {
    return logical ^ (((logical >> lShift) & phaseMask) << gShift);
  };
  // Physical offset p holds the element at logical swizzle^-1(p). The XOR
  // only moves bits downwards, so iterating converges to the inverse.
  auto unswizzle = [&](uint64_t physical) {
    uint64_t logical = physical;
    for (int i = 0; i < 64; ++i) {
      uint64_t next = physical ^ (((logical >> lShift) & phaseMask) << gShift);
      if (next == logical)
        break;
      logical = next;
    }
    return logical;
  };
  const std::vector<Basis> &denseBases = *dense.find(kOffset);
  uint64_t total = uint64_t(1) << denseBases.size();
  auto coordinates = [&](uint64_t logical) {
    Basis result(rank, 0);
    for (size_t bit = 0; bit < denseBases.size(); ++bit)
      if ((logical >> bit) & 1)
        for (unsigned d = 0; d < rank; ++d)
          result[d] ^= denseBases[bit][d];
    return result;
  };
  Tile tile(rank);
  std::vector<Basis> &offset = tile.in(kOffset);
  for (size_t bit = 0; bit < denseBases.size(); ++bit) {
    uint64_t logical = unswizzle(uint64_t(1) << bit);
    // The swizzle of a buffer smaller than its period reaches past the end.
    if (logical >= total || swizzle(logical) != (uint64_t(1) << bit))
      return err.fail("#musagpu.tme_shared swizzle does not fit a buffer of " +
                      std::to_string(total) + " elements: " + describe(tme));
    offset.push_back(coordinates(logical));
  }
  tile.in(kBlock);
  tile.sizes = dense.sizes;
  return tile;
}

FailureOr<Tile> sharedTile(const ErrorReporter &err, ArrayRef<int64_t> shape,
                           Attribute layout) {
  if (auto swizzled = dyn_cast<ttg::SwizzledSharedEncodingAttr>(layout))
    return swizzledTile(err, shape, swizzled);
  if (auto padded = dyn_cast<ttg::PaddedSharedEncodingAttr>(layout))
    return sharedBasesTile(err, "#ttg.padded_shared", shape,
                           padded.getLayoutRank(), padded.getOffsetBases(),
                           padded.getBlockBases());
  if (auto linear = dyn_cast<ttg::SharedLinearEncodingAttr>(layout))
    return sharedBasesTile(err, "#ttg.shared_linear", shape,
                           linear.getLayoutRank(), linear.getOffsetBases(),
                           linear.getBlockBases());
  if (auto tme = dyn_cast<mgpu::TMESharedEncodingAttr>(layout))
    return tmeSharedTile(err, shape, tme);
  if (isa<ttg::NVMMASharedEncodingAttr>(layout))
    return err.fail("#ttg.nvmma_shared is an NVIDIA tensor-core layout and is "
                    "not supported on MUSA (use #musagpu.tme_shared): " +
                    describe(layout));
  if (isa<ttg::AMDRotatingSharedEncodingAttr>(layout))
    return err.fail("#ttg.amd_rotating_shared is an AMD layout and is not "
                    "supported on MUSA: " +
                    describe(layout));
  return err.fail("layout " + describe(layout) +
                  " is not a supported shared layout");
}

bool isSharedLayout(Attribute layout) {
  return isa<ttg::SwizzledSharedEncodingAttr, ttg::PaddedSharedEncodingAttr,
             ttg::SharedLinearEncodingAttr, mgpu::TMESharedEncodingAttr,
             ttg::NVMMASharedEncodingAttr, ttg::AMDRotatingSharedEncodingAttr>(
      layout);
}

} // namespace

//===----------------------------------------------------------------------===//
// Public API
//===----------------------------------------------------------------------===//

FailureOr<LinearLayout> toLinearLayout(ArrayRef<int64_t> shape,
                                       Attribute layout,
                                       EmitErrorFn emitError) {
  ErrorReporter err{emitError};
  if (!layout)
    return err.fail("tensor has no layout encoding");
  std::string shapeText;
  for (int64_t size : shape) {
    if (!shapeText.empty())
      shapeText += "x";
    shapeText += std::to_string(size);
  }
  for (int64_t size : shape)
    if (!isPow2(size) || size > (int64_t(1) << LinearLayout::kMaxDimLog2))
      return err.fail("linear layout of shape [" + shapeText +
                      "]: every dimension must be a power of two (at most "
                      "2^30)");
  bool shared = isSharedLayout(layout);
  FailureOr<Tile> tile = shared ? sharedTile(err, shape, layout)
                                : distributedTile(err, shape, layout);
  if (failed(tile))
    return failure();

  // Fixed input order, every dimension present.
  SmallVector<const char *, 4> inNames;
  if (shared)
    inNames = {kOffset, kBlock};
  else
    inNames = {kRegister, kLane, kWarp, kBlock};
  std::vector<LinearLayout::DimBases> ins;
  for (const char *name : inNames) {
    const std::vector<Basis> *bases = tile->find(name);
    ins.emplace_back(name, bases ? *bases : std::vector<Basis>());
  }
  std::vector<LinearLayout::DimSize> outs;
  for (auto [d, size] : llvm::enumerate(shape))
    outs.emplace_back("dim" + std::to_string(d), static_cast<int32_t>(size));
  llvm::Expected<LinearLayout> result = LinearLayout::get(ins, outs);
  if (!result)
    return err.fail("linear layout of " + describe(layout) + " for shape [" +
                    shapeText +
                    "]: " + llvm::toString(result.takeError()));
  return std::move(*result);
}

FailureOr<LinearLayout> toLinearLayout(RankedTensorType type) {
  MLIRContext *ctx = type.getContext();
  return toLinearLayout(type.getShape(), type.getEncoding(), [ctx] {
    return mlir::emitError(UnknownLoc::get(ctx));
  });
}

FailureOr<LinearLayout> toLinearLayout(ttg::MemDescType type) {
  MLIRContext *ctx = type.getContext();
  ArrayRef<int64_t> shape =
      type.getAllocShape().empty() ? type.getShape() : type.getAllocShape();
  unsigned rank = ttg::getLayoutRank(type.getEncoding());
  if (rank != 0 && rank < shape.size())
    shape = shape.take_back(rank);
  return toLinearLayout(shape, type.getEncoding(), [ctx] {
    return mlir::emitError(UnknownLoc::get(ctx));
  });
}

FailureOr<unsigned> getNumElementsPerThread(ArrayRef<int64_t> shape,
                                            Attribute layout,
                                            EmitErrorFn emitError) {
  FailureOr<LinearLayout> ll = toLinearLayout(shape, layout, emitError);
  if (failed(ll))
    return failure();
  return static_cast<unsigned>(ll->getInDimSize(kRegister));
}

int64_t applyPaddedSharedPadding(ttg::PaddedSharedEncodingAttr padded,
                                 int64_t offset) {
  int64_t result = offset;
  for (auto [interval, padding] :
       llvm::zip(padded.getIntervals(), padded.getPaddings()))
    if (interval != 0)
      result += (offset / interval) * padding;
  return result;
}

} // namespace mlir::triton_musa
