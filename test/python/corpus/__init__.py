"""A corpus of Triton kernels covering what Triton 3.6 can emit for a ``musa:`` target.

Each ``CorpusEntry`` names one kernel with its signature, constexprs, compile options
and the architectures it applies to. The corpus drives the IR dumps in
``dump_corpus.py`` and the ``musa-opt`` round-trip tests in ``test_corpus.py``.
"""

from __future__ import annotations

from typing import Dict, List

from ._entry import ALL_ARCHS, TARGETS, CorpusEntry
from . import control, dot, elementwise, memory, reductions, shapes

ENTRIES: List[CorpusEntry] = [
    *elementwise.ENTRIES,
    *reductions.ENTRIES,
    *dot.ENTRIES,
    *memory.ENTRIES,
    *shapes.ENTRIES,
    *control.ENTRIES,
]


def _index(entries: List[CorpusEntry]) -> Dict[str, CorpusEntry]:
    by_name: Dict[str, CorpusEntry] = {}
    for e in entries:
        if e.name in by_name:
            raise ValueError(f"duplicate corpus entry name {e.name!r}")
        by_name[e.name] = e
    return by_name


BY_NAME: Dict[str, CorpusEntry] = _index(ENTRIES)

__all__ = ["ALL_ARCHS", "BY_NAME", "ENTRIES", "TARGETS", "CorpusEntry"]
