"""The emulator runtime on hand-written LLVM-dialect kernels: warp shuffles of
every kind and width, ballots, block barriers with per-block shared memory, the
instruction counter, and deadlocks reported as errors. These are the calls the
emulator target of --convert-tritongpu-to-musa emits (EmulatorTargetInfo.cpp)."""

from __future__ import annotations

import struct
from typing import List

import pytest

from triton_musa import _musa_mlir

WARP_SIZES = (32, 128)

DECLS = """
  llvm.func @__musa_emu_thread_id(i32) -> i32
  llvm.func @__musa_emu_block_id(i32) -> i32
  llvm.func @__musa_emu_shuffle(i32, i64, i32, i32) -> i64
  llvm.func @__musa_emu_ballot(i1, i32) -> i64
  llvm.func @__musa_emu_barrier()
  llvm.func @__musa_emu_warp_sync()
  llvm.func @__musa_emu_shared_base() -> !llvm.ptr<3>
"""


def collectives_module(warp_size: int, num_warps: int, kind: int, offset: int, width: int) -> str:
    """Each thread t of block b writes 4 i64 to out[(b * threads + t) * 4 + j]:
    j=0 the shuffle of (t * 7 + 3), j=1 shared[(t + 1) % threads] after a barrier
    (each thread stored t + 1000 * b there), j=2/3 the ballot words of t % 3 == 0."""
    threads = warp_size * num_warps
    return f"""
module attributes {{"ttg.num-warps" = {num_warps} : i32, "ttg.threads-per-warp" = {warp_size} : i32,
                    "ttg.shared" = {8 * threads} : i32}} {{
{DECLS}
  llvm.func @collectives(%out: !llvm.ptr<1>) attributes {{musa.kernel}} {{
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %c1 = llvm.mlir.constant(1 : i32) : i32
    %c3 = llvm.mlir.constant(3 : i32) : i32
    %c7 = llvm.mlir.constant(7 : i32) : i32
    %c1000 = llvm.mlir.constant(1000 : i32) : i32
    %nthreads = llvm.mlir.constant({threads} : i32) : i32
    %kind = llvm.mlir.constant({kind} : i32) : i32
    %offset = llvm.mlir.constant({offset} : i32) : i32
    %width = llvm.mlir.constant({width} : i32) : i32
    %tid = llvm.call @__musa_emu_thread_id(%c0) : (i32) -> i32
    %bid = llvm.call @__musa_emu_block_id(%c0) : (i32) -> i32
    %t7 = llvm.mul %tid, %c7 : i32
    %val32 = llvm.add %t7, %c3 : i32
    %val = llvm.zext %val32 : i32 to i64
    %shfl = llvm.call @__musa_emu_shuffle(%kind, %val, %offset, %width) : (i32, i64, i32, i32) -> i64
    %smem = llvm.call @__musa_emu_shared_base() : () -> !llvm.ptr<3>
    %b1000 = llvm.mul %bid, %c1000 : i32
    %mine32 = llvm.add %tid, %b1000 : i32
    %mine = llvm.zext %mine32 : i32 to i64
    %slot = llvm.getelementptr %smem[%tid] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
    llvm.store %mine, %slot : i64, !llvm.ptr<3>
    llvm.call @__musa_emu_barrier() : () -> ()
    %next0 = llvm.add %tid, %c1 : i32
    %next = llvm.urem %next0, %nthreads : i32
    %nslot = llvm.getelementptr %smem[%next] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
    %neighbour = llvm.load %nslot : !llvm.ptr<3> -> i64
    %rem = llvm.urem %tid, %c3 : i32
    %pred = llvm.icmp "eq" %rem, %c0 : i32
    %ballot0 = llvm.call @__musa_emu_ballot(%pred, %c0) : (i1, i32) -> i64
    %ballot1 = llvm.call @__musa_emu_ballot(%pred, %c1) : (i1, i32) -> i64
    %bt = llvm.mul %bid, %nthreads : i32
    %gt = llvm.add %bt, %tid : i32
    %base = llvm.mul %gt, %c3 : i32
    %base4 = llvm.add %base, %gt : i32
    %p0 = llvm.getelementptr %out[%base4] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i64
    llvm.store %shfl, %p0 : i64, !llvm.ptr<1>
    %p1 = llvm.getelementptr %p0[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i64
    llvm.store %neighbour, %p1 : i64, !llvm.ptr<1>
    %p2 = llvm.getelementptr %p0[2] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i64
    llvm.store %ballot0, %p2 : i64, !llvm.ptr<1>
    %p3 = llvm.getelementptr %p0[3] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i64
    llvm.store %ballot1, %p3 : i64, !llvm.ptr<1>
    llvm.return
  }}
}}
"""


