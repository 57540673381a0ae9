"""Big dots on the FMA path (ENABLE_MUSA_MMA=0) keep their K loop a loop (DotOpToLLVM.cpp): past 2048
products per thread the lowering emits an LLVM loop over K, unrolling disabled, instead of M x N x K
straight-line multiply-adds. Checked on the CPU emulator against PyTorch on both archs (fp16 and fp32
ieee, f32 and f16 accumulators), bit for bit against a tile small enough to stay unrolled (the same K
order per output element), and in the IR of each target (mp_31, mp_22, the GPU proxy): the loop is
there and the number of multiply-adds does not grow with K."""

from __future__ import annotations

import re
import types
from typing import Any, Dict, Tuple

import pytest

torch = pytest.importorskip("torch")
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.compiler import ASTSource  # noqa: E402

from corpus import TARGETS  # noqa: E402
from triton_musa.backend.compiler import compile_to_ttgir  # noqa: E402
from triton_musa.backend.emulator import emulator_active  # noqa: E402

pytestmark = pytest.mark.skipif(not emulator_active(), reason="a MUSA device or another GPU driver is active here; "
                                "the emulator runs where none is (or with TRITON_MUSA_EMULATOR=1)")

# Threads per block for 4 warps: 128 on mp_31; mp_22's 128-thread warps take 1 warp for the same count.
NUM_WARPS = {"mp_31": 4, "mp_22": 1}


