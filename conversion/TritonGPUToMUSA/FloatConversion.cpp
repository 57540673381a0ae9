//===- FloatConversion.cpp - Exact float format conversions ----*- C++ -*-===//
//
// The integer bit manipulation behind FloatConversion.h: every format is
// described by its widths, bias and NaN style; narrower formats are widened
// to f32 exactly, and narrowing rounds on the exact source bits.
//
//===----------------------------------------------------------------------===//

#include "conversion/TritonGPUToMUSA/FloatConversion.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <optional>

using namespace mlir;
using namespace mlir::triton_musa;

namespace {

/// How a format encodes infinities and NaN.
enum class NanStyle {
  IEEE, // all-ones exponent: infinity (mantissa 0) or NaN
  FN,   // no infinity; NaN = S.1111.111 (f8E4M3FN)
  FNUZ, // no infinity, no -0; NaN = 0x80
};

struct FloatFormat {
  unsigned width;    // total bits
  unsigned mantissa; // stored mantissa bits
  unsigned exponent; // exponent bits
  int64_t bias;
  NanStyle style;

  uint64_t signBit() const { return uint64_t(1) << (width - 1); }
  uint64_t mantissaMask() const { return (uint64_t(1) << mantissa) - 1; }
  /// Absolute-value bits of the largest finite value.
  uint64_t maxFinite() const {
    uint64_t allOnes = signBit() - 1;
    switch (style) {
    case NanStyle::IEEE:
      return allOnes - (uint64_t(1) << mantissa); // exponent all-ones minus 1
    case NanStyle::FN:
      return allOnes - 1;
    case NanStyle::FNUZ:
      return allOnes;
    }
    return allOnes;
  }
  /// Absolute-value bits of infinity (IEEE style only).
  uint64_t infinity() const {
    return ((uint64_t(1) << exponent) - 1) << mantissa;
  }
};

std::optional<FloatFormat> getFloatFormat(Type type) {
  if (type.isF64())
    return FloatFormat{64, 52, 11, 1023, NanStyle::IEEE};
  if (type.isF32())
    return FloatFormat{32, 23, 8, 127, NanStyle::IEEE};
  if (type.isF16())
    return FloatFormat{16, 10, 5, 15, NanStyle::IEEE};
  if (type.isBF16())
    return FloatFormat{16, 7, 8, 127, NanStyle::IEEE};
  if (isa<Float8E5M2Type>(type))
    return FloatFormat{8, 2, 5, 15, NanStyle::IEEE};
  if (isa<Float8E4M3FNType>(type))
    return FloatFormat{8, 3, 4, 7, NanStyle::FN};
  if (isa<Float8E4M3FNUZType>(type))
    return FloatFormat{8, 3, 4, 8, NanStyle::FNUZ};
  if (isa<Float8E5M2FNUZType>(type))
    return FloatFormat{8, 2, 5, 16, NanStyle::FNUZ};
  if (isa<Float8E4M3B11FNUZType>(type))
    return FloatFormat{8, 3, 4, 11, NanStyle::FNUZ};
  return std::nullopt;
}

/// Small builder for integer bit manipulation at one width.
struct Bits {
  OpBuilder &b;
  Location loc;
  IntegerType type;

  Value c(uint64_t v) const {
    return LLVM::ConstantOp::create(b, loc, type,
                                    b.getIntegerAttr(type, APInt(type.getWidth(), v, /*isSigned=*/false,
                                                           /*implicitTrunc=*/true)));
  }
  Value andI(Value x, Value y) const { return LLVM::AndOp::create(b, loc, x, y); }
  Value orI(Value x, Value y) const { return LLVM::OrOp::create(b, loc, x, y); }
  Value add(Value x, Value y) const { return LLVM::AddOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) const { return LLVM::SubOp::create(b, loc, x, y); }
  Value shl(Value x, Value y) const { return LLVM::ShlOp::create(b, loc, x, y); }
  Value lshr(Value x, Value y) const { return LLVM::LShrOp::create(b, loc, x, y); }
  Value cmp(LLVM::ICmpPredicate p, Value x, Value y) const {
    return LLVM::ICmpOp::create(b, loc, p, x, y);
  }
  Value select(Value cond, Value x, Value y) const {
    return LLVM::SelectOp::create(b, loc, cond, x, y);
  }
  Value zext(Value x) const { return LLVM::ZExtOp::create(b, loc, type, x); }

