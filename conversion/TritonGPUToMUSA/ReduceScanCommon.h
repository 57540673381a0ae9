//===- ReduceScanCommon.h - Shared by tt.reduce/tt.scan/tt.gather -*- C++ -*-===//
//
// Helpers of the lowerings that combine elements along one axis of a
// distributed tensor: GF(2) analysis of which register/lane/warp bits of a
// linear layout move along the axis, application of a combine region to
// converted scalars, and typed access to a scratch buffer in shared memory.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_REDUCESCANCOMMON_H
#define TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_REDUCESCANCOMMON_H

#include "conversion/TritonGPUToMUSA/TypeConverter.h"

#include "layouts/LinearLayout.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Region.h"
#include "mlir/Transforms/DialectConversion.h"

#include <cstdint>

namespace mlir::triton_musa {

/// Coordinates of one input bit of a distributed linear layout, packed into
/// one integer (dimension 0 most significant, each dimension on log2(size)
/// bits), split into the part along `axis` and the part across it.
struct AxisSplitBasis {
  /// The coordinate along the axis.
  int32_t axis = 0;
  /// The other coordinates, packed (0 when the bit stays in one row).
  uint64_t across = 0;
};

/// The bases of input dimension `inDim` (kRegister, kLane, kWarp) of
/// `layout`, split along `axis`.
SmallVector<AxisSplitBasis>
getAxisSplitBases(const mlir::triton_musa::LinearLayout &layout, StringRef inDim,
                  unsigned axis);

/// Packs the coordinates of `coords` other than `axis` (see AxisSplitBasis).
uint64_t packAcross(const mlir::triton_musa::LinearLayout &layout,
                    ArrayRef<int32_t> coords, unsigned axis);

/// A basis (as bit masks over the input bits) of the inputs whose image
/// under the linear map given by `images` (one packed image per input bit)
/// is 0.
SmallVector<uint64_t> getKernelBasis(ArrayRef<uint64_t> images);

/// Vectors of `candidates` that extend the span of `base` (each kept vector
/// is independent of `base` and of the vectors kept before it).
SmallVector<uint64_t> extendBasis(ArrayRef<uint64_t> base,
                                  ArrayRef<uint64_t> candidates);

/// Bits that pick one representative in each coset of span(`basis`) (bit
/// masks over an id's bits): the ids with all of them clear meet every coset
/// exactly once (the pivot bits of the basis in reduced echelon form).
uint64_t getCosetPivotMask(ArrayRef<uint64_t> basis);

/// The element types of the operands of a tt.reduce / tt.scan (`srcs`).
SmallVector<Type> getElementTypes(ValueRange srcs);

/// The operands of a tt.reduce / tt.scan register by register:
/// result[r][k] is operand k's value in register r.
SmallVector<SmallVector<Value>> unpackByRegister(OpBuilder &b, Location loc,
                                                 ValueRange convertedSrcs);

/// Applies the combine region of tt.reduce/tt.scan to `lhs` (accumulated
/// values) and `rhs` (new values): clones the region's ops on the converted
/// scalars, which the conversion then legalizes like any other scalar op.
SmallVector<Value> emitCombine(ConversionPatternRewriter &rewriter,
                               Region &combine, ValueRange lhs,
                               ValueRange rhs);

/// Fails (naming the op and type) unless every operand type's element is an
/// integer or float that shared memory and shuffles can carry.
LogicalResult checkScalarElementTypes(Operation *op, TypeRange types);

/// Bytes one element of `type` takes in shared memory (i1 takes a byte).

/// Bytes of `count` elements of each of `elementTypes`, one region after
/// the other, each region aligned to 16 bytes.
unsigned getStackedRegionBytes(TypeRange elementTypes, uint64_t count);

/// Start of region `index` of the buffer at `base` laid out as in
/// getStackedRegionBytes.
Value getStackedRegion(OpBuilder &b, Location loc, Value base,
                       TypeRange elementTypes, uint64_t count, unsigned index);

/// Per operand, the start of its region in the scratch buffer of `op` laid
/// out as in getStackedRegionBytes (`count` elements of each type).
FailureOr<SmallVector<Value>>
getStackedScratchRegions(OpBuilder &b, Location loc, Operation *op,
                         const TargetInfo &target, TypeRange elementTypes,
                         uint64_t count);

/// Stores `value` at element `index` (i32) of a shared buffer of `value`'s
/// type at `base`.
void storeShared(OpBuilder &b, Location loc, Value base, Value index,
                 Value value);

/// Loads the element `index` (i32) of type `type` from a shared buffer at
/// `base`.
Value loadShared(OpBuilder &b, Location loc, Value base, Value index,
                 Type type);

/// Row-major linear index (i32) of `coords` in a tensor of `shape`.
Value linearizeIndex(OpBuilder &b, Location loc, ArrayRef<Value> coords,
                     ArrayRef<int64_t> shape);

/// XOR over the set bits i of `id` of `coefficients[i]`, i32 (a GF(2)-linear
/// function of a lane or warp id).
Value emitLinearFunction(OpBuilder &b, Location loc, Value id,
                         ArrayRef<int32_t> coefficients);

} // namespace mlir::triton_musa

#endif // TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_REDUCESCANCOMMON_H
