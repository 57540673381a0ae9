"""The tests' reader of --musa-dot-path-report's remarks (lowering.dot_path_report's lines):
``<loc>: remark: dot MxNxK <a> -> <acc>: <path>``, where a dot on a matrix unit quotes the catalogue
row of its instruction (``wmma f16 x f16 -> f32 m32n32k16 on mp_2x, warpsPerCTA [2, 2]``) and a dot
left on FMA says why (``fma (<why>)``)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import FrozenSet, Iterable, List

_REPORT = re.compile(r"remark: dot (\S+) (\S+) -> (\S+): (wmma|sqmma|fma)(.*)$")
# MatrixInstr::describe() after the unit: "<a> x <b> -> <c> m<M>n<N>k<K> on mp_<major>x".
_ROW = re.compile(r"(\S+ x \S+ -> \S+ (m\d+n\d+k\d+) on mp_\dx)(.*)$")


@dataclass(frozen=True)
class ReportedDot:
    shape: str  # "64x64x32"
    a: str  # A's element type
    acc: str  # the dot's result element type
    path: str  # "wmma", "sqmma" or "fma"
    # Matrix unit: the instruction's shape and how the dot is tiled ("m32n32k16, warpsPerCTA [2, 2]");
    # fma: "(<why>)".
    details: str
    row: str = ""  # the catalogue row quoted (matrix units): "wmma f16 x f16 -> f32 m32n32k16 on mp_2x"


@lru_cache(maxsize=None)
def _lowered_rows() -> FrozenSet[str]:
    from triton_musa import _musa_mlir
    return frozenset(row["description"] for row in _musa_mlir.matrix_instructions() if row["lowered"])


def read_dot_paths(lines: Iterable[str]) -> List[ReportedDot]:
    """One ReportedDot per remark; each row a matrix path quotes must be a lowered row of the catalogue."""
    dots = []
    for line in lines:
        m = _REPORT.search(line)
        assert m, f"unexpected report line: {line}"
        shape, a, acc, path, rest = m.group(1), m.group(2), m.group(3), m.group(4), m.group(5).strip()
        if path == "fma":
            dots.append(ReportedDot(shape, a, acc, path, rest))
            continue
        row = _ROW.match(rest)
        assert row, f"the {path} dot quotes no catalogue row: {line}"
        quoted = f"{path} {row.group(1)}"
        assert quoted in _lowered_rows(), f"'{quoted}' is not a lowered row of the catalogue: {line}"
        dots.append(ReportedDot(shape, a, acc, path, row.group(2) + row.group(3), quoted))
    return dots
