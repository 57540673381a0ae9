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
  ``TRITON_MUSA_EMULATOR_TIER_UP``  the launch (default 3) from which a kernel's host code is
      compiled with optimized code generation (see ``tier_up_launch``).
  ``ENABLE_MUSA_MMA``, ``MUSA_ENABLE_SQMMA``  ``0`` turns the matrix units (SQMMA) off: the defaults
      of the ``enable_mma``/``enable_sqmma`` compile options.
  ``DISABLE_LLVM_OPT``  Moore Threads' Triton switch: the LLVM IR is exported unoptimised.
  ``MUSA_HOME``, else ``MUSA_PATH``  the MUSA SDK root (default ``/usr/local/musa``).
  ``TRITON_MUSA_LLC_PATH``, ``TRITON_MUSA_LLD_PATH``  the SDK's ``llc`` / ``ld.lld`` elsewhere.
  ``TRITON_MUSA_PROXY_PTXAS``  the GPU proxy's ``ptxas`` (default: the triton wheel's).
  ``TRITON_MUSA_STARTUP_CACHE``  ``0`` turns off the memos of startup_cache.py (file digests and
      Triton's ``triton_key()`` remembered across processes).
  Triton's debugging switches, as Triton reads them (instrumentation.py says what each does):
      ``MLIR_ENABLE_DUMP`` (``1`` or a kernel's name), ``MLIR_DUMP_PATH``, ``MLIR_ENABLE_TIMING``,
      ``LLVM_ENABLE_TIMING``, ``TRITON_KERNEL_DUMP``.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Tuple

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
    return env_flag(DISABLE_LLVM_OPT_ENV)


def matrix_switch(name: str) -> bool:
    """``ENABLE_MUSA_MMA`` / ``MUSA_ENABLE_SQMMA``: on unless set to ``0``."""
    return os.environ.get(name, "1") != "0"


# The MUSA SDK and the tools the compile runs.
MUSA_HOME_VARS = ("MUSA_HOME", "MUSA_PATH")  # in the order they are read
DEFAULT_MUSA_HOME = "/usr/local/musa"
LLC_ENV = "TRITON_MUSA_LLC_PATH"
LLD_ENV = "TRITON_MUSA_LLD_PATH"
PTXAS_ENV = "TRITON_MUSA_PROXY_PTXAS"


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


def tool_override(env: str) -> Optional[str]:
    """The path a tool's variable (``LLC_ENV``, ``LLD_ENV``, ``PTXAS_ENV``) names, or None when unset."""
    return os.environ.get(env) or None


# Caches.
STARTUP_CACHE_ENV = "TRITON_MUSA_STARTUP_CACHE"


def startup_cache_enabled() -> bool:
    """``TRITON_MUSA_STARTUP_CACHE``: on unless ``0``/``false``/``no``/``off``."""
    return os.environ.get(STARTUP_CACHE_ENV, "1").strip().lower() not in ("0", "false", "no", "off")


# Triton's debugging switches.
_TRUE = ("1", "true", "on", "yes")
DUMP_ENV = "MLIR_ENABLE_DUMP"
DUMP_PATH_ENV = "MLIR_DUMP_PATH"
KERNEL_DUMP_ENV = "TRITON_KERNEL_DUMP"
MLIR_TIMING_ENV = "MLIR_ENABLE_TIMING"
LLVM_TIMING_ENV = "LLVM_ENABLE_TIMING"


def env_flag(name: str) -> bool:
    """Triton's reading of a boolean switch (``1``/``true``/``on``/``yes``, any case)."""
    return os.environ.get(name, "").strip().lower() in _TRUE


def dump_requested(kernel: Optional[str] = None) -> bool:
    """``MLIR_ENABLE_DUMP=1`` for every kernel, or ``MLIR_ENABLE_DUMP=<kernel name>`` for that one."""
    value = os.environ.get(DUMP_ENV, "").strip()
    return value.lower() in _TRUE or (kernel is not None and value == kernel)


def dump_path() -> Optional[str]:
    """``MLIR_DUMP_PATH``: the file dumps are appended to (None: stderr)."""
    return os.environ.get(DUMP_PATH_ENV) or None
