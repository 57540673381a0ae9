"""MUSA implementation of ``triton.language.extra.libdevice``.

The backend's module map substitutes this module for Triton's generic libdevice,
so ``libdevice.exp(x)`` in a kernel becomes a ``tt.extern_elementwise`` call of the
MUSA math library (``libdevice.31.bc`` on mp_31, ``libdevice.bc`` otherwise, under
``$MUSA_HOME/mtgpu/bitcode``).

Symbol names follow the MUSA libdevice interface as declared by public MUSA code
generators (AdaptiveCpp/hipSYCL's MUSA backend): floating point functions are
``__mt_<name>_f32`` / ``__mt_<name>_f64``; integer helpers keep CUDA-like names
(``__mt_mulhi``, ``__mt_umul24``). The ``fast_*`` variants use the functions that
interface documents as intrinsic-based (``__mt_expf_f32``, ``__mt_fast_fdivide_f32``).
Confirm against a real SDK's ``llvm-nm libdevice.31.bc`` when one is available.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Tuple

from triton.language import core

from ..backend.target import libdevice_path, parse_arch

_Signature = Tuple[core.dtype, ...]
_SymbolTable = Dict[_Signature, Tuple[str, core.dtype]]

_I32 = core.dtype("int32")
_I64 = core.dtype("int64")
_U32 = core.dtype("uint32")
_U64 = core.dtype("uint64")
_F32 = core.dtype("fp32")
_F64 = core.dtype("fp64")


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

    def fn(*args: Any, _semantic: Any = None) -> Any:
        if len(args) != arity:
            raise TypeError(f"libdevice.{name} takes {arity} argument(s), got {len(args)}")
        return _call(name, list(args), symbols, _semantic)

    fn.__name__ = fn.__qualname__ = name
    fn.__module__ = __name__
    fn.__doc__ = doc
    return core.extern(fn)


def _float(name: str, arity: int = 1, f64: bool = True, ret: core.dtype | None = None,
           symbol: str | None = None) -> Callable[..., Any]:
    """A function over fp32 (and fp64) values: ``__mt_<symbol>_f32`` / ``__mt_<symbol>_f64``."""
    base = symbol or name
    table: _SymbolTable = {(_F32, ) * arity: (f"__mt_{base}_f32", ret or _F32)}
    if f64:
        table[(_F64, ) * arity] = (f"__mt_{base}_f64", ret or _F64)
    return _define(name, table, f"MUSA libdevice {base} (elementwise).")


# Exponentials and logarithms.
exp = _float("exp")
exp2 = _float("exp2")
expm1 = _float("expm1")
log = _float("log")
log2 = _float("log2")
log10 = _float("log10")
log1p = _float("log1p")
logb = _float("logb")
ilogb = _float("ilogb", ret=_I32)
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
sin = _float("sin")
cos = _float("cos")
tan = _float("tan")
sinpi = _float("sinpi")
cospi = _float("cospi")
asin = _float("asin")
acos = _float("acos")
atan = _float("atan")
atan2 = _float("atan2", arity=2)
sinh = _float("sinh")
cosh = _float("cosh")
tanh = _float("tanh")
asinh = _float("asinh")
acosh = _float("acosh")
atanh = _float("atanh")
hypot = _float("hypot", arity=2)

# Special functions.
erf = _float("erf")
erfc = _float("erfc")
lgamma = _float("lgamma")
tgamma = _float("tgamma")
normcdf = _float("normcdf", f64=False, symbol="ncdf")

# Roots.
sqrt = _float("sqrt")
rsqrt = _float("rsqrt")
cbrt = _float("cbrt")

# Rounding and remainders.
floor = _float("floor")
ceil = _float("ceil")
trunc = _float("trunc")
round = _float("round")
rint = _float("rint")
nearbyint = _float("nearbyint", symbol="rint")
fmod = _float("fmod", arity=2)
remainder = _float("remainder", arity=2)
llrint = _define("llrint", {(_F32, ): ("__mt_llrint_f32", _I64), (_F64, ): ("__mt_llrint_f64", _I64)},
                 "MUSA libdevice llrint.")
llround = _define("llround", {(_F32, ): ("__mt_llround_f32", _I64), (_F64, ): ("__mt_llround_f64", _I64)},
                  "MUSA libdevice llround.")

# Sign, magnitude and comparisons.
fabs = _float("fabs")
copysign = _float("copysign", arity=2)
fdim = _float("fdim", arity=2)
fmax = _float("fmax", arity=2)
fmin = _float("fmin", arity=2)
nextafter = _float("nextafter", arity=2)
fma = _float("fma", arity=3)
saturatef = _float("saturatef", f64=False, symbol="saturate")
isnan = _float("isnan", ret=_I32)
isinf = _float("isinf", ret=_I32)
isfinited = _define("isfinited", {(_F64, ): ("__mt_isfinite_f64", _I32)}, "MUSA libdevice isfinite (fp64).")
finitef = _define("finitef", {(_F32, ): ("__mt_isfinite_f32", _I32)}, "MUSA libdevice isfinite (fp32).")
abs = _define(
    "abs", {
        (_I32, ): ("__mt_abs_i32", _I32),
        (_I64, ): ("__mt_abs_i64", _I64),
        (_F32, ): ("__mt_fabs_f32", _F32),
        (_F64, ): ("__mt_fabs_f64", _F64),
    }, "MUSA libdevice abs / fabs.")

# Double-precision arithmetic with an explicit rounding mode (fp64 only in MUSA libdevice).
div_rn = _define("div_rn", {(_F64, _F64): ("__mt_div_rte_f64", _F64)}, "fp64 division, round to nearest even.")
div_rz = _define("div_rz", {(_F64, _F64): ("__mt_div_rtz_f64", _F64)}, "fp64 division, round toward zero.")
div_rd = _define("div_rd", {(_F64, _F64): ("__mt_div_rtn_f64", _F64)}, "fp64 division, round down.")
div_ru = _define("div_ru", {(_F64, _F64): ("__mt_div_rtp_f64", _F64)}, "fp64 division, round up.")

# Fast, reduced-accuracy fp32 variants (intrinsic-based in MUSA libdevice).
fast_expf = _define("fast_expf", {(_F32, ): ("__mt_expf_f32", _F32)}, "Fast fp32 exp.")
fast_exp2f = _define("fast_exp2f", {(_F32, ): ("__mt_exp2_f32", _F32)}, "Fast fp32 exp2.")
fast_log2f = _define("fast_log2f", {(_F32, ): ("__mt_log2_f32", _F32)}, "Fast fp32 log2.")
fast_sinf = _define("fast_sinf", {(_F32, ): ("__mt_sin_f32", _F32)}, "Fast fp32 sin.")
fast_cosf = _define("fast_cosf", {(_F32, ): ("__mt_cos_f32", _F32)}, "Fast fp32 cos.")
fast_dividef = _define("fast_dividef", {(_F32, _F32): ("__mt_fast_fdivide_f32", _F32)}, "Fast fp32 division.")

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
    (_I32, _I32, _U32): ("__mt_sad", _U32),
    (_U32, _U32, _U32): ("__mt_usad", _U32),
}, "Sum of absolute difference.")
ffs = _define("ffs", {(_I32, ): ("__mt_ffs_i32", _I32), (_I64, ): ("__mt_ffsll_i64", _I32)}, "Find first set bit.")

# Bit casts.
float_as_int = _define("float_as_int", {(_F32, ): ("__mt_float_as_int", _I32)}, "Reinterpret fp32 as int32.")
int_as_float = _define("int_as_float", {(_I32, ): ("__mt_int_as_float", _F32)}, "Reinterpret int32 as fp32.")
float_as_uint = _define("float_as_uint", {(_F32, ): ("__mt_float_as_uint", _U32)}, "Reinterpret fp32 as uint32.")
uint_as_float = _define("uint_as_float", {(_U32, ): ("__mt_uint_as_float", _F32)}, "Reinterpret uint32 as fp32.")
double_as_longlong = _define("double_as_longlong", {(_F64, ): ("__mt_double_as_longlong", _I64)},
                             "Reinterpret fp64 as int64.")
longlong_as_double = _define("longlong_as_double", {(_I64, ): ("__mt_longlong_as_double", _F64)},
                             "Reinterpret int64 as fp64.")


def __getattr__(name: str) -> Any:
    # Kernels written for CUDA may name functions MUSA's libdevice lacks; say so plainly.
    if name.startswith("__"):
        raise AttributeError(name)
    raise AttributeError(f"libdevice.{name} is not available on the MUSA backend; available functions: "
                         f"{', '.join(sorted(n for n, v in globals().items() if core.is_builtin(v)))}")
