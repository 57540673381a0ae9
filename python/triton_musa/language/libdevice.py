"""MUSA implementation of ``triton.language.extra.libdevice``.

The backend's module map substitutes this module for Triton's generic libdevice,
so ``libdevice.exp(x)`` in a kernel becomes a ``tt.extern_elementwise`` call of the
MUSA math library (``libdevice.31.bc`` on mp_31, ``libdevice.bc`` otherwise, under
``$MUSA_HOME/mtgpu/bitcode``).

Symbol names are those the open MUSA Triton backend binds (see MUSA-FACTS.md,
"ABI, toolchain, libdevice, launcher"). They are mixed: part of the library keeps
CUDA's names (``__nv_sinf``, ``__nv_expf``, ``__nv_fmaf``, ``__nv_double2ll_rz``),
part uses MUSA's own (``__mt_tanh_f32``, ``__mt_div_rte_f32``, ``__mt_i32_to_f64``),
and the fp32 reciprocal square root is the device intrinsic ``llvm.musa.rsq``
(an ``llvm.*`` declaration: linking leaves it alone and MUSA's ``llc`` selects it).

* A function or argument type the MUSA library does not provide raises a compile
  error naming it (never a guessed symbol).
* ``fast_*`` functions for which the library has no reduced-accuracy variant call
  the accurate function (allowed by their contract: at least as accurate).
* Functions the library lacks but that are plain compositions of what it has are
  written here in Triton (the Bessel functions j0, j1, y0, y1, cyl_bessel_i0/i1).
* Entries marked "inferred" come from an earlier reading of the MUSA interface
  and are not confirmed by the facts above; confirm them against ``llvm-nm`` of a
  real SDK's libdevice when one is available.

On the CPU emulator every symbol here is bound to a host implementation
(emulator/HostMath.cpp); ``symbols()`` lists them for the test that keeps the two
in step.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Tuple

import triton
import triton.language as tl
from triton.language import core

from ..backend.target import parse_arch
from ..backend.toolchain import libdevice_path

_Signature = Tuple[core.dtype, ...]
_SymbolTable = Dict[_Signature, Tuple[str, core.dtype]]

_I1 = core.dtype("int1")
_I8 = core.dtype("int8")
_I32 = core.dtype("int32")
_I64 = core.dtype("int64")
_U32 = core.dtype("uint32")
_U64 = core.dtype("uint64")
_F32 = core.dtype("fp32")
_F64 = core.dtype("fp64")

# Every function's symbol table, by function name (what symbols() reports).
_TABLES: Dict[str, _SymbolTable] = {}


def _lib_path(_semantic: Any) -> str:
    # Resolved when the kernel is compiled, for the architecture being compiled for.
    return libdevice_path(parse_arch(_semantic.builder.options.arch))


def _call(name: str, args: list, symbols: _SymbolTable, _semantic: Any) -> Any:
    try:
        return core.extern_elementwise("libdevice", _lib_path(_semantic), args, symbols, is_pure=True,
                                       _semantic=_semantic)
    except KeyError:
        # extern_elementwise looks the argument types up without a message of its own.
        got = tuple(str(_semantic.to_tensor(a).dtype) for a in args)
        accepted = ", ".join(str(tuple(str(t) for t in sig)) for sig in symbols)
        raise TypeError(f"libdevice.{name} has no MUSA implementation for argument types {got}; "
                        f"accepted: {accepted} (cast the arguments first)") from None


def _define(name: str, symbols: _SymbolTable, doc: str) -> Callable[..., Any]:
    arity = len(next(iter(symbols)))
    _TABLES[name] = symbols

    def fn(*args: Any, _semantic: Any = None) -> Any:
        if len(args) != arity:
            raise TypeError(f"libdevice.{name} takes {arity} argument(s), got {len(args)}")
        return _call(name, list(args), symbols, _semantic)

    fn.__name__ = fn.__qualname__ = name
    fn.__module__ = __name__
    fn.__doc__ = doc
    return core.extern(fn)


def _missing(name: str, arity: int) -> Callable[..., Any]:
    """A function of Triton's libdevice that MUSA's library does not provide."""

    def fn(*args: Any, _semantic: Any = None) -> Any:
        raise NotImplementedError(f"libdevice.{name} is not available on the MUSA backend: MUSA's libdevice "
                                  f"exports no function for it")

    fn.__name__ = fn.__qualname__ = name
    fn.__module__ = __name__
    fn.__doc__ = f"Not provided by MUSA's libdevice ({arity} argument(s)); calling it is a compile error."
    return core.extern(fn)


def _fd(name: str, f32: str | None, f64: str | None, arity: int = 1, ret32: core.dtype | None = None,
        ret64: core.dtype | None = None) -> Callable[..., Any]:
    """A function over fp32 and/or fp64 values with the given symbols."""
    table: _SymbolTable = {}
    if f32:
        table[(_F32, ) * arity] = (f32, ret32 or _F32)
    if f64:
        table[(_F64, ) * arity] = (f64, ret64 or _F64)
    return _define(name, table, f"MUSA libdevice {name} (elementwise): {', '.join(s for s, _ in table.values())}.")


def _mt(name: str, arity: int = 1, f64: bool = True, base: str | None = None) -> Callable[..., Any]:
    """``__mt_<base>_f32`` / ``__mt_<base>_f64``."""
    base = base or name
    return _fd(name, f"__mt_{base}_f32", f"__mt_{base}_f64" if f64 else None, arity)


def _nv(name: str, arity: int = 1, base: str | None = None) -> Callable[..., Any]:
    """CUDA-named ``__nv_<base>f`` / ``__nv_<base>``."""
    base = base or name
    return _fd(name, f"__nv_{base}f", f"__nv_{base}", arity)


def _unary(name: str, src: core.dtype, dst: core.dtype, symbol: str) -> Callable[..., Any]:
    return _define(name, {(src, ): (symbol, dst)}, f"MUSA libdevice {name}: {symbol}.")


# ---------------------------------------------------------------------------------------------------------------
# Exponentials and logarithms.
exp = _nv("exp")
exp2 = _mt("exp2")
exp10 = _fd("exp10", None, "__mt_exp10_f64")  # fp64 only
expm1 = _nv("expm1")
log = _mt("log")
log2 = _nv("log2")
log10 = _mt("log10")
log1p = _mt("log1p")
logb = _mt("logb")
ilogb = _fd("ilogb", "__nv_ilogbf", "__nv_ilogb", ret32=_I32, ret64=_I32)
pow = _define(
    "pow", {
        (_F32, _F32): ("__mt_pow_f32", _F32),
        (_F64, _F64): ("__mt_pow_f64", _F64),
        (_F32, _I32): ("__mt_pown_f32", _F32),
        (_F64, _I32): ("__mt_pown_f64", _F64),
    }, "MUSA libdevice pow; an int32 exponent selects pown.")
ldexp = _define("ldexp", {
    (_F32, _I32): ("__mt_ldexp_f32", _F32),
    (_F64, _I32): ("__mt_ldexp_f64", _F64),
}, "MUSA libdevice ldexp.")
scalbn = _define("scalbn", {
    (_F32, _I32): ("__mt_scalbn_f32", _F32),
    (_F64, _I32): ("__mt_scalbn_f64", _F64),
}, "MUSA libdevice scalbn.")

# Trigonometric and hyperbolic functions.
sin = _nv("sin")
cos = _nv("cos")
tan = _mt("tan")
sinpi = _mt("sinpi")
cospi = _fd("cospi", None, "__mt_cospi_f64")  # fp64 only
asin = _nv("asin")
acos = _nv("acos")
atan = _nv("atan")
atan2 = _nv("atan2", arity=2)
sinh = _mt("sinh")
cosh = _nv("cosh")
tanh = _mt("tanh")
asinh = _nv("asinh")
acosh = _nv("acosh")
atanh = _nv("atanh")
hypot = _nv("hypot", arity=2)

# Special functions (the Bessel functions are composed below).
erf = _mt("erf")
erfc = _mt("erfc")
erfinv = _mt("erfinv")
erfcinv = _mt("erfcinv")
lgamma = _mt("lgamma")
tgamma = _mt("tgamma")

# Roots: the fp32 rsqrt is the device intrinsic llvm.musa.rsq.
sqrt = _mt("sqrt")
rsqrt = _fd("rsqrt", "llvm.musa.rsq", "__nv_rsqrt")
rsqrt_rn = _fd("rsqrt_rn", "__mt_rsqrt_rn_f32", None)
cbrt = _mt("cbrt")

# Rounding and remainders.
floor = _mt("floor")
ceil = _nv("ceil")
trunc = _mt("trunc")
round = _mt("round")
rint = _nv("rint")
# nearbyint differs from rint only in raising the inexact flag, which the device has not.
nearbyint = _nv("nearbyint", base="rint")
fmod = _mt("fmod", arity=2)
remainder = _mt("remainder", arity=2)
llrint = _fd("llrint", "__nv_llrintf", "__nv_llrint", ret32=_I64, ret64=_I64)
llround = _fd("llround", "__mt_llround_f32", "__mt_llround_f64", ret32=_I64, ret64=_I64)

# Sign, magnitude and comparisons.
fabs = _mt("fabs")  # the symbols of abs on floats
fmax = _mt("fmax", arity=2)  # inferred
fmin = _mt("fmin", arity=2)  # inferred
copysign = _nv("copysign", arity=2)
fdim = _nv("fdim", arity=2)
nextafter = _mt("nextafter", arity=2)
fma = _nv("fma", arity=3)
fma_rn = _fd("fma_rn", "__mt_fmaf_rn_f32", None, arity=3)
isnan = _fd("isnan", "__mt_isnan_f32", "__mt_isnan_f64", ret32=_I32, ret64=_I32)
isinf = _fd("isinf", "__mt_isinf_f32", "__mt_isinf_f64", ret32=_I32, ret64=_I32)
signbit = _fd("signbit", "__mt_signbit_f32", "__mt_signbit_f64", ret32=_I1, ret64=_I1)
isfinited = _unary("isfinited", _F64, _I32, "__mt_isfinite_f64")
finitef = _unary("finitef", _F32, _I32, "__mt_isfinite_f32")
abs = _define("abs", {
    (_I32, ): ("__mt_abs_i32", _I32),
    (_F32, ): ("__mt_fabs_f32", _F32),
    (_F64, ): ("__mt_fabs_f64", _F64),
}, "MUSA libdevice abs / fabs (no int64 variant).")

# Arithmetic with an explicit rounding mode (rte/rtz/rtn/rtp = rn/rz/rd/ru).
div_rn = _fd("div_rn", "__mt_div_rte_f32", "__mt_div_rte_f64", arity=2)
div_rz = _fd("div_rz", "__mt_div_rtz_f32", "__mt_div_rtz_f64", arity=2)
div_rd = _fd("div_rd", "__mt_div_rtn_f32", "__mt_div_rtn_f64", arity=2)
div_ru = _fd("div_ru", None, "__mt_div_rtp_f64", arity=2)
add_rn = _fd("add_rn", None, "__mt_add_rte_f64", arity=2)
add_rz = _fd("add_rz", None, "__mt_add_rtz_f64", arity=2)
add_rd = _fd("add_rd", None, "__mt_add_rtn_f64", arity=2)
add_ru = _fd("add_ru", None, "__mt_add_rtp_f64", arity=2)
sub_rn = _fd("sub_rn", "__mt_fsub_rn_f32", "__mt_sub_rte_f64", arity=2)
sub_rz = _fd("sub_rz", None, "__mt_sub_rtz_f64", arity=2)
sub_rd = _fd("sub_rd", None, "__mt_sub_rtn_f64", arity=2)
sub_ru = _fd("sub_ru", None, "__mt_sub_rtp_f64", arity=2)
mul_rn = _fd("mul_rn", None, "__mt_mul_rte_f64", arity=2)
mul_rz = _fd("mul_rz", None, "__mt_mul_rtz_f64", arity=2)
mul_rd = _fd("mul_rd", None, "__mt_mul_rtn_f64", arity=2)
mul_ru = _fd("mul_ru", None, "__mt_mul_rtp_f64", arity=2)

# Fast fp32 variants: the library's own where it has one, else the accurate function.
fast_dividef = _fd("fast_dividef", "__mt_fast_fdivide_f32", None, arity=2)
fast_tanh = _fd("fast_tanh", "__mt_tt_tanh_f32", None)
fast_expf = _fd("fast_expf", "__nv_expf", None)
fast_exp2f = _fd("fast_exp2f", "__mt_exp2_f32", None)
fast_logf = _fd("fast_logf", "__mt_log_f32", None)
fast_log2f = _fd("fast_log2f", "__nv_log2f", None)
fast_log10f = _fd("fast_log10f", "__mt_log10_f32", None)
fast_sinf = _fd("fast_sinf", "__nv_sinf", None)
fast_cosf = _fd("fast_cosf", "__nv_cosf", None)
fast_tanf = _fd("fast_tanf", "__mt_tan_f32", None)
fast_powf = _fd("fast_powf", "__mt_pow_f32", None, arity=2)

# GELU in its erf form, x / 2 * (1 + erf(x / sqrt(2))): MT's Triton names the library's `__mt_tt_gelu_f32`
# (capability >= 3.1) `fast_gelu`, and FlagGems' MUSA gelu ("none") calls it.
_GELU_TABLE: _SymbolTable = {(_F32, ): ("__mt_tt_gelu_f32", _F32)}
_TABLES["fast_gelu"] = _GELU_TABLE
_GELU_MIN_CAPABILITY = 31


@core.extern
def fast_gelu(x: Any, _semantic: Any = None) -> Any:
    """GELU (erf form) of fp32 values: the library's ``__mt_tt_gelu_f32`` on capability >= 3.1, composed
    from ``erf`` on earlier architectures."""
    x = _semantic.to_tensor(x)
    if x.dtype != _F32:
        raise TypeError(f"libdevice.fast_gelu takes fp32 values, got {x.dtype} (cast the argument first)")
    if parse_arch(_semantic.builder.options.arch).capability >= _GELU_MIN_CAPABILITY:
        return _call("fast_gelu", [x], _GELU_TABLE, _semantic)
    half = _semantic.mul(x, 0.5, True)
    scaled = _semantic.mul(x, 0.7071067811865476, True)
    return _semantic.add(half, _semantic.mul(half, erf(scaled, _semantic=_semantic), True), True)

# Conversions.
for _m in ("rn", "rz", "rd", "ru"):
    globals()[f"double2float_{_m}"] = _unary(f"double2float_{_m}", _F64, _F32, f"__nv_double2float_{_m}")
    globals()[f"double2int_{_m}"] = _unary(f"double2int_{_m}", _F64, _I32, f"__nv_double2int_{_m}")
    globals()[f"double2uint_{_m}"] = _unary(f"double2uint_{_m}", _F64, _U32, f"__nv_double2uint_{_m}")
    globals()[f"double2ll_{_m}"] = _unary(f"double2ll_{_m}", _F64, _I64, f"__nv_double2ll_{_m}")
    globals()[f"double2ull_{_m}"] = _unary(f"double2ull_{_m}", _F64, _U64, f"__nv_double2ull_{_m}")
    globals()[f"float2ll_{_m}"] = _unary(f"float2ll_{_m}", _F32, _I64, f"__nv_float2ll_{_m}")
    # The open backend binds float2ull to the library's f32 -> 64-bit conversion below
    # (named for long long): exact for results in [0, 2**63).
    globals()[f"float2ull_{_m}"] = _unary(f"float2ull_{_m}", _F32, _U64, f"__mt_f32_to_ll_{_m}")
for _m in ("rz", "rd", "ru"):
    globals()[f"ll2float_{_m}"] = _unary(f"ll2float_{_m}", _I64, _F32, f"__mt_ll_to_f32_{_m}")
    globals()[f"ull2float_{_m}"] = _unary(f"ull2float_{_m}", _U64, _F32, f"__mt_ull_to_f32_{_m}")
for _m in ("rd", "ru"):
    globals()[f"float2int_{_m}"] = _unary(f"float2int_{_m}", _F32, _I32, f"__mt_f32_to_i32_{_m}")
del _m
int2double_rn = _unary("int2double_rn", _I32, _F64, "__mt_i32_to_f64")
uint2double_rn = _unary("uint2double_rn", _U32, _F64, "__mt_ui32_to_f64")
double2loint = _unary("double2loint", _F64, _I32, "__nv_double2loint")

# 64-bit integer to fp64 takes the rounding mode as a second (int8) argument.
_ROUNDING = {"rn": 0, "rz": 1, "rd": 2, "ru": 3}
_TABLES["ll2double"] = {(_I64, _I8): ("__mt_i64_to_f64", _F64)}
_TABLES["ull2double"] = {(_U64, _I8): ("__mt_ui64_to_f64", _F64)}


def _int64_to_double(name: str, signed: bool, mode: str) -> Callable[..., Any]:
    src = _I64 if signed else _U64
    table = _TABLES["ll2double" if signed else "ull2double"]

    def fn(arg0: Any, _semantic: Any = None) -> Any:
        rounding = core.tensor(_semantic.builder.get_int8(_ROUNDING[mode]), _I8)
        value = _semantic.to_tensor(arg0)
        if value.dtype != src:
            got = (str(value.dtype), )
            raise TypeError(f"libdevice.{name} has no MUSA implementation for argument types {got}; "
                            f"accepted: ('{src}',) (cast the arguments first)")
        return _call(name, [value, rounding], table, _semantic)

    fn.__name__ = fn.__qualname__ = name
    fn.__module__ = __name__
    fn.__doc__ = f"{src} -> fp64 rounded {mode}: {table[(src, _I8)][0]} with rounding mode {_ROUNDING[mode]}."
    return core.extern(fn)


for _m in _ROUNDING:
    globals()[f"ll2double_{_m}"] = _int64_to_double(f"ll2double_{_m}", True, _m)
    globals()[f"ull2double_{_m}"] = _int64_to_double(f"ull2double_{_m}", False, _m)
del _m

# Integer helpers (CUDA-like names, no type suffix).
mulhi = _define(
    "mulhi", {
        (_I32, _I32): ("__mt_mulhi", _I32),
        (_U32, _U32): ("__mt_umulhi", _U32),
        (_I64, _I64): ("__mt_mul64hi", _I64),
        (_U64, _U64): ("__mt_umul64hi", _U64),
    }, "High half of an integer product.")
mul24 = _define("mul24", {
    (_I32, _I32): ("__mt_mul24", _I32),
    (_U32, _U32): ("__mt_umul24", _U32),
}, "24-bit integer multiply.")
hadd = _define("hadd", {
    (_I32, _I32): ("__mt_hadd", _I32),
    (_U32, _U32): ("__mt_uhadd", _U32),
}, "Halving add, rounding down.")
rhadd = _define("rhadd", {
    (_I32, _I32): ("__mt_rhadd", _I32),
    (_U32, _U32): ("__mt_urhadd", _U32),
}, "Halving add, rounding up.")
sad = _define("sad", {
    (_I32, _I32, _U32): ("__mt_sad", _I32),
    (_U32, _U32, _U32): ("__mt_usad", _U32),
}, "Sum of absolute difference: |a - b| + c.")
ffs = _define("ffs", {(_I32, ): ("__mt_ffs_i32", _I32), (_I64, ): ("__mt_ffsll_i64", _I32)}, "Find first set bit.")

# Bit casts.
float_as_int = _unary("float_as_int", _F32, _I32, "__mt_float_as_int")
int_as_float = _unary("int_as_float", _I32, _F32, "__mt_int_as_float")
float_as_uint = _unary("float_as_uint", _F32, _U32, "__mt_float_as_uint")
uint_as_float = _unary("uint_as_float", _U32, _F32, "__mt_uint_as_float")
double_as_longlong = _unary("double_as_longlong", _F64, _I64, "__mt_double_as_longlong")
longlong_as_double = _unary("longlong_as_double", _I64, _F64, "__mt_longlong_as_double")

# Functions of Triton's libdevice that MUSA's library does not provide.
for _name, _arity in (("clz", 1), ("popc", 1), ("brev", 1), ("byte_perm", 3), ("rcp64h", 1), ("saturatef", 1),
                      ("fma_rz", 3), ("fma_rd", 3), ("fma_ru", 3), ("rcp_rn", 1), ("rcp_rz", 1), ("rcp_rd", 1),
                      ("rcp_ru", 1), ("sqrt_rn", 1), ("sqrt_rz", 1), ("sqrt_rd", 1), ("sqrt_ru", 1),
                      ("float2int_rn", 1), ("float2int_rz", 1), ("float2uint_rn", 1), ("float2uint_rz", 1),
                      ("float2uint_rd", 1), ("float2uint_ru", 1), ("int2float_rn", 1), ("int2float_rz", 1),
                      ("int2float_rd", 1), ("int2float_ru", 1), ("uint2float_rn", 1), ("uint2float_rz", 1),
                      ("uint2float_rd", 1), ("uint2float_ru", 1), ("hiloint2double", 2), ("double2hiint", 1),
                      ("ll2float_rn", 1), ("ull2float_rn", 1), ("fast_exp10f", 1), ("rhypot", 2), ("norm3d", 3),
                      ("rnorm3d", 3), ("norm4d", 4), ("rnorm4d", 4), ("rcbrt", 1), ("jn", 2), ("yn", 2),
                      ("erfcx", 1), ("normcdfinv", 1), ("normcdf", 1)):
    globals()[_name] = _missing(_name, _arity)
del _name, _arity

# ---------------------------------------------------------------------------------------------------------------
# Bessel functions: MUSA's libdevice has none, so they are written here from the library's
# sqrt/log/sin/cos. The argument is widened to fp64 (the series below cancel heavily in fp32):
# for |x| < _BESSEL_SERIES_LIMIT the power series, beyond it Hankel's asymptotic expansion
# (Abramowitz & Stegun 9.1.10-11, 9.2.5-10, 9.7.1). The result has the argument's type.

_BESSEL_SERIES_LIMIT = tl.constexpr(12.0)
_EULER_GAMMA = tl.constexpr(0.57721566490153286061)
_TWO_OVER_PI = tl.constexpr(0.63661977236758134308)
_NAN = tl.constexpr(float("nan"))
_INF = tl.constexpr(float("inf"))


@triton.jit
def _hankel_pq(ax, ORDER: tl.constexpr):
    # P and Q of Hankel's expansion for J/Y of order ORDER at ax >= the series limit, with
    # mu = 4 * ORDER**2 (A&S 9.2.9-10): term k carries prod_{j=1..k} (mu - (2j-1)**2) / (k! (8x)**k).
    mu = 4.0 * ORDER * ORDER
    z8 = 8.0 * ax
    p = tl.full(ax.shape, 1.0, tl.float64)
    q = tl.zeros(ax.shape, tl.float64)
    term = tl.full(ax.shape, 1.0, tl.float64)
    for k in tl.static_range(1, 24):
        term = term * (mu - (2.0 * k - 1.0) * (2.0 * k - 1.0)) / (k * z8)
        if k % 4 == 1:
            q += term
        elif k % 4 == 2:
            p -= term
        elif k % 4 == 3:
            q -= term
        else:
            p += term
    return p, q


@triton.jit
def _bessel_j_y(x, ORDER: tl.constexpr, KIND_Y: tl.constexpr):
    xd = x.to(tl.float64)
    ax = tl.abs(xd)
    small = ax < _BESSEL_SERIES_LIMIT
    xs = tl.where(small, xd, 1.0)
    # Power series in (x/2): J_n = sum (-1)^k (x/2)^(2k+n) / (k! (k+n)!).
    h = 0.5 * xs
    h2 = h * h
    lead = tl.full(xd.shape, 1.0, tl.float64)
    if ORDER == 1:
        lead = h
    term = lead
    j = term
    # Y's series part: sum over k of the same terms weighted by harmonic numbers.
    harm_k = tl.zeros(xd.shape, tl.float64)  # H_k
    harm_kn = tl.zeros(xd.shape, tl.float64)  # H_{k+n}
    if ORDER == 1:
        harm_kn += 1.0
    ysum = term * (harm_k + harm_kn)
    for k in tl.static_range(1, 48):
        term = -term * h2 / (k * (k + ORDER))
        harm_k += 1.0 / k
        harm_kn += 1.0 / (k + ORDER)
        j += term
        ysum += term * (harm_k + harm_kn)
    # Asymptotic expansion at large |x|.
    axl = tl.where(small, _BESSEL_SERIES_LIMIT, ax)
    p, q = _hankel_pq(axl, ORDER)
    chi = axl - (0.5 * ORDER + 0.25) * 3.14159265358979323846
    amp = tl.sqrt(_TWO_OVER_PI / axl)
    if KIND_Y:
        # Y_0 = (2/pi) (ln(x/2) + gamma) J_0 - (1/pi) sum (...) (H_k + H_k)
        # Y_1 = (2/pi) ln(x/2) J_1 - 2/(pi x) - (1/pi) sum (...) (H_k + H_{k+1} - 2 gamma) with the same terms.
        logh = tl.log(h)
        if ORDER == 0:
            ys = _TWO_OVER_PI * (logh + _EULER_GAMMA) * j - 0.5 * _TWO_OVER_PI * ysum
        else:
            ys = _TWO_OVER_PI * (logh + _EULER_GAMMA) * j - 0.5 * _TWO_OVER_PI * ysum - _TWO_OVER_PI / xs
        ya = amp * (p * tl.sin(chi) + q * tl.cos(chi))
        # Y is real only for x >= 0 (NaN below, -inf at 0 from the logarithm / the 1/x term).
        r = tl.where(small, ys, ya)
        r = tl.where(xd < 0, _NAN, r)
        r = tl.where(xd == _INF, 0.0, r)
        r = tl.where(xd != xd, xd, r)
    else:
        ja = amp * (p * tl.cos(chi) - q * tl.sin(chi))
        if ORDER == 1:
            ja = tl.where(xd < 0, -ja, ja)
        r = tl.where(small, j, ja)
        r = tl.where(ax == _INF, 0.0, r)
        r = tl.where(xd != xd, xd, r)
    return r.to(x.dtype)


@triton.jit
def _bessel_i(x, ORDER: tl.constexpr):
    xd = x.to(tl.float64)
    ax = tl.abs(xd)
    small = ax < 30.0
    h = 0.5 * tl.where(small, ax, 1.0)
    h2 = h * h
    term = tl.full(xd.shape, 1.0, tl.float64)
    if ORDER == 1:
        term = h
    s = term
    for k in tl.static_range(1, 60):
        term = term * h2 / (k * (k + ORDER))
        s += term
    # I_n(x) ~ e^x / sqrt(2 pi x) * sum_k (-1)^k prod_{j<=k} (mu - (2j-1)^2) / (k! (8x)^k)   (A&S 9.7.1)
    axl = tl.where(small, 30.0, ax)
    mu = 4.0 * ORDER * ORDER
    t = tl.full(xd.shape, 1.0, tl.float64)
    a = t
    for k in tl.static_range(1, 20):
        t = -t * (mu - (2.0 * k - 1.0) * (2.0 * k - 1.0)) / (k * 8.0 * axl)
        a += t
    # e^x split in two so that e^(x/2)^2 reaches the fp64 range's end without overflowing early.
    e = tl.exp(0.5 * axl)
    big = (e / tl.sqrt(2.0 * 3.14159265358979323846 * axl)) * a * e
    r = tl.where(small, s, big)
    if ORDER == 1:
        r = tl.where(xd < 0, -r, r)
    r = tl.where(xd != xd, xd, r)
    return r.to(x.dtype)


@triton.jit
def j0(x):
    """Bessel function of the first kind, order 0 (computed in fp64 from sqrt/log/sin/cos)."""
    return _bessel_j_y(x, 0, False)


@triton.jit
def j1(x):
    """Bessel function of the first kind, order 1 (computed in fp64 from sqrt/log/sin/cos)."""
    return _bessel_j_y(x, 1, False)


@triton.jit
def y0(x):
    """Bessel function of the second kind, order 0 (NaN for x < 0; computed in fp64)."""
    return _bessel_j_y(x, 0, True)


@triton.jit
def y1(x):
    """Bessel function of the second kind, order 1 (NaN for x < 0; computed in fp64)."""
    return _bessel_j_y(x, 1, True)


@triton.jit
def cyl_bessel_i0(x):
    """Modified Bessel function of the first kind, order 0 (computed in fp64 from exp/sqrt)."""
    return _bessel_i(x, 0)


@triton.jit
def cyl_bessel_i1(x):
    """Modified Bessel function of the first kind, order 1 (computed in fp64 from exp/sqrt)."""
    return _bessel_i(x, 1)


def symbols() -> Dict[str, Dict[Tuple[str, ...], str]]:
    """Each function's symbols: {function: {argument dtypes: symbol}} (what the emulator must bind)."""
    return {name: {tuple(str(t) for t in sig): sym for sig, (sym, _) in table.items()}
            for name, table in _TABLES.items()}


def __getattr__(name: str) -> Any:
    # Kernels written for CUDA may name functions MUSA's libdevice lacks; say so plainly.
    if name.startswith("__"):
        raise AttributeError(name)
    raise AttributeError(f"libdevice.{name} is not available on the MUSA backend; available functions: "
                         f"{', '.join(sorted(n for n, v in globals().items() if core.is_builtin(v)))}")
