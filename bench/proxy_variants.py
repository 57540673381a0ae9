"""Variants of a built GPU-proxy bundle with one decision taken out of each kernel's K loop, to find what a
config's time goes to: time the variant beside the bundle it came from, in one call on the GPU machine.

  python bench/proxy_variants.py --bundle bench/proxy_bundle/X --out bench/proxy_bundle/Y \\
      --take-out copy-wait [--take-out unit-wait ...] [cases ...]

What can be taken out of the loop whose body issues the matrix unit (the PTX loop holding a `wgmma.fence`):
  copy-wait     every `cp.async.wait_all` (MUSA's g2s wait, which completes all of a thread's copies)
  copy-barrier  the `bar.sync 0` that follows each of those waits (only together with copy-wait)
  unit-wait     the loop's wait for its SQMMA (before the next one is issued where the plan keeps it in
                flight, else right after it): its `wgmma.wait_group 0` becomes `wait_group 1`, so one
                wgmma stays in flight as Triton's Hopper loops keep one

A variant's results may be wrong (a wait is gone): it measures how much the decision costs at most, it is
no fix. The PTX of each case is edited, then assembled with the triton wheel's ptxas for the proxy's GPU,
into a bundle of its own beside the client sources the original holds (`proxy_gpu.py run --bundle Y`).
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

TAKE_OUTS = ("copy-wait", "copy-barrier", "unit-wait")
_LABEL = re.compile(r"^(\$L__BB\d+_\d+):")
_BRANCH = re.compile(r"\bbra(?:\.uni)?\s+(\$L__BB\d+_\d+);")
_BARRIER = re.compile(r"^\s*bar\.sync\s+0;")
_UNIT_WAIT = "wgmma.wait_group.sync.aligned 0;"


class NoMatrixLoop(ValueError):
    """The PTX has no loop that issues the matrix unit, or nothing of what was asked to take out."""


@dataclass
class Edit:
    """What one case's edit took out, by kind."""
    removed: Dict[str, int] = field(default_factory=lambda: {kind: 0 for kind in TAKE_OUTS})


def matrix_loop(lines: Sequence[str]) -> Tuple[int, int]:
    """[first, last] line of the loop whose body holds a `wgmma.fence`: the union of the backward branches'
    ranges that contain one (a rotated loop branches back from more than one place)."""
    labels = {m.group(1): i for i, line in enumerate(lines) if (m := _LABEL.match(line))}
    first, last = None, None
    for i, line in enumerate(lines):
        m = _BRANCH.search(line)
        if not m or labels.get(m.group(1), len(lines)) >= i:
            continue
        head = labels[m.group(1)]
        if any("wgmma.fence" in body for body in lines[head:i]):
            first = head if first is None else min(first, head)
            last = i if last is None else max(last, i)
    if first is None or last is None:
        raise NoMatrixLoop("no loop of the PTX issues wgmma (no backward branch around a wgmma.fence)")
    return first, last


def take_out(ptx: str, kinds: Sequence[str]) -> Tuple[str, Edit]:
    """`ptx` with `kinds` taken out of its matrix loop, and what was."""
    unknown = [k for k in kinds if k not in TAKE_OUTS]
    if unknown:
        raise ValueError(f"cannot take out {', '.join(unknown)}: one of {', '.join(TAKE_OUTS)}")
    if "copy-barrier" in kinds and "copy-wait" not in kinds:
        raise ValueError("copy-barrier is taken out only with copy-wait (the barrier orders the wait)")
    lines = ptx.split("\n")
    first, last = matrix_loop(lines)
    edit = Edit()
    dropped = set()
    for i in range(first, last):
        if "copy-wait" in kinds and "cp.async.wait_all" in lines[i]:
            dropped.add(i)
            edit.removed["copy-wait"] += 1
            if "copy-barrier" in kinds:
                barrier = next((j for j in range(i + 1, min(i + 4, last)) if _BARRIER.match(lines[j])), None)
                if barrier is not None:
                    dropped.add(barrier)
                    edit.removed["copy-barrier"] += 1
    if "unit-wait" in kinds:
        # The unit in flight is waited for before the next is issued; else it is waited for right after
        # its own commit.
        fence = next(i for i in range(first, last) if "wgmma.fence" in lines[i])
        commit = next((i for i in range(fence, last) if "wgmma.commit_group" in lines[i]), last)
        before = [i for i in range(first, fence) if _UNIT_WAIT in lines[i]]
        after = [i for i in range(commit, last) if _UNIT_WAIT in lines[i]]
        wait = before[-1] if before else after[0] if after else None
        if wait is not None:
            lines[wait] = lines[wait].replace(_UNIT_WAIT, "wgmma.wait_group.sync.aligned 1;")
            edit.removed["unit-wait"] += 1
    missing = [k for k in kinds if edit.removed[k] == 0]
    if missing:
        raise NoMatrixLoop(f"the matrix loop has no {' and no '.join(missing)} to take out")
    return "\n".join(line for i, line in enumerate(lines) if i not in dropped), edit


def _ptxas(ptx_file: Path, cubin_file: Path, target: str) -> None:
    from triton_musa.backend import proxy
    sm = proxy.PROXY_TARGETS[target].sm
    cmd = [str(proxy.ptxas_path()), f"--gpu-name={sm}", "-O3", str(ptx_file), "-o", str(cubin_file)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"`{' '.join(cmd)}` failed:\n{done.stderr}")


def make_variant(bundle: Path, out: Path, kinds: Sequence[str], only: Sequence[str]) -> int:
    """Writes the variant bundle; returns the number of cases that could not be edited."""
    cases = sorted(p.stem for p in bundle.glob("*.ptx")
                   if not only or any(fnmatch.fnmatchcase(p.stem, pattern) for pattern in only))
    if not cases:
        raise SystemExit(f"{bundle} holds no case matching {list(only) or 'anything'} (no .ptx)")
    out.mkdir(parents=True, exist_ok=True)
    for source in bundle.iterdir():  # the client's sources, which `run` loads the kernels from
        if source.is_dir() and not (out / source.name).exists():
            shutil.copytree(source, out / source.name)
    failures = 0
    for case in cases:
        meta = json.loads((bundle / f"{case}.json").read_text())
        try:
            ptx, edit = take_out((bundle / f"{case}.ptx").read_text(), kinds)
        except NoMatrixLoop as exc:
            print(f"{case:40s} not edited: {exc}")
            failures += 1
            continue
        (out / f"{case}.ptx").write_text(ptx)
        (out / f"{case}.json").write_text(json.dumps(meta, indent=1))
        _ptxas(out / f"{case}.ptx", out / f"{case}.cubin", meta["target"])
        taken = ", ".join(f"{n} {kind}" for kind, n in edit.removed.items() if n)
        print(f"{case:40s} taken out: {taken}")
    return failures


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bundle", type=Path, required=True, help="a bundle `proxy_gpu.py build` wrote")
    parser.add_argument("--out", type=Path, required=True, help="the variant bundle to write")
    parser.add_argument("--take-out", action="append", required=True, choices=TAKE_OUTS, dest="kinds")
    parser.add_argument("cases", nargs="*", help="only these cases (names or shell patterns)")
    args = parser.parse_args(argv)
    return 1 if make_variant(args.bundle, args.out, args.kinds, args.cases) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
