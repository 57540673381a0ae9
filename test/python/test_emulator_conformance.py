"""Language features Triton's own tests use that were missing (issue 12), on the CPU emulator for
both archs, against exact results."""

from __future__ import annotations

import re
from typing import Any

import pytest

torch = pytest.importorskip("torch")
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

from triton_musa.backend.emulator import emulator_active  # noqa: E402

pytestmark = pytest.mark.skipif(not emulator_active(), reason="a MUSA device or another GPU driver is active here; "
                                "the emulator runs where none is (or with TRITON_MUSA_EMULATOR=1)")


def test_split_to_scalars(arch: str) -> None:
    # tl.split of a 2-element tensor gives two scalars through tt.unsplat.
    def kernel(x_ptr, out_ptr):
        lo, hi = tl.split(tl.load(x_ptr + tl.arange(0, 2)))
        tl.store(out_ptr, lo * 10 + hi)
        tl.store(out_ptr + 1, hi - lo)

    x, out = torch.tensor([3, 4], dtype=torch.int32), torch.zeros(2, dtype=torch.int32)
    compiled = triton.jit(kernel)[(1, )](x, out)
    assert "tt.unsplat" in compiled.asm["ttgir"]
    assert out.tolist() == [34, 1]


@pytest.mark.parametrize("kind", ["add", "min", "max", "and", "or", "xor"])
def test_descriptor_reduce(arch: str, kind: str) -> None:
    # desc.atomic_<kind>: every element of a tile combined into global memory; the tile hangs past the
    # tensor's edge (rows 40..63 of 50, columns 16..47 of 40), whose part outside is dropped.
    def kernel(out_ptr, src_ptr, M, N, KIND: tl.constexpr):
        desc = tl.make_tensor_descriptor(out_ptr, shape=[M, N], strides=[N, 1], block_shape=[32, 32])
        rows, cols = tl.arange(0, 32), tl.arange(0, 32)
        tile = tl.load(src_ptr + rows[:, None] * 32 + cols[None, :])
        if KIND == "add":
            desc.atomic_add([40, 16], tile)
        elif KIND == "min":
            desc.atomic_min([40, 16], tile)
        elif KIND == "max":
            desc.atomic_max([40, 16], tile)
        elif KIND == "and":
            desc.atomic_and([40, 16], tile)
        elif KIND == "or":
            desc.atomic_or([40, 16], tile)
        else:
            desc.atomic_xor([40, 16], tile)

    M, N = 50, 40
    gen = torch.Generator().manual_seed(3)
    out = torch.randint(-1000, 1000, (M, N), generator=gen, dtype=torch.int32)
    src = torch.randint(-1000, 1000, (32, 32), generator=gen, dtype=torch.int32)
    want = out.clone()
    region = want[40:72, 16:48]  # a view: rows 40..49, columns 16..39
    part = src[:region.shape[0], :region.shape[1]]
    op = {"add": torch.add, "min": torch.minimum, "max": torch.maximum, "and": torch.bitwise_and,
          "or": torch.bitwise_or, "xor": torch.bitwise_xor}[kind]
    region.copy_(op(region, part))
    # Device-side descriptors need a scratch allocator (Triton's contract).
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8))
    triton.jit(kernel)[(1, )](out, src, M, N, kind)
    assert torch.equal(out, want)


def test_loop_carried_descriptors(arch: str) -> None:
    # Descriptors made in the kernel and carried through loops' iteration values, remade in the body
    # (another base and shape each step), read after the loop, and carried by an inner loop too.
    def kernel(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr, STEPS: tl.constexpr):
        desc = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
        acc = tl.zeros([BM, BN], tl.float32)
        for i in range(STEPS):
            for j in range(2):
                acc += desc.load([i * BM, j * BN])
                desc = tl.make_tensor_descriptor(x_ptr + (i + 1) * N, shape=[M - i - 1, N], strides=[N, 1],
                                                 block_shape=[BM, BN])
        acc += desc.load([0, 0])
        out = tl.make_tensor_descriptor(y_ptr, shape=[BM, BN], strides=[BN, 1], block_shape=[BM, BN])
        out.store([0, 0], acc)

    M, N, BM, BN, STEPS = 64, 32, 8, 16, 3
    x = torch.randn(M, N, generator=torch.Generator().manual_seed(5))
    y = torch.empty(BM, BN)
    want = torch.zeros(BM, BN, dtype=torch.float64)
    base = 0  # the row the current descriptor starts at
    for i in range(STEPS):
        for j in range(2):
            rows = x[base:][i * BM:i * BM + BM, j * BN:j * BN + BN].double()
            want[:rows.shape[0], :rows.shape[1]] += rows
            base = i + 1
    want += x[base:base + BM, :BN].double()
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8))
    compiled = triton.jit(kernel)[(1, )](x, y, M, N, BM, BN, STEPS)
    torch.testing.assert_close(y.double(), want, rtol=1e-6, atol=1e-5)
    assert "!tt.tensordesc" in compiled.asm["ttgir"]


