"""Speed of the triton-musa CPU emulator.

    python bench/emulator.py [--arch mp_31|mp_22] [--n 1048576]

For vector add of N float32 (2^20 by default) it prints the wall time of one
launch (median of several, JIT excluded) and the emulated thread-instructions
per second: LLVM IR instructions of the kernel as compiled for the host (O2,
before the x86 backend), counted per GPU thread by an instrumented build of
the same kernel, divided by the uninstrumented kernel's wall time. These are
emulator numbers: they say nothing about a MUSA GPU.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arch", default=os.environ.get("TRITON_MUSA_ARCH", "mp_31"), choices=("mp_31", "mp_22"))
    parser.add_argument("--n", type=int, default=1 << 20)
    parser.add_argument("--block", type=int, default=1024)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)

    import torch
    import triton
    import triton.language as tl
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    from triton_musa.backend.emulator import EmulatorLauncher, load_kernel, num_workers
    from triton_musa.backend.target import parse_arch

    @triton.jit
    def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)

    arch = parse_arch(args.arch)
    src = ASTSource(add_kernel, signature={"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32",
                                           "BLOCK": "constexpr"}, constexprs={"BLOCK": args.block})
    compiled = triton.compile(src, target=GPUTarget("musa", arch.name, arch.warp_size))
    emuir = compiled.asm["emuir"]
    plain, counting = load_kernel(emuir), load_kernel(emuir, count_instructions=True)

    n = args.n
    x, y, out = torch.rand(n), torch.rand(n), torch.empty(n)
    launcher = EmulatorLauncher(src, compiled.metadata)
    call_args = (x, y, out, n, args.block)
    grid = (triton.cdiv(n, args.block), 1, 1)

    def run(kernel) -> tuple[float, int]:
        slots, buffers = launcher.pack(kernel, call_args)
        start = time.perf_counter()
        instructions, _ = kernel.launch(grid, slots, buffers, num_workers=num_workers())
        return time.perf_counter() - start, instructions

    run(plain)  # warm-up: page in stacks and tensors
    times = [run(plain)[0] for _ in range(args.repeat)]
    _, instructions = run(counting)
    torch.testing.assert_close(out, x + y)
    wall = statistics.median(times)
    threads = grid[0] * compiled.metadata.num_warps * arch.warp_size
    workers = num_workers() or os.cpu_count()
    print(f"vector add, {n} float32, {arch.name} (warp {arch.warp_size}), {grid[0]} blocks x "
          f"{compiled.metadata.num_warps * arch.warp_size} threads, {workers} worker threads")
    print(f"wall time per launch: {wall * 1e3:.2f} ms (median of {args.repeat})")
    print(f"emulated threads/s: {threads / wall:.3e}")
    print(f"emulated thread-instructions: {instructions} ({instructions / threads:.1f} per thread)")
    print(f"emulated thread-instructions/s: {instructions / wall:.3e}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