  /// `v >> s` rounded: toward zero, or to nearest with ties to even.
  Value roundShift(Value v, Value s, bool rtz) const {
    Value q = lshr(v, s);
    if (rtz)
      return q;
    Value one = c(1);
    Value rem = andI(v, sub(shl(one, s), one));
    Value half = shl(one, sub(s, one));
    Value above = cmp(LLVM::ICmpPredicate::ugt, rem, half);
    Value isHalf = cmp(LLVM::ICmpPredicate::eq, rem, half);
    Value odd = cmp(LLVM::ICmpPredicate::ne, andI(q, one), c(0));
    Value tie = LLVM::AndOp::create(b, loc, isHalf, odd);
    Value up = LLVM::OrOp::create(b, loc, above, tie);
    return add(q, zext(up));
  }
};

/// The bits of an element as an integer of the format's width.
Value toBits(OpBuilder &b, Location loc, Value v, unsigned width) {
  auto intType = b.getIntegerType(width);
  if (v.getType() == intType)
    return v;
  return LLVM::BitcastOp::create(b, loc, intType, v);
}

/// The LLVM value of `type` (fp8 stays an integer) from its bits.
Value fromBits(OpBuilder &b, Location loc, Value bits, FloatType type) {
  if (type.getWidth() == 8)
    return bits;
  return LLVM::BitcastOp::create(b, loc, type, bits);
}

/// Exact widening of a format of at most 16 bits to f32 bits (i32).
Value decodeToF32Bits(OpBuilder &b, Location loc, Value bits,
                      const FloatFormat &f) {
  Bits i32{b, loc, b.getI32Type()};
  Value x = LLVM::ZExtOp::create(b, loc, i32.type, bits);
  if (f.exponent == 8) // bf16: the top half of an f32.
    return i32.shl(x, i32.c(16));
  Value sign = i32.andI(x, i32.c(f.signBit()));
  Value abs = i32.andI(x, i32.c(f.signBit() - 1));
  Value e = i32.lshr(abs, i32.c(f.mantissa));
  Value m = i32.andI(abs, i32.c(f.mantissaMask()));
  // Normal: move exponent and mantissa into place and rebias the exponent.
  Value moved = i32.shl(abs, i32.c(23 - f.mantissa));
  Value normal = i32.add(moved, i32.c(uint64_t(127 - f.bias) << 23));
  // Subnormal (and zero): m * 2^(1 - bias - mantissa), exact in f32 (a
  // small integer times a power of two inside the normal f32 range).
  Value mf = LLVM::UIToFPOp::create(b, loc, b.getF32Type(), m);
  Value scale = LLVM::ConstantOp::create(
      b, loc, b.getF32Type(),
      b.getF32FloatAttr(std::ldexp(1.0f, int(1 - f.bias - f.mantissa))));
  Value sub = LLVM::BitcastOp::create(
      b, loc, i32.type, LLVM::FMulOp::create(b, loc, mf, scale));
  Value absBits = i32.select(i32.cmp(LLVM::ICmpPredicate::eq, e, i32.c(0)),
                             sub, normal);
  Value nan = i32.c(0x7FC00000);
  switch (f.style) {
  case NanStyle::IEEE: {
    Value inf = i32.c(0x7F800000);
    Value special =
        i32.select(i32.cmp(LLVM::ICmpPredicate::eq, m, i32.c(0)), inf, nan);
    absBits = i32.select(
        i32.cmp(LLVM::ICmpPredicate::eq, e, i32.c((1u << f.exponent) - 1)),
        special, absBits);
    break;
  }
  case NanStyle::FN:
    absBits = i32.select(
        i32.cmp(LLVM::ICmpPredicate::eq, abs, i32.c(f.signBit() - 1)), nan,
        absBits);
    break;
  case NanStyle::FNUZ:
    break;
  }
  Value result = i32.orI(i32.shl(sign, i32.c(32 - f.width)), absBits);
  if (f.style == NanStyle::FNUZ) // 0x80 is the NaN, not -0.
    result = i32.select(i32.cmp(LLVM::ICmpPredicate::eq, x, i32.c(f.signBit())),
                        nan, result);
  return result;
}

/// Narrowing of an IEEE format `s` (bits of width s.width) to format `d`,
/// correctly rounded; returns bits of width d.width.
Value encodeNarrow(OpBuilder &b, Location loc, Value x, const FloatFormat &s,
                   const FloatFormat &d, bool rtz) {
  Bits w{b, loc, b.getIntegerType(s.width)};
  using P = LLVM::ICmpPredicate;
  Value sign = w.lshr(x, w.c(s.width - 1));
  Value abs = w.andI(x, w.c(s.signBit() - 1));
  Value isNaN = w.cmp(P::ugt, abs, w.c(s.infinity()));
  Value isInf = w.cmp(P::eq, abs, w.c(s.infinity()));
  Value e = w.lshr(abs, w.c(s.mantissa));
  Value m = w.andI(abs, w.c(s.mantissaMask()));
  Value eIsZero = w.cmp(P::eq, e, w.c(0));
  int64_t rebias = s.bias - d.bias;
  unsigned shift = s.mantissa - d.mantissa;
  // The destination's biased exponent (source subnormals count as e = 1).
  Value effSrc = w.select(eIsZero, w.c(1), e);
  Value eff = w.sub(effSrc, w.c(uint64_t(rebias)));
  Value isSub = w.cmp(P::slt, eff, w.c(1));
  // Normal result: rebias in place, then drop `shift` mantissa bits (a
  // carry out of the mantissa correctly bumps the exponent).
  Value rebiased = w.sub(abs, w.c(uint64_t(rebias) << s.mantissa));
  Value normal = w.roundShift(rebiased, w.c(shift), rtz);
  // Subnormal result: the full significand shifted by shift + 1 - eff,
  // capped where the result is 0 anyway (keeps the shift in range).
  Value significand =
      w.select(eIsZero, m, w.orI(m, w.c(uint64_t(1) << s.mantissa)));
  Value amount = w.sub(w.c(shift + 1), eff);
  Value cap = w.c(s.mantissa + 2);
  amount = w.select(w.cmp(P::ugt, amount, cap), cap, amount);
  Value subnormal = w.roundShift(significand, amount, rtz);
  Value r = w.select(isSub, subnormal, normal);

  Value maxFinite = w.c(d.maxFinite());
  Value over = w.cmp(P::ugt, r, maxFinite);
  Value nanBits, overflow, infBits;
  switch (d.style) {
  case NanStyle::IEEE:
    // fp8 (e5m2) saturates, infinities included, as Triton's NVIDIA
    // (cvt.satfinite) and AMD backends do: +-57344, never +-inf.
    infBits = d.width == 8 ? maxFinite : w.c(d.infinity());
    nanBits = w.c(d.infinity() | (uint64_t(1) << (d.mantissa - 1)));
    overflow = rtz || d.width == 8 ? maxFinite : infBits;
    break;
  case NanStyle::FN:
    infBits = overflow = maxFinite; // saturate
    nanBits = w.c(d.signBit() - 1);
    break;
  case NanStyle::FNUZ:
    infBits = overflow = maxFinite; // saturate
    nanBits = w.c(0); // sign added below, then fixed
    break;
  }
  r = w.select(over, overflow, r);
  r = w.select(isInf, infBits, r);
  r = w.select(isNaN, nanBits, r);
  Value result = w.orI(w.shl(sign, w.c(d.width - 1)), r);
  if (d.style == NanStyle::FNUZ) {
    // No -0: a zero result is +0; NaN is 0x80.
    Value zero = w.c(0);
    result = w.select(w.cmp(P::eq, r, zero), zero, result);
    result = w.select(isNaN, w.c(d.signBit()), result);
  }
  return LLVM::TruncOp::create(b, loc, b.getIntegerType(d.width), result);
}

/// f8E5M2 to f16 (bits, i16): an e5m2 value is the top byte of the f16 of
/// the same value (same exponent width and bias, two of f16's ten mantissa
/// bits), so the widening is a shift; NaN becomes the canonical one, sign
/// kept, as the general path gives. The hot path of a dot whose e5m2
/// operands are widened to f16 for WMMA.
Value widenE5M2ToF16Bits(OpBuilder &b, Location loc, Value bits) {
  Bits i16{b, loc, b.getI16Type()};
  Value r = i16.shl(i16.zext(bits), i16.c(8));
  Value isNaN = i16.cmp(LLVM::ICmpPredicate::ugt, i16.andI(r, i16.c(0x7FFF)),
                        i16.c(0x7C00));
  Value nan = i16.orI(i16.andI(r, i16.c(0x8000)), i16.c(0x7E00));
  return i16.select(isNaN, nan, r);
}

/// f8E4M3FN to f16 (bits, i16), exactly, in integer ops: a normal value is
/// rebiased in place (exponent bias 7 -> 15: + 8 << 10 over the bits moved
/// up by 7); the seven subnormals m * 2^-9 are f16 normals, by the top bit
/// of m: m >= 4 -> (m << 8) + 0x1C00, m = 2, 3 -> (m << 9) + 0x1800,
/// m = 1 -> 0x1800; S.1111.111 is NaN (0x7E00 with its sign).
Value widenE4M3FNToF16Bits(OpBuilder &b, Location loc, Value bits) {
  Bits i16{b, loc, b.getI16Type()};
  using P = LLVM::ICmpPredicate;
  Value x = i16.zext(bits);
  Value sign = i16.shl(i16.andI(x, i16.c(0x80)), i16.c(8));
  Value abs = i16.andI(x, i16.c(0x7F));
  Value m = i16.andI(abs, i16.c(0x7));
  Value normal = i16.add(i16.shl(abs, i16.c(7)), i16.c(0x2000));
  Value sub = i16.select(
      i16.cmp(P::uge, m, i16.c(4)), i16.add(i16.shl(m, i16.c(8)), i16.c(0x1C00)),
      i16.select(i16.cmp(P::uge, m, i16.c(2)),
                 i16.add(i16.shl(m, i16.c(9)), i16.c(0x1800)),
                 i16.select(i16.cmp(P::eq, m, i16.c(1)), i16.c(0x1800),
                            i16.c(0))));
  Value r = i16.select(i16.cmp(P::ult, abs, i16.c(0x8)), sub, normal);
  r = i16.select(i16.cmp(P::eq, abs, i16.c(0x7F)), i16.c(0x7E00), r);
  return i16.orI(sign, r);
}

} // namespace

