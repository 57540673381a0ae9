//===- FloatConversion.h - Exact float format conversions ------*- C++ -*-===//
//
// Conversions between float formats written as integer bit manipulation, so
// that they are exact (correctly rounded) whatever the hardware does with
// fp8, bf16 or denormals. Used by tt.fp_to_fp and by tt.dot operands that
// must be widened to the accumulator type. Defined in
// FloatConversion.cpp.
//
// Formats: f64, f32, f16, bf16 (IEEE, with infinities), f8E5M2 (IEEE-like),
// f8E4M3FN (no infinity, NaN = S.1111.111), and the "FNUZ" formats
// f8E4M3FNUZ, f8E5M2FNUZ, f8E4M3B11FNUZ (no infinity, no -0, NaN = 0x80).
// An fp8 value is an i8 after type conversion.
//
// Narrowing follows IEEE rounding (rtne or rtz) on the exact source value.
// Overflow: formats with infinities give +-inf under rtne and the largest
// finite value under rtz (source infinities stay infinite); formats without
// infinities saturate to the largest finite value (also for source
// infinities), like the satfinite conversions Triton's NVIDIA backend uses
// for fp8e4nv. NaN gives the destination's canonical NaN.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_FLOATCONVERSION_H
#define TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_FLOATCONVERSION_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::triton_musa {

/// Whether `type` is a float format the conversions below handle.
bool isSupportedFloatFormat(Type type);

/// Converts `value` (the LLVM value of an element of type `srcType`: an
/// integer for fp8 formats) to `dstType` (returned as its LLVM value). `rtz`
/// selects round-toward-zero instead of round-to-nearest-even where the
/// conversion narrows; widening is exact.
Value emitFloatConversion(OpBuilder &b, Location loc, Value value,
                          FloatType srcType, FloatType dstType, bool rtz);

} // namespace mlir::triton_musa

#endif // TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_FLOATCONVERSION_H
