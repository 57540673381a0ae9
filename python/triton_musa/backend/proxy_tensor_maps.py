"""What Triton's CUDA launcher needs to encode the GPU proxy's TMA tensor maps.

--musa-lower-descriptors-to-tme marks the descriptor kernel arguments the host encodes, and the proxy's
lowering records on each such parameter the one box and swizzle its transfers use (a TMA tensor map fixes
both, where MUSA's TME instruction takes them as operands) and its element type. This module turns those
parameter attributes into Triton's ``tensordesc_meta`` entries, the form Triton's own NVIDIA kernels
record (``swizzle`` a CU_TENSOR_MAP_SWIZZLE_* code, ``block_size`` outermost first, ``elem_type`` Triton's
device-side TMA data type), so that Triton's launcher runs our cubin on host ``TensorDescriptor``s.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

# (Triton's device-side TMA data type, bytes) by MLIR element type: what Triton 3.6 records for cuda:90
# (the 8-bit floats travel as unsigned bytes).
_TMA_ELEMENT_TYPES = {"i8": (0, 1), "si8": (0, 1), "ui8": (0, 1), "f8E4M3FN": (0, 1), "f8E5M2": (0, 1),
                      "i16": (1, 2), "si16": (1, 2), "ui16": (1, 2), "f16": (6, 2), "bf16": (10, 2),
                      "i32": (3, 4), "si32": (3, 4), "ui32": (2, 4), "f32": (7, 4),
                      "i64": (5, 8), "si64": (5, 8), "ui64": (4, 8), "f64": (9, 8)}
_TENSOR_MAPS = "musagpu.tma_tensor_maps"


class ProxyTensorMapError(ValueError):
    """A descriptor argument the proxy cannot hand to Triton's launcher as a tensor map."""


def tensor_map_meta(llvm_module: Any, descriptor_args: Sequence[int]) -> Optional[List[Dict[str, Any]]]:
    """``tensordesc_meta`` of the kernel in ``llvm_module`` (the LLVM-dialect module of the proxy's
    lowering): one entry per descriptor argument, in order, when the host encodes every one of them as a
    tensor map; None when the kernel has no descriptor argument or passes some as base addresses (then
    Triton's launcher passes them decomposed)."""
    if not descriptor_args or not all(descriptor_args):
        return None
    from ..mlir import ir
    kernels = [op for op in llvm_module.body.operations
               if op.operation.name == "llvm.func" and "musa.kernel" in op.operation.attributes]
    if len(kernels) != 1:
        raise ProxyTensorMapError(f"expected one kernel in the module, found {len(kernels)}")
    attributes = kernels[0].operation.attributes
    arg_attrs = list(attributes["arg_attrs"]) if "arg_attrs" in attributes else []
    module_attributes = llvm_module.operation.attributes
    maps = ir.DictAttr(module_attributes[_TENSOR_MAPS]) if _TENSOR_MAPS in module_attributes else None
    entries: List[Dict[str, Any]] = []
    for index, attrs in enumerate(arg_attrs):
        if "llvm.byval" not in ir.DictAttr(attrs):
            continue
        if maps is None or str(index) not in maps or "box" not in ir.DictAttr(maps[str(index)]):
            raise ProxyTensorMapError(f"descriptor parameter {index} is passed as a tensor map but no TMA "
                                      f"transfer uses it, so its box is unknown")
        entry = ir.DictAttr(maps[str(index)])
        element = str(ir.TypeAttr(entry["element"]).value)
        if element not in _TMA_ELEMENT_TYPES:
            raise ProxyTensorMapError(f"descriptor parameter {index}: no TMA data type for {element} elements")
        box = list(ir.DenseI32ArrayAttr(entry["box"]))
        elem_type, elem_size = _TMA_ELEMENT_TYPES[element]
        entries.append({"swizzle": ir.IntegerAttr(entry["swizzle"]).value, "elem_size": elem_size,
                        "elem_type": elem_type, "block_size": box[::-1], "fp4_padded": False})
    if len(entries) != len(descriptor_args):
        raise ProxyTensorMapError(f"{len(descriptor_args)} descriptor arguments are host-encoded but the kernel "
                                  f"has {len(entries)} tensor-map parameters")
    return entries
