"""``triton.language.extra.musa``: the name Moore Threads' own Triton gives its MUSA language extras, so
that code written for it (``from triton.language.extra.musa import libdevice``) runs on this backend.
``libdevice`` is our MUSA libdevice (``triton_musa.language.libdevice``), which has the functions MT's
module exports under the same names, ``fast_gelu`` included. The backend enters both under Triton's
names when it loads (``backend/surface.py``)."""

from .. import libdevice

__all__ = ["libdevice"]
