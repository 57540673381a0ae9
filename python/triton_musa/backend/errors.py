"""Compile errors a user causes, in Triton's terms.

Our MLIR library raises ``MLIRError`` with every diagnostic, including MLIR's
"see current operation" note that prints the whole kernel. Here a
resource-limit error becomes ``triton.runtime.errors.OutOfResources`` (so the
autotuner prunes the config, as on Triton's own backends) and any other error
keeps its located lines (Python source file:line of the kernel, and the
reason) without the IR, which stays available behind ``MLIR_ENABLE_DUMP=1`` or
``TRITON_KERNEL_DUMP=1``.
"""

from __future__ import annotations

import contextlib
import os
import re
from typing import Iterator, List

from triton.errors import TritonError
from triton.runtime.errors import OutOfResources

_SHARED = re.compile(r"needs (\d+) bytes of shared memory, more than the (\d+) bytes per block")
_DIAGNOSTIC = re.compile(r"^\S.*:\s(error|warning|note|remark): ")


class MusaCompileError(TritonError):
    """A kernel the MUSA backend cannot compile; the message names the kernel, the place and the reason."""


def _dump_requested() -> bool:
    return os.environ.get("MLIR_ENABLE_DUMP", "0") not in ("", "0") or \
        os.environ.get("TRITON_KERNEL_DUMP", "0") not in ("", "0")


def concise(message: str) -> List[str]:
    """The diagnostic lines of an MLIRError message, without the IR MLIR attaches to them."""
    kept: List[str] = []
    for line in message.splitlines()[1:]:
        if not _DIAGNOSTIC.match(line):
            continue  # continuation lines: the printed operation
        if "see current operation" in line:
            continue
        kept.append(line)
    return kept


def translate(exc: BaseException, kernel: str, arch: str) -> BaseException:
    """The exception to raise in place of ``exc``, an MLIRError from compiling ``kernel`` for ``arch``.

    The lowering's errors (lowering.LoweringError) carry their diagnostics: the printed operation is
    a note dropped by kind. Other messages are read line by line (``concise``)."""
    text = str(exc)
    diagnostics = getattr(exc, "diagnostics", None)
    messages = [d.message for d in diagnostics] if diagnostics is not None else [text]
    for message in messages:
        shared = _SHARED.search(message)
        if shared:
            return OutOfResources(int(shared.group(1)), int(shared.group(2)), "shared memory")
    if _dump_requested():
        return MusaCompileError(f"kernel '{kernel}' does not compile for {arch}:\n{text}")
    if diagnostics is not None:
        lines = [str(d) for d in diagnostics if not d.shows_ir]
    else:
        lines = concise(text)
    lines = lines or [text.splitlines()[0] if text else type(exc).__name__]
    return MusaCompileError(f"kernel '{kernel}' does not compile for {arch}:\n" + "\n".join(lines) +
                            "\n(set MLIR_ENABLE_DUMP=1 to see the IR)")


@contextlib.contextmanager
def user_errors(kernel: str, arch: str) -> Iterator[None]:
    """Re-raises MLIR errors from our library as OutOfResources or MusaCompileError."""
    from .. import _musa_mlir
    try:
        yield
    except _musa_mlir.MLIRError as exc:
        raise translate(exc, kernel, arch) from None
