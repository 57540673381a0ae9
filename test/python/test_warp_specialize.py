"""Warp-specialized loops on the CPU emulator: ``tl.range(..., warp_specialize=True)`` over a
descriptor matmul's K loop. On mp_31 one producer warp streams the TME tiles into the rings and the
kernel's warps consume them with SQMMA, ordered by a full and an empty async barrier per slot; the block
runs num_warps + 1 warps. mp_22 (no TME) runs the loop on every warp and says why. Every case runs against
torch with the emulator's race check on, which fails a TME tile written into a slot an SQMMA may still
read."""

from __future__ import annotations

from typing import Any

import pytest

torch = pytest.importorskip("torch")
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.tools.tensor_descriptor import TensorDescriptor  # noqa: E402

from triton_musa.backend.emulator import emulator_active  # noqa: E402
from triton_musa.backend.environment import ARCH_ENV, RACECHECK_ENV  # noqa: E402
from triton_musa.backend.lowering import pipeline_report  # noqa: E402

pytestmark = pytest.mark.skipif(not emulator_active(), reason="a MUSA device or another GPU driver is active here; "
                                "the emulator runs where none is (or with TRITON_MUSA_EMULATOR=1)")


def _specialized_matmul(a_desc, b_desc, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                        STAGES: tl.constexpr):
    m = tl.program_id(0) * BM
    n = tl.program_id(1) * BN
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in tl.range(0, K, BK, num_stages=STAGES, warp_specialize=True):
        acc = tl.dot(a_desc.load([m, k]), b_desc.load([k, n]), acc)
    rm = m + tl.arange(0, BM)[:, None]
    rn = n + tl.arange(0, BN)[None, :]
    tl.store(c_ptr + rm * N + rn, acc, mask=(rm < M) & (rn < N))


def run_specialized(M: int, N: int, K: int, BM: int, BN: int, BK: int, warps: int, stages: int,
                    dtype: torch.dtype = torch.float16, seed: int = 0) -> Any:
    """The matmul on (cdiv(M, BM), cdiv(N, BN)) programs against torch; returns the compiled kernel."""
    kernel = triton.jit(_specialized_matmul)
    gen = torch.Generator().manual_seed(seed)
    a = torch.randn(M, K, generator=gen).to(dtype)
    b = torch.randn(K, N, generator=gen).to(dtype)
    c = torch.full((M, N), float("nan"), dtype=torch.float32)
    compiled = kernel[(triton.cdiv(M, BM), triton.cdiv(N, BN))](
        TensorDescriptor.from_tensor(a, [BM, BK]), TensorDescriptor.from_tensor(b, [BK, BN]), c, M, N, K,
        BM=BM, BN=BN, BK=BK, STAGES=stages, num_warps=warps)
    # (fp32 operands take tf32, whose products round their inputs to 10 mantissa bits)
    tolerance = dict(atol=5e-2, rtol=1e-2) if dtype == torch.float32 else dict(atol=1e-2, rtol=1e-3)
    torch.testing.assert_close(c, a.float() @ b.float(), **tolerance)
    return compiled


@pytest.mark.parametrize("M, N, K, BM, BN, BK, warps, stages, slots",
                         [(64, 64, 7 * 32, 64, 64, 32, 4, 3, 3),        # 7 K steps over 3 slots: rounds wrap
                          (100, 88, 5 * 64 - 16, 128, 128, 64, 4, 2, 2),  # ragged, the last K tile past K
                          (128, 128, 4 * 32, 128, 128, 32, 8, 3, 3)])    # two squads release each slot
def test_specialized_matmul(arch: str, monkeypatch: pytest.MonkeyPatch, M: int, N: int, K: int, BM: int, BN: int,
                            BK: int, warps: int, stages: int, slots: int) -> None:
    """mp_31: a producer warp beside the kernel's warps (the block runs warps + 1), the loop's remark says
    so; mp_22: the loop runs on every warp and its remark says why. Both against torch, race-checked.
    The rings have the planned depth (here num_stages slots)."""
    monkeypatch.setenv(RACECHECK_ENV, "1")
    compiled = run_specialized(M, N, K, BM, BN, BK, warps, stages, seed=BK + warps)
    [remark] = pipeline_report(compiled.asm["ttgir"], stages, target="emulator")
    if arch == "mp_31":
        assert compiled.metadata.num_warps == warps + 1
        assert ("remark: loop warp-specialized: a producer warp issues 2 loads as TME tiles into rings of "
                f"{slots} slots") in remark, remark
    else:
        assert compiled.metadata.num_warps == warps
        assert remark.endswith("; warp_specialize is not done: mp_22 has no tensor memory engine and async "
                               "barriers for a producer warp"), remark


@pytest.mark.parametrize("dtype, K, BK", [(torch.bfloat16, 6 * 64, 64),   # 4 slots
                                          (torch.float32, 5 * 32, 32),    # tf32 SQMMA
                                          (torch.float8_e4m3fn, 5 * 64, 64),  # fp8 SQMMA
                                          (torch.float16, 64, 64)])       # one iteration only
def test_specialized_matmul_kinds(monkeypatch: pytest.MonkeyPatch, dtype: torch.dtype, K: int, BK: int) -> None:
    """mp_31: other operand types, and a loop of one iteration (the producer's only tile, no slot reused)."""
    monkeypatch.setenv(RACECHECK_ENV, "1")
    monkeypatch.setenv(ARCH_ENV, "mp_31")
    compiled = run_specialized(64, 128, K, 64, 128, BK, 4, 4, dtype=dtype, seed=3)
    assert compiled.metadata.num_warps == 5


