"""Speed of the triton-musa CPU emulator.

    python bench/emulator.py [--arch mp_31|mp_22] [--n 1048576]

For vector add of N float32 (2^20 by default), softmax of 4096x1024 float32
rows and a 256^3 float32 matmul (FMA path), each checked against PyTorch, it
prints the wall time of one launch (median of several, JIT excluded) and the
emulated thread-instructions per second: LLVM IR instructions of the kernel as compiled for the host (O2,
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

    from triton_musa.backend.emulator_launcher import EmulatorLauncher, load_kernel
    from triton_musa.backend.environment import emulator_threads as num_workers
    from triton_musa.backend.target import parse_arch

    @triton.jit
    def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)

    @triton.jit
    def softmax_kernel(out_ptr, in_ptr, n_cols, BLOCK: tl.constexpr):
        row = tl.program_id(0)
        cols = tl.arange(0, BLOCK)
        x = tl.load(in_ptr + row * n_cols + cols, mask=cols < n_cols, other=-float("inf"))
        e = tl.exp(x - tl.max(x, axis=0))
        tl.store(out_ptr + row * n_cols + cols, e / tl.sum(e, axis=0), mask=cols < n_cols)

    @triton.jit
    def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
        rm = tl.program_id(0) * BM + tl.arange(0, BM)
        rn = tl.program_id(1) * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, K, BK):
            a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
            b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
            acc += tl.dot(a, b)
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)

    arch = parse_arch(args.arch)
    target = GPUTarget("musa", arch.name, arch.warp_size)
    n, rows, cols, size = args.n, 4096, 1024, 256
    x, y = torch.rand(n), torch.rand(n)
    s_in = torch.randn(rows, cols)
    a, b = torch.randn(size, size), torch.randn(size, size)
    workloads = [
        (f"vector add 2^{n.bit_length() - 1} fp32", add_kernel,
         {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32"}, {"BLOCK": args.block},
         lambda: (x, y, torch.empty(n), n), (triton.cdiv(n, args.block), 1, 1), lambda out: (out[2], x + y)),
        (f"softmax {rows}x{cols} fp32", softmax_kernel, {"out_ptr": "*fp32", "in_ptr": "*fp32", "n_cols": "i32"},
         {"BLOCK": cols}, lambda: (torch.empty(rows, cols), s_in, cols), (rows, 1, 1),
         lambda out: (out[0], torch.softmax(s_in, dim=1))),
        (f"matmul {size}^3 fp32 (FMA)", matmul_kernel,
         {"a_ptr": "*fp32", "b_ptr": "*fp32", "c_ptr": "*fp32", "M": "i32", "N": "i32", "K": "i32"},
         {"BM": 64, "BN": 64, "BK": 32}, lambda: (a, b, torch.empty(size, size), size, size, size),
         (size // 64, size // 64, 1), lambda out: (out[2], a @ b)),
    ]

    workers = num_workers() or os.cpu_count()
    print(f"CPU emulator, {arch.name} (warp {arch.warp_size}), {workers} worker threads; "
          f"median of {args.repeat} launches, JIT excluded")
    header = f"{'workload':<28}{'blocks':>8}{'threads':>10}{'wall ms':>10}{'instr/thread':>14}{'thread-instr/s':>16}"
    print(header)
    print("-" * len(header))
    for name, fn, signature, constexprs, make_args, grid, reference in workloads:
        src = ASTSource(fn, signature={**signature, **{k: "constexpr" for k in constexprs}}, constexprs=constexprs)
        compiled = triton.compile(src, target=target)
        emuir = compiled.asm["emuir"]
        plain, counting = load_kernel(emuir), load_kernel(emuir, count_instructions=True)
        launcher = EmulatorLauncher(src, compiled.metadata)
        tensors = make_args()
        call_args = (*tensors, *constexprs.values())

        def run(kernel) -> tuple[float, int]:
            slots, buffers = launcher.pack(kernel, call_args)
            start = time.perf_counter()
            instructions, _ = kernel.launch(grid, slots, buffers, num_workers=num_workers())
            return time.perf_counter() - start, instructions

        run(plain)  # warm-up: page in stacks and tensors
        wall = statistics.median(run(plain)[0] for _ in range(args.repeat))
        _, instructions = run(counting)
        got, want = reference(tensors)
        torch.testing.assert_close(got, want, rtol=1e-4, atol=1e-4)
        blocks = grid[0] * grid[1] * grid[2]
        threads = blocks * compiled.metadata.num_warps * arch.warp_size
        print(f"{name:<28}{blocks:>8}{threads:>10}{wall * 1e3:>10.1f}{instructions / threads:>14.1f}"
              f"{instructions / wall:>16.3e}")
    print("thread-instructions: LLVM IR instructions of the host-compiled kernel (O2), counted per GPU thread")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
