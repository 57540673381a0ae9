"""Compile time per stage: triton-musa (mp_31, mp_22) beside Triton's NVIDIA backend (cuda:90).

    python bench/compile_time.py [--repeat N] [KERNEL ...]     (default: matmul softmax)

Compiles corpus kernels from source with Triton's own compilation listener timing
each stage (the cache is bypassed), and prints the median of N runs per stage, the
total, and our total over the NVIDIA total. The NVIDIA side is compile-only and
includes the bundled ptxas (the `cubin` stage); no GPU is needed for either side.
Stages our backend cannot run on this machine (e.g. `mubin` without a MUSA SDK)
are absent from the table, and a stage that fails is reported with its error.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "test" / "python"))

from triton import knobs  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402

TARGETS: Dict[str, GPUTarget] = {
    "musa:mp_31": GPUTarget("musa", "mp_31", 32),
    "musa:mp_22": GPUTarget("musa", "mp_22", 128),
    "cuda:90": GPUTarget("cuda", 90, 32),
}


@dataclass
class StageTimes:
    """Per-stage durations in milliseconds, one list entry per repetition."""

    stages: Dict[str, List[float]] = field(default_factory=dict)
    error: Optional[str] = None

    def add(self, stage: str, ms: float) -> None:
        self.stages.setdefault(stage, []).append(ms)

    def median(self, stage: str) -> float:
        return statistics.median(self.stages[stage])

    def total(self) -> float:
        return sum(self.median(s) for s in self.stages)


def time_compile(entry, target_name: str, repeat: int) -> StageTimes:
    """Compiles `entry` `repeat` times for a target; the listener reports each stage."""
    import triton

    result = StageTimes()
    target = TARGETS[target_name]
    seen: List[object] = []

    def listener(*, src, metadata, metadata_group, times, cache_hit) -> None:
        seen.append(times)

    knobs.compilation.listener = listener
    try:
        for run in range(repeat + 1):  # run 0 warms up imports and Triton's caches
            seen.clear()
            try:
                kernel = triton.compile(entry.source(), target=target, options=dict(entry.options))
            except Exception as exc:  # an unsupported op in our lowering, say: report, don't hide
                result.error = f"{type(exc).__name__}: {str(exc).strip().splitlines()[-1][:160]}"
                return result
            (times,) = seen
            timed = StageTimes()
            timed.add("make_ir", times.ir_initialization / 1000)
            for stage, us in times.lowering_stages:
                timed.add(stage, us / 1000)
            if target.backend == "musa" and "llir" not in kernel.asm:
                time_musa_llir(kernel, target, timed)
                if timed.error:
                    result.error = timed.error
                    return result
            if run > 0:
                for stage, (ms, ) in timed.stages.items():
                    result.add(stage, ms)
    finally:
        knobs.compilation.listener = None
    return result


def time_musa_llir(kernel, target: GPUTarget, result: StageTimes) -> None:
    """Our llir step, timed on its own where the backend's stage list stops at ttgir."""
    import time

    from triton_musa.backend.lowering import lower_to_llir
    from triton_musa.backend.target import parse_arch

    ttgir = kernel.asm["ttgir"]
    ttgir = ttgir.decode() if isinstance(ttgir, bytes) else ttgir
    start = time.perf_counter()
    try:
        lower_to_llir(ttgir, parse_arch(target.arch))
    except Exception as exc:
        lines = str(exc).strip().splitlines()
        first_error = next((line for line in lines if "error:" in line), lines[0])
        result.error = f"llir: {first_error.strip()[:200]}"
        return
    result.add("llir", (time.perf_counter() - start) * 1000)


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kernels", nargs="*", default=["matmul", "softmax"])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)

    os.environ["TRITON_ALWAYS_COMPILE"] = "1"
    # The device pipeline only: with the CPU emulator active, the backend would add
    # its emulator stage, which a compile for hardware does not run.
    os.environ["TRITON_MUSA_EMULATOR"] = "0"
    os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="triton-musa-bench-"))
    from corpus import BY_NAME

    print(f"compile time per stage, median of {args.repeat} runs, in ms (cache bypassed)\n")
    for name in args.kernels:
        entry = BY_NAME[name]
        results = {t: time_compile(entry, t, args.repeat) for t in TARGETS}
        reference = results["cuda:90"]
        stages: List[str] = []
        for r in results.values():
            stages += [s for s in r.stages if s not in stages]
        header = f"{'stage':<10}" + "".join(f"{t:>14}" for t in TARGETS)
        print(f"{name} (num_warps={entry.options['num_warps']})")
        print(header)
        print("-" * len(header))
        for stage in stages:
            cells = [f"{r.median(stage):14.1f}" if stage in r.stages else f"{'':>14}" for r in results.values()]
            print(f"{stage:<10}" + "".join(cells))
        totals = [f"{r.total():14.1f}" if not r.error else f"{'failed':>14}" for r in results.values()]
        print(f"{'total':<10}" + "".join(totals))
        if not reference.error:
            ratios = [f"{r.total() / reference.total():14.2f}" if not r.error else f"{'':>14}"
                      for r in results.values()]
            print(f"{'vs cuda:90':<10}" + "".join(ratios))
        for target, r in results.items():
            if r.error:
                print(f"  {target}: {r.error}")
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
