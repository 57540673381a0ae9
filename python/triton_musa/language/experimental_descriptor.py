"""Triton 3.1/3.2's device-side descriptor API, ``tl._experimental_descriptor_load`` and
``tl._experimental_descriptor_store``, which Triton 3.6 removed and code written for Moore Threads' own
Triton (FlagGems' MUSA matmuls) still calls. The backend enters both into ``triton.language`` when it
loads (``backend/surface.py``).

They read and write a tile through either
 - a descriptor the kernel takes as an argument: the ``TensorDescriptor`` that
   ``triton.tools.experimental_descriptor.create_{1,2,3}d_tma_descriptor`` return here (3.6's descriptors),
   so each is the 3.6 ``desc.load``/``desc.store``; where the descriptor was made over a raw address, its
   elements are unsigned integers of the element size and the tile is bitcast to ``dtype``;
 - or a pointer to a descriptor in global memory, filled on the host by
   ``driver.active.utils.fill_{1,2}d_tma_descriptor`` (``backend/descriptor_record.py``): the kernel reads
   the record's address, shape and row stride and makes a 3.6 descriptor of them
   (``tl.make_tensor_descriptor``) over ``dtype`` elements.
"""

from __future__ import annotations

from typing import Any, Sequence

from triton.language import core

from ..backend import descriptor_record as record

__all__ = ["_experimental_descriptor_load", "_experimental_descriptor_store"]


def _from_record(pointer: core.tensor, block_shape: Sequence[int], dtype: core.dtype,
                 _semantic: Any) -> core.tensor_descriptor_base:
    """The descriptor of the record at `pointer`, over `dtype` elements."""
    words = _semantic.bitcast(pointer, core.pointer_type(core.int64))

    def word(byte_offset: int) -> core.tensor:
        return _semantic.load(_semantic.add(words, _semantic.to_tensor(byte_offset // 8), True), None, None,
                              (), None, "", "", False)

    base = _semantic.cast(word(record.BASE_OFFSET), core.pointer_type(dtype))
    rank = len(block_shape)
    if rank == 1:
        shape, strides = [word(record.DIMS_OFFSET)], [1]
    elif rank == 2:
        shape = [word(record.DIMS_OFFSET), word(record.DIMS_OFFSET + 8)]
        strides = [word(record.ROW_STRIDE_OFFSET), 1]
    else:
        raise ValueError(f"a descriptor filled by fill_{{1,2}}d_tma_descriptor is 1-D or 2-D; the tile asked for "
                         f"is {rank}-D ({list(block_shape)})")
    shape = [_semantic.cast(d, core.int32) for d in shape]
    return core.make_tensor_descriptor(base, shape, strides, [core.constexpr(b) for b in block_shape],
                                       _semantic=_semantic)


def _descriptor(desc: Any, api: str, block_shape: Sequence[int], dtype: Any,
                _semantic: Any) -> core.tensor_descriptor_base:
    if isinstance(desc, core.tensor_descriptor_base):
        return desc
    if isinstance(desc, core.tensor) and desc.type.is_ptr() and not desc.type.is_block():
        return _from_record(desc, block_shape, dtype, _semantic)
    raise TypeError(f"tl.{api} takes a descriptor that triton.tools.experimental_descriptor's "
                    f"create_{{1,2,3}}d_tma_descriptor returns, or a pointer to one that "
                    f"driver.active.utils.fill_{{1,2}}d_tma_descriptor filled; got {desc}")


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
                                  is_transpose: Any = False, _semantic: Any = None) -> core.tensor:
    """The `shape` tile at `offsets` through the descriptor, as `dtype` elements.

    `is_transpose` is MT's fifth argument (FlagGems' addmm and w8a8 SQMMA kernels pass it, True for an operand
    stored transposed, whose descriptor their host code fills over the reversed dims): `offsets` and `shape`
    name the tile of the logical matrix, so the tile read is the `shape[::-1]` one at `offsets[::-1]` of the
    tensor behind the descriptor, returned transposed."""
    shape = [core._unwrap_if_constexpr(s) for s in shape]
    dtype = core._unwrap_if_constexpr(dtype)
    is_transpose = core._unwrap_if_constexpr(is_transpose)
    if not isinstance(is_transpose, bool):
        raise TypeError(f"tl._experimental_descriptor_load: is_transpose must be a constexpr bool, got "
                        f"{is_transpose!r}")
    if is_transpose:
        if len(shape) != 2:
            raise ValueError(f"tl._experimental_descriptor_load: is_transpose needs a 2-D tile, got shape {shape}")
        shape, offsets = shape[::-1], list(offsets)[::-1]
    desc = _descriptor(desc_pointer, "_experimental_descriptor_load", shape, dtype, _semantic)
    if shape != list(desc.block_shape):
        raise ValueError(f"tl._experimental_descriptor_load: shape {shape} is not the descriptor's block "
                         f"{list(desc.block_shape)}")
    value = _as_dtype(desc.load(offsets, _semantic=_semantic), dtype, "_experimental_descriptor_load", _semantic)
    return _semantic.permute(value, [1, 0]) if is_transpose else value


@core.builtin
def _experimental_descriptor_store(desc_pointer: Any, value: Any, offsets: Sequence[Any],
                                   _semantic: Any = None) -> Any:
    """Stores the tile `value` at `offsets` through the descriptor."""
    value = _semantic.to_tensor(value)
    desc = _descriptor(desc_pointer, "_experimental_descriptor_store", list(value.shape), value.dtype, _semantic)
    value = _as_dtype(value, desc.dtype, "_experimental_descriptor_store", _semantic)
    return desc.store(offsets, value, _semantic=_semantic)


def install(language: Any) -> None:
    """Enters both into ``triton.language`` (the module object)."""
    for name in __all__:
        setattr(language, name, globals()[name])
