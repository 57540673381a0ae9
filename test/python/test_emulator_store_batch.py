"""Store batches (batchStores in emulator/Emulator.cpp, emuStoreBatch in emulator/Runtime.cpp): a run of
a thread's global and shared stores, masked ones included, takes one turn instead of one per store,
and converged lanes still store in statement order: store i of every lane before store i + 1 of any.
Each test makes lanes of one warp write the same address from different statements (only statement
order gives the expected memory), or masks stores off, and checks the host IR has the batch, so a
wrong order, a lost mask or an unbatched run fails here. Values are computed in the test."""

from __future__ import annotations

import re
import struct

import pytest

from triton_musa import _musa_mlir
from triton_musa.backend.emulator import emulator_active

torch = pytest.importorskip("torch")
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

from test_emulator_runtime import DECLS, ctypes_addr

WARP_SIZES = [32, 128]


def batch_sizes(host_ir: str) -> list:
    return [int(n) for n in re.findall(r"call void @__musa_emu_store_batch\(i32 (\d+)", host_ir)]


def rotate_module(warp_size: int, masked: bool, space: int) -> str:
    """Lane t stores t to slot t, then 1000 + t to slot (t + 1) % W (masked: only where t % 3 != 0),
    then -1 to slot t (masked: never, t >= W); in shared memory (space 3) slot t is copied out to
    out[t] after a barrier. In statement order slot s ends as 1000 + (s - 1) % W where that lane
    stored, else s; a thread storing its own three in a row lets lane s overwrite lane s - 1's
    second store with its first."""
    w = warp_size

    def masked_store(value: str, ptr: str, cond: str, name: str) -> str:
        if not masked:
            return f"    llvm.store {value}, {ptr} : i32, !llvm.ptr<{space}>\n    llvm.br ^{name}_join\n  ^{name}_join:\n"
        return (f"    llvm.cond_br {cond}, ^{name}_then, ^{name}_join\n  ^{name}_then:\n"
                f"    llvm.store {value}, {ptr} : i32, !llvm.ptr<{space}>\n    llvm.br ^{name}_join\n"
                f"  ^{name}_join:\n")

    base = "%buf" if space == 1 else "%sh"
    shared_base = "    %sh = llvm.call @__musa_emu_shared_base() : () -> !llvm.ptr<3>\n" if space == 3 else ""
    copy_out = ("    llvm.call @__musa_emu_barrier() : () -> ()\n"
                "    %back = llvm.load %p0 : !llvm.ptr<3> -> i32\n"
                "    %o = llvm.getelementptr %buf[%t] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32\n"
                "    llvm.store %back, %o : i32, !llvm.ptr<1>\n") if space == 3 else ""
    return f"""
module attributes {{"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = {w} : i32, "ttg.shared" = {4 * w} : i32}} {{
{DECLS}
  llvm.func @rotate(%buf: !llvm.ptr<1>) attributes {{musa.kernel}} {{
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %c1 = llvm.mlir.constant(1 : i32) : i32
    %c3 = llvm.mlir.constant(3 : i32) : i32
    %cw = llvm.mlir.constant({w} : i32) : i32
    %c1000 = llvm.mlir.constant(1000 : i32) : i32
    %cm1 = llvm.mlir.constant(-1 : i32) : i32
    %t = llvm.call @__musa_emu_thread_id(%c0) : (i32) -> i32
{shared_base}    %p0 = llvm.getelementptr {base}[%t] : (!llvm.ptr<{space}>, i32) -> !llvm.ptr<{space}>, i32
    llvm.store %t, %p0 : i32, !llvm.ptr<{space}>
    %t1 = llvm.add %t, %c1 : i32
    %next = llvm.urem %t1, %cw : i32
    %p1 = llvm.getelementptr {base}[%next] : (!llvm.ptr<{space}>, i32) -> !llvm.ptr<{space}>, i32
    %v1 = llvm.add %t, %c1000 : i32
    %r3 = llvm.urem %t, %c3 : i32
    %on1 = llvm.icmp "ne" %r3, %c0 : i32
{masked_store("%v1", "%p1", "%on1", "second")}    %on2 = llvm.icmp "uge" %t, %cw : i32
{masked_store("%cm1", "%p0", "%on2", "third")}{copy_out}    llvm.return
  }}
}}
"""


