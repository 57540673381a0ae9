"""The emulator's two tiers of host code: a kernel's first launches run code from LLVM's fast code
generation, the launch TRITON_MUSA_EMULATOR_TIER_UP (default 3) compiles the optimized code that it and
every later launch run. Each launch is compared with torch, in both tiers, on both archs, for kernels
with masked accesses, a reduction, a dot (SQMMA on mp_31, WMMA on mp_22) and a pipelined loop; the
object cache hands a second load the optimized code at once; a bad setting is a named error."""

from __future__ import annotations

from typing import List

import pytest

torch = pytest.importorskip("torch")
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

from triton_musa import _musa_mlir  # noqa: E402
from triton_musa.backend.emulator import emulator_active  # noqa: E402
from triton_musa.backend.emulator_launcher import TieredKernel, load_tiered_kernel  # noqa: E402
from triton_musa.backend.environment import OBJECT_CACHE_ENV, TIER_UP_ENV, tier_up_launch  # noqa: E402

pytestmark = pytest.mark.skipif(not emulator_active(), reason="a MUSA device or another GPU driver is active here; "
                                "the emulator runs where none is (or with TRITON_MUSA_EMULATOR=1)")


def softmax_kernel(out_ptr, in_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(in_ptr + row * n_cols + cols, mask=cols < n_cols, other=-float("inf"))
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + row * n_cols + cols, e / tl.sum(e, axis=0), mask=cols < n_cols)


def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :], mask=(rm[:, None] < M) & ((k + rk)[None, :] < K),
                    other=0.0)
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :], mask=((k + rk)[:, None] < K) & (rn[None, :] < N),
                    other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


def _softmax_launches(kernel: triton.JITFunction, launches: int) -> List[str]:
    tiers = []
    for i in range(launches):
        x = torch.randn(37, 200, generator=torch.Generator().manual_seed(i))
        out = torch.empty_like(x)
        compiled = kernel[(37, )](out, x, 200, BLOCK=256)
        torch.testing.assert_close(out, torch.softmax(x, dim=1), atol=1e-6, rtol=1e-5)
        tiers.append(compiled.function.tier)
    return tiers


@pytest.mark.parametrize("stages", (1, 3))
def test_each_tier_computes_the_same_matmul(arch: str, stages: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(OBJECT_CACHE_ENV, "0")
    kernel = triton.jit(matmul_kernel)
    tiers = []
    for i in range(4):
        g = torch.Generator().manual_seed(i)
        a = torch.randn(97, 75, generator=g).half()
        b = torch.randn(75, 130, generator=g).half()
        c = torch.empty(97, 130)
        compiled = kernel[(4, 5)](a, b, c, 97, 130, 75, BM=32, BN=32, BK=32, num_warps=4, num_stages=stages)
        torch.testing.assert_close(c, a.float() @ b.float(), atol=1e-2, rtol=1e-2)
        tiers.append(compiled.function.tier)
    assert tiers == ["fast", "fast", "optimized", "optimized"]


def test_tier_up_launch_is_configurable(arch: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(OBJECT_CACHE_ENV, "0")
    monkeypatch.setenv(TIER_UP_ENV, "2")
    assert _softmax_launches(triton.jit(softmax_kernel), 3) == ["fast", "optimized", "optimized"]
    monkeypatch.setenv(TIER_UP_ENV, "1")
    assert _softmax_launches(triton.jit(softmax_kernel), 2) == ["optimized", "optimized"]


def test_object_cache_gives_a_second_load_the_optimized_code(arch: str) -> None:
    kernel = triton.jit(softmax_kernel)
    assert _softmax_launches(kernel, tier_up_launch()) == ["fast"] * (tier_up_launch() - 1) + ["optimized"]
    # The same module loaded again (as in a second process): the optimized object code is in the cache.
    x = torch.randn(37, 200)
    compiled = kernel[(37, )](torch.empty_like(x), x, 200, BLOCK=256)
    again = load_tiered_kernel(compiled.asm["emuir"])
    assert again.tier == "optimized"


def test_fast_code_generation_makes_other_object_code() -> None:
    x = torch.randn(4, 200)
    compiled = triton.jit(softmax_kernel)[(4, )](torch.empty_like(x), x, 200, BLOCK=256)
    text = compiled.asm["emuir"].decode()
    fast = _musa_mlir.emulator_load(text, fast_codegen=True)
    optimized = _musa_mlir.emulator_load(text)
    assert fast.host_ir == optimized.host_ir  # one IR, two code generators
    assert fast.cache_image() != optimized.cache_image()


@pytest.mark.parametrize("value", ("-1", "three"))
def test_a_bad_tier_up_setting_is_a_named_error(value: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(TIER_UP_ENV, value)
    with pytest.raises(ValueError, match=TIER_UP_ENV):
        tier_up_launch()


def test_tiered_kernel_reports_what_the_launcher_reads() -> None:
    x = torch.randn(4, 200)
    compiled = triton.jit(softmax_kernel)[(4, )](torch.empty_like(x), x, 200, BLOCK=256)
    tiered = TieredKernel(compiled.asm["emuir"], tier_up=3)
    plain = _musa_mlir.emulator_load(compiled.asm["emuir"].decode())
    assert (tiered.name, tiered.param_kinds, tiered.num_warps, tiered.warp_size, tiered.shared_bytes) == (
        plain.name, list(plain.param_kinds), plain.num_warps, plain.warp_size, plain.shared_bytes)
