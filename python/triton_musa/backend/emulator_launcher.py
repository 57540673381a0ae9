"""Loading and launching kernels on the CPU emulator: packs Triton's launch
arguments (torch CPU tensors and scalars) into the parameter slots of a kernel
JIT-compiled by the emulator (``_musa_mlir.emulator_load``), whose object code
Triton's cache keeps for the next process (``load_kernel``). A kernel's first
launches run host code compiled quickly (LLVM's O1 pipeline and fast code
generation); from the launch ``TRITON_MUSA_EMULATOR_TIER_UP`` (default 3) on,
fully optimized code (``TieredKernel``)."""

from __future__ import annotations

import functools
import hashlib
import struct
import time
import warnings
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from .environment import (BOUNDS_ENV, bounds_check_warns, emulator_threads, object_cache_enabled, race_check,
                          tier_up_launch)
from .launch_signature import descriptor_fields, parse_descriptor_type
from .live_tensors import LiveTensors

# TRITON_MUSA_EMULATOR_BOUNDS=warn: the bytes of zeros around each tensor argument's copy that
# out-of-bounds accesses may touch, and the names the runtime's bounds check knows them by
# (emuCheckGlobal in emulator/Runtime.cpp).
MARGIN_BYTES = 1 << 20
_MARGIN_PREFIX = "out-of-bounds margin of "
_REPORT_NAME = "out-of-bounds report"
_ACCESS_KINDS = ("load", "store", "atomic")


class OutOfBoundsWarning(UserWarning):
    """A kernel accessed global memory outside its tensors (TRITON_MUSA_EMULATOR_BOUNDS=warn)."""


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
    desc = parse_descriptor_type(sig)
    if desc:
        fields = descriptor_fields(name, arg, desc.rank)
        if getattr(arg, "padding", "zero") != "zero":
            # The padding choice of a host descriptor is not in the TTGIR and the
            # lowering pads kernel-argument descriptors with zero.
            raise NotImplementedError(f"argument {name!r}: TensorDescriptor(padding={arg.padding!r}) is not supported "
                                      "by the MUSA CPU emulator yet (kernel-argument descriptors pad with zero)")
        out.extend(fields)
        return
    out.append((name, sig, arg))


def _storage(arg: Any) -> Any:
    """The torch storage behind a tensor or a ``triton.reinterpret`` view
    (``TensorWrapper``, which holds the tensor as ``base``)."""
    while not hasattr(arg, "untyped_storage") and hasattr(arg, "base"):
        arg = arg.base
    return arg.untyped_storage() if hasattr(arg, "untyped_storage") else None


@dataclass
class _MarginCopy:
    """A tensor's storage copied into the middle of a zeroed buffer MARGIN_BYTES larger on each side."""
    name: str
    original: Any  # uint8 view of the storage
    padded: Any  # uint8, MARGIN_BYTES + storage + MARGIN_BYTES

    @property
    def base(self) -> int:
        return self.padded.data_ptr() + MARGIN_BYTES

    def copy_back(self) -> None:
        self.original.copy_(self.padded[MARGIN_BYTES:MARGIN_BYTES + self.original.numel()])


class _BoundsWarnings:
    """The margins and report of one launch under TRITON_MUSA_EMULATOR_BOUNDS=warn."""

    def __init__(self) -> None:
        import torch
        self.copies: Dict[int, _MarginCopy] = {}
        self.report = torch.zeros(4, dtype=torch.int64)  # count, kind, bytes, address

    def pointer(self, storage: Any, name: str, offset: int) -> int:
        import torch
        key = storage.data_ptr()
        if key not in self.copies:
            original = torch.empty(0, dtype=torch.uint8).set_(storage)
            padded = torch.zeros(original.numel() + 2 * MARGIN_BYTES, dtype=torch.uint8)
            padded[MARGIN_BYTES:MARGIN_BYTES + original.numel()].copy_(original)
            self.copies[key] = _MarginCopy(name, original, padded)
        return self.copies[key].base + offset

    def own_storages(self) -> List[int]:
        """Bases of the storages a pointer loaded from memory must not reach: the tensors run on
        copies (a loaded pointer holds the original's address, which the kernel's writes through
        its arguments do not reach until the launch ends), the copies and the report."""
        return ([key for key in self.copies] + [c.padded.data_ptr() for c in self.copies.values()] +
                [self.report.data_ptr()])

    def buffers(self) -> List[Tuple[int, int, str]]:
        # The tensors first: the runtime takes the first buffer that holds an address.
        inner = [(c.base, c.original.numel(), c.name) for c in self.copies.values()]
        margins = [(c.padded.data_ptr(), c.padded.numel(), _MARGIN_PREFIX + c.name) for c in self.copies.values()]
        return inner + margins + [(self.report.data_ptr(), self.report.numel() * 8, _REPORT_NAME)]

    def finish(self, kernel_name: str) -> None:
        for copy in self.copies.values():
            copy.copy_back()
        count, kind, nbytes, address = (int(v) for v in self.report.tolist())
        if count == 0:
            return
        where = ""
        for c in self.copies.values():
            if c.padded.data_ptr() <= address < c.padded.data_ptr() + c.padded.numel():
                offset = address - c.base
                where = (f", {-offset} bytes before {c.name}" if offset < 0 else
                         f", {offset - c.original.numel()} bytes past the end of {c.name}")
        warnings.warn(f"kernel {kernel_name!r}: {count} global memory access(es) outside every tensor argument, "
                      f"the first a {_ACCESS_KINDS[kind % 3]} of {nbytes} bytes{where}; carried out on a zeroed "
                      f"margin of {MARGIN_BYTES} bytes around the tensor ({BOUNDS_ENV}=warn; on a GPU such accesses "
                      "read or overwrite whatever memory is there)", OutOfBoundsWarning, stacklevel=3)


