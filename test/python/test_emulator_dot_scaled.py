"""tl.dot_scaled on the CPU emulator, both archs (--musa-decompose-scaled-dot), against a
reference built in PyTorch by hand: operands decoded (e2m1 by its table, fp8 by torch), upcast to
the compute type (bf16, or fp16 next to an fp16 operand), multiplied by 2^(s - 127) (NaN for
0xFF unless fast_math) in that type, then multiplied exactly in float64. The kernel accumulates
in fp32, so each element may differ from the exact value by K fp32 roundings of |a| @ |b|."""

from __future__ import annotations

from typing import Any, Optional

import pytest

torch = pytest.importorskip("torch")
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

from triton_musa.backend.emulator import emulator_active  # noqa: E402
from triton_musa.backend.environment import ARCH_ENV  # noqa: E402

pytestmark = pytest.mark.skipif(not emulator_active(), reason="a MUSA device or another GPU driver is active here; "
                                "the emulator runs where none is (or with TRITON_MUSA_EMULATOR=1)")

# e2m1 values by code (sign bit 3, exponent bits 2..1 with bias 1, mantissa bit 0).
E2M1_VALUES = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, -0.0, -0.5, -1.0, -1.5, -2.0, -3.0, -4.0, -6.0]
STORAGE = {"e4m3": torch.float8_e4m3fn, "e5m2": torch.float8_e5m2, "bf16": torch.bfloat16, "fp16": torch.float16}
GROUP = 32


