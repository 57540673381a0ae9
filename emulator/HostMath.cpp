//===- HostMath.cpp - MUSA libdevice functions for the CPU emulator -------===//
//
// Kernels calling MUSA libdevice (python/triton_musa/language/libdevice.py)
// lower to calls of its symbols (`__mt_*`, the CUDA-named `__nv_*` ones the
// MUSA library also exports, and the intrinsic `llvm.musa.rsq`), which on the
// device come from the SDK's libdevice bitcode or from llc. On the CPU emulator
// the JIT resolves each of them to the host implementation below (the C
// library's math where one exists), so such kernels run and can be compared
// with PyTorch. Accuracy is the host's: a kernel checked here is checked for
// its use of the functions, not for the device library's ulps.
//
// Every symbol libdevice.py can emit must be in hostMathSymbols();
// test/python/test_libdevice_musa.py checks it through
// `_musa_mlir.emulator_host_math_symbols()`.
//
//===----------------------------------------------------------------------===//

#include "emulator/HostMath.h"

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace {

template <typename To, typename From> To bitCast(From from) {
  static_assert(sizeof(To) == sizeof(From));
  To to;
  std::memcpy(&to, &from, sizeof(To));
  return to;
}

constexpr double kPi = 3.14159265358979323846;

/// `fn()` evaluated in the host rounding mode `mode` (restored after). The
/// volatile result keeps the compiler from moving the arithmetic across the
/// mode switches.
template <typename Fn> auto rounded(int mode, Fn fn) {
  int old = std::fegetround();
  std::fesetround(mode);
  volatile auto result = fn();
  std::fesetround(old);
  return static_cast<decltype(fn())>(result);
}

/// The libdevice rounding-mode suffixes (rte/rn, rtz/rz, rtn/rd, rtp/ru) and
/// the int8 mode argument of __mt_i64_to_f64 (0..3 in that order).
constexpr int kModes[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD,
                           FE_UPWARD};

/// A float rounded to an integer in `mode`, then converted with saturation
/// (NaN -> 0), as the GPU's conversion instructions do.
template <typename Int> Int toInt(double x, int mode) {
  if (std::isnan(x))
    return 0;
  double r = rounded(mode, [&] {
    volatile double v = x;
    return std::nearbyint(v);
  });
  constexpr double lo = double(std::numeric_limits<Int>::min());
  // 2^bits (or 2^(bits-1) if signed): the first value that does not fit.
  constexpr double hiExclusive =
      lo == 0 ? 2.0 * double(uint64_t(1) << (8 * sizeof(Int) - 1)) : -lo;
  if (r < lo)
    return std::numeric_limits<Int>::min();
  if (r >= hiExclusive)
    return std::numeric_limits<Int>::max();
  return Int(r);
}

template <typename To, typename From> To convert(From x, int mode) {
  return rounded(mode, [&] {
    volatile From v = x;
    return To(v);
  });
}

/// erf^-1 by Newton's method on erf (erfc^-1 on erfc), from a logarithmic
/// first guess; converges to the double nearest in a few steps.
double erfinvHost(double y) {
  if (std::isnan(y) || y < -1 || y > 1)
    return std::numeric_limits<double>::quiet_NaN();
  if (y == 1 || y == -1)
    return std::copysign(std::numeric_limits<double>::infinity(), y);
  double w = -std::log((1 - y) * (1 + y));
  double x = std::copysign(std::sqrt(std::max(0.0, w - std::log(w + 1e-300) * 0.5)), y);
  if (std::fabs(y) < 0.7)
    x = y * std::sqrt(kPi) / 2; // erf(x) ~ 2x/sqrt(pi) near 0
  for (int i = 0; i < 60; ++i) {
    double step = (std::erf(x) - y) / (2 / std::sqrt(kPi) * std::exp(-x * x));
    x -= step;
    if (std::fabs(step) <= 1e-17 * std::fabs(x))
      break;
  }
  return x;
}

double erfcinvHost(double y) {
  if (std::isnan(y) || y < 0 || y > 2)
    return std::numeric_limits<double>::quiet_NaN();
  if (y == 0)
    return std::numeric_limits<double>::infinity();
  if (y == 2)
    return -std::numeric_limits<double>::infinity();
  double x = erfinvHost(1 - y);
  if (!std::isfinite(x))
    x = std::sqrt(-std::log(y));
  for (int i = 0; i < 60; ++i) {
    double step = (std::erfc(x) - y) / (-2 / std::sqrt(kPi) * std::exp(-x * x));
    if (!std::isfinite(step))
      break;
    x -= step;
    if (std::fabs(step) <= 1e-17 * std::fabs(x))
      break;
  }
  return x;
}

template <typename F> void *address(F *fn) {
  return reinterpret_cast<void *>(fn);
}

} // namespace

