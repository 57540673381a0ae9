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


# ---------------------------------------------------------------------------------------------------------------
# The runtime switches threads only at the accesses where a turn can change the result (issue 22): a load
# with only loads since the last switch or block barrier goes on without one (LockstepPlan in
# emulator/Emulator.cpp). Each kernel below has a load that needs the switch for a reason the plan must
# see: a store in the previous iteration (a loop's back edge), a store on one path into a join, an
# atomic. Without the switch a lane would read its neighbour's slot before the neighbour's store.


def test_load_after_store_of_the_previous_iteration(arch: str) -> None:
    # Each iteration, every lane reads its right neighbour's slot and writes its own: in lockstep all
    # reads of an iteration see the writes of the one before (the loop's back edge makes the load dirty).
    def kernel(buf_ptr, iters, W: tl.constexpr):
        lane = tl.arange(0, W)
        for it in range(iters):
            v = tl.load(buf_ptr + (lane + 1) % W)
            tl.store(buf_ptr + lane, v * 3 + it)

    w, iters = WARP_SIZE[arch], 5
    buf = torch.arange(w, dtype=torch.int32)
    want = buf.clone()
    for it in range(iters):
        want = torch.roll(want, -1) * 3 + it
    triton.jit(kernel)[(1, )](buf, iters, w, num_warps=1)
    assert torch.equal(buf, want)


@pytest.mark.parametrize("flag", [0, 1])
def test_load_after_a_store_on_one_path(arch: str, flag: int) -> None:
    # A store under a (uniform) branch, then every lane reads its neighbour's slot: where the store ran,
    # every lane must see every lane's store.
    def kernel(buf_ptr, out_ptr, flag, W: tl.constexpr):
        lane = tl.arange(0, W)
        if flag != 0:
            tl.store(buf_ptr + lane, lane + 1000)
        tl.store(out_ptr + lane, tl.load(buf_ptr + (lane + 1) % W))

    w = WARP_SIZE[arch]
    buf = torch.arange(w, dtype=torch.int32)
    out = torch.zeros(w, dtype=torch.int32)
    base = torch.arange(w, dtype=torch.int32) + (1000 if flag else 0)
    triton.jit(kernel)[(1, )](buf, out, flag, w, num_warps=1)
    assert torch.equal(out, torch.roll(base, -1))


def test_load_after_an_atomic(arch: str) -> None:
    # An atomic add on each lane's slot, then a load of the neighbour's: the atomic counts as a store.
    def kernel(buf_ptr, out_ptr, W: tl.constexpr):
        lane = tl.arange(0, W)
        tl.atomic_add(buf_ptr + lane, lane * 0 + 7)
        tl.store(out_ptr + lane, tl.load(buf_ptr + (lane + 1) % W))

    w = WARP_SIZE[arch]
    buf = torch.arange(w, dtype=torch.int32)
    out = torch.zeros(w, dtype=torch.int32)
    triton.jit(kernel)[(1, )](buf, out, w, num_warps=1)
    assert torch.equal(out, torch.roll(torch.arange(w, dtype=torch.int32) + 7, -1))


def test_loads_only_kernel_does_not_switch(arch: str) -> None:
    # The other side: loads with only loads before them take the check that does not switch, the store
    # the one that does (the speed of the emulator depends on it).
    def kernel(x_ptr, y_ptr, out_ptr, W: tl.constexpr):
        lane = tl.arange(0, W)
        tl.store(out_ptr + lane, tl.load(x_ptr + lane) + tl.load(y_ptr + lane))

    w = WARP_SIZE[arch]
    x, y = torch.arange(w, dtype=torch.float32), torch.ones(w)
    out = torch.zeros(w)
    compiled = triton.jit(kernel)[(1, )](x, y, out, w, num_warps=1)
    assert torch.equal(out, x + y)
    host = compiled.function.host_ir
    assert host.count("call void @__musa_emu_check_global_in_turn(") >= 2
    assert "call void @__musa_emu_check_global(" in host
