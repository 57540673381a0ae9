"""Numerics of the TTGIR -> LLVM lowering on the CPU emulator, for both archs (mp_31 warp 32, mp_22
warp 128), against PyTorch at Triton's usual tolerances: reductions, softmax, layer norm, scans,
argmax/argmin, atomics, histogram, transpose, FMA-path tl.dot in fp32/fp16/bf16 on ragged sizes,
attention, libdevice calls, device_print and device_assert."""

from __future__ import annotations

import math
from typing import Any, Dict, Tuple

import pytest

torch = pytest.importorskip("torch")
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.compiler import ASTSource  # noqa: E402

from corpus import BY_NAME, TARGETS  # noqa: E402
from triton_musa.backend.emulator import emulator_active  # noqa: E402

pytestmark = pytest.mark.skipif(not emulator_active(), reason="a MUSA device or another GPU driver is active here; "
                                "the emulator runs where none is (or with TRITON_MUSA_EMULATOR=1)")

ARCHS = tuple(TARGETS)
_DTYPE_NAMES = {
    torch.float16: "fp16", torch.bfloat16: "bf16", torch.float32: "fp32", torch.float64: "fp64",
    torch.int32: "i32", torch.int64: "i64", torch.uint8: "u8"
}


def run(fn: Any, arch: str, grid: Tuple[int, ...], args: Dict[str, Any], constexprs: Dict[str, Any], *,
        num_warps: int = 4, **options: Any) -> None:
    """Compiles `fn` for `arch` with the given arguments' types and constexprs, and launches it."""
    signature: Dict[str, str] = {}
    for name in fn.arg_names:
        if name in constexprs:
            signature[name] = "constexpr"
        elif isinstance(args[name], torch.Tensor):
            signature[name] = "*" + _DTYPE_NAMES[args[name].dtype]
        elif isinstance(args[name], float):
            signature[name] = "fp32"
        else:
            signature[name] = "i32"
    src = ASTSource(fn, signature=signature, constexprs=dict(constexprs))
    kernel = triton.compile(src, target=TARGETS[arch], options=dict(num_warps=num_warps, **options))
    full = [args[n] if n in args else constexprs[n] for n in fn.arg_names]
    kernel[tuple(grid) + (1, ) * (3 - len(grid))](*full)


# ---------------------------------------------------------------------------------------------------------------
# Reductions, softmax, layer norm
# ---------------------------------------------------------------------------------------------------------------


@triton.jit
def row_sum_max_kernel(x_ptr, sum_ptr, max_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0)
    tl.store(sum_ptr + row, tl.sum(x, axis=0))
    xm = tl.where(mask, x, float("-inf"))
    tl.store(max_ptr + row, tl.max(xm, axis=0))


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("n_cols,block,num_warps", [(100, 128, 4), (1000, 1024, 2), (7, 16, 1)])
def test_row_sum_max(arch: str, n_cols: int, block: int, num_warps: int) -> None:
    rows = 5
    x = torch.randn(rows, n_cols)
    s, m = torch.zeros(rows), torch.zeros(rows)
    run(row_sum_max_kernel, arch, (rows, ), dict(x_ptr=x, sum_ptr=s, max_ptr=m, n_cols=n_cols, stride=n_cols),
        dict(BLOCK=block), num_warps=num_warps)
    torch.testing.assert_close(s, x.sum(1), rtol=1e-5, atol=1e-4)
    torch.testing.assert_close(m, x.max(1).values)


@triton.jit
def block_sum_2d_kernel(x_ptr, col_ptr, row_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.arange(0, BM)[:, None]
    rn = tl.arange(0, BN)[None, :]
    mask = (rm < M) & (rn < N)
    x = tl.load(x_ptr + rm * N + rn, mask=mask, other=0.0)
    tl.store(col_ptr + tl.arange(0, BN), tl.sum(x, axis=0), mask=tl.arange(0, BN) < N)
    tl.store(row_ptr + tl.arange(0, BM), tl.sum(x, axis=1), mask=tl.arange(0, BM) < M)


@pytest.mark.parametrize("arch", ARCHS)
def test_sum_both_axes_2d(arch: str) -> None:
    M, N = 45, 27
    x = torch.randn(M, N)
    col, row = torch.zeros(N), torch.zeros(M)
    run(block_sum_2d_kernel, arch, (1, ), dict(x_ptr=x, col_ptr=col, row_ptr=row, M=M, N=N), dict(BM=64, BN=32))
    torch.testing.assert_close(col, x.sum(0), rtol=1e-5, atol=1e-4)
    torch.testing.assert_close(row, x.sum(1), rtol=1e-5, atol=1e-4)


@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=float("-inf"))
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    tl.store(out_ptr + row * stride + cols, num / tl.sum(num, axis=0), mask=mask)


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("n_cols,block", [(97, 128), (781, 1024)])
def test_softmax(arch: str, n_cols: int, block: int) -> None:
    rows = 6
    x = torch.randn(rows, n_cols) * 3
    out = torch.zeros_like(x)
    run(softmax_kernel, arch, (rows, ), dict(x_ptr=x, out_ptr=out, n_cols=n_cols, stride=n_cols), dict(BLOCK=block))
    torch.testing.assert_close(out, torch.softmax(x, dim=1))