def _kernel() -> Any:
    # A fresh JITFunction per test: it fixes its target on first launch.
    def dot_scaled(a_ptr, sa_ptr, b_ptr, sb_ptr, c_ptr, stride_am, stride_ak, stride_bk, stride_bn,
                   M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, A_FMT: tl.constexpr, B_FMT: tl.constexpr,
                   HAS_SA: tl.constexpr, HAS_SB: tl.constexpr, FAST: tl.constexpr, B_K_PACK: tl.constexpr):
        A_K: tl.constexpr = K // 2 if A_FMT == "e2m1" else K
        B_K: tl.constexpr = K // 2 if B_FMT == "e2m1" and B_K_PACK else K
        B_N: tl.constexpr = N // 2 if B_FMT == "e2m1" and not B_K_PACK else N
        m, n = tl.arange(0, M), tl.arange(0, B_N)
        a = tl.load(a_ptr + m[:, None] * stride_am + tl.arange(0, A_K)[None, :] * stride_ak)
        b = tl.load(b_ptr + tl.arange(0, B_K)[:, None] * stride_bk + n[None, :] * stride_bn)
        g = tl.arange(0, K // 32)
        sa = None
        sb = None
        if HAS_SA:
            sa = tl.load(sa_ptr + m[:, None] * (K // 32) + g[None, :])
        if HAS_SB:
            sb = tl.load(sb_ptr + tl.arange(0, N)[:, None] * (K // 32) + g[None, :])
        c = tl.dot_scaled(a, sa, A_FMT, b, sb, B_FMT, fast_math=FAST, rhs_k_pack=B_K_PACK)
        nn = tl.arange(0, N)
        tl.store(c_ptr + m[:, None] * N + nn[None, :], c)

    return triton.jit(dot_scaled)


def _random_operand(shape: tuple, fmt: str, gen: torch.Generator) -> torch.Tensor:
    """Storage of an operand: packed bytes for e2m1, else values of the format (finite)."""
    if fmt == "e2m1":
        return torch.randint(0, 256, shape, dtype=torch.uint8, generator=gen)
    return (torch.randn(shape, generator=gen) * 3).to(STORAGE[fmt])


def _decode(x: torch.Tensor, fmt: str, packed_dim: int) -> torch.Tensor:
    """Exact float64 values of a stored operand; e2m1 pairs unpack along `packed_dim`, low nibble first."""
    if fmt != "e2m1":
        return x.double()
    table = torch.tensor(E2M1_VALUES, dtype=torch.float64)
    lo, hi = table[(x & 0xF).long()], table[(x >> 4).long()]
    shape = list(x.shape)
    shape[packed_dim] *= 2
    return torch.stack([lo, hi], dim=packed_dim + 1).reshape(shape)


def _scaled(values: torch.Tensor, scale: Optional[torch.Tensor], compute: torch.dtype, fast: bool,
            k_dim: int) -> torch.Tensor:
    """The operand as the decomposition computes it, in float64: upcast to `compute`, times the
    scale rounded to `compute`, the product rounded to `compute`."""
    v = values.to(compute)
    if scale is None:
        return v.double()
    factor = torch.pow(2.0, scale.double() - 127)  # s = 0: 2^-127 (a subnormal in bf16, 0 in fp16)
    if not fast:
        factor = torch.where(scale == 0xFF, torch.tensor(float("nan"), dtype=torch.float64), factor)
    factor = factor.to(compute).repeat_interleave(GROUP, dim=1)  # [rows, K]
    if k_dim == 0:
        factor = factor.T
    return (v * factor).double()


def _run(fmt_a: str, fmt_b: str, *, scale_a: bool, scale_b: bool, M: int = 32, N: int = 32, K: int = 64,
         fast: bool = False, b_k_pack: bool = True, col_major_a: bool = False, num_warps: int = 4,
         scales: Optional[tuple] = None, seed: int = 0) -> tuple:
    gen = torch.Generator().manual_seed(seed)
    a_shape = (M, K // 2 if fmt_a == "e2m1" else K)
    b_packed = fmt_b == "e2m1"
    b_shape = (K // 2, N) if b_packed and b_k_pack else (K, N // 2) if b_packed else (K, N)
    a = _random_operand(a_shape, fmt_a, gen)
    b = _random_operand(b_shape, fmt_b, gen)
    if col_major_a:
        a = a.T.contiguous().T
    sa, sb = scales or (torch.randint(118, 137, (M, K // GROUP), dtype=torch.uint8, generator=gen),
                        torch.randint(118, 137, (N, K // GROUP), dtype=torch.uint8, generator=gen))
    c = torch.full((M, N), float("nan"))
    _kernel()[(1, )](a, sa if scale_a else None, b, sb if scale_b else None, c, a.stride(0), a.stride(1),
                     b.stride(0), b.stride(1), M, N, K, fmt_a, fmt_b, scale_a, scale_b, fast, b_k_pack,
                     num_warps=num_warps)
    compute = torch.float16 if "fp16" in (fmt_a, fmt_b) else torch.bfloat16
    A = _scaled(_decode(a, fmt_a, 1), sa if scale_a else None, compute, fast, 1)
    B = _scaled(_decode(b, fmt_b, 0 if b_k_pack else 1), sb if scale_b else None, compute, fast, 0)
    return c.double(), A @ B, A.abs() @ B.abs()


def _assert_close(c: torch.Tensor, exact: torch.Tensor, magnitude: torch.Tensor, what: str, K: int = 64) -> None:
    # fp32 accumulation: at most K roundings of at most 2^-24 of the running |sum| <= |a| @ |b|.
    bound = K * 2.0**-24 * magnitude + 1e-30
    finite = torch.isfinite(exact)
    assert torch.equal(torch.isnan(c), torch.isnan(exact)), f"{what}: NaN where the reference has none, or the reverse"
    assert torch.equal(torch.isinf(c), torch.isinf(exact)), f"{what}: infinities differ"
    err = (c - exact).abs()[finite]
    assert (err <= bound[finite]).all(), f"{what}: max error {err.max().item():.3g} beyond the fp32 accumulation bound"


@pytest.mark.parametrize("fmt_a, fmt_b, scale_a, scale_b", [
    ("e2m1", "bf16", True, False),
    ("e4m3", "e5m2", True, False),
    ("e5m2", "e2m1", True, True),
    ("bf16", "e2m1", False, True),
    ("e4m3", "e4m3", False, True),
    ("e2m1", "e4m3", False, False),
    ("fp16", "e4m3", False, True),
    ("e2m1", "fp16", True, False),
    ("bf16", "fp16", False, False),
])
def test_dot_scaled_formats(arch: str, fmt_a: str, fmt_b: str, scale_a: bool, scale_b: bool) -> None:
    c, exact, magnitude = _run(fmt_a, fmt_b, scale_a=scale_a, scale_b=scale_b)
    _assert_close(c, exact, magnitude, f"{fmt_a} x {fmt_b} on {arch}")


def test_dot_scaled_special_scales(arch: str) -> None:
    """Scale 0 is 2^-127 (not 0), 0xFF makes its K group NaN, 254 is 2^127; fast_math keeps 0xFF
    as what its bits say (2^128 = inf)."""
    M, N, K = 32, 32, 64
    sa = torch.full((M, K // GROUP), 127, dtype=torch.uint8)
    sa[0, 0] = 0xFF
    sa[1, :] = 0
    sa[2, 1] = 254
    sb = torch.full((N, K // GROUP), 127, dtype=torch.uint8)
    sb[3, 1] = 0xFF
    for fast in (False, True):
        c, exact, magnitude = _run("e4m3", "e2m1", scale_a=True, scale_b=True, fast=fast, scales=(sa, sb))
        _assert_close(c, exact, magnitude, f"special scales (fast_math={fast}) on {arch}")
        if not fast:
            assert torch.isnan(c[0]).all() and torch.isnan(c[:, 3]).all()
            assert torch.isfinite(c[4:, 4:]).all()
        # Row 1's scale 2^-127 leaves tiny but mostly nonzero products (0 would zero the row).
        assert (c[1, 4:] != 0).any()


def test_dot_scaled_rhs_packed_along_n(arch: str) -> None:
    c, exact, magnitude = _run("bf16", "e2m1", scale_a=False, scale_b=False, b_k_pack=False)
    _assert_close(c, exact, magnitude, f"e2m1 rhs packed along N on {arch}")


def test_dot_scaled_column_major_lhs_larger(arch: str) -> None:
    """A column-major lhs, 64x64x128 with 8 warps: other load layouts, four K groups."""
    c, exact, magnitude = _run("e4m3", "e2m1", scale_a=True, scale_b=True, M=64, N=64, K=128,
                               col_major_a=True, num_warps=8)
    _assert_close(c, exact, magnitude, f"column-major e4m3 x e2m1 64x64x128 on {arch}", K=128)


def test_dot_scaled_on_wmma(monkeypatch: pytest.MonkeyPatch) -> None:
    """The decomposed dot is an ordinary bf16 dot for the matrix-path selection: on mp_22 a
    64x64x64 one goes to WMMA, and runs right there."""
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    from triton_musa.backend.compiler import compile_to_ttgir
    from triton_musa.backend.lowering import MatmulOptions, parse_ttgir, run_passes

    monkeypatch.setenv(ARCH_ENV, "mp_22")
    kernel = _kernel()
    constants = {"M": 64, "N": 64, "K": 64, "A_FMT": "e2m1", "B_FMT": "bf16", "HAS_SA": True, "HAS_SB": False,
                 "FAST": False, "B_K_PACK": True}
    signature = {"a_ptr": "*u8", "sa_ptr": "*u8", "b_ptr": "*bf16", "sb_ptr": "*u8", "c_ptr": "*fp32",
                 "stride_am": "i32", "stride_ak": "i32", "stride_bk": "i32", "stride_bn": "i32",
                 **{name: "constexpr" for name in constants}}
    src = ASTSource(kernel, signature=signature, constexprs=constants)
    ttgir = compile_to_ttgir(src, GPUTarget("musa", "mp_22", 128), {"num_warps": 4, "num_stages": 1})["ttgir"]
    assert "tt.dot_scaled" in ttgir
    module = parse_ttgir(ttgir, source_name="scaled.ttgir")
    remarks = [str(remark) for remark in run_passes(
        module, f"builtin.module(musa-decompose-scaled-dot,{MatmulOptions().pass_spec()},musa-dot-path-report)")]
    assert len(remarks) == 1 and "dot 64x64x64 bf16 -> f32: wmma bf16 x bf16 -> f32 m32n32k16 on mp_2x" in remarks[0], remarks

    c, exact, magnitude = _run("e2m1", "bf16", scale_a=True, scale_b=False, M=64, N=64, K=64)
    _assert_close(c, exact, magnitude, "e2m1 x bf16 64x64x64 on mp_22 (WMMA)")


def test_dot_scaled_in_a_pipelined_loop(arch: str) -> None:
    """K-loop of scaled dots accumulating into one result, with num_stages=3: Triton's pipeliner
    turns the loads into async copies, and the decomposition runs on what it leaves."""

    @triton.jit
    def loop(a_ptr, b_ptr, sa_ptr, c_ptr, K, M: tl.constexpr, N: tl.constexpr, BK: tl.constexpr):
        m, n = tl.arange(0, M), tl.arange(0, N)
        acc = tl.zeros((M, N), tl.float32)
        for k in range(0, K, BK):
            a = tl.load(a_ptr + m[:, None] * (K // 2) + (k // 2 + tl.arange(0, BK // 2))[None, :])
            b = tl.load(b_ptr + (k + tl.arange(0, BK))[:, None] * N + n[None, :])
            sa = tl.load(sa_ptr + m[:, None] * (K // 32) + (k // 32 + tl.arange(0, BK // 32))[None, :])
            acc = tl.dot_scaled(a, sa, "e2m1", b, None, "bf16", acc)
        tl.store(c_ptr + m[:, None] * N + n[None, :], acc)

    M, N, K, BK = 32, 32, 256, 64
    gen = torch.Generator().manual_seed(5)
    a = _random_operand((M, K // 2), "e2m1", gen)
    b = _random_operand((K, N), "bf16", gen)
    sa = torch.randint(118, 137, (M, K // GROUP), dtype=torch.uint8, generator=gen)
    c = torch.full((M, N), float("nan"))
    compiled = loop[(1, )](a, b, sa, c, K, M, N, BK, num_stages=3)
    from triton_musa.backend.lowering import pipeline_report
    [remark] = pipeline_report(compiled.asm["ttgir"], 3, target="emulator")
    assert "loop pipelined: 3 loads as async copies" in remark, remark
    A = _scaled(_decode(a, "e2m1", 1), sa, torch.bfloat16, False, 1)
    B = _scaled(_decode(b, "bf16", 0), None, torch.bfloat16, False, 0)
    _assert_close(c.double(), A @ B, A.abs() @ B.abs(), f"pipelined scaled-dot loop on {arch}", K=K)
