"""Batched warp shuffles (batchWarpShuffles in emulator/Emulator.cpp, __musa_emu_shuffle_batch in
emulator/Runtime.cpp): a run of shuffles that do not depend on each other is exchanged in one turn of
the warp's lanes. Every lane must still read exactly the value of its source lane for each shuffle of
the run, shuffles that depend on an earlier one must wait for it, and lanes that reach a batch by
different paths must be reported instead of reading each other's unrelated values."""

from __future__ import annotations

import re
import struct
from typing import List, Tuple

import pytest
import torch
import triton
import triton.language as tl

from triton_musa import _musa_mlir

from test_emulator_runtime import DECLS, ctypes_addr, expected_shuffle

Run = List[Tuple[int, object, int]]
# (kind, offset, width) of the independent runs; None as the offset: lane-dependent ((t * 5) % 32).
MIXED: Run = [(1, 1, 0), (0, 2, 4), (2, 5, 16), (3, None, 8), (0, 16, 0), (1, 3, 8)]
# One set of operands (kShuffleBatchUniform): a row of the source lane is copied whole.
UNIFORM: Run = [(2, 3, 16)] * 5
LANE_UNIFORM: Run = [(3, None, 0)] * 4


def batch_module(warp_size: int, num_warps: int, run: Run) -> str:
    """Thread t of block b writes len(run) + 1 i64 at out[(b * threads + t) * (len(run) + 1) + j]:
    j < len(run): shuffle j of `run` applied to (t * 7 + 3 + 1000 * j); the last: an xor-1 shuffle of
    the sum of 3 * (the first two results), which depends on the run. Between the shuffles of the run
    sit both the computation of the next shuffle's value (which moves above the batch) and uses of
    the previous shuffle's result (which move below it)."""
    threads = warp_size * num_warps
    words = len(run) + 1
    lines = [
        "%c0 = llvm.mlir.constant(0 : i32) : i32",
        "%c1 = llvm.mlir.constant(1 : i32) : i32",
        "%c3 = llvm.mlir.constant(3 : i32) : i32",
        "%c5 = llvm.mlir.constant(5 : i32) : i32",
        "%c7 = llvm.mlir.constant(7 : i32) : i32",
        "%c31 = llvm.mlir.constant(31 : i32) : i32",
        "%c3l = llvm.mlir.constant(3 : i64) : i64",
        f"%nthreads = llvm.mlir.constant({threads} : i32) : i32",
        f"%nwords = llvm.mlir.constant({words} : i32) : i32",
        "%tid = llvm.call @__musa_emu_thread_id(%c0) : (i32) -> i32",
        "%bid = llvm.call @__musa_emu_block_id(%c0) : (i32) -> i32",
        "%t7 = llvm.mul %tid, %c7 : i32",
        "%x32 = llvm.add %t7, %c3 : i32",
        "%x = llvm.zext %x32 : i32 to i64",
        "%t5 = llvm.mul %tid, %c5 : i32",
        "%laneoff = llvm.and %t5, %c31 : i32",
    ]
    for j, (kind, offset, width) in enumerate(run):
        lines += [
            f"%add{j} = llvm.mlir.constant({1000 * j} : i64) : i64",
            f"%v{j} = llvm.add %x, %add{j} : i64",
            f"%k{j} = llvm.mlir.constant({kind} : i32) : i32",
            f"%w{j} = llvm.mlir.constant({width} : i32) : i32",
        ]
        if offset is None:
            off = "%laneoff"
        else:
            lines.append(f"%o{j} = llvm.mlir.constant({offset} : i32) : i32")
            off = f"%o{j}"
        lines += [
            f"%s{j} = llvm.call @__musa_emu_shuffle(%k{j}, %v{j}, {off}, %w{j}) : (i32, i64, i32, i32) -> i64",
            f"%d{j} = llvm.mul %s{j}, %c3l : i64",
        ]
    lines += [
        "%sum = llvm.add %d0, %d1 : i64",
        "%xor = llvm.mlir.constant(0 : i32) : i32",
        "%wfull = llvm.mlir.constant(0 : i32) : i32",
        "%chain = llvm.call @__musa_emu_shuffle(%xor, %sum, %c1, %wfull) : (i32, i64, i32, i32) -> i64",
        "%bt = llvm.mul %bid, %nthreads : i32",
        "%gt = llvm.add %bt, %tid : i32",
        "%base = llvm.mul %gt, %nwords : i32",
        "%p = llvm.getelementptr %out[%base] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i64",
    ]
    for j in range(len(run)):
        lines += [f"%p{j} = llvm.getelementptr %p[{j}] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i64",
                  f"llvm.store %s{j}, %p{j} : i64, !llvm.ptr<1>"]
    lines += [f"%pc = llvm.getelementptr %p[{len(run)}] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i64",
              "llvm.store %chain, %pc : i64, !llvm.ptr<1>", "llvm.return"]
    body = "\n    ".join(lines)
    return f"""
module attributes {{"ttg.num-warps" = {num_warps} : i32, "ttg.threads-per-warp" = {warp_size} : i32}} {{
{DECLS}
  llvm.func @batch(%out: !llvm.ptr<1>) attributes {{musa.kernel}} {{
    {body}
  }}
}}
"""


