"""The hardware facts the device probes test, each stated here on its own, from MUSA-FACTS.md's formulas
(and, where MUSA-FACTS.md says nothing, our inference, marked so): not read from the compiler, the catalogue
or the emulator. A probe predicts what its kernel prints if the hardware behaves as one of these statements
says and our compiler as its own tables say; a test passes a wrong statement (a permuted fragment, another
swizzle line) to see the probe report ``differs``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Dict, Tuple

Coord = Tuple[int, int]
# (thread of the fragment, index of the value in the thread's fragment) -> (row, column) of the matrix.
SlotMap = Callable[[int, int], Coord]


@dataclass(frozen=True)
class Fragment:
    """Which thread holds which element of A (m x k), B (k x n) and C (m x n) of one matrix instruction, in
    which of its values (value v: the v-th element in the thread's registers, two 16-bit values per 32-bit
    register, low half first). ``a``/``b`` are None where the operands come from shared memory (SQMMA)."""
    name: str
    threads: int
    m: int
    n: int
    k: int
    c: SlotMap
    a: SlotMap | None = None
    b: SlotMap | None = None

    @property
    def c_values(self) -> int:
        return self.m * self.n // self.threads

    @property
    def a_values(self) -> int:
        return self.m * self.k // self.threads

    @property
    def b_values(self) -> int:
        return self.k * self.n // self.threads

    def with_c(self, c: SlotMap, name: str) -> "Fragment":
        return replace(self, c=c, name=name)


def qy2_wmma_m32n32k16() -> Fragment:
    """QY2 (mp_22, 128 threads) f16/bf16 m32n32k16, MUSA-FACTS.md: C row = 4(t/64) + (t/8)%4 + {0,8,16,24},
    col = 8((t/32)%2) + t%8 + {0,16}; A row = (t/4)%16 + {0,16}, col = 2(4(t/64) + t%4) + {0,1}; B mirrors A.
    Inferred (no source states it): the register order, the column offset fastest in C ({0,16}) and in A
    and B ({0,1}), so that a 32-bit register packs two neighbours along K."""
    def c(t: int, v: int) -> Coord:
        return 4 * (t // 64) + (t // 8) % 4 + 8 * (v // 2), 8 * ((t // 32) % 2) + t % 8 + 16 * (v % 2)

    def a(t: int, v: int) -> Coord:
        return (t // 4) % 16 + 16 * (v // 2), 2 * (4 * (t // 64) + t % 4) + v % 2

    def b(t: int, v: int) -> Coord:
        n, k = a(t, v)
        return k, n
    return Fragment("QY2 WMMA m32n32k16", 128, 32, 32, 16, c, a, b)


def ph1_wmma_m16n16(k: int) -> Fragment:
    """PH1 (mp_31, 32 lanes) f16/bf16 m16n16k<k>, MUSA-FACTS.md: C row = (l >> 3) + 4i, col = (l & 7) + 8j,
    j fastest; A m = (l >> 2) + 8j, k = (l & 3) + 4i; B n = (l >> 2) + 8j, k = (l & 3) + 4i. Inferred: i
    fastest in A and B (i < k/4: for k = 32 the same formula with one more K bit)."""
    ks = k // 4

    def c(t: int, v: int) -> Coord:
        return (t >> 3) + 4 * (v // 2), (t & 7) + 8 * (v % 2)

    def a(t: int, v: int) -> Coord:
        return (t >> 2) + 8 * (v // ks), (t & 3) + 4 * (v % ks)

    def b(t: int, v: int) -> Coord:
        n, kk = a(t, v)
        return kk, n
    return Fragment(f"PH1 WMMA m16n16k{k}", 32, 16, 16, k, c, a, b)


def sqmma_accumulator(m: int, n: int) -> Fragment:
    """The SQMMA accumulator of one m x n instruction over a squad (MUSA-FACTS.md): thread t = 32w + l,
    register r = rn + (n/8) rm: row = (l >> 3) + 4w + 16 rm, col = (l & 7) + 8 rn."""
    def c(t: int, v: int) -> Coord:
        w, lane, rm, rn = t // 32, t % 32, v // (n // 8), v % (n // 8)
        return (lane >> 3) + 4 * w + 16 * rm, (lane & 7) + 8 * rn
    return Fragment(f"SQMMA accumulator m{m}n{n}", 128, m, n, 0, c)


def swap_values(slots: SlotMap, first: int, second: int) -> SlotMap:
    """``slots`` with values ``first`` and ``second`` of every thread exchanged: a fragment whose register
    order is wrong."""
    def swapped(t: int, v: int) -> Coord:
        return slots(t, second if v == first else first if v == second else v)
    return swapped


@dataclass(frozen=True)
class Swizzle:
    """The TME/SQMMA shared-memory swizzle (MUSA-FACTS.md) on an absolute byte address a: line = a / line_bytes,
    sector = (a % line_bytes) / granularity, physical sector = sector XOR (line % (stride / granularity));
    granularity 0 means none. Inferred: the line is 256 B for every granularity."""
    granularity: int
    stride: int = 256
    line: int = 256

    def __post_init__(self) -> None:
        if self.granularity and not (self.granularity <= self.stride <= self.line):
            raise ValueError(f"a swizzle needs granularity <= stride <= line, got {self}")

    def address(self, a: int) -> int:
        if not self.granularity:
            return a
        line, within = divmod(a, self.line)
        sector, byte = divmod(within, self.granularity)
        sector ^= line % (self.stride // self.granularity)
        return line * self.line + sector * self.granularity + byte


def canonical_swizzles() -> Dict[int, Swizzle]:
    """By the granularity a buffer's encoding names (0: none): MUSA-FACTS.md's 16/32/64 B with stride = line
    = 256 B (the line inferred for all three), and no swizzle at all for 0."""
    return {0: Swizzle(0), **{g: Swizzle(g) for g in (16, 32, 64)}}


@dataclass(frozen=True)
class TMEFacts:
    """What a TME load does outside the tensor: the value of elements of the box beyond the tensor's shape
    (inferred: zero, as the descriptor is encoded without the NaN fill)."""
    out_of_bounds_fill: float = 0.0


@dataclass(frozen=True)
class RingFacts:
    """Pipelined TME loads: a ring of ``depth`` buffers with consecutive barrier ids; the load of iteration i
    goes to buffer i % depth and arrives on barrier ``first_id + i % depth`` (a computed, non-constant id),
    and iteration i waits on the barrier ``wait_id(i)`` names. ``honours_computed_ids`` False models hardware
    that takes every computed id as the first one."""
    honours_computed_ids: bool = True


@dataclass(frozen=True)
class SQMMAFacts:
    """scaleOut = 1 (what we pass) accumulates into the accumulator operand (FlagTree); MUTLASS's names say
    ScaleOut::One = 0, Zero = 1, under which 1 would drop it (unresolved in MUSA-FACTS.md)."""
    scale_out_one_accumulates: bool = True


@dataclass(frozen=True)
class DescriptorArgFacts:
    """A TME descriptor kernel argument (64 bytes, by value, with the grid-constant annotation in
    !musa.annotations) reaches the TME unit intact; False models an annotation llc ignores (the engine then
    reads a private copy's address)."""
    delivered: bool = True
