"""Vector add with triton-musa: the README's first example.

Runs where Triton's active driver is: on a MUSA device (torch_musa installed and
a device visible), or else on triton-musa's CPU emulator, which executes the
kernel compiled by the same pipeline on torch CPU tensors (emulated arch from
TRITON_MUSA_ARCH: mp_31, the default, or mp_22). The kernel and the host code
are the usual Triton tutorial's; only the device string comes from the driver.
"""

from __future__ import annotations

import torch

import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    output = x + y
    tl.store(output_ptr + offsets, output, mask=mask)


def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]), )
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)
    return output


def main() -> None:
    torch.manual_seed(0)
    size = 98432
    x = torch.rand(size, device=DEVICE)
    y = torch.rand(size, device=DEVICE)
    output_torch = x + y
    output_triton = add(x, y)
    torch.testing.assert_close(output_triton, output_torch)
    target = triton.runtime.driver.active.get_current_target()
    where = "the CPU emulator" if DEVICE.type == "cpu" else f"device {DEVICE}"
    print(f"ran add_kernel for {target.arch} (warp {target.warp_size}) on {where}")
    print("vector add passed")


if __name__ == "__main__":
    main()
