"""Write the TTIR and TTGIR of every corpus kernel for every target it applies to.

    /work/venv/bin/python test/python/dump_corpus.py OUTDIR [NAME ...]

Produces OUTDIR/<kernel>.<arch>.ttir and .ttgir (exactly as Triton prints them,
locations included), OUTDIR/<kernel>.<arch>.error.txt for kernels Triton fails to
compile, and OUTDIR/index.json describing each entry and its outcome.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Any, Dict, List


def compile_entry(entry: Any, arch: str) -> Dict[str, str]:
    """Compile one corpus entry for one arch; returns {"ttir": text, "ttgir": text}."""
    from corpus import TARGETS
    from triton_musa.backend.compiler import compile_to_ttgir

    # Triton's stages only: the dump is the input of our lowering, not its output.
    return compile_to_ttgir(entry.source(), TARGETS[arch], dict(entry.options))


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir", type=Path)
    parser.add_argument("names", nargs="*", help="only these corpus entries (default: all)")
    args = parser.parse_args(argv)

    # A private cache: dumps must reflect the current backend, never a stale cache entry.
    os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="triton-musa-dump-"))
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from corpus import BY_NAME, ENTRIES

    entries = [BY_NAME[n] for n in args.names] if args.names else ENTRIES
    args.outdir.mkdir(parents=True, exist_ok=True)
    index = []
    failures = 0
    for e in entries:
        for arch in e.archs:
            stem = f"{e.name}.{arch}"
            record: Dict[str, Any] = {"name": e.name, "arch": arch, "kernel": e.fn.__name__,
                                      "options": e.options, "signature": e.signature,
                                      "constexprs": {k: repr(v) for k, v in e.constexprs.items()}}
            try:
                ir = compile_entry(e, arch)
            except Exception as exc:  # Triton's own frontend/pass errors: record them and go on
                failures += 1
                message = "".join(traceback.format_exception_only(type(exc), exc)).strip()
                (args.outdir / f"{stem}.error.txt").write_text(traceback.format_exc())
                record.update(status="error", error=message)
                print(f"FAIL {stem}: {message.splitlines()[-1] if message else type(exc).__name__}")
            else:
                for stage, text in ir.items():
                    (args.outdir / f"{stem}.{stage}").write_text(text)
                stale = args.outdir / f"{stem}.error.txt"
                if stale.exists():
                    stale.unlink()
                record.update(status="ok", files=[f"{stem}.ttir", f"{stem}.ttgir"])
                print(f"ok   {stem}")
            index.append(record)
    (args.outdir / "index.json").write_text(json.dumps(index, indent=1, default=str) + "\n")
    total = len(index)
    print(f"{total - failures}/{total} compiled; IR in {args.outdir}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
