"""triton.language.extra.libdevice on MUSA: the symbols it calls, and every function run on the emulator.

Each (function, argument types) of triton_musa.language.libdevice's tables gets a kernel of its own,
run on the CPU emulator on both archs and compared with PyTorch or with exact math (directed
rounding is checked with fractions: the result brackets the exact value as its mode says)."""

from __future__ import annotations

import importlib.util
import math
import zlib
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

import pytest

torch = pytest.importorskip("torch")
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.compiler import ASTSource  # noqa: E402
from triton.language import core  # noqa: E402
from triton.language.extra.cuda import libdevice as cuda_libdevice  # noqa: E402

from triton_musa import _musa_mlir  # noqa: E402
from triton_musa.backend.emulator import emulator_active  # noqa: E402
from triton_musa.language import libdevice as musa_libdevice  # noqa: E402

TARGETS = {"mp_31": GPUTarget("musa", "mp_31", 32), "mp_22": GPUTarget("musa", "mp_22", 128)}
N = 64

needs_emulator = pytest.mark.skipif(not emulator_active(), reason="the CPU emulator is not the active driver")

# -- the table itself ----------------------------------------------------------------------------------------------


def _all_symbols() -> set:
    return {s for table in musa_libdevice.symbols().values() for s in table.values()}


def test_every_symbol_is_bound_on_the_emulator() -> None:
    missing = _all_symbols() - set(_musa_mlir.emulator_host_math_symbols())
    assert not missing, f"libdevice.py emits symbols the emulator does not bind: {sorted(missing)}"


def test_table_is_complete_against_tritons_libdevice() -> None:
    names = sorted(n for n, v in vars(cuda_libdevice).items() if core.is_builtin(v))
    absent = [n for n in names if not hasattr(musa_libdevice, n)]
    assert not absent


def test_symbols_follow_the_musa_library() -> None:
    s = musa_libdevice.symbols()
    assert s["sin"] == {("fp32", ): "__nv_sinf", ("fp64", ): "__nv_sin"}
    assert s["rsqrt"] == {("fp32", ): "llvm.musa.rsq", ("fp64", ): "__nv_rsqrt"}
    assert s["tanh"][("fp32", )] == "__mt_tanh_f32"
    assert s["div_rn"][("fp32", "fp32")] == "__mt_div_rte_f32"
    assert s["ll2double"] == {("int64", "int8"): "__mt_i64_to_f64"}
    assert ("int64", ) not in s["abs"]  # MUSA's library has no 64-bit integer abs


# -- the symbol reaches the TTIR -------------------------------------------------------------------------------------

_KERNEL_TEMPLATE = '''
import triton
import triton.language as tl
{libdevice_import}


@triton.jit
def kernel({params}, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
{loads}
    r = libdevice.{name}({args})
{store}
'''

_TORCH = {
    "fp32": torch.float32, "fp64": torch.float64, "int32": torch.int32, "int64": torch.int64,
    "uint32": torch.int32, "uint64": torch.int64, "int1": torch.int32
}


