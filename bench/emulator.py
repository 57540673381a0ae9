"""Speed of the triton-musa CPU emulator.

    python bench/emulator.py [--arch mp_31|mp_22] [--repeat 5] [--only NAME,...] [--no-first-call]
    python bench/emulator.py --throughput [--n 1048576]

By default it prints issue 22's table: for Triton-tutorial-sized kernels on torch CPU tensors (vector
add, softmax, an fp16 matmul, cumsum, argmax, histogram, gelu, transpose, flash attention, the
descriptor matmul through SQMMA and TME at 128^3 and 256^3, the FMA matmul at 256^3), the median wall
time of ``--repeat`` warm calls through ``kernel[grid](...)`` on the emulator and under
``TRITON_INTERPRET=1`` (in a child process,
as Triton reads that switch at import), measured back to back case by case, each result checked against
PyTorch; then the cost of the first call in a fresh process whose Triton cache
(and the emulator's object cache in it) this run has filled, against the interpreter's first call in a
fresh process. These are emulator numbers: they say nothing about a MUSA GPU.

``--throughput`` prints the older table instead: wall time of one launch (JIT excluded) and emulated
thread-instructions per second for a 2^20-element vector add, a 4096x1024 softmax and a 256^3 FMA
matmul (LLVM IR instructions of the host-compiled kernel at O2, counted per GPU thread by an
instrumented build, divided by the uninstrumented kernel's wall time).
"""

from __future__ import annotations

import time

_PROCESS_START = time.perf_counter()  # before torch and Triton are imported: see first_call

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

# The emulator is the driver here, whatever else the machine has.
os.environ.setdefault("TRITON_MUSA_EMULATOR", "1")

import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

# ---------------------------------------------------------------------------------------------------------------
# Kernels (plain functions: each is decorated twice, once as a JITFunction, once as an InterpretedFunction)
# ---------------------------------------------------------------------------------------------------------------


def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


def softmax_kernel(out_ptr, in_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(in_ptr + row * n_cols + cols, mask=cols < n_cols, other=-float("inf"))
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + row * n_cols + cols, e / tl.sum(e, axis=0), mask=cols < n_cols)


def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                  IEEE: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :], mask=(rm[:, None] < M) & ((k + rk)[None, :] < K),
                    other=0.0)
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :], mask=((k + rk)[:, None] < K) & (rn[None, :] < N),
                    other=0.0)
        if IEEE:
            acc += tl.dot(a, b, input_precision="ieee")
        else:
            acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


def desc_matmul_kernel(a_desc, b_desc, c_desc, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    m = tl.program_id(0) * BM
    n = tl.program_id(1) * BN
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        acc = tl.dot(a_desc.load([m, k]), b_desc.load([k, n]), acc)
    c_desc.store([m, n], acc)


def cumsum_kernel(x_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.arange(0, BM)[:, None]
    rn = tl.arange(0, BN)[None, :]
    mask = (rm < M) & (rn < N)
    x = tl.load(x_ptr + rm * N + rn, mask=mask, other=0.0)
    tl.store(out_ptr + rm * N + rn, tl.cumsum(x, axis=1), mask=mask)


def argmax_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=float("-inf"))
    tl.store(out_ptr + row, tl.argmax(x, axis=0))


def histogram_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, BINS: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    tl.atomic_add(out_ptr + tl.arange(0, BINS), tl.histogram(x, BINS, mask=mask))


def gelu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    tanh = 2.0 / (1.0 + tl.exp(-2.0 * inner)) - 1.0
    tl.store(out_ptr + offs, 0.5 * x * (1.0 + tanh), mask=mask)


def transpose_kernel(x_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :], mask=mask)
    tl.store(out_ptr + rn[:, None] * M + rm[None, :], tl.trans(x), mask=tl.trans(mask))


