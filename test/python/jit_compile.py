"""Compiling a @triton.jit kernel for a MUSA target the way Triton's JIT specializes it, for tests that
call triton.compile themselves (shared by test_pipelining.py and test_emulator_mma.py).

Triton's JIT makes integer arguments equal to 1 constants and marks 16-byte aligned tensors and integers
divisible by 16 with tt.divisibility = 16; that is what lets the pipeliner prove vector async copies, so
a test of pipelining must compile its kernel the same way."""

from __future__ import annotations

from typing import Any, Dict, Tuple

import torch
import triton
from triton.compiler import ASTSource

from corpus import TARGETS

# Triton's signature names of the tensor element types the tests use.
DTYPE_NAMES = {
    torch.float16: "fp16", torch.bfloat16: "bf16", torch.float32: "fp32", torch.int8: "i8", torch.int32: "i32",
    torch.float8_e4m3fn: "fp8e4nv", torch.float8_e5m2: "fp8e5"
}


def specialize(fn: Any, args: Dict[str, Any],
               constexprs: Dict[str, Any]) -> Tuple[Dict[str, str], Dict[str, Any], Dict[Tuple[int, ...], Any]]:
    """(signature, constexprs, attrs) of `fn` for `args` (tensors and integers by argument name) and
    `constexprs`, specialized as Triton's JIT would (see the module docstring)."""
    signature: Dict[str, str] = {}
    consts = dict(constexprs)
    attrs: Dict[Tuple[int, ...], Any] = {}
    for i, name in enumerate(fn.arg_names):
        if name in constexprs:
            signature[name] = "constexpr"
            continue
        value = args[name]
        if isinstance(value, torch.Tensor):
            signature[name] = "*" + DTYPE_NAMES[value.dtype]
            aligned = value.data_ptr() % 16 == 0
        elif value == 1:
            signature[name] = "constexpr"
            consts[name] = 1
            continue
        else:
            signature[name] = "i32"
            aligned = value % 16 == 0
        if aligned:
            attrs[(i, )] = [["tt.divisibility", 16]]
    return signature, consts, attrs


def compile_specialized(fn: Any, arch: str, args: Dict[str, Any], constexprs: Dict[str, Any],
                        **options: Any) -> Tuple[Any, Dict[str, Any]]:
    """Compiles `fn` for `arch` specialized for `args` (specialize); returns the compiled kernel and all
    its constants (the given ones and the integer arguments that became constants)."""
    signature, consts, attrs = specialize(fn, args, constexprs)
    src = ASTSource(fn, signature=signature, constexprs=consts, attrs=attrs)
    return triton.compile(src, target=TARGETS[arch], options=options), consts


def launch(kernel: Any, fn: Any, grid: Tuple[int, ...], args: Dict[str, Any], consts: Dict[str, Any]) -> None:
    """Launches `kernel` (compiled from `fn`) on `grid` with every argument of `fn` in order."""
    kernel[tuple(grid) + (1, ) * (3 - len(grid))](*[args[n] if n in args else consts[n] for n in fn.arg_names])
