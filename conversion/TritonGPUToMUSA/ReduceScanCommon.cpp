//===- ReduceScanCommon.cpp - Shared by tt.reduce/tt.scan/tt.gather ------===//

#include "conversion/TritonGPUToMUSA/ReduceScanCommon.h"

#include "conversion/TritonGPUToMUSA/LayoutIndices.h"
#include "target/Scratch.h"
#include "conversion/TritonGPUToMUSA/Utility.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/MathExtras.h"
#include "layouts/SharedBuffers.h"

using namespace mlir;
using namespace mlir::triton_musa;
using mlir::triton_musa::LinearLayout;

uint64_t mlir::triton_musa::packAcross(const LinearLayout &layout,
                                       ArrayRef<int32_t> coords,
                                       unsigned axis) {
  uint64_t packed = 0;
  for (auto [d, dim] : llvm::enumerate(layout.getOutDims())) {
    unsigned bits = layout.getOutDimSizeLog2(dim.first);
    packed <<= bits;
    if (d != axis)
      packed |= uint64_t(uint32_t(coords[d]));
  }
  return packed;
}

SmallVector<AxisSplitBasis>
mlir::triton_musa::getAxisSplitBases(const LinearLayout &layout,
                                     StringRef inDim, unsigned axis) {
  SmallVector<AxisSplitBasis> result;
  unsigned numBits = layout.getInDimSizeLog2(inDim);
  for (unsigned i = 0; i < numBits; ++i) {
    SmallVector<int32_t> c =
        applyLayout(layout, {{inDim.str(), int32_t(1) << i}});
    result.push_back({c[axis], packAcross(layout, c, axis)});
  }
  return result;
}

SmallVector<uint64_t>
mlir::triton_musa::getKernelBasis(ArrayRef<uint64_t> images) {
  // Gaussian elimination keeping, for each pivot row, which inputs make it.
  SmallVector<std::pair<uint64_t, uint64_t>> pivots; // (image, inputs)
  SmallVector<uint64_t> kernel;
  for (auto [i, image] : llvm::enumerate(images)) {
    uint64_t value = image, inputs = uint64_t(1) << i;
    for (auto [pivotImage, pivotInputs] : pivots)
      if (value & (uint64_t(1) << llvm::Log2_64(pivotImage))) {
        value ^= pivotImage;
        inputs ^= pivotInputs;
      }
    if (value == 0) {
      kernel.push_back(inputs);
      continue;
    }
    // Keep pivots reduced on their leading bits.
    uint64_t lead = uint64_t(1) << llvm::Log2_64(value);
    for (auto &[pivotImage, pivotInputs] : pivots)
      if (pivotImage & lead) {
        pivotImage ^= value;
        pivotInputs ^= inputs;
      }
    pivots.push_back({value, inputs});
  }
  return kernel;
}

SmallVector<uint64_t>
mlir::triton_musa::extendBasis(ArrayRef<uint64_t> base,
                               ArrayRef<uint64_t> candidates) {
  SmallVector<uint64_t> pivots;
  auto reduce = [&](uint64_t v) {
    for (uint64_t p : pivots)
      if (v & (uint64_t(1) << llvm::Log2_64(p)))
        v ^= p;
    return v;
  };
  auto add = [&](uint64_t v) {
    uint64_t lead = uint64_t(1) << llvm::Log2_64(v);
    for (uint64_t &p : pivots)
      if (p & lead)
        p ^= v;
    pivots.push_back(v);
  };
  for (uint64_t v : base)
    if (uint64_t r = reduce(v))
      add(r);
  SmallVector<uint64_t> kept;
  for (uint64_t v : candidates)
    if (uint64_t r = reduce(v)) {
      add(r);
      kept.push_back(v);
    }
  return kept;
}

uint64_t mlir::triton_musa::getCosetPivotMask(ArrayRef<uint64_t> basis) {
  // Reduced echelon form on each row's lowest bit: a pivot bit is set in
  // its own row only, so clearing an id's pivot bits by XORing rows stays
  // in its coset and ends at the one id with none of them set.
  SmallVector<std::pair<unsigned, uint64_t>> rows;
  for (uint64_t v : basis) {
    for (auto [pivot, row] : rows)
      if (v & (uint64_t(1) << pivot))
        v ^= row;
    if (!v)
      continue;
    unsigned pivot = llvm::countr_zero(v);
    for (auto &[otherPivot, row] : rows)
      if (row & (uint64_t(1) << pivot))
        row ^= v;
    rows.push_back({pivot, v});
  }
  uint64_t mask = 0;
  for (auto [pivot, row] : rows)
    mask |= uint64_t(1) << pivot;
  return mask;
}

SmallVector<Value> mlir::triton_musa::emitCombine(
    ConversionPatternRewriter &rewriter, Region &combine, ValueRange lhs,
    ValueRange rhs) {
  Block &block = combine.front();
  IRMapping mapping;
  unsigned n = lhs.size();
  for (unsigned i = 0; i < n; ++i) {
    mapping.map(block.getArgument(i), lhs[i]);
    mapping.map(block.getArgument(n + i), rhs[i]);
  }
  for (Operation &op : block.without_terminator())
    rewriter.clone(op, mapping);
  SmallVector<Value> results;
  for (Value v : block.getTerminator()->getOperands())
    results.push_back(mapping.lookupOrDefault(v));
  return results;
}

LogicalResult mlir::triton_musa::checkScalarElementTypes(Operation *op,
                                                         TypeRange types) {
  for (Type type : types) {
    Type element = getElementTypeOrSelf(type);
    if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() > 64)
      return op->emitError()
             << "'" << op->getName() << "' on " << element
             << " elements is not supported by --convert-tritongpu-to-musa "
                "yet";
  }
  return success();
}

