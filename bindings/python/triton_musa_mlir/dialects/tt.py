"""The ``tt`` dialect (Triton IR): ODS-generated op builders (``LoadOp``,
``StoreOp``, ``GetProgramIdOp``, ...) and the types ``PointerType``
(``!tt.ptr``) and ``TensorDescType`` (``!tt.tensordesc``)."""

import sys as _sys

from ._tt_ops_gen import *  # noqa: F401,F403
from ._tt_ops_gen import _Dialect  # noqa: F401
from ... import _musa_mlir as _ext

_ext._register_dialect_classes("tt", _sys.modules[__name__])
