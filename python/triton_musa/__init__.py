"""triton-musa: the Triton backend for Moore Threads MUSA GPUs.

Triton discovers the backend through the ``triton.backends`` entry point
``musa = triton_musa.backend``; importing this package stays cheap (no Triton,
no torch) so that tools can read the version without starting a compiler.
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
