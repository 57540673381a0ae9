"""Site initializer of ``triton_musa.mlir`` (run by ``_mlir_libs/__init__.py``):
every context gets our dialects, and our passes are registered."""

from ... import _musa_mlir as _ext

register_dialects = _ext.register_dialects

# Our library has always run single-threaded (deterministic diagnostics, no
# thread pool per context); `Context(thread_pool=...)` is refused.
disable_multithreading = True
