"""The GPU proxy's kernel set: benchmark kernels and a correctness set.

Plain Python (triton, torch): imported here to compile the bundle for the proxy
and on the GPU machine to compile the same kernels with Triton's NVIDIA backend,
make the inputs and check the results against PyTorch. Every case fixes its
sizes, so both compiles see the same specialization (``source``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Tuple

import triton
import triton.language as tl
from triton.compiler import ASTSource
from triton.language.extra import libdevice


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


@triton.jit
def gelu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    tl.store(out_ptr + offs, 0.5 * x * (1.0 + libdevice.tanh(inner)), mask=mask)


@triton.jit
def softmax_kernel(out_ptr, in_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(in_ptr + row * stride + cols, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    tl.store(out_ptr + row * stride + cols, e / tl.sum(e, axis=0), mask=mask)


@triton.jit
def layernorm_kernel(x_ptr, w_ptr, b_ptr, y_ptr, stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0)
    mean = tl.sum(x, axis=0) / n_cols
    d = tl.where(mask, x - mean, 0.0)
    rstd = 1.0 / tl.sqrt(tl.sum(d * d, axis=0) / n_cols + eps)
    w = tl.load(w_ptr + cols, mask=mask)
    b = tl.load(b_ptr + cols, mask=mask)
    tl.store(y_ptr + row * stride + cols, d * rstd * w + b, mask=mask)


@triton.jit
def copy2d_kernel(x_ptr, y_ptr, M, N, stride_x, stride_y, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)[:, None]
    rn = tl.program_id(1) * BN + tl.arange(0, BN)[None, :]
    mask = (rm < M) & (rn < N)
    tl.store(y_ptr + rm * stride_y + rn, tl.load(x_ptr + rm * stride_x + rn, mask=mask), mask=mask)


@triton.jit
def transpose_kernel(x_ptr, y_ptr, M, N, stride_x, stride_y, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    tile = tl.load(x_ptr + rm[:, None] * stride_x + rn[None, :], mask=(rm[:, None] < M) & (rn[None, :] < N))
    tl.store(y_ptr + rn[:, None] * stride_y + rm[None, :], tl.trans(tile), mask=(rn[:, None] < N) & (rm[None, :] < M))


@triton.jit
def row_sum_kernel(x_ptr, out_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=0.0)
    tl.store(out_ptr + row, tl.sum(x, axis=0))


@triton.jit
def reduce_stress_kernel(x_ptr, out_ptr, stride, n_cols, BLOCK: tl.constexpr):
    # Two cross-warp reductions per iteration reuse one scratch buffer: a
    # missing barrier between an iteration's reads and the next writes shows.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    acc = 0
    for start in range(0, n_cols, BLOCK):
        x = tl.load(x_ptr + row * stride + start + cols)
        m = tl.max(x, axis=0)
        acc += tl.sum(x - m, axis=0) * 3 + m
    tl.store(out_ptr + row, acc)


@triton.jit
def atomic_sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0)
    tl.atomic_add(out_ptr, tl.sum(x, axis=0))


@triton.jit
def cumsum_kernel(x_ptr, out_ptr, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride + cols)
    tl.store(out_ptr + row * stride + cols, tl.cumsum(x, axis=0))


@triton.jit
def histogram_kernel(x_ptr, bins_ptr, n, BLOCK: tl.constexpr, NUM_BINS: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0)
    h = tl.histogram(x, NUM_BINS)
    tl.atomic_add(bins_ptr + tl.arange(0, NUM_BINS), h)


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                  PRECISION: tl.constexpr):
    """C = A @ B with pointer loads (row-major A [M, K], B [K, N]), f32 accumulation, C in its own type."""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(a, b, input_precision=PRECISION)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(c_ptr.dtype.element_ty))


@triton.jit
def matmul_desc_kernel(a_desc, b_desc, c_desc, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """C = A @ B through host tensor descriptors (fp16, f32 accumulation)."""
    pm = tl.program_id(0) * BM
    pn = tl.program_id(1) * BN
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        acc = tl.dot(a_desc.load([pm, k]), b_desc.load([k, pn]), acc)
    c_desc.store([pm, pn], acc.to(tl.float16))


@triton.jit
def attention_kernel(q_ptr, k_ptr, v_ptr, o_ptr, seq, scale, D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
                     PRECISION: tl.constexpr):
    bh = tl.program_id(1)
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rd = tl.arange(0, D)
    base = bh * seq * D
    q = tl.load(q_ptr + base + rm[:, None] * D + rd[None, :])
    m_i = tl.full((BM, ), -float("inf"), tl.float32)
    l_i = tl.zeros((BM, ), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    for start in range(0, seq, BN):
        rn = start + tl.arange(0, BN)
        kt = tl.load(k_ptr + base + rn[None, :] * D + rd[:, None])
        s = tl.dot(q, kt, input_precision=PRECISION) * scale
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        p = tl.exp(s - m_new[:, None])
        alpha = tl.exp(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v = tl.load(v_ptr + base + rn[:, None] * D + rd[None, :])
        # 16-bit operands: P goes to the second dot in V's type, as in Triton's tutorial.
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v, input_precision=PRECISION)
        m_i = m_new
    tl.store(o_ptr + base + rm[:, None] * D + rd[None, :], (acc / l_i[:, None]).to(o_ptr.dtype.element_ty))


@triton.jit
def matmul_batched_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """C[z] = A[z] @ B[z] for contiguous [Z, M, K] and [Z, K, N] batches, the batch on grid axis 2."""
    z = tl.program_id(2)
    a_ptr += z * M * K
    b_ptr += z * K * N
    c_ptr += z * M * N
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(c_ptr.dtype.element_ty))


@triton.jit
def matmul_fp8_kernel(a_ptr, bt_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """C = A @ B in f16 from fp8 e4m3 A [M, K] and B given transposed, Bt [N, K] (K-major, as fp8 matrix
    units read it), f32 accumulation."""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(bt_ptr + rn[None, :] * K + (k + rk)[:, None])
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16))


@triton.jit
def addmm_kernel(x_ptr, a_ptr, b_ptr, bias_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                 BK: tl.constexpr):
    """C = gelu(X + A @ B + bias) (tanh form): an addmm with the epilogue fused, f32 accumulation."""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(a, b)
    acc += tl.load(x_ptr + rm[:, None] * N + rn[None, :]).to(tl.float32)
    acc += tl.load(bias_ptr + rn).to(tl.float32)[None, :]
    inner = 0.7978845608028654 * (acc + 0.044715 * acc * acc * acc)
    t = 2.0 / (1.0 + tl.exp(-2.0 * inner)) - 1.0
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], (0.5 * acc * (1.0 + t)).to(c_ptr.dtype.element_ty))


@triton.jit
def attention_causal_kernel(q_ptr, k_ptr, v_ptr, o_ptr, seq, scale, D: tl.constexpr, BM: tl.constexpr,
                            BN: tl.constexpr):
    """Causal flash-attention forward: key blocks up to the query block's diagonal, the diagonal masked."""
    bh = tl.program_id(1)
    start_m = tl.program_id(0) * BM
    rm = start_m + tl.arange(0, BM)
    rd = tl.arange(0, D)
    base = bh * seq * D
    q = tl.load(q_ptr + base + rm[:, None] * D + rd[None, :])
    m_i = tl.full((BM, ), -float("inf"), tl.float32)
    l_i = tl.zeros((BM, ), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    for start in range(0, start_m + BM, BN):
        rn = start + tl.arange(0, BN)
        kt = tl.load(k_ptr + base + rn[None, :] * D + rd[:, None])
        s = tl.dot(q, kt) * scale
        s = tl.where(rm[:, None] >= rn[None, :], s, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        p = tl.exp(s - m_new[:, None])
        alpha = tl.exp(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v = tl.load(v_ptr + base + rn[:, None] * D + rd[None, :])
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    tl.store(o_ptr + base + rm[:, None] * D + rd[None, :], (acc / l_i[:, None]).to(o_ptr.dtype.element_ty))


@dataclass
class Setup:
    """A case's tensors on a device, ready to launch and check."""

    args: List[Any]  # every kernel argument, constexpr values included
    grid: Tuple[int, ...]
    check: Callable[[], Optional[str]]  # None when the output matches PyTorch, else why not
    reset: Callable[[], None]  # clears what the kernel accumulates into (atomics)
    torch_fn: Callable[[], Any]  # the same work in PyTorch, for timing


@dataclass
class Case:
    name: str
    kernel: Any
    signature: Dict[str, str]  # parameter -> Triton type ("*fp32", "i32", "fp32", "constexpr")
    values: Dict[str, Any]  # every non-pointer parameter's value (constexprs included)
    num_warps: int
    unit: str  # "GB/s" or "TFLOP/s"
    amount: float  # bytes moved or flops done per launch
    setup: Callable[[Any, "Case"], Setup]
    memory_bound: bool = False
    # Parameters whose pointer may be taken as 16-byte aligned (all pointers unless listed otherwise).
    unaligned: Tuple[str, ...] = field(default_factory=tuple)
    # Software-pipelining depth (Triton's num_stages); None: the backend's default.
    num_stages: Optional[int] = None

    def options(self) -> Dict[str, int]:
        """The compile options of every compile of the case (ours and Triton NVIDIA's)."""
        opts = {"num_warps": self.num_warps}
        if self.num_stages is not None:
            opts["num_stages"] = self.num_stages
        return opts

    def source(self) -> ASTSource:
        """The same specialization for every compile: pointers and multiples of 16 are divisible by 16."""
        names = self.kernel.arg_names
        constexprs = {k: self.values[k] for k in names if self.signature[k] == "constexpr"}
        attrs = {}
        for i, name in enumerate(names):
            ty = self.signature[name]
            divisible = (ty.startswith("*") and name not in self.unaligned) or \
                (ty in ("i32", "i64") and self.values[name] % 16 == 0)
            if divisible:
                attrs[(i, )] = [["tt.divisibility", 16]]
        return ASTSource(self.kernel, self.signature, constexprs, attrs)

    def value_args(self, pointers: Dict[str, Any]) -> List[Any]:
        return [pointers[n] if n in pointers else self.values[n] for n in self.kernel.arg_names]


def _close(out: Any, ref: Any, rtol: float, atol: float) -> Optional[str]:
    import torch
    if torch.allclose(out, ref, rtol=rtol, atol=atol):
        return None
    err = (out.double() - ref.double()).abs().max().item()
    return f"max abs error {err:.3g} (rtol {rtol}, atol {atol})"


def _exact(out: Any, ref: Any) -> Optional[str]:
    import torch
    if torch.equal(out, ref):
        return None
    return f"{int((out != ref).sum().item())} of {out.numel()} elements differ"


def _gen(device: Any) -> Any:
    import torch
    g = torch.Generator(device=device)
    g.manual_seed(0)
    return g


def _setup_add(dev: Any, c: Case) -> Setup:
    import torch
    n = c.values["n"]
    x, y = (torch.randn(n, device=dev, generator=_gen(dev)) for _ in range(2))
    out = torch.empty_like(x)
    return Setup(c.value_args({"x_ptr": x, "y_ptr": y, "out_ptr": out}), (triton.cdiv(n, c.values["BLOCK"]), ),
                 lambda: _exact(out, x + y), lambda: None, lambda: torch.add(x, y, out=out))


def _setup_add16(dev: Any, c: Case) -> Setup:
    import torch
    n = c.values["n"]
    x, y = (torch.randn(n, device=dev, generator=_gen(dev)).half() for _ in range(2))
    out = torch.empty_like(x)
    return Setup(c.value_args({"x_ptr": x, "y_ptr": y, "out_ptr": out}), (triton.cdiv(n, c.values["BLOCK"]), ),
                 lambda: _exact(out, x + y), lambda: None, lambda: torch.add(x, y, out=out))


def _setup_gelu(dev: Any, c: Case) -> Setup:
    import torch
    n = c.values["n"]
    x = torch.randn(n, device=dev, generator=_gen(dev))
    out = torch.empty_like(x)
    gelu = torch.nn.functional.gelu
    return Setup(c.value_args({"x_ptr": x, "out_ptr": out}), (triton.cdiv(n, c.values["BLOCK"]), ),
                 lambda: _close(out, gelu(x, approximate="tanh"), 1e-5, 1e-6), lambda: None,
                 lambda: gelu(x, approximate="tanh"))


def _setup_softmax(dev: Any, c: Case) -> Setup:
    import torch
    m, n = c.values["M"], c.values["n_cols"]
    x = torch.randn(m, n, device=dev, generator=_gen(dev))
    out = torch.empty_like(x)
    return Setup(c.value_args({"out_ptr": out, "in_ptr": x}), (m, ),
                 lambda: _close(out, torch.softmax(x, dim=1), 1e-5, 1e-7), lambda: None,
                 lambda: torch.softmax(x, dim=1))


def _setup_layernorm(dev: Any, c: Case) -> Setup:
    import torch
    m, n = c.values["M"], c.values["n_cols"]
    g = _gen(dev)
    x = torch.randn(m, n, device=dev, generator=g)
    w, b = torch.randn(n, device=dev, generator=g), torch.randn(n, device=dev, generator=g)
    y = torch.empty_like(x)
    ln = torch.nn.functional.layer_norm
    return Setup(c.value_args({"x_ptr": x, "w_ptr": w, "b_ptr": b, "y_ptr": y}), (m, ),
                 lambda: _close(y, ln(x, (n, ), w, b, c.values["eps"]), 1e-4, 1e-4), lambda: None,
                 lambda: ln(x, (n, ), w, b, c.values["eps"]))


def _setup_copy2d(dev: Any, c: Case) -> Setup:
    import torch
    m, n = c.values["M"], c.values["N"]
    x = torch.randn(m, n, device=dev, generator=_gen(dev))
    y = torch.empty_like(x)
    grid = (triton.cdiv(m, c.values["BM"]), triton.cdiv(n, c.values["BN"]))
    return Setup(c.value_args({"x_ptr": x, "y_ptr": y}), grid, lambda: _exact(y, x), lambda: None,
                 lambda: y.copy_(x))


def _setup_transpose(dev: Any, c: Case) -> Setup:
    import torch
    m, n = c.values["M"], c.values["N"]
    x = torch.randn(m, n, device=dev, generator=_gen(dev))
    y = torch.empty(n, m, device=dev)
    grid = (triton.cdiv(m, c.values["BM"]), triton.cdiv(n, c.values["BN"]))
    return Setup(c.value_args({"x_ptr": x, "y_ptr": y}), grid, lambda: _exact(y, x.t()), lambda: None,
                 lambda: y.copy_(x.t()))


def _setup_row_sum(dev: Any, c: Case) -> Setup:
    import torch
    m, n = c.values["M"], c.values["n_cols"]
    x = torch.randn(m, n, device=dev, generator=_gen(dev))
    out = torch.empty(m, device=dev)
    return Setup(c.value_args({"x_ptr": x, "out_ptr": out}), (m, ),
                 lambda: _close(out, x.sum(dim=1), 1e-4, 1e-4), lambda: None, lambda: x.sum(dim=1))


def _setup_transpose16(dev: Any, c: Case) -> Setup:
    import torch
    m, n = c.values["M"], c.values["N"]
    x = torch.randn(m, n, device=dev, generator=_gen(dev)).half()
    y = torch.empty(n, m, device=dev, dtype=torch.float16)
    grid = (triton.cdiv(m, c.values["BM"]), triton.cdiv(n, c.values["BN"]))
    return Setup(c.value_args({"x_ptr": x, "y_ptr": y}), grid, lambda: _exact(y, x.t()), lambda: None,
                 lambda: y.copy_(x.t()))


def _setup_reduce_stress(dev: Any, c: Case) -> Setup:
    import torch
    m, n, block = c.values["M"], c.values["n_cols"], c.values["BLOCK"]
    x = torch.randint(-1000, 1000, (m, n), device=dev, generator=_gen(dev), dtype=torch.int32)
    out = torch.empty(m, device=dev, dtype=torch.int32)

    def reference() -> Any:
        chunks = x.view(m, n // block, block)
        top = chunks.max(dim=2).values
        return ((chunks - top[:, :, None]).sum(dim=2) * 3 + top).sum(dim=1, dtype=torch.int32)

    return Setup(c.value_args({"x_ptr": x, "out_ptr": out}), (m, ), lambda: _exact(out, reference()), lambda: None,
                 reference)


def _setup_atomic_sum(dev: Any, c: Case) -> Setup:
    import torch
    n = c.values["n"]
    x = torch.randint(-1000, 1000, (n, ), device=dev, generator=_gen(dev), dtype=torch.int32)
    out = torch.zeros(1, device=dev, dtype=torch.int32)
    return Setup(c.value_args({"x_ptr": x, "out_ptr": out}), (triton.cdiv(n, c.values["BLOCK"]), ),
                 lambda: _exact(out, x.sum(dtype=torch.int32).reshape(1)), out.zero_, lambda: x.sum())


def _setup_cumsum(dev: Any, c: Case) -> Setup:
    import torch
    m, n = c.values["M"], c.values["BLOCK"]
    x = torch.randint(-1000, 1000, (m, n), device=dev, generator=_gen(dev), dtype=torch.int32)
    out = torch.empty_like(x)
    return Setup(c.value_args({"x_ptr": x, "out_ptr": out}), (m, ),
                 lambda: _exact(out, torch.cumsum(x, dim=1, dtype=torch.int32)), lambda: None,
                 lambda: torch.cumsum(x, dim=1))


def _setup_histogram(dev: Any, c: Case) -> Setup:
    import torch
    n, bins = c.values["n"], c.values["NUM_BINS"]
    x = torch.randint(0, bins, (n, ), device=dev, generator=_gen(dev), dtype=torch.int32)
    out = torch.zeros(bins, device=dev, dtype=torch.int32)
    # Masked-off lanes of the last block count as bin 0, as in the kernel's `other=0`.
    pad = triton.cdiv(n, c.values["BLOCK"]) * c.values["BLOCK"] - n
    ref = torch.bincount(x.long(), minlength=bins).int()
    ref[0] += pad
    return Setup(c.value_args({"x_ptr": x, "bins_ptr": out}), (triton.cdiv(n, c.values["BLOCK"]), ),
                 lambda: _exact(out, ref), out.zero_, lambda: torch.bincount(x, minlength=bins))


def _setup_matmul(dev: Any, c: Case) -> Setup:
    import torch
    m, n, k = c.values["M"], c.values["N"], c.values["K"]
    g = _gen(dev)
    a, b = torch.randn(m, k, device=dev, generator=g), torch.randn(k, n, device=dev, generator=g)
    out = torch.empty(m, n, device=dev)
    torch.backends.cuda.matmul.allow_tf32 = False
    grid = (m // c.values["BM"], n // c.values["BN"])
    return Setup(c.value_args({"a_ptr": a, "b_ptr": b, "c_ptr": out}), grid,
                 lambda: _close(out, (a.double() @ b.double()).float(), 1e-4, 1e-3), lambda: None,
                 lambda: torch.matmul(a, b))


def _setup_matmul_tc(dev: Any, c: Case) -> Setup:
    import torch
    m, n, k = c.values["M"], c.values["N"], c.values["K"]
    dtype = {"*fp16": torch.float16, "*bf16": torch.bfloat16}[c.signature["a_ptr"]]
    g = _gen(dev)
    a = torch.randn(m, k, device=dev, generator=g).to(dtype)
    b = torch.randn(k, n, device=dev, generator=g).to(dtype)
    out = torch.empty(m, n, device=dev, dtype=dtype)
    grid = (m // c.values["BM"], n // c.values["BN"])

    def check() -> Optional[str]:
        # f32 accumulation of K products of size ~1, rounded once to the output type.
        ref = a.float() @ b.float()
        return _close(out.float(), ref.to(dtype).float(), 2e-2, 0.25)

    return Setup(c.value_args({"a_ptr": a, "b_ptr": b, "c_ptr": out}), grid, check, lambda: None,
                 lambda: torch.matmul(a, b))


def _setup_matmul_desc(dev: Any, c: Case) -> Setup:
    import torch
    from triton.tools.tensor_descriptor import TensorDescriptor
    m, n, k = c.values["M"], c.values["N"], c.values["K"]
    bm, bn, bk = c.values["BM"], c.values["BN"], c.values["BK"]
    dtype = {"fp16": torch.float16, "bf16": torch.bfloat16}[c.signature["a_desc"].split("<")[1].split("[")[0]]
    g = _gen(dev)
    a = torch.randn(m, k, device=dev, generator=g).to(dtype)
    b = torch.randn(k, n, device=dev, generator=g).to(dtype)
    out = torch.empty(m, n, device=dev, dtype=dtype)

    def check() -> Optional[str]:
        return _close(out.float(), (a.float() @ b.float()).to(dtype).float(), 2e-2, 0.25)

    descriptors = {"a_desc": TensorDescriptor.from_tensor(a, [bm, bk]),
                   "b_desc": TensorDescriptor.from_tensor(b, [bk, bn]),
                   "c_desc": TensorDescriptor.from_tensor(out, [bm, bn])}
    return Setup(c.value_args(descriptors), (m // bm, n // bn), check, lambda: None, lambda: torch.matmul(a, b))


def _setup_attention(dev: Any, c: Case) -> Setup:
    import torch
    bh, seq, d = c.values["BH"], c.values["seq"], c.values["D"]
    dtype = {"*fp32": torch.float32, "*fp16": torch.float16, "*bf16": torch.bfloat16}[c.signature["q_ptr"]]
    g = _gen(dev)
    q, k, v = (torch.randn(bh, seq, d, device=dev, generator=g).to(dtype) for _ in range(3))
    out = torch.empty_like(q)

    def reference() -> Any:
        s = (q.double() @ k.double().transpose(1, 2)) * c.values["scale"]
        return (torch.softmax(s, dim=-1) @ v.double()).to(dtype)

    # fp32 ieee: exact products; 16-bit: P rounded to the operand type before the second dot.
    tol = 1e-4 if dtype == torch.float32 else 2e-2
    sdpa = torch.nn.functional.scaled_dot_product_attention
    return Setup(c.value_args({"q_ptr": q, "k_ptr": k, "v_ptr": v, "o_ptr": out}), (seq // c.values["BM"], bh),
                 lambda: _close(out.float(), reference().float(), tol, tol), lambda: None,
                 lambda: sdpa(q[None], k[None], v[None]))


def _setup_matmul_batched(dev: Any, c: Case) -> Setup:
    import torch
    z, m, n, k = c.values["Z"], c.values["M"], c.values["N"], c.values["K"]
    g = _gen(dev)
    a = torch.randn(z, m, k, device=dev, generator=g).half()
    b = torch.randn(z, k, n, device=dev, generator=g).half()
    out = torch.empty(z, m, n, device=dev, dtype=torch.float16)
    return Setup(c.value_args({"a_ptr": a, "b_ptr": b, "c_ptr": out}),
                 (m // c.values["BM"], n // c.values["BN"], z),
                 lambda: _close(out.float(), torch.bmm(a.float(), b.float()).half().float(), 2e-2, 0.25),
                 lambda: None, lambda: torch.bmm(a, b))


def _setup_matmul_fp8(dev: Any, c: Case) -> Setup:
    import torch
    m, n, k = c.values["M"], c.values["N"], c.values["K"]
    g = _gen(dev)
    # Values of e4m3 exactly: products and f32 sums of K of them round once, to f16.
    a = torch.randn(m, k, device=dev, generator=g).to(torch.float8_e4m3fn)
    bt = torch.randn(n, k, device=dev, generator=g).to(torch.float8_e4m3fn)
    out = torch.empty(m, n, device=dev, dtype=torch.float16)
    ones = torch.ones((), device=dev)

    def scaled_mm() -> Any:
        return torch._scaled_mm(a, bt.t(), scale_a=ones, scale_b=ones, out_dtype=torch.float16)

    return Setup(c.value_args({"a_ptr": a, "bt_ptr": bt, "c_ptr": out}), (m // c.values["BM"], n // c.values["BN"]),
                 # Hopper's fp8 wgmma accumulates below f32 precision (Triton NVIDIA's compile of this
                 # kernel misses the exact sums by up to 1.4 at K = 4096 as ours does), hence atol 2.
                 lambda: _close(out.float(), (a.float() @ bt.float().t()).half().float(), 2e-2, 2.0),
                 lambda: None, scaled_mm)


def _setup_addmm(dev: Any, c: Case) -> Setup:
    import torch
    m, n, k = c.values["M"], c.values["N"], c.values["K"]
    g = _gen(dev)
    x = torch.randn(m, n, device=dev, generator=g).half()
    a = torch.randn(m, k, device=dev, generator=g).half()
    b = torch.randn(k, n, device=dev, generator=g).half()
    bias = torch.randn(n, device=dev, generator=g).half()
    out = torch.empty(m, n, device=dev, dtype=torch.float16)
    gelu = torch.nn.functional.gelu

    def check() -> Optional[str]:
        ref = gelu(x.float() + a.float() @ b.float() + bias.float(), approximate="tanh")
        return _close(out.float(), ref.half().float(), 2e-2, 0.25)

    return Setup(c.value_args({"x_ptr": x, "a_ptr": a, "b_ptr": b, "bias_ptr": bias, "c_ptr": out}),
                 (m // c.values["BM"], n // c.values["BN"]), check, lambda: None,
                 lambda: gelu(torch.addmm(x, a, b) + bias, approximate="tanh"))


def _setup_attention_causal(dev: Any, c: Case) -> Setup:
    import torch
    bh, seq, d = c.values["BH"], c.values["seq"], c.values["D"]
    g = _gen(dev)
    q, k, v = (torch.randn(bh, seq, d, device=dev, generator=g).half() for _ in range(3))
    out = torch.empty_like(q)
    sdpa = torch.nn.functional.scaled_dot_product_attention

    def reference() -> Any:
        s = (q.double() @ k.double().transpose(1, 2)) * c.values["scale"]
        causal = torch.ones(seq, seq, device=dev, dtype=torch.bool).tril()
        return (torch.softmax(s.masked_fill(~causal, float("-inf")), dim=-1) @ v.double()).half()

    return Setup(c.value_args({"q_ptr": q, "k_ptr": k, "v_ptr": v, "o_ptr": out}), (seq // c.values["BM"], bh),
                 lambda: _close(out.float(), reference().float(), 2e-2, 2e-2), lambda: None,
                 lambda: sdpa(q[None], k[None], v[None], is_causal=True))


def cases() -> List[Case]:
    f32, i32 = "*fp32", "*i32"
    n = 1 << 26
    m_rows, n_cols = 8192, 4096
    mm = 2048
    bh, seq, d = 32, 1024, 64
    return [
        Case("vector_add", add_kernel, {"x_ptr": f32, "y_ptr": f32, "out_ptr": f32, "n": "i32", "BLOCK": "constexpr"},
             {"n": n, "BLOCK": 1024}, 4, "GB/s", 3 * 4 * n, _setup_add, memory_bound=True),
        Case("vector_add_fp16", add_kernel, {"x_ptr": "*fp16", "y_ptr": "*fp16", "out_ptr": "*fp16", "n": "i32",
                                             "BLOCK": "constexpr"},
             {"n": n, "BLOCK": 2048}, 4, "GB/s", 3 * 2 * n, _setup_add16, memory_bound=True),
        Case("gelu_tanh", gelu_kernel, {"x_ptr": f32, "out_ptr": f32, "n": "i32", "BLOCK": "constexpr"},
             {"n": n, "BLOCK": 1024}, 4, "GB/s", 2 * 4 * n, _setup_gelu, memory_bound=True),
        Case("softmax", softmax_kernel, {"out_ptr": f32, "in_ptr": f32, "stride": "i32", "n_cols": "i32",
                                         "BLOCK": "constexpr"},
             {"stride": n_cols, "n_cols": n_cols, "BLOCK": n_cols, "M": m_rows}, 8, "GB/s", 2 * 4 * m_rows * n_cols,
             _setup_softmax, memory_bound=True),
        Case("layernorm", layernorm_kernel, {"x_ptr": f32, "w_ptr": f32, "b_ptr": f32, "y_ptr": f32, "stride": "i32",
                                             "n_cols": "i32", "eps": "fp32", "BLOCK": "constexpr"},
             {"stride": n_cols, "n_cols": n_cols, "eps": 1e-5, "BLOCK": n_cols, "M": m_rows}, 8, "GB/s",
             2 * 4 * m_rows * n_cols, _setup_layernorm, memory_bound=True),
        Case("copy2d", copy2d_kernel, {"x_ptr": f32, "y_ptr": f32, "M": "i32", "N": "i32", "stride_x": "i32",
                                       "stride_y": "i32", "BM": "constexpr", "BN": "constexpr"},
             {"M": 8192, "N": 8192, "stride_x": 8192, "stride_y": 8192, "BM": 32, "BN": 128}, 4, "GB/s",
             2 * 4 * 8192 * 8192, _setup_copy2d, memory_bound=True),
        Case("transpose", transpose_kernel, {"x_ptr": f32, "y_ptr": f32, "M": "i32", "N": "i32", "stride_x": "i32",
                                             "stride_y": "i32", "BM": "constexpr", "BN": "constexpr"},
             {"M": 8192, "N": 8192, "stride_x": 8192, "stride_y": 8192, "BM": 64, "BN": 64}, 4, "GB/s",
             2 * 4 * 8192 * 8192, _setup_transpose, memory_bound=True),
        Case("transpose_fp16", transpose_kernel, {"x_ptr": "*fp16", "y_ptr": "*fp16", "M": "i32", "N": "i32",
                                                  "stride_x": "i32", "stride_y": "i32", "BM": "constexpr",
                                                  "BN": "constexpr"},
             {"M": 8192, "N": 8192, "stride_x": 8192, "stride_y": 8192, "BM": 64, "BN": 64}, 4, "GB/s",
             2 * 2 * 8192 * 8192, _setup_transpose16, memory_bound=True),
        Case("row_sum", row_sum_kernel, {"x_ptr": f32, "out_ptr": f32, "stride": "i32", "n_cols": "i32",
                                         "BLOCK": "constexpr"},
             {"stride": n_cols, "n_cols": n_cols, "BLOCK": n_cols, "M": m_rows}, 8, "GB/s", 4 * m_rows * n_cols,
             _setup_row_sum),
        Case("reduce_stress_i32", reduce_stress_kernel, {"x_ptr": i32, "out_ptr": i32, "stride": "i32",
                                                         "n_cols": "i32", "BLOCK": "constexpr"},
             {"stride": 2048, "n_cols": 2048, "BLOCK": 256, "M": 65536}, 8, "GB/s", 4 * 65536 * 2048,
             _setup_reduce_stress),
        Case("atomic_sum_i32", atomic_sum_kernel, {"x_ptr": i32, "out_ptr": i32, "n": "i32", "BLOCK": "constexpr"},
             {"n": n, "BLOCK": 4096}, 4, "GB/s", 4 * n, _setup_atomic_sum),
        Case("cumsum_i32", cumsum_kernel, {"x_ptr": i32, "out_ptr": i32, "stride": "i32", "BLOCK": "constexpr"},
             {"stride": 1024, "BLOCK": 1024, "M": 16384}, 4, "GB/s", 2 * 4 * 16384 * 1024, _setup_cumsum),
        Case("histogram", histogram_kernel, {"x_ptr": i32, "bins_ptr": i32, "n": "i32", "BLOCK": "constexpr",
                                             "NUM_BINS": "constexpr"},
             {"n": n - 100, "BLOCK": 2048, "NUM_BINS": 64}, 4, "GB/s", 4 * (n - 100), _setup_histogram),
        Case("matmul_fma", matmul_kernel, {"a_ptr": f32, "b_ptr": f32, "c_ptr": f32, "M": "i32", "N": "i32",
                                           "K": "i32", "BM": "constexpr", "BN": "constexpr", "BK": "constexpr",
                                           "PRECISION": "constexpr"},
             {"M": mm, "N": mm, "K": mm, "BM": 64, "BN": 64, "BK": 16, "PRECISION": "ieee"}, 4, "TFLOP/s", 2.0 * mm**3, _setup_matmul),
        Case("attention_fma", attention_kernel, {"q_ptr": f32, "k_ptr": f32, "v_ptr": f32, "o_ptr": f32,
                                                 "seq": "i32", "scale": "fp32", "D": "constexpr", "BM": "constexpr",
                                                 "BN": "constexpr", "PRECISION": "constexpr"},
             {"seq": seq, "scale": 1.0 / math.sqrt(d), "D": d, "BM": 64, "BN": 32, "BH": bh, "PRECISION": "ieee"},
             4, "TFLOP/s",
             4.0 * bh * seq * seq * d, _setup_attention),
    ] + matrix_unit_cases()


def matrix_unit_cases() -> List[Case]:
    """The matrix-unit cases: Triton's Hopper tutorial tiles, pointer loads. On the proxy their dots run on
    the proxy's SQMMA rows (wgmma), with mp_31's choices above the target."""
    big = 4096
    mm_sig = {"M": "i32", "N": "i32", "K": "i32", "BM": "constexpr", "BN": "constexpr", "BK": "constexpr",
              "PRECISION": "constexpr"}
    # Triton's default precision; it only matters for f32 operands.
    tiles = {"M": big, "N": big, "K": big, "BM": 128, "BN": 128, "BK": 64, "PRECISION": "tf32"}
    # Flash-attention forward at the size (L = 8192, D = 64, BM = 128, BN = 64).
    bh, seq, d = 16, 8192, 64
    attention_sig = {"seq": "i32", "scale": "fp32", "D": "constexpr", "BM": "constexpr", "BN": "constexpr",
                     "PRECISION": "constexpr"}
    return [
        Case(f"matmul_{ty}", matmul_kernel, {"a_ptr": f"*{ty}", "b_ptr": f"*{ty}", "c_ptr": f"*{ty}", **mm_sig},
             dict(tiles), 4, "TFLOP/s", 2.0 * big**3, _setup_matmul_tc, num_stages=3)
        for ty in ("fp16", "bf16")
    ] + [
        Case("matmul_fp16_8192", matmul_kernel, {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", **mm_sig},
             dict(tiles, M=2 * big, N=2 * big, K=2 * big), 4, "TFLOP/s", 2.0 * (2 * big)**3, _setup_matmul_tc,
             num_stages=3),
        # Two warps: PH1's 32-lane WMMA on mp_31 (mma.sync on the proxy), tutorial 03's small config.
        Case("matmul_fp16_w2", matmul_kernel, {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", **mm_sig},
             dict(tiles, BM=64, BN=32, BK=32), 2, "TFLOP/s", 2.0 * big**3, _setup_matmul_tc, num_stages=5),
    ] + [
        # Host tensor descriptors: TME rings (TMA and mbarriers on the proxy) feeding the matrix unit.
        Case(f"matmul_desc_{ty}", matmul_desc_kernel,
             {"a_desc": f"tensordesc<{ty}[128, 64]>", "b_desc": f"tensordesc<{ty}[64, 128]>",
              "c_desc": f"tensordesc<{ty}[128, 128]>", "K": "i32", "BM": "constexpr", "BN": "constexpr",
              "BK": "constexpr"},
             {"M": big, "N": big, "K": big, "BM": 128, "BN": 128, "BK": 64}, 4, "TFLOP/s", 2.0 * big**3,
             _setup_matmul_desc, num_stages=3)
        for ty in ("fp16", "bf16")
    ] + [
        Case("matmul_batched_fp16", matmul_batched_kernel,
             {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32",
              "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"},
             {"Z": 16, "M": 2048, "N": 2048, "K": 1024, "BM": 128, "BN": 128, "BK": 64}, 4, "TFLOP/s",
             2.0 * 16 * 2048 * 2048 * 1024, _setup_matmul_batched, num_stages=3),
        Case("matmul_fp8e4m3", matmul_fp8_kernel,
             {"a_ptr": "*fp8e4nv", "bt_ptr": "*fp8e4nv", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32",
              "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"},
             {"M": big, "N": big, "K": big, "BM": 128, "BN": 128, "BK": 128}, 4, "TFLOP/s", 2.0 * big**3,
             _setup_matmul_fp8, num_stages=3),
        Case("addmm_gelu_fp16", addmm_kernel,
             {"x_ptr": "*fp16", "a_ptr": "*fp16", "b_ptr": "*fp16", "bias_ptr": "*fp16", "c_ptr": "*fp16",
              "M": "i32", "N": "i32", "K": "i32", "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"},
             dict(M=big, N=big, K=big, BM=128, BN=128, BK=64), 4, "TFLOP/s", 2.0 * big**3, _setup_addmm,
             num_stages=3),
    ] + [
        Case("attention_fp16", attention_kernel, {"q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16",
                                                  "o_ptr": "*fp16", **attention_sig},
             {"seq": seq, "scale": 1.0 / math.sqrt(d), "D": d, "BM": 128, "BN": 64, "BH": bh, "PRECISION": "tf32"},
             4, "TFLOP/s", 4.0 * bh * seq * seq * d, _setup_attention, num_stages=3),
        Case("attention_fp16_d128", attention_kernel, {"q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16",
                                                       "o_ptr": "*fp16", **attention_sig},
             {"seq": seq, "scale": 1.0 / math.sqrt(128), "D": 128, "BM": 128, "BN": 64, "BH": bh // 2,
              "PRECISION": "tf32"},
             # Two stages: three rings of 128-wide K and V tiles exceed the shared memory.
             8, "TFLOP/s", 4.0 * (bh // 2) * seq * seq * 128, _setup_attention, num_stages=2),
        # Causal: about half the key blocks (the diagonal block's upper half masked).
        Case("attention_causal_fp16", attention_causal_kernel,
             {"q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16", "o_ptr": "*fp16", "seq": "i32", "scale": "fp32",
              "D": "constexpr", "BM": "constexpr", "BN": "constexpr"},
             {"seq": seq, "scale": 1.0 / math.sqrt(d), "D": d, "BM": 128, "BN": 64, "BH": bh}, 4, "TFLOP/s",
             2.0 * bh * seq * seq * d, _setup_attention_causal, num_stages=3),
    ]
