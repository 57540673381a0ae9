"""The C++ components include one another in one direction only.

Each component (a top-level folder of the checkout) may include its own headers and those of the
components below it; an include of a component above, or beside, is a layering leak. The order,
lowest first: the catalogue of matrix instructions and target kinds (pure data); the dialects; the
linear layouts; the architecture table and target interface; the TTGIR passes; the conversion to the
LLVM dialect; the CPU emulator. Registration, the bindings, the tools and the test passes sit on top and
may include anything. Includes only: the passes still link the conversion library, which defines the
scratch sizes that target/Scratch.h declares."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Dict, FrozenSet, List, Tuple

ROOT = Path(__file__).resolve().parents[2]

# What each component may include besides itself.
ALLOWED: Dict[str, FrozenSet[str]] = {
    "catalogue": frozenset(),
    "dialects": frozenset({"catalogue"}),
    "layouts": frozenset({"catalogue", "dialects"}),
    "target": frozenset({"catalogue", "dialects", "layouts"}),
    "passes": frozenset({"catalogue", "dialects", "layouts", "target"}),
    "conversion": frozenset({"catalogue", "dialects", "layouts", "target"}),
    "emulator": frozenset({"catalogue", "dialects", "layouts", "target", "conversion"}),
}
TOP = ("registration", "bindings", "tools", "test")
# C and C++ `#include "..."`, TableGen `include "..."`.
INCLUDE = re.compile(r'^\s*#?\s*include\s+"([^"]+)"', re.MULTILINE)


def leaks(root: Path) -> List[Tuple[str, str]]:
    """(file, included header) for every include of ours that runs against the order."""
    components = set(ALLOWED) | set(TOP)
    found: List[Tuple[str, str]] = []
    for component, allowed in ALLOWED.items():
        for path in sorted((root / component).rglob("*")):
            if path.suffix not in (".h", ".cpp", ".td", ".inc"):
                continue
            for header in INCLUDE.findall(path.read_text(errors="replace")):
                target = header.split("/", 1)[0]
                if "/" in header and target in components and target != component and target not in allowed:
                    found.append((str(path.relative_to(root)), header))
    return found


def test_components_include_downwards_only() -> None:
    assert all((ROOT / component).is_dir() for component in ALLOWED), "a component folder moved: update ALLOWED"
    assert leaks(ROOT) == []


def test_a_leak_is_found(tmp_path: Path) -> None:
    """The check sees each kind of leak the issue named (dialects -> target, passes -> conversion,
    emulator -> passes) and lets the allowed directions pass."""
    files = {
        "dialects/A/IR/X.cpp": '#include "target/TargetInfo.h"\n#include "catalogue/MatrixInstrs.h"\n',
        "dialects/A/IR/Ops.td": 'include "mlir/IR/OpBase.td"\ninclude "passes/Passes.td"\n',
        "passes/Y.cpp": '#include "conversion/TritonGPUToMUSA/Scratch.h"\n#include "target/TargetInfo.h"\n',
        "emulator/Z.cpp": ' #  include "passes/Passes.h"\n#include "mlir/IR/Builders.h"\n',
        "conversion/W.cpp": '#include "passes/Passes.h"\n',
    }
    for component in ALLOWED:
        (tmp_path / component).mkdir()
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert sorted(leaks(tmp_path)) == [
        ("conversion/W.cpp", "passes/Passes.h"),
        ("dialects/A/IR/Ops.td", "passes/Passes.td"),
        ("dialects/A/IR/X.cpp", "target/TargetInfo.h"),
        ("emulator/Z.cpp", "passes/Passes.h"),
        ("passes/Y.cpp", "conversion/TritonGPUToMUSA/Scratch.h"),
    ]
