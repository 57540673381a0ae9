"""scripts/tutorials_suite.py: Triton's own tutorials as a client, unchanged, on the emulator.

The suite's machinery runs on small stand-in tutorials written here (a pass, an assert, a tutorial's own
"cannot run here" line, a benchmark that must not run, a pytest test, a timeout), so it is checked where
Triton's tutorials are absent. The README's CI slice (`--ci`) runs the real ones from
``../shared/triton-3.6-tutorials`` (or $TRITON_TUTORIALS_DIR) on both archs; without them that test is a
documented skip naming the folder (a clean clone has no ../shared)."""

from __future__ import annotations

import importlib.util
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def load_suite() -> ModuleType:
    sys.path.insert(0, str(SCRIPTS))
    spec = importlib.util.spec_from_file_location("tutorials_suite", SCRIPTS / "tutorials_suite.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["tutorials_suite"] = module
    spec.loader.exec_module(module)
    return module


VECTOR_ADD = """
import torch, triton, triton.language as tl

@triton.jit
def add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)

x, y = torch.rand(1000), torch.rand(1000)
out = torch.empty_like(x)
add[(4,)](x, y, out, 1000, BLOCK=256)
assert torch.equal(out, x + y)

@triton.testing.perf_report(triton.testing.Benchmark(x_names=["n"], x_vals=[2**28], line_arg="p",
                            line_vals=["t"], line_names=["t"], plot_name="too-big-for-an-emulator", args={}))
def bench(n, p):
    raise RuntimeError("the benchmark ran")

bench.run(print_data=True, show_plots=True)
"""


def write_tutorials(folder: Path) -> None:
    (folder / "01-pass.py").write_text(VECTOR_ADD)
    (folder / "02-assert.py").write_text("x = 1\nassert x == 2, 'the tutorial asserts'\n")
    (folder / "03-own-skip.py").write_text("if __name__ == '__main__':\n    print('Not on this device')\n")
    (folder / "04-test.py").write_text(textwrap.dedent("""
        import pytest

        @pytest.mark.parametrize("n", [1, 2])
        def test_op(n):
            assert n == 1, f"n is {n}"
        """))
    (folder / "05-slow.py").write_text("import time\ntime.sleep(60)\n")


def test_suite_outcomes_on_stand_in_tutorials(tmp_path: Path) -> None:
    suite = load_suite()
    folder = tmp_path / "tutorials"
    folder.mkdir()
    write_tutorials(folder)
    Tutorial, Expected = suite.Tutorial, suite.Expected
    plans = [
        Tutorial("01-pass.py"),
        Tutorial("02-assert.py"),
        Tutorial("03-own-skip.py", own_skip=r"Not on this device"),
        Tutorial("04-test.py", mode="pytest", steps=("test_op[1]", "test_op[2]")),
    ]
    expected = (Expected(pattern=r"^02-assert\.py$", outcome="failed", message=r"the tutorial asserts",
                         reason="stand-in", evidence="stand-in"),)
    suite.EXPECTED = expected
    results, stale = suite.run_arch(plans, folder, "mp_31", 120.0, tmp_path / "out", echo=False)
    by_id = {r.nodeid: r for r in results}
    assert by_id["01-pass.py"].outcome == "passed", by_id["01-pass.py"].message
    assert by_id["02-assert.py"].outcome == "failed"
    assert by_id["02-assert.py"].expected is expected[0]
    assert by_id["02-assert.py"].message.startswith("AssertionError: the tutorial asserts")
    assert by_id["03-own-skip.py"].outcome == "skipped"
    assert by_id["04-test.py::test_op[1]"].outcome == "passed"
    assert by_id["04-test.py::test_op[2]"].outcome == "failed"
    assert "n is 2" in by_id["04-test.py::test_op[2]"].message
    assert by_id["04-test.py::test_op[2]"].expected is None
    assert stale == []
    assert (tmp_path / "out" / "junit-tutorials-mp_31.xml").is_file()

    slow = suite.run_tutorial(Tutorial("05-slow.py"), folder, "mp_31", 3.0, echo=False)
    assert [r.outcome for r in slow] == ["timeout"]


def test_ci_slice_of_tritons_tutorials(tmp_path: Path) -> None:
    suite = load_suite()
    folder = suite.tutorials_dir(None)
    if not (folder / "01-vector-add.py").is_file():
        pytest.skip(f"Triton's tutorials are not beside the checkout: {folder} (set TRITON_TUTORIALS_DIR)")
    assert suite.main(["--ci", "--out", str(tmp_path)]) == 0