def matmul(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, PREC: tl.constexpr,
           OUT: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    N = tl.num_programs(1) * BN
    acc = tl.zeros((BM, BN), dtype=OUT)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(a, b, acc, input_precision=PREC, out_dtype=OUT)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


@pytest.fixture(autouse=True)
def fma_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENABLE_MUSA_MMA", "0")


def run(arch: str, a: torch.Tensor, b: torch.Tensor, out: torch.dtype, BM: int, BN: int, BK: int) -> Tuple[
        torch.Tensor, Any]:
    """C = A @ B with BM x BN tiles and BK slices of K on the emulated `arch`; returns C and the kernel."""
    (M, K), N = a.shape, b.shape[1]
    c = torch.full((M, N), float("nan"), dtype=out)
    f32 = a.dtype == torch.float32
    # A fresh JITFunction per call: it fixes its target on first launch. Multi-buffered f32 operand
    # tiles of 128 x 64 exceed mp_22's shared memory.
    kernel = triton.jit(matmul)[(M // BM, N // BN)](a, b, c, K, BM, BN, BK, "ieee" if f32 else None,
                                                    tl.float16 if out == torch.float16 else tl.float32,
                                                    num_warps=NUM_WARPS[arch], num_stages=1 if f32 else 3)
    return c, kernel


def emuir(kernel: Any) -> str:
    """The LLVM-dialect module the emulator loaded (kept as bytes)."""
    ir = kernel.asm["emuir"]
    return ir.decode() if isinstance(ir, bytes) else ir


def fmuladds(ir: str) -> int:
    """Multiply-adds in LLVM dialect text or LLVM IR."""
    return len(re.findall(r"llvm\.intr\.fmuladd|call float @llvm\.fmuladd\.f32\(", ir))


@pytest.mark.parametrize("dtype,out", [(torch.float16, torch.float32), (torch.float32, torch.float32),
                                       (torch.float16, torch.float16)], ids=["f16-f32", "f32-ieee", "f16-f16"])
def test_loop_matches_torch(arch: str, dtype: torch.dtype, out: torch.dtype) -> None:
    # 128 x 128 tiles over 128 threads: 128 accumulators x BK = 64, 8192 products per thread.
    gen = torch.Generator().manual_seed(11)
    M, N, K = 128, 128, 128
    a, b = torch.randn(M, K, generator=gen).to(dtype), torch.randn(K, N, generator=gen).to(dtype)
    c, kernel = run(arch, a, b, out, 128, 128, 64)
    ir = emuir(kernel)
    assert "#llvm.loop_unroll<disable = true>" in ir
    # One loop body: 128 accumulators x a chunk of 4 k per iteration.
    assert fmuladds(ir) == 512, fmuladds(ir)
    ref = a.double() @ b.double()
    # f32 accumulation of K = 128 products of N(0, 1) values: errors near 1e-5. An f16 accumulator is
    # rounded after each of the two dots (|values| up to ~50: half an ulp is 2^-6).
    tol = dict(atol=1e-2, rtol=4e-3) if out == torch.float16 else dict(atol=1e-4, rtol=1e-5)
    torch.testing.assert_close(c.double(), ref, **tol, msg=lambda m: f"{dtype} -> {out} on {arch}: {m}")


@pytest.mark.parametrize("dtype", [torch.float16, torch.float32])
def test_loop_bit_identical_to_unrolled(arch: str, dtype: torch.dtype) -> None:
    """Each output element adds its products in K order in both forms, so the results agree bit for bit."""
    gen = torch.Generator().manual_seed(5)
    M, N, K = 128, 128, 128
    a, b = torch.randn(M, K, generator=gen).to(dtype), torch.randn(K, N, generator=gen).to(dtype)
    looped, big = run(arch, a, b, torch.float32, 128, 128, 64)
    # 32 x 32 tiles: 8 accumulators x 64 = 512 products per thread, unrolled in full.
    unrolled, small = run(arch, a, b, torch.float32, 32, 32, 64)
    assert "loop_unroll" in emuir(big) and "loop_unroll" not in emuir(small)
    assert torch.equal(looped, unrolled), (looped - unrolled).abs().max().item()


def ttgir(arch: str, BK: int) -> str:
    """TTGIR of a 128 x 128 x BK fp16 tile for `arch` (Triton's stages only)."""
    src = ASTSource(triton.jit(matmul), signature={"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32", "K": "i32",
                                                   "BM": "constexpr", "BN": "constexpr", "BK": "constexpr",
                                                   "PREC": "constexpr", "OUT": "constexpr"},
                    constexprs={"BM": 128, "BN": 128, "BK": BK, "PREC": None, "OUT": tl.float32})
    return compile_to_ttgir(src, TARGETS[arch], dict(num_warps=NUM_WARPS[arch]))["ttgir"]


def device_ir(target: str, BK: int) -> str:
    """LLVM IR of the 128 x 128 x BK tile for a MUSA arch, or PTX for the GPU proxy (proxy_sm90)."""
    from triton_musa.backend import proxy
    from triton_musa.backend.lowering import MatmulOptions, lower_to_llir
    from triton_musa.backend.target import parse_arch
    # The compile's switches as the environment sets them (fma_only turns the units off).
    matmul = MatmulOptions.from_env()
    if target == "proxy_sm90":
        # The stage's options: Triton's TTGIR without a pipelined ring.
        options = types.SimpleNamespace(num_stages=1, matmul=matmul, llvm_opt_level=3)
        llir = proxy.make_llir(ttgir("mp_31", BK), {}, proxy.proxy_target(target), options)
        return proxy.make_ptx(llir, {}, proxy.proxy_target(target), types.SimpleNamespace(enable_fp_fusion=True))
    return lower_to_llir(ttgir(target, BK), parse_arch(target), matmul=matmul).llir


@pytest.mark.parametrize("target", ["mp_31", "mp_22", "proxy_sm90"])
def test_product_code_independent_of_k(target: str) -> None:
    """128 x 128 x 64 unrolled in full was 8192 multiply-adds per thread (3.3 MB of LLVM IR for mp_31; 399 s
    to compile for the proxy). Looped, the multiply-adds are one loop body whatever K is; what still grows
    with K is one store per operand value (and Triton's operand loads)."""
    for BK in (64, 128):
        ir = device_ir(target, BK)
        if target == "proxy_sm90":
            # NVPTX passes the metadata on as ptxas's hint; the body: 128 x 4 fused multiply-adds.
            assert '.pragma "nounroll"' in ir
            assert len(re.findall(r"\bfma\.rn\.f32\b", ir)) == 512, BK
        else:
            assert re.search(r'!\{!"llvm\.loop\.unroll\.disable"\}', ir), BK
            assert fmuladds(ir) == 512, (BK, fmuladds(ir))
        if BK == 64:
            assert len(ir) < 2_000_000, len(ir)
