"""The GPU proxy's SQMMA accumulator (layouts/HopperFragments.h) against the PTX ISA's register map
of wgmma.mma_async.m64nNk* ("Matrix Fragments for wgmma", accumulator D): warp w of the warpgroup
owns rows 16w..16w+15; lane l holds rows 16w + l/4 + 8i and columns 8j + 2(l % 4) + e, its
registers ordered j, then i, then e. A tile of m rows stacks m/64 instructions along M, the
registers of instruction t after those of instruction t - 1."""

from __future__ import annotations

import itertools
from typing import Dict, List, Tuple

import pytest

from triton_musa._musa_mlir import LinearLayout, wgmma_accumulator_layout


def ptx_accumulator(m: int, n: int, reg: int, lane: int, warp: int) -> Tuple[int, int]:
    """(row, col) of accumulator register `reg` of `lane` in `warp`, as the PTX ISA states it."""
    per_instruction = n // 2
    t, r = divmod(reg, per_instruction)
    j, rest = divmod(r, 4)
    i, e = divmod(rest, 2)
    row = 64 * t + 16 * warp + lane // 4 + 8 * i
    col = 8 * j + 2 * (lane % 4) + e
    return row, col


def evaluate(layout: LinearLayout) -> Dict[Tuple[int, int, int], Tuple[int, int]]:
    """{(register, lane, warp): (row, col)} over every input, XOR of the set bits' bases."""
    dims: List[List[List[int]]] = [layout.bases[name] for name in ("register", "lane", "warp")]
    result = {}
    for index in itertools.product(*(range(1 << len(bases)) for bases in dims)):
        coord = [0, 0]
        for value, bases in zip(index, dims):
            for bit, basis in enumerate(bases):
                if value >> bit & 1:
                    coord = [a ^ b for a, b in zip(coord, basis)]
        result[index] = (coord[0], coord[1])
    return result


@pytest.mark.parametrize("m,n", [(64, 8), (64, 64), (64, 256), (128, 64), (128, 128), (256, 32)])
def test_wgmma_accumulator_matches_ptx(m: int, n: int) -> None:
    layout = wgmma_accumulator_layout(m, n)
    assert layout.in_dims == {"register": m * n // 128, "lane": 32, "warp": 4}
    assert layout.out_dims == {"dim0": m, "dim1": n}
    for (reg, lane, warp), coord in evaluate(layout).items():
        assert coord == ptx_accumulator(m, n, reg, lane, warp), (reg, lane, warp)
    # Every element of the tile once.
    assert layout.is_surjective() and layout.is_injective()


@pytest.mark.parametrize("m,n,message", [
    (32, 64, "multiple of 64 rows, got 32"),
    (192, 64, "multiple of 64 rows, got 192"),
    (64, 4, "from 8 to 256, got 4"),
    (64, 512, "from 8 to 256, got 512"),
    (64, 24, "from 8 to 256, got 24"),
])
def test_wgmma_accumulator_rejects_other_tiles(m: int, n: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        wgmma_accumulator_layout(m, n)
