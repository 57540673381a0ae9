"""The inline part of the bounds checks (instrumentMemoryAccesses in emulator/Emulator.cpp): an access
that needs no fiber switch is tested in the kernel's own code against the thread's FastBounds (the
buffer the last global access hit, the block's shared memory) and calls the runtime's check only
outside them. Each test puts an access just outside what the inline test may pass, where only the
full check reports it, or where the race check must see it."""

from __future__ import annotations

import struct

import pytest

from triton_musa import _musa_mlir

from test_emulator_runtime import DECLS, ctypes_addr


def two_loads_module(second_offset: int) -> str:
    """out[tid] = p[tid] + p[tid + second_offset]: both loads need no switch (the kernel starts with
    every thread together, and the second only follows a load)."""
    return f"""
module attributes {{"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32}} {{
{DECLS}
  llvm.func @two_loads(%p: !llvm.ptr<1>, %out: !llvm.ptr<1>) attributes {{musa.kernel}} {{
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %off = llvm.mlir.constant({second_offset} : i32) : i32
    %tid = llvm.call @__musa_emu_thread_id(%c0) : (i32) -> i32
    %q = llvm.getelementptr %p[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %a = llvm.load %q : !llvm.ptr<1> -> f32
    %i = llvm.add %tid, %off : i32
    %r = llvm.getelementptr %p[%i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %b = llvm.load %r : !llvm.ptr<1> -> f32
    %s = llvm.fadd %a, %b : f32
    %o = llvm.getelementptr %out[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    llvm.store %s, %o : f32, !llvm.ptr<1>
    llvm.return
  }}
}}
"""


@pytest.mark.parametrize("second_offset,where", [(-40, "bytes before argument 'p'"),
                                                 (8, "bytes past the end of argument 'p'")])
def test_in_turn_global_load_outside_its_tensor_is_reported(second_offset: int, where: str) -> None:
    kernel = _musa_mlir.emulator_load(two_loads_module(second_offset))
    assert "__musa_emu_fast_bounds" in kernel.host_ir
    # The tensor is the middle of a larger host buffer: the stray loads hit mapped memory, so only
    # the check can tell.
    host = bytearray(4 * 200)
    base = ctypes_addr(host)
    p, nbytes = base + 4 * 80, 4 * 32
    out = bytearray(4 * 32)
    out_addr = ctypes_addr(out)
    buffers = [(p, nbytes, "argument 'p'"), (out_addr, len(out), "argument 'out'")]
    with pytest.raises(_musa_mlir.EmulatorError) as info:
        kernel.launch((1, 1, 1), struct.pack("<QQ", p, out_addr), buffers)
    message = str(info.value)
    assert "out-of-bounds load of 4 bytes" in message and where in message
    # In bounds, the same kernel runs and computes.
    ok = bytearray(struct.pack("<64f", *range(64)))
    ok_addr = ctypes_addr(ok)
    kernel = _musa_mlir.emulator_load(two_loads_module(32))
    kernel.launch((1, 1, 1), struct.pack("<QQ", ok_addr, out_addr),
                  [(ok_addr, len(ok), "argument 'p'"), (out_addr, len(out), "argument 'out'")])
    assert struct.unpack("<32f", bytes(out)) == tuple(float(2 * t + 32) for t in range(32))


def alternating_module() -> str:
    """out[tid] = a[tid] + b[tid] + a[tid + 32] + b[tid + 32]: every load needs no switch and each
    lands in the other tensor than the one before."""
    loads = []
    for i, (name, off) in enumerate([("a", 0), ("b", 0), ("a", 32), ("b", 32)]):
        loads += [f"%i{i} = llvm.add %tid, %c{off} : i32",
                  f"%q{i} = llvm.getelementptr %{name}[%i{i}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32",
                  f"%v{i} = llvm.load %q{i} : !llvm.ptr<1> -> i32"]
    body = "\n    ".join(loads)
    return f"""
module attributes {{"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32}} {{
{DECLS}
  llvm.func @alternating(%a: !llvm.ptr<1>, %b: !llvm.ptr<1>, %out: !llvm.ptr<1>) attributes {{musa.kernel}} {{
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %tid = llvm.call @__musa_emu_thread_id(%c0) : (i32) -> i32
    {body}
    %s0 = llvm.add %v0, %v1 : i32
    %s1 = llvm.add %v2, %v3 : i32
    %s = llvm.add %s0, %s1 : i32
    %o = llvm.getelementptr %out[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
    llvm.store %s, %o : i32, !llvm.ptr<1>
    llvm.return
  }}
}}
"""


