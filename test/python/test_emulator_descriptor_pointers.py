"""Descriptors made in the kernel whose tiles TME does not take (every one on mp_22; on mp_31's
emulator, boxes TME has no form for) are read and written through pointers
(--musa-lower-descriptors-to-pointers), so that the pipeliner rings their loads as async copies.
Each kernel runs on the emulator on both archs against PyTorch."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

from triton_musa.backend.emulator import emulator_active  # noqa: E402
from triton_musa.backend.lowering import pipeline_report  # noqa: E402

pytestmark = pytest.mark.skipif(not emulator_active(), reason="a MUSA device or another GPU driver is active here; "
                                "the emulator runs where none is (or with TRITON_MUSA_EMULATOR=1)")


def _made_descriptor_persistent_matmul(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                                       BK: tl.constexpr, PROGRAMS: tl.constexpr):
    # Tutorial 09's device-descriptor matmul: descriptors made in the kernel, the tile loop and the K loop
    # flattened, B given as (N, K) and transposed for the dot, the tile stored through a descriptor.
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1], block_shape=[BN, BK])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    tiles_n = tl.cdiv(N, BN)
    num_tiles = tl.cdiv(M, BM) * tiles_n
    for tile in tl.range(tl.program_id(0), num_tiles, PROGRAMS, flatten=True):
        m = (tile // tiles_n) * BM
        n = (tile % tiles_n) * BN
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for ki in range(tl.cdiv(K, BK)):
            a = a_desc.load([m, ki * BK])
            b = b_desc.load([n, ki * BK])
            acc = tl.dot(a, b.T, acc)
        c_desc.store([m, n], acc.to(tl.float16))


@pytest.mark.parametrize("num_stages", [1, 3])
def test_made_descriptor_persistent_matmul(arch: str, num_stages: int) -> None:
    """Ragged M, N and K (the last tiles partly out of bounds: loads read zero, stores drop those
    elements), 6 tiles on 4 programs; on mp_22 the loads are pipelined as async copies."""
    kernel = triton.jit(_made_descriptor_persistent_matmul)
    BM, BN, BK = 32, 32, 32
    M, N, K = 2 * BM - 8, 3 * BN - 8, 3 * BK - 16
    torch.manual_seed(num_stages)
    a = torch.randn(M, K, dtype=torch.float16)
    b = torch.randn(N, K, dtype=torch.float16)
    c = torch.full((M, N), 7.0, dtype=torch.float16)
    compiled = kernel[(4, )](a, b, c, M, N, K, BM=BM, BN=BN, BK=BK, PROGRAMS=4, num_stages=num_stages)
    torch.testing.assert_close(c.float(), a.float() @ b.float().T, rtol=1e-2, atol=1e-1)
    remarks = pipeline_report(compiled.asm["ttgir"], num_stages, target="emulator")
    expected = {"mp_31": "loop pipelined: 2 loads as TME tiles", "mp_22": "loop pipelined: 2 loads as async copies"}
    if num_stages > 1:
        assert any(expected[arch] in r for r in remarks), remarks


def _window(x_ptr, out_ptr, M, N, I, J, BM: tl.constexpr, BN: tl.constexpr, PAD: tl.constexpr):
    x_desc = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN], padding_option=PAD)
    out_desc = tl.make_tensor_descriptor(out_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    t = x_desc.load([I, J])
    rm = tl.arange(0, BM)[:, None]
    rn = tl.arange(0, BN)[None, :]
    tl.store(out_ptr + M * N + rm * BN + rn, t)  # the tile as read, after the tensor
    out_desc.store([I, J], t + 1)


@pytest.mark.parametrize("pad", ["zero", "nan"])
def test_window_past_every_edge(arch: str, pad: str) -> None:
    """A box of 16-byte rows (narrower than TME's 32 bytes: pointers on both archs) starting at a
    negative row and running past the last column: the in-bounds part reads the tensor, the rest
    reads the padding; the store writes the in-bounds part only."""
    kernel = triton.jit(_window)
    M, N, BM, BN = 12, 20, 16, 8
    I, J = -4, N - 4
    x = torch.randn(M, N, dtype=torch.float16)
    out = torch.full((M * N + BM * BN, ), -3.0, dtype=torch.float16)
    kernel[(1, )](x, out, M, N, I, J, BM=BM, BN=BN, PAD=pad)
    tile = out[M * N:].view(BM, BN)
    expected = torch.full((BM, BN), 0.0 if pad == "zero" else float("nan"), dtype=torch.float16)
    expected[-I:-I + M, :N - J] = x[:BM + I, J:]
    torch.testing.assert_close(tile, expected, equal_nan=True)
    written = torch.full((M, N), -3.0, dtype=torch.float16)
    written[:BM + I, J:] = x[:BM + I, J:] + 1
    torch.testing.assert_close(out[:M * N].view(M, N), written)