def _kernel(name: str, sig: Tuple[str, ...], ret: str, tmp: Path) -> Any:
    """A kernel applying libdevice.`name` to arguments of types `sig` (unsigned ones travel as signed bits)."""
    loads = []
    for i, t in enumerate(sig):
        load = f"tl.load(a{i} + offs)"
        if t.startswith("uint"):
            load += f".to(tl.{t}, bitcast=True)"
        loads.append(f"    x{i} = {load}")
    if ret.startswith("uint"):
        store = f"    tl.store(out + offs, r.to(tl.{ret[1:]}, bitcast=True))"
    elif ret == "int1":
        store = "    tl.store(out + offs, r.to(tl.int32))"
    else:
        store = "    tl.store(out + offs, r)"
    # Functions beyond Triton's own libdevice (fabs, fmax, fast_tanh, ...) are reached through our module.
    generic = hasattr(cuda_libdevice, name)
    libdevice_import = ("from triton.language.extra import libdevice" if generic else
                        "from triton_musa.language import libdevice")
    src = _KERNEL_TEMPLATE.format(libdevice_import=libdevice_import, params=", ".join(f"a{i}" for i in range(len(sig))), loads="\n".join(loads),
                                  name=name, args=", ".join(f"x{i}" for i in range(len(sig))), store=store)
    stem = f"k_{name}_{'_'.join(sig)}"
    path = tmp / f"{stem}.py"
    path.write_text(src)
    spec = importlib.util.spec_from_file_location(stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.kernel


@pytest.mark.parametrize("name,symbol", [("sin", "__nv_sinf"), ("cos", "__nv_cosf"), ("exp", "__nv_expf"),
                                         ("log2", "__nv_log2f"), ("tanh", "__mt_tanh_f32"), ("log", "__mt_log_f32"),
                                         ("sqrt", "__mt_sqrt_f32"), ("rsqrt", "llvm.musa.rsq"),
                                         ("ceil", "__nv_ceilf"), ("atan", "__nv_atanf"), ("expm1", "__nv_expm1f"),
                                         ("rint", "__nv_rintf"), ("fast_expf", "__nv_expf")])
def test_ttir_calls_the_musa_symbol(name: str, symbol: str, tmp_path: Path) -> None:
    from triton_musa.backend.compiler import compile_to_ttgir  # noqa: F401  (the backend's own stages)
    fn = _kernel(name, ("fp32", ), "fp32", tmp_path)
    src = ASTSource(fn, signature={"a0": "*fp32", "out": "*fp32", "BLOCK": "constexpr"}, constexprs={"BLOCK": 32})
    kernel = triton.compile(src, target=TARGETS["mp_31"])
    ttir = kernel.asm["ttir"]
    assert f'symbol = "{symbol}"' in ttir
    assert "tt.extern_elementwise" in ttir and "/mtgpu/bitcode/libdevice.31.bc" in ttir


def test_fp32_rsqrt_intrinsic_is_llvm14_ir(tmp_path: Path) -> None:
    import llvm14_ir
    fn = _kernel("rsqrt", ("fp32", ), "fp32", tmp_path)
    src = ASTSource(fn, signature={"a0": "*fp32", "out": "*fp32", "BLOCK": "constexpr"}, constexprs={"BLOCK": 32})
    from triton_musa.backend.compiler import compile_to_ttgir
    from triton_musa.backend.lowering import lower_to_llir
    from triton_musa.backend.target import parse_arch
    for arch in TARGETS:
        ttgir = compile_to_ttgir(src, TARGETS[arch], {})["ttgir"]
        llir = lower_to_llir(str(ttgir), parse_arch(arch)).llir
        assert "declare float @llvm.musa.rsq(float)" in llir
        try:
            assert llvm14_ir.problems(llir) == []
        except llvm14_ir.Llvm14ToolsMissing as exc:
            pytest.fail(str(exc), pytrace=False)


@pytest.mark.parametrize("name,message", [("clz", "libdevice.clz is not available on the MUSA backend"),
                                          ("saturatef", "libdevice.saturatef is not available on the MUSA backend")])
def test_unprovided_function_is_a_named_error(name: str, message: str, tmp_path: Path) -> None:
    fn = _kernel(name, ("fp32", ), "fp32", tmp_path)
    src = ASTSource(fn, signature={"a0": "*fp32", "out": "*fp32", "BLOCK": "constexpr"}, constexprs={"BLOCK": 32})
    with pytest.raises(Exception) as info:
        triton.compile(src, target=TARGETS["mp_31"])
    chain, err = [], info.value
    while err is not None:
        chain.append(str(err))
        err = err.__cause__ or err.__context__
    assert any(message in m for m in chain), chain


def test_unprovided_dtype_is_a_named_error(tmp_path: Path) -> None:
    fn = _kernel("cospi", ("fp32", ), "fp32", tmp_path)  # MUSA's library has cospi for fp64 only
    src = ASTSource(fn, signature={"a0": "*fp32", "out": "*fp32", "BLOCK": "constexpr"}, constexprs={"BLOCK": 32})
    with pytest.raises(Exception) as info:
        triton.compile(src, target=TARGETS["mp_31"])
    chain, err = [], info.value
    while err is not None:
        chain.append(str(err))
        err = err.__cause__ or err.__context__
    assert any("libdevice.cospi has no MUSA implementation for argument types ('fp32',)" in m for m in chain), chain


# -- every function on the emulator ----------------------------------------------------------------------------------

_MODE = {"rn": "rn", "rte": "rn", "rz": "rz", "rtz": "rz", "rd": "rd", "rtn": "rd", "ru": "ru", "rtp": "ru"}


def _round_exact(q: Fraction, mode: str) -> int:
    if mode == "rz":
        return math.trunc(q)
    if mode == "rd":
        return math.floor(q)
    if mode == "ru":
        return math.ceil(q)
    return round(q)  # half to even


def _check_directed(got: torch.Tensor, exact: List[Fraction], mode: str) -> None:
    """`got` is `exact` rounded to its float type in `mode` (rn: nearest even)."""
    np_dtype = torch.float32 if got.dtype == torch.float32 else torch.float64
    for g, e in zip(got.tolist(), exact):
        g = float(g)
        up = torch.nextafter(torch.tensor(g, dtype=np_dtype), torch.tensor(math.inf, dtype=np_dtype)).item()
        down = torch.nextafter(torch.tensor(g, dtype=np_dtype), torch.tensor(-math.inf, dtype=np_dtype)).item()
        fg = Fraction(g)
        if mode == "rd":
            ok = fg <= e < Fraction(up)
        elif mode == "ru":
            ok = Fraction(down) < e <= fg
        elif mode == "rz":
            ok = (fg <= e < Fraction(up)) if e >= 0 else (Fraction(down) < e <= fg)
        else:
            ok = abs(fg - e) <= abs(Fraction(up) - e) and abs(fg - e) <= abs(Fraction(down) - e)
        assert ok, (g, float(e), mode)


def _uniform(dtype: torch.dtype, lo: float, hi: float, gen: torch.Generator) -> torch.Tensor:
    return (torch.rand(N, generator=gen, dtype=torch.float64) * (hi - lo) + lo).to(dtype)


# Per function: the argument domain (lo, hi) for floats, and the reference on float64 tensors.
_DOMAIN: Dict[str, Tuple[float, float]] = {
    "acosh": (1.05, 4.0), "logb": (0.01, 100.0), "ilogb": (0.01, 100.0), "exp10": (-3.0, 3.0),
    "lgamma": (0.1, 6.0), "tgamma": (0.1, 6.0), "erfcinv": (0.05, 1.95), "erfinv": (-0.95, 0.95),
    "floor": (-5.0, 5.0), "ceil": (-5.0, 5.0), "trunc": (-5.0, 5.0), "round": (-5.0, 5.0), "rint": (-5.0, 5.0),
    "nearbyint": (-5.0, 5.0), "llrint": (-50.0, 50.0), "llround": (-50.0, 50.0), "fabs": (-3.0, 3.0),
    "abs": (-3.0, 3.0), "copysign": (-3.0, 3.0), "signbit": (-3.0, 3.0), "sinpi": (-2.0, 2.0),
    "cospi": (-2.0, 2.0), "fmod": (-5.0, 5.0), "remainder": (-5.0, 5.0), "fdim": (-2.0, 2.0),
    "fmax": (-2.0, 2.0), "fmin": (-2.0, 2.0), "atan2": (-2.0, 2.0), "sin": (-6.0, 6.0), "cos": (-6.0, 6.0),
    "tan": (-1.2, 1.2), "sinh": (-3.0, 3.0), "cosh": (-3.0, 3.0), "tanh": (-3.0, 3.0), "fast_tanh": (-3.0, 3.0), "fast_gelu": (-4.0, 4.0),
    "asinh": (-3.0, 3.0), "atan": (-3.0, 3.0), "erf": (-2.0, 2.0), "erfc": (-2.0, 2.0), "cbrt": (0.01, 8.0),
    "expm1": (-1.0, 1.0), "exp": (-3.0, 3.0), "exp2": (-3.0, 3.0), "fast_expf": (-3.0, 3.0),
    "fast_exp2f": (-3.0, 3.0), "fast_sinf": (-3.0, 3.0), "fast_cosf": (-3.0, 3.0), "fast_tanf": (-1.0, 1.0),
    "fast_dividef": (0.5, 3.0), "nextafter": (-2.0, 2.0), "j0": (-30.0, 30.0), "j1": (-30.0, 30.0),
    "y0": (0.05, 30.0), "y1": (0.05, 30.0), "cyl_bessel_i0": (-40.0, 40.0), "cyl_bessel_i1": (-40.0, 40.0),
}
_DEFAULT_DOMAIN = (0.1, 0.9)


def _round_half_away(x: torch.Tensor) -> torch.Tensor:
    return torch.sign(x) * torch.floor(x.abs() + 0.5)


_F: Dict[str, Callable[..., torch.Tensor]] = {
    "exp": torch.exp, "exp2": torch.exp2, "exp10": lambda x: torch.pow(10.0, x), "expm1": torch.expm1,
    "log": torch.log, "log2": torch.log2, "log10": torch.log10, "log1p": torch.log1p,
    "logb": lambda x: torch.floor(torch.log2(x.abs())), "ilogb": lambda x: torch.floor(torch.log2(x.abs())),
    "pow": torch.pow, "ldexp": lambda x, n: x * torch.pow(2.0, n), "scalbn": lambda x, n: x * torch.pow(2.0, n),
    "sin": torch.sin, "cos": torch.cos, "tan": torch.tan, "sinpi": lambda x: torch.sin(math.pi * x),
    "cospi": lambda x: torch.cos(math.pi * x), "asin": torch.asin, "acos": torch.acos, "atan": torch.atan,
    "atan2": torch.atan2, "sinh": torch.sinh, "cosh": torch.cosh, "tanh": torch.tanh, "asinh": torch.asinh,
    "acosh": torch.acosh, "atanh": torch.atanh, "hypot": torch.hypot, "erf": torch.erf, "erfc": torch.erfc,
    "erfinv": torch.erfinv, "erfcinv": lambda x: torch.erfinv(1.0 - x), "lgamma": torch.lgamma,
    "tgamma": lambda x: torch.exp(torch.lgamma(x)), "sqrt": torch.sqrt, "rsqrt": torch.rsqrt,
    "rsqrt_rn": torch.rsqrt, "cbrt": lambda x: torch.pow(x, 1.0 / 3.0), "floor": torch.floor, "ceil": torch.ceil,
    "trunc": torch.trunc, "round": _round_half_away, "rint": torch.round, "nearbyint": torch.round,
    "fmod": torch.fmod, "remainder": lambda x, y: x - y * torch.round(x / y), "llrint": torch.round,
    "llround": _round_half_away, "fabs": torch.abs, "abs": torch.abs, "fmax": torch.fmax, "fmin": torch.fmin,
    "copysign": torch.copysign, "fdim": lambda x, y: torch.clamp(x - y, min=0.0), "nextafter": None,
    "fma": lambda x, y, z: x * y + z, "fma_rn": lambda x, y, z: x * y + z,
    "isnan": lambda x: torch.isnan(x).double(), "isinf": lambda x: torch.isinf(x).double(),
    "isfinited": lambda x: torch.isfinite(x).double(), "finitef": lambda x: torch.isfinite(x).double(),
    "signbit": lambda x: torch.signbit(x).double(), "fast_dividef": torch.div, "fast_tanh": torch.tanh,
    "fast_gelu": torch.nn.functional.gelu,
    "fast_expf": torch.exp, "fast_exp2f": torch.exp2, "fast_logf": torch.log, "fast_log2f": torch.log2,
    "fast_log10f": torch.log10, "fast_sinf": torch.sin, "fast_cosf": torch.cos, "fast_tanf": torch.tan,
    "fast_powf": torch.pow, "j0": torch.special.bessel_j0, "j1": torch.special.bessel_j1,
    "y0": torch.special.bessel_y0, "y1": torch.special.bessel_y1, "cyl_bessel_i0": torch.special.i0,
    "cyl_bessel_i1": torch.special.i1,
}


_MPMATH = {
    "j0": lambda m, x: m.besselj(0, x), "j1": lambda m, x: m.besselj(1, x), "y0": lambda m, x: m.bessely(0, x),
    "y1": lambda m, x: m.bessely(1, x), "cyl_bessel_i0": lambda m, x: m.besseli(0, x),
    "cyl_bessel_i1": lambda m, x: m.besseli(1, x)
}


def _int_ref(name: str, args: List[List[int]], bits: int, signed: bool) -> List[int]:
    mask = (1 << bits) - 1

    def wrap(v: int) -> int:
        v &= mask
        return v - (1 << bits) if signed and v >> (bits - 1) else v

    def sx24(v: int) -> int:
        v &= 0xFFFFFF
        return v - (1 << 24) if v >> 23 else v

    rows = list(zip(*args))
    if name == "mulhi":
        return [wrap((a * b) >> bits) for a, b in rows]
    if name == "mul24":
        return [wrap((sx24(a) if signed else a & 0xFFFFFF) * (sx24(b) if signed else b & 0xFFFFFF)) for a, b in rows]
    if name == "hadd":
        return [wrap((a + b) >> 1) for a, b in rows]
    if name == "rhadd":
        return [wrap((a + b + 1) >> 1) for a, b in rows]
    if name == "sad":
        return [wrap(abs(a - b) + c) for a, b, c in rows]
    if name == "abs":
        return [wrap(abs(a)) for (a, ) in rows]
    if name == "ffs":
        return [((a & -a).bit_length()) for (a, ) in rows]
    raise KeyError(name)


def _cases() -> List[Any]:
    cases = []
    for name, table in sorted(musa_libdevice.symbols().items()):
        if name in ("ll2double", "ull2double"):
            for m in ("rn", "rz", "rd", "ru"):
                signed = name == "ll2double"
                cases.append((f"{'ll' if signed else 'ull'}2double_{m}", ("int64" if signed else "uint64", )))
            continue
        for sig in table:
            cases.append((name, sig))
    for name in ("j0", "j1", "y0", "y1", "cyl_bessel_i0", "cyl_bessel_i1"):
        cases += [(name, ("fp32", )), (name, ("fp64", ))]
    return [pytest.param(n, s, a, id=f"{n}-{'-'.join(s)}-{a}") for n, s in cases for a in TARGETS]


def _ret_type(name: str, sig: Tuple[str, ...]) -> str:
    if name.startswith(("ll2double", "ull2double")):
        return "fp64"
    fn = getattr(musa_libdevice, name)
    table = musa_libdevice._TABLES.get(name)
    if table is None:  # composed in Triton: same type as the argument
        return sig[0]
    assert fn is not None
    return str(table[tuple(core.dtype(t) for t in sig)][1])


def _inputs(name: str, sig: Tuple[str, ...], gen: torch.Generator) -> List[torch.Tensor]:
    args = []
    for i, t in enumerate(sig):
        if t in ("fp32", "fp64"):
            dt = torch.float32 if t == "fp32" else torch.float64
            lo, hi = _DOMAIN.get(name, _DEFAULT_DOMAIN)
            if name.startswith(("double2", "float2")):
                lo, hi = (0.0, 3.0e9) if "ll" in name or "uint" in name else (-2.0e9, 2.0e9)
                if name.startswith("float2int"):
                    lo, hi = -1.0e6, 1.0e6
            if name in ("div_rn", "div_rz", "div_rd", "div_ru") or name.startswith(("add_", "sub_", "mul_")):
                lo, hi = -3.0, 3.0
            if name in ("pow", "fast_powf") and i == 1:
                lo, hi = -2.0, 2.0
            x = _uniform(dt, lo, hi, gen)
            if name in ("isnan", "isinf", "isfinited", "finitef"):
                x[::5] = math.nan
                x[1::5] = math.inf
                x[2::5] = -math.inf
            if name in ("floor", "ceil", "trunc", "round", "rint", "nearbyint", "llrint", "llround"):
                x[::4] = torch.floor(x[::4]) + 0.5  # the ties
            if name == "signbit":
                x[::6] = -0.0
            args.append(x)
        elif t == "int8":
            raise AssertionError("int8 arguments are internal")
        else:
            bits = 64 if "64" in t else 32
            if name in ("pow", "ldexp", "scalbn"):
                args.append(torch.randint(-4, 5, (N, ), generator=gen, dtype=torch.int32))
            elif name.startswith(("ll2", "ull2")):
                hi = 2**62 if name.startswith("ll2") else 2**63 - 1
                args.append(torch.randint(-hi if name.startswith("ll2") else 0, hi, (N, ), generator=gen,
                                          dtype=torch.int64))
            elif name in ("int2double_rn", "uint2double_rn", "int_as_float", "uint_as_float",
                          "longlong_as_double"):
                lo = -2**(bits - 1)
                v = torch.randint(lo, 2**(bits - 1) - 1, (N, ), generator=gen, dtype=_TORCH[t])
                if name in ("int_as_float", "uint_as_float", "longlong_as_double"):
                    # Bit patterns of ordinary numbers (no NaN payloads to compare).
                    f = _uniform(torch.float32 if bits == 32 else torch.float64, -100.0, 100.0, gen)
                    v = f.view(_TORCH[t])
                args.append(v)
            else:
                lo = -2**(bits - 1)
                args.append(torch.randint(lo, 2**(bits - 1) - 1, (N, ), generator=gen, dtype=_TORCH[t]))
    return args


def _check(name: str, sig: Tuple[str, ...], ret: str, args: List[torch.Tensor], out: torch.Tensor) -> None:
    d = [a.double() if a.is_floating_point() else a for a in args]
    mode_suffix = name.rsplit("_", 1)[-1]
    if name in ("mulhi", "mul24", "hadd", "rhadd", "sad", "ffs") or (name == "abs" and sig == ("int32", )):
        unsigned = sig[0].startswith("uint")
        bits = 64 if "64" in sig[0] else 32
        vals = [[int(v) & ((1 << bits) - 1) if unsigned else int(v) for v in a.tolist()] for a in args]
        ref = _int_ref(name, vals, bits, not unsigned)
        got = [int(v) & ((1 << bits) - 1) if unsigned else int(v) for v in out.tolist()]
        if name == "sad" and not unsigned:
            ref = [((r + 2**31) % 2**32) - 2**31 for r in ref]
        assert got == ref
        return
    if name in ("float_as_int", "float_as_uint", "double_as_longlong"):
        assert torch.equal(out, args[0].view(out.dtype))
        return
    if name in ("int_as_float", "uint_as_float", "longlong_as_double"):
        assert torch.equal(out.view(args[0].dtype), args[0])
        return
    if name == "double2loint":
        assert out.tolist() == [((v & 0xFFFFFFFF) ^ 0x80000000) - 0x80000000 for v in args[0].view(torch.int64).tolist()]
        return
    if name in ("int2double_rn", "uint2double_rn"):
        vals = args[0].tolist() if name == "int2double_rn" else [v & 0xFFFFFFFF for v in args[0].tolist()]
        assert out.tolist() == [float(v) for v in vals]
        return
    if name.startswith(("double2int", "double2uint", "double2ll", "double2ull", "float2ll", "float2ull",
                        "float2int")):
        mode = _MODE[mode_suffix]
        bits = 64 if ("ll" in name) else 32
        unsigned = "uint" in name or "ull" in name
        ref = [_round_exact(Fraction(float(v)), mode) for v in args[0].tolist()]
        got = [int(v) & ((1 << bits) - 1) if unsigned else int(v) for v in out.tolist()]
        assert got == ref
        return
    if name.startswith(("double2float", "ll2float", "ull2float", "ll2double", "ull2double")):
        vals = args[0].tolist()
        if name.startswith("ull"):
            vals = [v & (2**64 - 1) for v in vals]
        _check_directed(out, [Fraction(v) for v in vals], _MODE[mode_suffix])
        return
    if name.startswith(("add_", "sub_", "mul_", "div_")) and mode_suffix in _MODE:
        xs, ys = [Fraction(v) for v in args[0].tolist()], [Fraction(v) for v in args[1].tolist()]
        op = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
              "div": lambda a, b: a / b}[name.split("_")[0]]
        _check_directed(out, [op(a, b) for a, b in zip(xs, ys)], _MODE[mode_suffix])
        return
    if name == "nextafter":
        ref = torch.nextafter(args[0], args[1])
        assert torch.equal(out, ref)
        return
    if name in _MPMATH and ret == "fp64":
        # fp64 Bessel functions against mpmath (torch's are good to about 1e-8 only: J0(5)).
        mpmath = pytest.importorskip("mpmath")
        ref = torch.tensor([float(_MPMATH[name](mpmath, mpmath.mpf(v))) if (v > 0 or name[0] != "y") else math.nan
                            for v in args[0].tolist()], dtype=torch.float64)
        torch.testing.assert_close(out, ref, rtol=1e-9, atol=1e-10, equal_nan=True)
        return
    ref = _F[name](*d)
    if ret in ("int32", "int64"):
        assert out.tolist() == [int(v) for v in ref.tolist()]
        return
    tol = dict(rtol=2e-6, atol=1e-6) if ret == "fp32" else dict(rtol=1e-12, atol=1e-12)
    if name in ("erfinv", "erfcinv", "tgamma", "lgamma", "cbrt", "pow", "fast_powf") and ret == "fp32":
        tol = dict(rtol=1e-5, atol=1e-6)
    torch.testing.assert_close(out.double(), ref.double().to(out.dtype).double(), equal_nan=True, **tol)


