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
``--client tutorials`` does it for Triton 3.6's tutorial kernels, one case per config of their autotune
lists (bench/proxy_tutorials.py). Case names on the command line may be shell patterns (``'t06_*'``).

``build --pipeline-option NAME=VALUE`` (repeatable) compiles with an option of --musa-pipeline-loops
(Passes.td), for a bundle timed in the same run as one built without it.

``build`` compiles each case in a forked process, so that a crash in native code (a signal, LLVM's
fatal-error exit) fails that case and the others still build. A config that a compile refuses (more shared
memory than the target has, or one the kernel's own ``static_assert`` rejects: what an autotuner skips) is
not a failure: ``build`` lists it as refused and records why in ``<case>.json``, and ``run`` still checks
and times Triton's compile of it (as it does where ours failed to build, which is a failure).
"""

from __future__ import annotations

import argparse
import fnmatch
import importlib
import json
import os
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))

import proxy_kernels  # noqa: E402

DEFAULT_BUNDLE = Path(__file__).resolve().parent / "proxy_bundle"
PROXY_ARCH = "proxy_sm90"
# do_bench calls per kernel, in alternating order; the table gives their median.
TIMING_ROUNDS = 4
# --client: a client library's own kernels, from a module beside this file with prepare_bundle(bundle)
# (copies what the GPU machine imports into the bundle) and cases(bundle) (imports them from there).
# A client module may also define summary(rows, cases) -> lines that run prints under its table.
CLIENTS = {"liger": "proxy_liger", "tutorials": "proxy_tutorials"}


def _cases(client: Optional[str], bundle: Path, only: List[str]) -> List[Any]:
    """The cases whose names match one of the patterns in ``only`` (all when it is empty)."""
    every = proxy_kernels.cases() if client is None else importlib.import_module(CLIENTS[client]).cases(bundle)
    return [c for c in every if not only or any(fnmatch.fnmatchcase(c.name, p) for p in only)]


def _refusal(exc: BaseException) -> Optional[str]:
    """Why a compile refused the config, as an autotuner would skip it (Triton's OutOfResources, which our
    backend raises past the shared memory, or the kernel's static_assert), or None for any other failure."""
    from triton.compiler.errors import CompileTimeAssertionFailure
    required, limit = getattr(exc, "required", None), getattr(exc, "limit", None)
    if isinstance(required, int) and isinstance(limit, int):
        return f"needs {required} B of {getattr(exc, 'name', 'shared memory')}, the limit is {limit} B"
    if isinstance(exc, CompileTimeAssertionFailure):
        return f"the kernel's static_assert rejects it: {_first_line(exc)}"
    return None


def _first_line(exc: BaseException) -> str:
    """The line that says what went wrong. A CompilationError's text starts with the kernel's source: its
    message, or else (a static_assert without one) the source line it points at."""
    text = str(exc)
    if hasattr(exc, "error_message") and getattr(exc, "node", None) is not None:
        lineno, src = getattr(exc.node, "lineno", None), getattr(exc, "src", None) or ""
        text = exc.error_message or (src.split("\n")[lineno - 1] if lineno else "")
    lines = [line.strip() for line in text.splitlines() if line.strip()] or [type(exc).__name__]
    # A headline that ends in a colon ("kernel 'k' does not compile for proxy_sm90:") introduces the reason.
    return f"{lines[0]} {lines[1]}" if lines[0].endswith(":") and len(lines) > 1 else lines[0]


OUTCOMES = ("ok", "refused", "failed")  # of one case's build
OUTCOME_EXIT = 100  # + the outcome's index: how a case's process reports it (LLVM's fatal errors exit with 1)


def _build_case(case: Any, out: Path, target: Any) -> str:
    """Compiles one case into ``out`` and prints its line; returns its outcome."""
    import triton
    start = time.perf_counter()
    for suffix in (".cubin", ".ptx", ".json"):  # no stale cubin from an earlier build runs for this one
        (out / f"{case.name}{suffix}").unlink(missing_ok=True)
    try:
        kernel = triton.compile(case.source(), target=target, options=case.options())
    except Exception as exc:  # report every case, then fail
        reason = _refusal(exc)
        if reason is not None:
            (out / f"{case.name}.json").write_text(json.dumps({"refused": reason}))
            print(f"{case.name:18s} refused: {reason}")
            return "refused"
        print(f"{case.name:18s} FAILED: {type(exc).__name__}: {_first_line(exc)}")
        return "failed"
    (out / f"{case.name}.cubin").write_bytes(kernel.asm["cubin"])
    (out / f"{case.name}.ptx").write_text(kernel.asm["ptx"])
    meta = {"name": kernel.metadata.name, "num_warps": kernel.metadata.num_warps,
            "shared": kernel.metadata.shared, "target": PROXY_ARCH,
            "tensordesc_meta": kernel.metadata.tensordesc_meta}
    (out / f"{case.name}.json").write_text(json.dumps(meta, indent=1))
    print(f"{case.name:18s} ok  {len(kernel.asm['cubin']):7d} B cubin, shared {meta['shared']:6d} B, "
          f"{time.perf_counter() - start:5.1f} s")
    return "ok"


def _isolated(case: Any, out: Path, target: Any) -> str:
    """_build_case in a forked process: a crash in native code (a signal, LLVM's fatal-error exit) costs
    that case, not the build."""
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            code = OUTCOME_EXIT + OUTCOMES.index(_build_case(case, out, target))
        except BaseException:
            import traceback
            traceback.print_exc()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    status = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    if 0 <= status - OUTCOME_EXIT < len(OUTCOMES):
        return OUTCOMES[status - OUTCOME_EXIT]
    how = f"killed by {signal.Signals(-status).name}" if status < 0 else f"exit status {status}"
    print(f"{case.name:18s} FAILED: the compiling process died ({how})")
    return "failed"


def build(out: Path, only: List[str], client: Optional[str] = None, pipeline_options: Sequence[str] = ()) -> int:
    from triton.backends.compiler import GPUTarget
    if pipeline_options:
        # The planner's switches, for a bundle to time beside one built without them: compiled afresh into a
        # cache of their own, since Triton's cache key does not know them.
        from triton_musa.backend import lowering
        original = lowering.matrix_passes
        lowering.matrix_passes = lambda *a, **k: lowering.with_pipeline_options(original(*a, **k), pipeline_options)
        os.environ["TRITON_ALWAYS_COMPILE"] = "1"
        os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="proxy-pipeline-options-")
    out.mkdir(parents=True, exist_ok=True)
    if client is not None:
        importlib.import_module(CLIENTS[client]).prepare_bundle(out)
    target = GPUTarget("musa", PROXY_ARCH, 32)
    outcomes = [_isolated(case, out, target) for case in _cases(client, out, only)]
    refused, failures = outcomes.count("refused"), outcomes.count("failed")
    print(f"{outcomes.count('ok')} built, {refused} refused, {failures} failed")
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


def _compile_reference(case: Any, src: Any, target: Any, row: Dict[str, Any]) -> Optional[Any]:
    """Triton NVIDIA's compile of the case, or None where it refuses the config (recorded in ``row``)."""
    import triton
    try:
        kernel = triton.compile(src, target=target, options=case.options())
        kernel._init_handles()  # the load, where Triton checks the shared memory against the device's
        return kernel
    except Exception as exc:
        reason = _refusal(exc)
        if reason is None:
            raise
        row["triton_refused"] = reason
        return None


def run(bundle: Path, only: List[str], repeat: int = 1, client: Optional[str] = None) -> int:
    import torch
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.testing import do_bench
    device = torch.device("cuda")
    target = GPUTarget("cuda", 90, 32)
    rows: List[Dict[str, Any]] = []
    tmp = Path(tempfile.mkdtemp(prefix="proxy-"))
    cases = _cases(client, bundle, only)
    for case in cases:
        row: Dict[str, Any] = {"kernel": case.name, "unit": case.unit, "memory_bound": case.memory_bound}
        rows.append(row)
        try:
            src = case.source()
            built_json = bundle / f"{case.name}.json"
            built = json.loads(built_json.read_text()) if built_json.is_file() else None
            reference = _compile_reference(case, src, target, row)
            kernels: Dict[str, Any] = {}
            if built is None:  # a failure of ours; Triton's compile is still measured
                row["ours_unbuilt"] = True
                row["ours_error"] = f"not built ({built_json.name} is missing: see the build's output)"
            elif "refused" in built:
                row["ours_refused"] = built["refused"]
            elif reference is not None:  # ours launches with the reference's launcher metadata
                kernels["ours"] = _load_ours(case, src, reference, bundle, tmp)
            if reference is None:
                print(json.dumps(row), flush=True)
                continue
            kernels["triton"] = reference
            setup = case.setup(device, case)
            setup.grid = tuple(setup.grid) + (1, ) * (3 - len(setup.grid))  # CompiledKernel reads grid[0..2]
            for label, kernel in kernels.items():
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
            fns = {label: launcher(kernel) for label, kernel in kernels.items()}
            fns["torch"] = setup.torch_fn
            labels = [label for label in ("ours", "triton", "torch") if label in fns]
            timed: Dict[str, List[float]] = {label: [] for label in labels}
            for r in range(TIMING_ROUNDS):
                for label in labels if r % 2 == 0 else labels[::-1]:
                    timed[label].append(do_bench(fns[label]))
            for label, samples in timed.items():
                row[f"{label}_ms"] = statistics.median(samples)
                row[f"{label}_rate"] = _rate(case, row[f"{label}_ms"])
            if "ours_ms" in row:
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
        line, failed = _table_line(row)
        failures += failed
        print(line)
    summary = getattr(importlib.import_module(CLIENTS[client]), "summary", None) if client else None
    if summary is not None:
        print()
        print("\n".join(summary(rows, cases)))
    out_dir = Path(os.environ.get("OUT", bundle))
    (out_dir / "proxy_results.json").write_text(json.dumps(rows, indent=1))
    return 1 if failures else 0


def _table_line(row: Dict[str, Any]) -> Tuple[str, bool]:
    """The row's line of the markdown table, and whether it is a failure (an error, or ours wrong; a refused
    config is none)."""
    if "exception" in row:
        return f"| {row['kernel']} | error: {row['exception'][:120]} | | | | |", True
    unit = row["unit"]

    def cell(label: str) -> str:
        if f"{label}_refused" in row:
            return f"refused: {row[f'{label}_refused']}"
        if f"{label}_rate" not in row:
            return ""
        return f"{row[f'{label}_rate']:.0f} {unit}" if unit == "GB/s" else f"{row[f'{label}_rate']:.2f} {unit}"

    wrong = row.get("ours_error") is not None
    if "ours_error" in row:  # also set, as the reason, where ours was not built
        correct = f"NO: {row['ours_error']}" if wrong else "yes"
    elif "ours_refused" in row:
        correct = "refused"
    else:
        correct = "not launched: Triton refused the config"
    if row.get("triton_error") is not None:
        correct += f" (Triton: {row['triton_error']})"
    ratio = f"{row['ratio']:.2f}x" if "ratio" in row else ""
    return f"| {row['kernel']} | {correct} | {cell('ours')} | {cell('triton')} | {cell('torch')} | {ratio} |", wrong


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="compile the bundle for the proxy (here)")
    b.add_argument("--out", type=Path, default=None, help=f"default {DEFAULT_BUNDLE}[/<client>]")
    b.add_argument("--client", choices=CLIENTS, default=None, help="a client library's kernels instead")
    b.add_argument("--pipeline-option", action="append", default=[], metavar="NAME=VALUE",
                   help="an option of --musa-pipeline-loops (Passes.td), e.g. batch-beside-matrix-unit=true")
    b.add_argument("cases", nargs="*", help="only these cases (names or shell patterns)")
    r = sub.add_parser("run", help="launch, check and time the bundle (on the GPU machine)")
    r.add_argument("--bundle", type=Path, default=None, help=f"default {DEFAULT_BUNDLE}[/<client>]")
    r.add_argument("--client", choices=CLIENTS, default=None, help="a client library's kernels instead")
    r.add_argument("--repeat", type=int, default=1, help="launch and check each kernel this many times")
    r.add_argument("cases", nargs="*", help="only these cases (names or shell patterns)")
    args = parser.parse_args(argv)
    default = DEFAULT_BUNDLE / args.client if args.client else DEFAULT_BUNDLE
    if args.command == "build":
        return build(args.out or default, args.cases, args.client, args.pipeline_option)
    return run(args.bundle or default, args.cases, args.repeat, args.client)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
