"""Kernels on the emulator compute with the default floating-point control (round to nearest, no
flush to zero) whatever the launching thread set: the runtime sets it for a block's fibers, which
do not switch it among themselves (emulator/Runtime.cpp, DefaultFloatingPointControl)."""

from __future__ import annotations

from typing import Iterator

import pytest

torch = pytest.importorskip("torch")
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

from triton_musa.backend.emulator import emulator_active  # noqa: E402

pytestmark = pytest.mark.skipif(not emulator_active(), reason="a MUSA device or another GPU driver is active here; "
                                "the emulator runs where none is (or with TRITON_MUSA_EMULATOR=1)")


@triton.jit
def _halve_then_double(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    half = x * 0.5
    tl.store(out_ptr + offs, half)  # a switch between the two products
    tl.store(out_ptr + BLOCK + offs, tl.load(out_ptr + offs) * 2.0)


@pytest.fixture
def flush_denormal() -> Iterator[None]:
    # FTZ and DAZ in this thread's MXCSR, which also runs the blocks of a launch.
    if not torch.set_flush_denormal(True):
        pytest.fail("torch.set_flush_denormal is not supported on this CPU")
    try:
        yield
    finally:
        torch.set_flush_denormal(False)


def test_subnormals_survive_the_launching_threads_flush_to_zero(flush_denormal: None) -> None:
    block = 64
    tiny = torch.finfo(torch.float32).tiny  # the smallest normal float32
    x = torch.full((block, ), tiny, dtype=torch.float32)
    # Here (FTZ) the subnormal half of tiny flushes; the kernel must not flush it.
    assert (x * 0.5).eq(0).all()
    out = torch.empty(2 * block, dtype=torch.float32)
    _halve_then_double[(1, )](x, out, block, num_warps=1)
    torch.set_flush_denormal(False)
    want_half = torch.full((block, ), tiny, dtype=torch.float64) / 2
    assert torch.equal(out[:block].double(), want_half)
    assert torch.equal(out[block:], x)
