"""Reductions and scans: sum/max/min/argmax/argmin, multi-axis and custom combines,
cumsum/cumprod/associative_scan, histogram, softmax and layernorm."""

import triton
import triton.language as tl

from ._entry import entry


@triton.jit
def row_sum_kernel(x_ptr, out_ptr, stride, N: tl.constexpr, M: tl.constexpr):
    rows = tl.program_id(0) * M + tl.arange(0, M)
    cols = tl.arange(0, N)
    x = tl.load(x_ptr + rows[:, None] * stride + cols[None, :])
    tl.store(out_ptr + rows, tl.sum(x, axis=1))


@triton.jit
def max_min_kernel(x_ptr, max_ptr, min_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0)
    tl.store(max_ptr + tl.program_id(0), tl.max(x, axis=0))
    tl.store(min_ptr + tl.program_id(0), tl.min(x, axis=0))
    tl.store(max_ptr + tl.program_id(0) + 1, tl.reduce_or(x, axis=0) ^ tl.xor_sum(x, axis=0))


@triton.jit
def argmax_argmin_kernel(x_ptr, imax_ptr, imin_ptr, vmax_ptr, R: tl.constexpr, C: tl.constexpr):
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    x = tl.load(x_ptr + r[:, None] * C + c[None, :])
    tl.store(imax_ptr + r, tl.argmax(x, axis=1))
    tl.store(imin_ptr + c, tl.argmin(x, axis=0, tie_break_left=False))
    v, i = tl.max(x, axis=1, return_indices=True)
    tl.store(vmax_ptr + r, v + i.to(tl.float32))


@triton.jit
def multi_axis_reduce_kernel(x_ptr, out_ptr, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    a = tl.arange(0, A)[:, None, None]
    b = tl.arange(0, B)[None, :, None]
    c = tl.arange(0, C)[None, None, :]
    x = tl.load(x_ptr + a * B * C + b * C + c)
    over_c = tl.sum(x, axis=2)  # [A, B]
    over_cb = tl.max(over_c, axis=1, keep_dims=True)  # [A, 1]
    total = tl.sum(x)  # every axis
    kept = tl.sum(x, axis=0, keep_dims=True)  # [1, B, C]
    tl.store(out_ptr + tl.arange(0, A), tl.reshape(over_cb, [A]) + total)
    tl.store(out_ptr + A + b * C + c, kept)


@triton.jit
def _sum_and_max(a_sum, a_max, b_sum, b_max):
    return a_sum + b_sum, tl.maximum(a_max, b_max)


@triton.jit
def custom_reduce_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    s, m = tl.reduce((x, x), 0, _sum_and_max)
    tl.store(out_ptr, s)
    tl.store(out_ptr + 1, m)


@triton.jit
def cumsum_kernel(x_ptr, out_ptr, prod_ptr, R: tl.constexpr, C: tl.constexpr):
    r = tl.arange(0, R)[:, None]
    c = tl.arange(0, C)[None, :]
    x = tl.load(x_ptr + r * C + c)
    tl.store(out_ptr + r * C + c, tl.cumsum(x, axis=1) + tl.cumsum(x, axis=0, reverse=True))
    tl.store(prod_ptr + r * C + c, tl.cumprod(x.to(tl.float32), axis=1))


@triton.jit
def _linear_recurrence(a1, b1, a2, b2):
    # Composition of x -> a*x + b maps, the classic first-order recurrence scan.
    return a1 * a2, b1 * a2 + b2


@triton.jit
def associative_scan_kernel(a_ptr, b_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    _, h = tl.associative_scan((a, b), 0, _linear_recurrence)
    tl.store(out_ptr + offs, h)


@triton.jit
def histogram_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, BINS: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0)
    h = tl.histogram(x, BINS, mask=offs < n)
    tl.atomic_add(out_ptr + tl.arange(0, BINS), h)


@triton.jit
def softmax_kernel(out_ptr, in_ptr, in_stride, out_stride, n_rows, n_cols, BLOCK: tl.constexpr):
    start = tl.program_id(0)
    step = tl.num_programs(0)
    for row in tl.range(start, n_rows, step, num_stages=2):
        cols = tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(in_ptr + row * in_stride + cols, mask=mask, other=-float("inf"))
        x = x - tl.max(x, axis=0)
        num = tl.exp(x)
        tl.store(out_ptr + row * out_stride + cols, num / tl.sum(num, axis=0), mask=mask)


@triton.jit
def layernorm_kernel(x_ptr, y_ptr, w_ptr, b_ptr, mean_ptr, rstd_ptr, stride, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_ptr += row * stride
    y_ptr += row * stride
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + cols, mask=cols < N, other=0.0).to(tl.float32)
    mean = tl.sum(acc, axis=0) / N
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + cols, mask=cols < N, other=0.0).to(tl.float32)
        d = tl.where(cols < N, x - mean, 0.0)
        acc += d * d
    rstd = 1 / tl.sqrt(tl.sum(acc, axis=0) / N + eps)
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        mask = cols < N
        w = tl.load(w_ptr + cols, mask=mask)
        b = tl.load(b_ptr + cols, mask=mask)
        x = tl.load(x_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(y_ptr + cols, ((x - mean) * rstd * w + b).to(y_ptr.dtype.element_ty), mask=mask)


ENTRIES = [
    entry("row_sum", row_sum_kernel, {"x_ptr": "*fp32", "out_ptr": "*fp32", "stride": "i32"}, {"N": 128, "M": 16}),
    entry("max_min_i32", max_min_kernel, {"x_ptr": "*i32", "max_ptr": "*i32", "min_ptr": "*i32", "n": "i32"},
          {"BLOCK": 1024}),
    entry("argmax_argmin", argmax_argmin_kernel,
          {"x_ptr": "*fp32", "imax_ptr": "*i32", "imin_ptr": "*i32", "vmax_ptr": "*fp32"}, {"R": 32, "C": 64}),
    entry("multi_axis_reduce", multi_axis_reduce_kernel, {"x_ptr": "*fp32", "out_ptr": "*fp32"},
          {"A": 4, "B": 8, "C": 32}),
    entry("custom_reduce", custom_reduce_kernel, {"x_ptr": "*fp32", "out_ptr": "*fp32"}, {"BLOCK": 512}),
    entry("cumsum", cumsum_kernel, {"x_ptr": "*i32", "out_ptr": "*i32", "prod_ptr": "*fp32"}, {"R": 16, "C": 64}),
    entry("associative_scan", associative_scan_kernel, {"a_ptr": "*fp32", "b_ptr": "*fp32", "out_ptr": "*fp32"},
          {"BLOCK": 256}),
    entry("histogram", histogram_kernel, {"x_ptr": "*i32", "out_ptr": "*i32", "n": "i32"}, {"BLOCK": 1024, "BINS": 64}),
    entry("softmax", softmax_kernel, {"out_ptr": "*fp32", "in_ptr": "*fp32", "in_stride": "i32", "out_stride": "i32",
                                      "n_rows": "i32", "n_cols": "i32"}, {"BLOCK": 1024}, num_warps=8, num_stages=2),
    entry("layernorm", layernorm_kernel, {"x_ptr": "*fp16", "y_ptr": "*fp16", "w_ptr": "*fp32", "b_ptr": "*fp32",
                                          "mean_ptr": "*fp32", "rstd_ptr": "*fp32", "stride": "i32", "N": "i32",
                                          "eps": "fp32"}, {"BLOCK": 512}),
]
