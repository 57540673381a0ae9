#!/usr/bin/env python3
"""Runs one of Triton's tutorials, unchanged, in this process, with its `perf_report` benchmarks off.

Used by scripts/tutorials_suite.py, one process per tutorial (the emulator and the arch come from the
environment the suite sets):

    tutorial_runner.py script PATH                  # the file as `python PATH` would run it
    tutorial_runner.py calls PATH 'import torch' 'print(matmul(a, b))' ...
                                                     # the file as a module (its `__main__` block off),
                                                     # then each statement, run in its namespace
    tutorial_runner.py pytest PATH NODE...           # pytest on the file's own tests (node ids after ::)

A benchmark (`triton.testing.Mark.run`, what `@triton.testing.perf_report` makes) prints one line
instead of timing: the sizes the tutorials benchmark at are for a GPU, not for an emulator.
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path
from typing import Any, List


def benchmarks_off() -> None:
    import triton.testing

    def skip(self: Any, *args: Any, **kwargs: Any) -> None:
        names = [getattr(b, "plot_name", "?") for b in (self.benchmarks if isinstance(self.benchmarks, list)
                                                         else [self.benchmarks])]
        print(f"[tutorial_runner] benchmark off: {', '.join(names)}", flush=True)

    triton.testing.Mark.run = skip  # type: ignore[method-assign]


def main(argv: List[str]) -> int:
    if len(argv) < 2 or argv[0] not in ("script", "calls", "pytest"):
        print(__doc__, file=sys.stderr)
        return 2
    mode, path = argv[0], Path(argv[1]).resolve()
    # As `python PATH` would: the tutorial's folder first on the import path, argv its own.
    sys.path.insert(0, str(path.parent))
    if mode == "pytest":
        import pytest

        return int(pytest.main(["-q", "-rs", "-p", "no:cacheprovider", "--rootdir", str(path.parent),
                                *[f"{path}::{node}" for node in argv[2:]]]))
    benchmarks_off()
    sys.argv = [str(path)]
    if mode == "script":
        runpy.run_path(str(path), run_name="__main__")
        return 0
    namespace = runpy.run_path(str(path), run_name=path.stem.replace("-", "_"))
    for statement in argv[2:]:
        print(f"[tutorial_runner] {statement}", flush=True)
        exec(statement, namespace)  # noqa: S102 - the suite's own statements, into the tutorial
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
