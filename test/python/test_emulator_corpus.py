"""Corpus kernels that lower today, run on the CPU emulator for both archs and
compared with PyTorch (or, for the random-number kernels, checked for their
statistics and for giving the same bits on both archs)."""

from __future__ import annotations

from typing import Any, Tuple

import pytest

torch = pytest.importorskip("torch")
import triton  # noqa: E402

from corpus import BY_NAME, TARGETS  # noqa: E402
from triton_musa.backend.emulator import emulator_active  # noqa: E402

pytestmark = pytest.mark.skipif(not emulator_active(), reason="a MUSA device or another GPU driver is active here; "
                                "the emulator runs where none is (or with TRITON_MUSA_EMULATOR=1)")

ARCHS = tuple(TARGETS)
DTYPES = {"*fp16": torch.float16, "*bf16": torch.bfloat16, "*fp32": torch.float32, "*fp64": torch.float64}


def launch(name: str, arch: str, grid: Tuple[int, int, int], *args: Any) -> None:
    entry = BY_NAME[name]
    kernel = triton.compile(entry.source(), target=TARGETS[arch], options=dict(entry.options))
    params = entry.fn.arg_names
    full = list(args) + [entry.constexprs[p] for p in params[len(args):]]
    kernel[grid](*full)


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("name,n", [("add", 5000), ("add_fp16_w1", 777), ("add_bf16_w2", 1500),
                                    ("add_f64_w8", 10000)])
def test_add(name: str, n: int, arch: str) -> None:
    entry = BY_NAME[name]
    dtype = DTYPES[entry.signature["x_ptr"]]
    x, y = torch.randn(n, dtype=dtype), torch.randn(n, dtype=dtype)
    out = torch.zeros(n, dtype=dtype)
    launch(name, arch, (triton.cdiv(n, entry.constexprs["BLOCK"]), 1, 1), x, y, out, n)
    torch.testing.assert_close(out, x + y)


@pytest.mark.parametrize("arch", ARCHS)
def test_where(arch: str) -> None:
    n, threshold = 3001, 0.25
    x, y = torch.randn(n), torch.randn(n)
    out = torch.zeros(n)
    launch("where", arch, (triton.cdiv(n, 1024), 1, 1), x, y, out, n, threshold)
    r = torch.where(x > threshold, x, y)
    r = torch.where(torch.arange(n) % 2 == 0, r, -r)
    torch.testing.assert_close(out, r)


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("mode", [0, 1, 2])
def test_control_flow(arch: str, mode: int) -> None:
    n, block = 1000, 256
    x = torch.randn(n)
    out = torch.zeros(n)
    launch("control_flow", arch, (triton.cdiv(n, block), 1, 1), x, out, n, mode)
    xs = {0: x * 2.0, 1: x + 1.0}.get(mode, -x) * 0.5**mode
    padded = torch.zeros(triton.cdiv(n, block) * block)
    padded[:n] = x
    acc = padded.view(-1, block).sum(0) * 6.0 + 3.0
    expected = xs + acc.repeat(triton.cdiv(n, block))[:n]
    torch.testing.assert_close(out, expected, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("arch", ARCHS)
def test_calls_noinline(arch: str) -> None:
    n, block, scale = 1000, 256, 0.3
    x = torch.randn(n)
    out = torch.zeros(n)
    launch("calls_noinline", arch, (triton.cdiv(n, block), 1, 1), x, out, n, scale)
    pid = torch.arange(n) // block
    torch.testing.assert_close(out, torch.clamp(x * (scale * (pid + 1).float()), -1.0, 1.0))


@pytest.mark.parametrize("arch", ARCHS)
def test_grid_hints_3d_grid(arch: str) -> None:
    # pid = pid0 + pid1 * num_programs(0) + pid2 * 7 over a (2, 3, 1) grid: programs 0..5.
    block, stride = 1024, 2
    n = 5 * block + 17
    x = torch.randn(n * stride)
    out = torch.zeros(6 * block)
    launch("grid_hints_w8", arch, (2, 3, 1), x, out, stride, n)
    torch.testing.assert_close(out[:n], x[::stride][:n])
    assert torch.count_nonzero(out[n:]) == 0


@pytest.mark.parametrize("arch", ARCHS)
def test_indirect_load(arch: str) -> None:
    n, rows, d = 70, 50, 64
    table = torch.randn(rows, d)
    idx = torch.randint(0, rows, (n + 1, ), dtype=torch.int32)
    idx[n] = 3  # the flag read through a volatile load
    out = torch.zeros(n, d)
    launch("indirect_load", arch, (triton.cdiv(n, 32), 1, 1), table, idx, out, n)
    torch.testing.assert_close(out, table[idx[:n].long()] + 3.0)


def test_rand_is_the_same_on_both_archs_and_looks_random() -> None:
    n, seed = 4000, 1234
    results = []
    for arch in ARCHS:
        out, iout = torch.zeros(n), torch.zeros(n, dtype=torch.int32)
        launch("rand", arch, (triton.cdiv(n, 256), 1, 1), out, iout, seed, n)
        results.append((out, iout))
    (o1, i1), (o2, i2) = results
    assert torch.equal(o1, o2) and torch.equal(i1, i2)
    # rand + randn: mean 0.5, variance 1/12 + 1.
    assert abs(o1.mean().item() - 0.5) < 0.1 and abs(o1.var().item() - (1 + 1 / 12)) < 0.15
    assert len(torch.unique(i1)) > n * 0.99


@pytest.mark.parametrize("arch", ARCHS)
def test_dropout(arch: str) -> None:
    n, p, seed = 8192, 0.3, 42
    x = torch.rand(n) + 0.5
    out = torch.full((n, ), -1.0)
    launch("dropout", arch, (triton.cdiv(n, 1024), 1, 1), x, out, n, p, seed)
    kept = out != 0
    torch.testing.assert_close(out[kept], x[kept] / (1 - p))
    assert abs(kept.float().mean().item() - (1 - p)) < 0.03
