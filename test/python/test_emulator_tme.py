"""Tensor descriptors through the tensor memory engine (TME) and integer async barriers on the CPU
emulator (--musa-lower-descriptors-to-tme on mp_31; mp_22 has no TME and keeps bounds-checked
global accesses). Every kernel runs on both archs against PyTorch; on mp_31 the emulated kernel
must really call the TME runtime (checked on its `emuir`), on mp_22 it must not. The runtime's
async barriers are also driven directly: expected bytes, arrival counts, phases, and a wait that
can never complete reported as a deadlock naming the barrier."""

from __future__ import annotations

import struct
from typing import Any, Callable

import pytest

torch = pytest.importorskip("torch")
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.tools.tensor_descriptor import TensorDescriptor  # noqa: E402

from triton_musa import _musa_mlir  # noqa: E402
from triton_musa.backend.emulator import emulator_active  # noqa: E402
from triton_musa.backend.environment import RACECHECK_ENV  # noqa: E402

pytestmark = pytest.mark.skipif(not emulator_active(), reason="a MUSA device or another GPU driver is active here; "
                                "the emulator runs where none is (or with TRITON_MUSA_EMULATOR=1)")


def fresh(fn: Callable[..., Any]) -> Any:
    """A new JITFunction (it fixes its target on first launch; see test_emulator_args.py)."""
    return triton.jit(fn)


def check_path(compiled: Any, arch: str, load: bool = True, store: bool = True) -> None:
    """TME calls exactly where the arch has TME."""
    emuir = compiled.asm["emuir"]
    emuir = emuir.decode() if isinstance(emuir, bytes) else str(emuir)
    for used, name in ((load, "__musa_emu_tme_load"), (store, "__musa_emu_tme_store")):
        if used:
            assert (name in emuir) == (arch == "mp_31"), name


def _desc_copy_scale(in_desc, out_desc, scale, BM: tl.constexpr, BN: tl.constexpr):
    m = tl.program_id(0) * BM
    n = tl.program_id(1) * BN
    out_desc.store([m, n], in_desc.load([m, n]) * scale)


@pytest.mark.parametrize("dtype", [torch.float16, torch.float32])
@pytest.mark.parametrize("shape,block", [((64, 64), (32, 32)),    # in bounds
                                         ((40, 72), (16, 32)),    # ragged: out-of-bounds tiles
                                         ((33, 312), (8, 256))])  # box wider than 256 B: split
def test_host_descriptor_load_store(arch: str, dtype: torch.dtype, shape: tuple, block: tuple) -> None:
    """TensorDescriptor.from_tensor + desc.load/store: out-of-bounds reads are zero (the scale keeps
    them zero), out-of-bounds writes dropped; the destination's columns beyond its shape stay."""
    if dtype == torch.float32 and block[1] == 256:
        block = (8, 128)  # 512 B, still split
    kernel = fresh(_desc_copy_scale)
    M, N = shape
    BM, BN = block
    x = torch.randn(M, N, dtype=dtype)
    storage = torch.full((M, N + 8), -1.0, dtype=dtype)
    out = storage[:, :N]
    compiled = kernel[(triton.cdiv(M, BM), triton.cdiv(N, BN))](TensorDescriptor.from_tensor(x, [BM, BN]),
                                                                TensorDescriptor.from_tensor(out, [BM, BN]), 3.0,
                                                                BM=BM, BN=BN)
    torch.testing.assert_close(out, x * 3)
    assert bool((storage[:, N:] == -1).all())
    check_path(compiled, arch)


def _tile_sum_oob(in_desc, out_ptr, BM: tl.constexpr, BN: tl.constexpr):
    # One tile at (-BM/2, N - BN/2): three quarters of it lie outside the tensor.
    m = -BM // 2
    n = in_desc.shape[1] - BN // 2
    t = in_desc.load([m, n])
    rm = tl.arange(0, BM)[:, None]
    rn = tl.arange(0, BN)[None, :]
    tl.store(out_ptr + rm * BN + rn, t)


