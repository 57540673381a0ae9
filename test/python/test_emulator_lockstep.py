"""The emulator runs the lanes of a warp in lockstep at every global and shared-memory access, as SIMT
hardware executes one instruction for all lanes of a warp (issue 12): a lane never sees a value another
lane of its warp stores in a later statement, and every lane of a statement sees what an earlier
statement stored. Both archs (32- and 128-lane warps), against values computed in the test."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

from triton_musa.backend.emulator import emulator_active  # noqa: E402

pytestmark = pytest.mark.skipif(not emulator_active(), reason="a MUSA device or another GPU driver is active here; "
                                "the emulator runs where none is (or with TRITON_MUSA_EMULATOR=1)")

WARP_SIZE = {"mp_31": 32, "mp_22": 128}


@triton.jit
def _next_index(i):
    return i + 1


@pytest.mark.parametrize("num_warps", [1, 4])
def test_scalar_reload_then_store_in_branch(arch: str, num_warps: int) -> None:
    # Every thread of program 0 loads the counter, loads it again at an address computed through a
    # jit function from the first value, adds one; the scalar store (issued once per program) must
    # write 1: no thread may read the counter after the store of another thread of the program.
    def kernel(counter_ptr):
        pid = tl.program_id(0)
        c = tl.load(counter_ptr)
        if pid == 0:
            c = tl.load(counter_ptr + _next_index(c) - 1).to(tl.int32) + 1
        tl.store(counter_ptr, c)

    counter = torch.zeros(1, dtype=torch.int32)
    triton.jit(kernel)[(1, )](counter, num_warps=num_warps)
    assert counter.item() == 1


def test_rotate_through_memory_within_warp(arch: str) -> None:
    # One warp, one element per lane: each lane loads its slot, then stores it (plus 100) into the next
    # lane's slot. In lockstep every load precedes every store, so slot i ends up with old[i-1] + 100;
    # a lane running ahead would store before its neighbour loads, and the value would travel on.
    def kernel(buf_ptr, W: tl.constexpr):
        lane = tl.arange(0, W)
        v = tl.load(buf_ptr + lane)
        tl.store(buf_ptr + (lane + 1) % W, v + 100)

    w = WARP_SIZE[arch]
    buf = torch.arange(w, dtype=torch.int32) * 3
    want = torch.roll(buf, 1) + 100
    triton.jit(kernel)[(1, )](buf, w, num_warps=1)
    assert torch.equal(buf, want)


def test_reversed_reads_then_store_within_warp(arch: str) -> None:
    # The same through a statement that reads and writes one buffer: x[i] = x[W-1-i] + x[i] for a
    # warp's lanes, both loads before either store (the reversed half of each lane pair is read
    # before its partner overwrites it).
    def kernel(buf_ptr, W: tl.constexpr):
        lane = tl.arange(0, W)
        a = tl.load(buf_ptr + lane)
        b = tl.load(buf_ptr + (W - 1 - lane))
        tl.store(buf_ptr + lane, a + b)

    w = WARP_SIZE[arch]
    buf = torch.arange(w, dtype=torch.int32) ** 2
    want = buf + buf.flip(0)
    triton.jit(kernel)[(1, )](buf, w, num_warps=1)
    assert torch.equal(buf, want)
