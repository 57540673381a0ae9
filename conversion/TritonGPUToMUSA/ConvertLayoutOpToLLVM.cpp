//===- ConvertLayoutOpToLLVM.cpp - ttg.convert_layout -> LLVM ------------===//
//
// The cheapest correct path, decided from the two linear layouts:
//  - registers only, when every lane and warp keeps its data (mapRegisters):
//    the result registers are a selection of the source registers;
//  - warp shuffles, when data only moves between lanes of a warp and each
//    result register comes from one source register in every lane: with
//    C = invertAndCompose(src, dst) (result register/lane/warp -> source
//    register/lane/warp), C keeps warps, lanes map to lanes only, and
//    register r of lane l reads source register C_reg(r) of lane
//    C_lane(r) ^ C_lane(l) with one indexed shuffle;
//  - otherwise through shared memory: each owner thread writes its distinct
//    elements to the op's scratch buffer, a barrier, then every thread reads
//    the elements its result layout needs. The scratch layout is planned
//    from both layouts (planScratchLayout): the register bases the two
//    layouts share become the lowest offset bits (one vector access per
//    thread), and the higher offset bits are chosen so that the lanes of
//    one access, on either side, fall into distinct banks where the layouts
//    allow it: a transpose's row-wise writes and column-wise reads are both
//    conflict-free.
// Future work: shuffles whose source register depends on the lane (a
// select after several shuffles).
//
//===----------------------------------------------------------------------===//

#include "conversion/TritonGPUToMUSA/LayoutIndices.h"
#include "conversion/TritonGPUToMUSA/PatternTritonGPUOpToLLVM.h"
#include "conversion/TritonGPUToMUSA/PredicatedRegion.h"
#include "conversion/TritonGPUToMUSA/ReduceScanCommon.h"
#include "target/Scratch.h"
#include "conversion/TritonGPUToMUSA/SharedMemory.h"
#include "conversion/TritonGPUToMUSA/Utility.h"

#include "dialects/TritonGPU/IR/Dialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "llvm/Support/MathExtras.h"
#include "layouts/SharedBuffers.h"

#include <limits>
#include <map>

using namespace mlir;
using namespace mlir::triton_musa;
using mlir::triton_musa::LinearLayout;
namespace ttg = mlir::triton::gpu;