@pytest.mark.parametrize("dtype", [torch.float16, torch.float32])
def test_out_of_bounds_box_reads_zero(arch: str, dtype: torch.dtype) -> None:
    """A box starting at a negative row and past the last column: only the in-bounds quarter holds
    data, the rest reads zero."""
    kernel = fresh(_tile_sum_oob)
    M, N, BM, BN = 24, 48, 16, 32
    x = torch.randn(M, N, dtype=dtype) + 5  # no zeros in bounds
    out = torch.full((BM, BN), 7.0, dtype=dtype)
    compiled = kernel[(1, )](TensorDescriptor.from_tensor(x, [BM, BN]), out, BM=BM, BN=BN)
    expected = torch.zeros(BM, BN, dtype=dtype)
    expected[BM // 2:, :BN // 2] = x[:BM // 2, N - BN // 2:]
    torch.testing.assert_close(out, expected)
    check_path(compiled, arch, store=False)


def _made_desc(x_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr, PAD: tl.constexpr):
    x_desc = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN], padding_option=PAD)
    out_desc = tl.make_tensor_descriptor(out_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    m = tl.program_id(0) * BM
    n = tl.program_id(1) * BN
    out_desc.store([m, n], x_desc.load([m, n]) + 1)


@pytest.mark.parametrize("dtype", [torch.float16, torch.float32])
def test_device_made_descriptor(arch: str, dtype: torch.dtype) -> None:
    """tl.make_tensor_descriptor inside the kernel, ragged shape, zero padding."""
    kernel = fresh(_made_desc)
    M, N, BM, BN = 48, 40, 16, 32
    x = torch.randn(M, N, dtype=dtype)
    out = torch.zeros(M, N, dtype=dtype)
    compiled = kernel[(triton.cdiv(M, BM), triton.cdiv(N, BN))](x, out, M, N, BM=BM, BN=BN, PAD="zero")
    torch.testing.assert_close(out, x + 1)
    check_path(compiled, arch)


def _nan_pad_probe(x_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    x_desc = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN], padding_option="nan")
    t = x_desc.load([0, 0])
    rm = tl.arange(0, BM)[:, None]
    rn = tl.arange(0, BN)[None, :]
    tl.store(out_ptr + rm * BN + rn, t)


@pytest.mark.parametrize("dtype", [torch.float16, torch.float32])
def test_nan_padding(arch: str, dtype: torch.dtype) -> None:
    """padding_option='nan': the out-of-bounds part of the box reads NaN."""
    kernel = fresh(_nan_pad_probe)
    M, N, BM, BN = 10, 20, 16, 32
    x = torch.randn(M, N, dtype=dtype)
    out = torch.zeros(BM, BN, dtype=dtype)
    compiled = kernel[(1, )](x, out, M, N, BM=BM, BN=BN)
    torch.testing.assert_close(out[:M, :N], x)
    assert bool(out[M:, :].isnan().all()) and bool(out[:, N:].isnan().all())
    check_path(compiled, arch, store=False)


