"""``python -m triton_musa.tools.compile``: signature parsing, the generated C
(compiled with gcc against our driver-API declarations), and the missing-SDK stop."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from triton_musa.backend.launcher import INCLUDE_DIR
from triton_musa.tools.aot_c import render
from triton_musa.tools.compile import parse_signature

REPO = Path(__file__).resolve().parents[2]


def test_signature_hints_and_constexprs() -> None:
    spec = parse_signature(["x", "y", "out", "n", "BLOCK"], "*fp32:16,*fp32,*fp32,i32:1,1024")
    assert spec.constants == {"n": 1, "BLOCK": 1024}
    assert spec.divisible_by_16 == [0] and spec.equal_to_1 == [3]
    assert spec.runtime_args == [("x", "*fp32"), ("y", "*fp32"), ("out", "*fp32")]
    with pytest.raises(ValueError, match="takes 5 arguments"):
        parse_signature(["x", "y", "out", "n", "BLOCK"], "*fp32,i32")


def test_generated_c_compiles_with_gcc(tmp_path: Path) -> None:
    spec = parse_signature(["x", "y", "out", "n", "s", "BLOCK"], "*fp32:16,*fp32,*fp32,i32,fp32,1024")
    name = "add_kernel_0123abcd_0d12345"
    c_src, h_src = render(func_name=name, triton_name="add_kernel", spec=spec, binary=b"\x7fELF\x02\x01", shared=70000,
                          threads=128, grid=["(n + 1023) / 1024", "1", "1"], algo_info="1024_warps4xstages3")
    assert "0x7f,0x45,0x4c,0x46,0x02,0x01" in c_src
    assert f"// tt-linker: {name}:MUdeviceptr x, MUdeviceptr y, MUdeviceptr out, int32_t n, float s:" in h_src
    assert "MU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 70000" in c_src
    (tmp_path / f"{name}.c").write_text(c_src)
    (tmp_path / f"{name}.h").write_text(h_src)
    subprocess.run(["gcc", "-c", "-Wall", "-Wextra", "-Werror", "-DTRITON_MUSA_DECLARATIONS_ONLY",
                    f"-I{INCLUDE_DIR}", f"-I{tmp_path}", str(tmp_path / f"{name}.c"), "-o", str(tmp_path / "k.o")],
                   check=True)


def test_without_sdk_the_tool_stops_with_a_clear_message(tmp_path: Path) -> None:
    env = dict(os.environ, MUSA_HOME=str(tmp_path / "no-sdk"), TRITON_MUSA_LLC_PATH="")
    if Path("/usr/local/musa/bin/llc").exists():
        pytest.skip("a MUSA SDK is installed in /usr/local/musa, so the tool finds it")
    proc = subprocess.run([sys.executable, "-m", "triton_musa.tools.compile", "--kernel-name", "add_kernel",
                           "--signature", "*fp32,*fp32,*fp32,i32,1024", "--grid", "1,1,1", "--target-backend", "musa",
                           "--target-arch", "mp_31", "--target-warp-size", "32", str(REPO / "examples/vector_add.py"),
                           "-o", str(tmp_path / "add")], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode != 0
    assert "llc was not found" in proc.stderr and "--emit llir" in proc.stderr
    assert "Traceback" not in proc.stderr
