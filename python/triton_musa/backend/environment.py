"""What the backend reads from its surroundings, in one place: the environment variables (their names
and how each value is read) and the probe of the MUSA device. It imports nothing of the backend but
the architecture table, so the emulator, its launcher, the device and the driver all read from here.

Environment:
  ``TRITON_MUSA_EMULATOR``  ``1`` forces the CPU emulator even where a MUSA device
      exists; ``0`` disables it. Unset: active where neither a MUSA device
      (torch_musa) nor another Triton GPU driver is active.
  ``TRITON_MUSA_ARCH``  the emulated architecture, ``mp_31`` (default, warp
      32) or ``mp_22`` (warp 128); on a device, overrides the one its capability names.
  ``TRITON_MUSA_EMULATOR_THREADS``  emulator worker threads (default: all cores).
  ``TRITON_MUSA_EMULATOR_RACECHECK``  ``1`` reports conflicting shared-memory
      accesses of two threads with no barrier between them (slower; debug).
  ``TRITON_MUSA_EMULATOR_BOUNDS``  ``error`` (default) or ``warn``: see ``bounds_check_warns``.
  ``TRITON_MUSA_EMULATOR_OBJECT_CACHE``  ``0`` compiles every kernel's host code again instead of
      linking the object code Triton's cache kept from an earlier process (default ``1``).
  ``TRITON_MUSA_STARTUP_CACHE``  ``0`` turns off the memos of startup_cache.py (file digests and
      Triton's ``triton_key()`` remembered across processes).
  ``ENABLE_MUSA_MMA``, ``MUSA_ENABLE_SQMMA``  ``0`` turns the matrix units (SQMMA) off: the defaults
      of the ``enable_mma``/``enable_sqmma`` compile options.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from typing import Optional

from .target import DEFAULT_ARCH, MusaArch, parse_arch

EMULATOR_ENV = "TRITON_MUSA_EMULATOR"
ARCH_ENV = "TRITON_MUSA_ARCH"
THREADS_ENV = "TRITON_MUSA_EMULATOR_THREADS"
RACECHECK_ENV = "TRITON_MUSA_EMULATOR_RACECHECK"
BOUNDS_ENV = "TRITON_MUSA_EMULATOR_BOUNDS"
OBJECT_CACHE_ENV = "TRITON_MUSA_EMULATOR_OBJECT_CACHE"
TIER_UP_ENV = "TRITON_MUSA_EMULATOR_TIER_UP"
# The launch of a kernel whose host code is compiled with optimized code generation; the launches
# before it run quickly compiled code. 3: the autotuner's benchmarker runs each config once
# (testing.do_bench_once), so the configs it does not pick never pay for the full compile, and a kernel
# launched once or twice (most tests) neither.
DEFAULT_TIER_UP_LAUNCH = 3
ENABLE_MMA_ENV = "ENABLE_MUSA_MMA"
ENABLE_SQMMA_ENV = "MUSA_ENABLE_SQMMA"


@dataclass(frozen=True)
class DeviceStatus:
    available: bool
    reason: str  # why not, or which device


@functools.lru_cache(maxsize=None)
def musa_device_status() -> DeviceStatus:
    """Whether torch_musa sees a usable MUSA device, and why not (probing never raises)."""
    try:
        import torch
    except Exception as exc:  # noqa: BLE001  (any import failure means "not usable")
        return DeviceStatus(False, f"torch is not importable ({type(exc).__name__}: {exc})")
    try:
        import torch_musa  # noqa: F401  (registers torch.musa)
    except ImportError as exc:
        return DeviceStatus(False, f"torch_musa is not installed ({exc}); it comes with the MUSA SDK")
    except Exception as exc:  # noqa: BLE001
        return DeviceStatus(False, f"importing torch_musa failed ({type(exc).__name__}: {exc})")
    try:
        if not torch.musa.is_available():
            return DeviceStatus(False, "torch_musa is installed but torch.musa.is_available() is False "
                                       "(no device, MUSA_VISIBLE_DEVICES empty, or the kernel driver is not loaded)")
        count = torch.musa.device_count()
        major, minor = torch.musa.get_device_capability(0)
    except Exception as exc:  # noqa: BLE001
        return DeviceStatus(False, f"the MUSA driver reported an error ({type(exc).__name__}: {exc})")
    return DeviceStatus(True, f"{count} MUSA device(s), device 0 has capability {major}.{minor}")


def emulator_forced() -> Optional[bool]:
    """The ``TRITON_MUSA_EMULATOR`` switch: True, False, or None when unset."""
    value = os.environ.get(EMULATOR_ENV, "").strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off"):
        return False
    if value:
        raise ValueError(f"{EMULATOR_ENV}={value!r}: expected 1 (force the CPU emulator) or 0 (disable it)")
    return None


def arch_override() -> Optional[MusaArch]:
    """The architecture ``TRITON_MUSA_ARCH`` names, or None when unset."""
    value = os.environ.get(ARCH_ENV)
    return parse_arch(value) if value else None


def emulated_arch() -> MusaArch:
    return arch_override() or parse_arch(DEFAULT_ARCH)


def emulator_threads() -> int:
    """``TRITON_MUSA_EMULATOR_THREADS``; 0 (unset) means all cores."""
    value = os.environ.get(THREADS_ENV)
    return int(value) if value else 0


def race_check() -> bool:
    return os.environ.get(RACECHECK_ENV) == "1"


def tier_up_launch() -> int:
    """``TRITON_MUSA_EMULATOR_TIER_UP``: the launch (1, 2, ...) from which a kernel runs host code with
    optimized code generation; 1 (or 0) compiles it so from the start."""
    value = os.environ.get(TIER_UP_ENV, "").strip()
    if not value:
        return DEFAULT_TIER_UP_LAUNCH
    try:
        launch = int(value)
    except ValueError:
        launch = -1
    if launch < 0:
        raise ValueError(f"{TIER_UP_ENV}={value!r}: expected the launch (1, 2, ...) from which a kernel runs "
                         "fully compiled host code (1 or 0: from the start)")
    return max(launch, 1)


def object_cache_enabled() -> bool:
    """``TRITON_MUSA_EMULATOR_OBJECT_CACHE``: ``0`` turns the emulator's object cache off."""
    value = os.environ.get(OBJECT_CACHE_ENV, "1").strip().lower()
    if value in ("1", "true", "yes", "on", ""):
        return True
    if value in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"{OBJECT_CACHE_ENV}={value!r}: expected 1 (link cached object code) or 0 (always compile)")