def _k_loop_matmul(a_desc, b_desc, c_desc, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    m = tl.program_id(0) * BM
    n = tl.program_id(1) * BN
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = a_desc.load([m, k])
        b = b_desc.load([k, n])
        acc = tl.dot(a, b, acc)
    c_desc.store([m, n], acc)


def test_descriptor_loads_in_k_loop(arch: str) -> None:
    """Two descriptor loads per iteration of a K loop (two barriers, phases flipping every
    iteration), a ragged K whose last tiles are partly out of bounds, against torch.matmul."""
    kernel = fresh(_k_loop_matmul)
    M, N, K, BM, BN, BK = 64, 32, 80, 32, 32, 32
    a = torch.randn(M, K, dtype=torch.float16)
    b = torch.randn(K, N, dtype=torch.float16)
    c = torch.zeros(M, N, dtype=torch.float32)
    compiled = kernel[(M // BM, N // BN)](TensorDescriptor.from_tensor(a, [BM, BK]),
                                          TensorDescriptor.from_tensor(b, [BK, BN]),
                                          TensorDescriptor.from_tensor(c, [BM, BN]), K, BM=BM, BN=BN, BK=BK)
    torch.testing.assert_close(c, a.float() @ b.float(), rtol=1e-3, atol=1e-3)
    check_path(compiled, arch)
    if arch == "mp_31":
        assert b"__musa_emu_async_bar_wait" in compiled.asm["emuir"]


# ---------------------------------------------------------------------------------------------------------------
# Pipelined descriptor loads: a ring of num_stages buffers and barriers (mp_31), from --musa-pipeline-loops


def emuir_text(compiled: Any) -> str:
    emuir = compiled.asm["emuir"]
    return emuir.decode() if isinstance(emuir, bytes) else str(emuir)


def check_ring(compiled: Any, arch: str, loads: int, stages: int) -> None:
    """mp_31: one barrier per load and stage, initialized once each; the ring's slots in one allocation."""
    if arch != "mp_31":
        assert "__musa_emu_async_bar_init" not in emuir_text(compiled)
        return
    assert emuir_text(compiled).count("llvm.call @__musa_emu_async_bar_init(") == loads * stages


@pytest.mark.parametrize("num_stages", [1, 2, 3, 4])
@pytest.mark.parametrize("K", [192, 176, 16])  # whole tiles; a ragged last tile; fewer iterations than stages
def test_pipelined_k_loop(arch: str, num_stages: int, K: int) -> None:
    """The K loop's two descriptor loads, pipelined num_stages deep: the loads of the next iterations are
    in flight while the current one computes; ragged K reads zeros past the end; against torch.matmul."""
    kernel = fresh(_k_loop_matmul)
    M, N, BM, BN, BK = 64, 32, 32, 32, 32
    torch.manual_seed(num_stages * 1000 + K)
    a = torch.randn(M, K, dtype=torch.float16)
    b = torch.randn(K, N, dtype=torch.float16)
    c = torch.full((M, N), 5.0, dtype=torch.float32)
    compiled = kernel[(M // BM, N // BN)](TensorDescriptor.from_tensor(a, [BM, BK]),
                                          TensorDescriptor.from_tensor(b, [BK, BN]),
                                          TensorDescriptor.from_tensor(c, [BM, BN]), K, BM=BM, BN=BN, BK=BK,
                                          num_stages=num_stages)
    torch.testing.assert_close(c, a.float() @ b.float(), rtol=1e-3, atol=1e-3)
    check_path(compiled, arch)
    check_ring(compiled, arch, loads=2, stages=num_stages)


def _mixed_k_loop(a_desc, b_ptr, c_ptr, K, stride_bk, stride_cm, BM: tl.constexpr, BN: tl.constexpr,
                  BK: tl.constexpr):
    m = tl.program_id(0) * BM
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = a_desc.load([m, k])
        kk = k + rk
        b = tl.load(b_ptr + kk[:, None] * stride_bk + rn[None, :], mask=kk[:, None] < K, other=0.0)
        acc = tl.dot(a, b, acc)
    rm = m + tl.arange(0, BM)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc)


@pytest.mark.parametrize("num_stages", [1, 3])
@pytest.mark.parametrize("K", [176, 16])  # a ragged last tile; fewer iterations than stages
def test_descriptor_and_pointer_loads_in_one_loop(arch: str, num_stages: int, K: int) -> None:
    """One K loop reading A through a descriptor and B through pointers, both pipelined by
    --musa-pipeline-loops: B as async copies into a ring, A as TME tiles into a ring on mp_31 (mp_22 has
    no TME: A is read through pointers, --musa-lower-descriptors-to-pointers, and is an async copy too);
    ragged K reads zeros past the end; against torch.matmul."""
    from triton_musa.backend.lowering import pipeline_report
    kernel = fresh(_mixed_k_loop)
    M, N, BM, BN, BK = 64, 64, 64, 32, 32
    torch.manual_seed(num_stages * 100 + K)
    a = torch.randn(M, K, dtype=torch.float16)
    b = torch.randn(K, N, dtype=torch.float16)
    c = torch.full((M, N), 5.0, dtype=torch.float32)
    compiled = kernel[(M // BM, N // BN)](TensorDescriptor.from_tensor(a, [BM, BK]), b, c, K, b.stride(0),
                                          c.stride(0), BM=BM, BN=BN, BK=BK, num_stages=num_stages)
    torch.testing.assert_close(c, a.float() @ b.float(), rtol=1e-3, atol=1e-3)
    check_path(compiled, arch, store=False)
    [remark] = pipeline_report(compiled.asm["ttgir"], num_stages, target="emulator")
    expected = {"mp_31": "loop pipelined: 1 load as async copies and 1 load as TME tiles",
                "mp_22": "loop pipelined: 2 loads as async copies ("}[arch]
    assert (expected if num_stages > 1 else "loop not pipelined: num_stages is 1") in remark, remark
    check_ring(compiled, arch, loads=1, stages=num_stages)


def _flattened_persistent_matmul(a_desc, b_desc, c_desc, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                                 BK: tl.constexpr, PROGRAMS: tl.constexpr):
    # Tutorial 09's shape with descriptors: the tile loop and the K loop flattened into one loop, the tile
    # offsets from an scf.if taken when a tile starts, the epilogue stored through a descriptor; Triton puts
    # the whole loop under an scf.if (the loop runs at all).
    tiles_n = tl.cdiv(N, BN)
    num_tiles = tl.cdiv(M, BM) * tiles_n
    k_tiles = tl.cdiv(K, BK)
    for tile in tl.range(tl.program_id(0), num_tiles, PROGRAMS, flatten=True):
        m = (tile // tiles_n) * BM
        n = (tile % tiles_n) * BN
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for ki in range(k_tiles):
            a = a_desc.load([m, ki * BK])
            b = b_desc.load([n, ki * BK])
            acc = tl.dot(a, b.T, acc)
        c_desc.store([m, n], acc.to(tl.float16))


@pytest.mark.parametrize("num_stages, tile", [(2, 32), (3, 32), (3, 128)])
def test_flattened_persistent_descriptor_loop(monkeypatch: pytest.MonkeyPatch, arch: str, num_stages: int,
                                              tile: int) -> None:
    """6 tiles on 4 programs, 3 K steps each (the last one ragged): the TME tiles of the next tile are
    issued during this tile's epilogue, across the tile boundary; against torch.matmul. With 128x128x64
    tiles (one block per SM with or without a fourth slot) the sqmma stays in flight on mp_31: the
    epilogue's scf.if waits for it, and the tile-end reset happens there. The race check is on: a TME
    tile into the slot of the sqmma in flight fails it."""
    monkeypatch.setenv(RACECHECK_ENV, "1")
    from triton_musa.backend.lowering import pipeline_report
    kernel = fresh(_flattened_persistent_matmul)
    BM, BN, BK = tile, tile, tile // 2 if tile > 32 else 32
    M, N, K = 2 * BM, 3 * BN, 3 * BK - 16
    torch.manual_seed(num_stages)
    a = torch.randn(M, K, dtype=torch.float16)
    b = torch.randn(N, K, dtype=torch.float16)
    c = torch.zeros(M, N, dtype=torch.float16)
    compiled = kernel[(4, )](TensorDescriptor.from_tensor(a, [BM, BK]), TensorDescriptor.from_tensor(b, [BN, BK]),
                             TensorDescriptor.from_tensor(c, [BM, BN]), M, N, K, BM=BM, BN=BN, BK=BK, PROGRAMS=4,
                             num_stages=num_stages)
    torch.testing.assert_close(c.float(), a.float() @ b.float().T, rtol=1e-2, atol=1e-1)
    check_path(compiled, arch)
    remarks = pipeline_report(compiled.asm["ttgir"], num_stages, target="emulator")
    # mp_22 reads the descriptors through pointers: async copies, where its 72 KiB hold the rings.
    expected = {"mp_31": "loop pipelined: 2 loads as TME tiles",
                "mp_22": "loop pipelined: 2 loads as async copies" if tile == 32 else
                "loop not pipelined: rings of 2 slots need 65536 bytes of shared memory"}[arch]
    assert any(expected in r for r in remarks), remarks
    in_flight = arch == "mp_31" and tile == 128
    assert any("in flight" in r for r in remarks) == in_flight, remarks
    check_ring(compiled, arch, loads=2, stages=num_stages + in_flight)


def _tile_loop_sum(in_desc, out_ptr, n_tiles, BM: tl.constexpr, BN: tl.constexpr, STAGES: tl.constexpr):
    # Row block r (program id) sums tiles (r, 0..n_tiles) under tl.range's own num_stages.
    m = tl.program_id(0) * BM
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for j in tl.range(0, n_tiles, num_stages=STAGES):
        acc += in_desc.load([m, j * BN]).to(tl.float32)
    rm = m + tl.arange(0, BM)[:, None]
    rn = tl.arange(0, BN)[None, :]
    tl.store(out_ptr + rm * BN + rn, acc)


@pytest.mark.parametrize("stages", [2, 4])
def test_tl_range_num_stages(arch: str, stages: int) -> None:
    """tl.range(..., num_stages=n) sets the loop's ring size whatever the kernel's num_stages; the
    indices are computed from the induction variable (j * BN), recomputed for the loads ahead."""
    kernel = fresh(_tile_loop_sum)
    M, BM, BN, n_tiles = 32, 16, 32, 5
    # Ragged: the last tile is partly outside (a column slice keeps the row stride 16-byte aligned).
    x = torch.randn(M, n_tiles * BN, dtype=torch.float32)[:, :n_tiles * BN - 8]
    out = torch.zeros(M, BN, dtype=torch.float32)
    compiled = kernel[(M // BM, )](TensorDescriptor.from_tensor(x, [BM, BN]), out, n_tiles, BM=BM, BN=BN,
                                   STAGES=stages, num_stages=1)
    padded = torch.zeros(M, n_tiles * BN)
    padded[:, :x.shape[1]] = x
    torch.testing.assert_close(out, padded.view(M, n_tiles, BN).sum(dim=1), rtol=1e-5, atol=1e-5)
    check_ring(compiled, arch, loads=1, stages=stages)


def _persistent_sum(in_desc, out_ptr, n_rows, n_tiles, BM: tl.constexpr, BN: tl.constexpr, STAGES: tl.constexpr):
    # Each program walks row blocks (outer loop) and sums each one's tiles (inner loop, ringed): each run
    # of the inner loop restarts its ring's barriers in phase 0.
    for r in range(tl.program_id(0), n_rows, tl.num_programs(0)):
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for j in tl.range(0, n_tiles, num_stages=STAGES):
            acc += in_desc.load([r * BM, j * BN])
        rm = r * BM + tl.arange(0, BM)[:, None]
        rn = tl.arange(0, BN)[None, :]
        tl.store(out_ptr + rm * BN + rn, acc)


@pytest.mark.parametrize("num_stages", [2, 3])
def test_ring_restarts_in_an_outer_loop(arch: str, num_stages: int) -> None:
    """3 row blocks over 2 programs, 3 tiles each (not a multiple of the ring, so a barrier's phase at
    the end of one run is not where the next run starts): a wrong phase would deadlock or read a stale
    tile."""
    kernel = fresh(_persistent_sum)
    BM, BN, n_rows, n_tiles = 16, 32, 3, 3
    x = torch.randn(n_rows * BM, n_tiles * BN, dtype=torch.float32)
    out = torch.zeros(n_rows * BM, BN, dtype=torch.float32)
    compiled = kernel[(2, )](TensorDescriptor.from_tensor(x, [BM, BN]), out, n_rows, n_tiles, BM=BM, BN=BN,
                             STAGES=num_stages, num_stages=num_stages)
    torch.testing.assert_close(out, x.view(n_rows * BM, n_tiles, BN).sum(dim=1), rtol=1e-5, atol=1e-5)
    check_ring(compiled, arch, loads=1, stages=num_stages)


def _two_level_rings(in_desc, bias_desc, out_ptr, n_rows, n_tiles, BM: tl.constexpr, BN: tl.constexpr,
                     STAGES: tl.constexpr):
    # The outer loop's bias tile, loaded where it is (a loop that holds a loop is not pipelined), and the
    # inner loop's tiles in a ring.
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for r in range(0, n_rows):
        acc += bias_desc.load([r * BM, 0])
        for j in tl.range(0, n_tiles, num_stages=STAGES):
            acc += in_desc.load([r * BM, j * BN])
    rm = tl.arange(0, BM)[:, None]
    rn = tl.arange(0, BN)[None, :]
    tl.store(out_ptr + rm * BN + rn, acc)


@pytest.mark.parametrize("num_stages", [2, 3])
def test_rings_in_nested_loops(arch: str, num_stages: int) -> None:
    """A ring in the inner loop of a nest and a single buffer in the outer loop, whose barrier's phase
    is carried through the outer loop (the TME stage), beside the inner ring's barriers."""
    kernel = fresh(_two_level_rings)
    BM, BN, n_rows, n_tiles = 16, 32, 3, 4
    x = torch.randn(n_rows * BM, n_tiles * BN, dtype=torch.float32)
    bias = torch.randn(n_rows * BM, BN, dtype=torch.float32)
    out = torch.zeros(BM, BN, dtype=torch.float32)
    compiled = kernel[(1, )](TensorDescriptor.from_tensor(x, [BM, BN]), TensorDescriptor.from_tensor(bias, [BM, BN]),
                             out, n_rows, n_tiles, BM=BM, BN=BN, STAGES=num_stages, num_stages=num_stages)
    expected = x.view(n_rows, BM, n_tiles, BN).sum(dim=(0, 2)) + bias.view(n_rows, BM, BN).sum(dim=0)
    torch.testing.assert_close(out, expected, rtol=1e-4, atol=1e-4)
    if arch == "mp_31":
        assert emuir_text(compiled).count("llvm.call @__musa_emu_async_bar_init(") == num_stages + 1


def _carried_index_sum(in_desc, out_ptr, n_tiles, BM: tl.constexpr, BN: tl.constexpr):
    # The column is loop-carried (not a function of the induction variable): the producer stage computes
    # it ahead, as the next iterations' columns (tutorial 06's K/V offsets are carried like this).
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    col = 0
    for j in tl.range(0, n_tiles, num_stages=3):
        acc += in_desc.load([0, col])
        col += BN
    rm = tl.arange(0, BM)[:, None]
    rn = tl.arange(0, BN)[None, :]
    tl.store(out_ptr + rm * BN + rn, acc)


def test_loop_carried_index_is_pipelined(arch: str) -> None:
    """A load whose index is loop-carried gets a ring of 3 (3 barriers on mp_31), and stays correct."""
    kernel = fresh(_carried_index_sum)
    BM, BN, n_tiles = 16, 32, 4
    x = torch.randn(BM, n_tiles * BN, dtype=torch.float32)
    out = torch.zeros(BM, BN, dtype=torch.float32)
    compiled = kernel[(1, )](TensorDescriptor.from_tensor(x, [BM, BN]), out, n_tiles, BM=BM, BN=BN, num_stages=3)
    torch.testing.assert_close(out, x.view(BM, n_tiles, BN).sum(dim=1), rtol=1e-5, atol=1e-5)
    check_ring(compiled, arch, loads=1, stages=3)


# ---------------------------------------------------------------------------------------------------------------
# The runtime's async barriers, driven directly

BARRIER_DECLS = """
  llvm.func @__musa_emu_thread_id(i32) -> i32
  llvm.func @__musa_emu_barrier()
  llvm.func @__musa_emu_async_bar_record(i32)
  llvm.func @__musa_emu_async_bar_init(i32, i32, i32)
  llvm.func @__musa_emu_async_bar_add_trans(i32, i32)
  llvm.func @__musa_emu_async_bar_arrive(i32)
  llvm.func @__musa_emu_async_bar_wait(i32, i32)
"""


def barrier_module(arrivals: int, expect_bytes: int, arriving_threads: int) -> str:
    """Barrier 3 with `arrivals` arrivals expected, `expect_bytes` expected bytes (none arrive),
    threads below `arriving_threads` arrive; then every thread waits for phase 0, and thread t
    stores t + 1 to out[t]."""
    add_trans = (f"%eb = llvm.mlir.constant({expect_bytes} : i32) : i32\n"
                 "    llvm.call @__musa_emu_async_bar_add_trans(%bar, %eb) : (i32, i32) -> ()") if expect_bytes else ""
    return f"""
module attributes {{"ttg.num-warps" = 2 : i32, "ttg.threads-per-warp" = 32 : i32}} {{
{BARRIER_DECLS}
  llvm.func @bars(%out: !llvm.ptr<1>) attributes {{musa.kernel}} {{
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %c1 = llvm.mlir.constant(1 : i32) : i32
    %bar = llvm.mlir.constant(3 : i32) : i32
    %n = llvm.mlir.constant({arrivals} : i32) : i32
    %arriving = llvm.mlir.constant({arriving_threads} : i32) : i32
    llvm.call @__musa_emu_async_bar_record(%bar) : (i32) -> ()
    %tid = llvm.call @__musa_emu_thread_id(%c0) : (i32) -> i32
    %first = llvm.icmp "eq" %tid, %c0 : i32
    llvm.cond_br %first, ^init, ^ready
  ^init:
    llvm.call @__musa_emu_async_bar_init(%bar, %n, %c0) : (i32, i32, i32) -> ()
    {add_trans}
    llvm.br ^ready
  ^ready:
    llvm.call @__musa_emu_barrier() : () -> ()
    %arrives = llvm.icmp "slt" %tid, %arriving : i32
    llvm.cond_br %arrives, ^arrive, ^wait
  ^arrive:
    llvm.call @__musa_emu_async_bar_arrive(%bar) : (i32) -> ()
    llvm.br ^wait
  ^wait:
    llvm.call @__musa_emu_async_bar_wait(%bar, %c0) : (i32, i32) -> ()
    %v = llvm.add %tid, %c1 : i32
    %p = llvm.getelementptr %out[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
    llvm.store %v, %p : i32, !llvm.ptr<1>
    llvm.return
  }}
}}
"""


def run_barrier_kernel(module: str) -> list:
    import ctypes
    kernel = _musa_mlir.emulator_load(module)
    buf = bytearray(4 * 64)
    addr = ctypes.addressof((ctypes.c_char * len(buf)).from_buffer(buf))
    kernel.launch((1, 1, 1), struct.pack("<Q", addr), [(addr, len(buf), "argument 'out'")])
    return list(struct.unpack("<64i", bytes(buf)))


def test_async_barrier_completes_after_all_arrivals() -> None:
    """The phase completes on the 40th of 40 arrivals (threads 0..39 of 64); then everyone runs on."""
    assert run_barrier_kernel(barrier_module(40, 0, 40)) == list(range(1, 65))


def test_async_barrier_missing_arrival_is_a_deadlock() -> None:
    """39 of 40 arrivals: the wait never completes; the error names the barrier and its state."""
    with pytest.raises(_musa_mlir.EmulatorError,
                       match=r"deadlock.*async barrier 3 \(phase parity 0 in progress, 1 of 40 arrivals pending"):
        run_barrier_kernel(barrier_module(40, 0, 39))


def test_async_barrier_missing_bytes_is_a_deadlock() -> None:
    """All arrivals, but 256 expected bytes never transferred."""
    with pytest.raises(_musa_mlir.EmulatorError, match=r"deadlock.*async barrier 3 .*256 expected bytes not "
                       r"transferred"):
        run_barrier_kernel(barrier_module(1, 256, 1))



@pytest.mark.parametrize("dtype", [torch.float16, torch.float32])
def test_descriptor_past_the_tensor_is_an_error(arch: str, dtype: torch.dtype) -> None:
    """A device-made descriptor that claims more rows than the tensor has: the box's last rows are in the
    descriptor's bounds but outside the argument, and the copy (whole rows at once on mp_31's TME) still
    reports the first element outside every tensor."""
    kernel = fresh(_made_desc)
    M, N, BM, BN = 16, 32, 16, 32
    x = torch.randn(M - 4, N, dtype=dtype)  # 12 rows; the descriptor says 16
    out = torch.zeros(M, N, dtype=dtype)
    nbytes = 2 if dtype == torch.float16 else 4
    with pytest.raises(_musa_mlir.EmulatorError, match=rf"out-of-bounds (load|store) of {nbytes} bytes at address 0x[0-9a-f]+: "
                       "outside every tensor passed to the kernel; it is 0 bytes past the end of argument 'x_ptr'"):
        kernel[(1, 1)](x, out, M, N, BM=BM, BN=BN, PAD="zero")