def expected_rotation(w: int, masked: bool) -> list:
    want = []
    for s in range(w):
        lane = (s - 1) % w
        want.append(1000 + lane if not masked or lane % 3 != 0 else s)
    if not masked:  # the third store writes -1 over every slot
        want = [-1] * w
    return want


@pytest.mark.parametrize("warp_size", WARP_SIZES)
@pytest.mark.parametrize("masked", [False, True])
@pytest.mark.parametrize("space", [1, 3], ids=["global", "shared"])
@pytest.mark.parametrize("race_check", [False, True])
def test_batched_stores_keep_statement_order(warp_size: int, masked: bool, space: int, race_check: bool) -> None:
    kernel = _musa_mlir.emulator_load(rotate_module(warp_size, masked, space))
    assert batch_sizes(kernel.host_ir) == [3]
    buf = bytearray(4 * warp_size)
    addr = ctypes_addr(buf)
    launch = lambda: kernel.launch((1, 1, 1), struct.pack("<Q", addr), [(addr, len(buf), "argument 'buf'")],  # noqa: E731
                                   race_check=race_check)
    if race_check and space == 3:
        # Lanes writing one shared word from two statements with no barrier: the race check (one turn
        # per store there) reports it as it did before batches.
        with pytest.raises(_musa_mlir.EmulatorError, match="shared-memory race: store of 4 bytes at offset"):
            launch()
        return
    launch()
    assert list(struct.unpack(f"<{warp_size}i", bytes(buf))) == expected_rotation(warp_size, masked)


def test_out_of_bounds_store_in_a_batch_is_reported() -> None:
    # The buffer holds one slot fewer than the warp: lane 31's first store and lane 30's second one
    # fall past its end.
    kernel = _musa_mlir.emulator_load(rotate_module(32, True, 1))
    host = bytearray(4 * 64)
    addr = ctypes_addr(host)
    with pytest.raises(_musa_mlir.EmulatorError, match="out-of-bounds store of 4 bytes .* past the end of argument 'buf'"):
        kernel.launch((1, 1, 1), struct.pack("<Q", addr), [(addr, 4 * 31, "argument 'buf'")])


def _rotate_kernel(buf_ptr, n, N: tl.constexpr):
    idx = tl.arange(0, N)
    tl.store(buf_ptr + idx, idx, mask=idx < n)
    tl.store(buf_ptr + (idx + 1) % N, idx + 1000, mask=(idx + 1) % N < n)


@pytest.mark.skipif(not emulator_active(), reason="a MUSA device or another GPU driver is active here; "
                    "the emulator runs where none is (or with TRITON_MUSA_EMULATOR=1)")
@pytest.mark.parametrize("per_lane", [1, 4])
def test_triton_stores_keep_statement_order(arch: str, per_lane: int) -> None:
    # Two tl.store of several registers per lane, masked so that the lanes past n (whose addresses
    # lie past the end of the tensor) store nothing: slot s ends as 1000 + s - 1 (the second
    # statement's), also where s - 1 and s belong to different lanes.
    warp = {"mp_31": 32, "mp_22": 128}[arch]
    N = per_lane * warp
    n = N - 3
    buf = torch.zeros(n, dtype=torch.int32)
    compiled = triton.jit(_rotate_kernel)[(1, )](buf, n, N, num_warps=1)
    assert batch_sizes(compiled.function.host_ir), "the stores were not batched"
    want = torch.tensor([1000 + (s - 1) % N for s in range(n)], dtype=torch.int32)
    assert torch.equal(buf, want)
