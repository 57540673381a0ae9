"""The CPU emulator's side of the backend: when it is active, how kernels are
lowered for it, and how they are loaded and launched on torch CPU tensors.

The emulator runs kernels compiled by the same pipeline as for a MUSA device
(same passes, layouts, shared-memory plan), lowered with
``convert-tritongpu-to-musa{target=emulator}`` so that thread ids, barriers,
warp shuffles and ballots become calls into the emulator runtime
(``emulator/`` in the C++ library): each GPU thread is a fiber, blocks run in
parallel on all cores, and every global access is checked against the
tensors passed in.

Environment:
  ``TRITON_MUSA_EMULATOR``  ``1`` forces the emulator even where a MUSA device
      exists; ``0`` disables it. Unset: active where neither a MUSA device
      (torch_musa) nor another Triton GPU driver is active.
  ``TRITON_MUSA_ARCH``  the emulated architecture, ``mp_31`` (default, warp
      32) or ``mp_22`` (warp 128).
  ``TRITON_MUSA_EMULATOR_THREADS``  worker threads (default: all cores).
  ``TRITON_MUSA_EMULATOR_RACECHECK``  ``1`` reports conflicting shared-memory
      accesses of two threads with no barrier between them (slower; debug).
"""

from __future__ import annotations

import functools
import os
import re
import struct
import time
import warnings
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .target import MusaArch, parse_arch

EMULATOR_ENV = "TRITON_MUSA_EMULATOR"
ARCH_ENV = "TRITON_MUSA_ARCH"
THREADS_ENV = "TRITON_MUSA_EMULATOR_THREADS"
RACECHECK_ENV = "TRITON_MUSA_EMULATOR_RACECHECK"
DEFAULT_ARCH = "mp_31"
# MUSA GPUs run at most 1024 threads per block.
MAX_THREADS_PER_BLOCK = 1024


def musa_device_available() -> bool:
    """True where torch_musa is installed and sees a device."""
    try:
        import torch  # noqa: F401
        import torch_musa  # noqa: F401  (registers torch.musa)
        import torch as _torch
        return bool(_torch.musa.is_available())
    except Exception:  # no torch / torch_musa, or a broken install
        return False


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


@functools.lru_cache(maxsize=None)
def emulator_active() -> bool:
    """Whether kernels run on the CPU emulator in this process (decided once)."""
    forced = emulator_forced()
    if forced is not None:
        return forced
    return not musa_device_available() and not _other_gpu_driver_active()


def emulated_arch() -> MusaArch:
    return parse_arch(os.environ.get(ARCH_ENV, DEFAULT_ARCH))


# --------------------------------------------------------------------------- lowering


def emulator_pipeline(device_pipeline: str, arch: MusaArch) -> str:
    """The device lowering pipeline with the conversion retargeted to the emulator."""
    device_pass = f"convert-tritongpu-to-musa{{arch={arch.name}}}"
    if device_pass not in device_pipeline:
        raise ValueError(f"cannot find '{device_pass}' in the lowering pipeline {device_pipeline!r}")
    return device_pipeline.replace(device_pass, f"convert-tritongpu-to-musa{{arch={arch.name} target=emulator}}")


def lower_for_emulator(ttgir: str, arch: MusaArch, *, source_name: str = "kernel.ttgir") -> Tuple[str, str]:
    """TTGIR -> LLVM dialect for the emulator target; returns (pipeline, module text)."""
    from .. import _musa_mlir
    from .lowering import lowering_pipeline

    pipeline = emulator_pipeline(lowering_pipeline(arch), arch)
    if os.environ.get("MLIR_ENABLE_DUMP") == "1":
        print(f"// triton-musa: musa-opt '--pass-pipeline={pipeline}' {source_name}")
    module = _musa_mlir.parse(ttgir, source_name=source_name)
    module.run_pipeline(pipeline)
    return pipeline, str(module)


_SHARED_ATTR = re.compile(r'"?ttg\.shared"?\s*=\s*(\d+)')


def shared_bytes_of(llvm_dialect: str) -> int:
    match = _SHARED_ATTR.search(llvm_dialect)
    return int(match.group(1)) if match else 0


# --------------------------------------------------------------------------- launching


def _pack_scalar(kind: str, value: Any) -> bytes:
    """One little-endian 8-byte slot for a scalar parameter of LLVM kind ``kind``."""
    if kind in ("f16", "bf16", "f32", "f64"):
        value = float(value)
        if kind == "f64":
            return struct.pack("<d", value)
        if kind == "f32":
            return struct.pack("<f", value) + bytes(4)
        if kind == "f16":
            return struct.pack("<e", value) + bytes(6)
        bits = struct.unpack("<I", struct.pack("<f", value))[0]
        rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16  # round to nearest even
        return struct.pack("<H", rounded & 0xFFFF) + bytes(6)
    if kind.startswith("i"):
        bits = int(kind[1:])
        return struct.pack("<Q", int(value) & ((1 << bits) - 1))
    raise TypeError(f"cannot pass a parameter of kind {kind!r}")


