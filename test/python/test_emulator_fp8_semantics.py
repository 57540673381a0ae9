"""Triton's fp8 semantics on the CPU emulator, both archs, against exact arithmetic:
* tl.abs (math.absf on fp8 elements) over every one of the 256 codes of fp8e5, fp8e4nv and fp8e4b15: the
  sign is bit 7 in each of them, and none uses 0x80 as its NaN, so |x| is the code with bit 7 cleared;
* narrowing to fp8e5 saturates, as Triton's NVIDIA (cvt.satfinite) and AMD backends do: infinities and
  values past the range become +-57344, the largest finite value, never +-inf; NaN stays NaN;
* widening fp8e5 and fp8e4nv to fp16 (the integer paths that widen a dot's fp8 operands for WMMA) gives
  every one of the 256 codes its exact value (torch's own conversion), NaN codes the canonical NaN with
  their sign."""

from __future__ import annotations

import math

import pytest

torch = pytest.importorskip("torch")
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

from triton_musa.backend.emulator import emulator_active  # noqa: E402

pytestmark = pytest.mark.skipif(not emulator_active(), reason="a MUSA device or another GPU driver is active here; "
                                "the emulator runs where none is (or with TRITON_MUSA_EMULATOR=1)")


@triton.jit
def abs_kernel(x_ptr, y_ptr, DTYPE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs).to(DTYPE, bitcast=True)
    tl.store(y_ptr + offs, tl.abs(x).to(tl.uint8, bitcast=True))


@pytest.mark.parametrize("dtype", [tl.float8e5, tl.float8e4nv, tl.float8e4b15], ids=str)
def test_abs_clears_the_sign_of_every_code(arch: str, dtype: tl.dtype) -> None:
    """`arch` (conftest) emulates mp_31, then mp_22."""
    codes = torch.arange(256, dtype=torch.int32).to(torch.uint8)
    out = torch.empty(256, dtype=torch.uint8)
    abs_kernel[(1, )](codes, out, dtype, 256)
    assert out.tolist() == [c & 0x7F for c in range(256)]


@triton.jit
def to_e5_kernel(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs).to(tl.float8e5).to(tl.uint8, bitcast=True))


E5_MAX = 57344.0


def e5_code(value: float) -> int:
    """The saturating fp8e5 code of `value`, rounded to nearest even (exact: torch rounds finite values in
    range the same way; saturation is checked by hand)."""
    if math.isnan(value):
        return -1  # any NaN code
    if abs(value) >= E5_MAX or math.isinf(value):
        # Past the largest finite value, rounding to nearest gives it back until the midpoint to the next
        # binade (61440), and saturation keeps it there beyond.
        return 0x7B | (0x80 if value < 0 else 0)
    return int(torch.tensor([value]).to(torch.float8_e5m2).view(torch.uint8).item())


@pytest.mark.parametrize("src", [torch.float32, torch.float16, torch.bfloat16], ids=str)
def test_fp8e5_narrowing_saturates(arch: str, src: torch.dtype) -> None:
    values = [math.inf, -math.inf, 1e6, -1e6, 65504.0, 61440.0, 57344.0, 49152.0, -57344.0, 1.5, -3.25, 0.0,
              2.0**-16, math.nan]
    x = torch.tensor(values + [0.0] * (16 - len(values)), dtype=torch.float32).to(src)
    out = torch.empty(16, dtype=torch.uint8)
    to_e5_kernel[(1, )](x, out, 16)
    for value, code in zip(x.float().tolist(), out.tolist()):
        expected = e5_code(value)
        if expected < 0:
            assert code & 0x7F > 0x7C, (value, hex(code))  # a NaN
        else:
            assert code == expected, (value, hex(code), hex(expected))


@triton.jit
def to_f16_kernel(x_ptr, y_ptr, DTYPE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs).to(DTYPE, bitcast=True)
    tl.store(y_ptr + offs, x.to(tl.float16).to(tl.uint16, bitcast=True))


@pytest.mark.parametrize("dtype, torch_dtype", [(tl.float8e5, torch.float8_e5m2),
                                                (tl.float8e4nv, torch.float8_e4m3fn)], ids=["e5m2", "e4m3fn"])
def test_fp8_widens_to_fp16_exactly(arch: str, dtype: tl.dtype, torch_dtype: torch.dtype) -> None:
    codes = torch.arange(256, dtype=torch.int32).to(torch.uint8)
    out = torch.empty(256, dtype=torch.uint16)
    to_f16_kernel[(1, )](codes, out, dtype, 256)
    want = codes.view(torch_dtype).to(torch.float16)
    got = out.view(torch.float16)
    nan = torch.isnan(want)
    assert torch.equal(torch.isnan(got), nan)
    assert torch.equal(got[~nan].view(torch.uint16), want[~nan].view(torch.uint16))  # -0, subnormals, inf
    signs = (codes[nan].to(torch.int32) & 0x80) << 8
    assert torch.equal(out[nan].to(torch.int32), signs | 0x7E00)
