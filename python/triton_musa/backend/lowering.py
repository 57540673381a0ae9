"""TTGIR -> LLVM IR for a MUSA target, through our MLIR library.

Every step is a pass pipeline string that ``musa-opt`` replays on the saved
TTGIR, followed by the LLVM IR export that ``musa-translate --musa-to-llvmir``
replays on the result. Ops the lowering does not cover yet raise
``MLIRError`` naming the op.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Optional

from .target import MusaArch, libdevice_path


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
    llir = module.to_llvm_ir(arch.name, opt_level=opt_level, libdevice=libdevice)
    return LoweredKernel(pipeline=pipeline, llvm_dialect=str(module), llir=llir)
