"""bench/proxy_variants.py: what each take-out removes from a proxy kernel's matrix loop, and only there, on a
hand-written PTX loop and on a real proxy bundle (bench/proxy_kernels.py's matmul_fp16, built and reassembled
with the wheel's ptxas)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import proxy_gpu  # noqa: E402
import proxy_variants  # noqa: E402

# A prologue wait, a rotated loop (two backward branches) around the matrix unit, and the wait after it.
LOOP = """\
\tcp.async.wait_all;
\tbar.sync \t0;
$L__BB0_2:
\t@%p1 cp.async.wait_all;
\tbar.sync \t0;
\tcp.async.cg.shared.global [%r1], [%rd1], 16;
\twgmma.wait_group.sync.aligned 0;
\twgmma.fence.sync.aligned;
\twgmma.commit_group.sync.aligned;
\t@%p2 bra \t$L__BB0_3;
\tbar.sync \t0;
\t@%p3 bra \t$L__BB0_2;
$L__BB0_3:
\t@%p4 bra \t$L__BB0_2;
\twgmma.wait_group.sync.aligned 0;
\tcp.async.wait_all;
\tbar.sync \t0;"""


def test_copy_wait_and_barrier_leave_the_loop_only() -> None:
    ptx, edit = proxy_variants.take_out(LOOP, ["copy-wait", "copy-barrier"])
    lines = ptx.split("\n")
    assert edit.removed == {"copy-wait": 1, "copy-barrier": 1, "unit-wait": 0}
    assert "@%p1 cp.async.wait_all;" not in ptx
    # The prologue's and the epilogue's waits and barriers stay, and so does the loop's other barrier.
    assert lines[0] == "\tcp.async.wait_all;" and lines[-2] == "\tcp.async.wait_all;"
    assert ptx.count("bar.sync") == 3
    assert lines[2:4] == ["$L__BB0_2:", "\tcp.async.cg.shared.global [%r1], [%rd1], 16;"]


def test_unit_wait_keeps_one_wgmma_in_flight() -> None:
    ptx, edit = proxy_variants.take_out(LOOP, ["unit-wait"])
    assert edit.removed["unit-wait"] == 1
    assert ptx.count("wgmma.wait_group.sync.aligned 1;") == 1
    # The wait after the loop (the accumulator's readers need it) stays.
    assert ptx.split("\n")[-3] == "\twgmma.wait_group.sync.aligned 0;"
    assert ptx.count("cp.async.wait_all") == 3


def test_refusals_name_what_is_missing() -> None:
    with pytest.raises(proxy_variants.NoMatrixLoop, match="no loop of the PTX issues wgmma"):
        proxy_variants.take_out("$L__BB0_1:\n\tcp.async.wait_all;\n\t@%p1 bra \t$L__BB0_1;", ["copy-wait"])
    no_wait = LOOP.replace("\t@%p1 cp.async.wait_all;\n", "")
    with pytest.raises(proxy_variants.NoMatrixLoop, match="no copy-wait to take out"):
        proxy_variants.take_out(no_wait, ["copy-wait"])
    with pytest.raises(ValueError, match="only with copy-wait"):
        proxy_variants.take_out(LOOP, ["copy-barrier"])
    with pytest.raises(ValueError, match="cannot take out tme-wait"):
        proxy_variants.take_out(LOOP, ["tme-wait"])


def test_variant_of_a_built_bundle(tmp_path: Path) -> None:
    """matmul_fp16 built for the proxy, its copy wait and unit wait taken out: the variant's cubin is
    ptxas's, its PTX has no wait for copies left in the loop, and its metadata is the original's."""
    bundle, out = tmp_path / "bundle", tmp_path / "variant"
    assert proxy_gpu.build(bundle, ["matmul_fp16"]) == 0
    assert proxy_variants.make_variant(bundle, out, ["copy-wait", "unit-wait"], ["matmul_fp16"]) == 0
    original = (bundle / "matmul_fp16.ptx").read_text()
    edited = (out / "matmul_fp16.ptx").read_text()
    first, last = proxy_variants.matrix_loop(edited.split("\n"))
    assert not any("cp.async.wait_all" in line for line in edited.split("\n")[first:last])
    assert original.count("cp.async.wait_all") > edited.count("cp.async.wait_all")
    # Its sqmma is not kept in flight (no free slot at this tile): the wait right after it is the one.
    assert "wgmma.wait_group.sync.aligned 1;" not in original
    assert edited.count("wgmma.wait_group.sync.aligned 1;") == 1
    assert (out / "matmul_fp16.cubin").read_bytes()[:4] == b"\x7fELF"
    assert (out / "matmul_fp16.json").read_text().strip() == (bundle / "matmul_fp16.json").read_text().strip()
