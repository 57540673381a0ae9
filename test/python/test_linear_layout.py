"""The linear layout engine (_musa_mlir.LinearLayout) against a brute-force Python reference.

Every property is checked by evaluating both sides on every input, so the tests stay
independent of how the engine represents or reduces its matrices.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Dict, Iterator, List, Mapping, Optional, Sequence, Tuple

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from triton_musa._musa_mlir import LinearLayout  # noqa: E402

IN_NAMES = ["register", "lane", "warp", "block"]
OUT_NAMES = ["dim0", "dim1", "dim2"]
Bases = Dict[str, List[List[int]]]
Point = Dict[str, int]

settings.register_profile("linear_layout", max_examples=150, deadline=None)
settings.load_profile("linear_layout")


# --- brute-force reference -------------------------------------------------------------


@dataclass
class Ref:
    """A layout as plain data: bases per input dim and ordered output sizes."""

    bases: Bases
    outs: Dict[str, int]

    @property
    def ins(self) -> Dict[str, int]:
        return {name: 2 ** len(vectors) for name, vectors in self.bases.items()}

    def build(self) -> LinearLayout:
        return LinearLayout(self.bases, self.outs)

    def apply(self, point: Mapping[str, int]) -> Point:
        result = [0] * len(self.outs)
        for name, vectors in self.bases.items():
            for bit, vector in enumerate(vectors):
                if (point[name] >> bit) & 1:
                    result = [a ^ b for a, b in zip(result, vector)]
        return dict(zip(self.outs, result))


def points(dims: Mapping[str, int]) -> Iterator[Point]:
    """Every point of a box of named dimensions."""
    names = list(dims)
    for values in itertools.product(*(range(dims[n]) for n in names)):
        yield dict(zip(names, values))


def flatten(point: Mapping[str, int], dims: Mapping[str, int]) -> int:
    """Row-major flat index: the last dimension is the most minor."""
    flat = 0
    for name, size in dims.items():
        flat = flat * size + point[name]
    return flat


def unflatten(flat: int, dims: Mapping[str, int]) -> Point:
    point: Point = {}
    for name, size in reversed(list(dims.items())):
        point[name] = flat % size
        flat //= size
    return {name: point[name] for name in dims}


def log2(size: int) -> int:
    return size.bit_length() - 1


def identity(dims: Mapping[str, int]) -> LinearLayout:
    """The identity on these dimensions, as a product of 1-D identities."""
    layout = LinearLayout.empty()
    for name, size in dims.items():
        layout = layout * LinearLayout.identity_1d(size, name, name)
    return layout


# --- strategies --------------------------------------------------------------------------


@st.composite
def out_dims(draw: st.DrawFn, max_log2: int = 3) -> Dict[str, int]:
    count = draw(st.integers(1, len(OUT_NAMES)))
    names = draw(st.permutations(OUT_NAMES))[:count]
    return {name: 2 ** draw(st.integers(0, max_log2)) for name in names}


@st.composite
def in_dims(draw: st.DrawFn, names: Sequence[str] = IN_NAMES, max_bits: int = 6) -> Dict[str, int]:
    count = draw(st.integers(0, len(names)))
    chosen = draw(st.permutations(list(names)))[:count]
    sizes: Dict[str, int] = {}
    budget = max_bits
    for name in chosen:
        bits = draw(st.integers(0, min(3, budget)))
        budget -= bits
        sizes[name] = 2**bits
    return sizes


@st.composite
def refs(
    draw: st.DrawFn,
    outs: Optional[Dict[str, int]] = None,
    ins: Optional[Dict[str, int]] = None,
    in_names: Sequence[str] = IN_NAMES,
    max_bits: int = 6,
) -> Ref:
    """A random layout (any rank) with the given or random dimensions."""
    outs = draw(out_dims()) if outs is None else outs
    ins = draw(in_dims(in_names, max_bits)) if ins is None else ins
    bases = {
        name: [[draw(st.integers(0, size - 1)) for size in outs.values()] for _ in range(log2(dim))]
        for name, dim in ins.items()
    }
    return Ref(bases, outs)


@st.composite
def invertible_refs(draw: st.DrawFn) -> Ref:
    """A random bijective layout: a bit permutation followed by random column operations."""
    outs = draw(out_dims())
    out_bits = [(name, bit) for name, size in outs.items() for bit in range(log2(size))]
    columns = [{name: 0 for name in outs} for _ in out_bits]
    for column, (name, bit) in zip(columns, draw(st.permutations(out_bits))):
        column[name] = 1 << bit
    if len(columns) > 1:
        for _ in range(draw(st.integers(0, 12))):
            i, j = draw(st.lists(st.integers(0, len(columns) - 1), min_size=2, max_size=2, unique=True))
            columns[i] = {name: columns[i][name] ^ columns[j][name] for name in outs}
    # Split the input bits among random input dimensions.
    names = draw(st.permutations(IN_NAMES))
    bases: Bases = {}
    start = 0
    for index, name in enumerate(names):
        end = len(columns) if index == len(names) - 1 else draw(st.integers(start, len(columns)))
        bases[name] = [[column[o] for o in outs] for column in columns[start:end]]
        start = end
    return Ref(bases, outs)


# --- properties --------------------------------------------------------------------------


@given(refs())
def test_apply_and_shape_match_reference(ref: Ref) -> None:
    layout = ref.build()
    assert layout.in_dims == ref.ins
    assert layout.out_dims == ref.outs
    assert layout.bases == ref.bases
    for point in points(ref.ins):
        assert layout.apply(point) == ref.apply(point)
    image = {tuple(ref.apply(p).values()) for p in points(ref.ins)}
    total_in = len(list(points(ref.ins)))
    total_out = layout.total_out_dim_size()
    assert layout.total_in_dim_size() == total_in
    assert layout.rank() == log2(len(image))
    assert layout.is_surjective() == (len(image) == total_out)
    assert layout.is_injective() == (len(image) == total_in)


@given(invertible_refs())
def test_invert_composes_to_identity(ref: Ref) -> None:
    layout = ref.build()
    assert layout.is_invertible()
    inverse = layout.invert()
    assert inverse.compose(layout) == identity(layout.out_dims)
    assert layout.compose(inverse) == identity(layout.in_dims)
    for point in points(ref.ins):
        assert inverse.apply(ref.apply(point)) == point


@given(refs())
def test_invert_rejects_non_bijective(ref: Ref) -> None:
    layout = ref.build()
    if layout.is_invertible():
        return
    with pytest.raises(ValueError, match="bijective"):
        layout.invert()


@given(st.data())
def test_invert_and_compose(data: st.DataObject) -> None:
    a = data.draw(refs(), label="a")
    # b has a's output names, in any order and with any sizes.
    names = data.draw(st.permutations(list(a.outs)), label="b order")
    b_outs = {name: 2 ** data.draw(st.integers(0, 3)) for name in names}
    b = data.draw(refs(outs=b_outs), label="b")
    image_a = {tuple(sorted(a.apply(p).items())) for p in points(a.ins)}
    reachable = all(tuple(sorted(b.apply(p).items())) in image_a for p in points(b.ins))
    if not reachable:
        with pytest.raises(ValueError, match="never produces"):
            LinearLayout.invert_and_compose(a.build(), b.build())
        return
    c = LinearLayout.invert_and_compose(a.build(), b.build())
    assert c.in_dims == b.ins
    assert c.out_dims == a.ins
    for point in points(b.ins):
        assert a.apply(c.apply(point)) == b.apply(point)


@given(refs())
def test_pseudoinvert_is_right_inverse(ref: Ref) -> None:
    layout = ref.build()
    if not layout.is_surjective():
        with pytest.raises(ValueError, match="surjective"):
            layout.pseudoinvert()
        return
    right = layout.pseudoinvert()
    for point in points(ref.outs):
        assert layout.apply(right.apply(point)) == point


@given(st.data())
def test_compose_matches_reference(data: st.DataObject) -> None:
    inner = data.draw(refs(), label="inner")
    # outer's inputs are inner's outputs (maybe larger), in any order.
    names = data.draw(st.permutations(list(inner.outs)), label="outer order")
    outer_ins = {name: inner.outs[name] * 2 ** data.draw(st.integers(0, 1)) for name in names}
    outer = data.draw(refs(ins=outer_ins), label="outer")
    composed = inner.build().compose(outer.build())
    assert composed.in_dims == inner.ins
    assert composed.out_dims == outer.outs
    for point in points(inner.ins):
        assert composed.apply(point) == outer.apply(inner.apply(point))


def reference_product(lhs: Ref, rhs: Ref, point: Point) -> Point:
    """(lhs * rhs)(x): rhs takes the high part of each shared input and output."""
    low = {name: point[name] % lhs.ins[name] for name in lhs.ins}
    high = {name: point[name] // lhs.ins.get(name, 1) for name in rhs.ins}
    left, right = lhs.apply(low), rhs.apply(high)
    result: Point = dict(left)
    for name, value in right.items():
        result[name] = result.get(name, 0) + value * lhs.outs.get(name, 1)
    return result


@given(refs(in_names=IN_NAMES[:3], max_bits=4), refs(in_names=IN_NAMES[1:], max_bits=4))
def test_product_matches_reference(lhs: Ref, rhs: Ref) -> None:
    product = lhs.build() * rhs.build()
    assert product == lhs.build().product(rhs.build())
    expected_ins = dict(lhs.ins)
    for name, size in rhs.ins.items():
        expected_ins[name] = expected_ins.get(name, 1) * size
    expected_outs = dict(lhs.outs)
    for name, size in rhs.outs.items():
        expected_outs[name] = expected_outs.get(name, 1) * size
    assert product.in_dims == expected_ins  # Also checks the order: lhs's, then rhs's others.
    assert product.out_dims == expected_outs
    for point in points(expected_ins):
        expected = reference_product(lhs, rhs, point)
        assert product.apply(point) == {name: expected.get(name, 0) for name in expected_outs}


@given(refs(), refs(), refs())
def test_product_is_associative_with_neutral_empty(a: Ref, b: Ref, c: Ref) -> None:
    la, lb, lc = a.build(), b.build(), c.build()
    assert (la * lb) * lc == la * (lb * lc)
    assert la * LinearLayout.empty() == la
    assert LinearLayout.empty() * la == la


@st.composite
def split_bits(draw: st.DrawFn, total_bits: int, names: Sequence[str]) -> List[Tuple[str, int]]:
    """Random named power-of-two sizes whose log2 sum is total_bits."""
    count = draw(st.integers(1, len(names)))
    chosen = draw(st.permutations(list(names)))[:count]
    cuts = sorted(draw(st.lists(st.integers(0, total_bits), min_size=count - 1, max_size=count - 1)))
    bounds = [0] + cuts + [total_bits]
    return [(name, 2 ** (hi - lo)) for name, lo, hi in zip(chosen, bounds, bounds[1:])]


@given(st.data())
def test_reshape_outs_is_row_major(data: st.DataObject) -> None:
    ref = data.draw(refs())
    new = dict(data.draw(split_bits(log2(ref.build().total_out_dim_size()), ["x", "y", "z"])))
    reshaped = ref.build().reshape_outs(list(new.items()))
    assert reshaped.out_dims == new
    for point in points(ref.ins):
        assert reshaped.apply(point) == unflatten(flatten(ref.apply(point), ref.outs), new)


@given(st.data())
def test_reshape_ins_is_row_major(data: st.DataObject) -> None:
    ref = data.draw(refs())
    new = dict(data.draw(split_bits(log2(ref.build().total_in_dim_size()), ["p", "q", "r"])))
    reshaped = ref.build().reshape_ins(list(new.items()))
    assert reshaped.in_dims == new
    for flat in range(reshaped.total_in_dim_size()):
        assert reshaped.apply(unflatten(flat, new)) == ref.apply(unflatten(flat, ref.ins))


@given(st.data())
def test_transpose_matches_reference(data: st.DataObject) -> None:
    ref = data.draw(refs())
    in_order = data.draw(st.permutations(list(ref.ins)))
    out_order = data.draw(st.permutations(list(ref.outs)))
    moved = ref.build().transpose_ins(in_order).transpose_outs(out_order)
    assert list(moved.in_dims) == in_order
    assert list(moved.out_dims) == out_order
    for point in points(ref.ins):
        assert moved.apply(point) == {name: ref.apply(point)[name] for name in out_order}
    # Transposing back restores the layout exactly.
    assert moved.transpose_ins(list(ref.ins)).transpose_outs(list(ref.outs)) == ref.build()


@given(st.data())
def test_sublayout_matches_reference(data: st.DataObject) -> None:
    ref = data.draw(refs())
    ins = data.draw(st.lists(st.sampled_from(list(ref.ins)), unique=True)) if ref.ins else []
    outs = data.draw(st.lists(st.sampled_from(list(ref.outs)), unique=True))
    sub = ref.build().sublayout(ins, outs)
    assert list(sub.in_dims) == [n for n in ref.ins if n in ins]
    assert list(sub.out_dims) == [n for n in ref.outs if n in outs]
    zero = True
    for point in points(sub.in_dims):
        full = ref.apply({name: point.get(name, 0) for name in ref.ins})
        expected = {name: full[name] for name in sub.out_dims}
        assert sub.apply(point) == expected
        zero &= not any(expected.values())
    assert ref.build().sublayout_is_zero(ins, outs) == zero


@given(refs())
def test_free_variable_masks_match_reference(ref: Ref) -> None:
    span = {tuple(0 for _ in ref.outs)}
    expected: Dict[str, int] = {}
    for name, vectors in ref.bases.items():
        mask = 0
        for bit, vector in enumerate(vectors):
            if tuple(vector) in span:
                mask |= 1 << bit
            else:
                span |= {tuple(a ^ b for a, b in zip(s, vector)) for s in span}
        expected[name] = mask
    layout = ref.build()
    assert layout.free_variable_masks() == expected
    assert (not any(expected.values())) == layout.is_injective()


@given(refs())
def test_num_consecutive_in_out_matches_reference(ref: Ref) -> None:
    layout = ref.build()
    if not ref.ins:
        assert layout.num_consecutive_in_out() == 1
        return
    first_in, first_out = next(iter(ref.ins)), next(iter(ref.outs))

    def holds(width: int) -> bool:
        for point in points(ref.ins):
            if point[first_in] % width:
                continue
            base = ref.apply(point)
            for step in range(width):
                moved = ref.apply({**point, first_in: point[first_in] + step})
                if moved != {**base, first_out: base[first_out] + step}:
                    return False
        return True

    width = 1
    while width * 2 <= ref.ins[first_in] and holds(width * 2):
        width *= 2
    assert layout.num_consecutive_in_out() == width


# --- construction, printing and errors ----------------------------------------------------


def test_one_dimensional_constructors() -> None:
    assert LinearLayout.identity_1d(8, "i", "o").bases == {"i": [[1], [2], [4]]}
    assert LinearLayout.zeros_1d(4, "i", "o", out_dim_size=2).out_dims == {"o": 2}
    assert LinearLayout.zeros_1d(4, "i", "o").bases == {"i": [[0], [0]]}
    strided = LinearLayout.strided_1d(4, 8, "i", "o")
    assert strided.out_dims == {"o": 32}
    assert [strided.apply({"i": x})["o"] for x in range(4)] == [0, 8, 16, 24]
    assert LinearLayout.empty().in_dims == {}
    assert LinearLayout.empty().apply({}) == {}


def test_product_examples() -> None:
    i4, i2 = LinearLayout.identity_1d(4, "i", "o"), LinearLayout.identity_1d(2, "i", "o")
    z2 = LinearLayout.zeros_1d(2, "i", "o")
    assert i4 * i2 == LinearLayout.identity_1d(8, "i", "o")
    assert [(i4 * z2).apply({"i": x})["o"] for x in range(8)] == [x % 4 for x in range(8)]
    assert [(z2 * i4).apply({"i": x})["o"] for x in range(8)] == [x // 2 for x in range(8)]
    two_d = LinearLayout.identity_1d(4, "i", "o1") * LinearLayout.identity_1d(8, "i", "o2")
    assert two_d.out_dims == {"o1": 4, "o2": 8}
    assert all(two_d.apply({"i": x}) == {"o1": x % 4, "o2": x // 4} for x in range(32))


def test_inferred_and_explicit_out_sizes() -> None:
    inferred = LinearLayout({"in": [[1, 0], [4, 1]]}, ["out1", "out2"])
    assert inferred.out_dims == {"out1": 8, "out2": 2}
    assert not inferred.is_surjective()
    explicit = LinearLayout({"in": [[1, 0], [4, 1]]}, {"out1": 16, "out2": 2})
    assert explicit.out_dims == {"out1": 16, "out2": 2}
    assert LinearLayout({"in": [[1, 0]]}, [("a", 2), ("b", 1)]).out_dims == {"a": 2, "b": 1}
    with pytest.raises(ValueError, match="surjective"):
        LinearLayout({"in": [[1, 0], [4, 1]]}, ["out1", "out2"], require_surjective=True)


def test_repr_is_readable() -> None:
    layout = LinearLayout({"register": [[0, 1]], "lane": [[1, 0], [2, 0]]}, {"dim0": 4, "dim1": 2})
    assert str(layout) == ("(register:2, lane:4) -> (dim0:4, dim1:2)\n" "  register: [(0, 1)]\n" "  lane: [(1, 0), (2, 0)]")
    assert repr(layout).startswith("LinearLayout((register:2")


@pytest.mark.parametrize(
    "build, message",
    [
        (lambda: LinearLayout({"in": [[1]]}, {"out": 3}), "not a power of two"),
        (lambda: LinearLayout({"in": [[1, 0]]}, {"out": 2}), "coordinates"),
        (lambda: LinearLayout({"in": [[2]]}, {"out": 2}), "outside"),
        (lambda: LinearLayout({"in": [[-1]]}, ["out"]), "negative"),
        (lambda: LinearLayout({"in": [[1]]}, [("o", 2), ("o", 2)]), "twice"),
        (lambda: LinearLayout({"in": [[1]]}, ["o", ("p", 2)]), "mixes"),
        (lambda: LinearLayout({"in": [[1]] * 31}, ["o"]), "more than"),
        (lambda: LinearLayout.identity_1d(6, "i", "o"), "not a power of two"),
        (lambda: LinearLayout.identity_1d(0, "i", "o"), "not a power of two"),
        (lambda: LinearLayout.strided_1d(4, 3, "i", "o"), "stride"),
        (lambda: LinearLayout.zeros_1d(4, "i", "o", out_dim_size=5), "not a power of two"),
        (lambda: LinearLayout.identity_1d(4, "i", "o").apply({"i": 4}), "outside"),
        (lambda: LinearLayout.identity_1d(4, "i", "o").apply({}), "missing"),
        (lambda: LinearLayout.identity_1d(4, "i", "o").apply({"i": 0, "j": 0}), "unknown"),
        (lambda: LinearLayout.zeros_1d(4, "i", "o").invert(), "bijective"),
        (lambda: LinearLayout.identity_1d(4, "i", "o").compose(LinearLayout.identity_1d(4, "x", "y")), "not an input"),
        (lambda: LinearLayout.identity_1d(8, "i", "o").compose(LinearLayout.identity_1d(4, "o", "y")), "size"),
        (
            lambda: LinearLayout.invert_and_compose(LinearLayout.identity_1d(4, "i", "o"), LinearLayout.identity_1d(4, "i", "p")),
            "not an output",
        ),
        (lambda: LinearLayout.identity_1d(4, "i", "o").sublayout(["j"], []), "unknown input"),
        (lambda: LinearLayout.identity_1d(4, "i", "o").sublayout_is_zero([], ["p"]), "unknown output"),
        (lambda: LinearLayout.identity_1d(4, "i", "o").transpose_ins(["i", "i"]), "needs 1"),
        (lambda: LinearLayout.identity_1d(4, "i", "o").transpose_outs(["p"]), "unknown"),
        (lambda: LinearLayout.identity_1d(4, "i", "o").reshape_ins([("a", 2)]), "total size"),
        (lambda: LinearLayout.identity_1d(4, "i", "o").reshape_outs([("a", 2), ("b", 3)]), "power of two"),
        (lambda: LinearLayout.identity_1d(4, "i", "o").in_dim_size("j"), "no input"),
        (lambda: LinearLayout.identity_1d(1 << 20, "i", "o") * LinearLayout.identity_1d(1 << 20, "i", "o"), "more than"),
    ],
)
def test_misuse_raises_value_error(build: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        build()  # type: ignore[operator]


@pytest.mark.parametrize(
    "build",
    [
        lambda: LinearLayout({"in": "x"}, ["o"]),
        lambda: LinearLayout({"in": [[1]]}, 5),
        lambda: LinearLayout({"in": [[1]]}, [3]),
        lambda: LinearLayout.identity_1d(4, "i", "o").apply({"i": 2**40}),
    ],
)
def test_wrong_python_types_raise_type_error(build: object) -> None:
    with pytest.raises(TypeError):
        build()  # type: ignore[operator]


def test_equal_layouts_are_unhashable() -> None:
    assert LinearLayout.identity_1d(4, "i", "o") == LinearLayout.identity_1d(4, "i", "o")
    assert LinearLayout.identity_1d(4, "i", "o") != LinearLayout.identity_1d(4, "i", "p")
    with pytest.raises(TypeError):
        hash(LinearLayout.empty())


# --- concrete layouts ---------------------------------------------------------------------


def blocked_coordinates(
    shape: Sequence[int],
    size_per_thread: Sequence[int],
    threads_per_warp: Sequence[int],
    warps_per_cta: Sequence[int],
    order: Sequence[int],
    register: int,
    lane: int,
    warp: int,
) -> Tuple[int, ...]:
    """The element a #ttg.blocked layout gives (register, lane, warp), by its textbook definition.

    Lanes and warps are numbered fastest along order[0]; a thread's registers first walk its
    size_per_thread block (order[0] fastest), then the repetitions of the CTA tile; a tile larger
    than the tensor wraps around (broadcast).
    """
    rank = len(shape)
    tile = [size_per_thread[d] * threads_per_warp[d] * warps_per_cta[d] for d in range(rank)]
    reps = [max(1, shape[d] // tile[d]) for d in range(rank)]

    def split(index: int, sizes: Sequence[int]) -> List[int]:
        parts = [0] * rank
        for d in order:
            parts[d] = index % sizes[d]
            index //= sizes[d]
        return parts

    elem = split(register % _prod(size_per_thread), size_per_thread)
    rep = split(register // _prod(size_per_thread), reps)
    lanes = split(lane, threads_per_warp)
    warps = split(warp, warps_per_cta)
    return tuple(
        (
            rep[d] * tile[d]
            + warps[d] * threads_per_warp[d] * size_per_thread[d]
            + lanes[d] * size_per_thread[d]
            + elem[d]
        )
        % shape[d]
        for d in range(rank)
    )


def _prod(values: Sequence[int]) -> int:
    result = 1
    for value in values:
        result *= value
    return result


def test_blocked_32x16_warp_size_32() -> None:
    # sizePerThread=[1,4] threadsPerWarp=[8,4] warpsPerCTA=[4,1] order=[1,0], 32x16 tensor.
    layout = LinearLayout(
        {
            "register": [[0, 1], [0, 2]],
            "lane": [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]],
            "warp": [[8, 0], [16, 0]],
        },
        {"dim0": 32, "dim1": 16},
    )
    assert layout.in_dims == {"register": 4, "lane": 32, "warp": 4}
    for register, lane, warp in itertools.product(range(4), range(32), range(4)):
        expected = blocked_coordinates([32, 16], [1, 4], [8, 4], [4, 1], [1, 0], register, lane, warp)
        got = layout.apply({"register": register, "lane": lane, "warp": warp})
        assert (got["dim0"], got["dim1"]) == expected
    assert layout.is_invertible()
    assert layout.free_variable_masks() == {"register": 0, "lane": 0, "warp": 0}
    # Four registers hold four consecutive dim1 elements: a 4-wide vector access.
    assert layout.transpose_outs(["dim1", "dim0"]).num_consecutive_in_out() == 4
    assert layout.num_consecutive_in_out() == 1

    # Storing to a row-major 32x16 shared buffer: offset = dim0 * 16 + dim1.
    shared = LinearLayout.identity_1d(16, "offset", "dim1") * LinearLayout.identity_1d(32, "offset", "dim0")
    assert shared.transpose_outs(["dim0", "dim1"]) == identity({"dim0": 32, "dim1": 16}).reshape_ins([("offset", 512)])
    store = LinearLayout.invert_and_compose(shared, layout)
    for register, lane, warp in itertools.product(range(4), range(32), range(4)):
        dim0, dim1 = blocked_coordinates([32, 16], [1, 4], [8, 4], [4, 1], [1, 0], register, lane, warp)
        assert store.apply({"register": register, "lane": lane, "warp": warp}) == {"offset": dim0 * 16 + dim1}


def test_blocked_32x16_warp_size_128() -> None:
    # The same tensor on a 128-wide warp (mp_22): threadsPerWarp=[32,4]. The CTA tile (128x16)
    # is taller than the tensor, so dim0 wraps: lane bit 4 and both warp bits broadcast.
    layout = LinearLayout(
        {
            "register": [[0, 1], [0, 2]],
            "lane": [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0]],
            "warp": [[0, 0], [0, 0]],
        },
        {"dim0": 32, "dim1": 16},
    )
    assert layout.in_dims == {"register": 4, "lane": 128, "warp": 4}
    for register, lane, warp in itertools.product(range(4), range(128), range(4)):
        expected = blocked_coordinates([32, 16], [1, 4], [32, 4], [4, 1], [1, 0], register, lane, warp)
        got = layout.apply({"register": register, "lane": lane, "warp": warp})
        assert (got["dim0"], got["dim1"]) == expected
    assert layout.is_surjective() and not layout.is_injective()
    assert layout.free_variable_masks() == {"register": 0, "lane": 0, "warp": 0b11}
    # Every element is owned by warp 0; the conversion from the warp-32 layout picks it.
    narrow = LinearLayout(
        {"register": [[0, 1], [0, 2]], "lane": [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]], "warp": [[8, 0], [16, 0]]},
        {"dim0": 32, "dim1": 16},
    )
    convert = LinearLayout.invert_and_compose(layout, narrow)
    for point in points(narrow.in_dims):
        target = convert.apply(point)
        assert target["warp"] == 0
        assert layout.apply(target) == narrow.apply(point)
