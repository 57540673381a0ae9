"""The MUSA runtime driver.

Triton scans this module for the one concrete ``DriverBase`` subclass and asks
each backend's driver ``is_active()``; exactly one must answer True. Ours is
active in two cases:

* a MUSA device is usable through torch_musa (kernel launch on the device is
  not built yet: everything that needs it raises NotImplementedError);
* the CPU emulator is active (``emulator.emulator_active()``: no MUSA device and
  no other GPU driver, or forced with ``TRITON_MUSA_EMULATOR=1``): kernels run
  on torch CPU tensors, on the emulated ``TRITON_MUSA_ARCH`` (default mp_31).
"""

from __future__ import annotations

from typing import Any, NoReturn

from triton.backends.compiler import GPUTarget
from triton.backends.driver import Benchmarker, DriverBase

from . import emulator
from .emulator_launcher import EmulatorLauncher
from .target import arch_from_capability

_LAUNCH_MISSING = ("MUSA kernel launch is not implemented yet in triton-musa: kernels compile to TTGIR only; "
                   "use triton.compile(...) to inspect the IR")


def _launch_missing(what: str) -> NoReturn:
    raise NotImplementedError(f"{what}: {_LAUNCH_MISSING}")


def _torch_musa() -> Any:
    """``torch.musa`` after importing torch_musa (which registers it)."""
    import torch
    import torch_musa  # noqa: F401  (registers torch.musa and the "musa" device)
    return torch.musa


class MusaUtils:
    """Binary loading and device queries, as Triton's CompiledKernel expects of ``driver.utils``."""

    def load_binary(self, name: str, kernel: bytes, shared: int, device: int) -> NoReturn:
        _launch_missing(f"loading kernel {name!r}")

    def get_device_properties(self, device: int) -> NoReturn:
        _launch_missing("querying device properties for launch")


class MusaLauncher:
    """Placeholder for the generated launcher; constructing it is the first launch step."""

    def __init__(self, src: Any, metadata: Any) -> None:
        _launch_missing(f"launching {getattr(metadata, 'name', 'kernel')!r}")


_CPP_SCALAR_TYPES = {
    "i1": "int8_t",
    "i8": "int8_t",
    "i16": "int16_t",
    "i32": "int32_t",
    "i64": "int64_t",
    "u1": "uint8_t",
    "u8": "uint8_t",
    "u16": "uint16_t",
    "u32": "uint32_t",
    "u64": "uint64_t",
    # Floats travel as double through the Python launcher and are narrowed in C.
    "fp16": "double",
    "bf16": "double",
    "fp32": "double",
    "f32": "double",
    "fp64": "double",
}


class MusaDriver(DriverBase):
    """Runtime for a MUSA device visible through torch_musa, or for the CPU emulator."""

    def __init__(self) -> None:
        super().__init__()
        self.emulated = emulator.emulator_active()
        if self.emulated:
            self.utils = emulator.EmulatorUtils()
            self.launcher_cls = EmulatorLauncher
        else:
            self.utils = MusaUtils()
            self.launcher_cls = MusaLauncher

    @classmethod
    def is_active(cls) -> bool:
        if emulator.emulator_active():
            return True
        try:
            return bool(_torch_musa().is_available())
        except Exception:  # no torch / torch_musa, or a broken install: not our device
            return False

    # Device and stream access through torch.musa (mirrors torch.cuda); the
    # emulator has one device, 0, whose launches are synchronous (stream 0).
    def get_current_device(self) -> int:
        return 0 if self.emulated else _torch_musa().current_device()

    def set_current_device(self, device: int) -> None:
        if not self.emulated:
            _torch_musa().set_device(device)

    def get_current_stream(self, device: int | None = None) -> int:
        if self.emulated:
            return 0
        musa = _torch_musa()
        return musa.current_stream(device).musa_stream

    def get_device_capability(self, device: int | None = None) -> tuple[int, int]:
        if self.emulated:
            arch = emulator.emulated_arch()
            return (arch.major, arch.minor)
        return tuple(_torch_musa().get_device_capability(device))

    def get_current_target(self) -> GPUTarget:
        if self.emulated:
            arch = emulator.emulated_arch()
        else:
            major, minor = self.get_device_capability(self.get_current_device())
            arch = arch_from_capability(major, minor)
        return GPUTarget("musa", arch.name, arch.warp_size)

    def get_active_torch_device(self) -> Any:
        import torch
        if self.emulated:
            return torch.device("cpu")
        return torch.device("musa", self.get_current_device())

    def get_device_interface(self) -> Any:
        if self.emulated:
            return emulator.EmulatorDeviceInterface
        return _torch_musa()

    def map_python_to_cpp_type(self, ty: str) -> str:
        if ty.startswith("*"):
            return "MUdeviceptr"
        if ty.startswith("tensordesc"):
            return "MUtensorDescriptor"
        try:
            return _CPP_SCALAR_TYPES[ty]
        except KeyError:
            raise ValueError(f"no C type for Triton argument type {ty!r} on MUSA") from None

    def get_benchmarker(self) -> Benchmarker:
        if self.emulated:
            return emulator.do_bench
        from triton.testing import do_bench
        return do_bench

    def get_empty_cache_for_benchmark(self) -> Any:
        import torch
        if self.emulated:
            # Larger than the last-level cache a worker core sees.
            return torch.empty(32 * 1024 * 1024 // 4, dtype=torch.int)
        # Larger than any MUSA L2, so zeroing it evicts the benchmark's inputs.
        cache_bytes = 256 * 1024 * 1024
        return torch.empty(cache_bytes // 4, dtype=torch.int, device="musa")

    def clear_cache(self, cache: Any) -> None:
        cache.zero_()