def bounds_check_warns() -> bool:
    """``TRITON_MUSA_EMULATOR_BOUNDS``: ``error`` (the default) stops a kernel at its first global
    access outside every tensor argument; ``warn`` lets accesses near a tensor proceed on a margin
    around it and reports them as an ``OutOfBoundsWarning`` after the launch."""
    value = os.environ.get(BOUNDS_ENV, "").strip().lower()
    if value in ("", "error"):
        return False
    if value == "warn":
        return True
    raise ValueError(f"{BOUNDS_ENV}={value!r}: expected 'error' (the default) or 'warn'")


# Moore Threads' Triton switch (FlagGems' layer-norm backward sets it): skip LLVM's optimisation of the module.
DISABLE_LLVM_OPT_ENV = "DISABLE_LLVM_OPT"


def llvm_opt_disabled() -> bool:
    """``DISABLE_LLVM_OPT=1`` (or true/on/yes): the kernel's LLVM IR is exported unoptimised (O0)."""
    return os.environ.get(DISABLE_LLVM_OPT_ENV, "0").strip().lower() in ("1", "true", "on", "yes")


def matrix_switch(name: str) -> bool:
    """``ENABLE_MUSA_MMA`` / ``MUSA_ENABLE_SQMMA``: on unless set to ``0``."""
    return os.environ.get(name, "1") != "0"
