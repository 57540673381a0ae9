//===- HostMath.cpp - MUSA libdevice functions for the CPU emulator -------===//
//
// Kernels calling MUSA libdevice (python/triton_musa/language/libdevice.py)
// lower to calls of `__mt_*` symbols, which on the device come from the
// SDK's libdevice bitcode. On the CPU emulator the JIT resolves each of them
// to the host implementation below (the C library's math where one exists),
// so such kernels run and can be compared with PyTorch. Accuracy is the
// host's: a kernel checked here is checked for its use of the functions, not
// for the device library's ulps.
//
//===----------------------------------------------------------------------===//

#include "emulator/HostMath.h"

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace {

template <typename To, typename From> To bitCast(From from) {
  static_assert(sizeof(To) == sizeof(From));
  To to;
  std::memcpy(&to, &from, sizeof(To));
  return to;
}

constexpr double kPi = 3.14159265358979323846;

/// fp64 division rounded in `mode` (the host's rounding mode, restored).
double divideRounded(double a, double b, int mode) {
  int old = std::fegetround();
  std::fesetround(mode);
  volatile double va = a, vb = b;
  double result = va / vb;
  std::fesetround(old);
  return result;
}

} // namespace

// The functions the JIT binds by name; C linkage only to keep them simple.
extern "C" {
#define UNARY(name, expr)                                                      \
  static float mt_##name##_f32(float x) { return expr; }                      \
  static double mt_##name##_f64(double x) { return expr; }
#define BINARY(name, expr)                                                     \
  static float mt_##name##_f32(float x, float y) { return expr; }             \
  static double mt_##name##_f64(double x, double y) { return expr; }

UNARY(exp, std::exp(x))
UNARY(exp2, std::exp2(x))
UNARY(expm1, std::expm1(x))
UNARY(log, std::log(x))
UNARY(log2, std::log2(x))
UNARY(log10, std::log10(x))
UNARY(log1p, std::log1p(x))
UNARY(logb, std::logb(x))
UNARY(sin, std::sin(x))
UNARY(cos, std::cos(x))
UNARY(tan, std::tan(x))
UNARY(sinpi, std::sin(decltype(x)(kPi) * x))
UNARY(cospi, std::cos(decltype(x)(kPi) * x))
UNARY(asin, std::asin(x))
UNARY(acos, std::acos(x))
UNARY(atan, std::atan(x))
UNARY(sinh, std::sinh(x))
UNARY(cosh, std::cosh(x))
UNARY(tanh, std::tanh(x))
UNARY(asinh, std::asinh(x))
UNARY(acosh, std::acosh(x))
UNARY(atanh, std::atanh(x))
UNARY(erf, std::erf(x))
UNARY(erfc, std::erfc(x))
UNARY(lgamma, std::lgamma(x))
UNARY(tgamma, std::tgamma(x))
UNARY(sqrt, std::sqrt(x))
UNARY(rsqrt, decltype(x)(1) / std::sqrt(x))
UNARY(cbrt, std::cbrt(x))
UNARY(floor, std::floor(x))
UNARY(ceil, std::ceil(x))
UNARY(trunc, std::trunc(x))
UNARY(round, std::round(x))
UNARY(rint, std::rint(x))
UNARY(fabs, std::fabs(x))
BINARY(atan2, std::atan2(x, y))
BINARY(hypot, std::hypot(x, y))
BINARY(pow, std::pow(x, y))
BINARY(fmod, std::fmod(x, y))
BINARY(remainder, std::remainder(x, y))
BINARY(copysign, std::copysign(x, y))
BINARY(fdim, std::fdim(x, y))
BINARY(fmax, std::fmax(x, y))
BINARY(fmin, std::fmin(x, y))
BINARY(nextafter, std::nextafter(x, y))
#undef UNARY
#undef BINARY

static float mt_fma_f32(float x, float y, float z) { return std::fma(x, y, z); }
static double mt_fma_f64(double x, double y, double z) {
  return std::fma(x, y, z);
}
static int32_t mt_ilogb_f32(float x) { return std::ilogb(x); }
static int32_t mt_ilogb_f64(double x) { return std::ilogb(x); }
static float mt_pown_f32(float x, int32_t n) { return std::pow(x, float(n)); }
static double mt_pown_f64(double x, int32_t n) { return std::pow(x, double(n)); }
static float mt_ldexp_f32(float x, int32_t n) { return std::ldexp(x, n); }
static double mt_ldexp_f64(double x, int32_t n) { return std::ldexp(x, n); }
static float mt_scalbn_f32(float x, int32_t n) { return std::scalbn(x, n); }
static double mt_scalbn_f64(double x, int32_t n) { return std::scalbn(x, n); }
static int64_t mt_llrint_f32(float x) { return std::llrint(x); }
static int64_t mt_llrint_f64(double x) { return std::llrint(x); }
static int64_t mt_llround_f32(float x) { return std::llround(x); }
static int64_t mt_llround_f64(double x) { return std::llround(x); }
static float mt_ncdf_f32(float x) {
  return 0.5f * std::erfc(-x * 0.70710678118654752f);
}
static float mt_saturate_f32(float x) {
  return std::isnan(x) ? 0.0f : std::fmin(std::fmax(x, 0.0f), 1.0f);
}
static int32_t mt_isnan_f32(float x) { return std::isnan(x); }
static int32_t mt_isnan_f64(double x) { return std::isnan(x); }
static int32_t mt_isinf_f32(float x) { return std::isinf(x); }
static int32_t mt_isinf_f64(double x) { return std::isinf(x); }
static int32_t mt_isfinite_f32(float x) { return std::isfinite(x); }
static int32_t mt_isfinite_f64(double x) { return std::isfinite(x); }
static int32_t mt_abs_i32(int32_t x) {
  return int32_t(x < 0 ? 0u - uint32_t(x) : uint32_t(x));
}
static int64_t mt_abs_i64(int64_t x) {
  return int64_t(x < 0 ? 0ull - uint64_t(x) : uint64_t(x));
}
static double mt_div_rte_f64(double a, double b) {
  return divideRounded(a, b, FE_TONEAREST);
}
static double mt_div_rtz_f64(double a, double b) {
  return divideRounded(a, b, FE_TOWARDZERO);
}
static double mt_div_rtn_f64(double a, double b) {
  return divideRounded(a, b, FE_DOWNWARD);
}
static double mt_div_rtp_f64(double a, double b) {
  return divideRounded(a, b, FE_UPWARD);
}
static float mt_expf_f32(float x) { return std::exp(x); }
static float mt_fast_fdivide_f32(float a, float b) { return a / b; }
static int32_t mt_mulhi(int32_t a, int32_t b) {
  return int32_t((int64_t(a) * int64_t(b)) >> 32);
}
static uint32_t mt_umulhi(uint32_t a, uint32_t b) {
  return uint32_t((uint64_t(a) * uint64_t(b)) >> 32);
}
static int64_t mt_mul64hi(int64_t a, int64_t b) {
  return int64_t((__int128(a) * __int128(b)) >> 64);
}
static uint64_t mt_umul64hi(uint64_t a, uint64_t b) {
  return uint64_t((unsigned __int128)a * b >> 64);
}
static int32_t mt_mul24(int32_t a, int32_t b) {
  int32_t a24 = int32_t(uint32_t(a) << 8) >> 8, b24 = int32_t(uint32_t(b) << 8) >> 8;
  return int32_t(uint32_t(int64_t(a24) * b24));
}
static uint32_t mt_umul24(uint32_t a, uint32_t b) {
  return (a & 0xffffffu) * (b & 0xffffffu);
}
static int32_t mt_hadd(int32_t a, int32_t b) {
  return int32_t((int64_t(a) + b) >> 1);
}
static uint32_t mt_uhadd(uint32_t a, uint32_t b) {
  return uint32_t((uint64_t(a) + b) >> 1);
}
static int32_t mt_rhadd(int32_t a, int32_t b) {
  return int32_t((int64_t(a) + b + 1) >> 1);
}
static uint32_t mt_urhadd(uint32_t a, uint32_t b) {
  return uint32_t((uint64_t(a) + b + 1) >> 1);
}
static uint32_t mt_sad(int32_t a, int32_t b, uint32_t c) {
  return uint32_t(std::llabs(int64_t(a) - b)) + c;
}
static uint32_t mt_usad(uint32_t a, uint32_t b, uint32_t c) {
  return (a > b ? a - b : b - a) + c;
}
static int32_t mt_ffs_i32(int32_t x) { return __builtin_ffs(x); }
static int32_t mt_ffsll_i64(int64_t x) { return __builtin_ffsll(x); }
static int32_t mt_float_as_int(float x) { return bitCast<int32_t>(x); }
static float mt_int_as_float(int32_t x) { return bitCast<float>(x); }
static uint32_t mt_float_as_uint(float x) { return bitCast<uint32_t>(x); }
static float mt_uint_as_float(uint32_t x) { return bitCast<float>(x); }
static int64_t mt_double_as_longlong(double x) { return bitCast<int64_t>(x); }
static double mt_longlong_as_double(int64_t x) { return bitCast<double>(x); }
} // extern "C"

