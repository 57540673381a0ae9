"""What a compiled MUSA kernel depends on besides its source and options, for
the backend's cache key: our library (version and the bytes of its shared library, their digest
remembered across processes by startup_cache.file_digest), the
SDK's llc (path and LLVM version: a changed SDK never gets a stale binary). The
switches that change code generation (ENABLE_MUSA_MMA, MUSA_ENABLE_SQMMA) are
fields of MusaOptions, so the options hash covers them."""

from __future__ import annotations

import importlib.util
import os

from .. import __version__
from .startup_cache import file_digest, file_stamp
from .toolchain import toolchain_key


def _library_path() -> str | None:
    """Our compiler's one library: the aggregate of ``triton_musa.mlir`` (``_musa_mlir`` is only its
    entry point), found without loading it."""
    spec = importlib.util.find_spec("triton_musa.mlir")
    for location in (spec.submodule_search_locations or []) if spec else []:
        path = os.path.join(location, "_mlir_libs", "libTritonMUSAPythonCAPI.so")
        if os.path.exists(path):
            return path
    return None


def library_digest() -> str:
    """A digest of our MLIR library in use ("none" where it is not built)."""
    path = _library_path()
    if path is None:
        return "none"
    return file_digest(path, file_stamp(path))[:16]


def backend_key() -> str:
    return f"{__version__}|lib={library_digest()}|llc={toolchain_key()}"