// Unary and binary fp32/fp64 functions: NAME is the symbol, EXPR uses x (y).
#define F1(name, expr) {name, address(+[](float x) -> float { return expr; })}
#define D1(name, expr) {name, address(+[](double x) -> double { return expr; })}
#define F2(name, expr)                                                         \
  {name, address(+[](float x, float y) -> float { return expr; })}
#define D2(name, expr)                                                         \
  {name, address(+[](double x, double y) -> double { return expr; })}
// __mt_<base>_f32 / __mt_<base>_f64.
#define MT1(base, expr) F1("__mt_" base "_f32", expr), D1("__mt_" base "_f64", expr)
#define MT2(base, expr) F2("__mt_" base "_f32", expr), D2("__mt_" base "_f64", expr)
// __nv_<base>f / __nv_<base> (CUDA's names, exported by MUSA's libdevice).
#define NV1(base, expr) F1("__nv_" base "f", expr), D1("__nv_" base, expr)
#define NV2(base, expr) F2("__nv_" base "f", expr), D2("__nv_" base, expr)
// Any signature: FN(symbol, return type, (parameters), expression).
#define FN(name, ret, params, expr)                                            \
  {name, address(+[] params -> ret { return expr; })}

// fp64 arithmetic and its fp32 counterparts in one rounding mode.
#define ROUNDED_F64(op, sym, idx)                                              \
  FN("__mt_" #op "_" sym "_f64", double, (double a, double b),                 \
     rounded(kModes[idx], [&] {                                                \
       volatile double va = a, vb = b;                                         \
       return ROUNDED_OP_##op(va, vb);                                         \
     }))
#define ROUNDED_OP_add(a, b) a + b
#define ROUNDED_OP_sub(a, b) a - b
#define ROUNDED_OP_mul(a, b) a * b
#define ROUNDED_OP_div(a, b) a / b
#define ROUNDED_ALL(op)                                                        \
  ROUNDED_F64(op, "rte", 0), ROUNDED_F64(op, "rtz", 1),                        \
      ROUNDED_F64(op, "rtn", 2), ROUNDED_F64(op, "rtp", 3)
#define DIV_F32(sym, idx)                                                      \
  FN("__mt_div_" sym "_f32", float, (float a, float b),                        \
     rounded(kModes[idx], [&] {                                                \
       volatile float va = a, vb = b;                                          \
       return va / vb;                                                         \
     }))

// double/float -> integer and back, one rounding mode each (rn rz rd ru).
#define CONV4(prefix, to, from, fn)                                            \
  FN(prefix "rn", to, (from x), fn(x, 0)), FN(prefix "rz", to, (from x), fn(x, 1)), \
      FN(prefix "rd", to, (from x), fn(x, 2)), FN(prefix "ru", to, (from x), fn(x, 3))
#define TO_INT(T) [](double v, int m) { return toInt<T>(v, kModes[m]); }
#define TO_FLOAT(To, From)                                                     \
  [](From v, int m) { return convert<To>(v, kModes[m]); }

