"""What a compiled MUSA kernel depends on besides its source and options, for
the backend's cache key: our library (version and the extension's bytes), the
SDK's llc (path and LLVM version: a changed SDK never gets a stale binary) and
the switches that change code generation."""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os

from .. import __version__
from .toolchain import toolchain_key

# Switches read by the MUSA stages (matrix-unit selection).
CODEGEN_SWITCHES = ("ENABLE_MUSA_MMA", "MUSA_ENABLE_SQMMA")


@functools.lru_cache(maxsize=None)
def _file_digest(path: str, mtime_ns: int, size: int) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()[:16]


def library_digest() -> str:
    """A digest of the ``_musa_mlir`` extension in use ("none" where it is not built)."""
    spec = importlib.util.find_spec("triton_musa._musa_mlir")
    if spec is None or not spec.origin or not os.path.exists(spec.origin):
        return "none"
    st = os.stat(spec.origin)
    return _file_digest(spec.origin, st.st_mtime_ns, st.st_size)


def switches_key() -> str:
    return ",".join(f"{name}={os.environ.get(name, '')}" for name in CODEGEN_SWITCHES)


def backend_key() -> str:
    return f"{__version__}|lib={library_digest()}|llc={toolchain_key()}|{switches_key()}"
