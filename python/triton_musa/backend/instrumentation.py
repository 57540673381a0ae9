"""Triton's debugging switches, honoured by the MUSA stages (our MLIR library runs outside
Triton's pass managers, so Triton's own handling of them does not reach our passes).

- ``MLIR_ENABLE_TIMING``: after each MUSA pass pipeline, the wall time of each pass in the
  layout of MLIR's ``Execution time report`` (the one Triton prints for its own stages).
  The pipeline then runs one pass at a time (the same passes in the same order on the same
  module), so the names are the passes' flags as ``musa-opt`` takes them.
- ``MLIR_ENABLE_DUMP``: ``1`` (or the kernel's name) prints the module before each MUSA pass,
  as ``// -----// IR Dump Before <pass> ...``, to stderr or to the file ``MLIR_DUMP_PATH``.
- ``LLVM_ENABLE_TIMING``: the wall time of our LLVM steps (export of the LLVM dialect to LLVM
  IR with its O3 pipeline, the SDK's ``llc`` and ``ld.lld``), in one report per kernel.
  LLVM's per-pass timers inside those steps are not reachable from here.
- ``TRITON_KERNEL_DUMP`` needs nothing from us: Triton writes every stage in ``kernel.asm``
  (ours included: ``llir``/``mubin`` or ``emuir``) to ``TRITON_DUMP_DIR``.
"""

from __future__ import annotations

import contextlib
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, List, Optional, Tuple

from .environment import LLVM_TIMING_ENV, MLIR_TIMING_ENV, dump_path, dump_requested, env_flag

_RULE = "===" + "-" * 73 + "==="


def split_pipeline(pipeline: str) -> List[str]:
    """The top-level passes of ``builtin.module(a,b{x=1},func.func(c))``: ``["a", "b{x=1}", "func.func(c)"]``."""
    text = pipeline.strip()
    if text.startswith("builtin.module(") and text.endswith(")"):
        text = text[len("builtin.module("):-1]
    passes: List[str] = []
    depth, start = 0, 0
    for i, ch in enumerate(text):
        if ch in "({":
            depth += 1
        elif ch in ")}":
            depth -= 1
        elif ch == "," and depth == 0:
            passes.append(text[start:i].strip())
            start = i + 1
    if text[start:].strip():
        passes.append(text[start:].strip())
    return passes


def _write(text: str) -> None:
    path = dump_path()
    if path:
        with open(path, "a") as f:
            f.write(text)
    else:
        sys.stderr.write(text)
        sys.stderr.flush()


def format_report(title: str, rows: List[Tuple[str, float]]) -> str:
    """Rows as MLIR's timing report lays them out (wall time, share, name; a Total row)."""
    total = sum(seconds for _, seconds in rows)
    lines = [_RULE, f"{'... ' + title + ' ...':^79}".rstrip(), _RULE,
             f"  Total Execution Time: {total:.4f} seconds", "", "  ----Wall Time----  ----Name----"]
    for name, seconds in rows + [("Total", total)]:
        share = 100.0 * seconds / total if total > 0 else 0.0
        lines.append(f"  {seconds:8.4f} ({share:5.1f}%)  {name}")
    return "\n".join(lines) + "\n"


def run_pipeline(module: Any, pipeline: str, run: Callable[[Any, str], List[Any]], *,
                 kernel: Optional[str] = None) -> List[Any]:
    """``run(module, pipeline)``, timed per pass under MLIR_ENABLE_TIMING and dumped before each pass
    under MLIR_ENABLE_DUMP; returns the remarks the passes emitted."""
    timing, dump = env_flag(MLIR_TIMING_ENV), dump_requested(kernel)
    if not (timing or dump):
        return list(run(module, pipeline))
    remarks: List[str] = []
    rows: List[Tuple[str, float]] = []
    for spec in split_pipeline(pipeline):
        if dump:
            _write(f"// -----// IR Dump Before {spec} ('builtin.module' operation) //----- //\n{module}\n\n")
        start = time.perf_counter()
        remarks += run(module, f"builtin.module({spec})")
        rows.append((spec, time.perf_counter() - start))
    if timing:
        sys.stderr.write(format_report(f"Execution time report: MUSA passes of {kernel or 'the kernel'}", rows))
    return remarks


@dataclass
class StepTimer:
    """Wall time of named steps, reported together under LLVM_ENABLE_TIMING."""

    title: str
    rows: List[Tuple[str, float]] = field(default_factory=list)
    enabled: bool = field(default_factory=lambda: env_flag(LLVM_TIMING_ENV))

    @contextlib.contextmanager
    def step(self, name: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self.rows.append((name, time.perf_counter() - start))

    def report(self) -> None:
        if self.enabled and self.rows:
            sys.stderr.write(format_report(self.title, self.rows))
