"""Control flow, calls, debugging ops, hints and fp8 conversions."""

import triton
import triton.language as tl

from ._entry import entry


@triton.jit
def debug_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    tl.static_assert(BLOCK % 32 == 0, "BLOCK must be a multiple of 32")
    tl.device_assert(x >= 0, "negative input")
    tl.device_assert(offs < n + BLOCK)
    tl.device_print("pid", pid)
    tl.device_print("x=", x, hex=True)
    tl.device_print("two ", x, offs)
    tl.store(out_ptr + offs, x + 1, mask=mask)


@triton.jit(noinline=True)
def _scale_factor(scale, pid):
    # noinline callees take and return scalars only: a tt.call across functions.
    return scale * (pid + 1).to(tl.float32)


@triton.jit(noinline=True)
def _scale_block(x_ptr, out_ptr, start, n, scale, BLOCK: tl.constexpr):
    offs = start + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * scale, mask=mask)


@triton.jit
def _clipped(x, lo, hi):
    return tl.minimum(tl.maximum(x, lo), hi)


@triton.jit
def calls_kernel(x_ptr, out_ptr, n, scale, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    s = _scale_factor(scale, tl.program_id(0))
    _scale_block(x_ptr, out_ptr, tl.program_id(0) * BLOCK, n, s, BLOCK)
    x = tl.load(out_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, _clipped(x, -1.0, 1.0), mask=mask)


@triton.jit
def control_flow_kernel(x_ptr, out_ptr, n, mode, BLOCK: tl.constexpr, UNROLL: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    if mode == 0:
        x = x * 2.0
    elif mode == 1:
        x = x + 1.0
    else:
        x = -x
    i = 0
    while i < mode:
        x = x * 0.5
        i += 1
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for j in tl.range(0, n, BLOCK, loop_unroll_factor=2):
        acc += tl.load(x_ptr + j + tl.arange(0, BLOCK), mask=j + tl.arange(0, BLOCK) < n, other=0.0)
    for k in tl.static_range(UNROLL):
        acc = acc * (k + 1)
    for outer in range(2):
        for inner in range(outer, 3):
            acc += outer * inner
    tl.store(out_ptr + offs, x + acc, mask=mask)


@triton.jit
def _relu_or_square(x):
    if x > 0:
        return x * x
    else:
        return 0.0


@triton.jit
def map_elementwise_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, tl.map_elementwise(_relu_or_square, x))


@triton.jit
def grid_hints_kernel(x_ptr, out_ptr, stride, n, BLOCK: tl.constexpr):
    # 3-D grid, program counts, alignment hints and an assumption on the stride.
    pid = tl.program_id(0) + tl.program_id(1) * tl.num_programs(0) + tl.program_id(2) * 7
    tl.assume(stride > 0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    offs = tl.multiple_of(offs, 16)
    x = tl.load(x_ptr + offs * stride, mask=offs < n)
    tl.store(out_ptr + tl.max_contiguous(offs, BLOCK), x, mask=offs < n)


@triton.jit
def fp8_convert_kernel(x_ptr, e4_ptr, e5_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    e4 = x.to(tl.float8e4nv)
    e5 = x.to(tl.float16).to(tl.float8e5)
    tl.store(e4_ptr + offs, e4, mask=mask)
    tl.store(e5_ptr + offs, e5, mask=mask)
    back = e4.to(tl.float32) + e5.to(tl.float16).to(tl.float32) + e5.to(tl.bfloat16).to(tl.float32)
    bits = e4.to(tl.uint8, bitcast=True)
    tl.store(out_ptr + offs, back + bits.to(tl.float32), mask=mask)


_XO = {"x_ptr": "*fp32", "out_ptr": "*fp32"}

ENTRIES = [
    entry("debug_print_assert", debug_kernel, {"x_ptr": "*i32", "out_ptr": "*i32", "n": "i32"}, {"BLOCK": 128},
          debug=True),
    entry("calls_noinline", calls_kernel, {**_XO, "n": "i32", "scale": "fp32"}, {"BLOCK": 256}),
    entry("control_flow", control_flow_kernel, {**_XO, "n": "i32", "mode": "i32"}, {"BLOCK": 256, "UNROLL": 3}),
    entry("map_elementwise", map_elementwise_kernel, _XO, {"BLOCK": 128}),
    entry("grid_hints_w8", grid_hints_kernel, {**_XO, "stride": "i64", "n": "i64"}, {"BLOCK": 1024}, num_warps=8),
    entry("fp8_convert", fp8_convert_kernel, {"x_ptr": "*fp32", "e4_ptr": "*fp8e4nv", "e5_ptr": "*fp8e5",
                                              "out_ptr": "*fp32", "n": "i32"}, {"BLOCK": 512}),
]