std::vector<std::pair<const char *, void *>>
mlir::triton_musa::emulator::hostMathSymbols() {
  return {
      // Exponentials and logarithms.
      NV1("exp", std::exp(x)), MT1("exp2", std::exp2(x)),
      D1("__mt_exp10_f64", ::exp10(x)), NV1("expm1", std::expm1(x)),
      MT1("log", std::log(x)), NV1("log2", std::log2(x)),
      MT1("log10", std::log10(x)), MT1("log1p", std::log1p(x)),
      MT1("logb", std::logb(x)),
      FN("__nv_ilogbf", int32_t, (float x), std::ilogb(x)),
      FN("__nv_ilogb", int32_t, (double x), std::ilogb(x)),
      MT2("pow", std::pow(x, y)),
      FN("__mt_pown_f32", float, (float x, int32_t n), std::pow(x, float(n))),
      FN("__mt_pown_f64", double, (double x, int32_t n), std::pow(x, double(n))),
      FN("__mt_ldexp_f32", float, (float x, int32_t n), std::ldexp(x, n)),
      FN("__mt_ldexp_f64", double, (double x, int32_t n), std::ldexp(x, n)),
      FN("__mt_scalbn_f32", float, (float x, int32_t n), std::scalbn(x, n)),
      FN("__mt_scalbn_f64", double, (double x, int32_t n), std::scalbn(x, n)),
      // Trigonometric and hyperbolic.
      NV1("sin", std::sin(x)), NV1("cos", std::cos(x)), MT1("tan", std::tan(x)),
      MT1("sinpi", std::sin(decltype(x)(kPi) * x)),
      D1("__mt_cospi_f64", std::cos(kPi * x)), NV1("asin", std::asin(x)),
      NV1("acos", std::acos(x)), NV1("atan", std::atan(x)),
      NV2("atan2", std::atan2(x, y)), MT1("sinh", std::sinh(x)),
      NV1("cosh", std::cosh(x)), MT1("tanh", std::tanh(x)),
      NV1("asinh", std::asinh(x)), NV1("acosh", std::acosh(x)),
      NV1("atanh", std::atanh(x)), NV2("hypot", std::hypot(x, y)),
      // Special functions.
      MT1("erf", std::erf(x)), MT1("erfc", std::erfc(x)),
      F1("__mt_erfinv_f32", float(erfinvHost(x))),
      D1("__mt_erfinv_f64", erfinvHost(x)),
      F1("__mt_erfcinv_f32", float(erfcinvHost(x))),
      D1("__mt_erfcinv_f64", erfcinvHost(x)),
      MT1("lgamma", std::lgamma(x)), MT1("tgamma", std::tgamma(x)),
      // Roots; llvm.musa.rsq is the device's fp32 rsqrt intrinsic.
      MT1("sqrt", std::sqrt(x)), F1("llvm.musa.rsq", 1.0f / std::sqrt(x)),
      D1("__nv_rsqrt", 1.0 / std::sqrt(x)),
      F1("__mt_rsqrt_rn_f32", float(1.0 / std::sqrt(double(x)))),
      MT1("cbrt", std::cbrt(x)),
      // Rounding and remainders.
      MT1("floor", std::floor(x)), NV1("ceil", std::ceil(x)),
      MT1("trunc", std::trunc(x)), MT1("round", std::round(x)),
      NV1("rint", std::rint(x)), MT2("fmod", std::fmod(x, y)),
      MT2("remainder", std::remainder(x, y)),
      FN("__nv_llrintf", int64_t, (float x), std::llrint(x)),
      FN("__nv_llrint", int64_t, (double x), std::llrint(x)),
      FN("__mt_llround_f32", int64_t, (float x), std::llround(x)),
      FN("__mt_llround_f64", int64_t, (double x), std::llround(x)),
      // Sign, magnitude and comparisons.
      MT1("fabs", std::fabs(x)), MT2("fmax", std::fmax(x, y)),
      MT2("fmin", std::fmin(x, y)), NV2("copysign", std::copysign(x, y)),
      NV2("fdim", std::fdim(x, y)), MT2("nextafter", std::nextafter(x, y)),
      FN("__nv_fmaf", float, (float x, float y, float z), std::fma(x, y, z)),
      FN("__nv_fma", double, (double x, double y, double z), std::fma(x, y, z)),
      FN("__mt_fmaf_rn_f32", float, (float x, float y, float z),
         std::fma(x, y, z)),
      FN("__mt_isnan_f32", int32_t, (float x), std::isnan(x)),
      FN("__mt_isnan_f64", int32_t, (double x), std::isnan(x)),
      FN("__mt_isinf_f32", int32_t, (float x), std::isinf(x)),
      FN("__mt_isinf_f64", int32_t, (double x), std::isinf(x)),
      FN("__mt_isfinite_f32", int32_t, (float x), std::isfinite(x)),
      FN("__mt_isfinite_f64", int32_t, (double x), std::isfinite(x)),
      FN("__mt_signbit_f32", bool, (float x), std::signbit(x)),
      FN("__mt_signbit_f64", bool, (double x), std::signbit(x)),
      FN("__mt_abs_i32", int32_t, (int32_t x),
         int32_t(x < 0 ? 0u - uint32_t(x) : uint32_t(x))),
      // Arithmetic in a given rounding mode.
      ROUNDED_ALL(add), ROUNDED_ALL(sub), ROUNDED_ALL(mul), ROUNDED_ALL(div),
      DIV_F32("rte", 0), DIV_F32("rtz", 1), DIV_F32("rtn", 2),
      FN("__mt_fsub_rn_f32", float, (float a, float b), a - b),
      // Fast fp32 variants.
      FN("__mt_fast_fdivide_f32", float, (float a, float b), a / b),
      F1("__mt_tt_tanh_f32", std::tanh(x)),
      F1("__mt_tt_gelu_f32", 0.5f * x * (1.0f + std::erf(x * float(M_SQRT1_2)))),
      // Conversions.
      CONV4("__nv_double2float_", float, double, TO_FLOAT(float, double)),
      CONV4("__nv_double2int_", int32_t, double, TO_INT(int32_t)),
      CONV4("__nv_double2uint_", uint32_t, double, TO_INT(uint32_t)),
      CONV4("__nv_double2ll_", int64_t, double, TO_INT(int64_t)),
      CONV4("__nv_double2ull_", uint64_t, double, TO_INT(uint64_t)),
      CONV4("__nv_float2ll_", int64_t, float, TO_INT(int64_t)),
      CONV4("__mt_f32_to_ll_", int64_t, float, TO_INT(int64_t)),
      FN("__mt_f32_to_i32_rd", int32_t, (float x), toInt<int32_t>(x, FE_DOWNWARD)),
      FN("__mt_f32_to_i32_ru", int32_t, (float x), toInt<int32_t>(x, FE_UPWARD)),
      FN("__mt_ll_to_f32_rz", float, (int64_t x), convert<float>(x, FE_TOWARDZERO)),
      FN("__mt_ll_to_f32_rd", float, (int64_t x), convert<float>(x, FE_DOWNWARD)),
      FN("__mt_ll_to_f32_ru", float, (int64_t x), convert<float>(x, FE_UPWARD)),
      FN("__mt_ull_to_f32_rz", float, (uint64_t x), convert<float>(x, FE_TOWARDZERO)),
      FN("__mt_ull_to_f32_rd", float, (uint64_t x), convert<float>(x, FE_DOWNWARD)),
      FN("__mt_ull_to_f32_ru", float, (uint64_t x), convert<float>(x, FE_UPWARD)),
      // The rounding mode comes as an i8; only its low byte is read.
      FN("__mt_i64_to_f64", double, (int64_t x, uint32_t mode),
         convert<double>(x, kModes[mode & 3])),
      FN("__mt_ui64_to_f64", double, (uint64_t x, uint32_t mode),
         convert<double>(x, kModes[mode & 3])),
      FN("__mt_i32_to_f64", double, (int32_t x), double(x)),
      FN("__mt_ui32_to_f64", double, (uint32_t x), double(x)),
      FN("__nv_double2loint", int32_t, (double x),
         int32_t(uint32_t(bitCast<uint64_t>(x)))),
      // Integer helpers.
      FN("__mt_mulhi", int32_t, (int32_t a, int32_t b),
         int32_t((int64_t(a) * int64_t(b)) >> 32)),
      FN("__mt_umulhi", uint32_t, (uint32_t a, uint32_t b),
         uint32_t((uint64_t(a) * uint64_t(b)) >> 32)),
      FN("__mt_mul64hi", int64_t, (int64_t a, int64_t b),
         int64_t((__int128(a) * __int128(b)) >> 64)),
      FN("__mt_umul64hi", uint64_t, (uint64_t a, uint64_t b),
         uint64_t((unsigned __int128)a * b >> 64)),
      FN("__mt_mul24", int32_t, (int32_t a, int32_t b),
         int32_t(uint32_t(int64_t(int32_t(uint32_t(a) << 8) >> 8) *
                          (int32_t(uint32_t(b) << 8) >> 8)))),
      FN("__mt_umul24", uint32_t, (uint32_t a, uint32_t b),
         (a & 0xffffffu) * (b & 0xffffffu)),
      FN("__mt_hadd", int32_t, (int32_t a, int32_t b), int32_t((int64_t(a) + b) >> 1)),
      FN("__mt_uhadd", uint32_t, (uint32_t a, uint32_t b),
         uint32_t((uint64_t(a) + b) >> 1)),
      FN("__mt_rhadd", int32_t, (int32_t a, int32_t b),
         int32_t((int64_t(a) + b + 1) >> 1)),
      FN("__mt_urhadd", uint32_t, (uint32_t a, uint32_t b),
         uint32_t((uint64_t(a) + b + 1) >> 1)),
      FN("__mt_sad", int32_t, (int32_t a, int32_t b, uint32_t c),
         int32_t(uint32_t(std::llabs(int64_t(a) - b)) + c)),
      FN("__mt_usad", uint32_t, (uint32_t a, uint32_t b, uint32_t c),
         (a > b ? a - b : b - a) + c),
      FN("__mt_ffs_i32", int32_t, (int32_t x), __builtin_ffs(x)),
      FN("__mt_ffsll_i64", int32_t, (int64_t x), __builtin_ffsll(x)),
      // Bit casts.
      FN("__mt_float_as_int", int32_t, (float x), bitCast<int32_t>(x)),
      FN("__mt_int_as_float", float, (int32_t x), bitCast<float>(x)),
      FN("__mt_float_as_uint", uint32_t, (float x), bitCast<uint32_t>(x)),
      FN("__mt_uint_as_float", float, (uint32_t x), bitCast<float>(x)),
      FN("__mt_double_as_longlong", int64_t, (double x), bitCast<int64_t>(x)),
      FN("__mt_longlong_as_double", double, (int64_t x), bitCast<double>(x)),
  };
}
