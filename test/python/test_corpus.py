"""The TTIR/TTGIR contract: everything Triton 3.6 prints for a musa target must parse,
verify and print stably with our ``musa-opt``.

musa-opt is looked up on PATH, then in $MUSA_OPT, then beside the running Python
(the venv's bin/). A missing tool fails the tests:
the contract is not met until the tool exists.
"""

from __future__ import annotations

import difflib
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest

from corpus import ENTRIES

STAGES = ("ttir", "ttgir")
MUSA_OPT_TIMEOUT_S = 120

CASES = [pytest.param(e.name, arch, stage, id=f"{e.name}-{arch}-{stage}")
         for e in ENTRIES for arch in e.archs for stage in STAGES]


def find_musa_opt() -> str:
    """The musa-opt executable; fails the calling test (not a skip, not a fixture error) when absent."""
    # The venv's bin/ is where the build installs it, even when the venv is not activated.
    beside_python = Path(sys.executable).parent / "musa-opt"
    found = (shutil.which("musa-opt") or os.environ.get("MUSA_OPT")
             or (str(beside_python) if beside_python.exists() else None))
    if not found or not os.access(found, os.X_OK):
        pytest.fail("musa-opt not found: build it (tools/musa-opt) and put it on PATH "
                    "(e.g. /work/venv/bin) or set MUSA_OPT=/path/to/musa-opt", pytrace=False)
    return found


def run_musa_opt(musa_opt: str, path: Path) -> str:
    """Parse and verify ``path`` and return the printed module; fail with musa-opt's diagnostic."""
    cmd: List[str] = [musa_opt, str(path)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=MUSA_OPT_TIMEOUT_S)
    if proc.returncode != 0:
        pytest.fail(f"`{' '.join(cmd)}` exited with {proc.returncode}:\n{proc.stderr.strip()}", pytrace=False)
    return proc.stdout


@pytest.mark.parametrize("name,arch,stage", CASES)
def test_musa_opt_round_trip(name: str, arch: str, stage: str, corpus_ir, tmp_path: Path) -> None:
    musa_opt = find_musa_opt()
    source = tmp_path / f"{name}.{arch}.{stage}.mlir"
    source.write_text(corpus_ir.get(name, arch)[stage])

    out1 = run_musa_opt(musa_opt, source)  # (a) parse + verify
    printed = tmp_path / f"{name}.{arch}.{stage}.printed.mlir"
    printed.write_text(out1)
    out2 = run_musa_opt(musa_opt, printed)  # (b) our printer's output parses back to the same text

    if out1 != out2:
        diff = "".join(difflib.unified_diff(out1.splitlines(True), out2.splitlines(True), str(printed),
                                            "reprinted", n=2))
        pytest.fail(f"musa-opt output is not a fixed point for {source.name}:\n{diff[:8000]}", pytrace=False)


@pytest.mark.parametrize("name,arch", [pytest.param(e.name, a, id=f"{e.name}-{a}") for e in ENTRIES for a in e.archs])
def test_triton_compiles(name: str, arch: str, corpus_ir) -> None:
    """Separates 'Triton cannot compile this corpus kernel' from 'musa-opt rejects its IR'."""
    ir = corpus_ir.get(name, arch)
    assert f'ttg.target = "musa:{arch}"' in ir["ttgir"]
    assert "tt.func" in ir["ttir"]


def test_corpus_is_broad() -> None:
    assert len(ENTRIES) >= 36
    ops_wanted = ("tl.dot", "atomic_cas", "histogram", "make_tensor_descriptor", "make_block_ptr", "associative_scan",
                  "device_print", "gather")
    import inspect
    sources = "\n".join(inspect.getsource(e.fn.fn) for e in ENTRIES)
    missing = [op for op in ops_wanted if op not in sources]
    assert not missing, f"corpus lost coverage of {missing}"
    assert {e.options["num_warps"] for e in ENTRIES} >= {1, 2, 4, 8}
