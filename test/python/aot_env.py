"""Stand-ins for AOT tests: a MUSA SDK whose ``llc``/``ld.lld`` write a small ELF tagged with a hash of
the kernel's LLVM IR, a ``torch_musa`` that reports one mp_31 device (so Triton's active driver is
the MUSA device, as on a MUSA machine), the site-packages layout a wheel install of triton-musa
gives Triton (``triton/tools/extra/musa`` from pyproject.toml's wheel mapping), and a driver
library that records loads and launches of AOT output."""

from __future__ import annotations

import importlib.util
import os
import re
import sys
import tomllib
from pathlib import Path
from typing import Dict, List

import triton

REPO = Path(__file__).resolve().parents[2]
# Where the triton_musa under test is importable from: the source tree in a dev setup, site-packages
# after `pip install .` (the source tree then lacks the built extension modules).
PACKAGE_ROOT = Path(importlib.util.find_spec("triton_musa").origin).parent.parent

KERNEL_SOURCE = '''import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) + tl.load(y_ptr + offsets, mask=mask), mask=mask)
'''

# An ELF64 little-endian header with e_machine 253 (mtgpu).
_ELF = b"\x7fELF\x02\x01\x01" + bytes(9) + (3).to_bytes(2, "little") + (253).to_bytes(2, "little")

_TOOL = '''#!{python}
import hashlib, sys
name, args = {name!r}, sys.argv[1:]
if args == ["--version"]:
    print("Stand-in MUSA SDK LLVM:\\n  LLVM version 14.0.6")
    sys.exit(0)
out = args[args.index("-o") + 1]
if name == "llc":
    open(out, "wb").write(b"OBJ:" + hashlib.sha256(open(args[0], "rb").read()).hexdigest()[:16].encode() + b"\\0")
else:
    open(out, "wb").write({elf!r} + b"|" + open(args[args.index("-o") - 1], "rb").read())
'''

_TORCH_MUSA = '''"""Stand-in torch_musa: one MUSA device of capability 3.1 (mp_31); nothing runs on it."""
import types

import torch


class _Stream:
    musa_stream = 0


torch.musa = types.SimpleNamespace(
    is_available=lambda: True, device_count=lambda: 1, get_device_capability=lambda device=None: (3, 1),
    current_device=lambda: 0, set_device=lambda device: None, current_stream=lambda device=None: _Stream())
'''

# Records what AOT output asks of the driver; prints one line per launch with the mubin's tag.
DRIVER_RECORDER = r'''#include <stdio.h>
#include <string.h>
#include "triton_musa_driver.h"

static const char *tag_of(const void *image) {
  const char *p = (const char *)image;
  for (int i = 0; i < 64; ++i)
    if (memcmp(p + i, "OBJ:", 4) == 0) return p + i + 4;
  return "?";
}
MUresult muModuleLoadData(MUmodule *module, const void *image) { *module = (MUmodule)image; return MUSA_SUCCESS; }
MUresult muModuleUnload(MUmodule module) { (void)module; return MUSA_SUCCESS; }
MUresult muModuleGetFunction(MUfunction *f, MUmodule module, const char *name) {
  printf("function %s\n", name);
  *f = (MUfunction)module;
  return MUSA_SUCCESS;
}
MUresult muDeviceGet(MUdevice *device, int ordinal) { *device = ordinal; return MUSA_SUCCESS; }
MUresult muDeviceGetAttribute(int *value, MUdevice_attribute attrib, MUdevice dev) {
  (void)attrib; (void)dev; *value = 49152; return MUSA_SUCCESS;
}
MUresult muFuncSetAttribute(MUfunction f, MUfunction_attribute attrib, int value) {
  (void)f; printf("attribute %d = %d\n", (int)attrib, value); return MUSA_SUCCESS;
}
MUresult muLaunchKernel(MUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shared, MUstream stream, void **params, void **extra) {
  (void)by; (void)bz; (void)stream; (void)extra;
  printf("launch %s grid %u,%u,%u block %u shared %u n %d\n", tag_of(f), gx, gy, gz, bx, shared,
         *(int *)params[3]);
  return MUSA_SUCCESS;
}
'''


def fake_sdk(root: Path) -> Path:
    """``root/musa`` with bin/llc and bin/ld.lld; returns it (for MUSA_HOME)."""
    bin_dir = root / "musa" / "bin"
    bin_dir.mkdir(parents=True)
    for name in ("llc", "ld.lld"):
        script = bin_dir / name
        script.write_text(_TOOL.format(python=sys.executable, name=name, elf=_ELF))
        script.chmod(0o755)
    return root / "musa"


def kernel_file(root: Path) -> Path:
    path = root / "add_kernel.py"
    path.write_text(KERNEL_SOURCE)
    return path


def installed_site(root: Path) -> Path:
    """A site directory where ``triton`` is the installed triton plus the files triton-musa's wheel puts
    under ``triton/`` (pyproject.toml's [tool.scikit-build.wheel.packages]), as pip leaves them: triton's
    own files are symlinked, ours copied. Put it first on PYTHONPATH (with bytecode writing off)."""
    site = root / "site"
    triton_dir = Path(triton.__file__).parent
    packages = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["scikit-build"]["wheel"]["packages"]
    ours = {dest: REPO / src for dest, src in packages.items() if dest.split("/")[0] == "triton"}
    overlaid = {Path(dest).relative_to("triton") for dest in ours}
    prefixes = {p for dest in overlaid for p in [dest, *dest.parents] if str(p) != "."}

    def mirror(src: Path, dst: Path, rel: Path) -> None:
        dst.mkdir(parents=True, exist_ok=True)
        for entry in src.iterdir():
            if entry.name == "__pycache__":
                continue
            if rel / entry.name in prefixes:
                mirror(entry, dst / entry.name, rel / entry.name)
            else:
                (dst / entry.name).symlink_to(entry)

    mirror(triton_dir, site / "triton", Path())
    for dest, src in ours.items():
        target = site / dest
        target.mkdir(parents=True, exist_ok=True)
        for f in src.iterdir():
            (target / f.name).write_bytes(f.read_bytes())
    return site


def device_env(root: Path, *, site: Path) -> Dict[str, str]:
    """The environment of a MUSA machine with the SDK (stand-ins for both) and triton-musa installed."""
    fake_modules = root / "fake_modules"
    (fake_modules / "torch_musa").mkdir(parents=True)
    (fake_modules / "torch_musa" / "__init__.py").write_text(_TORCH_MUSA)
    env = {k: v for k, v in os.environ.items() if not k.startswith("TRITON_MUSA_")}
    env.update(MUSA_HOME=str(fake_sdk(root)), PYTHONDONTWRITEBYTECODE="1", TRITON_CACHE_DIR=str(root / "cache"),
               PYTHONPATH=os.pathsep.join([str(site), str(fake_modules), str(PACKAGE_ROOT)]))
    return env


def embedded_binary(c_source: str) -> bytes:
    """The mubin bytes an AOT .c file embeds."""
    body = re.search(r"_mubin\[\d+\] = \{ ([^}]*) \}", c_source)
    assert body, "no embedded mubin"
    return bytes(int(b, 16) for b in body.group(1).split(", "))


def tag(binary: bytes) -> str:
    return binary.split(b"OBJ:")[1].split(b"\0")[0].decode()


def outputs(directory: Path, suffix: str) -> List[Path]:
    return sorted(directory.glob(f"*{suffix}"))