def expected_shuffle(lane: int, kind: int, offset: int, width: int, warp_size: int) -> int:
    w = warp_size if width == 0 else width
    first = lane - lane % w
    src = {0: lane ^ offset, 1: lane - offset, 2: lane + offset, 3: first + offset % w}[kind]
    return src if first <= src < first + w else lane


def ctypes_addr(buf: bytearray) -> int:
    import ctypes
    return ctypes.addressof((ctypes.c_char * len(buf)).from_buffer(buf))


@pytest.mark.parametrize("warp_size", WARP_SIZES)
@pytest.mark.parametrize("kind,offset,width", [(0, 1, 0), (0, 16, 0), (0, 2, 4), (1, 1, 0), (1, 3, 8), (2, 1, 0),
                                               (2, 5, 16), (3, 0, 0), (3, 5, 8), (3, 31, 32)])
def test_shuffle_barrier_shared_ballot(warp_size: int, kind: int, offset: int, width: int) -> None:
    num_warps, blocks = 2, 3
    threads = warp_size * num_warps
    kernel = _musa_mlir.emulator_load(collectives_module(warp_size, num_warps, kind, offset, width))
    assert (kernel.name, kernel.num_warps, kernel.warp_size, kernel.param_kinds) == \
        ("collectives", num_warps, warp_size, ["ptr"])
    buf = bytearray(8 * 4 * threads * blocks)
    addr = ctypes_addr(buf)
    kernel.launch((blocks, 1, 1), struct.pack("<Q", addr), [(addr, len(buf), "argument 'out'")], num_workers=2)
    words = struct.unpack(f"<{4 * threads * blocks}Q", bytes(buf))
    for b in range(blocks):
        for t in range(threads):
            lane, warp = t % warp_size, t // warp_size
            shfl, neighbour, ballot0, ballot1 = words[(b * threads + t) * 4:(b * threads + t) * 4 + 4]
            src = expected_shuffle(lane, kind, offset, width, warp_size)
            assert shfl == (warp * warp_size + src) * 7 + 3, (b, t)
            assert neighbour == (t + 1) % threads + 1000 * b, (b, t)
            ballot = sum(1 << i for i in range(warp_size) if (warp * warp_size + i) % 3 == 0)
            assert ballot0 == ballot & (2**64 - 1) and ballot1 == ballot >> 64, (b, t)


def deadlock_module() -> str:
    return f"""
module attributes {{"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32}} {{
{DECLS}
  llvm.func @stuck() attributes {{musa.kernel}} {{
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %tid = llvm.call @__musa_emu_thread_id(%c0) : (i32) -> i32
    %first = llvm.icmp "eq" %tid, %c0 : i32
    llvm.cond_br %first, ^warp, ^block
  ^warp:
    llvm.call @__musa_emu_warp_sync() : () -> ()
    llvm.return
  ^block:
    llvm.call @__musa_emu_barrier() : () -> ()
    llvm.return
  }}
}}
"""


def test_deadlock_is_an_error() -> None:
    kernel = _musa_mlir.emulator_load(deadlock_module())
    with pytest.raises(_musa_mlir.EmulatorError, match=r"kernel 'stuck', program id \(0, 0, 0\): deadlock"):
        kernel.launch((1, 1, 1), b"", [])


