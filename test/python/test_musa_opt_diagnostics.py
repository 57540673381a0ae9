"""musa-opt on malformed input: a located diagnostic and a non-zero exit, never a crash.

The inputs are derived from real Triton 3.6 output (the corpus matmul), so the
errors are the ones a user editing or truncating a dumped TTGIR file would meet.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from test_corpus import find_musa_opt

LOCATED_ERROR = r"{name}:(\d+):(\d+): error: "


def _run(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([find_musa_opt(), str(path)], capture_output=True, text=True, timeout=120)


def _assert_located_error(proc: subprocess.CompletedProcess, path: Path, message: str) -> None:
    # A crash (assertion, signal) exits with a negative or >128 code and a stack dump.
    assert proc.returncode == 1, f"expected a clean failure, got {proc.returncode}:\n{proc.stderr}"
    assert "Stack dump" not in proc.stderr and "Assertion" not in proc.stderr, proc.stderr
    assert re.search(LOCATED_ERROR.format(name=re.escape(path.name)), proc.stderr), proc.stderr
    assert message in proc.stderr, proc.stderr


@pytest.fixture
def matmul_ttgir(corpus_ir) -> str:
    return corpus_ir.get("matmul", "mp_31")["ttgir"]


def test_truncated_ttgir(matmul_ttgir: str, tmp_path: Path) -> None:
    lines = matmul_ttgir.splitlines(keepends=True)
    path = tmp_path / "truncated.ttgir"
    path.write_text("".join(lines[: len(lines) // 3]))
    _assert_located_error(_run(path), path, "error:")


def test_unknown_layout_field(matmul_ttgir: str, tmp_path: Path) -> None:
    text, count = re.subn(r"#ttg\.blocked<\{", "#ttg.blocked<{bogusField = [2], ", matmul_ttgir, count=1)
    assert count == 1
    path = tmp_path / "unknown_field.ttgir"
    path.write_text(text)
    _assert_located_error(_run(path), path, "bogusField")


def test_layout_rank_mismatch(matmul_ttgir: str, tmp_path: Path) -> None:
    # Parses, but a 1-D warpsPerCTA on 2-D tensors must fail verification.
    text, count = re.subn(r"warpsPerCTA = \[(\d+), (\d+)\]", r"warpsPerCTA = [\1]", matmul_ttgir, count=1)
    assert count == 1
    path = tmp_path / "rank_mismatch.ttgir"
    path.write_text(text)
    proc = _run(path)
    assert proc.returncode == 1 and "error:" in proc.stderr and "Stack dump" not in proc.stderr, proc.stderr


def test_illegal_sqmma_shape(tmp_path: Path) -> None:
    # f16 SQMMA with K = 128 is not one instruction (MUSA-FACTS: issue two K = 64).
    path = tmp_path / "sqmma.mlir"
    path.write_text(
        '#acc = #musagpu.sqmma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [4, 1], '
        'instrShape = [64, 64, 128]}>\n'
        'func.func @bad(%a: memref<64x128xf16, 3>, %b: memref<128x64xf16, 3>, '
        '%c: tensor<64x64xf32, #acc>) -> tensor<64x64xf32, #acc> {\n'
        '  %d = musagpu.sqmma %a, %b, %c : memref<64x128xf16, 3>, memref<128x64xf16, 3> '
        '-> tensor<64x64xf32, #acc>\n'
        '  return %d : tensor<64x64xf32, #acc>\n'
        '}\n')
    _assert_located_error(_run(path), path, "K = 128 is not a single instruction")