def test_in_turn_loads_follow_the_last_buffer() -> None:
    kernel = _musa_mlir.emulator_load(alternating_module())
    a = bytearray(struct.pack("<64i", *range(64)))
    b = bytearray(struct.pack("<64i", *(1000 * i for i in range(64))))
    out = bytearray(4 * 32)
    addrs = [ctypes_addr(x) for x in (a, b, out)]
    buffers = [(addr, len(x), name) for addr, x, name in zip(addrs, (a, b, out), ("a", "b", "out"))]
    kernel.launch((2, 1, 1), struct.pack("<QQQ", *addrs), buffers, num_workers=2)
    assert struct.unpack("<32i", bytes(out)) == tuple(1001 * (2 * t + 32) for t in range(32))


def shared_loads_module(second_slot_offset: int, shared_bytes: int) -> str:
    """Thread t stores t into shared slot t, then loads slot t (a switch: it follows a store) and
    slot t + second_slot_offset (no switch: it follows a load), out[t] = their sum."""
    return f"""
module attributes {{"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32,
                    "ttg.shared" = {shared_bytes} : i32}} {{
{DECLS}
  llvm.func @shared_loads(%out: !llvm.ptr<1>) attributes {{musa.kernel}} {{
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %off = llvm.mlir.constant({second_slot_offset} : i32) : i32
    %tid = llvm.call @__musa_emu_thread_id(%c0) : (i32) -> i32
    %v = llvm.zext %tid : i32 to i64
    %smem = llvm.call @__musa_emu_shared_base() : () -> !llvm.ptr<3>
    %slot = llvm.getelementptr %smem[%tid] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
    llvm.store %v, %slot : i64, !llvm.ptr<3>
    %mine = llvm.load %slot : !llvm.ptr<3> -> i64
    %n = llvm.add %tid, %off : i32
    %nslot = llvm.getelementptr %smem[%n] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
    %theirs = llvm.load %nslot : !llvm.ptr<3> -> i64
    %s = llvm.add %mine, %theirs : i64
    %o = llvm.getelementptr %out[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i64
    llvm.store %s, %o : i64, !llvm.ptr<1>
    llvm.return
  }}
}}
"""


def test_in_turn_shared_loads_are_race_checked() -> None:
    # The neighbour's slot was stored with no barrier in between: a race, which only the full check
    # (recording every shared access) can see.
    kernel = _musa_mlir.emulator_load(shared_loads_module(1, 8 * 64))
    out = bytearray(8 * 32)
    addr = ctypes_addr(out)
    buffers = [(addr, len(out), "argument 'out'")]
    kernel.launch((1, 1, 1), struct.pack("<Q", addr), buffers)
    assert struct.unpack("<32Q", bytes(out))[:31] == tuple(2 * t + 1 for t in range(31))
    with pytest.raises(_musa_mlir.EmulatorError, match=r"shared-memory race: load of 8 bytes at offset 8 "
                       r"conflicts with a store of byte 8 by thread 1"):
        kernel.launch((1, 1, 1), struct.pack("<Q", addr), buffers, race_check=True)


def test_in_turn_shared_load_outside_shared_memory_is_reported() -> None:
    kernel = _musa_mlir.emulator_load(shared_loads_module(32, 8 * 32))
    out = bytearray(8 * 32)
    addr = ctypes_addr(out)
    with pytest.raises(_musa_mlir.EmulatorError, match=r"thread 0 \(warp 0, lane 0\): out-of-bounds shared-memory "
                       r"load of 8 bytes at offset 256: the kernel has 256 bytes"):
        kernel.launch((1, 1, 1), struct.pack("<Q", addr), [(addr, len(out), "argument 'out'")])
