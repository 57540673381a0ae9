"""The CPU emulator's side of the backend: when it is active, how kernels are
lowered for it, and how they are loaded and launched on torch CPU tensors.

The emulator runs kernels compiled by the same pipeline as for a MUSA device
(same passes, layouts, shared-memory plan), lowered with
``convert-tritongpu-to-musa{target=emulator}`` so that thread ids, barriers,
warp shuffles and ballots become calls into the emulator runtime
(``emulator/`` in the C++ library): each GPU thread is a fiber, blocks run in
parallel on all cores, and every global access is checked against the
tensors passed in. The threads of a block take turns at every global and
shared-memory access, so the lanes of a warp run in lockstep there as on SIMT
hardware: every lane's k-th access happens before any lane's (k+1)-th.

The environment variables it reads are described in environment.py.
"""

from __future__ import annotations

import functools
import os
import time
from typing import Any, Dict, Optional, Tuple

from .environment import emulated_arch, emulator_forced, musa_device_status

# MUSA GPUs run at most 1024 threads per block.
MAX_THREADS_PER_BLOCK = 1024


def _other_gpu_driver_active() -> bool:
    from triton.backends import backends
    for name, backend in backends.items():
        if name == "musa":
            continue
        try:
            if backend.driver.is_active():
                return True
        except Exception:  # a driver that cannot even ask is not active
            continue
    return False


@functools.lru_cache(maxsize=None)
def emulator_active() -> bool:
    """Whether kernels run on the CPU emulator in this process (decided once)."""
    forced = emulator_forced()
    if forced is not None:
        return forced
    return not musa_device_status().available and not _other_gpu_driver_active()


class EmulatorUtils:
    """``driver.utils`` of the emulator: loads kernels, describes the emulated device."""

    def load_binary(self, name: str, kernel: bytes, shared: int, device: int) -> Tuple[Any, Any, int, int, int]:
        from .emulator_launcher import load_kernel
        loaded = load_kernel(kernel)
        # (module, function, n_regs, n_spills, n_max_threads)
        return loaded, loaded, 0, 0, MAX_THREADS_PER_BLOCK

    def get_device_properties(self, device: int) -> Dict[str, Any]:
        from .. import _musa_mlir  # noqa: F401  (fails early if the library is missing)
        arch = emulated_arch()
        return {
            "max_shared_mem": arch.max_shared_memory_bytes,
            "multiprocessor_count": os.cpu_count() or 1,
            "max_num_regs": 65536,
            "warpSize": arch.warp_size,
            "sm_clock_rate": 0,
            "mem_clock_rate": 0,
            "mem_bus_width": 0,
        }


class EmulatorEvent:
    """A host timestamp; launches on the emulator are synchronous."""

    def __init__(self, enable_timing: bool = True) -> None:
        self.t: Optional[float] = None

    def record(self, stream: Any = None) -> None:
        self.t = time.perf_counter()

    def synchronize(self) -> None:
        pass

    def elapsed_time(self, end: "EmulatorEvent") -> float:
        if self.t is None or end.t is None:
            raise RuntimeError("elapsed_time needs both events recorded")
        return (end.t - self.t) * 1000.0


class EmulatorDeviceInterface:
    """What ``triton.testing.do_bench`` needs of a device module (as torch.cuda)."""

    Event = EmulatorEvent

    @staticmethod
    def synchronize(device: Any = None) -> None:
        pass

    @staticmethod
    def current_device() -> int:
        return 0

    @staticmethod
    def device_count() -> int:
        return 1

    @staticmethod
    def is_available() -> bool:
        return True

    @staticmethod
    def get_device_capability(device: Any = None) -> Tuple[int, int]:
        arch = emulated_arch()
        return (arch.major, arch.minor)