def test_proxy_specializes_as_mp31() -> None:
    """The GPU proxy times mp_31's decision: after the matrix and pipeline passes its TTGIR is mp_31's up to
    the encodings of its own rows (the same warp_specialize, barriers and rings), and the kernel is launched
    with the producer warp (Hopper's bar.sync does not wait for the warp that returned: PTX's `exit`), its
    TME tiles TMA loads completing on mbarriers, its SQMMA wgmma."""
    import re

    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    from test_proxy import _after_matrix_passes, _without_matrix_encodings
    from triton_musa.backend.compiler import compile_to_ttgir
    BM, BN, BK, stages = 128, 128, 64, 3
    signature = {"a_desc": f"tensordesc<fp16[{BM}, {BK}]>", "b_desc": f"tensordesc<fp16[{BK}, {BN}]>",
                 "c_ptr": "*fp32", "M": "i32", "N": "i32", "K": "i32", "BM": "constexpr", "BN": "constexpr",
                 "BK": "constexpr", "STAGES": "constexpr"}
    source = ASTSource(triton.jit(_specialized_matmul), signature=signature,
                       constexprs={"BM": BM, "BN": BN, "BK": BK, "STAGES": stages})
    options = {"num_warps": 4, "num_stages": stages}
    ttgir = compile_to_ttgir(source, GPUTarget("musa", "mp_31", 32), options)["ttgir"]
    mp31 = _after_matrix_passes(ttgir, "musa", stages)
    proxy = _after_matrix_passes(ttgir, "proxy", stages)
    assert "ttg.warp_specialize" in mp31 and '"ttg.total-num-warps" = 5' in mp31
    assert _without_matrix_encodings(proxy).replace(", fragment = wgmma_warpgroup", "") == \
        _without_matrix_encodings(mp31)
    kernel = triton.compile(source, target=GPUTarget("musa", "proxy_sm90", 32), options=options)
    ptx = kernel.asm["ptx"]
    assert kernel.metadata.num_warps == 5 and re.search(r"\.maxntid 160\b", ptx)
    assert "cp.async.bulk.tensor.2d" in ptx and "mbarrier.try_wait.parity" in ptx and "wgmma.mma_async" in ptx
    assert kernel.asm["cubin"][:4] == b"\x7fELF"


def test_device_llvm_ir_specializes() -> None:
    """mp_31's LLVM IR for the device (the SDK's llc input): the kernel's maximum block is 5 warps; the
    producer warp's TME tile loads and its arrivals on the full barriers, the consumers' per-warp arrivals on
    the empty ones, and every group's waits (llvm.musa.async.*)."""
    import re

    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    from triton_musa.backend.compiler import compile_to_ttgir
    from triton_musa.backend.lowering import lower_to_llir
    from triton_musa.backend.target import parse_arch
    signature = {"a_desc": "tensordesc<fp16[64, 32]>", "b_desc": "tensordesc<fp16[32, 64]>", "c_ptr": "*fp32",
                 "M": "i32", "N": "i32", "K": "i32", "BM": "constexpr", "BN": "constexpr", "BK": "constexpr",
                 "STAGES": "constexpr"}
    source = ASTSource(triton.jit(_specialized_matmul), signature=signature,
                       constexprs={"BM": 64, "BN": 64, "BK": 32, "STAGES": 3})
    ttgir = compile_to_ttgir(source, GPUTarget("musa", "mp_31", 32), {"num_warps": 4, "num_stages": 3})["ttgir"]
    lowered = lower_to_llir(ttgir, parse_arch("mp_31"), num_stages=3)
    llir = lowered.llir
    assert lowered.total_num_warps == 5
    assert re.search(r'!"maxntidx", i32 160\}', llir)
    assert len(re.findall(r"call void @llvm\.musa\.tme\.ld\.tile\.2d\(", llir)) == 2
    # full: the producer's arrival; empty: the consumers' (per warp); init of 3 + 3 barriers
    assert len(re.findall(r"call void @llvm\.musa\.async\.arrive\.none\.phaseid\(", llir)) == 2
    assert len(re.findall(r"call void @llvm\.musa\.async\.init\.arrival\(", llir)) >= 1
    assert len(re.findall(r"call void @llvm\.musa\.async\.wait\(", llir)) == 2


def _made_descriptor_matmul(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1], block_shape=[BK, BN])
    m = tl.program_id(0) * BM
    n = tl.program_id(1) * BN
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in tl.range(0, K, BK, num_stages=3, warp_specialize=True):
        acc = tl.dot(a_desc.load([m, k]), b_desc.load([k, n]), acc)
    rm = m + tl.arange(0, BM)[:, None]
    rn = n + tl.arange(0, BN)[None, :]
    tl.store(c_ptr + rm * N + rn, acc, mask=(rm < M) & (rn < N))


def test_descriptors_made_in_the_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """mp_31: descriptors from tl.make_tensor_descriptor before the loop; the producer warp makes its own
    (what it reads is captured), as their lowering traces a descriptor to the op that made it."""
    monkeypatch.setenv(RACECHECK_ENV, "1")
    monkeypatch.setenv(ARCH_ENV, "mp_31")
    M, N, K = 96, 64, 5 * 32
    gen = torch.Generator().manual_seed(5)
    a = torch.randn(M, K, generator=gen).half()
    b = torch.randn(K, N, generator=gen).half()
    c = torch.full((M, N), float("nan"))
    compiled = triton.jit(_made_descriptor_matmul)[(2, 1)](a, b, c, M, N, K, BM=64, BN=64, BK=32)
    torch.testing.assert_close(c, a.float() @ b.float(), atol=1e-2, rtol=1e-3)
    assert compiled.metadata.num_warps == 5
