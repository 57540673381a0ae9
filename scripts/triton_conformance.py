#!/usr/bin/env python3
"""Runs a reproducible random sample of Triton's own language tests against the MUSA CPU emulator
and groups the failures by cause.

Triton's tests are not part of this repository: point --tests at a local copy of the 3.6 release
line's ``python/test/unit/language/`` (with a conftest providing the ``device`` fixture and the
``--device`` option, as Triton's own ``python/test/conftest.py`` does). Example:

    TRITON_MUSA_ARCH=mp_31 scripts/triton_conformance.py --tests /tmp/conform \\
        --file test_core.py --sample 300 --seed 0 -k "shift_op or bitwise_op"

``--match`` keeps the test ids a regular expression finds (before sampling), for what ``-k`` cannot
express, e.g. parameter values: ``--match 'test_scaled_dot\[(32|64)-(32|64)-'``.

Failures whose cause lies outside the backend (OUTSIDE_THE_BACKEND: reason and evidence for each) are
counted apart and left out of the percentage. Prints pass/fail/skip counts and one line per distinct failure cause (the exception's first line
with numbers and quoted names blanked), most frequent first, with an example test id.
"""

from __future__ import annotations

import argparse
import collections
import os
import random
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Dict, List, Tuple


# Failures whose cause is outside the backend, each with the reason and the evidence: counted apart from
# the backend's failures (and named as such) instead of among them. Keys are searched in the failure message.
OUTSIDE_THE_BACKEND: Dict[str, str] = {
    "pin_memory=True requires a CUDA or other accelerator backend":
        "torch's CPU build has no pinned-memory allocator: the test's torch.empty(..., pin_memory=True) raises "
        "before Triton or the backend runs (`python -c \"import torch; torch.empty(1, pin_memory=True)\"` "
        "raises the same RuntimeError); the emulator's launcher takes any CPU tensor, pinned or not "
        "(it checks only the device type)",
}


def outside_reason(message: str) -> str:
    return next((reason for key, reason in OUTSIDE_THE_BACKEND.items() if key in message), "")


def collect(tests: Path, files: List[str], keyword: str) -> List[str]:
    cmd = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *files]
    if keyword:
        cmd += ["-k", keyword]
    out = subprocess.run(cmd, cwd=tests, capture_output=True, text=True).stdout
    return [line.strip() for line in out.splitlines() if "::" in line and not line.startswith(" ")]


def cause_of(message: str) -> str:
    """A failure message reduced to its cause: first line, numbers and quoted names blanked."""
    lines = [ln.strip() for ln in message.splitlines() if ln.strip()]
    line = lines[0] if lines else "(no message)"
    if "CompilationError: at" in line:  # the cause is the exception named after the source excerpt
        inner = [ln for ln in lines[1:] if re.match(r"[\w.]*(Error|Exception)\b", ln)]
        line = f"CompilationError: {inner[-1]}" if inner else line
    line = re.sub(r"'[^'\s]{0,60}'", "'…'", line)  # names, not whole messages
    line = re.sub(r"\((?:'…'|[(), ])*\)", "(…)", line)  # tuple signatures of any shape
    line = re.sub(r"0x[0-9a-fA-F]+|\d+", "N", line)
    return line[:160]


def run(tests: Path, ids: List[str], device: str, timeout: int) -> Tuple[Dict[str, int], Dict[str, List[str]]]:
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.xml"
        cmd = [
            sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--device={device}",
            f"--junitxml={report}", "-o", "junit_family=xunit1", *ids
        ]
        try:
            subprocess.run(cmd, cwd=tests, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            print(f"timed out after {timeout} s; counting what finished", file=sys.stderr)
        counts: Dict[str, int] = collections.Counter()
        causes: Dict[str, List[str]] = collections.defaultdict(list)
        if not report.exists():
            return counts, causes
        for case in ET.parse(report).getroot().iter("testcase"):
            name = f"{case.get('classname', '')}::{case.get('name', '')}"
            failure = case.find("failure")
            if failure is None:
                failure = case.find("error")
            if failure is not None:
                message = failure.get("message", "") or failure.text or ""
                reason = outside_reason(message + (failure.text or ""))
                counts["outside" if reason else "failed"] += 1
                cause = cause_of(message)
                causes[f"[outside the backend: {reason}] {cause}" if reason else cause].append(name)
            elif case.find("skipped") is not None:
                counts["skipped"] += 1
            else:
                counts["passed"] += 1
    return counts, causes


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tests", type=Path, required=True, help="folder with Triton's language test files")
    parser.add_argument("--file", action="append", default=[], help="test file(s) in --tests (default: all test_*.py)")
    parser.add_argument("-k", dest="keyword", default="", help="pytest -k expression applied before sampling")
    parser.add_argument("--match", default="", help="regular expression a test id must contain (before sampling)")
    parser.add_argument("--sample", type=int, default=200, help="cases to run (0: all collected)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--device", default="cpu", help="the --device option passed to Triton's tests")
    parser.add_argument("--timeout", type=int, default=3600)
    args = parser.parse_args(argv)

    os.environ.setdefault("TRITON_MUSA_EMULATOR", "1")
    files = args.file or sorted(p.name for p in args.tests.glob("test_*.py"))
    ids = collect(args.tests, files, args.keyword)
    if args.match:
        ids = [i for i in ids if re.search(args.match, i)]
    if not ids:
        print("no tests collected", file=sys.stderr)
        return 1
    sample = ids if args.sample <= 0 or args.sample >= len(ids) else random.Random(args.seed).sample(ids, args.sample)
    counts, causes = run(args.tests, sorted(sample), args.device, args.timeout)
    ran = counts["passed"] + counts["failed"]
    arch = os.environ.get("TRITON_MUSA_ARCH", "mp_31")
    print(f"{arch}: {len(sample)} of {len(ids)} collected cases; passed {counts['passed']}, "
          f"failed {counts['failed']}, failed outside the backend {counts['outside']}, skipped {counts['skipped']}"
          + (f" ({100 * counts['passed'] / ran:.0f}% of those run)" if ran else ""))
    for cause, names in sorted(causes.items(), key=lambda kv: -len(kv[1])):
        print(f"{len(names):5d}  {cause}\n       e.g. {names[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
