"""Pointers a kernel loads from memory, on the CPU emulator under the default bounds mode: a grouped
GEMM over tables of ``data_ptr()``s on both archs, against torch; loads through a table entry that
points to freed or never-allocated memory still stop the kernel naming the address; and an overrun
of an argument stays an error even where another live tensor follows it (only pointers that may
come from memory are looked up among the live tensors)."""

from __future__ import annotations

from typing import List, Tuple

import pytest

torch = pytest.importorskip("torch")
np = pytest.importorskip("numpy")
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

from triton_musa._musa_mlir import EmulatorError  # noqa: E402
from triton_musa.backend.emulator import emulator_active  # noqa: E402
from triton_musa.backend.live_tensors import LiveTensors  # noqa: E402

pytestmark = pytest.mark.skipif(not emulator_active(), reason="a MUSA device or another GPU driver is active here; "
                                "the emulator runs where none is (or with TRITON_MUSA_EMULATOR=1)")

# The kernels are plain functions, jitted afresh in each test: a JITFunction fixes its target on its first
# launch, so a fresh one follows TRITON_MUSA_ARCH (the `arch` fixture).


def grouped_matmul_kernel(group_a_ptrs, group_b_ptrs, group_c_ptrs, group_gemm_sizes, g_lds, group_size,
                          NUM_PROGRAMS: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                          BLOCK_K: tl.constexpr):
    # Triton's grouped GEMM tutorial (08), with masks for sizes that are not multiples of the blocks.
    tile_idx = tl.program_id(0)
    last_problem_end = 0
    for g in range(group_size):
        gm = tl.load(group_gemm_sizes + g * 3)
        gn = tl.load(group_gemm_sizes + g * 3 + 1)
        gk = tl.load(group_gemm_sizes + g * 3 + 2)
        num_n_tiles = tl.cdiv(gn, BLOCK_N)
        num_tiles = tl.cdiv(gm, BLOCK_M) * num_n_tiles
        while tile_idx >= last_problem_end and tile_idx < last_problem_end + num_tiles:
            lda = tl.load(g_lds + g * 3)
            ldb = tl.load(g_lds + g * 3 + 1)
            ldc = tl.load(g_lds + g * 3 + 2)
            a_ptr = tl.load(group_a_ptrs + g).to(tl.pointer_type(tl.float16))
            b_ptr = tl.load(group_b_ptrs + g).to(tl.pointer_type(tl.float16))
            c_ptr = tl.load(group_c_ptrs + g).to(tl.pointer_type(tl.float16))
            tile_in_gemm = tile_idx - last_problem_end
            offs_m = (tile_in_gemm // num_n_tiles) * BLOCK_M + tl.arange(0, BLOCK_M)
            offs_n = (tile_in_gemm % num_n_tiles) * BLOCK_N + tl.arange(0, BLOCK_N)
            offs_k = tl.arange(0, BLOCK_K)
            acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
            for kk in range(0, tl.cdiv(gk, BLOCK_K)):
                k = kk * BLOCK_K + offs_k
                a = tl.load(a_ptr + offs_m[:, None] * lda + k[None, :],
                            mask=(offs_m[:, None] < gm) & (k[None, :] < gk), other=0.0)
                b = tl.load(b_ptr + k[:, None] * ldb + offs_n[None, :],
                            mask=(k[:, None] < gk) & (offs_n[None, :] < gn), other=0.0)
                acc += tl.dot(a, b)
            tl.store(c_ptr + offs_m[:, None] * ldc + offs_n[None, :], acc.to(tl.float16),
                     mask=(offs_m[:, None] < gm) & (offs_n[None, :] < gn))
            tile_idx += NUM_PROGRAMS
        last_problem_end = last_problem_end + num_tiles


def grouped_matmul(a: List[torch.Tensor], b: List[torch.Tensor], arch: str) -> List[torch.Tensor]:
    c = [torch.empty(x.shape[0], y.shape[1], dtype=torch.float16) for x, y in zip(a, b)]
    ptrs = lambda ts: torch.tensor([t.data_ptr() for t in ts], dtype=torch.int64)  # noqa: E731
    sizes = torch.tensor([[x.shape[0], y.shape[1], x.shape[1]] for x, y in zip(a, b)], dtype=torch.int32)
    lds = torch.tensor([[x.stride(0), y.stride(0), z.stride(0)] for x, y, z in zip(a, b, c)], dtype=torch.int32)
    programs = 4
    # None of a, b, c is an argument: the kernel reaches them only through the pointer tables.
    compiled = triton.jit(grouped_matmul_kernel)[(programs, )](ptrs(a), ptrs(b), ptrs(c), sizes, lds, len(a),
                                                               NUM_PROGRAMS=programs, BLOCK_M=32, BLOCK_N=32,
                                                               BLOCK_K=16)
    assert compiled.metadata.target.arch == arch
    return c


def test_grouped_gemm_through_pointer_tables(arch: str) -> None:
    torch.manual_seed(0)
    shapes: List[Tuple[int, int, int]] = [(64, 32, 48), (32, 96, 16), (80, 48, 32), (16, 16, 64)]  # (M, N, K)
    a = [torch.randn(m, k, dtype=torch.float16) for m, _, k in shapes]
    b = [torch.randn(k, n, dtype=torch.float16) for _, n, k in shapes]
    for x, y, z in zip(a, b, grouped_matmul(a, b, arch)):
        torch.testing.assert_close(z, (x.float() @ y.float()).half(), atol=1e-2, rtol=1e-2)


def gather_rows_kernel(table_ptr, out_ptr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    src = tl.load(table_ptr + row).to(tl.pointer_type(tl.float32))
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + row * BLOCK + offs, tl.load(src + offs))


def test_gather_through_loaded_pointers(arch: str) -> None:
    rows = [torch.randn(64) for _ in range(3)]
    table = torch.tensor([r.data_ptr() for r in rows], dtype=torch.int64)
    out = torch.empty(3, 64)
    triton.jit(gather_rows_kernel)[(3, )](table, out, BLOCK=64)
    torch.testing.assert_close(out, torch.stack(rows))


def _freed_address() -> int:
    """The address of a tensor that no longer exists (large enough that its memory goes back to the system)."""
    for _ in range(8):
        t = torch.empty(16 << 20, dtype=torch.uint8)
        address = t.data_ptr()
        del t
        if not any(base <= address < base + size for base, size, _ in LiveTensors()()):
            return address
    raise AssertionError("freed memory was reused by a live tensor every time")


@pytest.mark.parametrize("case", ["freed", "never allocated"])
def test_loads_outside_every_live_tensor_are_errors(arch: str, case: str) -> None:
    live = torch.randn(64)
    address = _freed_address() if case == "freed" else 0x10000  # below every mapping torch makes
    table = torch.tensor([live.data_ptr(), address], dtype=torch.int64)
    out = torch.zeros(2, 64)
    with pytest.raises(EmulatorError) as info:
        triton.jit(gather_rows_kernel)[(2, )](table, out, BLOCK=64)
    message = str(info.value)
    assert "kernel 'gather_rows_kernel'" in message and "program id (1, 0, 0)" in message
    assert "out-of-bounds load" in message and "outside every tensor passed to the kernel" in message
    assert "nor is it inside any live torch CPU tensor" in message
    # The address of the first bad access: the start of the row, or a later element of it.
    first = int(message.split(" at address ")[1].split(":")[0], 16)
    assert address <= first < address + 64 * 4, message


def copy_kernel(src_ptr, dst_ptr, OFFSET: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(dst_ptr + offs, tl.load(src_ptr + OFFSET + offs))


def _adjacent_tensors() -> Tuple[torch.Tensor, torch.Tensor]:
    """Two tensors with storages of their own, the second starting where the first ends."""
    memory = np.zeros(128, dtype=np.float32)
    memory[64:] = np.arange(64, dtype=np.float32)
    first, second = torch.from_numpy(memory[:64]), torch.from_numpy(memory[64:])
    assert first.untyped_storage().data_ptr() + first.untyped_storage().nbytes() == second.data_ptr()
    return first, second


def test_argument_overrun_into_a_live_tensor_is_still_an_error(arch: str) -> None:
    first, second = _adjacent_tensors()
    out = torch.zeros(64)
    with pytest.raises(EmulatorError, match="out-of-bounds load .* past the end of argument 'src_ptr'"):
        triton.jit(copy_kernel)[(1, )](first, out, OFFSET=64, BLOCK=64)  # reads `second`, which is no argument
    assert second.sum() > 0  # kept alive to the end


def test_loaded_pointer_into_a_live_tensor_beside_an_argument(arch: str) -> None:
    first, second = _adjacent_tensors()
    table = torch.tensor([second.data_ptr()], dtype=torch.int64)
    out = torch.zeros(1, 64)
    triton.jit(gather_rows_kernel)[(1, )](table, out, BLOCK=64)
    torch.testing.assert_close(out[0], second)
    assert first.sum() == 0


def table_dot_kernel(table_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    a_ptr = tl.load(table_ptr).to(tl.pointer_type(tl.float16))
    b_ptr = tl.load(table_ptr + 1).to(tl.pointer_type(tl.float16))
    offs_m, offs_n, offs_k = tl.arange(0, BM), tl.arange(0, BN), tl.arange(0, BK)
    a_ptrs = a_ptr + offs_m[:, None] * K + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * BN + offs_n[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in range(0, tl.cdiv(K, BK)):
        a_ptrs = tl.multiple_of(a_ptrs, [16, 16])
        b_ptrs = tl.multiple_of(b_ptrs, [16, 16])
        acc += tl.dot(tl.load(a_ptrs), tl.load(b_ptrs))
        a_ptrs += BK
        b_ptrs += BK * BN
    tl.store(c_ptr + offs_m[:, None] * BN + offs_n[None, :], acc)


def test_pipelined_copies_through_loaded_pointers(arch: str) -> None:
    # The pipeliner turns the operand loads into asynchronous copies, whose source the runtime checks.
    a, b = torch.randn(64, 128, dtype=torch.float16), torch.randn(128, 64, dtype=torch.float16)
    c = torch.zeros(64, 64)
    table = torch.tensor([a.data_ptr(), b.data_ptr()], dtype=torch.int64)
    compiled = triton.jit(table_dot_kernel)[(1, )](table, c, 128, BM=64, BN=64, BK=32, num_stages=3, num_warps=4)
    torch.testing.assert_close(c, a.float() @ b.float(), atol=1e-2, rtol=1e-2)
    # The pipeliner masks the copies (its prologue's iteration guard): the copy-or-zero form.
    assert "@__musa_emu_async_copy_or_zero_loaded_src(" in compiled.function.host_ir


def test_loaded_pointer_accesses_run_under_the_race_check(arch: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # The same checks as every other access: lockstep, bounds, alignment, and (here) the shared-memory race check
    # of the operands they stage.
    from triton_musa.backend.environment import RACECHECK_ENV
    monkeypatch.setenv(RACECHECK_ENV, "1")
    test_pipelined_copies_through_loaded_pointers(arch)
    row = torch.randn(65)
    table = torch.tensor([row.data_ptr() + 2], dtype=torch.int64)  # inside `row`, but not 4-byte aligned
    with pytest.raises(EmulatorError, match="misaligned load of 4 bytes"):
        triton.jit(gather_rows_kernel)[(1, )](table, torch.zeros(1, 64), BLOCK=64)
