"""TTGIR -> LLVM IR for a MUSA target, through our MLIR library.

Every step is a pass pipeline string that ``musa-opt`` replays on the saved
TTGIR, followed by the LLVM IR export that ``musa-translate --musa-to-llvmir``
replays on the result. Ops the lowering does not cover yet raise
``MLIRError`` naming the op.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Optional, Tuple

from .target import MusaArch, libdevice_path


# The first LLVM release whose llc reads the IR our exporter writes without the compatibility step.
LLVM_MAJOR_WITHOUT_REWRITES = 19


@dataclass(frozen=True)
class LoweredKernel:
    pipeline: str
    llvm_dialect: str  # the module after `pipeline`, in the MLIR LLVM dialect
    llir: str  # LLVM IR text for mtgpu-mt-musa, readable by the SDK's LLVM 14 llc


def lowering_pipeline(arch: MusaArch) -> str:
    return ("builtin.module(musa-relayout-gather-offsets,"
            f"musa-allocate-shared-memory{{arch={arch.name}}},"
            f"musa-insert-barriers{{arch={arch.name}}},"
            f"convert-tritongpu-to-musa{{arch={arch.name}}},canonicalize,cse)")


def lower_to_llir(ttgir: str, arch: MusaArch, *, opt_level: int = 3, source_name: str = "kernel.ttgir",
                  libdevice: Optional[str] = None) -> LoweredKernel:
    """Lowers printed TTGIR to LLVM IR; links ``libdevice`` (default: the SDK's, when installed)."""
    from .. import _musa_mlir

    module = _musa_mlir.parse(ttgir, source_name=source_name)
    pipeline = lowering_pipeline(arch)
    if os.environ.get("MLIR_ENABLE_DUMP") == "1":
        print(f"// triton-musa: musa-opt '--pass-pipeline={pipeline}' {source_name}")
    module.run_pipeline(pipeline)
    if libdevice is None:
        sdk_libdevice = libdevice_path(arch)
        libdevice = sdk_libdevice if os.path.exists(sdk_libdevice) else None
    # The compatibility rewrites are keyed by the SDK llc's LLVM major (14 when no SDK is found).
    from .toolchain import target_llvm_major
    llir = module.to_llvm_ir(arch.name, opt_level=opt_level, libdevice=libdevice,
                             llvm14_compatible=target_llvm_major() < LLVM_MAJOR_WITHOUT_REWRITES)
    return LoweredKernel(pipeline=pipeline, llvm_dialect=str(module), llir=llir)


def emulator_pipeline(device_pipeline: str, arch: MusaArch) -> str:
    """The device lowering pipeline with the conversion retargeted to the emulator."""
    device_pass = f"convert-tritongpu-to-musa{{arch={arch.name}}}"
    if device_pass not in device_pipeline:
        raise ValueError(f"cannot find '{device_pass}' in the lowering pipeline {device_pipeline!r}")
    return device_pipeline.replace(device_pass, f"convert-tritongpu-to-musa{{arch={arch.name} target=emulator}}")


def lower_for_emulator(ttgir: str, arch: MusaArch, *, source_name: str = "kernel.ttgir") -> Tuple[str, str]:
    """TTGIR -> LLVM dialect for the emulator target; returns (pipeline, module text)."""
    from .. import _musa_mlir

    pipeline = emulator_pipeline(lowering_pipeline(arch), arch)
    if os.environ.get("MLIR_ENABLE_DUMP") == "1":
        print(f"// triton-musa: musa-opt '--pass-pipeline={pipeline}' {source_name}")
    module = _musa_mlir.parse(ttgir, source_name=source_name)
    module.run_pipeline(pipeline)
    return pipeline, str(module)


_SHARED_ATTR = re.compile(r'"?ttg\.shared"?\s*=\s*(\d+)')


def shared_bytes_of(llvm_dialect: str) -> int:
    match = _SHARED_ATTR.search(llvm_dialect)
    return int(match.group(1)) if match else 0
