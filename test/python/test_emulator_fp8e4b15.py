"""tl.float8e4b15 as a storage and conversion type on the CPU emulator, both archs: every code
widened to fp16/bf16/fp32, narrowing from fp32/fp16/bf16 (rtne and rtz, ties, subnormals,
saturation, NaN) and a dot on fp8e4b15 operands, each against exact arithmetic in Python.
Format (language/fp8e4b15.py): sign, 4 exponent bits with bias 15, 3 mantissa bits, all codes
finite, largest 0x7F = 1.875."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, List

import pytest

torch = pytest.importorskip("torch")
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

from triton_musa.backend.emulator import emulator_active  # noqa: E402

pytestmark = pytest.mark.skipif(not emulator_active(), reason="a MUSA device or another GPU driver is active here; "
                                "the emulator runs where none is (or with TRITON_MUSA_EMULATOR=1)")

TORCH_DTYPE = {"fp16": torch.float16, "bf16": torch.bfloat16, "fp32": torch.float32}
TL_DTYPE = {"fp16": tl.float16, "bf16": tl.bfloat16, "fp32": tl.float32}


def code_value(code: int) -> Fraction:
    """The exact value of an fp8e4b15 code."""
    sign = -1 if code & 0x80 else 1
    e, m = (code >> 3) & 0xF, code & 0x7
    magnitude = Fraction(m, 8) * Fraction(1, 2**14) if e == 0 else (1 + Fraction(m, 8)) * Fraction(2)**(e - 15)
    return sign * magnitude


MAGNITUDES = [code_value(c) for c in range(0x80)]  # increasing with the code


def encode(value: float, rtz: bool) -> int:
    """The fp8e4b15 code of `value` rounded once (ties to even code, or toward zero), saturating."""
    sign = 0x80 if math.copysign(1.0, value) < 0 else 0
    if math.isnan(value) or math.isinf(value):
        return sign | 0x7F
    x = abs(Fraction(value))
    if x >= MAGNITUDES[-1]:
        return sign | 0x7F
    below = max(c for c in range(0x80) if MAGNITUDES[c] <= x)
    if MAGNITUDES[below] == x or rtz:
        return sign | below
    low, high = x - MAGNITUDES[below], MAGNITUDES[below + 1] - x
    up = high < low or (high == low and below % 2 == 1)
    return sign | (below + 1 if up else below)


def _convert_kernel() -> Any:
    def convert(x_ptr, y_ptr, n, ROUNDING: tl.constexpr, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        x = tl.load(x_ptr + offs, mask=mask)
        tl.store(y_ptr + offs, x.to(y_ptr.dtype.element_ty, fp_downcast_rounding=ROUNDING), mask=mask)

    return triton.jit(convert)


def _convert(x: Any, y: Any, n: int, rounding: Any = None) -> None:
    block = 256
    _convert_kernel()[(triton.cdiv(n, block), )](x, y, n, rounding, block)


@pytest.mark.parametrize("dst", ["fp16", "bf16", "fp32"])
def test_fp8e4b15_widens_every_code_exactly(arch: str, dst: str) -> None:
    codes = torch.arange(256, dtype=torch.int32).to(torch.uint8)
    out = torch.full((256, ), float("nan"), dtype=TORCH_DTYPE[dst])
    _convert(triton.reinterpret(codes, tl.float8e4b15), out, 256)
    expected = [float(code_value(c)) for c in range(256)]
    got = out.float().tolist()
    assert got == expected, [(hex(c), g, e) for c, (g, e) in enumerate(zip(got, expected)) if g != e][:8]
    # -0 stays -0.
    assert math.copysign(1.0, got[0x80]) < 0


def _narrowing_inputs() -> List[float]:
    values: List[float] = [0.0, -0.0, 1e-30, 2.0**-17, 2.0**-18, 3 * 2.0**-19, 2.0**-18 * 1.0001, 1.875, 1.9, 1.9375,
                           2.0, 1e9, float("inf"), float("-inf"), float("nan")]
    for code in range(1, 0x7F):
        lo, hi = MAGNITUDES[code], MAGNITUDES[code + 1]
        mid = (lo + hi) / 2
        values += [float(lo), float(mid), float(mid) * (1 + 2**-20), float(mid) * (1 - 2**-20)]
    return values + [-v for v in values]


@pytest.mark.parametrize("src, rounding", [("fp32", "rtne"), ("fp32", "rtz"), ("fp16", "rtne"), ("bf16", "rtne")])
def test_fp8e4b15_narrows_rounded_once(arch: str, src: str, rounding: str) -> None:
    inputs = torch.tensor(_narrowing_inputs(), dtype=torch.float64).to(TORCH_DTYPE[src])
    n = inputs.numel()
    out = torch.zeros(n, dtype=torch.uint8)
    _convert(inputs, triton.reinterpret(out, tl.float8e4b15), n, rounding)
    expected = [encode(v, rounding == "rtz") for v in inputs.double().tolist()]
    got = out.tolist()
    bad = [(v, hex(g), hex(e)) for v, g, e in zip(inputs.double().tolist(), got, expected) if g != e]
    assert not bad, bad[:8]


def test_fp8e4b15_dot(arch: str) -> None:
    """fp8e4b15 operands enter tl.dot as fp16 (Triton's rule), so the product is exact in fp32."""

    @triton.jit
    def dot(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
        m, n, k = tl.arange(0, M), tl.arange(0, N), tl.arange(0, K)
        a = tl.load(a_ptr + m[:, None] * K + k[None, :])
        b = tl.load(b_ptr + k[:, None] * N + n[None, :])
        tl.store(c_ptr + m[:, None] * N + n[None, :], tl.dot(a, b))

    M = N = K = 32
    gen = torch.Generator().manual_seed(3)
    a = torch.randint(0, 256, (M, K), dtype=torch.uint8, generator=gen)
    b = torch.randint(0, 256, (K, N), dtype=torch.uint8, generator=gen)
    c = torch.full((M, N), float("nan"))
    dot[(1, )](triton.reinterpret(a, tl.float8e4b15), triton.reinterpret(b, tl.float8e4b15), c, M, N, K)
    table = torch.tensor([float(code_value(i)) for i in range(256)], dtype=torch.float64)
    exact = table[a.long()] @ table[b.long()]
    # Products are exact in fp32 (3+3 mantissa bits); 32 fp32 additions of values below 3.6.
    assert (c.double() - exact).abs().max().item() <= 32 * 2.0**-24 * (table[a.long()].abs() @ table[b.long()].abs()).max()