bool mlir::triton_musa::isSupportedFloatFormat(Type type) {
  return getFloatFormat(type).has_value();
}

Value mlir::triton_musa::emitFloatConversion(OpBuilder &b, Location loc,
                                             Value value, FloatType srcType,
                                             FloatType dstType, bool rtz) {
  if (srcType == dstType)
    return value;
  FloatFormat s = *getFloatFormat(srcType), d = *getFloatFormat(dstType);
  Value bits = toBits(b, loc, value, s.width);
  if (isa<Float8E5M2Type>(srcType) && dstType.isF16())
    return fromBits(b, loc, widenE5M2ToF16Bits(b, loc, bits), dstType);
  if (isa<Float8E4M3FNType>(srcType) && dstType.isF16())
    return fromBits(b, loc, widenE4M3FNToF16Bits(b, loc, bits), dstType);
  // Formats narrower than f32 are first widened to f32 exactly.
  if (s.width <= 16) {
    bits = decodeToF32Bits(b, loc, bits, s);
    s = *getFloatFormat(b.getF32Type());
    if (dstType.isF32())
      return fromBits(b, loc, bits, dstType);
  }
  if (d.width > s.width) { // f32 -> f64: exact.
    Value f32 = LLVM::BitcastOp::create(b, loc, b.getF32Type(), bits);
    return LLVM::FPExtOp::create(b, loc, dstType, f32);
  }
  return fromBits(b, loc, encodeNarrow(b, loc, bits, s, d, rtz), dstType);
}
