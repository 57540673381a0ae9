"""The `mubin` stage's success path against a stand-in MUSA SDK: `llc` and `ld.lld` scripts that
record their command lines and write an ELF, so the flags, the files passed between the steps and
the bytes that reach `kernel.asm["mubin"]` are checked without the real SDK."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, Dict, Iterator, List

import pytest
import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

from triton_musa.backend import emulator as musa_emulator
from triton_musa.backend import toolchain as musa_toolchain

# An ELF64 little-endian header with e_machine 253 (mtgpu), as the stand-in linker's output.
_ELF = b"\x7fELF\x02\x01\x01" + bytes(9) + (3).to_bytes(2, "little") + (253).to_bytes(2, "little")

_TOOL = '''#!{python}
import json, sys
log, name = {log!r}, {name!r}
args = sys.argv[1:]
if args == ["--version"]:
    print("Stand-in MUSA SDK LLVM:\\n  LLVM version 14.0.6")
    sys.exit(0)
record = {{"tool": name, "args": args}}
if name == "llc":
    record["input"] = open(args[0]).read()
    out = args[args.index("-o") + 1]
    open(out, "wb").write(b"OBJ:" + record["input"][:64].encode())
else:
    obj = args[args.index("-o") - 1]
    record["object"] = open(obj, "rb").read().decode()
    open(args[args.index("-o") + 1], "wb").write({elf!r} + b"|" + open(obj, "rb").read())
open(log, "a").write(json.dumps(record) + "\\n")
'''


@pytest.fixture
def fake_sdk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """$MUSA_HOME with bin/llc and bin/ld.lld; the device path (emulator off)."""
    bin_dir = tmp_path / "musa" / "bin"
    bin_dir.mkdir(parents=True)
    log = tmp_path / "calls.jsonl"
    for name in ("llc", "ld.lld"):
        script = bin_dir / name
        script.write_text(_TOOL.format(python=sys.executable, log=str(log), name=name, elf=_ELF))
        script.chmod(0o755)
    for var in (musa_toolchain.LLC_ENV, musa_toolchain.LLD_ENV):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("MUSA_HOME", str(tmp_path / "musa"))
    monkeypatch.setenv("TRITON_MUSA_EMULATOR", "0")
    musa_emulator.emulator_active.cache_clear()
    yield log
    monkeypatch.undo()
    musa_emulator.emulator_active.cache_clear()


def _calls(log: Path) -> List[Dict[str, Any]]:
    return [json.loads(line) for line in log.read_text().splitlines()]


@triton.jit
def _add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


@pytest.mark.parametrize("arch,warp", [("mp_31", 32), ("mp_22", 128)])
def test_mubin_through_the_sdk_tools(fake_sdk: Path, arch: str, warp: int) -> None:
    src = ASTSource(_add, {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"},
                    {"BLOCK": 256})
    kernel = triton.compile(src, target=GPUTarget("musa", arch, warp))
    assert [s for s in kernel.asm if s != "source"] == ["ttir", "ttgir", "llir", "mubin"]
    llc, lld = _calls(fake_sdk)
    # llc reads exactly the llir stage and is asked for an mtgpu object of this arch; its LLVM 14
    # needs --opaque-pointers.
    assert llc["tool"] == "llc" and llc["input"] == kernel.asm["llir"]
    assert llc["args"][1:] == ["-march=mtgpu", f"-mcpu={arch}", "-O2", "-filetype=obj", "--opaque-pointers",
                               "-o", llc["args"][-1]]
    assert Path(llc["args"][0]).suffix == ".ll" and Path(llc["args"][-1]).suffix == ".o"
    # ld.lld links that object into a shared object, which is the kernel's binary.
    assert lld["args"] == ["-flavor", "gnu", "-shared", llc["args"][-1], "-o", lld["args"][-1]]
    assert lld["object"].startswith("OBJ:")
    assert kernel.asm["mubin"] == _ELF + b"|" + lld["object"].encode()
    assert kernel.kernel == kernel.asm["mubin"]


def test_newer_llc_gets_no_opaque_pointer_flag(fake_sdk: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    llc = Path(os.environ["MUSA_HOME"]) / "bin" / "llc"
    llc.write_text(llc.read_text().replace("LLVM version 14.0.6", "LLVM version 17.0.1"))
    from triton_musa.backend.target import parse_arch
    toolchain = musa_toolchain.find_toolchain()
    assert toolchain.llvm_major == 17
    toolchain.compile_mubin("define void @k() { ret void }\n", parse_arch("mp_31"))
    (call, _) = _calls(fake_sdk)
    assert "--opaque-pointers" not in call["args"]


def test_sqmma_kernel_gets_shared_memory_from_zero(fake_sdk: Path) -> None:
    """Only a kernel that uses SQMMA (lowering.LoweredKernel.shared_memory_from_zero, from the module
    attribute the target sets) asks llc to place shared memory at address 0 (its descriptors swizzle
    absolute addresses)."""
    from triton_musa.backend.target import parse_arch
    toolchain = musa_toolchain.find_toolchain()
    toolchain.compile_mubin("define void @k() { ret void }\n", parse_arch("mp_31"))
    toolchain.compile_mubin("declare void @llvm.musa.sqmma.wait()\ndefine void @k() {\n"
                            "  call void @llvm.musa.sqmma.wait()\n  ret void\n}\n", parse_arch("mp_31"),
                            shared_memory_from_zero=True)
    plain, _, sqmma, _ = _calls(fake_sdk)
    assert "-mtgpu-alloc-shared-memory-from-zero=1" not in plain["args"]
    assert sqmma["args"][-3:] == ["-mtgpu-alloc-shared-memory-from-zero=1", "-o", sqmma["args"][-1]]