@triton.jit
def layernorm_kernel(x_ptr, w_ptr, b_ptr, y_ptr, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / n_cols
    diff = tl.where(mask, x - mean, 0.0)
    var = tl.sum(diff * diff, axis=0) / n_cols
    rstd = 1.0 / tl.sqrt(var + eps)
    w = tl.load(w_ptr + cols, mask=mask)
    b = tl.load(b_ptr + cols, mask=mask)
    y = diff * rstd * w + b
    tl.store(y_ptr + row * n_cols + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
def test_layernorm(arch: str, dtype: torch.dtype) -> None:
    rows, n = 4, 300
    x = torch.randn(rows, n).to(dtype)
    w, b = torch.randn(n).to(dtype), torch.randn(n).to(dtype)
    y = torch.zeros_like(x)
    run(layernorm_kernel, arch, (rows, ), dict(x_ptr=x, w_ptr=w, b_ptr=b, y_ptr=y, n_cols=n, eps=1e-5),
        dict(BLOCK=512))
    ref = torch.nn.functional.layer_norm(x.float(), (n, ), w.float(), b.float(), eps=1e-5).to(dtype)
    torch.testing.assert_close(y, ref)


# ---------------------------------------------------------------------------------------------------------------
# Scans, argmax / argmin
# ---------------------------------------------------------------------------------------------------------------


@triton.jit
def cumsum_kernel(x_ptr, out_ptr, M, N, AXIS: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.arange(0, BM)[:, None]
    rn = tl.arange(0, BN)[None, :]
    mask = (rm < M) & (rn < N)
    x = tl.load(x_ptr + rm * N + rn, mask=mask, other=0.0)
    tl.store(out_ptr + rm * N + rn, tl.cumsum(x, axis=AXIS), mask=mask)


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("dtype", [torch.float32, torch.int32])
def test_cumsum(arch: str, axis: int, dtype: torch.dtype) -> None:
    M, N = 13, 200
    x = torch.randn(M, N) if dtype.is_floating_point else torch.randint(-50, 50, (M, N), dtype=dtype)
    out = torch.zeros_like(x)
    run(cumsum_kernel, arch, (1, ), dict(x_ptr=x, out_ptr=out, M=M, N=N), dict(AXIS=axis, BM=16, BN=256))
    torch.testing.assert_close(out, torch.cumsum(x, dim=axis).to(dtype), rtol=1e-5, atol=1e-4)


@triton.jit
def argmax_argmin_kernel(x_ptr, imax_ptr, imin_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0)
    tl.store(imax_ptr + row, tl.argmax(tl.where(mask, x, float("-inf")), axis=0))
    tl.store(imin_ptr + row, tl.argmin(tl.where(mask, x, float("inf")), axis=0))


@pytest.mark.parametrize("arch", ARCHS)
def test_argmax_argmin(arch: str) -> None:
    rows, n = 9, 333
    x = torch.randn(rows, n)
    x[2, 17] = x[2, 300] = 100.0  # ties: the lowest index wins
    x[3, 5] = x[3, 6] = -100.0
    imax, imin = torch.zeros(rows, dtype=torch.int32), torch.zeros(rows, dtype=torch.int32)
    run(argmax_argmin_kernel, arch, (rows, ), dict(x_ptr=x, imax_ptr=imax, imin_ptr=imin, n_cols=n),
        dict(BLOCK=512))
    assert imax.tolist() == x.argmax(1).tolist()
    assert imin.tolist() == x.argmin(1).tolist()
    assert imax[2] == 17 and imin[3] == 5


# ---------------------------------------------------------------------------------------------------------------
# Atomics and histogram
# ---------------------------------------------------------------------------------------------------------------


@triton.jit
def scatter_add_kernel(x_ptr, idx_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    idx = tl.load(idx_ptr + offs, mask=mask)
    tl.atomic_add(out_ptr + idx, x, mask=mask)


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("dtype", [torch.int32, torch.float32])
def test_atomic_add_scatter(arch: str, dtype: torch.dtype) -> None:
    n, bins = 3000, 37
    x = torch.randint(-5, 6, (n, ), dtype=dtype)  # small integers: exact in fp32 whatever the order
    idx = torch.randint(0, bins, (n, ), dtype=torch.int32)
    out = torch.zeros(bins, dtype=dtype)
    run(scatter_add_kernel, arch, (triton.cdiv(n, 256), ), dict(x_ptr=x, idx_ptr=idx, out_ptr=out, n=n),
        dict(BLOCK=256))
    ref = torch.zeros(bins, dtype=dtype).index_add_(0, idx.long(), x)
    torch.testing.assert_close(out, ref)


@triton.jit
def histogram_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, BINS: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    h = tl.histogram(x, BINS, mask=mask)
    tl.atomic_add(out_ptr + tl.arange(0, BINS), h)


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("bins", [16, 256])
def test_atomic_histogram(arch: str, bins: int) -> None:
    n = 2500
    x = torch.randint(0, bins, (n, ), dtype=torch.int32)
    out = torch.zeros(bins, dtype=torch.int32)
    run(histogram_kernel, arch, (triton.cdiv(n, 512), ), dict(x_ptr=x, out_ptr=out, n=n), dict(BLOCK=512,
                                                                                                BINS=bins))
    assert out.tolist() == torch.bincount(x.long(), minlength=bins).int().tolist()


# ---------------------------------------------------------------------------------------------------------------
# Transpose, matmul (FMA path), attention
# ---------------------------------------------------------------------------------------------------------------


@triton.jit
def transpose_kernel(x_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :], mask=mask)
    tl.store(out_ptr + rn[:, None] * M + rm[None, :], tl.trans(x), mask=tl.trans(mask))


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
def test_transpose(arch: str, dtype: torch.dtype) -> None:
    M, N, BM, BN = 70, 45, 32, 64
    x = torch.randn(M, N).to(dtype)
    out = torch.zeros(N, M, dtype=dtype)
    run(transpose_kernel, arch, (triton.cdiv(M, BM), triton.cdiv(N, BN)), dict(x_ptr=x, out_ptr=out, M=M, N=N),
        dict(BM=BM, BN=BN))
    assert torch.equal(out, x.t())


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        kk = k * BK + rk
        a = tl.load(a_ptr + rm[:, None] * K + kk[None, :], mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        b = tl.load(b_ptr + kk[:, None] * N + rn[None, :], mask=(kk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b, input_precision="ieee")
    c = acc.to(c_ptr.dtype.element_ty)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c, mask=(rm[:, None] < M) & (rn[None, :] < N))


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
@pytest.mark.parametrize("M,N,K,BM,BN,BK", [(37, 45, 29, 32, 32, 16), (19, 70, 50, 16, 64, 32)])
def test_matmul(arch: str, dtype: torch.dtype, M: int, N: int, K: int, BM: int, BN: int, BK: int) -> None:
    a, b = torch.randn(M, K).to(dtype), torch.randn(K, N).to(dtype)
    c = torch.zeros(M, N, dtype=dtype)
    run(matmul_kernel, arch, (triton.cdiv(M, BM), triton.cdiv(N, BN)), dict(a_ptr=a, b_ptr=b, c_ptr=c, M=M, N=N,
                                                                            K=K), dict(BM=BM, BN=BN, BK=BK))
    ref = (a.float() @ b.float()).to(dtype)
    torch.testing.assert_close(c, ref, rtol=1e-5 if dtype == torch.float32 else 1e-2,
                               atol=1e-4 if dtype == torch.float32 else 1e-2)


@triton.jit
def attention_fwd_kernel(q_ptr, k_ptr, v_ptr, o_ptr, seq, scale, D: tl.constexpr, BM: tl.constexpr,
                         BN: tl.constexpr):
    head = tl.program_id(1)
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rd = tl.arange(0, D)
    base = head * seq * D
    q = tl.load(q_ptr + base + rm[:, None] * D + rd[None, :], mask=rm[:, None] < seq, other=0.0)
    m_i = tl.full((BM, ), float("-inf"), tl.float32)
    l_i = tl.zeros((BM, ), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    for start in range(0, seq, BN):
        rn = start + tl.arange(0, BN)
        kt = tl.load(k_ptr + base + rn[None, :] * D + rd[:, None], mask=rn[None, :] < seq, other=0.0)
        s = tl.dot(q, kt, input_precision="ieee") * scale
        s = tl.where(rn[None, :] < seq, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        p = tl.exp(s - m_new[:, None])
        alpha = tl.exp(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v = tl.load(v_ptr + base + rn[:, None] * D + rd[None, :], mask=rn[:, None] < seq, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v, input_precision="ieee")
        m_i = m_new
    out = acc / l_i[:, None]
    tl.store(o_ptr + base + rm[:, None] * D + rd[None, :], out.to(o_ptr.dtype.element_ty), mask=rm[:, None] < seq)


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("dtype,seq,d,block", [(torch.float32, 45, 16, 16), (torch.float16, 45, 16, 16),
                                               (torch.float16, 150, 64, 64)])
def test_attention_fwd(arch: str, dtype: torch.dtype, seq: int, d: int, block: int) -> None:
    """At 64x64 tiles the fp16 dots take mp_31's SQMMA and mp_22's WMMA, and the scores, the row statistics'
    updates and the loop-carried accumulator stay in the unit's layout (--musa-sink-accumulator-conversions).
    (fp32 at 64x64 needs 96 KiB of shared memory for its FMA operand ring: more than mp_22 has.)"""
    heads = 2
    q, k, v = (torch.randn(heads, seq, d).to(dtype) for _ in range(3))
    o = torch.zeros_like(q)
    scale = 1.0 / math.sqrt(d)
    run(attention_fwd_kernel, arch, (triton.cdiv(seq, block), heads),
        dict(q_ptr=q, k_ptr=k, v_ptr=v, o_ptr=o, seq=seq, scale=scale), dict(D=d, BM=block, BN=block))
    ref = torch.softmax((q.float() @ k.float().transpose(1, 2)) * scale, dim=-1) @ v.float()
    tol = dict(rtol=1e-5, atol=1e-4) if dtype == torch.float32 else dict(rtol=1e-2, atol=1e-2)
    torch.testing.assert_close(o.float(), ref, **tol)


# ---------------------------------------------------------------------------------------------------------------
# libdevice (host math on the emulator), device_print, device_assert
# ---------------------------------------------------------------------------------------------------------------


def _launch_corpus(name: str, arch: str, grid: Tuple[int, int, int], *args: Any) -> None:
    entry = BY_NAME[name]
    kernel = triton.compile(entry.source(), target=TARGETS[arch], options=dict(entry.options))
    params = entry.fn.arg_names
    kernel[grid](*(list(args) + [entry.constexprs[p] for p in params[len(args):]]))


@pytest.mark.parametrize("arch", ARCHS)
def test_libdevice_f32_corpus(arch: str) -> None:
    n = 1000
    x = torch.rand(n) * 1.5 + 0.05  # pow(x, y) of a negative x is NaN
    y = torch.rand(n) * 2 + 0.5
    out = torch.zeros(n)
    _launch_corpus("libdevice_f32", arch, (triton.cdiv(n, 256), 1, 1), x, y, out, n)
    xd, yd = x.double(), y.double()
    a = torch.exp(xd) + torch.exp2(yd) + torch.log(yd) + torch.log2(yd) + torch.log1p(xd)
    b = torch.sin(xd) + torch.cos(xd) + torch.tan(xd) + torch.tanh(xd) + torch.erf(xd)
    c = torch.sqrt(yd) + torch.rsqrt(yd) + torch.pow(xd, yd) + torch.fmod(xd, yd) + torch.atan2(xd, yd)
    d = torch.floor(xd) + torch.ceil(xd) + torch.trunc(xd) + torch.round(xd) + torch.round(xd)
    e = torch.exp(xd) + xd / yd + torch.log2(yd) + (xd * yd + a)
    f = torch.isnan(xd).double() + xd**3 + xd * 4 + torch.pow(yd, 1 / 3)
    torch.testing.assert_close(out, (a + b + c + d + e + f).float(), rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("arch", ARCHS)
def test_libdevice_f64_corpus(arch: str) -> None:
    n = 300
    x = torch.rand(n, dtype=torch.float64) * 3 + 0.1
    out = torch.zeros(n, dtype=torch.float64)
    _launch_corpus("libdevice_f64", arch, (triton.cdiv(n, 128), 1, 1), x, out, n)
    r = torch.exp(x) + torch.log(x) + torch.pow(x, x) + torch.sqrt(x) + torch.tanh(x)
    r += x / (x + 1.0) + torch.erf(x) + torch.sin(x)
    torch.testing.assert_close(out, r)


@triton.jit
def print_kernel(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.device_print("x", x)


@pytest.mark.parametrize("arch", ARCHS)
def test_device_print(arch: str, capfd: pytest.CaptureFixture[str]) -> None:
    x = torch.arange(8, dtype=torch.int32) * 10
    run(print_kernel, arch, (2, ), dict(x_ptr=x), dict(BLOCK=8), num_warps=1)
    lines = [ln for ln in capfd.readouterr().out.splitlines() if " x: " in ln]
    # Triton's format: one line per element and program (lanes holding copies print it again).
    expected = {f"pid ({p}, 0, 0) idx ({i}) x: {10 * i}" for p in range(2) for i in range(8)}
    assert set(ln.strip() for ln in lines) == expected


@triton.jit
def assert_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0)
    tl.device_assert(x < 100, "x must stay below 100")


@pytest.mark.parametrize("arch", ARCHS)
def test_device_assert(arch: str) -> None:
    ok = torch.arange(64, dtype=torch.int32)
    run(assert_kernel, arch, (1, ), dict(x_ptr=ok, n=64), dict(BLOCK=64), debug=True)
    bad = ok.clone()
    bad[37] = 1000
    with pytest.raises(Exception, match="x must stay below 100"):
        run(assert_kernel, arch, (1, ), dict(x_ptr=bad, n=64), dict(BLOCK=64), debug=True)


# ---------------------------------------------------------------------------------------------------------------
# More layouts: 8 warps, axis-0 reductions, reverse and custom scans, more atomics, views, sort, gather
# ---------------------------------------------------------------------------------------------------------------


@triton.jit
def reduce_axis0_kernel(x_ptr, sum_ptr, min_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.arange(0, BM)[:, None]
    rn = tl.program_id(0) * BN + tl.arange(0, BN)
    mask = (rm < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm * N + rn[None, :], mask=mask, other=0)
    tl.store(sum_ptr + rn, tl.sum(x, axis=0), mask=rn < N)
    tl.store(min_ptr + rn, tl.min(tl.where(mask, x, 2**30), axis=0), mask=rn < N)


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("num_warps", [1, 8])
def test_reduce_axis0_int(arch: str, num_warps: int) -> None:
    M, N = 120, 50
    x = torch.randint(-1000, 1000, (M, N), dtype=torch.int32)
    s, m = torch.zeros(N, dtype=torch.int32), torch.zeros(N, dtype=torch.int32)
    run(reduce_axis0_kernel, arch, (triton.cdiv(N, 32), ), dict(x_ptr=x, sum_ptr=s, min_ptr=m, M=M, N=N),
        dict(BM=128, BN=32), num_warps=num_warps)
    assert s.tolist() == x.sum(0).int().tolist()
    assert m.tolist() == x.min(0).values.tolist()


@triton.jit
def _mul(a, b):
    return a * b


@triton.jit
def _max(a, b):
    return tl.maximum(a, b)


@triton.jit
def scans_kernel(x_ptr, rev_ptr, prod_ptr, cmax_ptr, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(rev_ptr + offs, tl.cumsum(x, axis=0, reverse=True), mask=mask)
    tl.store(prod_ptr + offs, tl.associative_scan(tl.where(mask, x, 1.0), 0, _mul), mask=mask)
    tl.store(cmax_ptr + offs, tl.associative_scan(x, 0, _max), mask=mask)


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("num_warps", [1, 4])
def test_scans(arch: str, num_warps: int) -> None:
    N = 300
    x = torch.rand(N) * 0.2 + 0.9
    rev, prod, cmax = torch.zeros(N), torch.zeros(N), torch.zeros(N)
    run(scans_kernel, arch, (1, ), dict(x_ptr=x, rev_ptr=rev, prod_ptr=prod, cmax_ptr=cmax, N=N), dict(BLOCK=512),
        num_warps=num_warps)
    torch.testing.assert_close(rev, x.flip(0).cumsum(0).flip(0), rtol=1e-5, atol=1e-4)
    torch.testing.assert_close(prod, x.cumprod(0), rtol=1e-4, atol=1e-6)
    torch.testing.assert_close(cmax, x.cummax(0).values)


@triton.jit
def atomics_kernel(x_ptr, max_ptr, min_ptr, old_ptr, cnt_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.atomic_max(max_ptr + offs % 8, x, mask=mask)
    tl.atomic_min(min_ptr + offs % 8, x, mask=mask)
    old = tl.atomic_add(cnt_ptr + tl.zeros_like(offs), 1, mask=mask)  # each lane gets a distinct ticket
    tl.store(old_ptr + offs, old, mask=mask)
    tl.atomic_cas(cnt_ptr + 1, 0, 7)


@pytest.mark.parametrize("arch", ARCHS)
def test_atomics_max_min_tickets_cas(arch: str) -> None:
    n = 1000
    x = torch.randint(-10**6, 10**6, (n, ), dtype=torch.int32)
    mx = torch.full((8, ), -2**31, dtype=torch.int32)
    mn = torch.full((8, ), 2**31 - 1, dtype=torch.int32)
    old = torch.full((n, ), -1, dtype=torch.int32)
    cnt = torch.zeros(2, dtype=torch.int32)
    run(atomics_kernel, arch, (triton.cdiv(n, 128), ), dict(x_ptr=x, max_ptr=mx, min_ptr=mn, old_ptr=old,
                                                            cnt_ptr=cnt, n=n), dict(BLOCK=128))
    groups = x.view(-1, 8)
    assert mx.tolist() == groups.max(0).values.tolist()
    assert mn.tolist() == groups.min(0).values.tolist()
    assert sorted(old.tolist()) == list(range(n))
    assert cnt.tolist() == [n, 7]


@pytest.mark.parametrize("arch", ARCHS)
def test_reshape_trans_permute_corpus(arch: str) -> None:
    A, B, C = 4, 8, 16
    x = torch.randn(A * B * C)
    out = torch.zeros(2 * A * B * C)
    _launch_corpus("reshape_trans_permute", arch, (1, 1, 1), x, out)
    t = x.view(A, B, C).permute(2, 0, 1).reshape(C, A * B).t().reshape(-1)
    # The can_reorder reshape may order elements freely: compare the multiset.
    loose = out[:A * B * C] - t
    torch.testing.assert_close(loose.sort().values, t.sort().values)
    torch.testing.assert_close(out[A * B * C:], x * 2)


@pytest.mark.parametrize("arch", ARCHS)
def test_join_split_interleave_corpus(arch: str) -> None:
    n = 128
    re, im = torch.randn(n), torch.randn(n)
    re0, im0 = re.clone(), im.clone()
    out = torch.zeros(2 * n)
    _launch_corpus("join_split_interleave", arch, (1, 1, 1), re, im, out)
    torch.testing.assert_close(out, torch.stack([re0, im0], 1).reshape(-1))
    torch.testing.assert_close(re, re0 * im0)
    # interleave(a, b) viewed as (2, n) and summed over the first axis.
    torch.testing.assert_close(im, torch.stack([re0, im0], 1).reshape(2, n).sum(0))


@pytest.mark.parametrize("arch", ARCHS)
def test_flip_sort_topk_corpus(arch: str) -> None:
    R, C, K = 8, 64, 8
    x = torch.randn(R, C)
    out = torch.zeros(R * C + R * K)
    _launch_corpus("flip_sort_topk", arch, (1, 1, 1), x, out)
    torch.testing.assert_close(out[:R * C].view(R, C), x.flip(1) + x.sort(1, descending=True).values)
    torch.testing.assert_close(out[R * C:].view(R, K), x.topk(K, 1).values)


@triton.jit
def gather_kernel(x_ptr, idx_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr):
    rm = tl.arange(0, M)[:, None]
    rn = tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + rm * N + rn)
    idx = tl.load(idx_ptr + rm * N + rn)
    tl.store(out_ptr + rm * N + rn, tl.gather(x, idx, axis=1))


@pytest.mark.parametrize("arch", ARCHS)
def test_gather(arch: str) -> None:
    M, N = 16, 64
    x = torch.randn(M, N)
    idx = torch.randint(0, N, (M, N), dtype=torch.int32)
    out = torch.zeros(M, N)
    run(gather_kernel, arch, (1, ), dict(x_ptr=x, idx_ptr=idx, out_ptr=out), dict(M=M, N=N))
    assert torch.equal(out, torch.gather(x, 1, idx.long()))


@triton.jit
def matmul_bt_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # C = A @ B^T with B stored [N, K]: the loaded B tile is transposed in registers.
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        kk = k * BK + tl.arange(0, BK)
        a = tl.load(a_ptr + rm[:, None] * K + kk[None, :], mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        b = tl.load(b_ptr + rn[:, None] * K + kk[None, :], mask=(rn[:, None] < N) & (kk[None, :] < K), other=0.0)
        acc = tl.dot(a, tl.trans(b), acc, input_precision="ieee")
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("dtype,num_warps", [(torch.float32, 8), (torch.float16, 2)])
def test_matmul_b_transposed(arch: str, dtype: torch.dtype, num_warps: int) -> None:
    M, N, K = 70, 33, 40
    a, b = torch.randn(M, K).to(dtype), torch.randn(N, K).to(dtype)
    c = torch.zeros(M, N)
    run(matmul_bt_kernel, arch, (triton.cdiv(M, 64), triton.cdiv(N, 32)), dict(a_ptr=a, b_ptr=b, c_ptr=c, M=M, N=N,
                                                                               K=K), dict(BM=64, BN=32, BK=16),
        num_warps=num_warps)
    torch.testing.assert_close(c, a.float() @ b.float().t(), rtol=1e-4, atol=1e-4)


# ---------------------------------------------------------------------------------------------------------------
# Corpus tl.dot kernels (every dtype the frontend accepts, batched, transposed, K-looped matmul, causal attention)
# ---------------------------------------------------------------------------------------------------------------

_TORCH_OF = {"*fp32": torch.float32, "*fp16": torch.float16, "*bf16": torch.bfloat16, "*i8": torch.int8,
             "*i32": torch.int32, "*fp8e4nv": torch.float8_e4m3fn, "*fp8e5": torch.float8_e5m2}


def _random(shape: Tuple[int, ...], dtype: torch.dtype) -> torch.Tensor:
    if dtype == torch.int8:
        return torch.randint(-100, 100, shape, dtype=dtype)
    return (torch.randn(shape) * (0.5 if dtype.itemsize == 1 else 1.0)).to(dtype)


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("name", ["dot_fp32", "dot_fp32_tf32", "dot_fp16", "dot_bf16", "dot_int8", "dot_fp8e4nv",
                                  "dot_fp8e5", "dot_small_w1"])
def test_dot_corpus(arch: str, name: str) -> None:
    entry = BY_NAME[name]
    if arch not in entry.archs:
        pytest.skip(f"{name} is not a {arch} kernel (the frontend rejects it there)")
    M, N, K = (entry.constexprs[d] for d in "MNK")
    a, b = _random((M, K), _TORCH_OF[entry.signature["a_ptr"]]), _random((K, N), _TORCH_OF[entry.signature["b_ptr"]])
    c = torch.zeros(M, N, dtype=_TORCH_OF[entry.signature["c_ptr"]])
    _launch_corpus(name, arch, (1, 1, 1), a, b, c)
    if a.dtype == torch.int8:
        assert torch.equal(c, a.int() @ b.int())
    else:
        tol = dict(rtol=1e-2, atol=1e-2) if name == "dot_fp32_tf32" else dict(rtol=1e-4, atol=1e-4)
        torch.testing.assert_close(c, a.float() @ b.float(), **tol)


@pytest.mark.parametrize("arch", ARCHS)
def test_dot_acc_out_fp16_corpus(arch: str) -> None:
    M, N, K = 64, 64, 32
    a, b = _random((M, K), torch.float16), _random((K, N), torch.float16)
    c = _random((M, N), torch.float16)
    ref = (c.float() + a.float() @ b.float() + (a.float() @ b.float()).half().float()).half()
    _launch_corpus("dot_acc_out_fp16", arch, (1, 1, 1), a, b, c)
    torch.testing.assert_close(c, ref, rtol=1e-2, atol=2e-2)


@pytest.mark.parametrize("arch", ARCHS)
def test_dot_trans_batched_corpus(arch: str) -> None:
    h = torch.float16
    at, bt = _random((32, 64), h), _random((32, 32), h)  # a stored K x M, b stored N x K
    c = torch.zeros(64, 32)
    _launch_corpus("dot_trans", arch, (1, 1, 1), at, bt, c)
    torch.testing.assert_close(c, at.float().t() @ bt.float().t(), rtol=1e-4, atol=1e-4)
    a, b = _random((2, 32, 16), h), _random((2, 16, 32), h)
    c = torch.zeros(2, 32, 32)
    _launch_corpus("dot_batched", arch, (1, 1, 1), a, b, c)
    torch.testing.assert_close(c, a.float() @ b.float(), rtol=1e-4, atol=1e-4)
    a, bt = _random((4, 16, 32), h), _random((4, 32, 32), h)
    c = torch.zeros(4, 16, 32)
    _launch_corpus("dot_batched_trans", arch, (1, 1, 1), a, bt, c)
    torch.testing.assert_close(c, a.float() @ bt.float().transpose(1, 2), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("name", ["matmul", "matmul_bf16_w4"])
def test_matmul_corpus(arch: str, name: str) -> None:
    entry = BY_NAME[name]
    M, N, K = 150, 130, 70
    a, b = _random((M, K), _TORCH_OF[entry.signature["a_ptr"]]), _random((K, N), _TORCH_OF[entry.signature["b_ptr"]])
    bias = torch.randn(N)
    c = torch.zeros(M, N, dtype=_TORCH_OF[entry.signature["c_ptr"]])
    grid = (triton.cdiv(M, entry.constexprs["BLOCK_M"]) * triton.cdiv(N, entry.constexprs["BLOCK_N"]), 1, 1)
    _launch_corpus(name, arch, grid, a, b, c, bias, M, N, K, K, 1, N, 1, N, 1)
    ref = torch.relu(a.float() @ b.float() + bias).to(c.dtype)
    torch.testing.assert_close(c, ref, rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize("arch", ARCHS)
def test_attention_fwd_causal_corpus(arch: str) -> None:
    heads, seq, d = 2, 100, 64
    q, k, v = (_random((heads, seq, d), torch.float16) for _ in range(3))
    o = torch.zeros_like(q)
    scale = 1.0 / math.sqrt(d)
    _launch_corpus("attention_fwd", arch, (triton.cdiv(seq, 64), heads, 1), q, k, v, o, scale, seq, seq * d, d)
    s = (q.float() @ k.float().transpose(1, 2)) * scale
    s = s.masked_fill(torch.ones(seq, seq, dtype=torch.bool).triu(1), float("-inf"))
    torch.testing.assert_close(o.float(), torch.softmax(s, -1) @ v.float(), rtol=1e-2, atol=1e-2)


# ---------------------------------------------------------------------------------------------------------------
# Tensors smaller than the block (lanes holding copies), 16/64-bit shuffles, scalar atomics, 3-D reductions
# ---------------------------------------------------------------------------------------------------------------


@triton.jit
def small_block_kernel(x_ptr, idx_ptr, out_ptr, hist_ptr, sum_ptr, cnt_ptr, BLOCK: tl.constexpr, BINS: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    idx = tl.load(idx_ptr + offs)
    tl.atomic_add(out_ptr + idx, x)  # each element once, however many lanes hold a copy
    tl.atomic_add(hist_ptr + tl.arange(0, BINS), tl.histogram(idx, BINS))
    tl.store(sum_ptr + offs, tl.cumsum(x, 0))
    tl.atomic_add(cnt_ptr, 1)  # a scalar atomic: once per program
    tl.atomic_xchg(cnt_ptr + 1, tl.sum(x, 0))


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("block", [8, 64])
def test_small_block_copies_atomics_once(arch: str, block: int) -> None:
    bins = 4
    x = torch.randint(1, 9, (block, ), dtype=torch.int32)
    idx = torch.randint(0, bins, (block, ), dtype=torch.int32)
    out, hist = torch.zeros(bins, dtype=torch.int32), torch.zeros(bins, dtype=torch.int32)
    csum, cnt = torch.zeros(block, dtype=torch.int32), torch.zeros(2, dtype=torch.int32)
    run(small_block_kernel, arch, (3, ), dict(x_ptr=x, idx_ptr=idx, out_ptr=out, hist_ptr=hist, sum_ptr=csum,
                                              cnt_ptr=cnt), dict(BLOCK=block, BINS=bins), num_warps=4)
    assert out.tolist() == (3 * torch.zeros(bins, dtype=torch.int32).index_add_(0, idx.long(), x)).tolist()
    assert hist.tolist() == (3 * torch.bincount(idx.long(), minlength=bins)).int().tolist()
    assert csum.tolist() == x.cumsum(0).int().tolist()
    assert cnt.tolist() == [3, int(x.sum())]


@triton.jit
def reduce_dtypes_kernel(x_ptr, out_ptr, N, BLOCK: tl.constexpr, LOW: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < N, other=0)
    tl.store(out_ptr, tl.sum(x, 0))
    tl.store(out_ptr + 1, tl.max(tl.where(offs < N, x, LOW), 0))


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float64, torch.int64])
def test_reduce_16_and_64_bit(arch: str, dtype: torch.dtype) -> None:
    n = 200
    gen = torch.Generator().manual_seed(200)
    # Nonzero values whose every partial sum is exact in the dtype (fp16: eighths up to 2048 units,
    # bf16: +-1), so the sum must be exact in any order and dropping any one element is seen.
    sign = torch.randint(0, 2, (n, ), generator=gen) * 2 - 1
    x = {
        torch.int64: torch.randint(-2**40, 2**40, (n, ), generator=gen, dtype=torch.int64),
        torch.float16: (sign * torch.randint(1, 9, (n, ), generator=gen) / 8).to(torch.float16),
        torch.bfloat16: sign.to(torch.bfloat16),
        torch.float64: torch.randn(n, generator=gen, dtype=torch.float64) / 4,
    }[dtype]
    out = torch.zeros(2, dtype=dtype)
    run(reduce_dtypes_kernel, arch, (1, ), dict(x_ptr=x, out_ptr=out, N=n),
        dict(BLOCK=256, LOW=-2**62 if dtype == torch.int64 else -1e4))
    if dtype == torch.float64:  # only the summation order may differ
        torch.testing.assert_close(out[0], x.sum(), rtol=1e-12, atol=1e-12)
        assert out[1] == x.max()
    else:
        assert out.tolist() == [x.double().sum().item() if dtype.is_floating_point else int(x.sum()), x.max().item()]


@triton.jit
def reduce_3d_kernel(x_ptr, out_ptr, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr, AXIS: tl.constexpr):
    a = tl.arange(0, A)[:, None, None]
    b = tl.arange(0, B)[None, :, None]
    c = tl.arange(0, C)[None, None, :]
    x = tl.load(x_ptr + a * B * C + b * C + c)
    r = tl.sum(x, axis=AXIS)
    if AXIS == 0:
        tl.store(out_ptr + tl.arange(0, B)[:, None] * C + tl.arange(0, C)[None, :], r)
    elif AXIS == 1:
        tl.store(out_ptr + tl.arange(0, A)[:, None] * C + tl.arange(0, C)[None, :], r)
    else:
        tl.store(out_ptr + tl.arange(0, A)[:, None] * B + tl.arange(0, B)[None, :], r)


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("axis", [0, 1, 2])
def test_reduce_3d(arch: str, axis: int) -> None:
    A, B, C = 4, 8, 32
    x = torch.randn(A, B, C)
    ref = x.sum(axis)
    out = torch.zeros_like(ref)
    run(reduce_3d_kernel, arch, (1, ), dict(x_ptr=x, out_ptr=out), dict(A=A, B=B, C=C, AXIS=axis), num_warps=2)
    torch.testing.assert_close(out, ref, rtol=1e-5, atol=1e-5)


# ---------------------------------------------------------------------------------------------------------------
# Corpus memory kernels: every atomic RMW, a CAS spin lock across programs, block pointers, device descriptors
# ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("arch", ARCHS)
def test_atomic_rmw_corpus(arch: str) -> None:
    n, block = 1000, 256
    programs = triton.cdiv(n, block)
    x = torch.randint(-1000, 1000, (n, ), dtype=torch.int32)
    x0 = x.clone()
    f = torch.zeros(21)
    f[17:] = -1e9
    i = torch.zeros(16 + n, dtype=torch.int32)
    i[:8], i[8:16] = -2**31, 2**31 - 1
    i[16:] = torch.randint(-50, 50, (n, ), dtype=torch.int32)
    i_old = i[16:].clone()
    u = torch.zeros(12, dtype=torch.int32)  # the kernel sees uint32; compared bit for bit
    u[:4] = -1
    _launch_corpus("atomic_rmw", arch, (programs, 1, 1), f, i, u, x, n)
    xf, g16, g8, g4 = x0.float(), torch.arange(n) % 16, torch.arange(n) % 8, torch.arange(n) % 4
    torch.testing.assert_close(f[:16], torch.zeros(16).index_add_(0, g16, xf))
    assert f[16] == programs
    assert f[17:].tolist() == [xf[g4 == k].max().item() for k in range(4)]
    assert i[:8].tolist() == [int(x0[g8 == k].max()) for k in range(8)]
    assert i[8:16].tolist() == [int(x0[g8 == k].min()) for k in range(8)]
    for k in range(4):
        bits = x0[g4 == k].tolist()
        a, o, e = -1, 0, 0
        for b in bits:
            a, o, e = a & b, o | b, e ^ b
        assert u[k].item() == a and u[4 + k].item() == o and u[8 + k].item() == e
    assert torch.equal(i[16:], x0) and torch.equal(x, i_old)


@pytest.mark.parametrize("arch", ARCHS)
def test_atomic_cas_spin_lock_corpus(arch: str) -> None:
    programs = 6
    lock, counter = torch.zeros(1, dtype=torch.int32), torch.zeros(1, dtype=torch.int32)
    out = torch.zeros(128, dtype=torch.int32)
    _launch_corpus("atomic_cas", arch, (programs, 1, 1), lock, counter, out)
    assert lock.item() == 0 and counter.item() == programs
    # The first program's CAS swaps 0 -> offs and sees 0; the others see offs (0 only at offs 0).
    assert out[:64].tolist() == list(range(64))
    assert out[64:].tolist() == [(programs - 1) * k for k in range(64)]


@pytest.mark.parametrize("arch", ARCHS)
def test_block_ptr_corpus(arch: str) -> None:
    M, N = 100, 150
    a = torch.randn(M, N).half()
    out = torch.zeros(M, 64)
    _launch_corpus("block_ptr", arch, (triton.cdiv(M, 64), 1, 1), a, out, M, N, N, 1)
    padded = torch.zeros(M, 192)
    padded[:, :N] = a.float()
    torch.testing.assert_close(out, padded.view(M, 3, 64).sum(1), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("arch", ARCHS)
def test_tensor_desc_device_corpus(arch: str) -> None:
    M, N = 128, 192
    a = torch.randn(M, N).half()
    out = torch.zeros_like(a)
    _launch_corpus("tensor_desc_device", arch, (M // 64, N // 64, 1), a, out, M, N)
    assert torch.equal(out, a * 2)


# ---------------------------------------------------------------------------------------------------------------
# 8 warps: argmax along axis 0, axis-0 int64 scans, wide sorts, a dot whose warps all sit along N
# ---------------------------------------------------------------------------------------------------------------


@triton.jit
def wide_kernel(x_ptr, i_ptr, amax_ptr, scan_ptr, sort_ptr, M: tl.constexpr, N: tl.constexpr):
    rm = tl.arange(0, M)[:, None]
    rn = tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + rm * N + rn)
    tl.store(amax_ptr + tl.arange(0, N), tl.argmax(x, axis=0))
    i = tl.load(i_ptr + rm * N + rn)
    tl.store(scan_ptr + rm * N + rn, tl.cumsum(i, axis=0))
    tl.store(sort_ptr + rm * N + rn, tl.sort(x, dim=1))


@pytest.mark.parametrize("arch", ARCHS)
def test_wide_8_warps(arch: str) -> None:
    M, N = 32, 128
    x = torch.randn(M, N)
    i = torch.randint(-2**40, 2**40, (M, N), dtype=torch.int64)
    amax = torch.zeros(N, dtype=torch.int32)
    scan, srt = torch.zeros_like(i), torch.zeros_like(x)
    run(wide_kernel, arch, (1, ), dict(x_ptr=x, i_ptr=i, amax_ptr=amax, scan_ptr=scan, sort_ptr=srt), dict(M=M, N=N),
        num_warps=8)
    assert amax.tolist() == x.argmax(0).tolist()
    assert torch.equal(scan, i.cumsum(0))
    assert torch.equal(srt, x.sort(1).values)


@pytest.mark.parametrize("arch", ARCHS)
def test_dot_warps_along_n(arch: str) -> None:
    M, N, K = 16, 100, 48
    a, b = torch.randn(M, K), torch.randn(K, N)
    c = torch.zeros(M, N)
    run(matmul_kernel, arch, (1, triton.cdiv(N, 128)), dict(a_ptr=a, b_ptr=b, c_ptr=c, M=M, N=N, K=K),
        dict(BM=16, BN=128, BK=16), num_warps=8)
    torch.testing.assert_close(c, a @ b, rtol=1e-4, atol=1e-4)


# ---------------------------------------------------------------------------------------------------------------
# Corpus elementwise kernels: Triton's math builtins and integer operations
# ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("arch", ARCHS)
def test_math_builtins_corpus(arch: str) -> None:
    n = 512  # whole blocks: tl.softmax(x, dim=0) runs over each block of 256
    x, y = torch.randn(n), torch.randn(n)
    out = torch.zeros(n)
    _launch_corpus("math_builtins", arch, (n // 256, 1, 1), x, y, out, n)
    xd, yd = x.double(), y.double()
    a = torch.exp(xd) + torch.log(yd.abs() + 1) + torch.sqrt(xd.abs()) + torch.rsqrt(yd.abs() + 1)
    b = torch.sin(xd) * torch.cos(yd) + torch.exp2(xd) - torch.log2(xd.abs() + 2) + torch.erf(yd)
    c = torch.floor(xd) + torch.ceil(yd) + (xd * yd + a) + torch.sigmoid(xd) + xd / (yd + 3)
    d = torch.maximum(a, b) - torch.minimum(b, c) + c.clamp(-1, 1) + torch.sqrt(a.abs())
    sm = torch.softmax(xd.view(-1, 256), 1).view(-1)
    e = d / (yd + 4) + xd / (yd + 5) + sm + torch.exp(x).half().double()
    torch.testing.assert_close(out, e.float(), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("arch", ARCHS)
def test_int_ops_corpus(arch: str) -> None:
    n = 700
    a = torch.randint(-2**31, 2**31 - 1, (n, ), dtype=torch.int64)
    b = torch.randint(-2**31, 2**31 - 1, (n, ), dtype=torch.int64)
    out, uout = torch.zeros(n, dtype=torch.int32), torch.zeros(n, dtype=torch.int32)
    _launch_corpus("int_ops", arch, (triton.cdiv(n, 512), 1, 1), a.int(), b.int(), out, uout, n)

    def wrap(v: torch.Tensor) -> torch.Tensor:  # to int32, two's complement
        return ((v + 2**31) % 2**32 - 2**31).to(torch.int32)

    def trunc_div(p: torch.Tensor, q: torch.Tensor) -> torch.Tensor:
        return torch.div(p, q, rounding_mode="trunc")

    bo = b | 1
    r = wrap(wrap(a << 3).long() ^ (b >> 1) | (a & 0xFF)).long()
    r = r + trunc_div(a, bo) + torch.fmod(a, bo) + trunc_div(a + 6, torch.full_like(a, 7)) + (~b)
    ua, ub = a % 2**32, b % 2**32
    r = r + ((a * b) >> 32) + wrap((ua * ub) >> 32).long()
    assert out.tolist() == wrap(r).tolist()
    u = (ua >> 2) + ((a * b) >> 32) % 2**32
    assert uout.tolist() == wrap(u).tolist()


# ---------------------------------------------------------------------------------------------------------------
# Corpus reductions: or/xor reductions, ties broken right, keep_dims and whole-tensor sums, tuple reductions
# ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("arch", ARCHS)
def test_max_min_or_xor_corpus(arch: str) -> None:
    n = 1000
    x = torch.randint(-2**31, 2**31 - 1, (n, ), dtype=torch.int32)
    mx, mn = torch.zeros(2, dtype=torch.int32), torch.zeros(1, dtype=torch.int32)
    _launch_corpus("max_min_i32", arch, (1, 1, 1), x, mx, mn, n)
    o, e = 0, 0
    for v in x.tolist():
        o, e = o | v, e ^ v
    assert mx.tolist() == [int(x.max()), o ^ e] and mn.item() == int(x.min())


@pytest.mark.parametrize("arch", ARCHS)
def test_argmax_argmin_ties_corpus(arch: str) -> None:
    R, C = 32, 64
    x = torch.randint(0, 5, (R, C)).float()  # many ties
    imax, imin, vmax = torch.zeros(R, dtype=torch.int32), torch.zeros(C, dtype=torch.int32), torch.zeros(R)
    _launch_corpus("argmax_argmin", arch, (1, 1, 1), x, imax, imin, vmax)
    first_max = x.argmax(1)  # torch: the first of equal maxima
    assert imax.tolist() == first_max.tolist()
    # tie_break_left=False leaves the choice among equal minima to the reduction order: any minimum.
    assert torch.equal(x[imin.long(), torch.arange(C)], x.min(0).values)
    torch.testing.assert_close(vmax, x.max(1).values + first_max.float())


@pytest.mark.parametrize("arch", ARCHS)
def test_multi_axis_and_tuple_reduce_corpus(arch: str) -> None:
    A, B, C = 4, 8, 32
    x = torch.randn(A, B, C)
    out = torch.zeros(A + B * C)
    _launch_corpus("multi_axis_reduce", arch, (1, 1, 1), x, out)
    torch.testing.assert_close(out[:A], x.sum(2).max(1).values + x.sum(), rtol=1e-5, atol=1e-4)
    torch.testing.assert_close(out[A:], x.sum(0).reshape(-1), rtol=1e-5, atol=1e-5)
    y = torch.randn(512)
    out = torch.zeros(2)
    _launch_corpus("custom_reduce", arch, (1, 1, 1), y, out)
    torch.testing.assert_close(out, torch.stack([y.sum(), y.max()]), rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("arch", ARCHS)
def test_cumsum_cumprod_corpus(arch: str) -> None:
    R, C = 16, 64
    x = torch.randint(-100, 100, (R, C), dtype=torch.int32)
    x[x == 0] = 1
    out, prod = torch.zeros_like(x), torch.zeros(R, C)
    _launch_corpus("cumsum", arch, (1, 1, 1), x, out, prod)
    assert torch.equal(out, (x.cumsum(1) + x.flip(0).cumsum(0).flip(0)).int())
    torch.testing.assert_close(prod, x.float().cumprod(1), rtol=1e-4, atol=0)