class LaunchClock:
    """The time the emulator spent running kernels (the launches alone: no compile, no host JIT), which
    the autotuner's benchmarker reads (testing.do_bench_once). One per emulator device."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.launches = 0

    def add(self, seconds: float) -> None:
        self.seconds += seconds
        self.launches += 1


class EmulatorLauncher:
    """Launches a loaded kernel: Triton calls it as
    ``launcher(gx, gy, gz, stream, function, packed_metadata, launch_metadata,
    enter_hook, exit_hook, *args)`` with every kernel argument as the user
    passed it: constexprs, tuples and host tensor descriptors included.
    The device binds ``clock``, which each launch's running time is added to."""

    def __init__(self, src: Any, metadata: Any, clock: Optional[LaunchClock] = None) -> None:
        self.clock = clock
        signature = dict(getattr(src, "signature", {}) or {})
        self.arg_types: List[Signature] = [t if isinstance(t, tuple) else str(t) for t in signature.values()]
        fn = getattr(src, "fn", None)
        names = list(getattr(fn, "arg_names", []) or [])
        self.arg_names: List[str] = names if len(names) == len(self.arg_types) else [
            f"#{i}" for i in range(len(self.arg_types))
        ]
        self.kernel_name: str = getattr(metadata, "name", "kernel")

    def pack(self, kernel: Any, args: Sequence[Any],
             margins: Optional[_BoundsWarnings] = None) -> Tuple[bytes, List[Tuple[int, int, str]]]:
        """The parameter slots and the memory the kernel may touch (with ``margins``: copies of the
        tensors inside margins, which the caller copies back)."""
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
                slots += struct.pack("<Q", self._pointer(name, arg, buffers, margins))
            else:
                slots += _pack_scalar(kind, arg)
        return bytes(slots), margins.buffers() if margins else list(buffers.values())

    def _pointer(self, name: str, arg: Any, buffers: Dict[int, Tuple[int, int, str]],
                 margins: Optional[_BoundsWarnings] = None) -> int:
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
        if margins is not None:
            return margins.pointer(storage, buffers[base][2], arg.data_ptr() - base)
        return arg.data_ptr()

    def __call__(self, grid_x: int, grid_y: int, grid_z: int, stream: Any, function: Any, packed_metadata: Any,
                 launch_metadata: Any, launch_enter_hook: Any, launch_exit_hook: Any, *args: Any) -> None:
        if launch_enter_hook is not None:
            launch_enter_hook(launch_metadata)
        margins = _BoundsWarnings() if bounds_check_warns() else None
        slots, buffers = self.pack(function, args, margins)
        # An access outside every argument tensor may still be inside a live tensor the kernel
        # reached through a pointer it loaded (a table of data_ptr()s): looked up then, once.
        live = LiveTensors(margins.own_storages() if margins is not None else ())
        try:
            start = time.perf_counter()
            function.launch((grid_x, grid_y, grid_z), slots, buffers, num_workers=emulator_threads(),
                            race_check=race_check(), live_buffers=live)
            if self.clock is not None:
                self.clock.add(time.perf_counter() - start)
        finally:
            if margins is not None:
                margins.finish(self.kernel_name)
        if launch_exit_hook is not None:
            launch_exit_hook(launch_metadata)


_OBJECT_FILE = "kernel.emuobj"


@functools.lru_cache(maxsize=None)
def _host_target() -> str:
    from .. import _musa_mlir
    return _musa_mlir.emulator_host_target()


