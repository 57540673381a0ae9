"""Triton 3.1/3.2's device-side descriptor API as code written for Moore Threads' Triton calls it
(``tl._experimental_descriptor_load/store`` over ``create_2d_tma_descriptor``), on the CPU emulator for both
archs, against torch: a tiled copy with tiles past the tensor's edge, and a matmul K loop over descriptors
whose elements are 16-bit integers, as over a raw address (``create_2d_tma_descriptor(t.data_ptr(), ...)``,
which the emulator refuses: it checks every access against a tensor's storage), read as ``tl.float16`` as
MT's kernels pass it."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.tools.experimental_descriptor import create_2d_tma_descriptor  # noqa: E402

from triton_musa.backend.emulator import emulator_active  # noqa: E402

pytestmark = pytest.mark.skipif(not emulator_active(), reason="a MUSA device or another GPU driver is active here; "
                                "the emulator runs where none is (or with TRITON_MUSA_EMULATOR=1)")


@triton.jit
def copy_kernel(in_desc, out_desc, BM: tl.constexpr, BN: tl.constexpr):
    m, n = tl.program_id(0) * BM, tl.program_id(1) * BN
    tile = tl._experimental_descriptor_load(in_desc, [m, n], [BM, BN], tl.float32)
    tl._experimental_descriptor_store(out_desc, tile * 2.0, [m, n])


def test_tiled_copy_with_edge_tiles(arch: str) -> None:
    M, N, BM, BN = 50, 40, 16, 32  # the last row and column of tiles hang past the edge
    x = torch.randn(M, N, generator=torch.Generator().manual_seed(31))
    y = torch.full((M, N), -1.0)
    src = create_2d_tma_descriptor(x, M, N, BM, BN, x.element_size())
    dst = create_2d_tma_descriptor(y, M, N, BM, BN, y.element_size())
    copy_kernel[(triton.cdiv(M, BM), triton.cdiv(N, BN))](src, dst, BM, BN)
    assert torch.equal(y, x * 2)


@triton.jit
def mm_kernel(a_desc, b_desc, c_desc, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    m, n = tl.program_id(0) * BM, tl.program_id(1) * BN
    acc = tl.zeros([BM, BN], tl.float32)
    for k in range(0, K, BK):
        a = tl._experimental_descriptor_load(a_desc, [m, k], [BM, BK], tl.float16)
        b = tl._experimental_descriptor_load(b_desc, [k, n], [BK, BN], tl.float16)
        acc = tl.dot(a, b, acc)
    tl._experimental_descriptor_store(c_desc, acc.to(tl.float16), [m, n])


def test_matmul_k_loop_over_integer_element_descriptors(arch: str) -> None:
    M, N, K, BM, BN, BK = 64, 64, 128, 64, 32, 32
    gen = torch.Generator().manual_seed(37)
    a = torch.randn(M, K, generator=gen).to(torch.float16)
    b = torch.randn(K, N, generator=gen).to(torch.float16)
    c = torch.empty(M, N, dtype=torch.float16)
    descs = [create_2d_tma_descriptor(t.view(torch.int16), rows, cols, br, bc, t.element_size())
             for t, rows, cols, br, bc in ((a, M, K, BM, BK), (b, K, N, BK, BN), (c, M, N, BM, BN))]
    mm_kernel[(M // BM, N // BN)](*descs, K, BM, BN, BK, num_warps=4)
    ref = (a.double() @ b.double())
    torch.testing.assert_close(c.double(), ref, rtol=2e-3, atol=2e-2)


@triton.jit
def wrong_shape_kernel(in_desc, BM: tl.constexpr):
    tl._experimental_descriptor_load(in_desc, [0, 0], [BM, BM], tl.float32)


def test_shape_must_be_the_descriptors_block(arch: str) -> None:
    x = torch.zeros(32, 32)
    with pytest.raises(triton.CompilationError, match=r"shape \[8, 8\] is not the descriptor's block \[16, 16\]"):
        wrong_shape_kernel[(1, )](create_2d_tma_descriptor(x, 32, 32, 16, 16, 4), 8)


# A descriptor in global memory, as MT's kernels (FlagGems' TmaAutoTuneHelper) take it: filled on the host by
# driver.active.utils.fill_2d_tma_descriptor into a 128-byte buffer (Triton's TMA_SIZE), copied to the
# device, and passed as a pointer.

def filled_descriptor(t: "torch.Tensor", rows: int, cols: int, block_rows: int, block_cols: int) -> "torch.Tensor":
    host = torch.empty(128, dtype=torch.int8)
    triton.runtime.driver.active.utils.fill_2d_tma_descriptor(t.data_ptr(), rows, cols, block_rows, block_cols,
                                                              t.element_size(), host.data_ptr())
    return host.clone()  # "to the device": the emulator's device memory is the host's


def test_tiled_copy_through_filled_descriptors(arch: str) -> None:
    M, N, BM, BN = 50, 40, 16, 32  # the last row and column of tiles hang past the edge
    x = torch.randn(M, N, generator=torch.Generator().manual_seed(41))
    y = torch.full((M, N), -1.0)
    copy_kernel[(triton.cdiv(M, BM), triton.cdiv(N, BN))](  # the same kernel, given pointers
        filled_descriptor(x, M, N, BM, BN), filled_descriptor(y, M, N, BM, BN), BM, BN)
    assert torch.equal(y, x * 2)


def test_matmul_k_loop_through_filled_descriptors(arch: str) -> None:
    M, N, K, BM, BN, BK = 64, 64, 128, 64, 32, 32
    gen = torch.Generator().manual_seed(43)
    a = torch.randn(M, K, generator=gen).to(torch.float16)
    b = torch.randn(K, N, generator=gen).to(torch.float16)
    c = torch.empty(M, N, dtype=torch.float16)
    descs = [filled_descriptor(t, rows, cols, br, bc)
             for t, rows, cols, br, bc in ((a, M, K, BM, BK), (b, K, N, BK, BN), (c, M, N, BM, BN))]
    mm_kernel[(M // BM, N // BN)](*descs, K, BM, BN, BK, num_warps=4)
    torch.testing.assert_close(c.double(), a.double() @ b.double(), rtol=2e-3, atol=2e-2)


def test_fill_checks_what_a_tme_descriptor_needs(arch: str) -> None:
    utils = triton.runtime.driver.active.utils
    x = torch.zeros(32, 30, dtype=torch.float16)
    host = torch.empty(128, dtype=torch.int8)
    with pytest.raises(ValueError, match=r"a row of 30 x 2-byte elements is not a multiple of 16 bytes"):
        utils.fill_2d_tma_descriptor(x.data_ptr(), 32, 30, 16, 16, 2, host.data_ptr())
    y = torch.zeros(32, 32, dtype=torch.float16)
    with pytest.raises(ValueError, match=r"is not 16-byte aligned"):
        utils.fill_2d_tma_descriptor(y.data_ptr() + 2, 32, 32, 16, 16, 2, host.data_ptr())
    with pytest.raises(ValueError, match=r"block dims \[512, 16\] exceed TME's 256 elements"):
        utils.fill_2d_tma_descriptor(y.data_ptr(), 32, 32, 512, 16, 2, host.data_ptr())
    with pytest.raises(ValueError, match=r"element_size must be 1, 2, 4 or 8 bytes, got 3"):
        utils.fill_1d_tma_descriptor(y.data_ptr(), 32, 16, 3, host.data_ptr())
    with pytest.raises(ValueError, match=r"the descriptor buffer holds 32 bytes, the descriptor 64"):
        utils.fill_2d_tma_descriptor(y.data_ptr(), 32, 32, 16, 16, 2, torch.empty(32, dtype=torch.int8))


@triton.jit
def three_d_kernel(desc_ptr):
    tl._experimental_descriptor_load(desc_ptr, [0, 0, 0], [2, 8, 8], tl.float32)


def test_a_filled_descriptor_is_one_or_two_dimensional(arch: str) -> None:
    x = torch.zeros(2, 8, 8)
    with pytest.raises(triton.CompilationError, match=r"is 1-D or 2-D; the tile asked for is 3-D"):
        three_d_kernel[(1, )](filled_descriptor(x.view(16, 8), 16, 8, 8, 8))


# MT's fifth argument, is_transpose: the operand is stored transposed and its descriptor is over the stored
# (reversed) dims, while the kernel names the tile of the logical matrix (FlagGems' addmm for a column-major A).

@triton.jit
def transposed_a_mm_kernel(a_desc, b_desc, c_desc, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    m, n = tl.program_id(0) * BM, tl.program_id(1) * BN
    acc = tl.zeros([BM, BN], tl.float32)
    for k in range(0, K, BK):
        a = tl._experimental_descriptor_load(a_desc, [m, k], [BM, BK], tl.float16, True)
        b = tl._experimental_descriptor_load(b_desc, [k, n], [BK, BN], tl.float16, False)
        acc = tl.dot(a, b, acc)
    tl._experimental_descriptor_store(c_desc, acc.to(tl.float16), [m, n])


@pytest.mark.parametrize("kind", ["filled", "created"])
def test_is_transpose_reads_the_logical_tile_of_a_transposed_operand(arch: str, kind: str) -> None:
    M, N, K, BM, BN, BK = 80, 64, 96, 32, 32, 32  # the last row of tiles hangs past M
    gen = torch.Generator().manual_seed(47)
    a_stored = torch.randn(K, M, generator=gen).to(torch.float16)  # A (M x K) column-major
    b = torch.randn(K, N, generator=gen).to(torch.float16)
    c = torch.full((M, N), -1.0, dtype=torch.float16)
    # (tensor, dims outermost first, block): A's descriptor is over its stored K x M layout.
    layouts = ((a_stored, K, M, BK, BM), (b, K, N, BK, BN), (c, M, N, BM, BN))
    if kind == "filled":
        descs = [filled_descriptor(t, rows, cols, br, bc) for t, rows, cols, br, bc in layouts]
    else:
        descs = [create_2d_tma_descriptor(t, rows, cols, br, bc, t.element_size()) for t, rows, cols, br, bc in layouts]
    transposed_a_mm_kernel[(triton.cdiv(M, BM), N // BN)](*descs, K, BM, BN, BK, num_warps=4)
    torch.testing.assert_close(c.double(), a_stored.t().double() @ b.double(), rtol=2e-3, atol=2e-2)


@triton.jit
def transpose_flag_kernel(desc, out, FLAG: tl.constexpr):
    tile = tl._experimental_descriptor_load(desc, [0, 0], [8, 8], tl.float32, FLAG)
    tl.store(out + tl.arange(0, 8)[:, None] * 8 + tl.arange(0, 8)[None, :], tile)


def test_is_transpose_must_be_a_constexpr_bool(arch: str) -> None:
    x = torch.zeros(8, 8)
    with pytest.raises(triton.CompilationError, match=r"is_transpose must be a constexpr bool, got 1"):
        transpose_flag_kernel[(1, )](filled_descriptor(x, 8, 8, 8, 8), torch.empty(64), 1)