@needs_emulator
@pytest.mark.parametrize("name,sig,arch", _cases())
def test_function_on_the_emulator(name: str, sig: Tuple[str, ...], arch: str, tmp_path: Path) -> None:
    ret = _ret_type(name, sig)
    fn = _kernel(name, sig, ret, tmp_path)
    gen = torch.Generator().manual_seed(zlib.crc32(repr((name, sig)).encode()))
    args = _inputs(name, sig, gen)
    out_dtype = _TORCH[ret] if ret != "int1" else torch.int32
    out = torch.empty(N, dtype=out_dtype)
    signature = {f"a{i}": "*" + ("i32" if t in ("uint32", "int32") else "i64" if t in ("int64", "uint64") else t)
                 for i, t in enumerate(sig)}
    signature["out"] = "*" + {"fp32": "fp32", "fp64": "fp64", "int32": "i32", "int64": "i64", "uint32": "i32",
                              "uint64": "i64", "int1": "i32"}[ret]
    signature["BLOCK"] = "constexpr"
    kernel = triton.compile(ASTSource(fn, signature=signature, constexprs={"BLOCK": N}), target=TARGETS[arch])
    kernel[(1, 1, 1)](*args, out, N)
    _check(name, sig, ret, args, out)



@needs_emulator
@pytest.mark.parametrize("arch", list(TARGETS))
@pytest.mark.parametrize("dtype", ["fp32", "fp64"])
@pytest.mark.parametrize("name,torch_name", [("j0", "bessel_j0"), ("j1", "bessel_j1"), ("y0", "bessel_y0"),
                                             ("y1", "bessel_y1"), ("cyl_bessel_i0", "i0"),
                                             ("cyl_bessel_i1", "i1")])
def test_bessel_on_normal_samples(name: str, torch_name: str, dtype: str, arch: str, tmp_path: Path) -> None:
    """Issue 12's libdevice row: standard-normal arguments (negative ones too: Y is NaN there), compared with
    torch.special at assert_close's default tolerances for the dtype."""
    fn = _kernel(name, (dtype, ), dtype, tmp_path)
    x = torch.randn(N, generator=torch.Generator().manual_seed(7), dtype=_TORCH[dtype])
    out = torch.empty_like(x)
    src = ASTSource(fn, signature={"a0": f"*{dtype}", "out": f"*{dtype}", "BLOCK": "constexpr"},
                    constexprs={"BLOCK": N})
    triton.compile(src, target=TARGETS[arch])[(1, 1, 1)](x, out, N)
    ref = getattr(torch.special, torch_name)(x.double()).to(x.dtype)
    if name.startswith("y"):
        assert torch.isnan(out[x < 0]).all() and (x < 0).any()
    torch.testing.assert_close(out, ref, equal_nan=True)
