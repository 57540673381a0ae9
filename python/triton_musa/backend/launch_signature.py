"""What both launchers (the device's, launcher.py, and the emulator's, emulator_launcher.py) read of a
kernel's signature the same way: a tensor descriptor argument (``tensordesc<f16[64, 64]>``) is passed as its
base pointer, then its rank sizes (i32), then its rank strides (i64), in the order Triton's frontend lays
out the kernel's parameters."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, List, Optional, Tuple

_TENSORDESC = re.compile(r"tensordesc<([^\[>]*)\[([^\]]*)\]")


@dataclass(frozen=True)
class DescriptorType:
    """A ``tensordesc<...>`` signature entry: its element type and block rank."""
    element: str
    rank: int


def parse_descriptor_type(sig: str) -> Optional[DescriptorType]:
    """The descriptor type of signature entry `sig`, or None where it is not a tensor descriptor."""
    match = _TENSORDESC.match(sig)
    if match is None:
        return None
    return DescriptorType(match.group(1).strip(), match.group(2).count(",") + 1)


def descriptor_fields(name: str, arg: Any, rank: int) -> List[Tuple[str, str, Any]]:
    """(where, kind, value) of the parameters a host ``TensorDescriptor`` argument `name` of `rank` is
    passed as: the base (kind "*"), the sizes ("i32"), the strides ("i64"); a TypeError for another
    object or another rank."""
    for attr in ("base", "shape", "strides"):
        if not hasattr(arg, attr):
            raise TypeError(f"argument {name!r} must be a TensorDescriptor, got {type(arg).__name__}")
    if len(arg.shape) != rank or len(arg.strides) != rank:
        raise TypeError(f"argument {name!r}: a rank-{rank} descriptor has shape {list(arg.shape)} and "
                        f"strides {list(arg.strides)}")
    fields: List[Tuple[str, str, Any]] = [(f"{name}.base", "*", arg.base)]
    fields += [(f"{name}.shape[{i}]", "i32", int(v)) for i, v in enumerate(arg.shape)]
    fields += [(f"{name}.strides[{i}]", "i64", int(v)) for i, v in enumerate(arg.strides)]
    return fields
