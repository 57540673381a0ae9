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


def _target_of(semantic: Any) -> Optional[Tuple[str, str]]:
    """(backend, arch) of the kernel under compilation, else of the active driver."""
    options = getattr(getattr(semantic, "builder", None), "options", None)
    if options is not None and hasattr(options, "backend_name"):
        return str(options.backend_name), str(getattr(options, "arch", ""))
    from triton.language.target_info import current_target
    target = current_target()
    if target is None:
        return None
    return str(target.backend), str(target.arch)


class _TargetConstexprFunction(ConstexprFunction):
    """A constexpr function whose Python body receives the (backend, arch) being compiled for."""

    def __call__(self, *args: Any, _semantic: Any = None, **kwargs: Any) -> Any:
        target = _target_of(_semantic)
        return super().__call__(target, *args, _semantic=_semantic, **kwargs)


def _is_musa(target: Optional[Tuple[str, str]]) -> bool:
    return target is not None and target[0] == "musa"


def _musa_capability_geq(target: Optional[Tuple[str, str]], major: int, minor: int = 0) -> bool:
    if not _is_musa(target):
        return False
    from ..backend.target import parse_arch
    arch = parse_arch(target[1])
    return (arch.major, arch.minor) >= (int(major), int(minor))


_is_musa.__doc__ = "True when compiling for (or, from host code, running on) a MUSA target."
_musa_capability_geq.__doc__ = ("True on a MUSA target whose capability is at least (major, minor), "
                                "e.g. musa_capability_geq(3, 1) on mp_31 (PH1).")

is_musa = _TargetConstexprFunction(_is_musa)
musa_capability_geq = _TargetConstexprFunction(_musa_capability_geq)

_FUNCTIONS: dict[str, Callable[..., Any]] = {"is_musa": is_musa, "musa_capability_geq": musa_capability_geq}


def install(module: ModuleType) -> None:
    """Adds our functions to ``triton.language.target_info``."""
    for name, fn in _FUNCTIONS.items():
        setattr(module, name, fn)
    exported = list(getattr(module, "__all__", []))
    module.__all__ = exported + [name for name in _FUNCTIONS if name not in exported]