def test_out_of_bounds_load_names_the_thread() -> None:
    module = f"""
module attributes {{"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32}} {{
{DECLS}
  llvm.func @reader(%p: !llvm.ptr<1>) attributes {{musa.kernel}} {{
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %tid = llvm.call @__musa_emu_thread_id(%c0) : (i32) -> i32
    %q = llvm.getelementptr %p[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %v = llvm.load %q : !llvm.ptr<1> -> f32
    %r = llvm.fadd %v, %v : f32
    llvm.store %r, %q : f32, !llvm.ptr<1>
    llvm.return
  }}
}}
"""
    kernel = _musa_mlir.emulator_load(module)
    buf = bytearray(4 * 20)  # 20 floats: thread 20 reads past the end
    addr = ctypes_addr(buf)
    with pytest.raises(_musa_mlir.EmulatorError) as info:
        kernel.launch((1, 1, 1), struct.pack("<Q", addr), [(addr, len(buf), "argument 'p'")])
    message = str(info.value)
    assert "kernel 'reader', program id (0, 0, 0), thread 20 (warp 0, lane 20)" in message
    assert f"out-of-bounds load of 4 bytes at address {addr + 80:#x}" in message
    assert "0 bytes past the end of argument 'p'" in message
    with pytest.raises(_musa_mlir.EmulatorError, match="misaligned load of 4 bytes"):
        kernel.launch((1, 1, 1), struct.pack("<Q", addr + 1), [(addr, len(buf), "argument 'p'")])
    # Misaligned and inside the tensor for every thread: the inline fast path of the check
    # (Runtime.cpp, checkGlobal) must not pass the first access.
    big = bytearray(4 * 32 + 4)
    big_addr = ctypes_addr(big)
    with pytest.raises(_musa_mlir.EmulatorError, match=r"thread 0 \(warp 0, lane 0\): misaligned load of 4 bytes"):
        kernel.launch((1, 1, 1), struct.pack("<Q", big_addr + 1), [(big_addr, len(big), "argument 'p'")])


def test_instruction_count() -> None:
    kernel = _musa_mlir.emulator_load(collectives_module(32, 1, 0, 1, 0), count_instructions=True)
    buf = bytearray(8 * 4 * 32 * 2)
    addr = ctypes_addr(buf)
    instructions, blocks = kernel.launch((2, 1, 1), struct.pack("<Q", addr), [(addr, len(buf), "out")])
    assert blocks == 2
    # Every thread runs the same straight-line code: a multiple of 64 threads.
    assert instructions > 0 and instructions % 64 == 0


def test_bad_module_is_an_error() -> None:
    with pytest.raises(_musa_mlir.EmulatorError, match="expected one kernel"):
        _musa_mlir.emulator_load("module {}")


def test_out_of_bounds_shared_store_is_reported() -> None:
    module = f"""
module attributes {{"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.shared" = 64 : i32}} {{
{DECLS}
  llvm.func @smem_overflow() attributes {{musa.kernel}} {{
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %tid = llvm.call @__musa_emu_thread_id(%c0) : (i32) -> i32
    %v = llvm.zext %tid : i32 to i64
    %smem = llvm.call @__musa_emu_shared_base() : () -> !llvm.ptr<3>
    %slot = llvm.getelementptr %smem[%tid] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
    llvm.store %v, %slot : i64, !llvm.ptr<3>
    llvm.return
  }}
}}
"""
    kernel = _musa_mlir.emulator_load(module)
    assert kernel.shared_bytes == 64
    with pytest.raises(_musa_mlir.EmulatorError) as info:
        kernel.launch((1, 1, 1), b"", [])
    message = str(info.value)
    assert "kernel 'smem_overflow', program id (0, 0, 0), thread 8 (warp 0, lane 8)" in message
    assert "out-of-bounds shared-memory store of 8 bytes at offset 64" in message
    assert "has 64 bytes of shared memory" in message


