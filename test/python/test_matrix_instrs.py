"""The matrix-instruction catalogue (dialects/MUSAGPU/IR/MatrixInstrs.cpp) against its readers.

Every row we lower must have (1) linear layouts for its fragment in layouts/, (2) owner tables in the
emulator (emulator/MatrixUnits.cpp, an independent oracle keyed by the row's fragment), and (3) be issued by
each target it names, under the intrinsic name the row spells. (1) and (3) are musa-opt's
--test-musa-matrix-instrs (test/lib/TestMatrixInstrs.cpp), whose remarks this test reads; (2) is the
bindings' `emulator_atom`. The intrinsic names are also checked against the public record
(/work/shared/MUSA-INTRINSICS.txt, copied into the shape lists below where it states them).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Set, Tuple

import pytest

from triton_musa import _musa_mlir

ROWS: List[Dict[str, Any]] = _musa_mlir.matrix_instructions()
LOWERED = [r for r in ROWS if r["lowered"]]
ARCHS = {a["major"]: a for a in _musa_mlir.architectures()}


def row_id(row: Dict[str, Any]) -> str:
    # The proxy's rows share shapes with the device's.
    proxy = "-proxy" if row["targets"] == "proxy" else ""
    return f"{row['unit']}-{row['a']}-m{row['m']}n{row['n']}k{row['k']}-mp{row['arch_major']}x{proxy}"


def find_musa_opt() -> str:
    beside_python = Path(sys.executable).parent / "musa-opt"
    found = (os.environ.get("MUSA_OPT") or shutil.which("musa-opt")
             or (str(beside_python) if beside_python.exists() else None))
    if not found:
        pytest.fail("musa-opt not found: put the build's tools/musa-opt on PATH or set MUSA_OPT", pytrace=False)
    return found


def test_every_row_is_unique() -> None:
    keys = [(r["unit"], r["arch_major"], r["targets"], r["a"], r["m"], r["n"], r["k"]) for r in ROWS]
    assert len(keys) == len(set(keys))


def test_rows_of_one_shape_share_a_fragment() -> None:
    """lookupFragment finds the device's WMMA fragment by (threads, m, n, k): no two device rows may
    disagree (the proxy's rows name theirs in the encoding)."""
    seen: Dict[Tuple[int, int, int, int], str] = {}
    for r in ROWS:
        if r["unit"] != "wmma" or r["fragment"] == "none" or "musa" not in r["targets"].split(","):
            continue
        key = (r["fragment_threads"], r["m"], r["n"], r["k"])
        assert seen.setdefault(key, r["fragment"]) == r["fragment"], row_id(r)


DEVICE_LOWERED = [r for r in LOWERED if "musa" in r["targets"].split(",")]
PROXY_LOWERED = [r for r in LOWERED if "proxy" in r["targets"].split(",")]


@pytest.mark.parametrize("row", DEVICE_LOWERED, ids=row_id)
def test_lowered_row_has_emulator_atom(row: Dict[str, Any]) -> None:
    assert "emulator" in row["targets"].split(",")
    assert row["fragment"] != "none"
    assert row["emulator_atom"], f"the emulator has no owner tables for {row_id(row)} ({row['fragment']})"


def test_proxy_rows_are_the_wgmma_subset_of_mp31() -> None:
    """The proxy's SQMMA rows are mp_31's rows that wgmma can run (64 rows per warpgroup, PTX ISA), with
    wgmma's fragment, so that the selection picks the same instruction on both where it can. wgmma reads
    tf32 and 8-bit operands K-major only (no imm-trans-a/b for them, PTX ISA), f16/bf16 in both majors."""
    device = {(r["a"], r["m"], r["n"], r["k"]) for r in DEVICE_LOWERED if r["unit"] == "sqmma"}
    proxy_sqmma = [r for r in PROXY_LOWERED if r["unit"] == "sqmma"]
    proxy = {(r["a"], r["m"], r["n"], r["k"]) for r in proxy_sqmma}
    expected = {key for key in device if key[1] % 64 == 0}
    assert proxy == expected
    for r in proxy_sqmma:
        assert r["unit"] == "sqmma" and r["fragment"] == "wgmma_warpgroup" and r["operands_in_shared_memory"]
        assert r["max_contiguous_bytes"] == 256 and not r["emulator_atom"], row_id(r)
        assert r["operands_k_major_only"] == (r["a"] not in ("f16", "bf16")), row_id(r)
    assert not any(r["operands_k_major_only"] for r in DEVICE_LOWERED)


def test_proxy_wmma_rows_are_mp31s_16bit_ones() -> None:
    """The proxy runs mp_31's lowered WMMA rows of 16-bit operands (m16n16k16, m16n16k32) as mma.sync.m16n8k16
    (PTX ISA: 16 x 8 x 16 per instruction, f16/bf16 operands, f32 accumulators), in its own fragment, so that
    the selection picks the same atom on both."""
    device = {(r["a"], r["m"], r["n"], r["k"]) for r in DEVICE_LOWERED
              if r["unit"] == "wmma" and r["arch_major"] == 3}
    proxy_wmma = [r for r in PROXY_LOWERED if r["unit"] == "wmma"]
    assert {(r["a"], r["m"], r["n"], r["k"]) for r in proxy_wmma} == \
        {key for key in device if key[0] in ("f16", "bf16")}
    for r in proxy_wmma:
        assert r["fragment"] == "mma_sync_warp" and r["fragment_threads"] == 32, row_id(r)
        assert r["arch_major"] == 3 and not r["operands_in_shared_memory"] and not r["emulator_atom"], row_id(r)


def test_not_lowered_rows_say_why() -> None:
    for r in ROWS:
        assert r["lowered"] == (r["not_lowered"] == ""), row_id(r)


# The public record's shapes (MUSA-INTRINSICS.txt): every row must be one of them.
_PH1_WMMA = {"imma": "m8n16k16 m16n8k16 m16n16k16 m16n16k32 m16n16k64",
             "ffmma": "m16n8k8 m16n8k16 m8n16k16 m16n16k16 m16n16k32",
             "bfmma": "m16n8k8 m16n8k16 m8n16k16 m16n16k16 m16n16k32",
             "tfmma": "m16n8k4 m16n8k8 m16n16k16",
             "e4m3": "m8n16k16 m16n8k16 m16n16k16 m16n16k32 m16n16k64",
             "e5m2": "m8n16k16 m16n8k16 m16n16k16 m16n16k32 m16n16k64"}
_SQMMA_MN = {"32x32", "32x64", "32x128", "16x64", "64x16", "64x32", "64x64", "64x128", "128x32", "128x64", "128x128"}
_SQMMA_TF32_MN = {"16x64", "32x32", "32x64", "64x16", "64x32", "64x64", "128x64", "128x128"}
_SQMMA_K = {"fmma": {16, 32, 64}, "bfmma": {16, 32, 64}, "tfmma": {8, 16, 32}, "smma": {32, 64, 128},
            "e4m3": {32, 64, 128}, "e5m2": {32, 64, 128}}


@pytest.mark.parametrize("row", ROWS, ids=row_id)
def test_intrinsic_names_follow_the_public_record(row: Dict[str, Any]) -> None:
    name = row["intrinsic"]
    match = re.fullmatch(r"llvm\.musa\.(sqmma\.)?(\w+)\.m(\d+)n(\d+)k(\d+)\.mma", name)
    assert match, name
    sq, tag, m, n, k = match.group(1), match.group(2), *map(int, match.groups()[2:])
    assert (m, n, k) == (row["m"], row["n"], row["k"])
    if row["unit"] == "sqmma":
        assert sq and f"{m}x{n}" in (_SQMMA_TF32_MN if tag == "tfmma" else _SQMMA_MN) and k in _SQMMA_K[tag], name
    elif row["arch_major"] == 3:
        assert not sq and f"m{m}n{n}k{k}" in _PH1_WMMA[tag].split(), name
    elif row["lowered"]:
        # QY2: only f16/bf16 m32n32k16 is named by a public source.
        assert tag in ("ffmma", "bfmma") and (m, n, k) == (32, 32, 16), name


def _pass_remarks() -> Set[str]:
    proc = subprocess.run([find_musa_opt(), "--test-musa-matrix-instrs", "-"], input="module {}\n",
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return {line.split("remark: ", 1)[1] for line in proc.stderr.splitlines() if "remark: " in line}


@pytest.fixture(scope="module")
def remarks() -> Set[str]:
    return _pass_remarks()


def describe(row: Dict[str, Any]) -> str:
    return (f"{row['unit']} {row['a']} x {row['b']} -> {row['c']} m{row['m']}n{row['n']}k{row['k']} "
            f"on mp_{row['arch_major']}x")


@pytest.mark.parametrize("row", LOWERED, ids=row_id)
def test_lowered_row_has_layout_and_targets(row: Dict[str, Any], remarks: Set[str]) -> None:
    """layouts/ builds the fragment (each thread holds m*n/threads accumulators) and every target of the row
    issues it: the device under the row's intrinsic name, the emulator through its runtime call, the proxy as
    wgmma."""
    arch = ARCHS[row["arch_major"]]["name"]
    threads = row["fragment_threads"]
    head = f"{arch} {describe(row)}: fragment {row['fragment']} ({row['m'] * row['n'] // threads} accumulators " \
           "per thread), "
    targets = row["targets"].split(",")
    if "musa" in targets:
        assert head + f"musa calls {row['intrinsic']}" in remarks
    if "emulator" in targets:
        runtime = "__musa_emu_sqmma" if row["unit"] == "sqmma" else "__musa_emu_wmma"
        assert head + f"emulator calls {runtime}" in remarks
    if "proxy" in targets and row["unit"] == "wmma":
        # PTX ISA: mma.sync.aligned.m16n8k16 per 8 columns and 16 K, f32 accumulators.
        count = row["n"] // 8 * row["k"] // 16
        t = row["a"]
        mma = " ".join([f"mma.sync.aligned.m16n8k16.row.col.f32.{t}.{t}.f32"] * count)
        assert head + f"proxy calls {mma}" in remarks
    elif "proxy" in targets:
        # PTX ISA: wgmma.mma_async m64nNkK' (K' 16 for f16/bf16, 8 for tf32, 32 for 8-bit types), one per
        # 64 rows and K' of K, between one fence and one commit_group (the operands' writers fence their
        # generic-proxy writes, not the instruction).
        t = row["a"]
        k_step, acc = {"f16": (16, "f32"), "bf16": (16, "f32"), "tf32": (8, "f32"), "s8": (32, "s32"),
                       "e4m3": (32, "f32"), "e5m2": (32, "f32")}[t]
        count = row["m"] // 64 * row["k"] // k_step
        wgmma = " ".join([f"wgmma.mma_async.sync.aligned.m64n{row['n']}k{k_step}.{acc}.{t}.{t}"] * count)
        assert head + ("proxy calls llvm.nvvm.wgmma.fence.sync.aligned " +
                       wgmma +
                       " llvm.nvvm.wgmma.commit_group.sync.aligned") in remarks


def test_pass_covers_exactly_the_lowered_rows(remarks: Set[str]) -> None:
    assert len(remarks) == sum(len(r["targets"].split(",")) for r in LOWERED)
