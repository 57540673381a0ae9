"""Elementwise kernels: arithmetic, math, libdevice calls, masks, casts, random numbers."""

import triton
import triton.language as tl
from triton.language.extra import libdevice

from ._entry import entry


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = tl.load(y_ptr + offs, mask=mask, other=1.0)
    tl.store(out_ptr + offs, x + y, mask=mask)


@triton.jit
def math_builtins_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1.0)
    y = tl.load(y_ptr + offs, mask=mask, other=1.0)
    a = tl.exp(x) + tl.log(tl.abs(y) + 1.0) + tl.sqrt(tl.abs(x)) + tl.rsqrt(tl.abs(y) + 1.0)
    b = tl.sin(x) * tl.cos(y) + tl.exp2(x) - tl.log2(tl.abs(x) + 2.0) + tl.erf(y)
    c = tl.floor(x) + tl.ceil(y) + tl.fma(x, y, a) + tl.sigmoid(x) + tl.div_rn(x, y + 3.0)
    d = tl.maximum(a, b) - tl.minimum(b, c) + tl.clamp(c, -1.0, 1.0) + tl.sqrt_rn(tl.abs(a))
    e = tl.fdiv(d, y + 4.0) + x / (y + 5.0) + tl.softmax(x, dim=0) + tl.exp(x).to(tl.float16).to(tl.float32)
    tl.store(out_ptr + offs, e, mask=mask)


@triton.jit
def libdevice_f32_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.5)
    y = tl.load(y_ptr + offs, mask=mask, other=2.0)
    a = libdevice.exp(x) + libdevice.exp2(y) + libdevice.log(y) + libdevice.log2(y) + libdevice.log1p(x)
    b = libdevice.sin(x) + libdevice.cos(x) + libdevice.tan(x) + libdevice.tanh(x) + libdevice.erf(x)
    c = libdevice.sqrt(y) + libdevice.rsqrt(y) + libdevice.pow(x, y) + libdevice.fmod(x, y) + libdevice.atan2(x, y)
    d = libdevice.floor(x) + libdevice.ceil(x) + libdevice.trunc(x) + libdevice.round(x) + libdevice.rint(x)
    e = libdevice.fast_expf(x) + libdevice.fast_dividef(x, y) + libdevice.fast_log2f(y) + libdevice.fma(x, y, a)
    f = libdevice.isnan(x).to(tl.float32) + libdevice.pow(x, 3) + libdevice.ldexp(x, 2) + libdevice.cbrt(y)
    tl.store(out_ptr + offs, a + b + c + d + e + f, mask=mask)


@triton.jit
def libdevice_f64_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1.0)
    r = libdevice.exp(x) + libdevice.log(x) + libdevice.pow(x, x) + libdevice.sqrt(x) + libdevice.tanh(x)
    r += libdevice.div_rn(x, x + 1.0) + libdevice.erf(x) + libdevice.sin(x)
    tl.store(out_ptr + offs, r, mask=mask)


@triton.jit
def int_ops_kernel(a_ptr, b_ptr, out_ptr, uout_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=1)
    b = tl.load(b_ptr + offs, mask=mask, other=1)
    r = (a << 3) ^ (b >> 1) | (a & 0xFF)
    r = r + a // (b | 1) + a % (b | 1) + tl.cdiv(a, 7) + ~b
    wide = a.to(tl.int64) * b.to(tl.int64)
    r = r + (wide >> 32).to(tl.int32) + tl.umulhi(a.to(tl.uint32), b.to(tl.uint32)).to(tl.int32)
    u = a.to(tl.uint32) >> 2
    tl.store(out_ptr + offs, r, mask=mask)
    tl.store(uout_ptr + offs, u + libdevice.mulhi(a, b).to(tl.uint32), mask=mask)


