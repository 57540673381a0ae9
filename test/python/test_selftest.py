"""The bring-up kit (python -m triton_musa.tools.selftest, issue 23) on the CPU emulator and against a
stand-in SDK: every device probe confirms on the emulator (which encodes our inferences), each turns into
``differs`` naming its row when the probe is given a wrong statement of its fact, the ABI section names
exactly the intrinsic a stand-in llc rejects, and without an SDK the kit says what it did not check and
exits 0."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Dict, Iterator

import pytest

import triton_musa
from triton_musa.backend import toolchain as musa_toolchain
from triton_musa.backend.emulator import emulator_active
from triton_musa.tools.selftest import abi, device, facts
from triton_musa.tools.selftest.report import CONFIRMED, DIFFERS, NOT_CHECKED

pytestmark = pytest.mark.skipif(not emulator_active(), reason="a MUSA device or another GPU driver is active here; "
                                "the emulator runs where none is (or with TRITON_MUSA_EMULATOR=1)")

# The triton_musa under test: the source tree in a dev setup, site-packages after `pip install .` (whose
# source tree lacks the built extension modules).
PACKAGE_ROOT = Path(triton_musa.__file__).resolve().parent.parent
PROBES = {probe.name: probe for probe in device.PROBES}


@pytest.fixture(scope="module")
def runner() -> device.Runner:
    return device.Runner(emulated=True)  # shared: each probe kernel runs once for all tests of this file


def judge(runner: device.Runner, name: str, hypotheses: device.Hypotheses = device.Hypotheses()):
    (result, ) = device.run_device_probes([PROBES[name]], hypotheses=hypotheses, runner=runner)
    return result


def test_every_probe_confirms_on_the_emulator(runner: device.Runner) -> None:
    results = device.run_device_probes(runner=runner)
    assert [(r.name, r.status) for r in results] == [(p.name, CONFIRMED) for p in device.PROBES], \
        "\n".join(f"{r.name}: {r.status}: {r.detail}" for r in results)
    # At least one probe per inferred fact of the issue.
    facts_probed = " | ".join(r.fact for r in results)
    for fact in ("QY2 WMMA", "PH1 WMMA", "SQMMA accumulator", "256 B swizzle line of SQMMA's 16 B",
                 "32 B granularity", "64 B granularity", "TME load's swizzle", "scaleOut = 1", "computed (ring) ids",
                 "grid-constant", "beyond the tensor reads zeros"):
        assert fact in facts_probed, fact


def _permuted_c(fragment: facts.Fragment) -> facts.Fragment:
    return fragment.with_c(facts.swap_values(fragment.c, 0, 1), fragment.name + " with C values 0 and 1 swapped")


@pytest.mark.parametrize("key,name,row", [
    ("qy2_wmma_m32n32k16", "wmma fragment qy2_wmma_m32n32k16 (mp_22)", "wmma f16 x f16 -> f32 m32n32k16 on mp_2x"),
    ("ph1_wmma_m16n16k16", "wmma fragment ph1_wmma_m16n16k16 (mp_31)", "wmma f16 x f16 -> f32 m16n16k16 on mp_3x"),
    ("ph1_wmma_m16n16k32", "wmma fragment ph1_wmma_m16n16k32 (mp_31)", "wmma f16 x f16 -> f32 m16n16k32 on mp_3x"),
])
def test_a_permuted_wmma_fragment_row_differs(runner: device.Runner, key: str, name: str, row: str) -> None:
    hyp = device.Hypotheses()
    wrong = replace(hyp, fragments=dict(hyp.fragments, **{key: _permuted_c(hyp.fragments[key])}))
    result = judge(runner, name, wrong)
    assert result.status == DIFFERS, result
    assert f"catalogue row '{row}'" in result.change
    # The first differing elements name their owner in the compiler's fragment.
    assert "C held by thread 0, value 0" in result.detail
    # A permuted A operand is caught too.
    fragment = hyp.fragments[key]
    wrong_a = replace(fragment, a=facts.swap_values(fragment.a, 0, 1))
    assert judge(runner, name, replace(hyp, fragments=dict(hyp.fragments, **{key: wrong_a}))).status == DIFFERS


def test_a_permuted_sqmma_accumulator_differs(runner: device.Runner) -> None:
    def wrong(m: int, n: int) -> facts.Fragment:
        return _permuted_c(facts.sqmma_accumulator(m, n))
    result = judge(runner, "sqmma accumulator", replace(device.Hypotheses(), sqmma_accumulator=wrong))
    assert result.status == DIFFERS, result
    assert "catalogue row 'sqmma f16 x f16 -> f32 m64n64k64 on mp_3x', fragment sqmma_squad" in result.change


@pytest.mark.parametrize("granularity,name", [(16, "sqmma operand swizzle 16 B"), (32, "sqmma operand swizzle 32 B"),
                                              (64, "sqmma operand swizzle 64 B"), (16, "tme swizzle (4096 B box)"),
                                              (32, "tme swizzle (2048 B box)"), (64, "tme swizzle (1024 B box)")])
def test_a_128_byte_swizzle_line_differs(runner: device.Runner, granularity: int, name: str) -> None:
    hyp = device.Hypotheses()
    assert judge(runner, name, hyp).status == CONFIRMED
    wrong = replace(hyp, swizzles=hyp.swizzles | {granularity: facts.Swizzle(granularity, 128, 128)})
    result = judge(runner, name, wrong)
    assert result.status == DIFFERS, result
    assert f"the {granularity} B swizzle's line (256 B)" in result.change
    # Only the granularity the buffer uses matters: another one's wrong line leaves the probe confirmed.
    other = 16 if granularity == 64 else 64
    if "tme" in name:
        unrelated = replace(hyp, swizzles=hyp.swizzles | {other: facts.Swizzle(other, 128, 128)})
        assert judge(runner, name, unrelated).status == CONFIRMED


def test_an_unswizzled_tme_box(runner: device.Runner) -> None:
    hyp = device.Hypotheses()
    # The swizzled granularities' lines do not matter to a box the compiler leaves unswizzled ...
    other_lines = replace(hyp, swizzles=hyp.swizzles | {16: facts.Swizzle(16, 128, 128), 64: facts.Swizzle(64, 64, 64)})
    assert judge(runner, "tme swizzle (512 B box)", other_lines).status == CONFIRMED
    # ... but a TME unit that swizzles it (16 B granularity) would move its rows' halves.
    result = judge(runner, "tme swizzle (512 B box)", replace(hyp, swizzles=hyp.swizzles | {0: facts.Swizzle(16)}))
    assert result.status == DIFFERS and "the unswizzled tme_shared layout" in result.change


def test_scale_out_dropping_the_accumulator_differs(runner: device.Runner) -> None:
    result = judge(runner, "sqmma scaleOut", replace(device.Hypotheses(), sqmma=facts.SQMMAFacts(False)))
    assert result.status == DIFFERS and "scaleOut in the SQMMA call" in result.change


def test_a_nan_fill_differs(runner: device.Runner) -> None:
    result = judge(runner, "tme out-of-bounds fill", replace(device.Hypotheses(), tme=facts.TMEFacts(float("nan"))))
    assert result.status == DIFFERS and "the statement predicts nan" in result.detail
    assert "out-of-bounds fill of TME loads" in result.change


def test_ring_ids_taken_as_the_first_differ(runner: device.Runner) -> None:
    result = judge(runner, "tme ring barriers", replace(device.Hypotheses(), ring=facts.RingFacts(False)))
    assert result.status == DIFFERS and "rewriteLoads" in result.change
    assert "out[4, " in result.detail  # iteration 4 is the first that would read a stale buffer


def test_an_undelivered_descriptor_differs(runner: device.Runner) -> None:
    result = judge(runner, "descriptor arguments",
                   replace(device.Hypotheses(), descriptor_args=facts.DescriptorArgFacts(False)))
    assert result.status == DIFFERS and "grid-constant annotation" in result.change


def test_swizzle_statement() -> None:
    # MUSA-FACTS.md's formula, by hand: line 1 of a 16 B granularity flips sector bit 0.
    s = facts.Swizzle(16)
    assert [s.address(a) for a in (0, 16, 256, 256 + 16, 256 * 3 + 5)] == [0, 16, 256 + 16, 256, 256 * 3 + 48 + 5]
    assert facts.Swizzle(0).address(300) == 300
    with pytest.raises(ValueError, match="granularity <= stride <= line"):
        facts.Swizzle(64, 256, 128)


# --- ABI probes against a stand-in SDK -------------------------------------------------------------------

_FAKE_TOOL = """#!/bin/sh
# Stand-in MUSA SDK {name}: LLVM 14's --version; llc rejects modules that declare {reject}.
if [ "$1" = "--version" ]; then echo "  LLVM version 14.0.6"; exit 0; fi
out=""; prev=""
for a in "$@"; do [ "$prev" = "-o" ] && out="$a"; prev="$a"; done
if [ "{name}" = "llc" ] && grep -q "declare .*@{reject_re}(" "$1"; then
  echo "LLVM ERROR: Cannot select: intrinsic %{reject}" >&2; exit 1