def test_misaligned_shared_load_is_reported() -> None:
    # Inside shared memory but 4 bytes off the load's 8-byte alignment: the inline fast path of the
    # check (Runtime.cpp, checkShared) must not pass it.
    module = f"""
module attributes {{"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.shared" = 64 : i32}} {{
{DECLS}
  llvm.func @smem_misaligned(%out: !llvm.ptr<1>) attributes {{musa.kernel}} {{
    %c1 = llvm.mlir.constant(1 : i32) : i32
    %smem = llvm.call @__musa_emu_shared_base() : () -> !llvm.ptr<3>
    %slot = llvm.getelementptr %smem[%c1] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
    %v = llvm.load %slot {{alignment = 8 : i64}} : !llvm.ptr<3> -> i64
    llvm.store %v, %out : i64, !llvm.ptr<1>
    llvm.return
  }}
}}
"""
    kernel = _musa_mlir.emulator_load(module)
    buf = bytearray(8)
    addr = ctypes_addr(buf)
    with pytest.raises(_musa_mlir.EmulatorError, match="misaligned shared-memory load of 8 bytes at offset 4: "
                       "the access needs 8-byte alignment"):
        kernel.launch((1, 1, 1), struct.pack("<Q", addr), [(addr, len(buf), "argument 'out'")])


def racy_module(with_barrier: bool) -> str:
    barrier = "llvm.call @__musa_emu_barrier() : () -> ()" if with_barrier else ""
    return f"""
module attributes {{"ttg.num-warps" = 2 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.shared" = 512 : i32}} {{
{DECLS}
  llvm.func @neighbours() attributes {{musa.kernel}} {{
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %c1 = llvm.mlir.constant(1 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %tid = llvm.call @__musa_emu_thread_id(%c0) : (i32) -> i32
    %v = llvm.zext %tid : i32 to i64
    %smem = llvm.call @__musa_emu_shared_base() : () -> !llvm.ptr<3>
    %slot = llvm.getelementptr %smem[%tid] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
    llvm.store %v, %slot : i64, !llvm.ptr<3>
    {barrier}
    %n0 = llvm.add %tid, %c1 : i32
    %n = llvm.urem %n0, %c64 : i32
    %nslot = llvm.getelementptr %smem[%n] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
    %w = llvm.load %nslot : !llvm.ptr<3> -> i64
    {barrier}
    llvm.store %w, %slot : i64, !llvm.ptr<3>
    llvm.return
  }}
}}
"""


def test_race_check_reports_a_missing_barrier() -> None:
    kernel = _musa_mlir.emulator_load(racy_module(with_barrier=False))
    kernel.launch((2, 1, 1), b"", [])  # no checking: runs
    with pytest.raises(_musa_mlir.EmulatorError) as info:
        kernel.launch((2, 1, 1), b"", [], race_check=True)
    message = str(info.value)
    # Threads take turns at each access (lockstep): every thread stores its slot, then thread 0 is
    # the first to load its neighbour's slot, which thread 1 stored with no barrier in between.
    assert "kernel 'neighbours', program id (0, 0, 0), thread 0 (warp 0, lane 0)" in message
    assert ("shared-memory race: load of 8 bytes at offset 8 conflicts with a store of byte 8 by thread 1 "
            "(warp 0, lane 1)") in message


def test_race_check_accepts_barriers() -> None:
    kernel = _musa_mlir.emulator_load(racy_module(with_barrier=True))
    kernel.launch((3, 1, 1), b"", [], race_check=True, num_workers=2)
    kernel = _musa_mlir.emulator_load(collectives_module(128, 2, 0, 1, 0))
    buf = bytearray(8 * 4 * 256 * 2)
    addr = ctypes_addr(buf)
    kernel.launch((2, 1, 1), struct.pack("<Q", addr), [(addr, len(buf), "out")], race_check=True)