@triton.jit
def casts_kernel(x_ptr, h_ptr, bf_ptr, i_ptr, u8_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    h = x.to(tl.float16)
    bf = x.to(tl.bfloat16)
    rtz = x.to(tl.float16, fp_downcast_rounding="rtz")
    tl.store(h_ptr + offs, h + rtz, mask=mask)
    tl.store(bf_ptr + offs, bf * 2.0, mask=mask)
    bits = x.to(tl.int32, bitcast=True)
    tl.store(i_ptr + offs, bits + x.to(tl.int32) + h.to(tl.int32) + bf.to(tl.float32).to(tl.int32), mask=mask)
    tl.store(u8_ptr + offs, (x > 0).to(tl.uint8) + x.to(tl.uint8), mask=mask)


@triton.jit
def where_kernel(x_ptr, y_ptr, out_ptr, n, threshold, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=float("-inf"))
    y = tl.load(y_ptr + offs, mask=mask, other=0.0)
    r = tl.where(x > threshold, x, y)
    r = tl.where(y != y, 0.0, r)  # NaN guard with a scalar branch
    r = tl.where(offs % 2 == 0, r, -r)
    tl.store(out_ptr + offs, r, mask=mask & (r > float("-inf")))


@triton.jit
def rand_kernel(out_ptr, iout_ptr, seed, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    r = tl.rand(seed, offs)
    g = tl.randn(seed, offs)
    i = tl.randint(seed, offs)
    tl.store(out_ptr + offs, r + g, mask=mask)
    tl.store(iout_ptr + offs, i, mask=mask)


@triton.jit
def dropout_kernel(x_ptr, out_ptr, n, p, seed, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    keep = tl.rand(seed, offs) > p
    tl.store(out_ptr + offs, tl.where(keep, x / (1 - p), 0.0), mask=mask)


_F32_3 = {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32"}

ENTRIES = [
    entry("add", add_kernel, _F32_3, {"BLOCK": 1024}, aligned=("x_ptr", "y_ptr", "out_ptr")),
    entry("add_fp16_w1", add_kernel, {"x_ptr": "*fp16", "y_ptr": "*fp16", "out_ptr": "*fp16", "n": "i32"},
          {"BLOCK": 256}, num_warps=1),
    entry("add_bf16_w2", add_kernel, {"x_ptr": "*bf16", "y_ptr": "*bf16", "out_ptr": "*bf16", "n": "i32"},
          {"BLOCK": 512}, num_warps=2),
    entry("add_f64_w8", add_kernel, {"x_ptr": "*fp64", "y_ptr": "*fp64", "out_ptr": "*fp64", "n": "i64"},
          {"BLOCK": 4096}, num_warps=8),
    entry("math_builtins", math_builtins_kernel, _F32_3, {"BLOCK": 256}),
    entry("libdevice_f32", libdevice_f32_kernel, _F32_3, {"BLOCK": 256}),
    entry("libdevice_f64", libdevice_f64_kernel, {"x_ptr": "*fp64", "out_ptr": "*fp64", "n": "i32"}, {"BLOCK": 128}),
    entry("int_ops", int_ops_kernel, {"a_ptr": "*i32", "b_ptr": "*i32", "out_ptr": "*i32", "uout_ptr": "*u32",
                                      "n": "i32"}, {"BLOCK": 512}),
    entry("casts", casts_kernel, {"x_ptr": "*fp32", "h_ptr": "*fp16", "bf_ptr": "*bf16", "i_ptr": "*i32",
                                  "u8_ptr": "*u8", "n": "i32"}, {"BLOCK": 512}),
    entry("where", where_kernel, {**_F32_3, "threshold": "fp32"}, {"BLOCK": 1024}),
    entry("rand", rand_kernel, {"out_ptr": "*fp32", "iout_ptr": "*i32", "seed": "i32", "n": "i32"}, {"BLOCK": 256}),
    entry("dropout", dropout_kernel, {"x_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "p": "fp32", "seed": "i64"},
          {"BLOCK": 1024}),
]