fi
if [ "{name}" = "llc" ] && [ -n "{reject_flag}" ]; then
  for a in "$@"; do [ "$a" = "{reject_flag}" ] && {{ echo "llc: Unknown command line argument '$a'." >&2; exit 1; }}; done
fi
echo "{name} output" > "$out"
"""


def make_fake_sdk(root: Path, reject: str, reject_flag: str = "") -> Path:
    bin_dir = root / "bin"
    bin_dir.mkdir(parents=True)
    for name in ("llc", "ld.lld"):
        path = bin_dir / name
        path.write_text(_FAKE_TOOL.format(name=name, reject=reject, reject_re=reject.replace(".", r"\."),
                                           reject_flag=reject_flag))
        path.chmod(0o755)
    return root


@pytest.fixture
def sdk_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for var in (musa_toolchain.LLC_ENV, musa_toolchain.LLD_ENV):
        monkeypatch.delenv(var, raising=False)
    yield


@pytest.mark.parametrize("reject", ["llvm.musa.tme.st.3d", "llvm.musa.sqmma.bfmma.m64n32k32.mma",
                                    "llvm.musa.vote.ballot.sync"])
def test_abi_names_exactly_the_rejected_intrinsic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sdk_env: None,
                                                  reject: str) -> None:
    monkeypatch.setenv("MUSA_HOME", str(make_fake_sdk(tmp_path / "musa", reject)))
    results = abi.run_abi_probes()
    differs = [r for r in results if r.status != CONFIRMED]
    assert differs and all(r.status == DIFFERS for r in differs), differs
    assert {r.name.split(" on ")[0] for r in differs} == {reject}, [r.name for r in differs]
    assert all(f"Cannot select: intrinsic %{reject}" in r.detail for r in differs)
    if "sqmma" in reject:
        assert differs[0].change.startswith("dialects/MUSAGPU/IR/MatrixInstrs.cpp, row 'sqmma bf16 x bf16 -> f32 "
                                            "m64n32k32 on mp_3x'")
    else:
        assert differs[0].change.startswith("target/MUSAIntrinsics.cpp, entry 'llvm.musa.")
    # The ballot is probed on both architectures (i32 on PH1, i128 on QY2); the others on mp_31 only.
    assert len(differs) == (2 if "ballot" in reject else 1)
    # Every table entry and every lowered device row of the catalogue was probed.
    from triton_musa import _musa_mlir
    names = {r.name.split(" on ")[0] for r in results}
    rows = [r["intrinsic"] for r in _musa_mlir.matrix_instructions() if r["lowered"] and "musa" in r["targets"]]
    assert set(rows) <= names and len(rows) > 150
    fixed = [e["pattern"] for e in _musa_mlir.intrinsics() if "<" not in e["pattern"]]
    assert set(fixed) <= names


def test_abi_names_a_rejected_llc_flag(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sdk_env: None) -> None:
    root = make_fake_sdk(tmp_path / "musa", "llvm.musa.none", reject_flag="-mtgpu-alloc-shared-memory-from-zero=1")
    monkeypatch.setenv("MUSA_HOME", str(root))
    toolchain = musa_toolchain.find_toolchain()
    from triton_musa import _musa_mlir
    results = abi.llc_flags(toolchain, _musa_mlir.architectures())
    assert [(r.name, r.status) for r in results] == [("llc flags on mp_22", CONFIRMED), ("llc flags on mp_31", CONFIRMED),
                                                     ("llc flags on mp_31 (SQMMA)", DIFFERS)]
    assert "Unknown command line argument '-mtgpu-alloc-shared-memory-from-zero=1'" in results[2].detail
    assert "toolchain.py" in results[2].change


def test_family_kernels_compile_with_the_sdk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sdk_env: None) -> None:
    # The stand-in rejects the TME load: only the descriptor kernel's mubin fails, and llc's message names it.
    monkeypatch.setenv("MUSA_HOME", str(make_fake_sdk(tmp_path / "musa", "llvm.musa.tme.ld.tile.2d")))
    from triton_musa.tools.selftest.families import compile_families_to_mubin
    results = compile_families_to_mubin(musa_toolchain.find_toolchain())
    assert len(results) == 13
    bad = [r for r in results if r.status != CONFIRMED]
    assert [(r.name, r.status) for r in bad] == [("kernel memory (TME descriptor argument) on mp_31", DIFFERS)], bad
    assert "llvm.musa.tme.ld.tile.2d" in bad[0].detail


# --- The command -------------------------------------------------------------------------------------

def test_the_command_without_sdk_or_device(tmp_path: Path) -> None:
    """Here: every device probe on the emulator confirms, the ABI section says why it did not run, exit 0."""
    env = {k: v for k, v in os.environ.items() if k not in (musa_toolchain.LLC_ENV, musa_toolchain.LLD_ENV)}
    env.update(MUSA_HOME=str(tmp_path / "no-sdk"), TRITON_MUSA_EMULATOR="1",
               PYTHONPATH=os.pathsep.join([str(PACKAGE_ROOT), env.get("PYTHONPATH", "")]))
    proc = subprocess.run([sys.executable, "-m", "triton_musa.tools.selftest", "--out", str(tmp_path)],
                          env=env, capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "triton-musa selftest on the CPU emulator" in proc.stdout
    assert "not checked  SDK: " in proc.stdout and "no MUSA SDK here:" in proc.stdout
    (path, ) = tmp_path.glob("triton-musa-selftest-*.json")
    report = json.loads(path.read_text())
    assert path.with_suffix(".txt").read_text().startswith("triton-musa selftest on")
    for key in ("triton-musa", "triton", "torch", "torch_musa", "sdk_llc", "device"):
        assert key in report["versions"]
    by_status: Dict[str, list] = {}
    for r in report["results"]:
        by_status.setdefault(r["status"], []).append(r["name"])
    assert set(by_status) == {CONFIRMED, NOT_CHECKED}, by_status
    assert set(by_status[NOT_CHECKED]) == {"SDK", "matmul do_bench"}
    assert {p.name for p in device.PROBES} <= set(by_status[CONFIRMED])


def test_doctor_points_to_the_selftest() -> None:
    from triton_musa.tools import doctor
    assert "python -m triton_musa.tools.selftest" in doctor.check_selftest()[2]
