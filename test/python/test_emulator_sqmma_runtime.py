"""The emulator's SQMMA runtime on hand-written LLVM-dialect kernels (the calls the emulator target of
--convert-tritongpu-to-musa emits, EmulatorTargetInfo.cpp): one m64n32k16 f16 instruction of a squad, with
its operands placed in shared memory by this test through the 256-byte swizzle on absolute shared
addresses, checked element by element against exact arithmetic under the accumulator fragment of
MUSA-FACTS.md (row = (l >> 3) + 4w + 16 rm, col = (l & 7) + 8 rn, register rn + (n / 8) rm), written here
independently of the emulator (emulator/MatrixUnits.cpp) and of the compiler's layouts.

Stated by the open MUSA backend: the fragment, the descriptor's tile start / leading stride / swizzle codes,
the swizzle on absolute addresses. Inferred (so checked only against our emulator): that the swizzle line is
256 bytes for every granularity, and that the wait is only needed before the accumulators are read (the
emulator computes at issue, and fails a thread that ends with SQMMAs it never waited for)."""

from __future__ import annotations

import ctypes
import random
import struct
from typing import List, Optional, Tuple

import pytest

from triton_musa import _musa_mlir

M, N, K = 64, 32, 16
A_BASE, B_BASE, SHARED = 0, 4096, 5120  # A 64x16 f16 K-major (32-byte rows), B 16x32 N-major (64-byte rows)
REGS = M * N // 128


