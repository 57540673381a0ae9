"""The selftest's kernels: the probe kernels (device.py) and one kernel per family of the compiler's corpus
(elementwise, reductions, dot, memory, shapes, control), which the ABI section compiles to a mubin and the
device section runs against torch."""

from __future__ import annotations

import triton
import triton.language as tl


@triton.jit
def dot_probe(a, b, c, d, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, PREC: tl.constexpr):
    """d = a @ b + c for one tile: a (M x K) and b (K x N) row-major, so A is K-major and B N-major."""
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    x = tl.load(a + rm[:, None] * K + rk[None, :])
    y = tl.load(b + rk[:, None] * N + rn[None, :])
    acc = tl.load(c + rm[:, None] * N + rn[None, :])
    tl.store(d + rm[:, None] * N + rn[None, :], tl.dot(x, y, acc, input_precision=PREC))


@triton.jit
def tme_copy_probe(desc, out, row, col, R: tl.constexpr, C: tl.constexpr):
    """out (R x C) = the descriptor's box at (row, col), through a TME load."""
    tile = desc.load([row, col])
    rr = tl.arange(0, R)
    cc = tl.arange(0, C)
    tl.store(out + rr[:, None] * C + cc[None, :], tile)


@triton.jit
def tme_ring_probe(desc, out, ITERS: tl.constexpr, R: tl.constexpr, C: tl.constexpr, DEPTH: tl.constexpr):
    """out[i] = box i of the descriptor, loaded in a loop that the pipeliner rings DEPTH deep (the loop's own
    num_stages: its load feeds no dot)."""
    rr = tl.arange(0, R)
    cc = tl.arange(0, C)
    for i in tl.range(0, ITERS, num_stages=DEPTH):
        tile = desc.load([i * R, 0])
        tl.store(out + i * R * C + rr[:, None] * C + cc[None, :], tile)


@triton.jit
def warp_specialized_probe(a_desc, b_desc, c, K, M: tl.constexpr, N: tl.constexpr, BK: tl.constexpr):
    """c (M x N) = a @ b over a warp-specialized K loop: a producer warp streams the TME tiles, returns at the
    loop's end, and the epilogue after it synchronizes the remaining warps."""
    acc = tl.zeros((M, N), dtype=tl.float32)
    for k in tl.range(0, K, BK, num_stages=2, warp_specialize=True):
        acc = tl.dot(a_desc.load([0, k]), b_desc.load([k, 0]), acc)
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    tl.store(c + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def descriptor_args_probe(da, db, out, scale, R: tl.constexpr, C: tl.constexpr):
    """out = a + scale * b from two descriptor arguments followed by a scalar one."""
    ta = da.load([0, 0])
    tb = db.load([0, 0])
    rr = tl.arange(0, R)
    cc = tl.arange(0, C)
    tl.store(out + rr[:, None] * C + cc[None, :], ta + tb * scale)


# --- One kernel per corpus family --------------------------------------------------------------------

@triton.jit
def family_elementwise(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(x + offs, mask=mask)
    b = tl.load(y + offs, mask=mask)
    tl.store(out + offs, tl.exp(a) * b + tl.sqrt(tl.abs(a)), mask=mask)


@triton.jit
def family_reduction(x, out, N: tl.constexpr):
    row = tl.program_id(0)
    v = tl.load(x + row * N + tl.arange(0, N))
    m = tl.max(v, axis=0)
    e = tl.exp(v - m)
    tl.store(out + row * N + tl.arange(0, N), e / tl.sum(e, axis=0))


@triton.jit
def family_dot(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        x = tl.load(a + rm[:, None] * K + (k + rk)[None, :])
        y = tl.load(b + (k + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(x, y, acc)
    tl.store(c + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def family_memory(x, out, counter, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(x + offs, mask=mask, other=0.0)
    tl.store(out + offs, v * 2, mask=mask)
    tl.atomic_add(counter, tl.sum(mask.to(tl.int32), axis=0))


@triton.jit
def family_shapes(x, out, R: tl.constexpr, C: tl.constexpr):
    rr = tl.arange(0, R)
    cc = tl.arange(0, C)
    v = tl.load(x + rr[:, None] * C + cc[None, :])
    tl.store(out + cc[:, None] * R + rr[None, :], tl.trans(v))


@triton.jit
def family_control(x, out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK, ), dtype=tl.float32)
    for start in range(0, n, BLOCK):
        v = tl.load(x + start + offs, mask=start + offs < n, other=0.0)
        if start % (2 * BLOCK) == 0:
            acc += v
        else:
            acc -= v
    tl.store(out + offs, acc)
