"""The C templates of MUSA AOT output, shared by ``python -m triton_musa.tools.compile``
and Triton's own ``python -m triton.tools.compile --target musa:<arch>:<warp>``.

Triton 3.6's tool fills every ``compile.*`` file of ``<triton>/tools/extra/<backend>/``
with ``str.format`` and a fixed set of parameters (``kernel_name``, ``bin_data``,
``signature``, ``full_signature``, ``arg_pointers``, ``algo_info``, ...); the file's
suffix becomes the output's. It has no other lookup, so for the ``musa`` backend the
templates must lie in that directory. The source of truth is ``extra/musa/`` beside this
module; the wheel also installs that directory as ``triton/tools/extra/musa/``
(``[tool.scikit-build.wheel.packages]`` in pyproject.toml: the two files belong to the
triton-musa distribution and leave with it). A source checkout on ``PYTHONPATH`` or an
editable install has no such copy: ``python -m triton_musa.tools.templates --install``
writes it (``--check`` only reports).
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import sys
from pathlib import Path
from typing import Dict, List, Optional, Sequence

from ..backend.launcher import INCLUDE_DIR, _SCALARS

TEMPLATE_DIR = Path(__file__).resolve().parent / "extra" / "musa"


def c_type(ty: str) -> str:
    """The C type of a Triton argument type in AOT output and ``tt-linker`` lines (as the driver maps it)."""
    if ty.startswith("*"):
        return "MUdeviceptr"
    if ty not in _SCALARS:
        raise ValueError(f"AOT: argument type {ty!r} is not supported (tensor descriptors need a runtime encode)")
    return _SCALARS[ty][0]


def include_dir() -> Path:
    """Where ``triton_musa_driver.h`` is: pass it with ``-I`` when compiling AOT output."""
    return INCLUDE_DIR


def templates() -> List[Path]:
    return sorted(TEMPLATE_DIR.glob("compile.*"))


def render(params: Dict[str, object]) -> Dict[str, str]:
    """Fills each template with Triton's parameters; returns {suffix: text}, e.g. {".c": ..., ".h": ...}."""
    return {path.suffix: path.read_text().format(**params) for path in templates()}


def triton_template_dir() -> Path:
    """The directory Triton's ``triton.tools.compile`` reads for the ``musa`` backend."""
    spec = importlib.util.find_spec("triton.tools.compile")
    if spec is None or spec.origin is None:
        raise RuntimeError("triton.tools.compile is not importable: is triton==3.6.0 installed?")
    return Path(spec.origin).parent / "extra" / "musa"


def check(dest: Optional[Path] = None) -> List[str]:
    """Problems that keep Triton's tool from using our templates (empty when it will)."""
    dest = dest or triton_template_dir()
    problems = []
    for path in templates():
        installed = dest / path.name
        if not installed.is_file():
            problems.append(f"{installed} is missing")
        elif installed.read_text() != path.read_text():
            problems.append(f"{installed} differs from {path} (another triton-musa version?)")
    return problems


def install(dest: Optional[Path] = None) -> List[Path]:
    """Copies the templates to where Triton's tool reads them (for source checkouts and editable installs)."""
    dest = dest or triton_template_dir()
    dest.mkdir(parents=True, exist_ok=True)
    return [Path(shutil.copyfile(path, dest / path.name)) for path in templates()]


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m triton_musa.tools.templates", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--install", action="store_true", help="copy the templates into triton/tools/extra/musa")
    parser.add_argument("--include-dir", action="store_true", help="print the directory of triton_musa_driver.h")
    args = parser.parse_args(argv)
    if args.include_dir:
        print(include_dir())
        return 0
    if args.install:
        for path in install():
            print(f"installed {path}")
    problems = check()
    for problem in problems:
        print(f"triton.tools.compile --target musa:... will not find the MUSA templates: {problem}; "
              "run python -m triton_musa.tools.templates --install", file=sys.stderr)
    if not problems:
        print(f"Triton's AOT tool uses the MUSA templates in {triton_template_dir()}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
