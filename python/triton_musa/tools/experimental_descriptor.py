"""The older ``triton.tools.experimental_descriptor`` helpers, mapped onto
``triton.tools.tensor_descriptor.TensorDescriptor``.

``create_{1,2,3}d_tma_descriptor(ptr, dims..., block_dims..., element_size)``
describe a dense row-major tensor (outermost dimension first). ``ptr`` is a
tensor (its dtype is kept) or a raw device address (an unsigned integer type of
``element_size`` bytes is assumed: MUSA TME descriptors only record the
element size). Kernels read the result with ``tl.load_tensor_descriptor``.
"""

from __future__ import annotations

from typing import Any, List, Sequence

__all__ = ["create_1d_tma_descriptor", "create_2d_tma_descriptor", "create_3d_tma_descriptor"]


class _RawBuffer:
    """Just enough of a tensor (``data_ptr``, ``dtype``) for a TensorDescriptor over a raw address."""

    def __init__(self, address: int, element_size: int) -> None:
        import torch
        dtypes = {1: torch.uint8, 2: torch.uint16, 4: torch.uint32, 8: torch.uint64}
        if element_size not in dtypes:
            raise ValueError(f"element_size must be one of {sorted(dtypes)} bytes, got {element_size}")
        self.address = address
        self.dtype = dtypes[element_size]

    def data_ptr(self) -> int:
        return self.address


def _descriptor(ptr: Any, dims: Sequence[int], block_dims: Sequence[int], element_size: int) -> Any:
    from triton.tools.tensor_descriptor import TensorDescriptor
    if hasattr(ptr, "data_ptr"):
        base = ptr
        if base.dtype.itemsize != element_size:
            raise ValueError(f"element_size={element_size} does not match the tensor's dtype {base.dtype} "
                             f"({base.dtype.itemsize} bytes)")
    else:
        base = _RawBuffer(int(ptr), element_size)
    shape: List[int] = [int(d) for d in dims]
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = strides[i + 1] * shape[i + 1]
    return TensorDescriptor(base, shape, strides, [int(b) for b in block_dims])


def create_1d_tma_descriptor(ptr: Any, dim: int, block_dim: int, element_size: int) -> Any:
    return _descriptor(ptr, [dim], [block_dim], element_size)


def create_2d_tma_descriptor(ptr: Any, dim1: int, dim0: int, block_dim1: int, block_dim0: int,
                             element_size: int) -> Any:
    """``dim0``/``block_dim0`` are the innermost (contiguous) dimension, as in the original helper."""
    return _descriptor(ptr, [dim1, dim0], [block_dim1, block_dim0], element_size)


def create_3d_tma_descriptor(ptr: Any, dim2: int, dim1: int, dim0: int, block_dim2: int, block_dim1: int,
                             block_dim0: int, element_size: int) -> Any:
    return _descriptor(ptr, [dim2, dim1, dim0], [block_dim2, block_dim1, block_dim0], element_size)