namespace {

/// How a conversion moves data.
enum class ConvertPath { Registers, WarpShuffle, SharedMemory };

struct ConvertPlan {
  ConvertPath path;
  LinearLayout src;
  LinearLayout dst;
  /// For Registers and WarpShuffle: the source register of each result
  /// register.
  SmallVector<unsigned> registers;
  /// For WarpShuffle: result (register, lane, warp, block) -> source ones.
  LinearLayout toSource;
};

/// Coordinates of input bit `bit` of `name` in `layout`, as a map from
/// output dimension name to value.
std::map<std::string, int32_t> imageOf(const LinearLayout &layout,
                                       StringRef name, int32_t bit) {
  SmallVector<int32_t> coords = applyLayout(layout, {{name.str(), bit}});
  std::map<std::string, int32_t> result;
  for (auto [i, out] : llvm::enumerate(layout.getOutDimNames()))
    result[out] = coords[i];
  return result;
}

/// The map C of a shuffle-only conversion (see the file header), if the
/// conversion is one.
std::optional<LinearLayout> getShuffleMap(const LinearLayout &src,
                                          const LinearLayout &dst) {
  llvm::Expected<LinearLayout> c = mlir::triton_musa::invertAndCompose(src, dst);
  if (!c) {
    llvm::consumeError(c.takeError());
    return std::nullopt;
  }
  if (c->getInDimSize(kWarp) != c->getOutDimSize(kWarp) ||
      c->getInDimSize(kBlock) != 1)
    return std::nullopt;
  for (int32_t i = 0; i < c->getInDimSizeLog2(kWarp); ++i) {
    auto image = imageOf(*c, kWarp, int32_t(1) << i);
    if (image[kWarp] != (int32_t(1) << i) || image[kRegister] ||
        image[kLane] || image[kBlock])
      return std::nullopt;
  }
  for (int32_t i = 0; i < c->getInDimSizeLog2(kLane); ++i) {
    auto image = imageOf(*c, kLane, int32_t(1) << i);
    if (image[kRegister] || image[kWarp] || image[kBlock])
      return std::nullopt;
  }
  for (int32_t i = 0; i < c->getInDimSizeLog2(kRegister); ++i) {
    auto image = imageOf(*c, kRegister, int32_t(1) << i);
    if (image[kWarp] || image[kBlock])
      return std::nullopt;
  }
  return std::move(*c);
}

FailureOr<ConvertPlan> planConversion(ttg::ConvertLayoutOp op) {
  auto emitError = [&] { return op.emitError(); };
  auto srcType = cast<RankedTensorType>(op.getSrc().getType());
  auto dstType = cast<RankedTensorType>(op.getType());
  auto src = getLinearLayout(srcType, emitError);
  auto dst = getLinearLayout(dstType, emitError);
  if (failed(src) || failed(dst))
    return failure();
  auto identity = [](ArrayRef<int32_t> coords) {
    return SmallVector<int32_t>(coords);
  };
  FailureOr<SmallVector<unsigned>> registers =
      mapRegisters(*src, *dst, identity);
  if (succeeded(registers))
    return ConvertPlan{ConvertPath::Registers, std::move(*src),
                       std::move(*dst), std::move(*registers), {}};
  if (std::optional<LinearLayout> c = getShuffleMap(*src, *dst)) {
    SmallVector<unsigned> sources;
    for (int32_t r = 0; r < dst->getInDimSize(kRegister); ++r)
      sources.push_back(imageOf(*c, kRegister, r)[kRegister]);
    return ConvertPlan{ConvertPath::WarpShuffle, std::move(*src),
                       std::move(*dst), std::move(sources), std::move(*c)};
  }
  return ConvertPlan{ConvertPath::SharedMemory, std::move(*src),
                     std::move(*dst), {}, {}};
}

//===----------------------------------------------------------------------===//
// The scratch layout of the shared-memory path
//===----------------------------------------------------------------------===//

/// Shared memory as the planner models it: 32 banks of 4 bytes, one
/// 128-byte bank row per wavefront; a warp access of B bytes per lane is
/// served in phases of min(32, 128 / B) consecutive lanes; vector accesses
/// up to 16 bytes.
constexpr unsigned kBankRowBytes = 128;
constexpr unsigned kMaxVectorBytes = 16;
constexpr unsigned kMaxPhaseLanes = 32;

/// A bijective scratch layout and the registers of one vector access.
struct ScratchLayout {
  /// kOffset -> tensor dimensions.
  LinearLayout layout;
  /// Register bits of the source / result layout whose elements fill offset
  /// bits 0, 1, ... of one vector access (the same tensor vectors on both
  /// sides); empty for scalar accesses.
  SmallVector<int32_t> srcVector, dstVector;
};

/// Images of each bit of `inDim` as row-major flat tensor indices.
SmallVector<uint64_t> getFlatImages(const LinearLayout &layout,
                                    StringRef inDim) {
  SmallVector<uint64_t> images;
  unsigned rank = layout.getNumOutDims();
  for (int32_t i = 0, e = layout.getInDimSizeLog2(inDim); i < e; ++i)
    images.push_back(packAcross(
        layout, applyLayout(layout, {{inDim.str(), int32_t(1) << i}}), rank));
  return images;
}

unsigned getRank(ArrayRef<uint64_t> vectors) {
  return extendBasis({}, vectors).size();
}

/// dim(span(a) ∩ span(b)) over GF(2).
unsigned getIntersectionRank(ArrayRef<uint64_t> a, ArrayRef<uint64_t> b) {
  SmallVector<uint64_t> both(a);
  llvm::append_range(both, b);
  return getRank(a) + getRank(b) - getRank(both);
}

SmallVector<uint64_t> concat(ArrayRef<uint64_t> a, ArrayRef<uint64_t> b) {
  SmallVector<uint64_t> result(a);
  llvm::append_range(result, b);
  return result;
}

/// One side of the conversion as the planner sees it.
struct AccessSide {
  SmallVector<uint64_t> regs, lanes, warps;
  int32_t freeRegs = 0;

