"""MUSA architectures and SDK locations, shared by the compiler, the driver and
the language bindings. No Triton import, so it is cheap to load; the
architecture table comes from the extension module on first use."""

from __future__ import annotations

import dataclasses
import functools
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, Optional, Tuple


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


def __getattr__(name: str) -> Any:
    # KNOWN_ARCHS is loaded on first use, so importing this module never needs the extension.
    if name == "KNOWN_ARCHS":
        return known_archs()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


DEFAULT_MUSA_HOME = "/usr/local/musa"
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


# The variables that name the MUSA SDK root, in the order they are read.
MUSA_HOME_VARS = ("MUSA_HOME", "MUSA_PATH")


def musa_home_from_environment() -> Optional[Tuple[str, Path]]:
    """The variable that names the MUSA SDK root and its value: $MUSA_HOME, else $MUSA_PATH; None when
    neither is set."""
    for var in MUSA_HOME_VARS:
        value = os.environ.get(var)
        if value:
            return var, Path(value)
    return None


def musa_home() -> Path:
    """The MUSA SDK root: $MUSA_HOME, else $MUSA_PATH, else /usr/local/musa (may not exist)."""
    named = musa_home_from_environment()
    return named[1] if named else Path(DEFAULT_MUSA_HOME)


def libdevice_path(arch: MusaArch) -> str:
    """Where the SDK keeps the math library for ``arch``.

    Only computed, never checked: a missing SDK is reported by the stage that links
    the library, so IR generation works on machines without one."""
    name = "libdevice.31.bc" if arch.major >= 3 else "libdevice.bc"
    return str(musa_home() / "mtgpu" / "bitcode" / name)
