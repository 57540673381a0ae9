"""A CI-sized slice of a real client's own tests on the emulator: Liger-Kernel 0.8.5's test/transformers,
fetched and run through scripts/client_suite.py (pip download of the pinned sdist, a pytest process per file
with the emulator forced for the arch, the per-test time limit, the expected-outcome list). The full run is
`scripts/client_suite.py liger` (README). Needs PyPI, as CI has: a failed download fails this test."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Tuple

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "client_suite.py"

# (file, pytest -k expression, tests that must pass): fp32 cases of Liger's forward + backward checks against
# torch. Liger skips its bf16 cases on the CPU device itself; the -k expressions leave them out.
SLICE: Tuple[Tuple[str, str, int], ...] = (
    ("test_softmax.py", "dtype0", 12),
    ("test_swiglu.py", "test_correctness_llamamlp and dtype0 or test_correctness_functional and dtype0", 4),
    ("test_layer_norm.py", "test_liger_layer_norm and dtype0 and (2-8-64 or 1-1-1023)", 3),
    ("test_rope.py", "test_correctness and True-dtype0 and 128-32-8-64", 2),
)


def load_client_suite() -> ModuleType:
    spec = importlib.util.spec_from_file_location("client_suite", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["client_suite"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def liger_root() -> Tuple[ModuleType, Path]:
    suite = load_client_suite()
    root = suite.fetch(suite.LIGER, suite.default_cache())
    suite.install_test_deps(suite.LIGER)
    return suite, root


@pytest.mark.parametrize("arch_name", ["mp_31", "mp_22"])
def test_liger_slice_passes(liger_root: Tuple[ModuleType, Path], arch_name: str, tmp_path: Path) -> None:
    suite, root = liger_root
    env = suite.suite_env(arch_name)
    ran = []
    for file, keyword, must_pass in SLICE:
        path = f"{suite.LIGER.tests}/{file}"
        ids, broken = suite.collect(root, [path], keyword, env)
        assert not broken and len(ids) == must_pass, (file, keyword, ids, broken)
        results = suite.run_file(root, ids, env, 120.0, tmp_path / "progress.jsonl", echo=False)
        suite.match_expected(results, suite.LIGER.expected, arch_name)
        ran += results
    bad = [f"{r.nodeid}: {r.outcome}: {r.message[:500]}" for r in ran if r.column != "passed"]
    assert not bad, "\n".join(bad)
    assert len(ran) == sum(n for _, _, n in SLICE)