def test_descriptor_reduce_float_add(arch: str) -> None:
    def kernel(out_ptr, src_ptr, M, N):
        desc = tl.make_tensor_descriptor(out_ptr, shape=[M, N], strides=[N, 1], block_shape=[16, 32])
        rows, cols = tl.arange(0, 16), tl.arange(0, 32)
        desc.atomic_add([8, 0], tl.load(src_ptr + rows[:, None] * 32 + cols[None, :]))

    out, src = torch.zeros(20, 32), torch.randn(16, 32)
    want = out.clone()
    want[8:20] += src[:12]
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8))
    triton.jit(kernel)[(1, )](out, src, 20, 32)
    torch.testing.assert_close(out, want)


def test_dot3d_f16_out_rounds_once(arch: str) -> None:
    # A batched fp16 dot with out_dtype=fp16 (K = 64): the sum is accumulated in f32 and rounded to
    # f16 once, so every element is within half an f16 ulp of the exact value plus the f32
    # accumulation error. Rounding to f16 after each multiply-add missed this by up to 4 ulps.
    def kernel(x_ptr, y_ptr, o_ptr, B: tl.constexpr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
        b = tl.arange(0, B)[:, None, None]
        m = (tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M))[None, :, None]
        n = (tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N))[None, None, :]
        k = tl.arange(0, K)
        x = tl.load(x_ptr + b * M * K + m * K + k[None, None, :])
        y = tl.load(y_ptr + b * K * N + k[None, :, None] * N + n)
        tl.store(o_ptr + b * M * N + m * N + n, tl.dot(x, y, out_dtype=tl.float16))

    B, M, N, K = 2, 64, 64, 64
    gen = torch.Generator().manual_seed(17)
    x = torch.randn(B, M, K, generator=gen).to(torch.float16)
    y = torch.randn(B, K, N, generator=gen).to(torch.float16)
    out = torch.full((B, M, N), float("nan"), dtype=torch.float16)
    triton.jit(kernel)[(M // 32, N // 32)](x, y, out, B, M, N, K, 32, 32, num_warps=4)
    exact = x.double() @ y.double()
    # Half an ulp of the f16 result (normal range: |v| >= 2^-14 here) plus K f32 roundings.
    half_ulp = torch.pow(2.0, torch.floor(torch.log2(exact.abs().clamp_min(2.0**-14))) - 11)
    f32_error = K * 2.0**-24 * (x.double().abs() @ y.double().abs())
    err = (out.double() - exact).abs()
    assert (err <= half_ulp + f32_error).all(), f"max error {err.max().item():.3g} on {arch}"


@triton.jit
def _sub_or_mul_pair(x0, x1, y0, y1):
    # pack = 2: both elements of operand x, then both of y; both elements of result 0, then of
    # result 1. Per element: x - 2y where x > y, else x * y (a branch, and not symmetric in x, y),
    # and the integer code of the branch taken.
    if x0 > y0:
        r0 = x0 - 2 * y0
        c0 = 1
    else:
        r0 = x0 * y0
        c0 = 2
    if x1 > y1:
        r1 = x1 - 2 * y1
        c1 = 1
    else:
        r1 = x1 * y1
        c1 = 2
    return r0, r1, c0, c1


@pytest.mark.parametrize("block, num_warps", [(128, 4), (1024, 4), (256, 1)])
def test_map_elementwise_pack2(arch: str, block: int, num_warps: int) -> None:
    # tl.map_elementwise(fn, x, y, pack=2): fn sees two elements of each operand at a time. With
    # BLOCK=128 and 4 warps of 32 lanes each thread holds one element (the pair is filled up);
    # with 128-lane warps (mp_22) BLOCK=256 on one warp holds two, BLOCK=1024 several pairs.
    def kernel(x_ptr, y_ptr, r_ptr, c_ptr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        x, y = tl.load(x_ptr + offs), tl.load(y_ptr + offs)
        r, c = tl.map_elementwise(_sub_or_mul_pair, x, y, pack=2)
        tl.store(r_ptr + offs, r)
        tl.store(c_ptr + offs, c)

    gen = torch.Generator().manual_seed(block)
    x = torch.randint(-8, 8, (block, ), generator=gen).float()
    y = torch.randint(-8, 8, (block, ), generator=gen).float()
    r, c = torch.full_like(x, float("nan")), torch.zeros(block, dtype=torch.int32)
    compiled = triton.jit(kernel)[(1, )](x, y, r, c, block, num_warps=num_warps)
    assert "pack = 2" in compiled.asm["ttgir"]
    assert torch.equal(r, torch.where(x > y, x - 2 * y, x * y))
    assert torch.equal(c, torch.where(x > y, 1, 2).int())


@triton.jit
def _licm_for(x_ptr, n):
    for i in tl.range(0, n, disable_licm=True):
        tl.store(x_ptr + i, tl.load(x_ptr) + i)


@triton.jit
def _licm_while(x_ptr, n):
    i = 0
    while tl.condition(i < n, disable_licm=True):
        tl.store(x_ptr + i, tl.load(x_ptr) * 2 + i)
        i += 1


@pytest.mark.parametrize("fn", [_licm_for, _licm_while], ids=["for", "while"])
def test_disable_licm_reaches_llvm_ir(arch: str, fn: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # tl.range / tl.condition(..., disable_licm=True): the device LLVM IR (the llir stage, made with
    # the emulator off) has the loop's !llvm.loop metadata with "llvm.licm.disable"; the same kernel
    # on the emulator computes what the loop says.
    from triton.backends.compiler import GPUTarget
    from triton_musa.backend import emulator as musa_emulator

    src = triton.compiler.ASTSource(fn=fn, signature={"x_ptr": "*i32", "n": "i32"}, constexprs={})
    monkeypatch.setenv("TRITON_MUSA_EMULATOR", "0")
    musa_emulator.emulator_active.cache_clear()
    try:
        llir = triton.compile(src, target=GPUTarget("musa", arch, 32 if arch == "mp_31" else 128)).asm["llir"]
    finally:
        monkeypatch.delenv("TRITON_MUSA_EMULATOR")
        musa_emulator.emulator_active.cache_clear()
    llir = llir.decode() if isinstance(llir, bytes) else llir
    assert re.search(r"br .*!llvm\.loop !\d+", llir), llir
    assert '!{!"llvm.licm.disable"}' in llir

    x = torch.full((6, ), 5, dtype=torch.int32)
    fn[(1, )](x, 6)
    # Every iteration reloads x[0], which iteration 0 rewrote.
    want = [5, 6, 7, 8, 9, 10] if fn is _licm_for else [10, 21, 22, 23, 24, 25]
    assert x.tolist() == want


@pytest.mark.parametrize("sem", ["acquire", "release", "relaxed", "acq_rel"])
def test_scalar_atomic_cas_result(arch: str, sem: str) -> None:
    # A scalar tl.atomic_cas's old value, used by the program: of 4 programs exactly one sees 0 and
    # swaps in 7; the others see 7.
    def kernel(lock_ptr, out_ptr, SEM: tl.constexpr):
        old = tl.atomic_cas(lock_ptr, 0, 7, sem=SEM)
        tl.store(out_ptr + tl.program_id(0), old)

    lock, out = torch.zeros(1, dtype=torch.int32), torch.full((4, ), -1, dtype=torch.int32)
    triton.jit(kernel)[(4, )](lock, out, sem)
    assert lock.item() == 7 and sorted(out.tolist()) == [0, 7, 7, 7]
