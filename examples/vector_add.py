"""Vector add with triton-musa: the README's first example.

On a machine with a MUSA device (torch_musa installed) it runs on the device
and compares with PyTorch. Elsewhere it runs on the CPU emulator once that
exists; until then it compiles the kernel for mp_31 and mp_22 down to LLVM IR
(and to a mubin where the MUSA SDK is installed) and says plainly what ran.
"""

from __future__ import annotations

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


def add(x: "torch.Tensor", y: "torch.Tensor") -> "torch.Tensor":
    import torch

    out = torch.empty_like(x)
    n = out.numel()
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]), )
    add_kernel[grid](x, y, out, n, BLOCK_SIZE=1024)
    return out


def musa_device_available() -> bool:
    try:
        import torch
        import torch_musa  # noqa: F401  (registers torch.musa)
    except ImportError:
        return False
    return torch.musa.is_available()


def run_on_device() -> None:
    import torch

    torch.manual_seed(0)
    x = torch.rand(98432, device="musa")
    y = torch.rand(98432, device="musa")
    torch.testing.assert_close(add(x, y), x + y)
    print("vector add passed")


def compile_only() -> None:
    from triton_musa.backend.lowering import lower_to_llir
    from triton_musa.backend.target import parse_arch
    from triton_musa.backend.toolchain import MusaToolchainNotFound, find_toolchain

    signature = {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n_elements": "i32",
                 "BLOCK_SIZE": "constexpr"}
    for arch_name, warp_size in (("mp_31", 32), ("mp_22", 128)):
        src = ASTSource(add_kernel, signature=signature, constexprs={"BLOCK_SIZE": 1024})
        kernel = triton.compile(src, target=GPUTarget("musa", arch_name, warp_size))
        ttgir = kernel.asm["ttgir"]
        ttgir = ttgir.decode() if isinstance(ttgir, bytes) else ttgir
        arch = parse_arch(arch_name)
        lowered = lower_to_llir(ttgir, arch, source_name=f"add_kernel.{arch_name}.ttgir")
        print(f"{arch_name}: add_kernel -> TTIR -> TTGIR -> LLVM IR for mtgpu-mt-musa "
              f"({len(lowered.llir.splitlines())} lines)")
        try:
            mubin = find_toolchain().compile_mubin(lowered.llir, arch, "add_kernel")
            print(f"{arch_name}: mubin of {len(mubin)} bytes")
        except MusaToolchainNotFound as exc:
            print(f"{arch_name}: no mubin: {exc}")
    print("vector add compiled; not run: no MUSA device here, and the CPU emulator "
          "(which runs kernels without one) is not built yet")


if __name__ == "__main__":
    if musa_device_available():
        run_on_device()
    else:
        compile_only()
