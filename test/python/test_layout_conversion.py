"""Layout attributes -> linear layouts (_musa_mlir.layout_to_linear) against brute-force models.

Each model below states a layout's semantics directly (mixed-radix thread/register indices,
modular wrap, XOR swizzles on addresses), independently of GF(2) bases; the tests evaluate
the converted layout on every register/lane/warp (or offset) value and compare.
"""

from __future__ import annotations

import itertools
import math
import re
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Tuple

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from triton_musa._musa_mlir import LinearLayout, layout_to_linear, type_to_linear  # noqa: E402

settings.register_profile("layout_conversion", max_examples=100, deadline=None)
settings.load_profile("layout_conversion")

Coord = Tuple[int, ...]


# --- evaluating a converted layout ------------------------------------------------------


def images(bases: List[List[int]], rank: int) -> List[Coord]:
    """Image of every value of one input dimension (XOR of the bases of its set bits)."""
    table: List[Coord] = [tuple([0] * rank)]
    for basis in bases:
        table += [tuple(a ^ b for a, b in zip(prev, basis)) for prev in table]
    return table


def evaluate(layout: LinearLayout) -> Dict[Tuple[int, ...], Coord]:
    """{(value per input dim, in order): coordinates} over every input."""
    rank = len(layout.out_dims)
    tables = [images(bases, rank) for bases in layout.bases.values()]
    result: Dict[Tuple[int, ...], Coord] = {}
    for index in itertools.product(*(range(len(t)) for t in tables)):
        coord = [0] * rank
        for table, value in zip(tables, index):
            coord = [a ^ b for a, b in zip(coord, table[value])]
        result[index] = tuple(coord)
    return result


def check_distributed(layout: LinearLayout, shape: Sequence[int], lanes: int, warps: int,
                      registers: int, model: Callable[[int, int, int], Coord]) -> None:
    """The layout has the expected signature and agrees with `model` everywhere."""
    assert layout.in_dims == {"register": registers, "lane": lanes, "warp": warps, "block": 1}
    assert layout.out_dims == {f"dim{i}": s for i, s in enumerate(shape)}
    for (reg, lane, warp, _), coord in evaluate(layout).items():
        assert coord == model(reg, lane, warp), (reg, lane, warp)
    assert layout.is_surjective()


def digits(value: int, radices: Dict[int, int], order: Sequence[int]) -> Dict[int, int]:
    """Mixed-radix digits of `value` along `order` (order[0] least significant)."""
    out = {}
    for d in order:
        out[d] = value % radices[d]
        value //= radices[d]
    return out


# --- blocked, slice and FMA dot-operand models --------------------------------------------


def blocked_text(spt: Sequence[int], tpw: Sequence[int], wpc: Sequence[int],
                 order: Sequence[int]) -> str:
    return (f"#ttg.blocked<{{sizePerThread = {list(spt)}, threadsPerWarp = {list(tpw)}, "
            f"warpsPerCTA = {list(wpc)}, order = {list(order)}}}>")


