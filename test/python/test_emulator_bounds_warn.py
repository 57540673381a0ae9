"""TRITON_MUSA_EMULATOR_BOUNDS: the emulator's global bounds check stops a kernel by default; with
``warn`` an access near a tensor proceeds on a zeroed margin around it and the launch ends with an
OutOfBoundsWarning naming the first one, while in-bounds results stay exact."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

from triton_musa import _musa_mlir  # noqa: E402
from triton_musa.backend.emulator import emulator_active  # noqa: E402
from triton_musa.backend.environment import BOUNDS_ENV  # noqa: E402
from triton_musa.backend.emulator_launcher import MARGIN_BYTES, OutOfBoundsWarning  # noqa: E402

pytestmark = pytest.mark.skipif(not emulator_active(), reason="a MUSA device or another GPU driver is active here; "
                                "the emulator runs where none is (or with TRITON_MUSA_EMULATOR=1)")


@triton.jit
def _copy_plus_one(x_ptr, y_ptr, seen_ptr, OFFSET: tl.constexpr, BLOCK: tl.constexpr):
    # No mask: elements OFFSET + [0, BLOCK) of x and y, of which only 100 exist.
    offs = OFFSET + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(seen_ptr + tl.arange(0, BLOCK), x)
    tl.store(y_ptr + offs, x + 1)


def _tensors() -> tuple:
    x = torch.arange(100, dtype=torch.int32) + 7
    y = torch.zeros(100, dtype=torch.int32)
    seen = torch.full((128, ), -1, dtype=torch.int32)
    return x, y, seen


def test_out_of_bounds_is_an_error_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(BOUNDS_ENV, raising=False)
    x, y, seen = _tensors()
    with pytest.raises(_musa_mlir.EmulatorError, match="out-of-bounds load of 4 bytes .* past the end of argument 'x_ptr'"):
        _copy_plus_one[(1, )](x, y, seen, 0, 128)


def test_out_of_bounds_warns_and_runs_on_a_margin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(BOUNDS_ENV, "warn")
    x, y, seen = _tensors()
    neighbour = torch.full((64, ), 5, dtype=torch.int32)
    with pytest.warns(OutOfBoundsWarning) as record:
        _copy_plus_one[(1, )](x, y, seen, 0, 128)
    assert len(record) == 1
    message = str(record[0].message)
    # 28 loads past x and 28 stores past y; the first is described.
    assert "kernel '_copy_plus_one': 56 global memory access(es) outside every tensor argument" in message
    assert "the first a load of 4 bytes, 0 bytes past the end of argument 'x_ptr'" in message
    # In bounds: exact. Out of bounds: the loads read the margin's zeros; nothing else was touched.
    assert torch.equal(y, x + 1)
    assert torch.equal(seen[:100], x) and torch.equal(seen[100:], torch.zeros(28, dtype=torch.int32))
    assert torch.equal(neighbour, torch.full((64, ), 5, dtype=torch.int32))


def test_a_launch_in_bounds_does_not_warn(monkeypatch: pytest.MonkeyPatch, recwarn: pytest.WarningsRecorder) -> None:
    monkeypatch.setenv(BOUNDS_ENV, "warn")
    x = torch.arange(128, dtype=torch.int32)
    y = torch.zeros(128, dtype=torch.int32)
    seen = torch.zeros(128, dtype=torch.int32)
    _copy_plus_one[(1, )](x, y, seen, 0, 128)
    assert not [w for w in recwarn if issubclass(w.category, OutOfBoundsWarning)]
    assert torch.equal(y, x + 1) and torch.equal(seen, x)


def test_beyond_the_margin_is_still_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(BOUNDS_ENV, "warn")
    x, y, seen = _tensors()
    # 1 GiB past x: far from every margin (MARGIN_BYTES on each side of each tensor).
    assert MARGIN_BYTES < 1 << 30
    with pytest.raises(_musa_mlir.EmulatorError, match="out-of-bounds load of 4 bytes .* outside every tensor"):
        _copy_plus_one[(1, )](x, y, seen, 1 << 28, 128)


def test_bounds_switch_rejects_other_values(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(BOUNDS_ENV, "ignore")
    x, y, seen = _tensors()
    with pytest.raises(ValueError, match=f"{BOUNDS_ENV}='ignore': expected 'error'"):
        _copy_plus_one[(1, )](x, y, seen, 0, 128)
