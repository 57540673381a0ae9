"""The MUSA runtime driver.

Triton scans this module for the one concrete ``DriverBase`` subclass and asks
each backend's driver ``is_active()``; exactly one must answer True. Ours is
active where a MUSA device is usable through torch_musa, or where the CPU
emulator is (``emulator.emulator_active()``: no MUSA device and no other GPU
driver, or forced with ``TRITON_MUSA_EMULATOR=1``). The driver holds one of
two device objects (``device.MusaDevice`` / ``device.EmulatorDevice``), chosen
when it is created; ``musa_device_status()`` says why the MUSA device is not
used.

Importing this module also extends the ``triton`` namespace (see ``surface``).
"""

from __future__ import annotations

import sys
import warnings
from typing import Any, Optional, Union

from triton.backends.compiler import GPUTarget
from triton.backends.driver import Benchmarker, DriverBase

from . import emulator, surface
from .device import choose_device
from .environment import EMULATOR_ENV, DeviceStatus, emulator_forced
from .environment import musa_device_status as _musa_device_status
from .launcher import _SCALARS
from .startup_cache import install_triton_key_memo

# The triton release this backend is written against (pyproject.toml pins it).
SUPPORTED_TRITON = "3.6.0"


def triton_mismatch() -> Optional[str]:
    """Why the ``triton`` this process imported is not the one triton-musa supports, or None."""
    triton = sys.modules.get("triton")
    version = getattr(triton, "__version__", None)
    if version == SUPPORTED_TRITON:
        return None
    where = getattr(triton, "__file__", None) or "an unknown location"
    return (f"triton-musa supports triton=={SUPPORTED_TRITON}, but `import triton` found {version or 'no version'} "
            f"at {where}: another triton package (or a directory named triton on sys.path) shadows it; "
            f"reinstall with pip install triton=={SUPPORTED_TRITON}")


surface.install()
if triton_mismatch():
    warnings.warn(str(triton_mismatch()), stacklevel=2)


def musa_device_status() -> DeviceStatus:
    """Whether a MUSA GPU is usable here and, if not, why (no torch_musa, no device, driver error)."""
    return _musa_device_status()


class MusaDriver(DriverBase):
    """Runtime for a MUSA device visible through torch_musa, or for the CPU emulator."""

    def __init__(self) -> None:
        super().__init__()
        # Triton computes triton_key() on the first compile of every process (hashing 400 MB):
        # remember it across processes (startup_cache.py).
        install_triton_key_memo()
        self.device = choose_device()
        self.emulated: bool = self.device.emulated
        self.utils = self.device.utils
        self.launcher_cls = self.device.launcher_cls
        self._emulated_arch: Optional[str] = None

    @classmethod
    def is_active(cls) -> bool:
        active = emulator.emulator_active() or musa_device_status().available
        if not active and emulator_forced() is False and not emulator._other_gpu_driver_active():
            # Triton will then say "0 active drivers"; say why ours is not one of them.
            warnings.warn(f"triton-musa: the MUSA driver is not active: {EMULATOR_ENV}=0 turns the CPU "
                          f"emulator off and no MUSA device is usable ({musa_device_status().reason}); unset "
                          f"{EMULATOR_ENV} to run kernels on the emulator", stacklevel=2)
        return active

    def get_current_device(self) -> Union[int, str]:
        """The device index on a MUSA GPU; "cpu" on the emulator (what torch.cpu.current_device() says)."""
        if self.emulated:
            self._forget_properties_of_another_arch()
        return self.device.current_device()

    def _forget_properties_of_another_arch(self) -> None:
        """Triton caches a device's shared memory by device (``triton.compiler.compiler.max_shared_mem``, asked
        right after this method at each first launch of a kernel); the emulator's one device takes the arch of
        TRITON_MUSA_ARCH at each launch, so the cache goes when that arch changes (else a kernel of mp_31 launched
        after one of mp_22 in the same process was refused with mp_22's 72 KiB)."""
        from triton.compiler import compiler as triton_compiler
        arch = self.device.arch().name
        if arch != self._emulated_arch:
            triton_compiler.max_shared_mem.cache_clear()
            self._emulated_arch = arch

    def set_current_device(self, device: Union[int, str]) -> None:
        self.device.set_current_device(device)

    def get_current_stream(self, device: Optional[int] = None) -> int:
        return self.device.current_stream(device)

    def get_device_capability(self, device: Optional[int] = None) -> tuple[int, int]:
        return self.device.capability(device)

    def get_current_target(self) -> GPUTarget:
        arch = self.device.arch()
        return GPUTarget("musa", arch.name, arch.warp_size)

    def get_active_torch_device(self) -> Any:
        return self.device.torch_device()

    def get_device_interface(self) -> Any:
        return self.device.device_interface()

    def map_python_to_cpp_type(self, ty: str) -> str:
        """C types of AOT output: only Triton's ``triton.tools.compile`` asks, after compiling through this
        process's backend, so a binary that is not a mubin (emulator code, or LLVM IR without the SDK) stops
        the tool here, before it writes C that embeds it."""
        if self.emulated:
            raise RuntimeError("triton-musa: the active MUSA driver is the CPU emulator, so kernels were compiled "
                               "for it (emuir), not to a mubin a MUSA GPU loads: run Triton's AOT tool where the "
                               "MUSA device is the active driver, or use python -m triton_musa.tools.compile, "
                               "which needs no device")
        from .toolchain import find_toolchain
        find_toolchain()  # MusaToolchainNotFound: without the SDK the "binary" is LLVM IR
        if ty.startswith("*"):
            return "MUdeviceptr"
        if ty.startswith("tensordesc"):
            return "MUtensorDescriptor"
        try:
            return _SCALARS[ty][0]
        except KeyError:
            raise ValueError(f"no C type for Triton argument type {ty!r} on MUSA") from None

    def get_benchmarker(self) -> Benchmarker:
        """What the autotuner times configs with: MUSA events on a device; on the emulator one warm-up and
        one timed run per config (testing.do_bench_once)."""
        from ..testing import do_bench, do_bench_once
        return do_bench_once if self.emulated else do_bench

    def get_empty_cache_for_benchmark(self) -> Any:
        return self.device.empty_cache_for_benchmark()

    def clear_cache(self, cache: Any) -> None:
        cache.zero_()