def _object_cache_key(text: str, count_instructions: bool, fast_tier: bool = False) -> str:
    """What the host object code of ``text`` depends on: the text, the instrumentation, the code
    generation tier, our library (the runtime it calls and the compiler that made it) and the host CPU
    it is compiled for."""
    from .cache_key import library_digest
    digest = hashlib.sha256()
    for part in ("emulator-object-1", library_digest(), _host_target(),
                 str(count_instructions), text) + (("fast-tier-O1",) if fast_tier else ()):
        digest.update(part.encode())
        digest.update(b"\0")
    return digest.hexdigest()


def _cached(key: str) -> Any:
    """The kernel linked from the object code cached under ``key``, or None."""
    from triton.runtime.cache import get_cache_manager
    from .. import _musa_mlir
    path = get_cache_manager(key).get_file(_OBJECT_FILE)
    if path is None:
        return None
    try:
        with open(path, "rb") as f:
            return _musa_mlir.emulator_load_cached(f.read())
    except (OSError, _musa_mlir.EmulatorError):
        return None  # unreadable or not an image of this library: compile again and replace it


def _load(text: str, count_instructions: bool, fast_tier: bool) -> Any:
    from .. import _musa_mlir
    return _musa_mlir.emulator_load(text, count_instructions=count_instructions, opt_level=1 if fast_tier else 2,
                                    fast_codegen=fast_tier)


def load_kernel(llvm_dialect: bytes | str, *, count_instructions: bool = False, fast_tier: bool = False) -> Any:
    """JIT-compiles a kernel for the emulator, or links its object code from Triton's cache, where an
    earlier load (in any process) put it; TRITON_MUSA_EMULATOR_OBJECT_CACHE=0 always compiles.
    ``fast_tier`` asks for quickly compiled host code, where the cache holds none of either kind:
    LLVM's O1 IR pipeline (half the IR time of O2 on the big kernels of Liger's MoE; bench/emulator.py's
    kernels run as fast as after O2 under fast code generation) and fast code generation."""
    from .. import _musa_mlir
    text = llvm_dialect.decode() if isinstance(llvm_dialect, bytes) else llvm_dialect
    if not object_cache_enabled():
        return _load(text, count_instructions, fast_tier)
    from triton.runtime.cache import get_cache_manager
    key = _object_cache_key(text, count_instructions, fast_tier)
    kernel = _cached(key)
    if kernel is None:
        kernel = _load(text, count_instructions, fast_tier)
        get_cache_manager(key).put(kernel.cache_image(), _OBJECT_FILE, binary=True)
    return kernel


class TieredKernel:
    """A kernel whose host code is compiled twice, as a JIT tiers up: its first launches run code from
    LLVM's O1 pipeline and fast code generation (several times cheaper to compile, 10-40% slower to run),
    and the launch ``tier_up`` compiles the fully optimized code that it and every later launch run.
    Both come from the same instrumented kernel, so every check and the lockstep semantics are the same in both.
    An autotuner's losing configs (one run each) never pay for the full compile. Where the object
    cache already holds the full code, it is used from the first launch."""

    def __init__(self, llvm_dialect: bytes | str, tier_up: int) -> None:
        self._text = llvm_dialect.decode() if isinstance(llvm_dialect, bytes) else llvm_dialect
        self._tier_up = tier_up
        self._launches = 0
        full = _cached(_object_cache_key(self._text, False)) if object_cache_enabled() else None
        self._optimized = full is not None or tier_up <= 1
        self._kernel = full if full is not None else load_kernel(self._text, fast_tier=not self._optimized)

    @property
    def tier(self) -> str:
        """``"fast"`` (quickly compiled host code) or ``"optimized"``."""
        return "optimized" if self._optimized else "fast"

    def launch(self, *args: Any, **kwargs: Any) -> Any:
        self._launches += 1
        if not self._optimized and self._launches >= self._tier_up:
            self._kernel = load_kernel(self._text)
            self._optimized = True
            self._text = ""  # no longer needed
        return self._kernel.launch(*args, **kwargs)

    # What Triton and the launcher read of a loaded kernel (the same in both tiers).
    @property
    def name(self) -> str:
        return str(self._kernel.name)

    @property
    def param_kinds(self) -> List[str]:
        return list(self._kernel.param_kinds)

    @property
    def num_warps(self) -> int:
        return int(self._kernel.num_warps)

    @property
    def warp_size(self) -> int:
        return int(self._kernel.warp_size)

    @property
    def shared_bytes(self) -> int:
        return int(self._kernel.shared_bytes)

    @property
    def host_ir(self) -> str:
        return str(self._kernel.host_ir)

    def cache_image(self) -> bytes:
        return bytes(self._kernel.cache_image())


def load_tiered_kernel(llvm_dialect: bytes | str) -> TieredKernel:
    """The launcher's kernel: fast host code first, fully optimized from the launch
    TRITON_MUSA_EMULATOR_TIER_UP (default 3) on."""
    return TieredKernel(llvm_dialect, tier_up_launch())
