"""The CPU emulator's side of the backend: when it is active, how kernels are
lowered for it, and how they are loaded and launched on torch CPU tensors.

The emulator runs kernels compiled by the same pipeline as for a MUSA device
(same passes, layouts, shared-memory plan), lowered with
``convert-tritongpu-to-musa{target=emulator}`` so that thread ids, barriers,
warp shuffles and ballots become calls into the emulator runtime
(``emulator/`` in the C++ library): each GPU thread is a fiber, blocks run in
parallel on all cores, and every global access is checked against the
tensors passed in (and, for pointers the kernel loaded from memory, against
every live torch CPU tensor: see live_tensors.py). The threads of a block take turns at the global and
shared-memory accesses where another thread's turn can change the result (stores, atomics, loads after a
store since the last turn), so the lanes of a warp run in lockstep there as on SIMT hardware: every lane's
earlier accesses happen before any lane's next one.

The environment variables it reads are described in environment.py.
"""

from __future__ import annotations

import functools
import os
import time
from typing import Any, Dict, Optional, Tuple, Union

from .driver_utils import DeviceProperties, RefusesCudaOnlyUtils
from .descriptor_record import FillsDescriptorRecords
from .environment import emulated_arch, emulator_forced, emulator_threads, musa_device_status

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


# The emulated device's register file per multiprocessor, in 32-bit registers: 64 for each of the
# MAX_THREADS_PER_BLOCK threads a block may have (MUSA devices report theirs through
# MU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK; the emulator has none of its own).
EMULATED_REGISTERS_PER_MULTIPROCESSOR = 64 * MAX_THREADS_PER_BLOCK


def emulated_multiprocessors() -> int:
    """Blocks the emulator runs at once: its worker threads (TRITON_MUSA_EMULATOR_THREADS, else one per core)."""
    return emulator_threads() or os.cpu_count() or 1


def emulated_registers_per_thread(threads_per_block: int) -> int:
    """``n_regs`` of a kernel on the emulator, which has no registers: a worker runs one block at a time, so
    a block holds a whole emulated multiprocessor, and its threads share that multiprocessor's register file.
    Occupancy arithmetic (``max_num_regs // (n_regs * warpSize * num_warps)``) then gives the emulator's real
    occupancy, one block per multiprocessor."""
    return max(1, EMULATED_REGISTERS_PER_MULTIPROCESSOR // max(1, threads_per_block))


# The emulator's one device, named as torch names the CPU's current device (torch.cpu.current_device()).
EMULATOR_DEVICE = "cpu"


def check_emulator_device(device: Union[int, str, None]) -> None:
    """Accepts the names of the emulator's one device: "cpu" (the driver's current device), 0, or None
    (``torch.device("cpu").index``)."""
    if device not in (EMULATOR_DEVICE, 0, None):
        raise ValueError(f"the MUSA CPU emulator has one device, {EMULATOR_DEVICE!r} (or 0); got {device!r}")


class EmulatorUtils(FillsDescriptorRecords, RefusesCudaOnlyUtils):
    """``driver.utils`` of the emulator: loads kernels, describes the emulated device (see the README's
    emulator section for what each number means here)."""

    def load_binary(self, name: str, kernel: bytes, shared: int, device: int) -> Tuple[Any, Any, int, int, int]:
        from .emulator_launcher import load_tiered_kernel
        loaded = load_tiered_kernel(kernel)
        n_regs = emulated_registers_per_thread(loaded.num_warps * loaded.warp_size)
        # (module, function, n_regs, n_spills, n_max_threads): nothing is register-allocated for a device,
        # so nothing spills.
        return loaded, loaded, n_regs, 0, MAX_THREADS_PER_BLOCK

    def get_device_properties(self, device: Union[int, str, None]) -> Dict[str, Any]:
        """The emulated device's properties. ``device`` is the driver's current device ("cpu", as
        ``torch.cpu.current_device()``), 0, or None as the index of the emulator's torch device
        (``torch.device("cpu").index``)."""
        check_emulator_device(device)
        from .. import _musa_mlir  # noqa: F401  (fails early if the library is missing)
        arch = emulated_arch()
        values = {
            "max_shared_mem": arch.max_shared_memory_bytes,
            "multiprocessor_count": emulated_multiprocessors(),
            "max_num_regs": EMULATED_REGISTERS_PER_MULTIPROCESSOR,
            "warpSize": arch.warp_size,
        }
        no_hardware = ("the CPU emulator has no clocks, memory bus or caches to report (peak-throughput "
                       "estimates such as triton.testing.get_dram_gbps need a MUSA device)")
        return DeviceProperties(values, f"the MUSA CPU emulator ({arch.name})",
                                {key: no_hardware for key in ("sm_clock_rate", "mem_clock_rate", "mem_bus_width",
                                                              "l2_cache_size")})

    def set_printf_fifo_size(self, size_bytes: int) -> None:
        """Accepted and ignored: the emulator prints each device printf as it runs, with no buffer to size."""
        if int(size_bytes) <= 0:
            raise ValueError(f"printf FIFO size must be positive, got {size_bytes}")


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
    def current_device() -> str:
        return EMULATOR_DEVICE

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
