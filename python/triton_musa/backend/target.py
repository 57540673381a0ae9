"""MUSA architectures, shared by the compiler, the driver and the language bindings. No Triton
import, so it is cheap to load; the architecture table comes from the extension module on first
use."""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import Dict


@dataclass(frozen=True)
class MusaArch:
    """One MUSA GPU architecture, e.g. ``mp_31`` (PH1): a row of the C++ table
    (``target/MUSAArch.cpp``), the one place architectures are described."""

    name: str
    major: int
    minor: int
    warp_size: int
    codename: str
    max_shared_memory_bytes: int
    ballot_bits: int
    matrix_unit: str  # "none", "wmma" or "sqmma"
    has_bf16: bool
    has_fp8: bool
    has_tme: bool

    @property
    def capability(self) -> int:
        """``mp_31`` -> 31, for ordered comparisons."""
        return self.major * 10 + self.minor


@functools.lru_cache(maxsize=None)
def known_archs() -> Dict[str, MusaArch]:
    """The supported architectures by name, read from the extension module once."""
    from .. import _musa_mlir
    fields = {f.name for f in dataclasses.fields(MusaArch)}
    return {row["name"]: MusaArch(**{k: v for k, v in row.items() if k in fields})
            for row in _musa_mlir.architectures()}


# The architecture compiled for where nothing names one (no device, no TRITON_MUSA_ARCH, no option).
DEFAULT_ARCH = "mp_31"


def parse_arch(arch: object) -> MusaArch:
    """Return the architecture named ``arch`` ("mp_31"; 31 is accepted too).

    Raises ValueError naming the known architectures otherwise."""
    name = f"mp_{arch}" if isinstance(arch, int) else str(arch)
    archs = known_archs()
    try:
        return archs[name]
    except KeyError:
        known = ", ".join(sorted(archs))
        raise ValueError(f"unknown MUSA architecture {arch!r}; supported architectures: {known}") from None


def arch_from_capability(major: int, minor: int) -> MusaArch:
    """The architecture of a device reporting compute capability (major, minor)."""
    return parse_arch(f"mp_{major}{minor}")