class EmulatorLauncher:
    """Launches a loaded kernel: Triton calls it as
    ``launcher(gx, gy, gz, stream, function, packed_metadata, launch_metadata,
    enter_hook, exit_hook, *args)`` with every kernel argument, constexprs included."""

    def __init__(self, src: Any, metadata: Any) -> None:
        signature = dict(getattr(src, "signature", {}) or {})
        self.arg_types: List[str] = [str(t) for t in signature.values()]
        fn = getattr(src, "fn", None)
        names = list(getattr(fn, "arg_names", []) or [])
        self.arg_names: List[str] = names if len(names) == len(self.arg_types) else [
            f"#{i}" for i in range(len(self.arg_types))
        ]
        self.kernel_name: str = getattr(metadata, "name", "kernel")
        for name, ty in zip(self.arg_names, self.arg_types):
            if ty.startswith("tensordesc") or ty.startswith("("):
                raise NotImplementedError(f"kernel {self.kernel_name!r}: argument {name!r} of type {ty} "
                                          "is not supported by the MUSA CPU emulator yet")

    def pack(self, kernel: Any, args: Sequence[Any]) -> Tuple[bytes, List[Tuple[int, int, str]]]:
        """The parameter slots and the memory the kernel may touch."""
        if len(args) != len(self.arg_types):
            raise TypeError(f"kernel {self.kernel_name!r} takes {len(self.arg_types)} arguments, got {len(args)}")
        runtime = [(n, t, a) for n, t, a in zip(self.arg_names, self.arg_types, args) if t != "constexpr"]
        kinds = list(kernel.param_kinds)
        if len(kinds) != len(runtime):
            raise RuntimeError(f"kernel {self.kernel_name!r}: the compiled kernel has {len(kinds)} parameters but "
                               f"the signature has {len(runtime)} non-constexpr arguments")
        slots = bytearray()
        buffers: Dict[int, Tuple[int, int, str]] = {}
        for (name, ty, arg), kind in zip(runtime, kinds):
            if kind == "ptr":
                slots += struct.pack("<Q", self._pointer(name, arg, buffers))
            else:
                slots += _pack_scalar(kind, arg)
        return bytes(slots), list(buffers.values())

    def _pointer(self, name: str, arg: Any, buffers: Dict[int, Tuple[int, int, str]]) -> int:
        if arg is None:
            return 0
        if isinstance(arg, int):
            return arg  # a raw address: no buffer is known, so any access through it is reported
        if not hasattr(arg, "data_ptr"):
            raise TypeError(f"kernel {self.kernel_name!r}: argument {name!r} must be a tensor, got {type(arg).__name__}")
        device = getattr(arg, "device", None)
        if device is not None and getattr(device, "type", "cpu") != "cpu":
            raise ValueError(f"kernel {self.kernel_name!r}: argument {name!r} is on {device}; the MUSA CPU emulator "
                             "runs kernels on torch CPU tensors")
        storage = arg.untyped_storage()
        base, nbytes = storage.data_ptr(), storage.nbytes()
        if base not in buffers:
            buffers[base] = (base, nbytes, f"argument '{name}'")
        return arg.data_ptr()

    def __call__(self, grid_x: int, grid_y: int, grid_z: int, stream: Any, function: Any, packed_metadata: Any,
                 launch_metadata: Any, launch_enter_hook: Any, launch_exit_hook: Any, *args: Any) -> None:
        if launch_enter_hook is not None:
            launch_enter_hook(launch_metadata)
        slots, buffers = self.pack(function, args)
        function.launch((grid_x, grid_y, grid_z), slots, buffers, num_workers=num_workers(),
                        race_check=os.environ.get(RACECHECK_ENV) == "1")
        if launch_exit_hook is not None:
            launch_exit_hook(launch_metadata)


def num_workers() -> int:
    value = os.environ.get(THREADS_ENV)
    return int(value) if value else 0


def load_kernel(llvm_dialect: bytes | str, *, count_instructions: bool = False) -> Any:
    from .. import _musa_mlir
    text = llvm_dialect.decode() if isinstance(llvm_dialect, bytes) else llvm_dialect
    return _musa_mlir.emulator_load(text, count_instructions=count_instructions)


class EmulatorUtils:
    """``driver.utils`` of the emulator: loads kernels, describes the emulated device."""

    def load_binary(self, name: str, kernel: bytes, shared: int, device: int) -> Tuple[Any, Any, int, int, int]:
        loaded = load_kernel(kernel)
        # (module, function, n_regs, n_spills, n_max_threads)
        return loaded, loaded, 0, 0, MAX_THREADS_PER_BLOCK

    def get_device_properties(self, device: int) -> Dict[str, Any]:
        from .. import _musa_mlir  # noqa: F401  (fails early if the library is missing)
        arch = emulated_arch()
        return {
            "max_shared_mem": 196608 if arch.name == "mp_31" else 73728,
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


_warned_bench = False


def do_bench(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """``triton.testing.do_bench`` on the emulator: the times are the CPU emulator's, not a MUSA GPU's."""
    global _warned_bench
    if not _warned_bench:
        _warned_bench = True
        warnings.warn("triton-musa: benchmarking on the CPU emulator: times measure the emulator, "
                      "not a MUSA GPU", stacklevel=2)
    from triton.testing import do_bench as triton_do_bench
    return triton_do_bench(fn, *args, **kwargs)