def swizzle(address: int, granule: int, stride: int = 256, line: int = 256) -> int:
    return address ^ (((address // line) % (stride // granule)) * granule)


def f16_bits(value: float) -> int:
    return struct.unpack("<H", struct.pack("<e", value))[0]


def shared_image(a: List[List[int]], b: List[List[int]]) -> bytes:
    """A (16-byte granules) and B (32-byte granules) stored as SQMMA reads them."""
    image = bytearray(SHARED)
    for i in range(M):
        for k in range(K):
            struct.pack_into("<H", image, swizzle(A_BASE + i * 2 * K + 2 * k, 16), f16_bits(a[i][k]))
    for k in range(K):
        for n in range(N):
            struct.pack_into("<H", image, swizzle(B_BASE + k * 2 * N + 2 * n, 32), f16_bits(b[k][n]))
    return bytes(image)


# Where each thread stores one word into an operand of the SQMMA (`overwrite` of kernel_module), after a
# block barrier that follows the issue (the stores of the issue's barrier interval conflict with the squad's
# reads in the race check already).
OVERWRITES = {
    # The squad's wait comes after the stores: the unit may still read the operand.
    "before_wait": "{store}\n    {wait}",
    # Every thread has waited itself before it stores.
    "after_wait": "{wait}\n    {store}",
    # Warp 0 waits, then every thread stores before warps 1-3 wait: those three stored into an operand
    # of an SQMMA they have not waited for, with no barrier after warp 0's wait.
    "after_one_warps_wait": "llvm.cond_br %w0, ^early, ^stores\n  ^early:\n    {wait}\n    llvm.br ^stores\n"
                            "  ^stores:\n    {store}\n    llvm.cond_br %w0, ^done, ^late\n  ^late:\n    {wait}\n"
                            "    llvm.br ^done\n  ^done:",
    # As above with a block barrier between warp 0's wait and the stores: the SQMMA is over for everyone.
    "barrier_after_one_warps_wait": "llvm.cond_br %w0, ^early, ^stores\n  ^early:\n    {wait}\n"
                                    "    llvm.br ^stores\n  ^stores:\n    llvm.call @__musa_emu_barrier() : () -> ()\n"
                                    "    {store}\n    llvm.cond_br %w0, ^done, ^late\n  ^late:\n    {wait}\n"
                                    "    llvm.br ^done\n  ^done:",
}


def kernel_module(wait: bool = True, desc_b_of_warp1: Optional[int] = None, b_base: int = B_BASE,
                  overwrite: Optional[str] = None, overwrite_base: int = B_BASE) -> str:
    """128 threads copy the shared image from `in`, then issue one sqmma (descriptors with leading strides 32
    and 64 bytes, granularity codes 1 and 2, stride code 3 = 256 B) and store their 16 accumulators to
    out[tid * 16 + r]. `desc_b_of_warp1`: warp 1 points B elsewhere (a squad that disagrees); `b_base`: where
    every warp's B starts; `overwrite` (a key of OVERWRITES): thread t also stores the word t at shared byte
    `overwrite_base + 4 t`, placed around the wait as that entry says."""
    words = SHARED // 4 // 128
    copies = "\n".join(f"""
    %i{j} = llvm.add %tid, %c{j * 128} : i32
    %g{j} = llvm.getelementptr %in[%i{j}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
    %v{j} = llvm.load %g{j} : !llvm.ptr<1> -> i32
    %s{j} = llvm.getelementptr %smem[%i{j}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
    llvm.store %v{j}, %s{j} : i32, !llvm.ptr<3>""" for j in range(words))
    consts = "\n".join(f"    %c{j * 128} = llvm.mlir.constant({j * 128} : i32) : i32" for j in range(1, words))
    zeros = "\n".join(f"""
    %z{r} = llvm.getelementptr %acc[{r}] : (!llvm.ptr) -> !llvm.ptr, f32
    llvm.store %f0, %z{r} : f32, !llvm.ptr""" for r in range(REGS))
    stores = "\n".join(f"""
    %r{r} = llvm.getelementptr %acc[{r}] : (!llvm.ptr) -> !llvm.ptr, f32
    %x{r} = llvm.load %r{r} : !llvm.ptr -> f32
    %o{r} = llvm.add %base, %c_{r} : i32
    %p{r} = llvm.getelementptr %out[%o{r}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    llvm.store %x{r}, %p{r} : f32, !llvm.ptr<1>""" for r in range(REGS))
    reg_consts = "\n".join(f"    %c_{r} = llvm.mlir.constant({r} : i32) : i32" for r in range(REGS))
    b_offset = "%cB"
    wait_call = "llvm.call @__musa_emu_sqmma_wait() : () -> ()"
    after_issue = wait_call if wait else ""
    if overwrite is not None:
        store = (f"%ow = llvm.mlir.constant({overwrite_base // 4} : i32) : i32\n"
                 "    %oi = llvm.add %tid, %ow : i32\n"
                 "    %op = llvm.getelementptr %smem[%oi] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32\n"
                 "    llvm.store %tid, %op : i32, !llvm.ptr<3>")
        after_issue = "llvm.call @__musa_emu_barrier() : () -> ()\n    " + OVERWRITES[overwrite].format(
            store=store, wait=wait_call)
    if desc_b_of_warp1 is not None:
        b_offset = "%bsel"
    return f"""
module attributes {{"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.shared" = {SHARED} : i32}} {{
  llvm.func @__musa_emu_thread_id(i32) -> i32
  llvm.func @__musa_emu_barrier()
  llvm.func @__musa_emu_shared_base() -> !llvm.ptr<3>
  llvm.func @__musa_emu_sqmma_desc(!llvm.ptr<3>, i32, i32, i32) -> i32
  llvm.func @__musa_emu_sqmma(i32, i32, i32, i32, i32, i32, i32, i32, !llvm.ptr)
  llvm.func @__musa_emu_sqmma_wait()
  llvm.func @sq(%in: !llvm.ptr<1>, %out: !llvm.ptr<1>) attributes {{musa.kernel}} {{
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %c1 = llvm.mlir.constant(1 : i32) : i32
    %c2 = llvm.mlir.constant(2 : i32) : i32
    %c3 = llvm.mlir.constant(3 : i32) : i32
    %c5 = llvm.mlir.constant(5 : i32) : i32
    %c16 = llvm.mlir.constant(16 : i32) : i32
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %cB = llvm.mlir.constant({b_base} : i32) : i32
    %cB2 = llvm.mlir.constant({B_BASE if desc_b_of_warp1 is None else desc_b_of_warp1} : i32) : i32
    %f0 = llvm.mlir.constant(0.0 : f32) : f32
{consts}
{reg_consts}
    %tid = llvm.call @__musa_emu_thread_id(%c0) : (i32) -> i32
    %smem = llvm.call @__musa_emu_shared_base() : () -> !llvm.ptr<3>
{copies}
    llvm.call @__musa_emu_barrier() : () -> ()
    %warp = llvm.lshr %tid, %c5 : i32
    %w1 = llvm.icmp "eq" %warp, %c1 : i32
    %w0 = llvm.icmp "eq" %warp, %c0 : i32
    %bsel = llvm.select %w1, %cB2, %cB : i1, i32
    %pb = llvm.getelementptr %smem[{b_offset}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
    %da = llvm.call @__musa_emu_sqmma_desc(%smem, %c32, %c1, %c3) : (!llvm.ptr<3>, i32, i32, i32) -> i32
    %db = llvm.call @__musa_emu_sqmma_desc(%pb, %c64, %c2, %c3) : (!llvm.ptr<3>, i32, i32, i32) -> i32
    %acc = llvm.alloca %c1 x !llvm.array<{REGS} x f32> : (i32) -> !llvm.ptr
{zeros}
    %m = llvm.mlir.constant({M} : i32) : i32
    %n = llvm.mlir.constant({N} : i32) : i32
    llvm.call @__musa_emu_sqmma(%c0, %m, %n, %c16, %da, %db, %c0, %c0, %acc) : (i32, i32, i32, i32, i32, i32, i32, i32, !llvm.ptr) -> ()
    {after_issue}
    %base = llvm.mul %tid, %c16 : i32
{stores}
    llvm.return
  }}
}}
"""


def run(module: str, image: bytes, race_check: bool = False) -> List[float]:
    kernel = _musa_mlir.emulator_load(module)
    src = bytearray(image)
    out = bytearray(4 * 128 * REGS)
    src_addr = ctypes.addressof((ctypes.c_char * len(src)).from_buffer(src))
    out_addr = ctypes.addressof((ctypes.c_char * len(out)).from_buffer(out))
    kernel.launch((1, 1, 1), struct.pack("<QQ", src_addr, out_addr),
                  [(src_addr, len(src), "argument 'in'"), (out_addr, len(out), "argument 'out'")],
                  race_check=race_check)
    return list(struct.unpack(f"<{128 * REGS}f", bytes(out)))


def random_operands(seed: int) -> Tuple[List[List[int]], List[List[int]]]:
    """A (M x K) and B (K x N) of small integers: every product and sum is exact in f16 and f32."""
    rng = random.Random(seed)
    a = [[rng.randint(-4, 4) for _ in range(K)] for _ in range(M)]
    b = [[rng.randint(-4, 4) for _ in range(N)] for _ in range(K)]
    return a, b


def assert_exact(result: List[float], a: List[List[int]], b: List[List[int]]) -> None:
    """Each thread's accumulators are A x B where the fragment of MUSA-FACTS.md puts them."""
    for t in range(128):
        lane, warp = t % 32, t // 32
        for r in range(REGS):
            rn, rm = r % (N // 8), r // (N // 8)
            row, col = (lane >> 3) + 4 * warp + 16 * rm, (lane & 7) + 8 * rn
            expected = sum(a[row][k] * b[k][col] for k in range(K))
            assert result[t * REGS + r] == expected, (t, r, row, col)


def test_sqmma_fragment_and_swizzle_exact() -> None:
    a, b = random_operands(0)
    assert_exact(run(kernel_module(), shared_image(a, b)), a, b)


def test_sqmma_without_wait_fails() -> None:
    with pytest.raises(_musa_mlir.EmulatorError, match=r"1 SQMMA instruction\(s\) issued and never waited for"):
        run(kernel_module(wait=False), bytes(SHARED))


def test_sqmma_squad_must_agree() -> None:
    """Warp 1 of the squad passes another B descriptor: the squad's threads did not issue one instruction."""
    with pytest.raises(_musa_mlir.EmulatorError, match=r"sqmma: thread \d+ of the squad issued a different "
                       r"instruction"):
        run(kernel_module(desc_b_of_warp1=B_BASE - 1024), bytes(SHARED))


def test_sqmma_operand_outside_shared_memory_fails() -> None:
    """B starts 512 bytes before the end of the kernel's shared memory and needs 1024: the matrix unit's
    read of the tile (done once for the squad) reports the first element outside it."""
    with pytest.raises(_musa_mlir.EmulatorError, match=r"out-of-bounds shared-memory load of 2 bytes at offset "
                       rf"\d+: the kernel has {SHARED} bytes of shared memory"):
        run(kernel_module(b_base=SHARED - 512), bytes(SHARED))


@pytest.mark.parametrize("operand, base, end", [("A", A_BASE, A_BASE + 2 * M * K), ("B", B_BASE, B_BASE + 2 * K * N)])
def test_race_check_reports_a_store_into_an_operand_in_flight(operand: str, base: int, end: int) -> None:
    """The emulator computes the SQMMA at its issue, so the result is right whatever the stores do; the
    hardware reads the operands until the wait, so a store before it races, and the race check says so."""
    a, b = random_operands(1)
    module = kernel_module(overwrite="before_wait", overwrite_base=base)
    assert_exact(run(module, shared_image(a, b)), a, b)  # unchecked: runs, and looks right
    with pytest.raises(_musa_mlir.EmulatorError,
                       match=rf"shared-memory race: store of 4 bytes at offset \d+ overwrites operand {operand} "
                       rf"\(bytes \[{base}, {end}\)\) of an SQMMA of squad 0 still in flight: no thread of the squad "
                       r"has waited for it"):
        run(module, shared_image(a, b), race_check=True)


def test_race_check_reports_a_store_by_a_warp_that_has_not_waited() -> None:
    """Warp 0's wait ends the SQMMA, but warps 1-3 neither waited nor passed a barrier after that wait: on
    the hardware their stores may come first."""
    a, b = random_operands(2)
    with pytest.raises(_musa_mlir.EmulatorError,
                       match=r"thread \d+ \(warp [123], lane \d+\): shared-memory race: store of 4 bytes at offset "
                       r"\d+ overwrites operand B \(bytes \[4096, 5120\)\) of an SQMMA of squad 0 still in flight: "
                       r"the squad waited for it, but this thread did not, and neither a block barrier nor an "
                       r"async barrier a waiting thread arrived on came between"):
        run(kernel_module(overwrite="after_one_warps_wait"), shared_image(a, b), race_check=True)


@pytest.mark.parametrize("overwrite", ["after_wait", "barrier_after_one_warps_wait"])
def test_race_check_accepts_a_store_after_the_wait(overwrite: str) -> None:
    """A thread that has waited itself, or any thread after a block barrier that follows a wait of the
    squad, may refill the operand's bytes."""
    a, b = random_operands(3)
    assert_exact(run(kernel_module(overwrite=overwrite), shared_image(a, b), race_check=True), a, b)