def async_copy_module(bytes_per_copy: int) -> str:
    """Thread t zeroes shared word t, starts an async copy of in[t] into it, reads it (before),
    waits for its copies, reads it again (after): out[2t] = before, out[2t + 1] = after."""
    return f"""
module attributes {{"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.shared" = 128 : i32}} {{
{DECLS}
  llvm.func @__musa_emu_async_copy(!llvm.ptr<3>, !llvm.ptr<1>, i32)
  llvm.func @__musa_emu_async_copy_wait()
  llvm.func @async_copy(%in: !llvm.ptr<1>, %out: !llvm.ptr<1>) attributes {{musa.kernel}} {{
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %c1 = llvm.mlir.constant(1 : i32) : i32
    %c2 = llvm.mlir.constant(2 : i32) : i32
    %bytes = llvm.mlir.constant({bytes_per_copy} : i32) : i32
    %tid = llvm.call @__musa_emu_thread_id(%c0) : (i32) -> i32
    %smem = llvm.call @__musa_emu_shared_base() : () -> !llvm.ptr<3>
    %slot = llvm.getelementptr %smem[%tid] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
    llvm.store %c0, %slot : i32, !llvm.ptr<3>
    %src = llvm.getelementptr %in[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
    llvm.call @__musa_emu_async_copy(%slot, %src, %bytes) : (!llvm.ptr<3>, !llvm.ptr<1>, i32) -> ()
    %before = llvm.load %slot : !llvm.ptr<3> -> i32
    llvm.call @__musa_emu_async_copy_wait() : () -> ()
    %after = llvm.load %slot : !llvm.ptr<3> -> i32
    %i0 = llvm.mul %tid, %c2 : i32
    %i1 = llvm.add %i0, %c1 : i32
    %p0 = llvm.getelementptr %out[%i0] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
    %p1 = llvm.getelementptr %out[%i1] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
    llvm.store %before, %p0 : i32, !llvm.ptr<1>
    llvm.store %after, %p1 : i32, !llvm.ptr<1>
    llvm.return
  }}
}}
"""


def test_async_copy_lands_at_the_wait() -> None:
    # The emulator reads the source when the copy starts and writes shared memory only at the
    # thread's wait, so a kernel reading the buffer before its wait sees the old contents.
    kernel = _musa_mlir.emulator_load(async_copy_module(4))
    src = bytearray(struct.pack("<32i", *(100 + t for t in range(32))))
    out = bytearray(8 * 32)
    src_addr, out_addr = ctypes_addr(src), ctypes_addr(out)
    kernel.launch((1, 1, 1), struct.pack("<QQ", src_addr, out_addr),
                  [(src_addr, len(src), "argument 'in'"), (out_addr, len(out), "argument 'out'")])
    words = struct.unpack("<64i", bytes(out))
    assert words[0::2] == (0, ) * 32
    assert words[1::2] == tuple(100 + t for t in range(32))


def test_async_copy_checks_size_and_bounds() -> None:
    kernel = _musa_mlir.emulator_load(async_copy_module(3))
    src, out = bytearray(4 * 32), bytearray(8 * 32)
    src_addr, out_addr = ctypes_addr(src), ctypes_addr(out)
    buffers = [(src_addr, len(src), "argument 'in'"), (out_addr, len(out), "argument 'out'")]
    with pytest.raises(_musa_mlir.EmulatorError, match="asynchronous copy of 3 bytes: 4, 8 or 16 bytes per copy"):
        kernel.launch((1, 1, 1), struct.pack("<QQ", src_addr, out_addr), buffers)
    kernel = _musa_mlir.emulator_load(async_copy_module(4))
    with pytest.raises(_musa_mlir.EmulatorError, match=r"thread 31 .*out-of-bounds load of 4 bytes"):
        kernel.launch((1, 1, 1), struct.pack("<QQ", src_addr + 4, out_addr),
                      [(src_addr + 4, len(src) - 4, "argument 'in'"), buffers[1]])
