"""tl.dot in every dtype the frontend accepts for MUSA, batched and transposed
operands, and the two classic dot-heavy kernels: a K-looped matmul and attention."""

import triton
import triton.language as tl

from ._entry import entry


@triton.jit
def dot_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
               PRECISION: tl.constexpr):
    m = tl.arange(0, M)
    n = tl.arange(0, N)
    k = tl.arange(0, K)
    a = tl.load(a_ptr + m[:, None] * K + k[None, :])
    b = tl.load(b_ptr + k[:, None] * N + n[None, :])
    c = tl.dot(a, b, input_precision=PRECISION)
    tl.store(c_ptr + m[:, None] * N + n[None, :], c)


@triton.jit
def dot_acc_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    # Accumulate into an existing tile and narrow the result: dot with acc=, out_dtype.
    m = tl.arange(0, M)
    n = tl.arange(0, N)
    k = tl.arange(0, K)
    a = tl.load(a_ptr + m[:, None] * K + k[None, :])
    b = tl.load(b_ptr + k[:, None] * N + n[None, :])
    acc = tl.load(c_ptr + m[:, None] * N + n[None, :]).to(tl.float32)
    acc = tl.dot(a, b, acc)
    half = tl.dot(a, b, out_dtype=tl.float16)
    tl.store(c_ptr + m[:, None] * N + n[None, :], (acc + half.to(tl.float32)).to(tl.float16))


@triton.jit
def dot_trans_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    # a is stored K-major (K x M) and b N-major (N x K): both operands are transposed views.
    m = tl.arange(0, M)
    n = tl.arange(0, N)
    k = tl.arange(0, K)
    at = tl.load(a_ptr + k[:, None] * M + m[None, :])
    bt = tl.load(b_ptr + n[:, None] * K + k[None, :])
    c = tl.dot(tl.trans(at), bt.T)
    tl.store(c_ptr + m[:, None] * N + n[None, :], c)


