"""MUSA architectures and SDK locations, shared by the compiler, the driver and
the language bindings. Pure Python: no Triton import, so it is cheap to load."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class MusaArch:
    """One MUSA GPU architecture, e.g. ``mp_31`` (PH1)."""

    name: str
    major: int
    minor: int
    warp_size: int
    codename: str

    @property
    def capability(self) -> int:
        """``mp_31`` -> 31, for ordered comparisons."""
        return self.major * 10 + self.minor


# Warp sizes from MUSA-FACTS.md: QY1/QY2 run 128-thread warps, PH1 32-thread warps.
KNOWN_ARCHS: dict[str, MusaArch] = {
    a.name: a
    for a in (
        MusaArch("mp_21", 2, 1, 128, "QY1"),
        MusaArch("mp_22", 2, 2, 128, "QY2"),
        MusaArch("mp_31", 3, 1, 32, "PH1"),
    )
}

DEFAULT_MUSA_HOME = "/usr/local/musa"


def parse_arch(arch: object) -> MusaArch:
    """Return the architecture named ``arch`` ("mp_31"; 31 is accepted too).

    Raises ValueError naming the known architectures otherwise."""
    name = f"mp_{arch}" if isinstance(arch, int) else str(arch)
    try:
        return KNOWN_ARCHS[name]
    except KeyError:
        known = ", ".join(sorted(KNOWN_ARCHS))
        raise ValueError(f"unknown MUSA architecture {arch!r}; known architectures: {known}") from None


def arch_from_capability(major: int, minor: int) -> MusaArch:
    """The architecture of a device reporting compute capability (major, minor)."""
    return parse_arch(f"mp_{major}{minor}")


def musa_home() -> Path:
    """The MUSA SDK root: $MUSA_HOME, else $MUSA_PATH, else /usr/local/musa (may not exist)."""
    for var in ("MUSA_HOME", "MUSA_PATH"):
        value = os.environ.get(var)
        if value:
            return Path(value)
    return Path(DEFAULT_MUSA_HOME)


def libdevice_path(arch: MusaArch) -> str:
    """Where the SDK keeps the math library for ``arch``.

    Only computed, never checked: a missing SDK is reported by the stage that links
    the library, so IR generation works on machines without one."""
    name = "libdevice.31.bc" if arch.major >= 3 else "libdevice.bc"
    return str(musa_home() / "mtgpu" / "bitcode" / name)
