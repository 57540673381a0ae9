"""The tensor-descriptor record that ``driver.active.utils.fill_{1,2}d_tma_descriptor`` write into a host
buffer, for kernels that take a pointer to it (Triton 3.1/3.2's ``tl._experimental_descriptor_load`` over a
descriptor in global memory: Moore Threads' own Triton and FlagGems' MUSA matmuls). The caller copies the
buffer to the device and passes its address; ``triton_musa.language.experimental_descriptor`` reads the
record there and makes a 3.6 tensor descriptor of it in the kernel.

MT's Triton writes a 64-byte MUSA TME descriptor; ours writes a record of the same 64 bytes with the
global tensor's address, shape and row stride, which every target reads (the emulator, the GPU proxy, a MUSA
device): the tiles move by the kernel's loads, not by TME from the address.

Layout, little-endian: u32 magic, u32 rank, u32 element size, u32 0; u64 base address; u64 dims[2]
(outermost first; 1-D: dims[1] = 0); u64 row stride in elements (1-D: 1); u32 block dims[2]; 8 zero bytes.
"""

from __future__ import annotations

import ctypes
import struct
from typing import Any, Sequence

RECORD_BYTES = 64
MAGIC = 0x5244554D  # "MUDR"
# Byte offsets of the fields the kernel reads (as i64 words: 16 -> word 2 ...).
BASE_OFFSET = 16
DIMS_OFFSET = 24
ROW_STRIDE_OFFSET = 40
_LAYOUT = struct.Struct("<IIIIQQQQII8x")
assert _LAYOUT.size == RECORD_BYTES

# What TME (and so MT's descriptors) can move: 16-byte aligned rows, at most 256 elements per box dim.
_MAX_BOX = 256


def _check(what: str, ptr: int, dims: Sequence[int], block_dims: Sequence[int], element_size: int) -> None:
    if element_size not in (1, 2, 4, 8):
        raise ValueError(f"{what}: element_size must be 1, 2, 4 or 8 bytes, got {element_size}")
    if ptr % 16:
        raise ValueError(f"{what}: the tensor's address {ptr:#x} is not 16-byte aligned, as a TME descriptor's "
                         "base must be")
    for name, values in (("dims", dims), ("block dims", block_dims)):
        if any(int(v) <= 0 for v in values):
            raise ValueError(f"{what}: {name} must be positive, got {list(values)}")
    if any(int(b) > _MAX_BOX for b in block_dims):
        raise ValueError(f"{what}: block dims {list(block_dims)} exceed TME's {_MAX_BOX} elements per dimension")
    if len(dims) == 2 and (int(dims[1]) * element_size) % 16:
        raise ValueError(f"{what}: a row of {dims[1]} x {element_size}-byte elements is not a multiple of 16 "
                         "bytes, as a TME descriptor's row stride must be")


def _write(what: str, buffer: Any, record: bytes) -> None:
    """Writes `record` into `buffer`: a host address (int), a tensor (``data_ptr``) or a writable buffer."""
    if isinstance(buffer, int):
        if buffer == 0:
            raise ValueError(f"{what}: the descriptor buffer's address is 0")
        ctypes.memmove(buffer, record, len(record))
        return
    if hasattr(buffer, "data_ptr"):
        device = getattr(buffer, "device", None)
        if device is not None and getattr(device, "type", "cpu") != "cpu":
            raise ValueError(f"{what}: the descriptor buffer is on {device}; fill a host (CPU) buffer and copy "
                             "it to the device")
        nbytes = buffer.numel() * buffer.element_size()
        if nbytes < len(record):
            raise ValueError(f"{what}: the descriptor buffer holds {nbytes} bytes, the descriptor {len(record)}")
        ctypes.memmove(buffer.data_ptr(), record, len(record))
        return
    view = memoryview(buffer).cast("B")
    if view.readonly or view.nbytes < len(record):
        raise ValueError(f"{what}: the descriptor buffer must be writable and hold {len(record)} bytes, got "
                         f"{view.nbytes}{' read-only' if view.readonly else ''}")
    view[:len(record)] = record


def encode(ptr: int, dims: Sequence[int], block_dims: Sequence[int], element_size: int) -> bytes:
    """The record of a contiguous tensor at `ptr` (dims outermost first)."""
    rank = len(dims)
    padded_dims = [int(d) for d in dims] + [0] * (2 - rank)
    padded_blocks = [int(b) for b in block_dims] + [0] * (2 - rank)
    row_stride = int(dims[1]) if rank == 2 else 1
    return _LAYOUT.pack(MAGIC, rank, element_size, 0, ptr, *padded_dims, row_stride, *padded_blocks)


def fill(what: str, ptr: int, dims: Sequence[int], block_dims: Sequence[int], element_size: int,
         buffer: Any) -> None:
    """Checks the tensor as a TME descriptor needs it and writes its record into `buffer`."""
    _check(what, ptr, dims, block_dims, element_size)
    _write(what, buffer, encode(ptr, dims, block_dims, element_size))


class FillsDescriptorRecords:
    """Mixin for ``driver.active.utils``: MT's (and Triton 3.1/3.2's) host-side descriptor fillers."""

    def fill_1d_tma_descriptor(self, ptr: int, dim: int, block_dim: int, element_size: int, desc: Any) -> None:
        fill("fill_1d_tma_descriptor", int(ptr), [dim], [block_dim], int(element_size), desc)

    def fill_2d_tma_descriptor(self, ptr: int, dim1: int, dim0: int, block_dim1: int, block_dim0: int,
                               element_size: int, desc: Any) -> None:
        fill("fill_2d_tma_descriptor", int(ptr), [dim1, dim0], [block_dim1, block_dim0], int(element_size), desc)
