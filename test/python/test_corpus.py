"""The TTIR/TTGIR contract: what Triton 3.6 prints for a musa target, our ``musa-opt``
reads, verifies and prints back *exactly as Triton printed it*.

Triton prints a module with its locations (``loc(...)``, ``#locN`` aliases) and with
value names taken from name locations (``%pid``, ``%offs_1``). ``musa-opt`` prints the
same way under ``-mlir-print-debuginfo -mlir-use-nameloc-as-prefix``, so its output on
Triton's text must equal that text byte for byte: a printer that drops or reorders an
attribute (``tt.divisibility``, ``cacheModifier``), a type parameter or a layout field
fails here. A second run without locations checks that our default printing (what the
lowering's later stages see) parses back to itself.

musa-opt is looked up on PATH, then in $MUSA_OPT, then beside the running Python
(the venv's bin/). A missing tool fails the tests: the contract is not met until it exists.
"""

from __future__ import annotations

import difflib
import itertools
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Sequence

import pytest

from corpus import ENTRIES

STAGES = ("ttir", "ttgir")
MUSA_OPT_TIMEOUT_S = 120
# How musa-opt prints what Triton's `str(module)` prints (locations, names from name locations).
AS_TRITON_PRINTS = ("-mlir-print-debuginfo", "-mlir-use-nameloc-as-prefix")

# scf.for/scf.while print their region arguments without locations, so the names Triton gave
# them (%row, iter_args) are not in the text; every other value keeps its name.
_UNNAMED_REGION_ARGS = re.compile(r"\bscf\.(for|while)\b")
_SSA_NAME = re.compile(r"%[\w$.-]+")
# After a name: it is defined (`%x = `, `%x:2 = `, `iter_args(%x = `, a block or function argument `%x: `).
_DEFINES = re.compile(r"(?::\d+)?\s*=\s|: ")
# `%a, %b = op`: every name of a result list is defined.
_RESULT_LIST = re.compile(r"^\s*(%[\w$.-]+(?:,\s*%[\w$.-]+)+)\s*=\s", re.MULTILINE)

CASES = [pytest.param(e.name, arch, stage, id=f"{e.name}-{arch}-{stage}")
         for e in ENTRIES for arch in e.archs for stage in STAGES]


def find_musa_opt() -> str:
    """The musa-opt executable; fails the calling test (not a skip, not a fixture error) when absent."""
    # The venv's bin/ is where the build installs it, even when the venv is not activated.
    beside_python = Path(sys.executable).parent / "musa-opt"
    found = (os.environ.get("MUSA_OPT") or shutil.which("musa-opt")
             or (str(beside_python) if beside_python.exists() else None))
    if not found or not os.access(found, os.X_OK):
        pytest.fail("musa-opt not found: build it (tools/musa-opt) and put it on PATH "
                    "(e.g. /work/venv/bin) or set MUSA_OPT=/path/to/musa-opt", pytrace=False)
    return found


def run_musa_opt(musa_opt: str, path: Path, flags: Sequence[str] = ()) -> str:
    """Parse and verify ``path`` and return the printed module; fail with musa-opt's diagnostic."""
    cmd: List[str] = [musa_opt, *flags, str(path)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=MUSA_OPT_TIMEOUT_S)
    if proc.returncode != 0:
        pytest.fail(f"`{' '.join(cmd)}` exited with {proc.returncode}:\n{proc.stderr.strip()}", pytrace=False)
    return proc.stdout


def number_values(text: str) -> str:
    """`text` with every SSA value renamed %v<k>, k counting definitions in text order.

    Per definition, not per spelling: sibling regions may reuse a name for different
    values, and a use refers to the latest definition of its name above it."""
    in_result_lists = {m.start() for lst in _RESULT_LIST.finditer(text)
                       for m in _SSA_NAME.finditer(text, lst.start(1), lst.end(1))}
    current: Dict[str, str] = {}
    count = itertools.count()

    def rename(m: re.Match) -> str:
        defines = m.start() in in_result_lists or _DEFINES.match(text, m.end()) is not None
        if defines or m.group(0) not in current:
            current[m.group(0)] = f"%v{next(count)}"
        return current[m.group(0)]

    return _SSA_NAME.sub(rename, text)


def assert_same_text(expected: str, actual: str, expected_name: str, actual_name: str, what: str) -> None:
    if expected != actual:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True), expected_name,
                                            actual_name, n=1))
        pytest.fail(f"{what}:\n{diff[:8000]}", pytrace=False)


@pytest.mark.parametrize("name,arch,stage", CASES)
def test_musa_opt_prints_what_triton_printed(name: str, arch: str, stage: str, corpus_ir, tmp_path: Path) -> None:
    musa_opt = find_musa_opt()
    triton_text = corpus_ir.get(name, arch)[stage]
    source = tmp_path / f"{name}.{arch}.{stage}.mlir"
    source.write_text(triton_text)

    ours = run_musa_opt(musa_opt, source, AS_TRITON_PRINTS)
    # Allowed: the number of newlines at the end (the tool adds one), and the names of values
    # in modules whose region arguments carry no location in Triton's text.
    expected, ours = triton_text.rstrip("\n") + "\n", ours.rstrip("\n") + "\n"
    if _UNNAMED_REGION_ARGS.search(triton_text):
        expected, ours = number_values(expected), number_values(ours)
    assert_same_text(expected, ours, f"triton:{source.name}", "musa-opt",
                     "musa-opt does not print Triton's module as Triton printed it (- Triton, + musa-opt)")

    # Without locations: our printer's output must parse back to the same text.
    plain = tmp_path / f"{name}.{arch}.{stage}.plain.mlir"
    plain.write_text(run_musa_opt(musa_opt, source))
    assert_same_text(plain.read_text(), run_musa_opt(musa_opt, plain), plain.name, "reprinted",
                     "musa-opt output is not a fixed point")


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
