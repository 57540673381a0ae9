"""Triton's debugging switches on the MUSA stages: MLIR_ENABLE_TIMING (per-pass report in MLIR's
layout), LLVM_ENABLE_TIMING (our LLVM steps), MLIR_ENABLE_DUMP (IR before each MUSA pass, all
kernels or one by name, to stderr or MLIR_DUMP_PATH) and TRITON_KERNEL_DUMP (every stage's file)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Dict

import pytest
import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

import aot_env
from triton_musa.backend.compiler import MusaBackend, MusaOptions
from triton_musa.backend.instrumentation import format_report, split_pipeline
from triton_musa.backend.lowering import lower_for_emulator, lower_to_llir, lowering_pipeline
from triton_musa.backend.target import parse_arch

TARGET = GPUTarget("musa", "mp_31", 32)


@triton.jit
def scale_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) * 2.0, mask=mask)


def compile_scale(monkeypatch: pytest.MonkeyPatch, **env: str) -> Any:
    monkeypatch.setenv("TRITON_ALWAYS_COMPILE", "1")
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    src = ASTSource(fn=scale_kernel, signature={"x_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"},
                    constexprs={"BLOCK": 128})
    return triton.compile(src, target=TARGET)


def ttgir() -> str:
    return compile_scale(pytest.MonkeyPatch()).asm["ttgir"]


def test_split_pipeline_keeps_nested_options_and_pipelines() -> None:
    assert split_pipeline("builtin.module(a,b{x=1 y=2},func.func(c,d),e)") == ["a", "b{x=1 y=2}", "func.func(c,d)", "e"]
    passes = split_pipeline(lowering_pipeline("emulator"))
    assert passes[:3] == ["musa-carry-descriptor-fields", "musa-lower-descriptors-to-pointers{target=emulator}",
                          "musa-decompose-scaled-dot"]
    assert passes[3].startswith("musa-accelerate-matmul")
    assert "convert-tritongpu-to-musa{target=emulator}" in passes
    assert f"builtin.module({','.join(passes)})" == lowering_pipeline("emulator")


def test_mlir_timing_reports_each_musa_pass(monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture) -> None:
    compile_scale(monkeypatch, MLIR_ENABLE_TIMING="1")
    err = capfd.readouterr().err
    assert "... Execution time report ..." in err  # Triton's own stages
    report = err[err.index("Execution time report: MUSA passes of scale_kernel"):]
    names = re.findall(r"^\s+\d+\.\d{4} \(\s*[\d.]+%\)  (\S.*)$", report, re.MULTILINE)
    # The kernel compiles with Triton's default num_stages=3, which reaches the TME pass's options.
    assert names == split_pipeline(lowering_pipeline("emulator", num_stages=3)) + ["Total"]


def test_per_pass_runs_give_the_same_module(monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture) -> None:
    text = ttgir()
    arch = parse_arch("mp_31")
    plain = lower_for_emulator(text, arch, source_name="scale_kernel.ttgir")
    monkeypatch.setenv("MLIR_ENABLE_TIMING", "1")
    timed = lower_for_emulator(text, arch, source_name="scale_kernel.ttgir")
    assert timed == plain
    assert "MUSA passes of scale_kernel" in capfd.readouterr().err


def test_llvm_timing_reports_our_llvm_steps(monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture,
                                           tmp_path: Path) -> None:
    text = ttgir()
    monkeypatch.setenv("LLVM_ENABLE_TIMING", "1")
    llir = lower_to_llir(text, parse_arch("mp_31"), source_name="scale_kernel.ttgir").llir
    monkeypatch.setenv("MUSA_HOME", str(aot_env.fake_sdk(tmp_path)))
    MusaBackend.make_mubin(llir, {"name": "scale_kernel"}, MusaOptions())
    err = capfd.readouterr().err
    assert err.count("... LLVM steps of scale_kernel ...") == 2
    assert re.search(r"\d\.\d{4} \(100\.0%\)  LLVM IR export for mp_31 \(translation, O3", err)
    assert re.search(r"\d\.\d{4} \(100\.0%\)  MUSA SDK llc -mcpu=mp_31 \+ ld\.lld", err)


def test_no_switch_no_report(monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture) -> None:
    for name in ("MLIR_ENABLE_TIMING", "LLVM_ENABLE_TIMING", "MLIR_ENABLE_DUMP"):
        monkeypatch.delenv(name, raising=False)
    compile_scale(monkeypatch)
    err = capfd.readouterr().err
    assert "time report" not in err and "IR Dump Before" not in err


@pytest.mark.parametrize("value, dumped", [("1", True), ("scale_kernel", True), ("another_kernel", False)])
def test_mlir_dump_before_each_musa_pass(monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture, value: str,
                                         dumped: bool) -> None:
    compile_scale(monkeypatch, MLIR_ENABLE_DUMP=value)
    err = capfd.readouterr().err
    befores = re.findall(r"^// -----// IR Dump Before ((?:musa-|convert-tritongpu-to-musa).*?) \('builtin.module'", err,
                         re.MULTILINE)
    if dumped:
        musa_passes = [p for p in split_pipeline(lowering_pipeline("emulator", num_stages=3)) if "musa" in p]
        assert befores == musa_passes
        dump = err[err.index("IR Dump Before convert-tritongpu-to-musa"):]
        assert "ttg.target = \"musa:mp_31\"" in dump and "tt.func public @scale_kernel" in dump
    else:
        assert befores == []


def test_mlir_dump_path(monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture, tmp_path: Path) -> None:
    path = tmp_path / "dump.mlir"
    text = ttgir()
    monkeypatch.setenv("MLIR_ENABLE_DUMP", "1")
    monkeypatch.setenv("MLIR_DUMP_PATH", str(path))
    lower_for_emulator(text, parse_arch("mp_31"), source_name="scale_kernel.ttgir")
    assert "IR Dump Before musa-allocate-shared-memory" in path.read_text()
    assert "IR Dump Before" not in capfd.readouterr().err


def test_triton_kernel_dump_writes_every_stage(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    compiled = compile_scale(monkeypatch, TRITON_KERNEL_DUMP="1", TRITON_DUMP_DIR=str(tmp_path))
    files: Dict[str, Path] = {p.suffix: p for p in tmp_path.rglob("scale_kernel.*")}
    assert {".ttir", ".ttgir", ".emuir"} <= set(files)
    assert files[".emuir"].read_bytes() == compiled.asm["emuir"]  # the binary stage, as bytes
    assert "#ttg.blocked" in files[".ttgir"].read_text()


def test_report_layout() -> None:
    text = format_report("Execution time report", [("a", 0.25), ("b", 0.75)])
    assert "  Total Execution Time: 1.0000 seconds" in text
    assert "    0.7500 ( 75.0%)  b\n    1.0000 (100.0%)  Total\n" in text
