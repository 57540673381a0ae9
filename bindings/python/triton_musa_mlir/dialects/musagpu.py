"""The ``musagpu`` dialect (MUSA encodings and ops: TME, async barriers,
SQMMA, WMMA, async copies): ODS-generated op builders."""

from ._musagpu_ops_gen import *  # noqa: F401,F403
from ._musagpu_ops_gen import _Dialect  # noqa: F401
