"""Compile errors a user causes, in Triton's terms.

Our MLIR library raises ``MLIRError`` with every diagnostic as data, including
MLIR's "see current operation" note that prints the whole kernel. Here a
kernel past the shared memory (lowering.OutOfSharedMemory, read from the
module's ``ttg.shared``) becomes ``triton.runtime.errors.OutOfResources`` (so the
autotuner prunes the config, as on Triton's own backends) and any other error
keeps its located lines (Python source file:line of the kernel, and the
reason) without the IR, which stays available behind ``MLIR_ENABLE_DUMP=1`` or
``TRITON_KERNEL_DUMP=1``.
"""

from __future__ import annotations

import contextlib
from typing import Iterator

from triton.errors import TritonError
from triton.runtime.errors import OutOfResources

from .environment import KERNEL_DUMP_ENV, dump_requested, env_flag

class MusaCompileError(TritonError):
    """A kernel the MUSA backend cannot compile; the message names the kernel, the place and the reason."""


def _ir_requested(kernel: str) -> bool:
    """Whether the user asked to see ``kernel``'s IR: MLIR_ENABLE_DUMP as instrumentation reads it (all
    kernels, or this one by name), or TRITON_KERNEL_DUMP."""
    return dump_requested(kernel) or env_flag(KERNEL_DUMP_ENV)


def translate(exc: BaseException, kernel: str, arch: str) -> BaseException:
    """The exception to raise in place of ``exc``, an error of our library from compiling ``kernel`` for
    ``arch``: the lowering's and the exporters' errors alike become a lowering.LoweringError, whose
    diagnostics are data (the printed operation is a note dropped by kind)."""
    from .lowering import OutOfSharedMemory, library_error
    error = library_error(exc)
    if isinstance(error, OutOfSharedMemory):
        return OutOfResources(error.required, error.limit, "shared memory")
    if _ir_requested(kernel):
        return MusaCompileError(f"kernel '{kernel}' does not compile for {arch}:\n{error}")
    lines = [str(d) for d in error.diagnostics if not d.shows_ir] or [error.headline]
    return MusaCompileError(f"kernel '{kernel}' does not compile for {arch}:\n" + "\n".join(lines) +
                            "\n(set MLIR_ENABLE_DUMP=1 to see the IR)")


@contextlib.contextmanager
def user_errors(kernel: str, arch: str) -> Iterator[None]:
    """Re-raises MLIR errors from our library as OutOfResources or MusaCompileError."""
    from .. import _musa_mlir
    from .lowering import LoweringError
    try:
        yield
    except (_musa_mlir.MLIRError, LoweringError) as exc:
        raise translate(exc, kernel, arch) from None
