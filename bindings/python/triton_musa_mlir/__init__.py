"""MLIR's Python bindings with triton-musa's dialects.

``ir``, ``passmanager`` and ``rewrite`` are MLIR's own modules; ``dialects``
holds the upstream dialects TTGIR and our lowering use (builtin, func, arith,
math, scf, cf, index, ub, llvm) and ours: ``tt``, ``ttg`` and ``musagpu``, with
ODS-generated op builders. Every context knows these dialects and every pass
of ``musa-opt`` is registered, so ``PassManager.parse`` takes the pipelines the
backend prints. The bindings share one MLIR with ``triton_musa._musa_mlir``.
"""
