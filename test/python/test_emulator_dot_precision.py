"""tl.dot's fp32 input precisions on the CPU emulator, both archs, against float64 PyTorch:
ieee, tf32x3, bf16x3 and bf16x6 must each be at least as accurate as the precision promises
(bf16x3 far closer to the exact product than one bf16 product)."""

from __future__ import annotations

from typing import Any

import pytest

torch = pytest.importorskip("torch")
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

from triton_musa.backend.emulator import emulator_active  # noqa: E402

pytestmark = pytest.mark.skipif(not emulator_active(), reason="a MUSA device or another GPU driver is active here; "
                                "the emulator runs where none is (or with TRITON_MUSA_EMULATOR=1)")


def _dot_kernel() -> Any:
    # A fresh JITFunction per test: it fixes its target on first launch.
    def dot(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, PREC: tl.constexpr):
        m, n, k = tl.arange(0, M), tl.arange(0, N), tl.arange(0, K)
        a = tl.load(a_ptr + m[:, None] * K + k[None, :])
        b = tl.load(b_ptr + k[:, None] * N + n[None, :])
        tl.store(c_ptr + m[:, None] * N + n[None, :], tl.dot(a, b, input_precision=PREC))

    return triton.jit(dot)


@pytest.mark.parametrize("prec", ["ieee", "tf32x3", "bf16x3", "bf16x6"])
def test_dot_input_precision(arch: str, prec: str) -> None:
    M, N, K = 32, 32, 64
    gen = torch.Generator().manual_seed(7)
    a, b = torch.randn(M, K, generator=gen), torch.randn(K, N, generator=gen)
    c = torch.full((M, N), float("nan"))
    _dot_kernel()[(1, )](a, b, c, M, N, K, prec)
    exact = a.double() @ b.double()
    err = (c.double() - exact).abs().max().item()
    one_bf16 = ((a.bfloat16().double() @ b.bfloat16().double()) - exact).abs().max().item()
    # fp32 accumulation of K=64 products of N(0,1) values: errors around 1e-5.
    bound = {"ieee": 5e-5, "tf32x3": 5e-5, "bf16x6": 5e-5, "bf16x3": one_bf16 / 20}[prec]
    assert err < bound, f"{prec} on {arch}: max error {err:.3g}, bound {bound:.3g} (one bf16 product: {one_bf16:.3g})"
