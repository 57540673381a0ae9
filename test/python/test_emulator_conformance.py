"""Language features Triton's own tests use that were missing (issue 12), on the CPU emulator for
both archs, against exact results."""

from __future__ import annotations

from typing import Iterator

import pytest

torch = pytest.importorskip("torch")
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

from triton_musa.backend.emulator import ARCH_ENV, emulator_active  # noqa: E402

pytestmark = pytest.mark.skipif(not emulator_active(), reason="a MUSA device or another GPU driver is active here; "
                                "the emulator runs where none is (or with TRITON_MUSA_EMULATOR=1)")


@pytest.fixture(params=("mp_31", "mp_22"))
def arch(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv(ARCH_ENV, request.param)
    yield request.param


def test_split_to_scalars(arch: str) -> None:
    # tl.split of a 2-element tensor gives two scalars through tt.unsplat.
    def kernel(x_ptr, out_ptr):
        lo, hi = tl.split(tl.load(x_ptr + tl.arange(0, 2)))
        tl.store(out_ptr, lo * 10 + hi)
        tl.store(out_ptr + 1, hi - lo)

    x, out = torch.tensor([3, 4], dtype=torch.int32), torch.zeros(2, dtype=torch.int32)
    compiled = triton.jit(kernel)[(1, )](x, out)
    assert "tt.unsplat" in compiled.asm["ttgir"]
    assert out.tolist() == [34, 1]
