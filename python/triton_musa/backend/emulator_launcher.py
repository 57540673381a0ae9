"""Loading and launching kernels on the CPU emulator: packs Triton's launch
arguments (torch CPU tensors and scalars) into the parameter slots of a kernel
JIT-compiled by the emulator (``_musa_mlir.emulator_load``)."""

from __future__ import annotations

import os
import re
import struct
from typing import Any, Dict, List, Sequence, Tuple, Union

from .emulator import RACECHECK_ENV, THREADS_ENV


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


Signature = Union[str, Tuple["Signature", ...]]
# (where, signature leaf, value) of one runtime argument after flattening.
Leaf = Tuple[str, str, Any]
_TENSORDESC = re.compile(r"tensordesc<[^\[>]*\[([^\]]*)\]")


def _flatten(name: str, sig: Signature, arg: Any, out: List[Leaf]) -> None:
    """Appends the runtime leaves of one argument in the order Triton's frontend
    lays out the kernel's parameters: tuples (namedtuples included) flattened
    depth-first, constexpr leaves dropped, a host ``TensorDescriptor`` expanded
    into its base pointer, rank i32 shapes and rank i64 strides."""
    if isinstance(sig, tuple):
        if not isinstance(arg, (tuple, list)) or len(arg) != len(sig):
            raise TypeError(f"argument {name!r} must be a tuple of {len(sig)} elements, got {arg!r}")
        for i, (sub_sig, sub_arg) in enumerate(zip(sig, arg)):
            _flatten(f"{name}[{i}]", sub_sig, sub_arg, out)
        return
    if sig == "constexpr":
        return
    if sig.startswith("tensordesc"):
        match = _TENSORDESC.match(sig)
        rank = match.group(1).count(",") + 1 if match else len(arg.shape)
        for attr in ("base", "shape", "strides"):
            if not hasattr(arg, attr):
                raise TypeError(f"argument {name!r} must be a TensorDescriptor, got {type(arg).__name__}")
        if len(arg.shape) != rank or len(arg.strides) != rank:
            raise TypeError(f"argument {name!r}: a rank-{rank} descriptor has shape {list(arg.shape)} and "
                            f"strides {list(arg.strides)}")
        if getattr(arg, "padding", "zero") != "zero":
            # The padding choice of a host descriptor is not in the TTGIR and the
            # lowering pads kernel-argument descriptors with zero.
            raise NotImplementedError(f"argument {name!r}: TensorDescriptor(padding={arg.padding!r}) is not supported "
                                      "by the MUSA CPU emulator yet (kernel-argument descriptors pad with zero)")
        out.append((f"{name}.base", "*", arg.base))
        out.extend((f"{name}.shape[{i}]", "i32", int(v)) for i, v in enumerate(arg.shape))
        out.extend((f"{name}.strides[{i}]", "i64", int(v)) for i, v in enumerate(arg.strides))
        return
    out.append((name, sig, arg))


def _storage(arg: Any) -> Any:
    """The torch storage behind a tensor or a ``triton.reinterpret`` view
    (``TensorWrapper``, which holds the tensor as ``base``)."""
    while not hasattr(arg, "untyped_storage") and hasattr(arg, "base"):
        arg = arg.base
    return arg.untyped_storage() if hasattr(arg, "untyped_storage") else None


class EmulatorLauncher:
    """Launches a loaded kernel: Triton calls it as
    ``launcher(gx, gy, gz, stream, function, packed_metadata, launch_metadata,
    enter_hook, exit_hook, *args)`` with every kernel argument as the user
    passed it: constexprs, tuples and host tensor descriptors included."""

    def __init__(self, src: Any, metadata: Any) -> None:
        signature = dict(getattr(src, "signature", {}) or {})
        self.arg_types: List[Signature] = [t if isinstance(t, tuple) else str(t) for t in signature.values()]
        fn = getattr(src, "fn", None)
        names = list(getattr(fn, "arg_names", []) or [])
        self.arg_names: List[str] = names if len(names) == len(self.arg_types) else [
            f"#{i}" for i in range(len(self.arg_types))
        ]
        self.kernel_name: str = getattr(metadata, "name", "kernel")

    def pack(self, kernel: Any, args: Sequence[Any]) -> Tuple[bytes, List[Tuple[int, int, str]]]:
        """The parameter slots and the memory the kernel may touch."""
        if len(args) != len(self.arg_types):
            raise TypeError(f"kernel {self.kernel_name!r} takes {len(self.arg_types)} arguments, got {len(args)}")
        leaves: List[Leaf] = []
        try:
            for name, ty, arg in zip(self.arg_names, self.arg_types, args):
                _flatten(name, ty, arg, leaves)
        except TypeError as e:
            raise TypeError(f"kernel {self.kernel_name!r}: {e}") from None
        kinds = list(kernel.param_kinds)
        if len(kinds) != len(leaves):
            raise RuntimeError(f"kernel {self.kernel_name!r}: the compiled kernel has {len(kinds)} parameters but "
                               f"the arguments flatten to {len(leaves)} runtime values "
                               f"({', '.join(n for n, _, _ in leaves)})")
        slots = bytearray()
        buffers: Dict[int, Tuple[int, int, str]] = {}
        for (name, ty, arg), kind in zip(leaves, kinds):
            if (kind == "ptr") != ty.startswith("*"):
                raise RuntimeError(f"kernel {self.kernel_name!r}: argument {name!r} of type {ty} lands in a "
                                   f"parameter of kind {kind!r}; the launcher and the lowering disagree on the layout")
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
        storage = _storage(arg)
        if storage is None:
            raise TypeError(f"kernel {self.kernel_name!r}: argument {name!r} ({type(arg).__name__}) has no torch "
                            "storage the emulator can check accesses against")
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
