"""Shared fixtures: a private Triton cache, and the corpus compiled once per target."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Dict, Iterator, Tuple, Union

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the corpus package lives beside the tests


@pytest.fixture(scope="session", autouse=True)
def triton_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Compile into a fresh cache so results reflect the current backend, not ~/.triton."""
    path = tmp_path_factory.mktemp("triton-cache")
    old = os.environ.get("TRITON_CACHE_DIR")
    os.environ["TRITON_CACHE_DIR"] = str(path)
    yield path
    if old is None:
        os.environ.pop("TRITON_CACHE_DIR", None)
    else:
        os.environ["TRITON_CACHE_DIR"] = old


CompileResult = Union[Dict[str, str], BaseException]


class CorpusCompiler:
    """Compiles each (entry, arch) at most once per session and remembers failures too."""

    def __init__(self) -> None:
        self._results: Dict[Tuple[str, str], CompileResult] = {}

    def get(self, name: str, arch: str) -> Dict[str, str]:
        key = (name, arch)
        if key not in self._results:
            from corpus import BY_NAME, TARGETS
            from triton_musa.backend.compiler import compile_to_ttgir
            entry = BY_NAME[name]
            try:
                # Only Triton's stages: most corpus kernels are not lowered (llir) yet.
                self._results[key] = compile_to_ttgir(entry.source(), TARGETS[arch], dict(entry.options))
            except Exception as exc:  # remembered so each stage's test reports the same error
                self._results[key] = exc
        result = self._results[key]
        if isinstance(result, BaseException):
            pytest.fail(f"Triton failed to compile corpus kernel {name!r} for {arch}: "
                        f"{type(result).__name__}: {result}", pytrace=False)
        return result


@pytest.fixture(scope="session")
def corpus_ir(triton_cache_dir: Path) -> CorpusCompiler:
    return CorpusCompiler()