def attention_kernel(q_ptr, k_ptr, v_ptr, o_ptr, seq, scale, D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rd = tl.arange(0, D)
    q = tl.load(q_ptr + rm[:, None] * D + rd[None, :], mask=rm[:, None] < seq, other=0.0)
    m_i = tl.full((BM, ), float("-inf"), tl.float32)
    l_i = tl.zeros((BM, ), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    for start in range(0, seq, BN):
        rn = start + tl.arange(0, BN)
        kt = tl.load(k_ptr + rn[None, :] * D + rd[:, None], mask=rn[None, :] < seq, other=0.0)
        s = tl.dot(q, kt) * scale
        s = tl.where(rn[None, :] < seq, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        p = tl.exp(s - m_new[:, None])
        alpha = tl.exp(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v = tl.load(v_ptr + rn[:, None] * D + rd[None, :], mask=rn[:, None] < seq, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    tl.store(o_ptr + rm[:, None] * D + rd[None, :], (acc / l_i[:, None]).to(o_ptr.dtype.element_ty),
             mask=rm[:, None] < seq)


# ---------------------------------------------------------------------------------------------------------------
# Cases
# ---------------------------------------------------------------------------------------------------------------


@dataclass
class Case:
    name: str
    fn: Callable[..., Any]
    # Fresh inputs and outputs (deterministic), the grid, the call's arguments from them, and the check.
    make: Callable[[], Dict[str, Any]]
    grid: Callable[[Dict[str, Any]], Tuple[int, ...]]
    args: Callable[[Dict[str, Any]], Sequence[Any]]
    check: Callable[[Dict[str, Any]], None]
    kwargs: Optional[Dict[str, Any]] = None


def _close(got: torch.Tensor, want: torch.Tensor, tol: float) -> None:
    torch.testing.assert_close(got.float(), want.float(), rtol=tol, atol=tol)


def _desc_inputs(size: int) -> Dict[str, Any]:
    from triton.tools.tensor_descriptor import TensorDescriptor
    g = torch.Generator().manual_seed(size)
    a = torch.randn(size, size, generator=g).half()
    b = torch.randn(size, size, generator=g).half()
    c = torch.zeros(size, size)
    bm, bn, bk = 64, 64, 32
    return dict(a=a, b=b, c=c, size=size, descs=(TensorDescriptor.from_tensor(a, [bm, bk]),
                                                 TensorDescriptor.from_tensor(b, [bk, bn]),
                                                 TensorDescriptor.from_tensor(c, [bm, bn])), blocks=(bm, bn, bk))


def _seeded(*shape: int, seed: int = 0) -> torch.Tensor:
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


def cases() -> List[Case]:
    def add_make() -> Dict[str, Any]:
        n = 3000
        return dict(x=_seeded(n, seed=1), y=_seeded(n, seed=2), out=torch.empty(n), n=n)

    def softmax_make() -> Dict[str, Any]:
        return dict(x=_seeded(37, 200, seed=3), out=torch.empty(37, 200))

    def mm16_make() -> Dict[str, Any]:
        M, N, K = 97, 130, 75
        return dict(a=_seeded(M, K, seed=4).half(), b=_seeded(K, N, seed=5).half(), c=torch.empty(M, N), M=M, N=N,
                    K=K)

    def mm32_make() -> Dict[str, Any]:
        s = 256
        return dict(a=_seeded(s, s, seed=6), b=_seeded(s, s, seed=7), c=torch.empty(s, s), M=s, N=s, K=s)

    def cumsum_make() -> Dict[str, Any]:
        return dict(x=_seeded(13, 200, seed=8), out=torch.empty(13, 200))

    def argmax_make() -> Dict[str, Any]:
        return dict(x=_seeded(9, 333, seed=9), out=torch.empty(9, dtype=torch.int32))

    def hist_make() -> Dict[str, Any]:
        x = torch.randint(0, 64, (2500, ), dtype=torch.int32, generator=torch.Generator().manual_seed(10))
        return dict(x=x, out=torch.zeros(64, dtype=torch.int32))

    def gelu_make() -> Dict[str, Any]:
        return dict(x=_seeded(3000, seed=11), out=torch.empty(3000))

    def transpose_make() -> Dict[str, Any]:
        return dict(x=_seeded(32, 64, seed=12), out=torch.empty(64, 32))

    def attention_make() -> Dict[str, Any]:
        L, D = 70, 32
        return dict(q=_seeded(L, D, seed=13).half(), k=_seeded(L, D, seed=14).half(), v=_seeded(L, D, seed=15).half(),
                    o=torch.empty(L, D).half(), L=L, D=D)

    def attention_check(t: Dict[str, Any]) -> None:
        q, k, v = (t[n].float() for n in "qkv")
        _close(t["o"], torch.softmax(q @ k.T / math.sqrt(t["D"]), dim=-1) @ v, 2e-2)

    def gelu_ref(x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.gelu(x, approximate="tanh")

    def desc_case(size: int) -> Case:
        return Case(f"descriptor matmul {size}^3 (SQMMA + TME)", desc_matmul_kernel, lambda: _desc_inputs(size),
                    lambda t: (t["size"] // t["blocks"][0], t["size"] // t["blocks"][1]),
                    lambda t: (*t["descs"], t["size"], *t["blocks"]),
                    lambda t: _close(t["c"], t["a"].float() @ t["b"].float(), 1e-3))

    return [
        Case("vector add, 3k elements", add_kernel, add_make, lambda t: (triton.cdiv(t["n"], 1024), ),
             lambda t: (t["x"], t["y"], t["out"], t["n"], 1024), lambda t: _close(t["out"], t["x"] + t["y"], 0)),
        Case("softmax 37x200", softmax_kernel, softmax_make, lambda t: (37, ), lambda t: (t["out"], t["x"], 200, 256),
             lambda t: _close(t["out"], torch.softmax(t["x"], dim=1), 1e-5)),
        Case("fp16 matmul 97x130x75 (32^3 tiles)", matmul_kernel, mm16_make,
             lambda t: (triton.cdiv(t["M"], 32), triton.cdiv(t["N"], 32)),
             lambda t: (t["a"], t["b"], t["c"], t["M"], t["N"], t["K"], 32, 32, 32, False),
             lambda t: _close(t["c"], t["a"].float() @ t["b"].float(), 1e-2)),
        Case("cumsum 13x200", cumsum_kernel, cumsum_make, lambda t: (1, ), lambda t: (t["x"], t["out"], 13, 200, 16, 256),
             lambda t: _close(t["out"], torch.cumsum(t["x"], dim=1), 1e-4)),
        Case("argmax 9x333", argmax_kernel, argmax_make, lambda t: (9, ), lambda t: (t["x"], t["out"], 333, 512),
             lambda t: _close(t["out"], t["x"].argmax(1).int(), 0)),
        Case("histogram 2500 into 64 bins", histogram_kernel, hist_make, lambda t: (triton.cdiv(2500, 512), ),
             lambda t: (t["x"], t["out"], 2500, 512, 64),
             lambda t: _close(t["out"], torch.bincount(t["x"].long(), minlength=64).int(), 0)),
        Case("gelu 3k elements", gelu_kernel, gelu_make, lambda t: (triton.cdiv(3000, 1024), ),
             lambda t: (t["x"], t["out"], 3000, 1024), lambda t: _close(t["out"], gelu_ref(t["x"]), 1e-5)),
        Case("transpose 32x64", transpose_kernel, transpose_make, lambda t: (1, 1),
             lambda t: (t["x"], t["out"], 32, 64, 32, 64), lambda t: _close(t["out"], t["x"].T, 0)),
        Case("flash attention L=70, D=32 (fp16)", attention_kernel, attention_make, lambda t: (triton.cdiv(70, 32), ),
             lambda t: (t["q"], t["k"], t["v"], t["o"], t["L"], 1.0 / math.sqrt(t["D"]), t["D"], 32, 32),
             attention_check),
        desc_case(128),
        desc_case(256),
        Case("FMA matmul 256^3 fp32", matmul_kernel, mm32_make, lambda t: (256 // 64, 256 // 64),
             lambda t: (t["a"], t["b"], t["c"], t["M"], t["N"], t["K"], 64, 64, 32, True),
             lambda t: _close(t["c"], t["a"] @ t["b"], 1e-4)),
    ]


# ---------------------------------------------------------------------------------------------------------------
# Measuring
# ---------------------------------------------------------------------------------------------------------------


def _jit(fn: Callable[..., Any]) -> Any:
    return triton.jit(fn)


def _call(kernel: Any, case: Case, tensors: Dict[str, Any]) -> float:
    start = time.perf_counter()
    kernel[case.grid(tensors)](*case.args(tensors))
    return time.perf_counter() - start


def warm_times(case: Case, repeat: int) -> List[float]:
    """``repeat`` warm calls of ``case`` in this process (the calls up to the one where the host code
    tiers up to its optimized form, the first checked, excluded)."""
    from triton_musa.backend.environment import tier_up_launch
    kernel = _jit(case.fn)
    tensors = case.make()
    _call(kernel, case, tensors)  # compile, JIT, page in
    case.check(tensors)
    for _ in range(tier_up_launch() - 1):
        _call(kernel, case, case.make() if "histogram" in case.name else tensors)
    # The histogram accumulates into its output: fresh outputs for every call.
    return [_call(kernel, case, case.make() if "histogram" in case.name else tensors) for _ in range(repeat)]


class Interpreter:
    """A child process with TRITON_INTERPRET=1 (Triton reads it when it imports its language, so the
    interpreter cannot share this process) that times the warm calls of a case on request, so that
    every case runs on the emulator and on the interpreter back to back."""

    def __init__(self, arch: str) -> None:
        env = dict(os.environ, TRITON_INTERPRET="1")
        self.proc = subprocess.Popen([sys.executable, __file__, "--arch", arch, "--serve-interpreter"], env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def times(self, name: str, repeat: int) -> Optional[List[float]]:
        """The warm times, or None where the interpreter cannot run the case (it says why on stderr)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps({"case": name, "repeat": repeat}) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the interpreter process died on {name!r}")
        return json.loads(line)["times"]

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def serve_interpreter() -> None:
    by_name = {c.name: c for c in cases()}
    for line in sys.stdin:
        request = json.loads(line)
        try:
            times: Optional[List[float]] = warm_times(by_name[request["case"]], request["repeat"])
        except Exception as e:  # noqa: BLE001  (e.g. Triton 3.6's interpreter on NumPy >= 2.4: int() of a 1-d array)
            print(f"the interpreter cannot run {request['case']!r}: {e!r}", file=sys.stderr)
            times = None
        sys.stdout.write(json.dumps({"times": times}) + "\n")
        sys.stdout.flush()


def warm_table(selected: List[Case], repeat: int, arch: str) -> List[Tuple[str, float, Optional[float]]]:
    interpreter = Interpreter(arch)
    rows = []
    try:
        for case in selected:
            emu = warm_times(case, repeat)
            interp = interpreter.times(case.name, repeat)
            rows.append((case.name, statistics.median(emu), statistics.median(interp) if interp else None))
    finally:
        interpreter.close()
    return rows


def first_call(name: str) -> Tuple[float, float]:
    """The wall time of the first call of case ``name`` in this (fresh) process, and the time from the
    start of this module (before torch and Triton are imported) to the end of that call."""
    case = next(c for c in cases() if c.name == name)
    kernel = _jit(case.fn)
    tensors = case.make()
    elapsed = _call(kernel, case, tensors)
    since_start = time.perf_counter() - _PROCESS_START
    case.check(tensors)
    return elapsed, since_start


def first_call_in_fresh_process(name: str, arch: str, interpret: bool) -> Optional[Tuple[float, float]]:
    """As first_call, in a fresh process; None where that process fails (its stderr is passed on)."""
    env = dict(os.environ, TRITON_INTERPRET="1" if interpret else "0")
    cmd = [sys.executable, __file__, "--arch", arch, "--first-call", name]
    done = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        sys.stderr.write(done.stderr)
        return None
    result = json.loads(done.stdout.strip().splitlines()[-1])
    return float(result["seconds"]), float(result["since_start"])


def fastest_first_call(name: str, arch: str, interpret: bool) -> Optional[Tuple[float, float]]:
    """The fastest of three first calls in fresh processes; None where one fails."""
    runs = [first_call_in_fresh_process(name, arch, interpret) for _ in range(3)]
    if any(run is None for run in runs):
        return None
    return min((run for run in runs if run is not None), key=lambda r: r[0])


def print_table(rows: List[Tuple[str, float, Optional[float]]], title: str) -> None:
    print(title)
    print("| kernel | emulator | Triton interpreter | ratio |")
    print("|---|---|---|---|")
    for name, emu, interp in rows:
        if interp is None:
            print(f"| {name} | {emu * 1e3:.2f} ms | failed (see stderr) | - |")
        else:
            print(f"| {name} | {emu * 1e3:.2f} ms | {interp * 1e3:.2f} ms | {interp / emu:.1f}x |")


# ---------------------------------------------------------------------------------------------------------------
# The older throughput table
# ---------------------------------------------------------------------------------------------------------------


def throughput(arch_name: str, n: int, block: int, repeat: int) -> None:
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    from triton_musa.backend.emulator_launcher import EmulatorLauncher, load_kernel
    from triton_musa.backend.environment import emulator_threads as num_workers
    from triton_musa.backend.target import parse_arch

    arch = parse_arch(arch_name)
    target = GPUTarget("musa", arch.name, arch.warp_size)
    rows, cols, size = 4096, 1024, 256
    x, y = torch.rand(n), torch.rand(n)
    s_in = torch.randn(rows, cols)
    a, b = torch.randn(size, size), torch.randn(size, size)
    fp32 = "*fp32"
    workloads = [
        (f"vector add 2^{n.bit_length() - 1} fp32", add_kernel, {"x_ptr": fp32, "y_ptr": fp32, "out_ptr": fp32,
                                                                  "n": "i32"}, {"BLOCK": block},
         lambda: (x, y, torch.empty(n), n), (triton.cdiv(n, block), 1, 1), lambda out: (out[2], x + y)),
        (f"softmax {rows}x{cols} fp32", softmax_kernel, {"out_ptr": fp32, "in_ptr": fp32, "n_cols": "i32"},
         {"BLOCK": cols}, lambda: (torch.empty(rows, cols), s_in, cols), (rows, 1, 1),
         lambda out: (out[0], torch.softmax(s_in, dim=1))),
        (f"matmul {size}^3 fp32 (FMA)", matmul_kernel,
         {"a_ptr": fp32, "b_ptr": fp32, "c_ptr": fp32, "M": "i32", "N": "i32", "K": "i32"},
         {"BM": 64, "BN": 64, "BK": 32, "IEEE": True}, lambda: (a, b, torch.empty(size, size), size, size, size),
         (size // 64, size // 64, 1), lambda out: (out[2], a @ b)),
    ]
    workers = num_workers() or os.cpu_count()
    print(f"CPU emulator, {arch.name} (warp {arch.warp_size}), {workers} worker threads; "
          f"median of {repeat} launches, JIT excluded")
    header = f"{'workload':<28}{'blocks':>8}{'threads':>10}{'wall ms':>10}{'instr/thread':>14}{'thread-instr/s':>16}"
    print(header)
    print("-" * len(header))
    for name, fn, signature, constexprs, make_args, grid, reference in workloads:
        jitted = _jit(fn)
        src = ASTSource(jitted, signature={**signature, **{k: "constexpr" for k in constexprs}}, constexprs=constexprs)
        compiled = triton.compile(src, target=target)
        emuir = compiled.asm["emuir"]
        plain, counting = load_kernel(emuir), load_kernel(emuir, count_instructions=True)
        launcher = EmulatorLauncher(src, compiled.metadata)
        tensors = make_args()
        call_args = (*tensors, *constexprs.values())

        def run(kernel: Any) -> Tuple[float, int]:
            slots, buffers = launcher.pack(kernel, call_args)
            start = time.perf_counter()
            instructions, _ = kernel.launch(grid, slots, buffers, num_workers=num_workers())
            return time.perf_counter() - start, instructions

        run(plain)  # warm-up: page in stacks and tensors
        wall = statistics.median(run(plain)[0] for _ in range(repeat))
        _, instructions = run(counting)
        got, want = reference(tensors)
        torch.testing.assert_close(got, want, rtol=1e-4, atol=1e-4)
        blocks = grid[0] * grid[1] * grid[2]
        threads = blocks * compiled.metadata.num_warps * arch.warp_size
        print(f"{name:<28}{blocks:>8}{threads:>10}{wall * 1e3:>10.1f}{instructions / threads:>14.1f}"
              f"{instructions / wall:>16.3e}")
    print("thread-instructions: LLVM IR instructions of the host-compiled kernel (O2), counted per GPU thread")


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arch", default=os.environ.get("TRITON_MUSA_ARCH", "mp_31"), choices=("mp_31", "mp_22"))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", default="", help="comma-separated substrings of case names")
    parser.add_argument("--no-first-call", action="store_true", help="skip the fresh-process first-call table")
    parser.add_argument("--first-call-cases", default="vector add,descriptor matmul 128",
                        help="comma-separated substrings of the cases whose first call is measured")
    parser.add_argument("--throughput", action="store_true", help="print the older throughput table instead")
    parser.add_argument("--n", type=int, default=1 << 20)
    parser.add_argument("--block", type=int, default=1024)
    parser.add_argument("--first-call", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--serve-interpreter", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    os.environ["TRITON_MUSA_ARCH"] = args.arch

    if args.first_call is not None:
        seconds, since_start = first_call(args.first_call)
        print(json.dumps({"seconds": seconds, "since_start": since_start}))
        return 0
    if args.serve_interpreter:
        serve_interpreter()
        return 0
    if args.throughput:
        throughput(args.arch, args.n, args.block, args.repeat)
        return 0

    from triton_musa.backend.environment import emulator_threads
    wanted = [s for s in args.only.split(",") if s]
    selected = [c for c in cases() if not wanted or any(w in c.name for w in wanted)]
    workers = emulator_threads() or os.cpu_count()
    rows = warm_table(selected, args.repeat, args.arch)
    print_table(rows, f"CPU emulator ({args.arch}, {workers} worker threads) against TRITON_INTERPRET=1, torch CPU "
                f"tensors, median of {args.repeat} warm calls each, back to back:")
    if args.no_first_call:
        return 0
    first = [c for c in selected if any(w in c.name for w in args.first_call_cases.split(",") if w)]
    print()
    print("First call in a fresh process (Triton's cache, the emulator's object code in it, filled by the run "
          "above); in parentheses from the start of the process (imports included):")
    print("| kernel | emulator | Triton interpreter | emulator / interpreter |")
    print("|---|---|---|---|")
    for case in first:
        emu = fastest_first_call(case.name, args.arch, False)
        interp = fastest_first_call(case.name, args.arch, True)
        cells = [f"{run[0] * 1e3:.0f} ms ({run[1] * 1e3:.0f} ms)" if run else "failed (see stderr)"
                 for run in (emu, interp)]
        ratio = f"{emu[0] / interp[0]:.1f}x ({emu[1] / interp[1]:.1f}x)" if emu and interp else "-"
        print(f"| {case.name} | {cells[0]} | {cells[1]} | {ratio} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
