"""The two devices the MUSA driver can run kernels on: a MUSA GPU seen through
torch_musa (``MusaDevice``) and the CPU emulator (``EmulatorDevice``). The
driver picks one, once, per process (``choose_device``).

The probe that says whether the MUSA device is usable, and why not, is
``environment.musa_device_status``.
"""

from __future__ import annotations

import functools

from typing import Any, Optional, Tuple, Type, Union

from . import emulator
from .environment import arch_override, emulated_arch
from .musa_utils import torch_musa_module
from .target import MusaArch, arch_from_capability


def _device_utils() -> Any:
    """``MusaUtils`` that refuses a kernel compiled without the SDK (LLVM IR text, no mubin) with the
    toolchain's message instead of handing the text to ``muModuleLoadData``."""
    from .musa_utils import MusaUtils

    class DeviceUtils(MusaUtils):
        def load_binary(self, name: str, kernel: Any, shared: int, device: int) -> Tuple[Any, Any, int, int, int]:
            if not isinstance(kernel, (bytes, bytearray)):
                from .toolchain import find_toolchain
                find_toolchain()  # raises MusaToolchainNotFound, naming where llc was searched
                raise RuntimeError(f"kernel {name!r} was compiled without the MUSA SDK (LLVM IR, no mubin); "
                                   "compile it again now that the SDK is found (TRITON_ALWAYS_COMPILE=1)")
            return super().load_binary(name, kernel, shared, device)

    return DeviceUtils()


class MusaDevice:
    """Kernels on a MUSA GPU through the driver API, on torch_musa's current stream."""

    emulated = False

    def __init__(self) -> None:
        from .launcher import MusaLauncher
        self.utils = _device_utils()
        self.launcher_cls: Type[Any] = MusaLauncher

    def current_device(self) -> int:
        return int(torch_musa_module().current_device())

    def set_current_device(self, device: int) -> None:
        torch_musa_module().set_device(device)

    def current_stream(self, device: Optional[int]) -> int:
        musa = torch_musa_module()
        return int(musa.current_stream(device).musa_stream)

    def capability(self, device: Optional[int]) -> Tuple[int, int]:
        major, minor = torch_musa_module().get_device_capability(device)
        return int(major), int(minor)

    def arch(self) -> MusaArch:
        return arch_override() or arch_from_capability(*self.capability(self.current_device()))

    def torch_device(self) -> Any:
        import torch
        return torch.device("musa", self.current_device())

    def device_interface(self) -> Any:
        return torch_musa_module()

    def empty_cache_for_benchmark(self) -> Any:
        """A buffer twice the device's L2, so zeroing it evicts the benchmark's inputs."""
        import torch
        l2_bytes = self.utils.get_device_properties(self.current_device()).get("l2_cache_size", 0)
        size = max(2 * int(l2_bytes), 64 * 1024 * 1024)
        return torch.empty(size // 4, dtype=torch.int, device="musa")


class EmulatorDevice:
    """Kernels on the CPU emulator, on torch CPU tensors (launches are synchronous, stream 0)."""

    emulated = True

    def __init__(self) -> None:
        from .emulator_launcher import EmulatorLauncher, LaunchClock
        self.utils = emulator.EmulatorUtils()
        # The time spent in launches, for the autotuner's benchmarker (testing.do_bench_once).
        self.launch_clock = LaunchClock()
        self.launcher_cls: Any = functools.partial(EmulatorLauncher, clock=self.launch_clock)

    def current_device(self) -> Union[int, str]:
        """The emulator's device is the CPU, and the current device is what torch names it
        (``torch.cpu.current_device()``, "cpu"), so the generic ``getattr(torch, device).current_device()``
        gives the key Triton files the compiled kernels under, as it does on a GPU."""
        return emulator.EMULATOR_DEVICE

    def set_current_device(self, device: Union[int, str]) -> None:
        emulator.check_emulator_device(device)

    def current_stream(self, device: Optional[int]) -> int:
        return 0

    def capability(self, device: Optional[int]) -> Tuple[int, int]:
        arch = self.arch()
        return arch.major, arch.minor

    def arch(self) -> MusaArch:
        return emulated_arch()

    def torch_device(self) -> Any:
        import torch
        return torch.device("cpu")

    def device_interface(self) -> Any:
        return emulator.EmulatorDeviceInterface

    def empty_cache_for_benchmark(self) -> Any:
        import torch
        # Larger than the last-level cache a worker core sees.
        return torch.empty(32 * 1024 * 1024 // 4, dtype=torch.int)


def choose_device() -> Any:
    """The emulator where it is active (forced, or no MUSA device and no other GPU driver), else the MUSA GPU."""
    return EmulatorDevice() if emulator.emulator_active() else MusaDevice()