  explicit AccessSide(const LinearLayout &layout)
      : regs(getFlatImages(layout, kRegister)),
        lanes(getFlatImages(layout, kLane)),
        warps(getFlatImages(layout, kWarp)),
        freeRegs(getDuplicateRegisterMask(layout)) {}

  /// Tensor vectors that must not touch the vector's offset bits: every
  /// register but the vector's and the duplicates, every lane and warp.
  void appendOthers(ArrayRef<int32_t> vectorBits,
                    SmallVectorImpl<uint64_t> &out) const {
    for (auto [i, image] : llvm::enumerate(regs))
      if (!(freeRegs & (1 << i)) && !llvm::is_contained(vectorBits, int32_t(i)))
        out.push_back(image);
    llvm::append_range(out, lanes);
    llvm::append_range(out, warps);
  }

  /// The lane vectors of one phase of an access of `accessBytes` per lane.
  SmallVector<uint64_t> phaseLanes(unsigned accessBytes) const {
    unsigned lanesPerPhase =
        std::min(kMaxPhaseLanes, kBankRowBytes / accessBytes);
    unsigned bits = std::min<unsigned>(llvm::Log2_32(lanesPerPhase),
                                       lanes.size());
    SmallVector<uint64_t> result;
    for (uint64_t image : ArrayRef<uint64_t>(lanes).take_front(bits))
      if (image)
        result.push_back(image);
    return result;
  }
};

/// The scratch layout with the vector `vector` (pairs of source and result
/// register bits with the same image) at its lowest offset bits, if every
/// other basis of both sides can avoid those bits. Offset bits, low to high:
/// the vector, the bank bits (one 128-byte bank row), the segment bits. Two
/// lanes of one phase conflict iff they differ by a nonzero vector of
/// span(segment), so the segment is grown greedily from the vectors that
/// add the fewest such lane pairs: unit vectors that neither side's phase
/// lanes span, then sums of a source lane and a result lane (each side sees
/// a bank bit flip where the other sees a row change).
std::optional<ScratchLayout>
tryScratchLayout(const LinearLayout &dstLayout, const AccessSide &src,
                 const AccessSide &dst, unsigned elementBytes,
                 ArrayRef<std::pair<int32_t, int32_t>> vector) {
  unsigned n = dstLayout.getTotalOutDimSizeLog2();
  SmallVector<uint64_t> vec;
  SmallVector<int32_t> srcBits, dstBits;
  for (auto [s, d] : vector) {
    vec.push_back(src.regs[s]);
    srcBits.push_back(s);
    dstBits.push_back(d);
  }
  SmallVector<uint64_t> others;
  src.appendOthers(srcBits, others);
  dst.appendOthers(dstBits, others);
  llvm::erase(others, uint64_t(0));
  if (getIntersectionRank(vec, others) != 0)
    return std::nullopt;

  // The bank and segment bits span a complement of the vector holding
  // every other basis, so no thread's vector start has a vector bit set.
  SmallVector<uint64_t> units;
  for (unsigned b = 0; b < n; ++b)
    units.push_back(uint64_t(1) << b);
  SmallVector<uint64_t> complement = extendBasis({}, others);
  llvm::append_range(complement,
                     extendBasis(concat(vec, complement), units));
  auto inComplement = [&](uint64_t v) {
    return extendBasis(complement, {v}).empty();
  };

  unsigned accessBytes = elementBytes << vec.size();
  unsigned bankBits = std::min<unsigned>(
      llvm::Log2_32(kBankRowBytes / accessBytes), n - vec.size());
  unsigned segmentBits = n - vec.size() - bankBits;
  SmallVector<uint64_t> srcPhase = src.phaseLanes(accessBytes);
  SmallVector<uint64_t> dstPhase = dst.phaseLanes(accessBytes);

  SmallVector<uint64_t> candidates(units.rbegin(), units.rend());
  for (uint64_t a : srcPhase)
    for (uint64_t b : dstPhase)
      if (a != b)
        candidates.push_back(a ^ b);
  llvm::append_range(candidates, complement);
  llvm::erase_if(candidates, [&](uint64_t v) { return !inComplement(v); });

  SmallVector<uint64_t> segment;
  while (segment.size() < segmentBits) {
    std::optional<uint64_t> best;
    unsigned bestCost = std::numeric_limits<unsigned>::max();
    for (uint64_t c : candidates) {
      if (extendBasis(concat(vec, segment), {c}).empty())
        continue;
      SmallVector<uint64_t> grown = concat(segment, {c});
      unsigned cost = getIntersectionRank(grown, srcPhase) +
                      getIntersectionRank(grown, dstPhase);
      if (cost < bestCost) {
        best = c;
        bestCost = cost;
      }
    }
    if (!best)
      return std::nullopt;
    segment.push_back(*best);
  }
  // Bank bits: the lowest unit vectors completing the basis.
  SmallVector<uint64_t> bankCandidates;
  for (uint64_t u : units)
    if (inComplement(u))
      bankCandidates.push_back(u);
  llvm::append_range(bankCandidates, complement);
  SmallVector<uint64_t> bank =
      extendBasis(concat(vec, segment), bankCandidates);
  if (bank.size() != bankBits)
    return std::nullopt;

  // Offset bit -> tensor coordinates (row-major flat index unpacked).
  SmallVector<LinearLayout::DimSize> outDims = dstLayout.getOutDims();
  std::vector<LinearLayout::Basis> bases;
  for (uint64_t flat : concat(concat(vec, bank), segment)) {
    LinearLayout::Basis coords(outDims.size());
    unsigned shift = 0;
    for (int d = int(outDims.size()) - 1; d >= 0; --d) {
      unsigned bits = llvm::Log2_32(outDims[d].second);
      coords[d] = int32_t((flat >> shift) & ((uint64_t(1) << bits) - 1));
      shift += bits;
    }
    bases.push_back(std::move(coords));
  }
  llvm::Expected<LinearLayout> layout =
      LinearLayout::get({{kOffset, std::move(bases)}}, outDims);
  if (!layout) {
    llvm::consumeError(layout.takeError());
    return std::nullopt;
  }
  if (!layout->isInvertible())
    return std::nullopt;
  return ScratchLayout{std::move(*layout), std::move(srcBits),
                       std::move(dstBits)};
}

/// The scratch layout of a shared-memory conversion from `src` to `dst`
/// (see tryScratchLayout): the widest vector both sides can use, at most
/// 16 bytes; scalar accesses when the element type cannot be vectorized.
FailureOr<ScratchLayout>
planScratchLayout(const LinearLayout &src, const LinearLayout &dst,
                  unsigned elementBytes, bool vectorizable,
                  function_ref<InFlightDiagnostic()> emitError) {
  AccessSide srcSide(src), dstSide(dst);
  SmallVector<std::pair<int32_t, int32_t>> shared;
  if (vectorizable) {
    for (auto [s, image] : llvm::enumerate(srcSide.regs)) {
      if (!image || (srcSide.freeRegs & (1 << s)))
        continue;
      for (auto [d, dstImage] : llvm::enumerate(dstSide.regs))
        if (dstImage == image && !(dstSide.freeRegs & (1 << d))) {
          shared.push_back({int32_t(s), int32_t(d)});
          break;
        }
    }
    unsigned maxLog2 = llvm::Log2_32(kMaxVectorBytes / elementBytes);
    if (shared.size() > maxLog2)
      shared.resize(maxLog2);
  }
  for (int k = shared.size(); k >= 0; --k)
    if (std::optional<ScratchLayout> layout = tryScratchLayout(
            dst, srcSide, dstSide, elementBytes,
            ArrayRef<std::pair<int32_t, int32_t>>(shared).take_front(k)))
      return std::move(*layout);
  return emitError() << "no shared-memory scratch layout for the conversion "
                        "from "
                     << src.toString() << " to " << dst.toString();
}

/// The type an element of `llvmElementType` has in memory (i1 -> i8).
Type getScratchMemoryType(Type llvmElementType) {
  if (llvmElementType.isInteger(1))
    return IntegerType::get(llvmElementType.getContext(), 8);
  return llvmElementType;
}

/// Register `r` plus the vector bits of element `i` of its vector.
unsigned getVectorRegister(unsigned r, ArrayRef<int32_t> vectorBits,
                           unsigned i) {
  for (auto [b, bit] : llvm::enumerate(vectorBits))
    if (i & (1u << b))
      r |= 1u << bit;
  return r;
}

/// Pointers to the scratch slots of the current thread's registers `regs`
/// of `layout`: slot = D(lane, warp) ^ C(register) (C, D the parts of
/// S^-1 o layout); the bits of C that D never sets are added as a constant
/// byte offset, so the backend folds them into the access's immediate and
/// only the distinct overlapping parts of C cost an XOR.
FailureOr<DenseMap<unsigned, Value>>
emitScratchPointers(RewriterBase &rewriter, Location loc,
                    const TargetInfo &targetInfo, const SharedBuffer &buffer,
                    const LinearLayout &layout, ArrayRef<unsigned> regs,
                    function_ref<InFlightDiagnostic()> emitError) {
  llvm::Expected<LinearLayout> toSlots =
      mlir::triton_musa::invertAndCompose(buffer.layout, layout);
  if (!toSlots)
    return emitError() << "cannot address the scratch layout "
                       << buffer.layout.toString() << " from registers of "
                       << layout.toString() << ": "
                       << llvm::toString(toSlots.takeError());
  llvm::Expected<LinearLayout> threadPart =
      toSlots->sublayout({kLane, kWarp, kBlock}, {kOffset});
  if (!threadPart)
    return emitError() << llvm::toString(threadPart.takeError());
  Value dynamic = emitIndices(rewriter, loc, targetInfo, *threadPart)[0][0];
  int32_t dynamicBits = 0;
  for (StringRef dim : {kLane, kWarp})
    for (int32_t i = 0, e = toSlots->getInDimSizeLog2(dim); i < e; ++i)
      dynamicBits |= applyLayout(*toSlots, {{dim.str(), int32_t(1) << i}})[0];
  unsigned elementBytes = getSharedElementBytes(buffer.elementType);
  Value bytes = i32Const(rewriter, loc, elementBytes);
  DenseMap<int32_t, Value> bases;
  DenseMap<unsigned, Value> pointers;
  for (unsigned r : regs) {
    int32_t slot = applyLayout(*toSlots, {{kRegister, int32_t(r)}})[0];
    int32_t overlap = slot & dynamicBits;
    Value &base = bases[overlap];
    if (!base) {
      Value swizzled = overlap ? LLVM::XOrOp::create(rewriter, loc, dynamic,
                                                     i32Const(rewriter, loc,
                                                              overlap))
                                     .getResult()
                               : dynamic;
      base = LLVM::GEPOp::create(
          rewriter, loc, buffer.base.getType(), rewriter.getI8Type(),
          buffer.base,
          ValueRange{LLVM::MulOp::create(rewriter, loc, swizzled, bytes)});
    }
    int64_t constant = int64_t(slot & ~dynamicBits) * elementBytes;
    pointers[r] = constant == 0
                      ? base
                      : LLVM::GEPOp::create(rewriter, loc, base.getType(),
                                            rewriter.getI8Type(), base,
                                            ArrayRef<LLVM::GEPArg>{
                                                int32_t(constant)})
                            .getResult();
  }
  return pointers;
}

/// The scratch accesses of one side of a conversion: one per vector of
/// registers (duplicate registers skipped), each with its pointer, type and
/// alignment.
struct ScratchAccesses {
  SmallVector<unsigned> starts;
  DenseMap<unsigned, Value> pointers;
  Type memoryType;
  Type accessType;
  unsigned width;
  unsigned alignment;
};

FailureOr<ScratchAccesses>
planScratchAccesses(RewriterBase &rewriter, Location loc,
                    const TargetInfo &targetInfo, const SharedBuffer &buffer,
                    const LinearLayout &layout, ArrayRef<int32_t> vectorBits,
                    Type llvmElementType,
                    function_ref<InFlightDiagnostic()> emitError) {
  ScratchAccesses accesses;
  int32_t skipped = getDuplicateRegisterMask(layout);
  for (int32_t bit : vectorBits)
    skipped |= 1 << bit;
  for (unsigned r = 0, e = layout.getInDimSize(kRegister); r < e; ++r)
    if (!(r & skipped))
      accesses.starts.push_back(r);
  FailureOr<DenseMap<unsigned, Value>> pointers = emitScratchPointers(
      rewriter, loc, targetInfo, buffer, layout, accesses.starts, emitError);
  if (failed(pointers))
    return failure();
  accesses.pointers = std::move(*pointers);
  accesses.memoryType = getScratchMemoryType(llvmElementType);
  accesses.width = 1u << vectorBits.size();
  accesses.accessType =
      accesses.width == 1
          ? accesses.memoryType
          : VectorType::get({int64_t(accesses.width)}, accesses.memoryType);
  accesses.alignment =
      getSharedElementBytes(buffer.elementType) * accesses.width;
  return accesses;
}

/// Stores the source registers to the scratch: one access per vector of
/// registers, duplicate registers skipped, by the owner threads only.
LogicalResult storeToScratch(RewriterBase &rewriter, Location loc,
                             const TargetInfo &targetInfo,
                             const SharedBuffer &buffer,
                             const LinearLayout &layout,
                             ArrayRef<int32_t> vectorBits,
                             ArrayRef<Value> values, Type llvmElementType,
                             function_ref<InFlightDiagnostic()> emitError) {
  FailureOr<ScratchAccesses> accesses =
      planScratchAccesses(rewriter, loc, targetInfo, buffer, layout,
                          vectorBits, llvmElementType, emitError);
  if (failed(accesses))
    return failure();
  ArrayRef<unsigned> starts = accesses->starts;
  const DenseMap<unsigned, Value> &pointers = accesses->pointers;
  Type memoryType = accesses->memoryType, accessType = accesses->accessType;
  unsigned width = accesses->width, alignment = accesses->alignment;
  SmallVector<std::pair<Value, Value>> stores;
  for (unsigned r : starts) {
    Value packed;
    if (width > 1)
      packed = LLVM::PoisonOp::create(rewriter, loc, accessType);
    for (unsigned i = 0; i < width; ++i) {
      Value value = values[getVectorRegister(r, vectorBits, i)];
      if (memoryType != llvmElementType)
        value = LLVM::ZExtOp::create(rewriter, loc, memoryType, value);
      packed = width == 1 ? value
                          : LLVM::InsertElementOp::create(
                                rewriter, loc, packed, value,
                                i32Const(rewriter, loc, i))
                                .getResult();
    }
    stores.push_back({packed, pointers.lookup(r)});
  }
  auto emitStores = [&]() -> Value {
    for (auto [value, ptr] : stores)
      LLVM::StoreOp::create(rewriter, loc, value, ptr, alignment);
    return Value();
  };
  emitIfThen(rewriter, loc,
             emitOwnerPredicate(rewriter, loc, targetInfo, layout), emitStores,
             Value());
  return success();
}

/// Loads the result registers from the scratch, one access per vector;
/// duplicate registers take the value of the register holding the same
/// element.
FailureOr<SmallVector<Value>>
loadFromScratch(RewriterBase &rewriter, Location loc,
                const TargetInfo &targetInfo, const SharedBuffer &buffer,
                const LinearLayout &layout, ArrayRef<int32_t> vectorBits,
                Type llvmElementType,
                function_ref<InFlightDiagnostic()> emitError) {
  int32_t duplicates = getDuplicateRegisterMask(layout);
  FailureOr<ScratchAccesses> accesses =
      planScratchAccesses(rewriter, loc, targetInfo, buffer, layout,
                          vectorBits, llvmElementType, emitError);
  if (failed(accesses))
    return failure();
  ArrayRef<unsigned> starts = accesses->starts;
  const DenseMap<unsigned, Value> &pointers = accesses->pointers;
  Type memoryType = accesses->memoryType, accessType = accesses->accessType;
  unsigned width = accesses->width, alignment = accesses->alignment;
  SmallVector<Value> values(layout.getInDimSize(kRegister));
  for (unsigned r : starts) {
    Value loaded = LLVM::LoadOp::create(rewriter, loc, accessType,
                                        pointers.lookup(r), alignment);
    for (unsigned i = 0; i < width; ++i) {
      Value value = width == 1 ? loaded
                               : LLVM::ExtractElementOp::create(
                                     rewriter, loc, loaded,
                                     i32Const(rewriter, loc, i))
                                     .getResult();
      if (memoryType != llvmElementType)
        value = LLVM::TruncOp::create(rewriter, loc, llvmElementType, value);
      values[getVectorRegister(r, vectorBits, i)] = value;
    }
  }
  if (duplicates) {
    // A duplicate register's element is held by a lower, loaded register.
    std::map<SmallVector<int32_t>, Value> byCoords;
    for (auto [r, value] : llvm::enumerate(values))
      if (!(r & duplicates))
        byCoords.try_emplace(applyLayout(layout, {{kRegister, int32_t(r)}}),
                             value);
    for (auto [r, value] : llvm::enumerate(values))
      if (r & duplicates)
        value = byCoords.at(applyLayout(layout, {{kRegister, int32_t(r)}}));
  }
  return values;
}

/// Integers and floats travel in vectors; pointers one by one.
bool isVectorizable(Type llvmElementType) {
  return llvmElementType.isIntOrFloat();
}

/// Lowers ttg.convert_layout by a register selection or through scratch
/// shared memory (see the file header).
struct ConvertLayoutOpConversion : public MUSAPattern<ttg::ConvertLayoutOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(ttg::ConvertLayoutOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto emitError = [&] { return op.emitError(); };
    auto dstType = cast<RankedTensorType>(op.getType());
    Type structType = getTypeConverter()->convertType(dstType);
    Type elementType =
        getTypeConverter()->convertType(dstType.getElementType());
    if (!structType || !elementType)
      return failure();
    FailureOr<ConvertPlan> plan = planConversion(op);
    if (failed(plan))
      return failure();
    SmallVector<Value> srcValues =
        unpackLLElements(rewriter, loc, adaptor.getSrc());

    if (plan->path == ConvertPath::Registers) {
      SmallVector<Value> values;
      for (unsigned r : plan->registers)
        values.push_back(srcValues[r]);
      rewriter.replaceOp(op,
                         packLLElements(rewriter, loc, values, structType));
      return success();
    }

    if (plan->path == ConvertPath::WarpShuffle) {
      // The source lane of each result register: C's kLane output.
      SmallVector<SmallVector<Value>> sources =
          emitIndices(rewriter, loc, targetInfo, plan->toSource);
      int laneDim = -1;
      for (auto [i, name] : llvm::enumerate(plan->toSource.getOutDimNames()))
        if (name == kLane)
          laneDim = i;
      SmallVector<Value> values;
      for (auto [r, srcRegister] : llvm::enumerate(plan->registers)) {
        Value lane = laneDim < 0 ? i32Const(rewriter, loc, 0)
                                 : sources[r][laneDim];
        values.push_back(emitShuffleIdx(rewriter, loc, srcValues[srcRegister],
                                        lane));
      }
      rewriter.replaceOp(op,
                         packLLElements(rewriter, loc, values, structType));
      return success();
    }

    FailureOr<Value> base = getScratchPointer(rewriter, loc, op, targetInfo);
    if (failed(base))
      return failure();
    FailureOr<ScratchLayout> scratch = planScratchLayout(
        plan->src, plan->dst, getSharedElementBytes(dstType.getElementType()),
        isVectorizable(elementType), emitError);
    if (failed(scratch))
      return failure();
    SharedBuffer buffer{*base, std::move(scratch->layout),
                        dstType.getElementType()};
    if (failed(storeToScratch(rewriter, loc, targetInfo, buffer, plan->src,
                              scratch->srcVector, srcValues, elementType,
                              emitError)))
      return failure();
    targetInfo.sharedMemoryBarrier(rewriter, loc);
    FailureOr<SmallVector<Value>> values =
        loadFromScratch(rewriter, loc, targetInfo, buffer, plan->dst,
                        scratch->dstVector, elementType, emitError);
    if (failed(values))
      return failure();
    rewriter.replaceOp(op, packLLElements(rewriter, loc, *values, structType));
    return success();
  }

private:
  /// Reads `value` of lane `lane`: as an i32 (or i64) through the target's
  /// indexed shuffle, whatever the element type.
  Value emitShuffleIdx(ConversionPatternRewriter &rewriter, Location loc,
                       Value value, Value lane) const {
    Type type = value.getType();
    if (isa<LLVM::LLVMPointerType>(type)) {
      Value bits = LLVM::PtrToIntOp::create(rewriter, loc,
                                            rewriter.getI64Type(), value);
      Value moved = targetInfo.shuffleIdx(rewriter, loc, bits, lane);
      return LLVM::IntToPtrOp::create(rewriter, loc, type, moved);
    }
    unsigned width = type.getIntOrFloatBitWidth();
    if (width == 32 || width == 64)
      return targetInfo.shuffleIdx(rewriter, loc, value, lane);
    // Narrow values travel zero-extended in an i32.
    Type narrow = rewriter.getIntegerType(width);
    Value bits = value;
    if (!type.isInteger(width))
      bits = LLVM::BitcastOp::create(rewriter, loc, narrow, value);
    bits = LLVM::ZExtOp::create(rewriter, loc, rewriter.getI32Type(), bits);
    Value moved = targetInfo.shuffleIdx(rewriter, loc, bits, lane);
    moved = LLVM::TruncOp::create(rewriter, loc, narrow, moved);
    if (!type.isInteger(width))
      moved = LLVM::BitcastOp::create(rewriter, loc, type, moved);
    return moved;
  }
};

} // namespace

FailureOr<unsigned>
mlir::triton_musa::getConvertLayoutScratchBytes(Operation *op,
                                                const TargetInfo &targetInfo) {
  auto convert = cast<ttg::ConvertLayoutOp>(op);
  FailureOr<ConvertPlan> plan = planConversion(convert);
  if (failed(plan))
    return failure();
  if (plan->path != ConvertPath::SharedMemory)
    return 0u;
  auto type = cast<RankedTensorType>(convert.getType());
  return unsigned(type.getNumElements() *
                  getSharedElementBytes(type.getElementType()));
}

void mlir::triton_musa::populateConvertLayoutOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo) {
  patterns.add<ConvertLayoutOpConversion>(typeConverter, targetInfo);
}
