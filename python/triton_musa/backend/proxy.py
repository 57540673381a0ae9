"""The GPU proxy: our pipeline's code compiled for an NVIDIA GPU, to measure it.

``GPUTarget("musa", "proxy_sm90", 32)`` compiles a kernel as for the MUSA
architecture the proxy stands for (``mp_31``: Triton's same TTIR and TTGIR, the
same MUSA passes making the same plan, ``ttg.target = "musa:mp_31"``), up to the
layouts of what the proxy's hardware reads (its catalogue rows: SQMMA as wgmma,
PH1's WMMA as mma.sync; its TME buffers in TMA's swizzles), and changes only
what lies below the target interface: ``--convert-tritongpu-to-musa{target=proxy}``
emits NVVM (target/ProxyTargetInfo.cpp), the export writes LLVM IR for
``nvptx64-nvidia-cuda`` with ``__mt_*`` math mapped onto the triton wheel's
``libdevice.10.bc``, LLVM's NVPTX backend writes PTX and the wheel's ``ptxas``
the cubin. Stages: ``ttir``, ``ttgir``, ``llir``, ``ptx``, ``cubin``, on any
machine. The cubin launches through Triton's own NVIDIA driver (see
bench/proxy_gpu.py). A test and measurement target, not a product.
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, Optional

from .environment import PTXAS_ENV, tool_override


@dataclass(frozen=True)
class ProxyTarget:
    """One proxy: the MUSA architecture whose code runs, and the NVIDIA GPU it runs on."""

    name: str  # as in GPUTarget("musa", name, 32)
    musa_arch: str  # everything above the target interface is this arch's
    sm: str  # the NVIDIA GPU: ptxas --gpu-name and the NVPTX -mcpu
    capability: int  # Triton's GPUTarget("cuda", capability, 32) of that GPU


PROXY_TARGETS: Dict[str, ProxyTarget] = {
    # sm_90a: Hopper with its arch-specific instructions (wgmma, which SQMMA becomes).
    "proxy_sm90": ProxyTarget(name="proxy_sm90", musa_arch="mp_31", sm="sm_90a", capability=90),
}


class ProxyToolError(RuntimeError):
    """ptxas is missing or rejected the PTX; the message carries the command and its output."""


def proxy_target(name: object) -> Optional[ProxyTarget]:
    """The proxy named ``name``, or None when it names no proxy."""
    return PROXY_TARGETS.get(str(name))


def nvidia_backend_dir() -> Path:
    """The triton wheel's NVIDIA backend folder (ptxas, libdevice.10.bc)."""
    import triton
    return Path(triton.__file__).parent / "backends" / "nvidia"


def libdevice10_path() -> str:
    return str(nvidia_backend_dir() / "lib" / "libdevice.10.bc")


def ptxas_path() -> Path:
    explicit = tool_override(PTXAS_ENV)
    path = Path(explicit) if explicit else nvidia_backend_dir() / "bin" / "ptxas"
    if not (path.is_file() and os.access(path, os.X_OK)):
        raise ProxyToolError(f"ptxas not found at {path}: the proxy's cubin needs the triton wheel's "
                             f"backends/nvidia/bin/ptxas (or set {PTXAS_ENV})")
    return path


@functools.lru_cache(maxsize=None)
def _ptxas_release(path: str) -> tuple[int, int]:
    out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=60).stdout
    match = re.search(r"release (\d+)\.(\d+)", out)
    if match is None:
        raise ProxyToolError(f"`{path} --version` names no CUDA release:\n{out.strip()}")
    return int(match.group(1)), int(match.group(2))


# The newest PTX ISA (x10) each CUDA release's ptxas reads (NVIDIA's PTX ISA release history).
_PTX_OF_CUDA = {(12, 0): 80, (12, 1): 81, (12, 2): 82, (12, 3): 83, (12, 4): 84, (12, 5): 85, (12, 6): 85,
                (12, 8): 87, (12, 9): 88, (13, 0): 90}


def ptx_version() -> int:
    """The PTX ISA (x10) that the wheel's ptxas reads (12.8 -> 87); a newer release than the table
    knows gets the newest PTX the table has."""
    release = _ptxas_release(str(ptxas_path()))
    known = [cuda for cuda in _PTX_OF_CUDA if cuda <= release]
    if not known:
        raise ProxyToolError(f"ptxas of CUDA {release[0]}.{release[1]} is older than the proxy supports (12.0)")
    return _PTX_OF_CUDA[max(known)]


def make_llir(ttgir: Any, metadata: Dict[str, Any], proxy: ProxyTarget, opt: Any) -> str:
    """TTGIR (for ``proxy.musa_arch``) -> LLVM IR for nvptx64-nvidia-cuda."""
    from .errors import user_errors
    from .lowering import lower_for_proxy, record_launch_warps
    from .target import parse_arch
    name = metadata.get("name", "kernel")
    with user_errors(name, proxy.name):
        lowered = lower_for_proxy(str(ttgir), parse_arch(proxy.musa_arch), sm=proxy.sm, ptx_version=ptx_version(),
                                  libdevice=libdevice10_path(), opt_level=opt.llvm_opt_level,
                                  source_name=f"{name}.ttgir", num_stages=opt.num_stages, matmul=opt.matmul)
    metadata["shared"] = lowered.shared_bytes
    metadata["tensordesc_meta"] = lowered.tensor_maps
    record_launch_warps(metadata, lowered)
    return lowered.llir


def make_ptx(llir: str, metadata: Dict[str, Any], proxy: ProxyTarget, opt: Any) -> str:
    """LLVM IR -> PTX through the NVPTX backend of the LLVM we link."""
    from .. import _musa_mlir
    return _musa_mlir.nvptx_to_ptx(llir, sm=proxy.sm, ptx_version=ptx_version(), fp_fusion=opt.enable_fp_fusion)


def make_cubin(ptx: str, metadata: Dict[str, Any], proxy: ProxyTarget, opt: Any) -> bytes:
    """PTX -> cubin with the triton wheel's ptxas."""
    ptxas = ptxas_path()
    with tempfile.TemporaryDirectory(prefix="triton-musa-proxy-") as tmp:
        ptx_file, cubin_file = Path(tmp) / "kernel.ptx", Path(tmp) / "kernel.cubin"
        ptx_file.write_text(ptx)
        cmd = [str(ptxas), f"--gpu-name={proxy.sm}", "-O3", str(ptx_file), "-o", str(cubin_file)]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        if proc.returncode != 0:
            raise ProxyToolError(f"`{' '.join(cmd)}` failed with exit code {proc.returncode}:\n"
                                 f"{(proc.stderr or proc.stdout).strip()}")
        return cubin_file.read_bytes()
