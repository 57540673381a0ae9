"""Every kind of kernel argument Triton's launchers accept, through the CPU emulator's launcher, on
both archs: `triton.reinterpret` views (unsigned integers, fp8 stored as uint8), tuples and
namedtuples (nested, with constexpr and None leaves), and host `TensorDescriptor`s. Results are
compared with exact arithmetic or PyTorch."""

from __future__ import annotations

import random
from typing import Any, Callable, Iterator, NamedTuple

import pytest

torch = pytest.importorskip("torch")
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.tools.tensor_descriptor import TensorDescriptor  # noqa: E402

from triton_musa.backend.emulator import emulator_active  # noqa: E402
from triton_musa.backend.environment import ARCH_ENV  # noqa: E402

pytestmark = pytest.mark.skipif(not emulator_active(), reason="a MUSA device or another GPU driver is active here; "
                                "the emulator runs where none is (or with TRITON_MUSA_EMULATOR=1)")

ARCHS = ("mp_31", "mp_22")


@pytest.fixture(params=ARCHS)
def arch(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The emulated arch. Kernels are defined inside each test: a JITFunction fixes its target on
    first launch, so a fresh one per test follows TRITON_MUSA_ARCH."""
    monkeypatch.setenv(ARCH_ENV, request.param)
    yield request.param


def fresh(fn: Callable[..., Any]) -> Any:
    """A new JITFunction for `fn` (see the `arch` fixture)."""
    return triton.jit(fn)


# ---------------------------------------------------------------------------------------------------------------
# triton.reinterpret views (TensorWrapper)
# ---------------------------------------------------------------------------------------------------------------

_SIGNED = {8: torch.int8, 16: torch.int16, 32: torch.int32, 64: torch.int64}
_UNSIGNED = {8: tl.uint8, 16: tl.uint16, 32: tl.uint32, 64: tl.uint64}


def _unsigned_ops(x_ptr, y_ptr, shr_ptr, div_ptr, max_ptr, n, SHIFT: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask, other=1)
    tl.store(shr_ptr + offs, x >> SHIFT, mask=mask)  # logical shift: unsigned
    tl.store(div_ptr + offs, x // y, mask=mask)  # unsigned division
    tl.store(max_ptr + offs, tl.maximum(x, y), mask=mask)  # unsigned compare


def _random_bits(bits: int, n: int, rng: random.Random) -> torch.Tensor:
    """`n` random `bits`-wide patterns in a signed tensor, half of them with the sign bit set."""
    values = [rng.getrandbits(bits) for _ in range(n)]
    values = [v - (1 << bits) if v >> (bits - 1) else v for v in values]
    return torch.tensor(values, dtype=_SIGNED[bits])


@pytest.mark.parametrize("bits", [8, 16, 32, 64])
def test_reinterpret_unsigned(arch: str, bits: int) -> None:
    """Unsigned kernels on signed storage wrapped by triton.reinterpret, vs exact unsigned arithmetic."""
    kernel = fresh(_unsigned_ops)
    rng = random.Random(bits)
    n, shift, mask = 100, 3, (1 << bits) - 1
    x, y = _random_bits(bits, n, rng), _random_bits(bits, n, rng)
    y[y == 0] = 7
    outs = [torch.zeros(n, dtype=_SIGNED[bits]) for _ in range(3)]
    ty = _UNSIGNED[bits]
    kernel[(1, )](*(triton.reinterpret(t, ty) for t in (x, y, *outs)), n, SHIFT=shift, BLOCK=128)
    ux = [v & mask for v in x.tolist()]
    uy = [v & mask for v in y.tolist()]
    got = [[v & mask for v in t.tolist()] for t in outs]
    assert got[0] == [a >> shift for a in ux]
    assert got[1] == [a // b for a, b in zip(ux, uy)]
    assert got[2] == [max(a, b) for a, b in zip(ux, uy)]


def _fp8_double(x_ptr, y8_ptr, y32_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32) * 2.0
    tl.store(y32_ptr + offs, x, mask=mask)
    tl.store(y8_ptr + offs, x.to(y8_ptr.dtype.element_ty), mask=mask)


@pytest.mark.parametrize("fp8", ["e5m2", "e4m3"])
def test_reinterpret_fp8_storage(arch: str, fp8: str) -> None:
    """fp8 kept in uint8 tensors and viewed with triton.reinterpret: every finite code whose double is
    finite, upcast (exact) and doubled (exact), then stored back as fp8 (exact)."""
    kernel = fresh(_fp8_double)
    torch_ty, tl_ty = {"e5m2": (torch.float8_e5m2, tl.float8e5), "e4m3": (torch.float8_e4m3fn, tl.float8e4nv)}[fp8]
    codes = torch.arange(256, dtype=torch.int32).to(torch.uint8)
    values = codes.view(torch_ty).float()
    keep = torch.isfinite(values) & torch.isfinite((values * 2).to(torch_ty).float()) & \
        ((values * 2).to(torch_ty).float() == values * 2)
    x = codes[keep].contiguous()
    n = x.numel()
    y8, y32 = torch.zeros(n, dtype=torch.uint8), torch.zeros(n)
    kernel[(1, )](triton.reinterpret(x, tl_ty), triton.reinterpret(y8, tl_ty), y32, n, BLOCK=256)
    want = x.view(torch_ty).float() * 2
    torch.testing.assert_close(y32, want, rtol=0, atol=0)
    assert torch.equal(y8, want.to(torch_ty).view(torch.uint8))


# ---------------------------------------------------------------------------------------------------------------
# Tuples and namedtuples
# ---------------------------------------------------------------------------------------------------------------


def _tuple_store(lead, ptrs, vals, K: tl.constexpr, nested, tail):
    for i in tl.static_range(len(ptrs)):
        tl.store(ptrs[i], vals[i] * K + lead + tail)
    # nested = (scale, None, (src, extra, dst)): a tuple in a tuple, a None leaf in the middle
    tl.static_assert(nested[1] is None)
    tl.store(nested[2][2], tl.load(nested[2][0]) * nested[0] + nested[2][1])


@pytest.mark.parametrize("size", [0, 1, 3])
def test_tuple_arguments(arch: str, size: int) -> None:
    """Tuples of pointers and mixed scalars between scalars and constexprs: Triton flattens them
    depth-first into the kernel's parameters and drops constexpr and None leaves."""
    kernel = fresh(_tuple_store)
    outs = tuple(torch.zeros(1) for _ in range(size))
    vals = (1.5, 2, 3.25)[:size]
    src, dst = torch.tensor([6.0]), torch.zeros(1)
    kernel[(1, )](10, outs, vals, 3, (0.5, None, (src, 7, dst)), 100)
    assert [out.item() for out in outs] == [v * 3 + 10 + 100 for v in vals]
    assert dst.item() == 6.0 * 0.5 + 7


def _tuple_specialised(x_ptr, shape: tl.constexpr, strides, scale_and_reps, out_ptr):
    offs = tl.arange(0, shape[0])[:, None] * strides[0] + tl.arange(0, shape[1])[None, :] * strides[1]
    x = tl.load(x_ptr + offs)
    for _ in tl.range(0, scale_and_reps[1]):
        x = x * scale_and_reps[0]
    tl.store(out_ptr + offs, x)


def test_tuple_with_specialised_leaves(arch: str) -> None:
    """A constexpr tuple, and a runtime tuple whose stride 1 Triton specializes into a constexpr leaf."""
    kernel = fresh(_tuple_specialised)
    x = torch.randn(8, 16)
    out = torch.empty_like(x)
    kernel[(1, )](x, tuple(x.shape), x.stride(), (3.0, 2), out)
    torch.testing.assert_close(out, x * 9)


class Tile(NamedTuple):
    ptr: Any
    shape: tuple
    strides: tuple


class Affine(NamedTuple):
    scale: float
    bias: Any  # a pointer to one value


def _namedtuple_tile(src, dst, f, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.arange(0, BM)[:, None]
    rn = tl.arange(0, BN)[None, :]
    src_mask = (rm < src.shape[0]) & (rn < src.shape[1])
    x = tl.load(src.ptr + rm * src.strides[0] + rn * src.strides[1], mask=src_mask, other=0.0)
    y = x * f.scale + tl.load(f.bias)
    dst_mask = (rm < dst.shape[0]) & (rn < dst.shape[1])
    tl.store(dst.ptr + rm * dst.strides[0] + rn * dst.strides[1], y, mask=dst_mask)


@pytest.mark.parametrize("transposed", [False, True])
def test_namedtuple_arguments(arch: str, transposed: bool) -> None:
    """Namedtuples holding a pointer, a shape and strides (stride 1 specialized away), vs PyTorch."""
    kernel = fresh(_namedtuple_tile)
    x = torch.randn(20, 24)
    if transposed:
        x = x.t()
    y = torch.full((12, 10), float("nan"))
    bias = torch.tensor([0.25])
    kernel[(1, )](Tile(x, tuple(x.shape), x.stride()), Tile(y, tuple(y.shape), y.stride()), Affine(1.5, bias), BM=32,
                  BN=32)
    torch.testing.assert_close(y, x[:12, :10] * 1.5 + 0.25)


# ---------------------------------------------------------------------------------------------------------------
# Host tensor descriptors
# ---------------------------------------------------------------------------------------------------------------


def _desc_scale(in_desc, out_desc, scale, BM: tl.constexpr, BN: tl.constexpr):
    m = tl.program_id(0) * BM
    n = tl.program_id(1) * BN
    tile = in_desc.load([m, n])
    out_desc.store([m, n], tile * scale)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
def test_host_tensor_descriptor(arch: str, dtype: torch.dtype) -> None:
    """TensorDescriptor.from_tensor arguments on a ragged shape: out-of-bounds reads are zero and
    out-of-bounds writes dropped; the output's padding beyond its shape is untouched."""
    kernel = fresh(_desc_scale)
    M, N, BM, BN = 40, 24, 16, 16
    x = torch.randn(M, N, dtype=dtype)
    storage = torch.full((M, 32), -1.0, dtype=dtype)  # row stride 32, only 24 columns described
    out = storage[:, :N]
    kernel[(triton.cdiv(M, BM), triton.cdiv(N, BN))](TensorDescriptor.from_tensor(x, [BM, BN]),
                                                     TensorDescriptor.from_tensor(out, [BM, BN]), 2.0, BM=BM, BN=BN)
    torch.testing.assert_close(out, x * 2)
    assert bool((storage[:, N:] == -1).all())


def _desc_in_tuple(descs, out_ptr, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.arange(0, BM)[:, None]
    rn = tl.arange(0, BN)[None, :]
    tile = descs[0].load([0, 0]) + descs[1].load([0, 0])
    tl.store(out_ptr + rm * BN + rn, tile)


def test_host_tensor_descriptors_in_tuple(arch: str) -> None:
    """Descriptors inside a tuple argument expand in place (pointer, shapes, strides)."""
    kernel = fresh(_desc_in_tuple)
    a, b = torch.randn(8, 16), torch.randn(4, 16)
    out = torch.empty(8, 16)
    kernel[(1, )]((TensorDescriptor.from_tensor(a, [8, 16]), TensorDescriptor.from_tensor(b, [8, 16])), out, BM=8, BN=16)
    want = a.clone()
    want[:4] += b
    torch.testing.assert_close(out, want)


def test_host_tensor_descriptor_nan_padding_refused(arch: str) -> None:
    """padding="nan" is not in the kernel's IR, and kernel-argument descriptors pad with zero: the
    launcher says so instead of returning zeros."""
    kernel = fresh(_desc_scale)
    x, out = torch.randn(16, 16), torch.empty(16, 16)
    with pytest.raises(NotImplementedError, match="padding='nan'"):
        kernel[(1, 1)](TensorDescriptor.from_tensor(x, [16, 16], padding="nan"),
                       TensorDescriptor.from_tensor(out, [16, 16]), 1.0, BM=16, BN=16)


# ---------------------------------------------------------------------------------------------------------------
# Errors a user can cause
# ---------------------------------------------------------------------------------------------------------------


def test_tuple_length_mismatch_is_a_type_error(arch: str) -> None:
    """A compiled kernel called with a tuple of the wrong length reports the argument by name."""
    kernel = fresh(_tuple_store)
    outs = (torch.zeros(1), )
    nested = (2.0, None, (torch.zeros(1), 0, torch.zeros(1)))
    compiled = kernel[(1, )](0, outs, (1.0, ), 3, nested, 0)
    with pytest.raises(TypeError, match=r"'vals' must be a tuple of 1"):
        compiled[(1, 1, 1)](0, outs, (1.0, 2.0), 3, nested, 0)
