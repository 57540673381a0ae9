"""tl.abs on fp8 values (math.absf on fp8 elements) on the CPU emulator, both archs: every one of the 256
codes of fp8e5, fp8e4nv and fp8e4b15 against exact arithmetic. The sign is bit 7 in each of them, and none
uses 0x80 as its NaN, so |x| is the code with bit 7 cleared (a NaN stays a NaN)."""

from __future__ import annotations

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