std::vector<std::pair<const char *, void *>>
mlir::triton_musa::emulator::hostMathSymbols() {
#define F(name) {"__" #name, reinterpret_cast<void *>(&name)}
#define FD(name) F(name##_f32), F(name##_f64)
  return {
      FD(mt_exp),       FD(mt_exp2),      FD(mt_expm1),     FD(mt_log),
      FD(mt_log2),      FD(mt_log10),     FD(mt_log1p),     FD(mt_logb),
      FD(mt_sin),       FD(mt_cos),       FD(mt_tan),       FD(mt_sinpi),
      FD(mt_cospi),     FD(mt_asin),      FD(mt_acos),      FD(mt_atan),
      FD(mt_sinh),      FD(mt_cosh),      FD(mt_tanh),      FD(mt_asinh),
      FD(mt_acosh),     FD(mt_atanh),     FD(mt_erf),       FD(mt_erfc),
      FD(mt_lgamma),    FD(mt_tgamma),    FD(mt_sqrt),      FD(mt_rsqrt),
      FD(mt_cbrt),      FD(mt_floor),     FD(mt_ceil),      FD(mt_trunc),
      FD(mt_round),     FD(mt_rint),      FD(mt_fabs),      FD(mt_atan2),
      FD(mt_hypot),     FD(mt_pow),       FD(mt_fmod),      FD(mt_remainder),
      FD(mt_copysign),  FD(mt_fdim),      FD(mt_fmax),      FD(mt_fmin),
      FD(mt_nextafter), FD(mt_fma),       FD(mt_ilogb),     FD(mt_pown),
      FD(mt_ldexp),     FD(mt_scalbn),    FD(mt_llrint),    FD(mt_llround),
      FD(mt_isnan),     FD(mt_isinf),     FD(mt_isfinite),
      F(mt_ncdf_f32),   F(mt_saturate_f32), F(mt_abs_i32),  F(mt_abs_i64),
      F(mt_div_rte_f64), F(mt_div_rtz_f64), F(mt_div_rtn_f64),
      F(mt_div_rtp_f64), F(mt_expf_f32),  F(mt_fast_fdivide_f32),
      F(mt_mulhi),      F(mt_umulhi),     F(mt_mul64hi),    F(mt_umul64hi),
      F(mt_mul24),      F(mt_umul24),     F(mt_hadd),       F(mt_uhadd),
      F(mt_rhadd),      F(mt_urhadd),     F(mt_sad),        F(mt_usad),
      F(mt_ffs_i32),    F(mt_ffsll_i64),  F(mt_float_as_int),
      F(mt_int_as_float), F(mt_float_as_uint), F(mt_uint_as_float),
      F(mt_double_as_longlong), F(mt_longlong_as_double),
  };
#undef FD
#undef F
}