@triton.jit
def dot_batched_kernel(a_ptr, b_ptr, c_ptr, B: tl.constexpr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    bi = tl.arange(0, B)[:, None, None]
    m = tl.arange(0, M)[None, :, None]
    n = tl.arange(0, N)[None, None, :]
    ka = tl.arange(0, K)[None, None, :]
    kb = tl.arange(0, K)[None, :, None]
    a = tl.load(a_ptr + bi * M * K + m * K + ka)
    b = tl.load(b_ptr + bi * K * N + kb * N + n)
    c = tl.dot(a, b)
    tl.store(c_ptr + bi * M * N + m * N + n, c)


@triton.jit
def dot_batched_trans_kernel(a_ptr, b_ptr, c_ptr, B: tl.constexpr, M: tl.constexpr, N: tl.constexpr,
                             K: tl.constexpr):
    bi = tl.arange(0, B)[:, None, None]
    m = tl.arange(0, M)[None, :, None]
    n = tl.arange(0, N)[None, :, None]
    k = tl.arange(0, K)[None, None, :]
    a = tl.load(a_ptr + bi * M * K + m * K + k)
    bt = tl.load(b_ptr + bi * N * K + n * K + k)  # [B, N, K]
    c = tl.dot(a, tl.permute(bt, (0, 2, 1)))
    tl.store(c_ptr + bi * M * N + tl.arange(0, M)[None, :, None] * N + tl.arange(0, N)[None, None, :], c)


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, bias_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm,
                  stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                  GROUP_M: tl.constexpr, NUM_STAGES: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    group = GROUP_M * num_pid_n
    first_m = (pid // group) * GROUP_M
    group_m = min(num_pid_m - first_m, GROUP_M)
    pid_m = first_m + (pid % group) % group_m
    pid_n = (pid % group) // group_m
    offs_m = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_n = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_m = tl.max_contiguous(tl.multiple_of(offs_m, BLOCK_M), BLOCK_M)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in tl.range(0, tl.cdiv(K, BLOCK_K), num_stages=NUM_STAGES):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    bias = tl.load(bias_ptr + offs_n)
    acc = tl.maximum(acc + bias[None, :], 0.0)
    cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + cm[:, None] * stride_cm + cn[None, :] * stride_cn
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=(cm[:, None] < M) & (cn[None, :] < N))


@triton.jit
def attention_fwd_kernel(q_ptr, k_ptr, v_ptr, o_ptr, sm_scale, seq_len, stride_h, stride_s,
                         HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                         CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    head = tl.program_id(1)
    base = head.to(tl.int64) * stride_h
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(q_ptr + base + offs_m[:, None] * stride_s + offs_d[None, :], mask=offs_m[:, None] < seq_len)
    m_i = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
    l_i = tl.full([BLOCK_M], 1.0, dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    hi = tl.minimum((start_m + 1) * BLOCK_M, seq_len) if CAUSAL else seq_len
    for start_n in tl.range(0, hi, BLOCK_N, num_stages=2):
        cols = start_n + offs_n
        kt = tl.load(k_ptr + base + cols[None, :] * stride_s + offs_d[:, None], mask=cols[None, :] < seq_len)
        qk = tl.dot(q, kt)
        if CAUSAL:
            qk = tl.where(offs_m[:, None] >= cols[None, :], qk, float("-inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
        p = tl.math.exp2(qk * qk_scale - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_ptr + base + cols[:, None] * stride_s + offs_d[None, :], mask=cols[:, None] < seq_len)
        acc = acc * alpha[:, None]
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(o_ptr + base + offs_m[:, None] * stride_s + offs_d[None, :], acc.to(o_ptr.dtype.element_ty),
             mask=offs_m[:, None] < seq_len)


def _dot(dtype: str, out: str, precision: str = "ieee", m: int = 32, n: int = 32, k: int = 32) -> dict:
    return dict(signature={"a_ptr": f"*{dtype}", "b_ptr": f"*{dtype}", "c_ptr": f"*{out}"},
                constexprs={"M": m, "N": n, "K": k, "PRECISION": precision})


_ABC16 = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32"}
_MATMUL_SIG = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "bias_ptr": "*fp32", "M": "i32", "N": "i32",
               "K": "i32", "stride_am": "i32", "stride_ak": "i32", "stride_bk": "i32", "stride_bn": "i32",
               "stride_cm": "i32", "stride_cn": "i32"}

ENTRIES = [
    entry("dot_fp32", dot_kernel, **_dot("fp32", "fp32")),
    entry("dot_fp32_tf32", dot_kernel, **_dot("fp32", "fp32", "tf32", 64, 64, 16)),
    entry("dot_fp16", dot_kernel, **_dot("fp16", "fp32", m=64, n=64, k=32)),
    entry("dot_bf16", dot_kernel, **_dot("bf16", "fp32", m=64, n=32, k=64)),
    entry("dot_int8", dot_kernel, **_dot("i8", "i32", m=32, n=64, k=64)),
    entry("dot_fp8e4nv", dot_kernel, **_dot("fp8e4nv", "fp32", m=64, n=64, k=64)),
    entry("dot_fp8e5", dot_kernel, **_dot("fp8e5", "fp32", m=64, n=64, k=64)),
    entry("dot_small_w1", dot_kernel, **_dot("fp16", "fp32", m=16, n=16, k=16), num_warps=1),
    entry("dot_acc_out_fp16", dot_acc_kernel, {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16"},
          {"M": 64, "N": 64, "K": 32}),
    entry("dot_trans", dot_trans_kernel, _ABC16, {"M": 64, "N": 32, "K": 32}),
    entry("dot_batched", dot_batched_kernel, _ABC16, {"B": 2, "M": 32, "N": 32, "K": 16}),
    entry("dot_batched_trans", dot_batched_trans_kernel, _ABC16, {"B": 4, "M": 16, "N": 32, "K": 32}, num_warps=2),
    entry("matmul", matmul_kernel, _MATMUL_SIG, {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 32, "GROUP_M": 8,
                                                 "NUM_STAGES": 3}, num_warps=8, num_stages=3,
          aligned=("a_ptr", "b_ptr", "c_ptr", "bias_ptr")),
    entry("matmul_bf16_w4", matmul_kernel, {**_MATMUL_SIG, "a_ptr": "*bf16", "b_ptr": "*bf16", "c_ptr": "*fp32"},
          {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 64, "GROUP_M": 4, "NUM_STAGES": 4}, num_stages=4),
    entry("attention_fwd", attention_fwd_kernel,
          {"q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16", "o_ptr": "*fp16", "sm_scale": "fp32",
           "seq_len": "i32", "stride_h": "i64", "stride_s": "i32"},
          {"HEAD_DIM": 64, "BLOCK_M": 64, "BLOCK_N": 64, "CAUSAL": True}, num_stages=2),
]
