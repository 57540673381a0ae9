"""Nested-loop fusion (`tl.range(..., flatten=True)`): the ttgir stage runs Triton's fuse-nested-loops as
Triton's NVIDIA stages do (sm80/sm90), so a loop nest fuses on our targets exactly where it fuses for
cuda:90, and the fused kernel computes what torch does on the emulator."""

from __future__ import annotations

from typing import Dict, List

import pytest
import torch
import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler.compiler import ASTSource, make_backend


@triton.jit
def tiled_matmuls(a_ptr, b_ptr, c_ptr, n_tiles, k_steps, BM: tl.constexpr, BK: tl.constexpr,
                  BN: tl.constexpr):
    """C[t] = A[t] @ B for every tile t; the K loop's trip count does not depend on t."""
    rm = tl.arange(0, BM)
    rk = tl.arange(0, BK)
    rn = tl.arange(0, BN)
    for t in tl.range(0, n_tiles, flatten=True):
        acc = tl.zeros((BM, BN), tl.float32)
        for k in tl.range(0, k_steps):
            a = tl.load(a_ptr + t * BM * k_steps * BK + rm[:, None] * (k_steps * BK) + k * BK + rk[None, :])
            b = tl.load(b_ptr + (k * BK + rk[:, None]) * BN + rn[None, :])
            acc = tl.dot(a, b, acc)
        tl.store(c_ptr + t * BM * BN + rm[:, None] * BN + rn[None, :], acc)


@triton.jit
def growing_matmuls(a_ptr, b_ptr, c_ptr, n_tiles, k_steps, BM: tl.constexpr, BK: tl.constexpr,
                    BN: tl.constexpr):
    """C[t] = A[t][:, :(t+1)*BK] @ B[:(t+1)*BK]: the K loop's trip count depends on t."""
    rm = tl.arange(0, BM)
    rk = tl.arange(0, BK)
    rn = tl.arange(0, BN)
    for t in tl.range(0, n_tiles, flatten=True):
        acc = tl.zeros((BM, BN), tl.float32)
        for k in tl.range(0, t + 1):
            a = tl.load(a_ptr + t * BM * k_steps * BK + rm[:, None] * (k_steps * BK) + k * BK + rk[None, :])
            b = tl.load(b_ptr + (k * BK + rk[:, None]) * BN + rn[None, :])
            acc = tl.dot(a, b, acc)
        tl.store(c_ptr + t * BM * BN + rm[:, None] * BN + rn[None, :], acc)


SIGNATURE = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32", "n_tiles": "i32", "k_steps": "i32",
             "BM": "constexpr", "BK": "constexpr", "BN": "constexpr"}
SIZES = {"BM": 32, "BK": 16, "BN": 32}


def loop_depths_of_dots(ttgir: str) -> List[int]:
    """For every tt.dot in the printed module, how many scf.for enclose it."""
    stack: List[str] = []
    depths = []
    for line in ttgir.splitlines():
        text = line.strip()
        if text.startswith("}"):
            stack.pop()
        if " tt.dot " in f" {text} ":
            depths.append(stack.count("scf.for"))
        if text.endswith("{"):
            stack.append("scf.for" if "scf.for" in text else "region")
    return depths


def cuda90_ttgir(kernel: triton.JITFunction) -> str:
    """What Triton's own NVIDIA stages make of the kernel for sm90 (no GPU needed up to ttgir)."""
    from triton._C.libtriton import ir
    target = GPUTarget("cuda", 90, 32)
    backend = make_backend(target)
    options = backend.parse_options({})
    context = ir.context()
    ir.load_dialects(context)
    backend.load_dialects(context)
    module = ASTSource(kernel, SIGNATURE, dict(SIZES)).make_ir(
        target, options, backend.get_codegen_implementation(options), backend.get_module_map(), context)
    metadata: Dict[str, object] = {}
    module = backend.make_ttir(module, metadata, options, 90)
    return str(backend.make_ttgir(module, metadata, options, 90))


@pytest.mark.parametrize("kernel, fused", [(tiled_matmuls, True), (growing_matmuls, False)],
                         ids=["invariant-inner-bounds", "dependent-inner-bounds"])
def test_flattened_loop_nest_matches_cuda_and_torch(arch: str, kernel: triton.JITFunction, fused: bool) -> None:
    n_tiles, k_steps = 3, 4
    torch.manual_seed(0)
    a = torch.randn(n_tiles, SIZES["BM"], k_steps * SIZES["BK"], dtype=torch.float16)
    b = torch.randn(k_steps * SIZES["BK"], SIZES["BN"], dtype=torch.float16)
    c = torch.full((n_tiles, SIZES["BM"], SIZES["BN"]), float("nan"))
    compiled = kernel[(1, )](a, b, c, n_tiles, k_steps, **SIZES)

    ours = loop_depths_of_dots(compiled.asm["ttgir"])
    theirs = loop_depths_of_dots(cuda90_ttgir(kernel))
    assert ours == theirs == ([1] if fused else [2]), compiled.asm["ttgir"]

    if fused:
        ref = a.float() @ b.float()
    else:
        ref = torch.stack([a[t, :, :(t + 1) * SIZES["BK"]].float() @ b[:(t + 1) * SIZES["BK"]].float()
                           for t in range(n_tiles)])
    torch.testing.assert_close(c, ref, atol=1e-2, rtol=1e-2)
