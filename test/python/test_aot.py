"""AOT compilation for MUSA: ``python -m triton_musa.tools.compile``, Triton's own
``python -m triton.tools.compile --target musa:mp_31:32`` (with the templates a wheel install
puts where Triton reads them), and ``python -m triton_musa.tools.link``. Generated C is compiled
with gcc against our driver-API declarations; the linked dispatcher is run against a recording
driver library. The SDK and, for Triton's tool, the MUSA device are stand-ins (aot_env.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Dict, List

import pytest
from triton.tools.link import LinkerError

import aot_env
from triton_musa.backend.launcher import INCLUDE_DIR
from triton_musa.tools import templates
from triton_musa.tools.compile import main as compile_main
from triton_musa.tools.compile import parse_signature, template_params
from triton_musa.tools.link import link
from triton_musa.tools.link import main as link_main

REPO = Path(__file__).resolve().parents[2]
GCC_CHECK = ["gcc", "-Wall", "-Wextra", "-Werror", "-DTRITON_MUSA_DECLARATIONS_ONLY", f"-I{INCLUDE_DIR}"]


def gcc_compile(sources: List[Path], out: Path, *, link_exe: bool = False, includes: List[Path] = ()) -> None:
    cmd = GCC_CHECK + [f"-I{d}" for d in includes] + ([] if link_exe else ["-c"]) + [str(s) for s in sources]
    subprocess.run(cmd + ["-o", str(out)], check=True)


def test_signature_hints_and_constexprs() -> None:
    spec = parse_signature(["x", "y", "out", "n", "BLOCK"], "*fp32:16,*fp32,*fp32,i32:1,1024")
    assert spec.constants == {"n": 1, "BLOCK": 1024}
    assert spec.divisible_by_16 == [0] and spec.equal_to_1 == [3]
    assert spec.runtime_args == [("x", "*fp32"), ("y", "*fp32"), ("out", "*fp32")]
    # The tt-linker signature keeps the argument specialized to 1 (the dispatcher tests it); Triton's
    # algo_info lists the numeric constexprs first.
    assert spec.full_args == [("x", "*fp32"), ("y", "*fp32"), ("out", "*fp32"), ("n", "i32")]
    assert spec.constant_values == [1024, 1]
    with pytest.raises(ValueError, match="takes 5 arguments"):
        parse_signature(["x", "y", "out", "n", "BLOCK"], "*fp32,i32")


def test_templates_compile_with_gcc(tmp_path: Path) -> None:
    spec = parse_signature(["x", "y", "out", "n", "s", "h", "BLOCK"], "*fp32:16,*fp32,*fp32,i32,fp32,fp16,1024")
    name = "add_kernel_0123abcd_0d123456"
    params = template_params(func_name=name, kernel_name="add_kernel", spec=spec, binary=b"\x7fELF\x02\x01",
                             shared=70000, num_warps=4, num_stages=3, warp_size=32,
                             grid=["(n + 1023) / 1024", "1", "1"])
    out = templates.render(params)
    assert set(out) == {".c", ".h"}
    assert "0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01" in out[".c"]
    assert (f"// tt-linker: {name}:MUdeviceptr x, MUdeviceptr y, MUdeviceptr out, int32_t n, float s, uint16_t h:"
            "1024_warps4xstages3") in out[".h"]
    assert "MU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, shared" in out[".c"]
    assert "4 * 32, 1, 1, 70000, stream" in out[".c"]
    for ext, text in out.items():
        (tmp_path / f"k{ext}").write_text(text)
    gcc_compile([tmp_path / "k.c"], tmp_path / "k.o")


def test_triton_tool_finds_the_templates_a_wheel_install_places(tmp_path: Path) -> None:
    """Triton's own tool, as on a MUSA machine with the SDK and triton-musa installed from its wheel:
    it fills triton/tools/extra/musa/compile.{c,h}, the driver's C types in the signature; the C
    compiles, and our tool writes the same files."""
    site = aot_env.installed_site(tmp_path)
    env = aot_env.device_env(tmp_path, site=site)
    kernel = aot_env.kernel_file(tmp_path)
    args = ["--target", "musa:mp_31:32", "-n", "add_kernel", "-s", "*fp32:16,*fp32:16,*fp32:16,i32,1024",
            "-g", "(n + 1023) / 1024,1,1", "-w", "4", str(kernel)]
    for tool, out in (("triton.tools.compile", "triton"), ("triton_musa.tools.compile", "ours")):
        (tmp_path / out).mkdir()
        proc = subprocess.run([sys.executable, "-m", tool, *args, "-o", str(tmp_path / out / "add")], env=env,
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
    written = aot_env.outputs(tmp_path / "triton", "")
    assert [p.suffix for p in written] == [".c", ".h"]
    header = written[1].read_text()
    assert "MUresult add_kernel_" in header and "(MUstream stream, MUdeviceptr x_ptr, MUdeviceptr y_ptr, " \
        "MUdeviceptr out_ptr, int32_t n);" in header
    assert aot_env.embedded_binary(written[0].read_text()).startswith(b"\x7fELF")
    gcc_compile([written[0]], tmp_path / "k.o")
    for path in written:
        assert (tmp_path / "ours" / path.name).read_text() == path.read_text()


def test_triton_tool_on_the_emulator_stops_before_writing(tmp_path: Path) -> None:
    """Where the CPU emulator is the active driver, the kernel Triton's tool compiled is emulator code:
    the tool stops with our message instead of embedding it as a mubin."""
    site = aot_env.installed_site(tmp_path)
    env = dict(aot_env.device_env(tmp_path, site=site), TRITON_MUSA_EMULATOR="1")
    env["PYTHONPATH"] = os.pathsep.join([str(site), str(aot_env.PACKAGE_ROOT)])  # no torch_musa: no device
    proc = subprocess.run([sys.executable, "-m", "triton.tools.compile", "--target", "musa:mp_31:32", "-n",
                           "add_kernel", "-s", "*fp32,*fp32,*fp32,i32,1024", "-g", "1,1,1", "-o",
                           str(tmp_path / "add"), str(aot_env.kernel_file(tmp_path))],
                          env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode != 0
    assert "the active MUSA driver is the CPU emulator" in proc.stderr
    assert "python -m triton_musa.tools.compile, which needs no device" in proc.stderr
    assert not list(tmp_path.glob("add.*"))


def test_template_check_and_install(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    site = aot_env.installed_site(tmp_path)
    assert templates.check(site / "triton" / "tools" / "extra" / "musa") == []
    problems = templates.check(tmp_path / "elsewhere")
    assert problems and all("is missing" in p for p in problems)
    assert templates.main(["--include-dir"]) == 0 and capsys.readouterr().out.strip() == str(INCLUDE_DIR)
    installed = templates.install(tmp_path / "elsewhere")
    assert sorted(p.name for p in installed) == ["compile.c", "compile.h"]
    assert templates.check(tmp_path / "elsewhere") == []


LINK_MAIN = r'''#include <stdio.h>
#include "add_kernel.h"

int main(void) {
  MUstream s = NULL;
  printf("algos %d\n", add_kernel_get_num_algos());
  if (load_add_kernel() != MUSA_SUCCESS) return 1;
  add_kernel_default(s, 0x1000, 0x2000, 0x3000, 4096);    /* every pointer and n divisible by 16 */
  add_kernel_default(s, 0x1004, 0x2000, 0x3000, 4096);    /* x is not */
  add_kernel(s, 0x1000, 0x2000, 0x3000, 1000, 1);         /* algo 1: BLOCK=256 */
  printf("bad algo %d\n", add_kernel(s, 0x1000, 0x2000, 0x3000, 1000, 2) == MUSA_ERROR_INVALID_VALUE);
  unload_add_kernel();
  return 0;
}
'''


def test_link_dispatches_between_specializations(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MUSA_HOME", str(aot_env.fake_sdk(tmp_path)))
    kernel = aot_env.kernel_file(tmp_path)
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    specs = {"aligned": "*fp32:16,*fp32:16,*fp32:16,i32:16,1024", "generic": "*fp32,*fp32,*fp32,i32,1024",
             "block256": "*fp32,*fp32,*fp32,i32,256"}
    files: Dict[str, List[Path]] = {}
    for name, signature in specs.items():
        grid = "(n + 1023) / 1024,1,1" if "1024" in signature else "(n + 255) / 256,1,1"
        files[name] = compile_main(["-n", "add_kernel", "-s", signature, "-g", grid, "-w", "4",
                                    "--target", "musa:mp_31:32", "-o", str(out_dir / "add"), str(kernel)])
    tags = {name: aot_env.tag(aot_env.embedded_binary(paths[0].read_text())) for name, paths in files.items()}
    assert len(set(tags.values())) == 3  # three different kernels (vectorized where aligned)
    headers = [files[name][1] for name in specs]
    written = link_main([*map(str, headers), "-o", str(tmp_path / "add_kernel")])
    assert [p.name for p in written] == ["add_kernel.h", "add_kernel.c"]
    (tmp_path / "recorder.c").write_text(aot_env.DRIVER_RECORDER)
    (tmp_path / "main.c").write_text(LINK_MAIN)
    sources = [tmp_path / "main.c", tmp_path / "add_kernel.c", tmp_path / "recorder.c"] + \
        [paths[0] for paths in files.values()]
    gcc_compile(sources, tmp_path / "app", link_exe=True, includes=[tmp_path])
    run = subprocess.run([str(tmp_path / "app")], capture_output=True, text=True, check=True).stdout.splitlines()
    launches = [line for line in run if line.startswith("launch")]
    assert run[0] == "algos 2"
    assert launches == [f"launch {tags['aligned']} grid 4,1,1 block 128 shared 0 n 4096",
                        f"launch {tags['generic']} grid 4,1,1 block 128 shared 0 n 4096",
                        f"launch {tags['block256']} grid 4,1,1 block 128 shared 0 n 1000"]
    assert run[-1] == "bad algo 1"


def test_link_rejects_groups_with_different_signatures(tmp_path: Path) -> None:
    line = "// tt-linker: k_0123abcd_{suffix}:{sig}:{algo}\n"
    (tmp_path / "a.h").write_text(line.format(suffix="0123", sig="MUdeviceptr x, int32_t n", algo="1024_warps4xstages3"))
    (tmp_path / "b.h").write_text(line.format(suffix="0123", sig="MUdeviceptr x, float n", algo="256_warps4xstages3"))
    with pytest.raises(LinkerError, match="must share the C signature"):
        link([tmp_path / "a.h", tmp_path / "b.h"], tmp_path / "k")
    with pytest.raises(LinkerError, match="no '// tt-linker:' line"):
        (tmp_path / "c.h").write_text("int x;\n")
        link([tmp_path / "c.h"], tmp_path / "k")


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
