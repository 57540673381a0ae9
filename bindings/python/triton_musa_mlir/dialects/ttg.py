"""The ``ttg`` dialect (TritonGPU IR): ODS-generated op builders and the
layout attributes ``BlockedEncodingAttr``, ``SliceEncodingAttr``,
``DotOperandEncodingAttr``, ``SwizzledSharedEncodingAttr`` and the type
``MemDescType`` (``!ttg.memdesc``), with their fields as properties."""

import sys as _sys

from ._ttg_ops_gen import *  # noqa: F401,F403
from ._ttg_ops_gen import _Dialect  # noqa: F401
from ... import _musa_mlir as _ext

_ext._register_dialect_classes("ttg", _sys.modules[__name__])
