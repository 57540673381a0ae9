"""Liger-Kernel 0.8.5's own kernels through the GPU proxy's compile side (bench/proxy_liger.py, the cases of
`proxy_gpu.py --client liger`), at small sizes with Liger's specialization rules: the proxy's PTX and a cubin
that ptxas accepts, mp_31's TTGIR above the target, and every case's inputs, launch and torch reference run
on the emulator (mp_31) so that the checks the H200 run makes are known to hold for correct code. The sdist
comes through scripts/client_suite.py's fetch (PyPI, cached); without it the tests fail, as test_client_liger.py's
do."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Dict

import pytest
import torch
import triton
from triton.backends.compiler import GPUTarget

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import proxy_liger  # noqa: E402
from proxy_kernels import Case  # noqa: E402

PROXY = GPUTarget("musa", "proxy_sm90", 32)
MP31 = GPUTarget("musa", "mp_31", 32)
# Every dimension small but none a power of two where Liger's shapes are not (masks, partial blocks), three
# "SMs" so that the backward norms split rows unevenly.
SMALL = proxy_liger.Sizes(tokens=40, hidden=320, intermediate=448, vocab=1000, q_heads=4, kv_heads=2, head_dim=32,
                          softmax_cols=300, sms=3)
ALL = ("liger_rms_norm_fwd", "liger_rms_norm_bwd", "liger_layer_norm_fwd", "liger_layer_norm_bwd", "liger_swiglu_fwd",
       "liger_swiglu_bwd", "liger_cross_entropy", "liger_ce_grad_scale", "liger_flce_chunk_ce", "liger_flce_grad_scale",
       "liger_rope_fwd", "liger_rope_bwd", "liger_softmax_fwd", "liger_softmax_bwd")
COMPILED = ("liger_rms_norm_fwd", "liger_layer_norm_bwd", "liger_swiglu_bwd", "liger_cross_entropy",
            "liger_rope_fwd", "liger_softmax_fwd")


@pytest.fixture(scope="module")
def cases(tmp_path_factory: pytest.TempPathFactory) -> Dict[str, Case]:
    src = proxy_liger.fetch_src()
    bundle = tmp_path_factory.mktemp("liger_bundle")
    proxy_liger.prepare_bundle(bundle, src)
    return {c.name: c for c in proxy_liger.cases(bundle, SMALL)}


def test_cases_take_liger_and_triton_specialization(cases: Dict[str, Case]) -> None:
    """calculate_settings' block and warps, and Triton's JIT rule: a stride of 1 is a constexpr, None pointers
    are constexprs."""
    rms = cases["liger_rms_norm_fwd"]
    assert (rms.values["BLOCK_SIZE"], rms.num_warps) == (512, 4)
    assert rms.signature["W_row_stride"] == "constexpr" and rms.signature["X_row_stride"] == "i32"
    ce = cases["liger_cross_entropy"]
    assert ce.signature["weight_ptr"] == "constexpr" and ce.values["weight_ptr"] is None
    assert (ce.values["BLOCK_SIZE"], ce.num_warps) == (1024, 32)
    # fused_linear_cross_entropy's chunk: next_pow2(cdiv(40, cdiv(1000, 320))) = 16 rows, fp32 loss.
    chunk = cases["liger_flce_chunk_ce"]
    assert chunk.values["M"] == 16 and chunk.signature["loss_ptr"] == "*fp32"
    assert tuple(cases) == ALL


@pytest.mark.parametrize("name", COMPILED)
def test_proxy_compiles_liger_kernel(cases: Dict[str, Case], name: str) -> None:
    case = cases[name]
    kernel = triton.compile(case.source(), target=PROXY, options=case.options())
    ptx = kernel.asm["ptx"]
    assert ".target sm_90" in ptx and f".visible .entry {case.kernel.fn.__name__}(" in ptx
    assert re.search(rf"\.maxntid {32 * case.num_warps}\b", ptx)
    assert kernel.asm["cubin"][:4] == b"\x7fELF"
    # No MUSA intrinsic survives below the target interface (libdevice rsqrt was llvm.musa.rsq once).
    assert "llvm.musa" not in kernel.asm["llir"] and "musa" not in ptx
    assert kernel.asm["ttgir"] == triton.compile(case.source(), target=MP31, options=case.options()).asm["ttgir"]


def test_rsqrt_is_libdevice_on_the_proxy(cases: Dict[str, Case]) -> None:
    case = cases["liger_rms_norm_fwd"]
    kernel = triton.compile(case.source(), target=PROXY, options=case.options())
    assert "rsqrt.approx" in kernel.asm["ptx"]


@pytest.mark.parametrize("name", ALL)
def test_case_matches_torch_on_the_emulator(cases: Dict[str, Case], name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The H200 run's setup, launch and check, here on the emulator: twice, since the check restores what
    Liger overwrites in place (a check that passes without a launch would check nothing). The launch goes
    through Triton's JIT, whose own specialization of the arguments must be the case's source."""
    from triton_musa.backend.environment import ARCH_ENV
    monkeypatch.setenv(ARCH_ENV, "mp_31")
    case = cases[name]
    setup = case.setup(torch.device("cpu"), case)
    assert setup.check() is not None, "the outputs match before any launch"
    setup = case.setup(torch.device("cpu"), case)
    source = case.source()
    for _ in range(2):
        setup.reset()
        compiled = case.kernel[setup.grid](*setup.args, **case.options())
        assert setup.check() is None
    assert (compiled.src.signature, compiled.src.constants) == (source.signature, source.constants)
    assert {arg: attrs for arg, attrs in compiled.src.attrs.items() if attrs} == source.attrs
