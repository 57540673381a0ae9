"""Our pipeline's code on a real NVIDIA GPU, beside Triton's own NVIDIA backend and PyTorch.

Two steps, because the GPU machine has no LLVM of ours and our extension is built here:

  python bench/proxy_gpu.py build [--out bench/proxy_bundle]     # here: compile for GPUTarget("musa", "proxy_sm90", 32)
  python bench/proxy_gpu.py run   [--bundle bench/proxy_bundle] [--repeat N]  # on the GPU machine

``build`` compiles every case of bench/proxy_kernels.py with the proxy target (same TTGIR and
passes as mp_31, NVVM below the target interface, PTX from LLVM's NVPTX backend, cubin from the
wheel's ptxas) and writes ``<case>.cubin``, ``<case>.ptx`` and ``<case>.json`` (name, num_warps,
shared bytes). ``run`` imports only triton, torch and the plain-Python kernel file: per case it
compiles the same source (same specialization) with Triton's NVIDIA backend for cuda:90, launches
our cubin through Triton's CUDA launcher (CompiledKernel with the reference's metadata, our
name, warps and shared memory), checks both against PyTorch on the GPU (``--repeat N``: N launches,
each checked, for races that show once in a while) and times ours, Triton's
and PyTorch's with ``triton.testing.do_bench`` (the median of TIMING_ROUNDS calls each, in alternating
order, so that the GPU's clock drop under load does not favour the kernel timed first). It prints a markdown table and writes
``proxy_results.json`` (to $OUT when set).

``--client liger`` does the same for Liger-Kernel's own kernels (bench/proxy_liger.py): ``build`` also
copies Liger's sources into the bundle (``liger_src/``) and both steps import its kernels from there.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))

import proxy_kernels  # noqa: E402

DEFAULT_BUNDLE = Path(__file__).resolve().parent / "proxy_bundle"
PROXY_ARCH = "proxy_sm90"
# do_bench calls per kernel, in alternating order; the table gives their median.
TIMING_ROUNDS = 4
# --client: a client library's own kernels, from a module beside this file with prepare_bundle(bundle)
# (copies what the GPU machine imports into the bundle) and cases(bundle) (imports them from there).
CLIENTS = {"liger": "proxy_liger"}


def _cases(client: Optional[str], bundle: Path) -> List[Any]:
    if client is None:
        return proxy_kernels.cases()
    return importlib.import_module(CLIENTS[client]).cases(bundle)


def build(out: Path, only: List[str], client: Optional[str] = None) -> int:
    from triton.backends.compiler import GPUTarget
    import triton
    out.mkdir(parents=True, exist_ok=True)
    if client is not None:
        importlib.import_module(CLIENTS[client]).prepare_bundle(out)
    target = GPUTarget("musa", PROXY_ARCH, 32)
    failures = 0
    for case in _cases(client, out):
        if only and case.name not in only:
            continue
        start = time.perf_counter()
        try:
            kernel = triton.compile(case.source(), target=target, options=case.options())
        except Exception as exc:  # report every case, then fail
            failures += 1
            print(f"{case.name:18s} FAILED: {type(exc).__name__}: {exc}")
            continue
        (out / f"{case.name}.cubin").write_bytes(kernel.asm["cubin"])
        (out / f"{case.name}.ptx").write_text(kernel.asm["ptx"])
        meta = {"name": kernel.metadata.name, "num_warps": kernel.metadata.num_warps,
                "shared": kernel.metadata.shared, "target": PROXY_ARCH,
                "tensordesc_meta": kernel.metadata.tensordesc_meta}
        (out / f"{case.name}.json").write_text(json.dumps(meta, indent=1))
        print(f"{case.name:18s} ok  {len(kernel.asm['cubin']):7d} B cubin, shared {meta['shared']:6d} B, "
              f"{time.perf_counter() - start:5.1f} s")
    return 1 if failures else 0


def _load_ours(case: Any, src: Any, reference: Any, bundle: Path, tmp: Path) -> Any:
    """Our cubin as a CompiledKernel for Triton's CUDA launcher: the reference's metadata (every field
    the launcher reads for cuda:90), with our kernel's name, warps, shared memory and tensor maps."""
    from triton.compiler.compiler import CompiledKernel
    ours = json.loads((bundle / f"{case.name}.json").read_text())
    meta = reference.metadata._asdict()
    target = meta["target"]
    meta["target"] = {"backend": target.backend, "arch": target.arch, "warp_size": target.warp_size}
    meta.update(name=ours["name"], num_warps=ours["num_warps"], shared=ours["shared"], global_scratch_size=0,
                profile_scratch_size=0)
    # Our tensor maps' boxes and swizzles (Triton's launcher encodes host TensorDescriptors with them).
    if ours.get("tensordesc_meta") is not None:
        meta["tensordesc_meta"] = ours["tensordesc_meta"]
    json_path, cubin_path = tmp / f"{case.name}.json", tmp / f"{case.name}.cubin"
    json_path.write_text(json.dumps(meta))
    cubin_path.write_bytes((bundle / f"{case.name}.cubin").read_bytes())
    return CompiledKernel(src, {json_path.name: str(json_path), cubin_path.name: str(cubin_path)},
                          f"proxy-{case.name}")