unsigned mlir::triton_musa::getStackedRegionBytes(TypeRange elementTypes,
                                                  uint64_t count) {
  uint64_t bytes = 0;
  for (Type type : elementTypes)
    bytes += llvm::alignTo(count * getSharedElementBytes(type), 16);
  return unsigned(bytes);
}

Value mlir::triton_musa::getStackedRegion(OpBuilder &b, Location loc,
                                          Value base, TypeRange elementTypes,
                                          uint64_t count, unsigned index) {
  unsigned offset = getStackedRegionBytes(elementTypes.take_front(index), count);
  if (offset == 0)
    return base;
  return LLVM::GEPOp::create(b, loc, base.getType(), b.getI8Type(), base,
                             ValueRange{i32Const(b, loc, offset)});
}

FailureOr<SmallVector<Value>> mlir::triton_musa::getStackedScratchRegions(
    OpBuilder &b, Location loc, Operation *op, const TargetInfo &target,
    TypeRange elementTypes, uint64_t count) {
  FailureOr<Value> base = getScratchPointer(b, loc, op, target);
  if (failed(base))
    return failure();
  SmallVector<Value> regions;
  for (unsigned k = 0, e = elementTypes.size(); k < e; ++k)
    regions.push_back(
        getStackedRegion(b, loc, *base, elementTypes, count, k));
  return regions;
}

namespace {
/// The type an element of `type` has in shared memory (i1 is a byte).
Type getSharedStorageType(OpBuilder &b, Type type) {
  if (type.isInteger(1))
    return b.getI8Type();
  return type;
}
} // namespace

void mlir::triton_musa::storeShared(OpBuilder &b, Location loc, Value base,
                                    Value index, Value value) {
  Type storage = getSharedStorageType(b, value.getType());
  if (storage != value.getType())
    value = LLVM::ZExtOp::create(b, loc, storage, value);
  Value ptr = LLVM::GEPOp::create(b, loc, base.getType(), storage, base,
                                  ValueRange{index});
  LLVM::StoreOp::create(b, loc, value, ptr);
}

Value mlir::triton_musa::loadShared(OpBuilder &b, Location loc, Value base,
                                    Value index, Type type) {
  Type storage = getSharedStorageType(b, type);
  Value ptr = LLVM::GEPOp::create(b, loc, base.getType(), storage, base,
                                  ValueRange{index});
  Value value = LLVM::LoadOp::create(b, loc, storage, ptr);
  if (storage != type)
    value = LLVM::TruncOp::create(b, loc, type, value);
  return value;
}

Value mlir::triton_musa::linearizeIndex(OpBuilder &b, Location loc,
                                        ArrayRef<Value> coords,
                                        ArrayRef<int64_t> shape) {
  Value index;
  int64_t stride = 1;
  for (int d = int(shape.size()) - 1; d >= 0; --d) {
    if (shape[d] > 1) {
      Value term = coords[d];
      if (stride != 1)
        term = LLVM::MulOp::create(b, loc, term, i32Const(b, loc, stride));
      index = index ? LLVM::AddOp::create(b, loc, index, term).getResult()
                    : term;
    }
    stride *= shape[d];
  }
  return index ? index : i32Const(b, loc, 0);
}

Value mlir::triton_musa::emitLinearFunction(OpBuilder &b, Location loc,
                                            Value id,
                                            ArrayRef<int32_t> coefficients) {
  // Common case: bit i goes to bit i - shift for one shift, i.e. a mask
  // and a shift.
  int32_t mask = 0;
  std::optional<int> shift;
  bool shifted = true;
  for (auto [i, c] : llvm::enumerate(coefficients)) {
    if (c == 0)
      continue;
    int s = int(i) - int(llvm::Log2_32(c));
    if (!llvm::isPowerOf2_32(c) || (shift && *shift != s))
      shifted = false;
    shift = s;
    mask |= 1 << i;
  }
  if (!shift)
    return i32Const(b, loc, 0);
  if (shifted) {
    Value v = LLVM::AndOp::create(b, loc, id, i32Const(b, loc, mask));
    if (*shift > 0)
      return LLVM::LShrOp::create(b, loc, v, i32Const(b, loc, *shift));
    if (*shift < 0)
      return LLVM::ShlOp::create(b, loc, v, i32Const(b, loc, -*shift));
    return v;
  }
  Value result;
  for (auto [i, c] : llvm::enumerate(coefficients)) {
    if (c == 0)
      continue;
    Value bit = LLVM::AndOp::create(
        b, loc, LLVM::LShrOp::create(b, loc, id, i32Const(b, loc, i)),
        i32Const(b, loc, 1));
    Value term = c == 1 ? bit
                        : LLVM::MulOp::create(b, loc, bit, i32Const(b, loc, c))
                              .getResult();
    result = result ? LLVM::XOrOp::create(b, loc, result, term).getResult()
                    : term;
  }
  return result ? result : i32Const(b, loc, 0);
}

SmallVector<Type> mlir::triton_musa::getElementTypes(ValueRange srcs) {
  SmallVector<Type> types;
  for (Value src : srcs)
    types.push_back(getElementTypeOrSelf(src.getType()));
  return types;
}

SmallVector<SmallVector<Value>>
mlir::triton_musa::unpackByRegister(OpBuilder &b, Location loc,
                                    ValueRange convertedSrcs) {
  SmallVector<SmallVector<Value>> byRegister;
  for (auto [k, src] : llvm::enumerate(convertedSrcs)) {
    SmallVector<Value> values = unpackLLElements(b, loc, src);
    byRegister.resize(values.size());
    for (auto [r, v] : llvm::enumerate(values))
      byRegister[r].push_back(v);
  }
  return byRegister;
}