@pytest.mark.parametrize("warp_size", (32, 128))
@pytest.mark.parametrize("run", (MIXED, UNIFORM, LANE_UNIFORM), ids=("mixed", "uniform", "lane-uniform"))
def test_independent_shuffles_are_one_exact_exchange(warp_size: int, run: Run) -> None:
    num_warps, blocks = 2, 3
    threads = warp_size * num_warps
    words = len(run) + 1
    kernel = _musa_mlir.emulator_load(batch_module(warp_size, num_warps, run))
    # The run became one batch; the dependent shuffle stayed out of it.
    uniform = len(set(run)) == 1
    batches = re.findall(r"call void @__musa_emu_shuffle_batch(_uniform)?\(i32 (\d+),", kernel.host_ir)
    assert batches == [("_uniform" if uniform else "", str(len(run)))], batches
    assert kernel.host_ir.count("call i64 @__musa_emu_shuffle(") == 1
    buf = bytearray(8 * words * threads * blocks)
    addr = ctypes_addr(buf)
    kernel.launch((blocks, 1, 1), struct.pack("<Q", addr), [(addr, len(buf), "argument 'out'")], num_workers=2)
    got = struct.unpack(f"<{words * threads * blocks}Q", bytes(buf))

    def shuffled(t: int, j: int) -> int:
        kind, offset, width = run[j]
        lane, warp = t % warp_size, t // warp_size
        off = (t * 5) % 32 if offset is None else offset
        src = warp * warp_size + expected_shuffle(lane, kind, off, width, warp_size)
        return src * 7 + 3 + 1000 * j

    for b in range(blocks):
        for t in range(threads):
            row = got[(b * threads + t) * words:(b * threads + t + 1) * words]
            assert list(row[:len(run)]) == [shuffled(t, j) for j in range(len(run))], (b, t)
            partner = (t // warp_size) * warp_size + ((t % warp_size) ^ 1)
            assert row[-1] == 3 * (shuffled(partner, 0) + shuffled(partner, 1)), (b, t)


def diverged_module() -> str:
    """Even lanes take a path with a run of two shuffles, odd lanes one with a single shuffle."""
    return f"""
module attributes {{"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32}} {{
{DECLS}
  llvm.func @diverged(%out: !llvm.ptr<1>) attributes {{musa.kernel}} {{
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %c1 = llvm.mlir.constant(1 : i32) : i32
    %tid = llvm.call @__musa_emu_thread_id(%c0) : (i32) -> i32
    %v = llvm.zext %tid : i32 to i64
    %odd = llvm.and %tid, %c1 : i32
    %isodd = llvm.icmp "ne" %odd, %c0 : i32
    %p = llvm.getelementptr %out[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i64
    llvm.cond_br %isodd, ^single, ^pair
  ^single:
    %c2 = llvm.mlir.constant(2 : i32) : i32
    %s = llvm.call @__musa_emu_shuffle(%c2, %v, %c1, %c0) : (i32, i64, i32, i32) -> i64
    llvm.store %s, %p : i64, !llvm.ptr<1>
    llvm.return
  ^pair:
    %a = llvm.call @__musa_emu_shuffle(%c0, %v, %c1, %c0) : (i32, i64, i32, i32) -> i64
    %b = llvm.call @__musa_emu_shuffle(%c1, %v, %c1, %c0) : (i32, i64, i32, i32) -> i64
    %ab = llvm.add %a, %b : i64
    llvm.store %ab, %p : i64, !llvm.ptr<1>
    llvm.return
  }}
}}
"""


def test_lanes_diverged_at_a_batch_are_reported() -> None:
    kernel = _musa_mlir.emulator_load(diverged_module())
    assert "@__musa_emu_shuffle_batch(i32 2," in kernel.host_ir
    buf = bytearray(8 * 32)
    addr = ctypes_addr(buf)
    with pytest.raises(_musa_mlir.EmulatorError, match=r"lanes of warp 0 meet at different warp collectives"):
        kernel.launch((1, 1, 1), struct.pack("<Q", addr), [(addr, len(buf), "argument 'out'")])


@triton.jit
def _scan_kernel(x_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr, REVERSE: tl.constexpr):
    rm = tl.arange(0, BM)[:, None]
    rn = tl.arange(0, BN)[None, :]
    mask = (rm < M) & (rn < N)
    x = tl.load(x_ptr + rm * N + rn, mask=mask, other=0)
    tl.store(out_ptr + rm * N + rn, tl.cumsum(x, axis=1, reverse=REVERSE), mask=mask)


@pytest.mark.parametrize("shape,block,warps", [((13, 200), (16, 256), 4), ((5, 70), (8, 128), 2), ((3, 33), (4, 64), 1)])
@pytest.mark.parametrize("reverse", (False, True))
def test_cumsum_through_batched_shuffles(shape: Tuple[int, int], block: Tuple[int, int], warps: int,
                                         reverse: bool) -> None:
    """Triton's scan lowering shuffles every register of a thread with one offset after the other:
    the runs the batching takes. Integers, so that any wrong lane or order changes the result."""
    M, N = shape
    x = torch.randint(-1000, 1000, (M, N), dtype=torch.int32, generator=torch.Generator().manual_seed(M * N))
    out = torch.empty_like(x)
    _scan_kernel[(1, )](x, out, M, N, block[0], block[1], reverse, num_warps=warps)
    want = torch.cumsum(x.flip(1), dim=1).flip(1) if reverse else torch.cumsum(x, dim=1)
    assert torch.equal(out, want.to(torch.int32))
