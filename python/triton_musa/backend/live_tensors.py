"""The memory a kernel on the CPU emulator may reach besides its arguments: every live torch CPU
storage, for kernels that load pointers from memory (grouped GEMM, MoE expert tables, batched
kernels over lists of tensors pass an int64 tensor of ``data_ptr()``s).

The runtime checks every global access against the launch's argument tensors first; only an access
inside none of them asks for this list, once per launch (``live_buffers`` of
``EmulatedKernel.launch``). The list is exact: it holds the storages of the tensors (and bare
storages) that are alive in this process when it is asked, found through the garbage collector's
list of objects, so freed memory and memory torch never allocated stay out of bounds. The
storages found are kept alive until the launch ends.

What it cannot see: memory no Python object refers to (a tensor only C++ holds, e.g. one saved
for autograd and dropped by the user) and memory torch does not own (a NumPy array, a ctypes
buffer). Pass such memory as a tensor argument, or keep a tensor of it alive.
"""

from __future__ import annotations

import gc
from typing import Any, Collection, List, Tuple

Buffer = Tuple[int, int, str]


def _storage_of(obj: Any, torch: Any) -> Any:
    """The untyped storage of a live CPU tensor or storage object, or None. By ``type(obj)``: ``isinstance``
    would ask every object on the heap for its ``__class__``, which some answer with a warning."""
    kind = type(obj)
    try:
        if issubclass(kind, torch.Tensor):
            if obj.device.type != "cpu" or obj.layout != torch.strided:
                return None
            return obj.untyped_storage()
        if issubclass(kind, torch.UntypedStorage):
            return obj if obj.device.type == "cpu" else None
        if issubclass(kind, torch.TypedStorage):
            return obj.untyped_storage() if obj.device.type == "cpu" else None
    except Exception:  # noqa: BLE001  (tensors without storage: fake, functional, nested ...)
        return None
    return None


class LiveTensors:
    """The ``live_buffers`` lookup of one launch: call it for the live storages as
    (base, bytes, name); it keeps what it found alive until it is dropped."""

    def __init__(self, exclude: Collection[int] = ()) -> None:
        # Storage bases the kernel must not reach this way (the launcher's own copies).
        self.exclude = frozenset(exclude)
        self.kept: List[Any] = []

    def __call__(self) -> List[Buffer]:
        import torch
        seen = {}
        for obj in gc.get_objects():
            storage = _storage_of(obj, torch)
            if storage is None:
                continue
            base, nbytes = storage.data_ptr(), storage.nbytes()
            if nbytes == 0 or base in self.exclude or (base, nbytes) in seen:
                continue
            seen[(base, nbytes)] = storage
        self.kept = list(seen.values())
        return [(base, nbytes, "a live tensor's storage") for base, nbytes in seen]
