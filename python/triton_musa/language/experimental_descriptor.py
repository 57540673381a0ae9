"""Triton 3.1/3.2's device-side descriptor API, ``tl._experimental_descriptor_load`` and
``tl._experimental_descriptor_store``, which Triton 3.6 removed and code written for Moore Threads' own
Triton (FlagGems' MUSA matmuls) still calls. The backend enters both into ``triton.language`` when it
loads (``backend/surface.py``).

They read and write a tile through a descriptor the kernel takes as an argument: the
``TensorDescriptor`` that ``triton.tools.experimental_descriptor.create_{1,2,3}d_tma_descriptor``
return here (3.6's descriptors), so each is the 3.6 ``desc.load``/``desc.store``. Where the
descriptor was made over a raw address, its elements are unsigned integers of the element size and
the tile is bitcast to ``dtype``. A pointer to a descriptor filled in global memory (MT's
``fill_2d_tma_descriptor``) is not supported yet and is a named error.
"""

from __future__ import annotations

from typing import Any, Sequence

from triton.language import core

__all__ = ["_experimental_descriptor_load", "_experimental_descriptor_store"]


def _descriptor(desc: Any, api: str) -> core.tensor_descriptor_base:
    if isinstance(desc, core.tensor_descriptor_base):
        return desc
    raise TypeError(f"tl.{api} takes the descriptor that triton.tools.experimental_descriptor's "
                    f"create_{{1,2,3}}d_tma_descriptor returns (a kernel argument), got {desc}; a pointer to a "
                    f"descriptor filled in global memory (fill_2d_tma_descriptor) is not supported on MUSA yet")


def _as_dtype(value: core.tensor, dtype: core.dtype, api: str, _semantic: Any) -> core.tensor:
    """`value` as `dtype`: the same bits where the element sizes agree."""
    if value.dtype == dtype:
        return value
    if value.dtype.primitive_bitwidth != dtype.primitive_bitwidth:
        raise TypeError(f"tl.{api}: the descriptor's elements are {value.dtype}, which {dtype} cannot "
                        f"reinterpret (the element sizes differ)")
    return _semantic.bitcast(value, dtype)


@core.builtin
def _experimental_descriptor_load(desc_pointer: Any, offsets: Sequence[Any], shape: Sequence[Any], dtype: Any,
                                  _semantic: Any = None) -> core.tensor:
    """The `shape` tile at `offsets` through the descriptor, as `dtype` elements."""
    desc = _descriptor(desc_pointer, "_experimental_descriptor_load")
    shape = [core._unwrap_if_constexpr(s) for s in shape]
    if shape != list(desc.block_shape):
        raise ValueError(f"tl._experimental_descriptor_load: shape {shape} is not the descriptor's block "
                         f"{list(desc.block_shape)}")
    value = desc.load(offsets, _semantic=_semantic)
    return _as_dtype(value, core._unwrap_if_constexpr(dtype), "_experimental_descriptor_load", _semantic)


@core.builtin
def _experimental_descriptor_store(desc_pointer: Any, value: Any, offsets: Sequence[Any],
                                   _semantic: Any = None) -> Any:
    """Stores the tile `value` at `offsets` through the descriptor."""
    desc = _descriptor(desc_pointer, "_experimental_descriptor_store")
    value = _semantic.to_tensor(value)
    value = _as_dtype(value, desc.dtype, "_experimental_descriptor_store", _semantic)
    return desc.store(offsets, value, _semantic=_semantic)


def install(language: Any) -> None:
    """Enters both into ``triton.language`` (the module object)."""
    for name in __all__:
        setattr(language, name, globals()[name])
