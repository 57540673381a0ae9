"""TTGIR from Triton -> --convert-tritongpu-to-musa -> LLVM IR that the LLVM 14
based SDK llc can read (checked with Debian's llvm-as-14)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from triton_musa import _musa_mlir
from triton_musa.backend.lowering import lower_to_llir, lowering_pipeline
from triton_musa.backend.target import parse_arch

from test_llvmir_export import assert_llvm14

WARPS = 4  # the corpus `add` kernel's num_warps


@pytest.mark.parametrize("arch_name", ["mp_31", "mp_22"])
def test_vector_add_lowers_to_llvm14_ir(arch_name: str, corpus_ir) -> None:
    arch = parse_arch(arch_name)
    lowered = lower_to_llir(corpus_ir.get("add", arch_name)["ttgir"], arch, source_name="add.ttgir")

    # Module attributes keep their ttg.* names; no tt/ttg *operation* may remain.
    leftover = re.search(r'^\s*(?:%[^=]+= )?"?(?:tt|ttg)\.\w+', lowered.llvm_dialect, re.MULTILINE)
    assert leftover is None, f"TTGIR op left after the lowering: {leftover.group(0)!r}"
    assert 'target triple = "mtgpu-mt-musa"' in lowered.llir
    assert re.search(r"define cc102 void @add_kernel\(", lowered.llir)
    assert "!musa.annotations" in lowered.llir
    assert f'!"maxntidx", i32 {WARPS * arch.warp_size}' in lowered.llir
    assert "@llvm.musa.read.ptx.sreg.tid.x" in lowered.llir

    assert_llvm14(lowered.llir)


def test_pipeline_replays_with_musa_opt(corpus_ir, tmp_path: Path) -> None:
    # The Python stage is exactly the pipeline string musa-opt runs.
    from test_corpus import find_musa_opt

    source = tmp_path / "add.ttgir"
    source.write_text(corpus_ir.get("add", "mp_31")["ttgir"])
    arch = parse_arch("mp_31")
    proc = subprocess.run([find_musa_opt(), str(source), f"--pass-pipeline={lowering_pipeline()}"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == lower_to_llir(source.read_text(), arch).llvm_dialect.strip()


# A small kernel whose only op without a lowering is a global scratch buffer
# (Triton emits it for NVIDIA-only features).
_SCRATCH_TTGIR = """
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @scratch() {
    %p = ttg.global_scratch_alloc {alignment = 8 : i32, nbytes = 100 : i32} : !tt.ptr<i8>
    tt.return
  }
}
"""


def test_unsupported_op_is_named() -> None:
    with pytest.raises(_musa_mlir.MLIRError,
                       match=r"error: 'ttg\.global_scratch_alloc' is not supported by --convert-tritongpu-to-musa yet"):
        lower_to_llir(_SCRATCH_TTGIR, parse_arch("mp_31"))


def test_arch_mismatch_is_an_error(corpus_ir) -> None:
    # mp_22 TTGIR (ttg.target = "musa:mp_22", 128-thread warps) is not lowered for mp_31.
    with pytest.raises(ValueError, match="ttg.target is 'musa:mp_22', not 'musa:mp_31'"):
        lower_to_llir(corpus_ir.get("add", "mp_22")["ttgir"], parse_arch("mp_31"))


def _corpus_cases():
    from corpus import ENTRIES

    return [pytest.param(e.name, a, id=f"{e.name}-{a}") for e in ENTRIES for a in e.archs]


@pytest.mark.parametrize("name,arch_name", _corpus_cases())
def test_corpus_lowers_to_llvm14_ir(name: str, arch_name: str, corpus_ir) -> None:
    """Every corpus kernel lowers, on both targets, to LLVM IR that llvm-as-14 reads."""
    lowered = lower_to_llir(corpus_ir.get(name, arch_name)["ttgir"], parse_arch(arch_name),
                            source_name=f"{name}.ttgir")
    assert_llvm14(lowered.llir)


def test_with_pipeline_options_adds_to_the_pipeliner_only() -> None:
    """The planner's switches join --musa-pipeline-loops' own options, whether it has some or none; no
    other pass changes (the spec is what the compile and the bench run)."""
    from triton_musa.backend.lowering import matrix_passes, with_pipeline_options
    staged = matrix_passes("proxy", num_stages=3)
    assert "musa-pipeline-loops{target=proxy num-stages=3}" in staged
    added = with_pipeline_options(staged, ["batch-beside-matrix-unit=true"])
    assert added == staged.replace("musa-pipeline-loops{target=proxy num-stages=3}",
                                   "musa-pipeline-loops{target=proxy num-stages=3 batch-beside-matrix-unit=true}")
    plain = matrix_passes("musa")
    assert "musa-pipeline-loops," in plain
    assert with_pipeline_options(plain, ["a=1", "b=2"]) == plain.replace("musa-pipeline-loops,",
                                                                          "musa-pipeline-loops{a=1 b=2},")
