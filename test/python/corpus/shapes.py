"""Shape manipulation: reshape, trans, permute, join/split, cat, broadcast, interleave,
flip, sort and topk."""

import triton
import triton.language as tl

from ._entry import entry


@triton.jit
def reshape_trans_kernel(x_ptr, out_ptr, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    offs = tl.arange(0, A * B * C)
    x = tl.load(x_ptr + offs)
    x3 = tl.reshape(x, [A, B, C])
    p = tl.permute(x3, (2, 0, 1))  # [C, A, B]
    t = tl.trans(tl.reshape(p, [C, A * B]))  # [A*B, C]
    loose = tl.reshape(t, [A * B * C], can_reorder=True)
    tl.store(out_ptr + offs, tl.reshape(t, [A * B * C]) + loose)
    e = tl.expand_dims(x, 0)
    tl.store(out_ptr + A * B * C + offs[None, :], e * 2)


@triton.jit
def join_split_kernel(re_ptr, im_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    re = tl.load(re_ptr + offs)
    im = tl.load(im_ptr + offs)
    z = tl.join(re, im)  # [BLOCK, 2]
    tl.store(out_ptr + offs[:, None] * 2 + tl.arange(0, 2)[None, :], z)
    a, b = tl.split(z)
    tl.store(re_ptr + offs, a * b)
    tl.store(im_ptr + offs, tl.interleave(a, b).reshape(2, BLOCK).sum(axis=0))


@triton.jit
def cat_broadcast_kernel(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    c = tl.cat(x, y, can_reorder=True)  # [2 * BLOCK]
    tl.store(out_ptr + tl.arange(0, 2 * BLOCK), c)
    row = tl.broadcast_to(x[None, :], (4, BLOCK))
    col, _ = tl.broadcast(y[:, None], x[None, :])  # [BLOCK, BLOCK]
    s = tl.sum(col, axis=1) + tl.sum(row, axis=0)
    tl.store(out_ptr + 2 * BLOCK + offs, s)


@triton.jit
def flip_sort_kernel(x_ptr, out_ptr, R: tl.constexpr, C: tl.constexpr, K: tl.constexpr):
    r = tl.arange(0, R)[:, None]
    c = tl.arange(0, C)[None, :]
    x = tl.load(x_ptr + r * C + c)
    tl.store(out_ptr + r * C + c, tl.flip(x, 1) + tl.sort(x, dim=1, descending=True))
    tk = tl.topk(x, K, dim=1)
    tl.store(out_ptr + R * C + r * K + tl.arange(0, K)[None, :], tk)


ENTRIES = [
    entry("reshape_trans_permute", reshape_trans_kernel, {"x_ptr": "*fp32", "out_ptr": "*fp32"},
          {"A": 4, "B": 8, "C": 16}),
    entry("join_split_interleave", join_split_kernel, {"re_ptr": "*fp32", "im_ptr": "*fp32", "out_ptr": "*fp32"},
          {"BLOCK": 128}),
    entry("cat_broadcast", cat_broadcast_kernel, {"x_ptr": "*fp16", "y_ptr": "*fp16", "out_ptr": "*fp16"},
          {"BLOCK": 64}),
    entry("flip_sort_topk", flip_sort_kernel, {"x_ptr": "*fp32", "out_ptr": "*fp32"}, {"R": 8, "C": 64, "K": 8}),
]
