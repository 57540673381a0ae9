"""Matrix-unit epilogues on the CPU emulator, against PyTorch: the accumulator stays in the unit's layout
(--musa-sink-accumulator-conversions) through an addmm + gelu epilogue that reads it several times (the
whole elementwise cluster runs there and only its f16 result is converted), with an f16 tile added (converted
in narrow, then extended) and a bias row (rebuilt from the vector); and through a causal mask built from two
index vectors (rebuilt in the layout: no tile of indices or of i1 moves). SQMMA on mp_31, WMMA on mp_22."""
from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any, Dict

import pytest

torch = pytest.importorskip("torch")

import triton  # noqa: E402
import triton.language as tl  # noqa: E402

from jit_compile import compile_specialized, launch  # noqa: E402
from triton_musa.backend.emulator import emulator_active  # noqa: E402
from triton_musa.backend.lowering import matrix_passes, parse_ttgir, run_passes  # noqa: E402

# The bench's addmm + gelu kernel (bench/proxy_kernels.py), the one timed on the GPU proxy.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from proxy_kernels import addmm_kernel  # noqa: E402

pytestmark = pytest.mark.skipif(not emulator_active(), reason="a MUSA device or another GPU driver is active here; "
                                "the emulator runs where none is (or with TRITON_MUSA_EMULATOR=1)")

UNIT = {"mp_31": "#sqmma", "mp_22": "#wmma"}


@triton.jit
def causal_scores_kernel(q_ptr, k_ptr, s_ptr, offset, D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rd = tl.arange(0, D)
    q = tl.load(q_ptr + rm[:, None] * D + rd[None, :])
    kt = tl.load(k_ptr + rn[None, :] * D + rd[:, None])
    s = tl.dot(q, kt)
    s = tl.where(rm[:, None] + offset >= rn[None, :], s, float("-inf"))
    tl.store(s_ptr + rm[:, None] * BN + rn[None, :], s)


def _tile_conversions(kernel: Any, arch: str) -> list:
    """The conversions of 2-D tiles out of the unit's layout left after our matrix passes."""
    module = parse_ttgir(kernel.asm["ttgir"])
    run_passes(module, f"builtin.module({matrix_passes('emulator', num_stages=kernel.metadata.num_stages)})")
    unit = UNIT[arch]
    return re.findall(rf"ttg\.convert_layout %\S+ : tensor<\d+x\d+x(\w+), {unit}> ", str(module))


@pytest.mark.parametrize("arch", ["mp_31", "mp_22"])
def test_addmm_gelu_epilogue(arch: str) -> None:
    gen = torch.Generator().manual_seed(7)
    M = N = 64
    K = 128
    a = torch.randn(M, K, generator=gen).half()
    b = torch.randn(K, N, generator=gen).half() / 8
    x = torch.randn(M, N, generator=gen).half()
    bias = torch.randn(N, generator=gen).half()
    c = torch.empty(M, N, dtype=torch.float16)
    args: Dict[str, Any] = {"x_ptr": x, "a_ptr": a, "b_ptr": b, "bias_ptr": bias, "c_ptr": c, "M": M, "N": N,
                            "K": K}
    consts = {"BM": 64, "BN": 64, "BK": 32}
    kernel, all_consts = compile_specialized(addmm_kernel, arch, args, consts, num_warps=4, num_stages=2)
    launch(kernel, addmm_kernel, (1, 1), args, all_consts)
    ref = torch.nn.functional.gelu(a.float() @ b.float() + x.float() + bias.float(), approximate="tanh")
    torch.testing.assert_close(c.float(), ref, atol=2e-2, rtol=1e-2)
    # Only the epilogue's f16 result leaves the unit's layout (the f32 accumulator, read five times by
    # the gelu, does not).
    assert _tile_conversions(kernel, arch) == ["f16"]


@pytest.mark.parametrize("arch", ["mp_31", "mp_22"])
def test_causal_mask_epilogue(arch: str) -> None:
    gen = torch.Generator().manual_seed(3)
    D, BM, BN, offset = 32, 64, 64, 5
    q = torch.randn(BM, D, generator=gen).half()
    k = torch.randn(BN, D, generator=gen).half()
    s = torch.empty(BM, BN)
    args: Dict[str, Any] = {"q_ptr": q, "k_ptr": k, "s_ptr": s, "offset": offset}
    kernel, all_consts = compile_specialized(causal_scores_kernel, arch, args, {"D": D, "BM": BM, "BN": BN},
                                             num_warps=4)
    launch(kernel, causal_scores_kernel, (1, ), args, all_consts)
    ref = q.float() @ k.float().T
    mask = torch.arange(BM)[:, None] + offset >= torch.arange(BN)[None, :]
    ref = torch.where(mask, ref, torch.tensor(float("-inf")))
    torch.testing.assert_close(s, ref, atol=1e-3, rtol=1e-3)
    # The mask is rebuilt in the unit's layout from its two vectors: the only tile conversion left is of
    # the masked f32 scores, for the store.
    assert _tile_conversions(kernel, arch) == ["f32"]
