"""``tl.target_info.is_musa()`` and ``tl.target_info.musa_capability_geq(major, minor)``.

Both are constexpr functions: inside ``@triton.jit`` they evaluate while the
kernel is compiled, so ``if tl.target_info.is_musa():`` keeps one branch only.
They answer for the target being *compiled for* (the options of the kernel
under compilation, which ``triton.compile(..., target=...)`` may set to another
arch than the device's), and for the active driver's target when called from
host code.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, Callable, Optional, Tuple

from triton.runtime.jit import ConstexprFunction


def _target_of(semantic: Any) -> Optional[Tuple[str, int, int]]:
    """(backend, major, minor) of the kernel under compilation, else of the active driver."""
    options = getattr(getattr(semantic, "builder", None), "options", None)
    if options is not None and hasattr(options, "backend_name"):
        backend, arch = str(options.backend_name), str(getattr(options, "arch", ""))
    else:
        from triton.language.target_info import current_target
        target = current_target()
        if target is None:
            return None
        backend, arch = str(target.backend), str(target.arch)
    if backend != "musa":
        return (backend, 0, 0)
    from ..backend.target import parse_arch
    parsed = parse_arch(arch)
    return (backend, parsed.major, parsed.minor)


class _TargetConstexprFunction(ConstexprFunction):
    """A constexpr function whose Python body receives the (backend, major, minor) being compiled for."""

    def __call__(self, *args: Any, _semantic: Any = None, **kwargs: Any) -> Any:
        return super().__call__(_target_of(_semantic), *args, _semantic=_semantic, **kwargs)


# The bodies below are read by Triton's dependency tracker (part of the kernel cache key): they may
# reference nothing but their arguments and builtins.
def _is_musa(target):
    """True when compiling for (or, from host code, running on) a MUSA target."""
    return target is not None and target[0] == "musa"


def _musa_capability_geq(target, major, minor=0):
    """True on a MUSA target whose capability is at least (major, minor), e.g. (3, 1) on mp_31 (PH1)."""
    return target is not None and target[0] == "musa" and (target[1], target[2]) >= (int(major), int(minor))


is_musa = _TargetConstexprFunction(_is_musa)
musa_capability_geq = _TargetConstexprFunction(_musa_capability_geq)

_FUNCTIONS: dict[str, Callable[..., Any]] = {"is_musa": is_musa, "musa_capability_geq": musa_capability_geq}


def install(module: ModuleType) -> None:
    """Adds our functions to ``triton.language.target_info``."""
    for name, fn in _FUNCTIONS.items():
        setattr(module, name, fn)
    exported = list(getattr(module, "__all__", []))
    module.__all__ = exported + [name for name in _FUNCTIONS if name not in exported]