class BlockedModel:
    """Thread (lane, warp) owns sizePerThread tiles at lane/warp strides; the CTA tile repeats
    in registers (order[0] first) over a larger shape and wraps (mod shape) over a smaller
    one. Dims in `k_dims` are not split over lanes and warps (dot operand K)."""

    def __init__(self, spt: Sequence[int], tpw: Sequence[int], wpc: Sequence[int],
                 order: Sequence[int], shape: Sequence[int], k_dims: Sequence[int] = ()):
        self.rank = len(shape)
        self.spt, self.tpw, self.wpc, self.order, self.shape = spt, tpw, wpc, order, shape
        self.k_dims = set(k_dims)
        self.tile = [spt[d] if d in self.k_dims else spt[d] * tpw[d] * wpc[d]
                     for d in range(self.rank)]
        self.spt_eff = {d: min(spt[d], shape[d]) for d in range(self.rank)}
        self.reps = {d: max(1, shape[d] // self.tile[d]) for d in range(self.rank)}

    @property
    def registers(self) -> int:
        return math.prod(self.spt_eff.values()) * math.prod(self.reps.values())

    def __call__(self, reg: int, lane: int, warp: int) -> Coord:
        n_in = math.prod(self.spt_eff.values())
        e = digits(reg % n_in, self.spt_eff, self.order)
        k = digits(reg // n_in, self.reps, self.order)
        t = digits(lane, dict(enumerate(self.tpw)), self.order)
        w = digits(warp, dict(enumerate(self.wpc)), self.order)
        coord = []
        for d in range(self.rank):
            if d in self.k_dims:
                v = k[d] * self.tile[d] + e[d]
            else:
                v = (k[d] * self.tile[d] + w[d] * self.spt[d] * self.tpw[d]
                     + t[d] * self.spt[d] + e[d])
            coord.append(v % self.shape[d])
        return tuple(coord)


def sliced(model: Callable[[int, int, int], Coord], dim: int) -> Callable[[int, int, int], Coord]:
    def f(reg: int, lane: int, warp: int) -> Coord:
        c = model(reg, lane, warp)
        return c[:dim] + c[dim + 1:]
    return f


BLOCKED_CASES = [
    # (sizePerThread, threadsPerWarp, warpsPerCTA, order, shapes)
    ([4], [32], [4], [0], [[512], [1024], [64], [8], [1]]),
    ([2], [128], [4], [0], [[1024], [4096], [128], [2]]),
    ([1, 4], [8, 4], [4, 1], [1, 0], [[32, 16], [64, 64], [8, 4], [1, 2], [128, 8]]),
    ([4, 4], [2, 16], [4, 1], [1, 0], [[32, 64], [16, 16], [128, 128]]),
    ([1, 1], [2, 64], [4, 1], [1, 0], [[8, 64], [32, 128], [4, 256]]),
    ([1, 1], [64, 2], [1, 4], [0, 1], [[64, 8], [256, 16], [16, 2]]),
    ([2, 2], [4, 32], [4, 1], [1, 0], [[16, 64], [64, 16]]),
    ([1, 4, 4], [1, 4, 8], [2, 2, 1], [2, 1, 0], [[2, 8, 32], [4, 32, 64], [1, 4, 8]]),
    ([1, 2, 2], [1, 8, 16], [2, 1, 1], [2, 1, 0], [[2, 16, 32], [8, 8, 8]]),
    ([2, 1, 2], [4, 8, 4], [1, 2, 4], [0, 2, 1], [[8, 16, 32], [2, 2, 2]]),
]


def blocked_params() -> Iterator[Tuple]:
    for spt, tpw, wpc, order, shapes in BLOCKED_CASES:
        for shape in shapes:
            yield pytest.param(spt, tpw, wpc, order, shape, id=f"{spt}-{tpw}-{wpc}-{order}-{shape}")


@pytest.mark.parametrize("spt,tpw,wpc,order,shape", list(blocked_params()))
def test_blocked(spt: List[int], tpw: List[int], wpc: List[int], order: List[int],
                 shape: List[int]) -> None:
    model = BlockedModel(spt, tpw, wpc, order, shape)
    layout = layout_to_linear(blocked_text(spt, tpw, wpc, order), shape)
    check_distributed(layout, shape, math.prod(tpw), math.prod(wpc), model.registers, model)


@pytest.mark.parametrize("spt,tpw,wpc,order,shape",
                         [p for p in blocked_params() if len(p.values[4]) >= 2])
def test_slice(spt: List[int], tpw: List[int], wpc: List[int], order: List[int],
               shape: List[int]) -> None:
    for dim in range(len(shape)):
        parent_shape = list(shape)
        parent_shape[dim] = 1
        model = BlockedModel(spt, tpw, wpc, order, parent_shape)
        sub_shape = shape[:dim] + shape[dim + 1:]
        text = f"#ttg.slice<{{dim = {dim}, parent = {blocked_text(spt, tpw, wpc, order)}}}>"
        layout = layout_to_linear(text, sub_shape)
        check_distributed(layout, sub_shape, math.prod(tpw), math.prod(wpc), model.registers,
                          sliced(model, dim))


@pytest.mark.parametrize("cga,shape", [([[1, 0]], [64, 32]), ([[0, 1], [1, 0]], [64, 64]),
                                       ([[0, 1]], [16, 4]), ([[1, 0], [0, 0]], [32, 16])])
def test_blocked_cga(cga: List[List[int]], shape: List[int]) -> None:
    # Block bit i splits the tensor along the dims of CGALayout basis i (in CTA tiles); each
    # CTA holds the blocked layout of its share. A zero basis duplicates the data.
    spt, tpw, wpc, order = [1, 2], [8, 4], [2, 2], [1, 0]
    splits = [max([1] + [2 * b[d] for b in cga]) for d in range(2)]
    cta_shape = [max(1, s // k) for s, k in zip(shape, splits)]
    model = BlockedModel(spt, tpw, wpc, order, cta_shape)
    text = blocked_text(spt, tpw, wpc, order)[:-2] + f", CGALayout = {cga}}}>"
    layout = layout_to_linear(text, shape)
    assert layout.in_dims == {"register": model.registers, "lane": 32, "warp": 4,
                              "block": 2 ** len(cga)}
    for (reg, lane, warp, block), coord in evaluate(layout).items():
        split = [0, 0]
        for i, basis in enumerate(cga):
            if block >> i & 1:
                split = [a ^ b for a, b in zip(split, basis)]
        local = model(reg, lane, warp)
        assert coord == tuple(c + k * s for c, k, s in zip(local, split, cta_shape))
    assert layout.is_surjective()


def test_slice_of_slice() -> None:
    parent = blocked_text([1, 2, 2], [2, 4, 4], [2, 2, 1], [2, 1, 0])
    text = f"#ttg.slice<{{dim = 0, parent = #ttg.slice<{{dim = 2, parent = {parent}}}>}}>"
    model = BlockedModel([1, 2, 2], [2, 4, 4], [2, 2, 1], [2, 1, 0], [1, 64, 1])
    layout = layout_to_linear(text, [64])
    check_distributed(layout, [64], 32, 4, model.registers,
                      lambda r, l, w: (model(r, l, w)[1],))


@pytest.mark.parametrize("op_idx", [0, 1])
@pytest.mark.parametrize("spt,tpw,wpc,order,shape", [
    ([1, 1], [4, 8], [2, 2], [1, 0], [32, 16]),
    ([2, 2], [8, 16], [4, 1], [1, 0], [64, 64]),
    ([4, 4], [2, 16], [4, 1], [1, 0], [16, 8]),
    ([1, 1], [32, 4], [1, 8], [0, 1], [256, 32]),
    ([1, 2, 2], [1, 8, 16], [2, 2, 1], [2, 1, 0], [4, 32, 32]),
])
def test_dot_operand_fma(op_idx: int, spt: List[int], tpw: List[int], wpc: List[int],
                         order: List[int], shape: List[int]) -> None:
    rank = len(shape)
    k_dim = rank - 1 if op_idx == 0 else rank - 2
    spt_k = list(spt)
    spt_k[k_dim] = shape[k_dim]
    model = BlockedModel(spt_k, tpw, wpc, order, shape, k_dims=[k_dim])
    text = f"#ttg.dot_op<{{opIdx = {op_idx}, parent = {blocked_text(spt, tpw, wpc, order)}}}>"
    layout = layout_to_linear(text, shape)
    check_distributed(layout, shape, math.prod(tpw), math.prod(wpc), model.registers, model)
    # Every thread holds the whole K extent of its rows (columns).
    assert layout.sublayout_is_zero(["lane", "warp"], [f"dim{k_dim}"])


# --- hypothesis: random blocked, slice and FMA dot-operand layouts ----------------------


def split_pow2(total_log2: int, parts: int) -> st.SearchStrategy[List[int]]:
    """Powers of two, `parts` of them, whose product is 2**total_log2."""
    return st.lists(st.integers(0, parts - 1), min_size=total_log2, max_size=total_log2).map(
        lambda picks: [2 ** picks.count(i) for i in range(parts)])


@st.composite
def blocked_layouts(draw: st.DrawFn, min_rank: int = 1) -> Tuple:
    rank = draw(st.integers(min_rank, 3))
    warp_size = draw(st.sampled_from([32, 128]))
    spt = draw(st.lists(st.sampled_from([1, 2, 4]), min_size=rank, max_size=rank))
    tpw = draw(split_pow2(int(math.log2(warp_size)), rank))
    wpc = draw(split_pow2(draw(st.integers(0, 3)), rank))
    order = draw(st.permutations(list(range(rank))))
    shape = draw(st.lists(st.sampled_from([1, 2, 4, 8, 16, 32, 64, 128]),
                          min_size=rank, max_size=rank))
    return spt, tpw, wpc, order, shape


@given(blocked_layouts())
def test_blocked_hypothesis(params: Tuple) -> None:
    spt, tpw, wpc, order, shape = params
    model = BlockedModel(spt, tpw, wpc, order, shape)
    assume(model.registers * math.prod(tpw) * math.prod(wpc) <= 2 ** 16)
    layout = layout_to_linear(blocked_text(spt, tpw, wpc, order), shape)
    check_distributed(layout, shape, math.prod(tpw), math.prod(wpc), model.registers, model)


@given(blocked_layouts(min_rank=2), st.data())
def test_slice_hypothesis(params: Tuple, data: st.DataObject) -> None:
    spt, tpw, wpc, order, shape = params
    dim = data.draw(st.integers(0, len(shape) - 1))
    parent_shape = list(shape)
    parent_shape[dim] = 1
    model = BlockedModel(spt, tpw, wpc, order, parent_shape)
    assume(model.registers * math.prod(tpw) * math.prod(wpc) <= 2 ** 16)
    sub_shape = shape[:dim] + shape[dim + 1:]
    text = f"#ttg.slice<{{dim = {dim}, parent = {blocked_text(spt, tpw, wpc, order)}}}>"
    layout = layout_to_linear(text, sub_shape)
    check_distributed(layout, sub_shape, math.prod(tpw), math.prod(wpc), model.registers,
                      sliced(model, dim))


@given(st.data())
def test_dot_operand_fma_hypothesis(data: st.DataObject) -> None:
    spt, tpw, wpc, order, shape = data.draw(blocked_layouts(min_rank=2))
    op_idx = data.draw(st.integers(0, 1))
    rank = len(shape)
    k_dim = rank - 1 if op_idx == 0 else rank - 2
    spt_k = list(spt)
    spt_k[k_dim] = shape[k_dim]
    model = BlockedModel(spt_k, tpw, wpc, order, shape, k_dims=[k_dim])
    assume(model.registers * math.prod(tpw) * math.prod(wpc) <= 2 ** 16)
    text = f"#ttg.dot_op<{{opIdx = {op_idx}, parent = {blocked_text(spt, tpw, wpc, order)}}}>"
    layout = layout_to_linear(text, shape)
    check_distributed(layout, shape, math.prod(tpw), math.prod(wpc), model.registers, model)


# --- linear -------------------------------------------------------------------------------


def linear_text(reg: List[List[int]], lane: List[List[int]], warp: List[List[int]]) -> str:
    return f"#ttg.linear<{{register = {reg}, lane = {lane}, warp = {warp}, block = []}}>"


def xor_model(reg: List[List[int]], lane: List[List[int]], warp: List[List[int]],
              shape: Sequence[int]) -> Callable[[int, int, int], Coord]:
    """The definition of #ttg.linear: XOR of the bases of the set bits, mod shape."""
    def f(r: int, l: int, w: int) -> Coord:
        coord = [0] * len(shape)
        for value, bases in ((r, reg), (l, lane), (w, warp)):
            for bit, basis in enumerate(bases):
                if value >> bit & 1:
                    coord = [a ^ b for a, b in zip(coord, basis)]
        return tuple(c % s for c, s in zip(coord, shape))
    return f


def test_linear_as_given() -> None:
    reg = [[0, 1], [0, 2]]
    lane = [[0, 4], [1, 0], [2, 0], [4, 0], [8, 0]]
    warp = [[16, 0], [0, 0]]
    layout = layout_to_linear(linear_text(reg, lane, warp), [32, 8])
    check_distributed(layout, [32, 8], 32, 4, 4, xor_model(reg, lane, warp, [32, 8]))
    assert layout.bases["register"] == reg and layout.bases["warp"] == warp


def test_linear_wraps_and_repeats() -> None:
    reg = [[0, 1]]
    lane = [[0, 2], [1, 0], [2, 0], [4, 0], [8, 0]]
    warp = [[16, 0]]
    # Smaller: coordinates wrap, lanes/warps past the shape broadcast.
    small = layout_to_linear(linear_text(reg, lane, warp), [8, 2])
    check_distributed(small, [8, 2], 32, 2, 2, xor_model(reg, lane, warp, [8, 2]))
    # Larger along dim1 (the dim registers walk first): one more register bit.
    large = layout_to_linear(linear_text(reg, lane, warp), [32, 8])
    assert large.bases["register"] == [[0, 1], [0, 4]]
    assert large.is_surjective()


def test_linear_1d_from_corpus() -> None:
    text = linear_text([], [[1], [0], [0], [0], [0]], [[0], [0]])
    layout = layout_to_linear(text, [2])
    assert layout.in_dims == {"register": 1, "lane": 32, "warp": 4, "block": 1}
    assert layout.is_surjective()


# --- shared layouts -----------------------------------------------------------------------


def check_shared(layout: LinearLayout, shape: Sequence[int],
                 model: Callable[[int], Coord]) -> None:
    assert layout.in_dims == {"offset": math.prod(shape), "block": 1}
    assert layout.out_dims == {f"dim{i}": s for i, s in enumerate(shape)}
    for (offset, _), coord in evaluate(layout).items():
        assert coord == model(offset), offset
    assert layout.is_invertible()


def swizzled_model(vec: int, per_phase: int, max_phase: int, order: Sequence[int],
                   shape: Sequence[int]) -> Callable[[int], Coord]:
    """Offset = row-major along `order`; within a row, the element stored at column c is the
    logical column c ^ (vec * phase) % numCols, phase = (row // perPhase) % maxPhase."""
    def f(offset: int) -> Coord:
        idx = digits(offset, dict(enumerate(shape)), order)
        if len(shape) >= 2:
            col, row = order[0], order[1]
            swz = (vec * ((idx[row] // per_phase) % max_phase)) % shape[col]
            idx[col] ^= swz
        return tuple(idx[d] for d in range(len(shape)))
    return f


@pytest.mark.parametrize("vec,per_phase,max_phase,order,shape", [
    (1, 1, 1, [1, 0], [32, 32]),
    (1, 1, 1, [0, 1], [16, 64]),
    (8, 1, 8, [1, 0], [64, 64]),
    (8, 1, 8, [1, 0], [16, 32]),  # swizzle wider than a row: wraps mod numCols
    (4, 2, 4, [0, 1], [32, 16]),
    (2, 4, 8, [1, 0], [128, 16]),
    (8, 1, 8, [2, 0, 1], [4, 8, 32]),
    (1, 1, 1, [0], [256]),
])
def test_swizzled_shared(vec: int, per_phase: int, max_phase: int, order: List[int],
                         shape: List[int]) -> None:
    text = (f"#ttg.swizzled_shared<{{vec = {vec}, perPhase = {per_phase}, "
            f"maxPhase = {max_phase}, order = {order}}}>")
    check_shared(layout_to_linear(text, shape), shape,
                 swizzled_model(vec, per_phase, max_phase, order, shape))


@given(st.data())
def test_swizzled_shared_hypothesis(data: st.DataObject) -> None:
    rank = data.draw(st.integers(1, 3))
    pow2 = st.sampled_from([1, 2, 4, 8])
    vec, per_phase, max_phase = data.draw(pow2), data.draw(pow2), data.draw(pow2)
    order = data.draw(st.permutations(list(range(rank))))
    shape = data.draw(st.lists(st.sampled_from([1, 2, 4, 8, 16, 32, 64]), min_size=rank,
                               max_size=rank))
    assume(math.prod(shape) <= 2 ** 12)
    text = (f"#ttg.swizzled_shared<{{vec = {vec}, perPhase = {per_phase}, "
            f"maxPhase = {max_phase}, order = {order}}}>")
    check_shared(layout_to_linear(text, shape), shape,
                 swizzled_model(vec, per_phase, max_phase, order, shape))


def test_shared_linear_and_padded() -> None:
    offset = [[0, 1], [0, 2], [1, 0], [2, 0]]
    layout = layout_to_linear(f"#ttg.shared_linear<{{offset = {offset}}}, alignment = 16>", [4, 4])
    assert layout.bases["offset"] == offset
    padded = layout_to_linear(
        "#ttg.padded_shared<[32:+4, 64:+8] {order = [1, 0], shape = [32, 32]}>", [32, 32])
    check_shared(padded, [32, 32], lambda o: (o // 32, o % 32))


TME_GRAN = {"b16": 16, "b32": 32, "b64": 64, "b128": 128}
TME_STRIDE = {"b32": 32, "b64": 64, "b128": 128, "b256": 256}
TME_LINE = {"b128": 128, "b256": 256}


def tme_model(gran: Optional[int], stride: int, line: int, elem_bytes: int,
              order: Sequence[int], shape: Sequence[int]) -> Callable[[int], Coord]:
    """The TME box stored densely (order[0] fastest) in 256-byte-wide column pieces, then each
    element moved to byte address a ^ (((a // line) % (stride // gran)) * gran)."""
    rank = len(shape)
    inner = order[0]
    piece = min(shape[inner], 256 // elem_bytes)
    where: Dict[int, Coord] = {}
    for coord in itertools.product(*(range(s) for s in shape)):
        logical = coord[inner] % piece
        scale = piece
        for d in order[1:]:
            logical += coord[d] * scale
            scale *= shape[d]
        logical += (coord[inner] // piece) * scale
        address = logical * elem_bytes
        if gran:
            address ^= ((address // line) % (stride // gran)) * gran
        where[address // elem_bytes] = coord
    assert len(where) == math.prod(shape)
    return lambda offset: where[offset]


@pytest.mark.parametrize("gran,stride,line,bits,order,shape", [
    ("none", "b32", "b128", 16, [1, 0], [16, 64]),
    ("b16", "b256", "b256", 16, [1, 0], [64, 32]),
    ("b16", "b128", "b128", 16, [1, 0], [32, 64]),
    ("b32", "b256", "b256", 16, [0, 1], [128, 32]),
    ("b64", "b256", "b256", 32, [1, 0], [32, 64]),
    ("b16", "b256", "b256", 8, [1, 0], [64, 512]),  # 512 B rows: two 256 B pieces
    ("b16", "b64", "b128", 16, [2, 1, 0], [2, 16, 64]),
])
def test_tme_shared(gran: str, stride: str, line: str, bits: int, order: List[int],
                    shape: List[int]) -> None:
    text = (f"#musagpu.tme_shared<{{swizzleGranularity = {gran}, swizzleStride = {stride}, "
            f"swizzleLine = {line}, elementBitWidth = {bits}, order = {order}}}>")
    model = tme_model(TME_GRAN.get(gran), TME_STRIDE[stride], TME_LINE[line], bits // 8,
                      order, shape)
    check_shared(layout_to_linear(text, shape), shape, model)


# --- MUSA matrix layouts (inferred fragment patterns, see LayoutConversion.cpp) ----------


def mma_model(atom: Callable[[int, int], Tuple[int, int]], atom_regs: int, tile: Tuple[int, int],
              warp_tile: Callable[[int], Tuple[int, int]], cta: Tuple[int, int],
              shape: Sequence[int], rep_order: Sequence[int]) -> Callable[[int, int, int], Coord]:
    """Atom fragment per warp, warps placed by `warp_tile`, the CTA tile `cta` repeated in
    registers (rep_order[0] first), everything mod shape."""
    reps = {0: max(1, shape[0] // cta[0]), 1: max(1, shape[1] // cta[1])}

    def f(reg: int, lane: int, warp: int) -> Coord:
        r, c = atom(reg % atom_regs, lane)
        wr, wc = warp_tile(warp)
        k = digits(reg // atom_regs, reps, rep_order)
        return ((k[0] * cta[0] + wr + r) % shape[0], (k[1] * cta[1] + wc + c) % shape[1])
    return f


def wmma_text(major: int, wpc: List[int], instr: List[int]) -> str:
    minor = 2 if major == 2 else 1
    return (f"#musagpu.wmma<{{versionMajor = {major}, versionMinor = {minor}, "
            f"warpsPerCTA = {wpc}, instrShape = {instr}}}>")


def bit(value: int, i: int) -> int:
    return (value >> i) & 1


@pytest.mark.parametrize("wpc,shape", [([2, 2], [64, 64]), ([4, 1], [128, 32]),
                                       ([1, 1], [32, 128]), ([2, 2], [32, 32]),
                                       ([1, 4], [32, 64]), ([2, 4], [64, 32]), ([1, 8], [32, 32])])
def test_wmma_mp22_accumulator(wpc: List[int], shape: List[int]) -> None:
    # mp_22 32x32 atom, 128 lanes, 8 f32 per thread: MUSA-FACTS.md's QY2 formulas for thread t,
    # row = 4(t/64) + (t/8)%4 + {0,8,16,24}, col = 8((t/32)%2) + t%8 + {0,16}; the register order
    # (col+16 first, then row+8, row+16) is inferred.
    def atom(r: int, l: int) -> Tuple[int, int]:
        return (4 * (l // 64) + (l // 8) % 4 + 8 * (r >> 1),
                8 * ((l // 32) % 2) + l % 8 + 16 * (r & 1))
    warp_tile = lambda w: (32 * (w // wpc[1]), 32 * (w % wpc[1]))
    model = mma_model(atom, 8, (32, 32), warp_tile, (32 * wpc[0], 32 * wpc[1]), shape, [1, 0])
    layout = layout_to_linear(wmma_text(2, wpc, [32, 32, 16]), shape)
    regs = 8 * max(1, shape[0] // (32 * wpc[0])) * max(1, shape[1] // (32 * wpc[1]))
    if shape[0] < 32 or shape[1] < 32:
        regs = layout.in_dims["register"]  # registers past a tiny tensor are dropped
    check_distributed(layout, shape, 128, math.prod(wpc), regs, model)


@pytest.mark.parametrize("instr,shape", [([16, 8, 16], [32, 32]), ([16, 16, 16], [16, 64]),
                                         ([8, 16, 16], [64, 16])])
def test_wmma_mp31_accumulator(instr: List[int], shape: List[int]) -> None:
    m, n = instr[0], instr[1]
    wpc = [2, 2]

    # The open MUSA backend's PH1 WMMA accumulator layout (MUSA-FACTS.md: C row = (l >> 3) + 4i,
    # col = (l & 7) + 8j): lanes N 1, 2, 4, M 1, 2; registers N from 8, then M from 4.
    n_bits = int(math.log2(n // 8))

    def atom(r: int, l: int) -> Tuple[int, int]:
        return (l >> 3) + 4 * (r >> n_bits), (l & 7) + 8 * (r & ((1 << n_bits) - 1))
    atom_regs = m * n // 32
    warp_tile = lambda w: (m * (w // wpc[1]), n * (w % wpc[1]))
    model = mma_model(atom, atom_regs, (m, n), warp_tile, (m * wpc[0], n * wpc[1]), shape, [1, 0])
    layout = layout_to_linear(wmma_text(3, wpc, instr), shape)
    regs = atom_regs * max(1, shape[0] // (m * wpc[0])) * max(1, shape[1] // (n * wpc[1]))
    check_distributed(layout, shape, 32, 4, regs, model)


@pytest.mark.parametrize("op_idx", [0, 1])
@pytest.mark.parametrize("wpc", [[2, 2], [4, 1]])
def test_wmma_mp22_operands(op_idx: int, wpc: List[int]) -> None:
    # 32x32x16: A is 32x16, B 16x32, 4 per thread. MUSA-FACTS.md's QY2 formulas for thread t:
    # M (N) = (t/4)%16 + {0,16}, K = 2(4(t/64) + t%4) + {0,1}; the K pair shares a register
    # (inferred), then M+16 (N+16).
    def atom(r: int, l: int) -> Tuple[int, int]:
        k = bit(r, 0) + 2 * (4 * (l // 64) + l % 4)
        mn = (l // 4) % 16 + 16 * bit(r, 1)
        return (mn, k) if op_idx == 0 else (k, mn)
    shape = [64, 32] if op_idx == 0 else [32, 64]
    if op_idx == 0:  # replicated along N warps
        warp_tile = lambda w: (32 * (w // wpc[1]), 0)
        cta = (32 * wpc[0], 16)
        rep_order = [1, 0]
    else:  # replicated along M warps
        warp_tile = lambda w: (0, 32 * (w % wpc[1]))
        cta = (16, 32 * wpc[1])
        rep_order = [0, 1]
    model = mma_model(atom, 4, (0, 0), warp_tile, cta, shape, rep_order)
    parent = wmma_text(2, wpc, [32, 32, 16])
    layout = layout_to_linear(f"#musagpu.wmma_operand<{{opIdx = {op_idx}, parent = {parent}}}>",
                              shape)
    regs = 4 * max(1, shape[0] // cta[0]) * max(1, shape[1] // cta[1])
    check_distributed(layout, shape, 128, 4, regs, model)
    # The same layout through #ttg.dot_op with a WMMA parent.
    dot = layout_to_linear(f"#ttg.dot_op<{{opIdx = {op_idx}, parent = {parent}}}>", shape)
    assert dot == layout


@pytest.mark.parametrize("op_idx", [0, 1])
@pytest.mark.parametrize("wpc,shape_mn", [([1, 1], [16, 16]), ([2, 2], [64, 64]), ([4, 1], [64, 32]),
                                          ([1, 4], [16, 32])])
def test_wmma_mp31_operands(op_idx: int, wpc: List[int], shape_mn: List[int]) -> None:
    # PH1 m16n16k16 (the open MUSA backend's operand linear layouts; MUSA-FACTS.md's formulas): lane l,
    # A m = (l >> 2) + 8j, k = (l & 3) + 4i, register i + 4j (K 4, K 8, then M 8); B mirrors with N.
    # The last case has more warps than atom columns: they replicate (wrap mod the shape).
    def atom(r: int, l: int) -> Tuple[int, int]:
        k = (l & 3) + 4 * (r & 3)
        mn = (l >> 2) + 8 * (r >> 2)
        return (mn, k) if op_idx == 0 else (k, mn)
    K = 32
    shape = [shape_mn[0], K] if op_idx == 0 else [K, shape_mn[1]]
    if op_idx == 0:
        warp_tile = lambda w: (16 * (w // wpc[1]), 0)
        cta = (16 * wpc[0], 16)
        rep_order = [1, 0]
    else:
        warp_tile = lambda w: (0, 16 * (w % wpc[1]))
        cta = (16, 16 * wpc[1])
        rep_order = [0, 1]
    model = mma_model(atom, 8, (0, 0), warp_tile, cta, shape, rep_order)
    parent = wmma_text(3, wpc, [16, 16, 16])
    layout = layout_to_linear(f"#musagpu.wmma_operand<{{opIdx = {op_idx}, parent = {parent}}}>", shape)
    regs = 8 * max(1, shape[0] // cta[0]) * max(1, shape[1] // cta[1])
    check_distributed(layout, shape, 32, math.prod(wpc), regs, model)


def mma_sync_text(wpc: List[int], k: int) -> str:
    return (f"#musagpu.wmma<{{versionMajor = 3, versionMinor = 1, warpsPerCTA = {wpc}, "
            f"instrShape = [16, 16, {k}], fragment = mma_sync_warp}}>")


@pytest.mark.parametrize("wpc,shape", [([1, 1], [16, 16]), ([2, 1], [64, 32]), ([2, 2], [32, 64])])
def test_wmma_mma_sync_accumulator(wpc: List[int], shape: List[int]) -> None:
    # The GPU proxy's WMMA rows: an m16n16 instruction is two mma.sync.m16n8k16, whose accumulator the
    # PTX ISA states for lane l = 4g + t as c0, c1 at (g, 2t + {0, 1}) and c2, c3 at (g + 8, ...); the
    # second piece (columns + 8) takes registers 4-7.
    def atom(r: int, l: int) -> Tuple[int, int]:
        g, t = l // 4, l % 4
        return g + 8 * bit(r, 1), 8 * bit(r, 2) + 2 * t + bit(r, 0)
    warp_tile = lambda w: (16 * (w // wpc[1]), 16 * (w % wpc[1]))
    model = mma_model(atom, 8, (16, 16), warp_tile, (16 * wpc[0], 16 * wpc[1]), shape, [1, 0])
    layout = layout_to_linear(mma_sync_text(wpc, 16), shape)
    regs = 8 * (shape[0] // (16 * wpc[0])) * (shape[1] // (16 * wpc[1]))
    check_distributed(layout, shape, 32, math.prod(wpc), regs, model)


@pytest.mark.parametrize("op_idx", [0, 1])
@pytest.mark.parametrize("k", [16, 32])
@pytest.mark.parametrize("wpc", [[1, 1], [2, 1], [1, 2]])
def test_wmma_mma_sync_operands(op_idx: int, k: int, wpc: List[int]) -> None:
    # PTX ISA, mma.m16n8k16 with 16-bit operands, lane l = 4g + t: A a0, a1 at (row g, k 2t + {0, 1}),
    # a2, a3 row g + 8, a4, a5 k + 8, a6, a7 row g + 8 and k + 8; B b0, b1 at (k 2t + {0, 1}, col g),
    # b2, b3 k + 8. The pieces follow in registers: A's next 16 K; B's next 16 K, then its next 8 columns.
    def atom(r: int, l: int) -> Tuple[int, int]:
        g, t = l // 4, l % 4
        if op_idx == 0:
            return g + 8 * bit(r, 1), 2 * t + bit(r, 0) + 8 * bit(r, 2) + 16 * (r >> 3)
        k_steps = k // 16
        kk = 2 * t + bit(r, 0) + 8 * bit(r, 1) + 16 * ((r >> 2) % k_steps)
        return kk, g + 8 * ((r >> 2) // k_steps)
    shape = [32, 2 * k] if op_idx == 0 else [2 * k, 32]
    if op_idx == 0:
        warp_tile = lambda w: (16 * (w // wpc[1]), 0)
        cta = (16 * wpc[0], k)
        rep_order = [1, 0]
    else:
        warp_tile = lambda w: (0, 16 * (w % wpc[1]))
        cta = (k, 16 * wpc[1])
        rep_order = [0, 1]
    atom_regs = 16 * k // 32
    model = mma_model(atom, atom_regs, (0, 0), warp_tile, cta, shape, rep_order)
    parent = mma_sync_text(wpc, k)
    layout = layout_to_linear(f"#musagpu.wmma_operand<{{opIdx = {op_idx}, parent = {parent}}}>", shape)
    regs = atom_regs * (shape[0] // cta[0]) * (shape[1] // cta[1])
    check_distributed(layout, shape, 32, math.prod(wpc), regs, model)


@pytest.mark.parametrize("text,message", [
    ("versionMajor = 3, versionMinor = 1, warpsPerCTA = [1, 1], instrShape = [16, 8, 16], "
     "fragment = mma_sync_warp", "needs one of the GPU proxy's WMMA shapes"),
    ("versionMajor = 2, versionMinor = 2, warpsPerCTA = [1, 1], instrShape = [32, 32, 16], "
     "fragment = mma_sync_warp", "needs one of the GPU proxy's WMMA shapes"),
    ("versionMajor = 3, versionMinor = 1, warpsPerCTA = [1, 1], instrShape = [16, 16, 16], "
     "fragment = ph1_wmma", "fragment must be left out"),
])
def test_wmma_fragment_is_checked(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        layout_to_linear(f"#musagpu.wmma<{{{text}}}>", [16, 16])


@pytest.mark.parametrize("instr,wpc,shape", [([64, 64, 16], [4, 1], [64, 64]),
                                             ([64, 128, 16], [8, 1], [128, 128]),
                                             ([128, 64, 16], [4, 2], [128, 256]),
                                             ([32, 32, 16], [4, 1], [64, 32]),
                                             ([16, 64, 16], [4, 2], [32, 128])])
def test_sqmma_accumulator(instr: List[int], wpc: List[int], shape: List[int]) -> None:
    # MUSA-FACTS.md (open MUSA backend), per instruction and squad: lane l, warp-in-squad w,
    # register r = rn + (instN/8) rm: row = (l >> 3) + 4w + 16 rm, col = (l & 7) + 8 rn;
    # squads tile M first, then N.
    m, n = instr[0], instr[1]
    n_bits = int(math.log2(n // 8))

    def atom(r: int, l: int) -> Tuple[int, int]:
        return (l >> 3) + 16 * (r >> n_bits), (l & 7) + 8 * (r & ((1 << n_bits) - 1))
    squads_m = wpc[0] // 4

    def warp_tile(w: int) -> Tuple[int, int]:
        q, rest = w % 4, w // 4
        return 4 * q + m * (rest % squads_m), n * (rest // squads_m)
    atom_regs = m * n // 128
    model = mma_model(atom, atom_regs, (m, n), warp_tile, (m * squads_m, n * wpc[1]), shape,
                      [1, 0])
    text = (f"#musagpu.sqmma<{{versionMajor = 3, versionMinor = 1, warpsPerCTA = {wpc}, "
            f"instrShape = {instr}}}>")
    layout = layout_to_linear(text, shape)
    regs = atom_regs * (shape[0] // (m * squads_m)) * (shape[1] // (n * wpc[1]))
    check_distributed(layout, shape, 32, math.prod(wpc), regs, model)


def test_slice_of_mma() -> None:
    parent = wmma_text(2, [2, 2], [32, 32, 16])
    acc = layout_to_linear(parent, [64, 1])
    row = layout_to_linear(f"#ttg.slice<{{dim = 1, parent = {parent}}}>", [64])
    # Each thread keeps the rows it held; registers that only walked N are gone.
    for (reg, lane, warp, _), coord in evaluate(row).items():
        assert coord == (evaluate(acc)[(reg, lane, warp, 0)][0],)
    # QY2 rows {0, 8, 16, 24} of a thread are registers (MUSA-FACTS.md): 2 row bits.
    assert row.in_dims["register"] == 4 and row.is_surjective()


def test_dot_operand_fma_cga_never_splits_k() -> None:
    parent = blocked_text([1, 1], [4, 8], [2, 2], [1, 0])[:-2] + ", CGALayout = [[0, 1]]}>"
    a = layout_to_linear(f"#ttg.dot_op<{{opIdx = 0, parent = {parent}}}>", [32, 16])
    b = layout_to_linear(f"#ttg.dot_op<{{opIdx = 1, parent = {parent}}}>", [16, 64])
    assert a.bases["block"] == [[0, 0]]  # CTAs split N: both hold all of A
    assert b.bases["block"] == [[0, 32]]  # and each its half of B


@pytest.mark.parametrize("wpc,shape_a,shape_b", [([1, 4], [32, 32], [32, 64]), ([2, 4], [64, 16], [16, 32]),
                                                 ([1, 8], [32, 64], [64, 32])])
def test_wmma_mp22_replicated_warps(wpc: List[int], shape_a: List[int], shape_b: List[int]) -> None:
    """More warps than atoms (the matrix-path selection's replicated warps): the warps past the atom rows and
    columns hold copies of the same fragments, so each warp's registers and lanes are exactly those of the
    warp with the same (M mod atom rows, N mod atom columns) position, and no warp holds a tile the tensor
    does not have."""
    parent = wmma_text(2, wpc, [32, 32, 16])
    acc_shape = [shape_a[0], shape_b[1]]
    for text, shape in [(parent, acc_shape),
                        (f"#musagpu.wmma_operand<{{opIdx = 0, parent = {parent}}}>", shape_a),
                        (f"#musagpu.wmma_operand<{{opIdx = 1, parent = {parent}}}>", shape_b)]:
        layout = layout_to_linear(text, shape)
        assert layout.in_dims["warp"] == math.prod(wpc) and layout.is_surjective()
        table = evaluate(layout)
        rows, cols = acc_shape[0] // 32, acc_shape[1] // 32
        for (reg, lane, warp, block), coord in table.items():
            wm, wn = warp // wpc[1], warp % wpc[1]
            twin = (wm % rows) * wpc[1] + (wn % cols)
            assert coord == table[(reg, lane, twin, block)], (text, reg, lane, warp)
    # The accumulator: one 32x32 fragment (8 f32) per thread per atom it holds, no more.
    acc = layout_to_linear(parent, acc_shape)
    atoms_per_warp = max(1, acc_shape[0] // (32 * wpc[0])) * max(1, acc_shape[1] // (32 * wpc[1]))
    assert acc.in_dims["register"] == 8 * atoms_per_warp


def test_mma_3d_batch() -> None:
    layout = layout_to_linear(wmma_text(2, [2, 2, 1], [32, 32, 16]), [4, 32, 32])
    assert layout.in_dims == {"register": 16, "lane": 128, "warp": 4, "block": 1}
    assert layout.is_surjective()
    assert layout.bases["warp"] == [[0, 0, 0], [1, 0, 0]]  # N warp broadcasts, then batch


# --- types ----------------------------------------------------------------------------


SHARED = "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 4, order = [1, 0]}>"


def test_type_to_linear() -> None:
    blocked = blocked_text([1, 4], [8, 4], [4, 1], [1, 0])
    assert (type_to_linear(f"tensor<64x32xf16, {blocked}>")
            == layout_to_linear(blocked, [64, 32]))
    # A memdesc uses its allocation shape; a leading multi-buffer dim is not part of it.
    expected = layout_to_linear(SHARED, [32, 64])
    assert type_to_linear(f"!ttg.memdesc<32x64xf16, {SHARED}, #ttg.shared_memory>") == expected
    assert type_to_linear(
        f"!ttg.memdesc<3x32x64xf16, {SHARED}, #ttg.shared_memory, mutable>") == expected
    assert type_to_linear(
        f"!ttg.memdesc<16x64xf16, {SHARED}, #ttg.shared_memory, mutable, 32x64>") == expected
    for bad, message in [("tensor<64xf32>", "no layout"), ("f32", "neither"),
                         ("tensor<6xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = "
                          "[32], warpsPerCTA = [4], order = [0]}>>", "power of two")]:
        with pytest.raises(ValueError, match=message):
            type_to_linear(bad)


# --- errors -------------------------------------------------------------------------------


@pytest.mark.parametrize("text,shape,message", [
    ("#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>",
     [64, 64], "#ttg.nvmma_shared"),
    ("#ttg.amd_rotating_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>",
     [64, 64], "#ttg.amd_rotating_shared"),
    ("#ttg.shared_memory", [4], "not a supported"),
    ("#ttg.blocked<{", [4], "cannot parse"),
    (blocked_text([1, 1], [4, 8], [4, 1], [1, 0]), [3, 8], "power of two"),
    (blocked_text([1, 1], [4, 8], [4, 1], [1, 0]), [8], "rank"),
    (f"#ttg.dot_op<{{opIdx = 0, parent = #ttg.slice<{{dim = 0, parent = "
     f"{blocked_text([1, 1, 1], [1, 4, 8], [1, 4, 1], [2, 1, 0])}}}>}}>", [8, 8], "#ttg.dot_op"),
    (f"#ttg.slice<{{dim = 1, parent = #ttg.swizzled_shared<{{vec = 1, perPhase = 1, "
     f"maxPhase = 1, order = [1, 0]}}>}}>", [8], "distributed layout"),
])
def test_errors(text: str, shape: List[int], message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        layout_to_linear(text, shape)


# --- corpus: every layout Triton emitted converts and covers its tensor ------------------


def split_top(text: str) -> List[str]:
    """Splits at commas outside any bracket."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "<{[(":
            depth += 1
        elif ch in ">}])":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return parts


def bracketed(text: str, start: int) -> str:
    """The text from `start` (just after an opening '<') to its matching '>'."""
    depth = 1
    for i in range(start, len(text)):
        if text[i] in "<{[":
            depth += 1
        elif text[i] in ">}]" and not (text[i] == ">" and text[i - 1] == "-"):
            depth -= 1
            if depth == 0:
                return text[start:i]
    raise ValueError("unbalanced type")


def corpus_types(text: str) -> Iterator[Tuple[str, str, List[int], int, int]]:
    """(kind, layout text with aliases expanded, shape, threads per warp, warps) per type."""
    aliases: Dict[str, str] = {}
    for match in re.finditer(r"^(#[\w.]+) = (#(?:ttg|musagpu)\..*)$", text, re.M):
        aliases[match.group(1)] = match.group(2)

    def expand(layout: str) -> str:
        for _ in range(8):
            layout = re.sub(r"#[\w]+\b(?![.<])", lambda m: aliases.get(m.group(0), m.group(0)),
                            layout)
        return layout
    lanes = int(re.search(r'"ttg.threads-per-warp" = (\d+)', text).group(1))
    warps = int(re.search(r'"ttg.num-warps" = (\d+)', text).group(1))
    for kind in ("tensor<", "!ttg.memdesc<"):
        for match in re.finditer(re.escape(kind), text):
            body = bracketed(text, match.end())
            parts = split_top(body)
            if len(parts) < 2 or not parts[1].startswith("#"):
                continue
            dims = re.match(r"((?:\d+x)*)", parts[0]).group(1)
            shape = [int(d) for d in dims.split("x") if d]
            yield kind, expand(parts[1]), shape, lanes, warps


def _corpus_cases():
    from corpus import ENTRIES

    return [pytest.param(e.name, a, id=f"{e.name}-{a}") for e in ENTRIES for a in e.archs]


@pytest.mark.parametrize("name,arch", _corpus_cases())
def test_corpus_layouts(name: str, arch: str, corpus_ir) -> None:
    seen = set()
    for kind, layout, shape, lanes, warps in corpus_types(corpus_ir.get(name, arch)["ttgir"]):
        if (layout, tuple(shape)) in seen:
            continue
        seen.add((layout, tuple(shape)))
        if kind == "tensor<":
            ll = layout_to_linear(layout, shape)
            assert ll.in_dims["lane"] == lanes and ll.in_dims["warp"] == warps, layout
        else:
            rank = len(re.search(r"order = \[([\d, ]*)\]", layout).group(1).split(","))
            shape = shape[-rank:]  # a multi-buffered allocation's leading dim indexes buffers
            ll = layout_to_linear(layout, shape)
            assert ll.is_invertible(), layout
        assert ll.out_dims == {f"dim{i}": s for i, s in enumerate(shape)}, (layout, shape)
        assert ll.is_surjective(), (layout, shape)
