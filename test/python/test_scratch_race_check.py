"""Cross-warp tt.reduce and tt.scan on the CPU emulator with its race check on, for both archs,
against PyTorch: after the lane butterfly (scan: the shuffle of the last lane's total) every lane of
a group holding one output element has the same partial, and warps or lanes holding copies have it
too; only one of them may store it to its scratch slot, or two threads store to one address
between two barriers (a race the check reports, and a write that real hardware serializes).
Several reductions in a loop reuse one scratch buffer: the barriers of --musa-insert-barriers
between one iteration's reads and the next writes are checked too."""

from __future__ import annotations

from typing import Any, Dict, Tuple

import pytest

torch = pytest.importorskip("torch")
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.compiler import ASTSource  # noqa: E402

from corpus import TARGETS  # noqa: E402
from triton_musa.backend.emulator import emulator_active  # noqa: E402
from triton_musa.backend.environment import RACECHECK_ENV  # noqa: E402

pytestmark = pytest.mark.skipif(not emulator_active(), reason="the emulator runs where no GPU driver is active")

_TYPES = {torch.float32: "*fp32", torch.int32: "*i32", torch.int64: "*i64"}


@pytest.fixture(autouse=True)
def race_check(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(RACECHECK_ENV, "1")


def run(fn: Any, arch: str, grid: Tuple[int, ...], args: Dict[str, Any], constexprs: Dict[str, Any],
        num_warps: int) -> None:
    signature = {n: "constexpr" if n in constexprs else
                 (_TYPES[args[n].dtype] if isinstance(args[n], torch.Tensor) else "i32") for n in fn.arg_names}
    kernel = triton.compile(ASTSource(fn, signature=signature, constexprs=dict(constexprs)), target=TARGETS[arch],
                            options=dict(num_warps=num_warps, num_stages=1))
    kernel[tuple(grid) + (1, ) * (3 - len(grid))](*[args[n] if n in args else constexprs[n] for n in fn.arg_names])


@triton.jit
def row_sum_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + tl.program_id(0) * n_cols + cols, mask=cols < n_cols, other=0.0)
    tl.store(out_ptr + tl.program_id(0), tl.sum(x, axis=0))


@pytest.mark.parametrize("arch", list(TARGETS))
@pytest.mark.parametrize("block,num_warps", [(1024, 2), (1024, 8), (64, 8), (32, 4)])
def test_row_sum(arch: str, block: int, num_warps: int) -> None:
    """Warps hold parts of the row (slots per warp); with 64 or 32 columns, warps and lanes hold
    copies of the same elements."""
    rows, n_cols = 3, block - 3
    x = torch.randn(rows, n_cols)
    out = torch.empty(rows)
    run(row_sum_kernel, arch, (rows, ), dict(x_ptr=x, out_ptr=out, n_cols=n_cols), dict(BLOCK=block), num_warps)
    torch.testing.assert_close(out, x.sum(dim=1), rtol=1e-5, atol=1e-4)


@triton.jit
def loop_reduce_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    acc = 0
    for start in range(0, n_cols, BLOCK):
        x = tl.load(x_ptr + tl.program_id(0) * n_cols + start + cols)
        m = tl.max(x, axis=0)
        acc += tl.sum(x - m, axis=0) * 3 + m
    tl.store(out_ptr + tl.program_id(0), acc)


@pytest.mark.parametrize("arch", list(TARGETS))
def test_reductions_in_a_loop(arch: str) -> None:
    rows, n_cols, block = 2, 2048, 512
    x = torch.randint(-1000, 1000, (rows, n_cols), dtype=torch.int32)
    out = torch.empty(rows, dtype=torch.int32)
    run(loop_reduce_kernel, arch, (rows, ), dict(x_ptr=x, out_ptr=out, n_cols=n_cols), dict(BLOCK=block), 8)
    chunks = x.view(rows, n_cols // block, block)
    top = chunks.max(dim=2).values
    assert torch.equal(out, ((chunks - top[:, :, None]).sum(dim=2) * 3 + top).sum(dim=1, dtype=torch.int32))


@triton.jit
def axis0_argmax_kernel(x_ptr, val_ptr, idx_ptr, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.arange(0, BM)[:, None]
    rn = tl.arange(0, BN)[None, :]
    x = tl.load(x_ptr + rm * BN + rn)
    value, index = tl.max(x, axis=0, return_indices=True)
    tl.store(val_ptr + tl.arange(0, BN), value)
    tl.store(idx_ptr + tl.arange(0, BN), index)


@pytest.mark.parametrize("arch", list(TARGETS))
def test_axis0_argmax(arch: str) -> None:
    """Two operands, per-column output elements held by several lanes and warps."""
    BM, BN = 256, 16
    x = torch.randperm(BM * BN, dtype=torch.int32).view(BM, BN)
    val = torch.empty(BN, dtype=torch.int32)
    idx = torch.empty(BN, dtype=torch.int32)
    run(axis0_argmax_kernel, arch, (1, ), dict(x_ptr=x, val_ptr=val, idx_ptr=idx), dict(BM=BM, BN=BN), 8)
    ref = x.max(dim=0)
    assert torch.equal(val, ref.values) and torch.equal(idx.long(), ref.indices)


@triton.jit
def cumsum_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + tl.program_id(0) * BLOCK + cols)
    tl.store(out_ptr + tl.program_id(0) * BLOCK + cols, tl.cumsum(x, axis=0))


@pytest.mark.parametrize("arch", list(TARGETS))
@pytest.mark.parametrize("block,num_warps", [(1024, 4), (64, 8)])
def test_cumsum_across_warps(arch: str, block: int, num_warps: int) -> None:
    x = torch.randint(-1000, 1000, (2, block), dtype=torch.int32)
    out = torch.empty_like(x)
    run(cumsum_kernel, arch, (2, ), dict(x_ptr=x, out_ptr=out), dict(BLOCK=block), num_warps)
    assert torch.equal(out, torch.cumsum(x, dim=1, dtype=torch.int32))