def _rate(case: Any, ms: float) -> float:
    scale = 1e-9 if case.unit == "GB/s" else 1e-12
    return case.amount * scale / (ms * 1e-3)


def run(bundle: Path, only: List[str], repeat: int = 1, client: Optional[str] = None) -> int:
    import torch
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.testing import do_bench
    device = torch.device("cuda")
    target = GPUTarget("cuda", 90, 32)
    rows: List[Dict[str, Any]] = []
    tmp = Path(tempfile.mkdtemp(prefix="proxy-"))
    for case in _cases(client, bundle):
        if only and case.name not in only:
            continue
        row: Dict[str, Any] = {"kernel": case.name, "unit": case.unit, "memory_bound": case.memory_bound}
        rows.append(row)
        try:
            src = case.source()
            reference = triton.compile(src, target=target, options=case.options())
            ours = _load_ours(case, src, reference, bundle, tmp)
            setup = case.setup(device, case)
            setup.grid = tuple(setup.grid) + (1, ) * (3 - len(setup.grid))  # CompiledKernel reads grid[0..2]
            for label, kernel in (("ours", ours), ("triton", reference)):
                errors = []
                for _ in range(repeat):  # races show as an occasional wrong run
                    setup.reset()
                    kernel[setup.grid](*setup.args)
                    torch.cuda.synchronize()
                    if (error := setup.check()) is not None:
                        errors.append(error)
                row[f"{label}_error"] = None if not errors else (
                    errors[0] if repeat == 1 else f"{len(errors)} of {repeat} runs wrong, first: {errors[0]}")

            def launcher(kernel: Any) -> Any:
                def go() -> None:
                    setup.reset()
                    kernel[setup.grid](*setup.args)
                return go

            # Rounds alternate which kernel goes first: under a long compute-bound load the H200's clock
            # drops, and the kernel timed second read 12% slower than the same cubin timed first.
            timed: Dict[str, List[float]] = {"ours": [], "triton": [], "torch": []}
            fns = {"ours": launcher(ours), "triton": launcher(reference), "torch": setup.torch_fn}
            for r in range(TIMING_ROUNDS):
                order = ("ours", "triton", "torch") if r % 2 == 0 else ("torch", "triton", "ours")
                for label in order:
                    timed[label].append(do_bench(fns[label]))
            for label, samples in timed.items():
                row[f"{label}_ms"] = statistics.median(samples)
            for label in ("ours", "triton", "torch"):
                row[f"{label}_rate"] = _rate(case, row[f"{label}_ms"])
            row["ratio"] = row["triton_ms"] / row["ours_ms"]
        except Exception as exc:  # a failing case is reported in the table, the others still run
            import traceback
            row["exception"] = f"{type(exc).__name__}: {exc}"
            row["traceback"] = traceback.format_exc()
        print(json.dumps(row), flush=True)

    print()
    print(f"GPU: {torch.cuda.get_device_name()}, triton {triton.__version__}, torch {torch.__version__}")
    print()
    print("| kernel | correct | ours | Triton NVIDIA | torch | ours / Triton |")
    print("|---|---|---|---|---|---|")
    failures = 0
    for row in rows:
        if "exception" in row:
            failures += 1
            print(f"| {row['kernel']} | error: {row['exception'][:120]} | | | | |")
            continue
        correct = "yes" if row["ours_error"] is None else f"NO: {row['ours_error']}"
        if row["ours_error"] is not None:
            failures += 1
        if row["triton_error"] is not None:
            correct += f" (Triton: {row['triton_error']})"
        unit = row["unit"]
        print(f"| {row['kernel']} | {correct} | {row['ours_rate']:.0f} {unit} | {row['triton_rate']:.0f} {unit} | "
              f"{row['torch_rate']:.0f} {unit} | {row['ratio']:.2f}x |" if unit == "GB/s" else
              f"| {row['kernel']} | {correct} | {row['ours_rate']:.2f} {unit} | {row['triton_rate']:.2f} {unit} | "
              f"{row['torch_rate']:.2f} {unit} | {row['ratio']:.2f}x |")
    out_dir = Path(os.environ.get("OUT", bundle))
    (out_dir / "proxy_results.json").write_text(json.dumps(rows, indent=1))
    return 1 if failures else 0


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="compile the bundle for the proxy (here)")
    b.add_argument("--out", type=Path, default=None, help=f"default {DEFAULT_BUNDLE}[/<client>]")
    b.add_argument("--client", choices=CLIENTS, default=None, help="a client library's kernels instead")
    b.add_argument("cases", nargs="*", help="only these cases")
    r = sub.add_parser("run", help="launch, check and time the bundle (on the GPU machine)")
    r.add_argument("--bundle", type=Path, default=None, help=f"default {DEFAULT_BUNDLE}[/<client>]")
    r.add_argument("--client", choices=CLIENTS, default=None, help="a client library's kernels instead")
    r.add_argument("--repeat", type=int, default=1, help="launch and check each kernel this many times")
    r.add_argument("cases", nargs="*", help="only these cases")
    args = parser.parse_args(argv)
    default = DEFAULT_BUNDLE / args.client if args.client else DEFAULT_BUNDLE
    if args.command == "build":
        return build(args.out or default, args.cases, args.client)
    return run(args.bundle or default, args.cases, args.repeat, args.client)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
