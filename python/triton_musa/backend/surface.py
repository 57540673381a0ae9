"""What the backend adds to the ``triton`` namespace when Triton loads it.

Triton imports our ``driver`` module while ``triton/__init__.py`` is still
running (backend discovery happens before ``triton.language``,
``triton.testing`` and ``triton.tools`` are imported), so nothing here may
import those modules eagerly. Instead, an import hook finishes each Triton
module as it is loaded:

* ``triton.language`` gains Triton 3.1/3.2's ``_experimental_descriptor_load``
  and ``_experimental_descriptor_store`` (``language/experimental_descriptor``);
* ``triton.language.target_info`` gains ``is_musa`` and ``musa_capability_geq``;
* ``triton.testing.do_bench`` accepts ``device_type=`` (see ``triton_musa.testing``);
* ``triton.tools.experimental_descriptor`` and ``triton.musa_testing`` are
  our modules, entered in ``sys.modules`` under those names;
* ``triton.language.extra.musa`` (and its ``libdevice``), Moore Threads'
  name for the MUSA language extras, is our module, found when first
  imported (it imports ``triton.language``, so not before).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from types import ModuleType
from typing import Callable, Dict, Optional, Sequence

# Triton module name -> our module that provides it.
_ALIASES: Dict[str, str] = {
    "triton.musa_testing": "triton_musa.testing",
    "triton.tools.experimental_descriptor": "triton_musa.tools.experimental_descriptor",
}


def _extend_target_info(module: ModuleType) -> None:
    from ..language import target_info
    target_info.install(module)


def _extend_language(module: ModuleType) -> None:
    from ..language import experimental_descriptor
    experimental_descriptor.install(module)


def _extend_testing(module: ModuleType) -> None:
    from .. import testing
    testing.install(module)


def _extend_tools(module: ModuleType) -> None:
    # ``import triton.tools.experimental_descriptor`` finds the module in sys.modules; the
    # attribute makes ``triton.tools.experimental_descriptor`` reachable from ``triton``.
    module.experimental_descriptor = importlib.import_module(_ALIASES["triton.tools.experimental_descriptor"])


# Triton module name -> our module that provides it, imported only when the name is.
_LAZY_ALIASES: Dict[str, str] = {
    "triton.language.extra.musa": "triton_musa.language.extra_musa",
    "triton.language.extra.musa.libdevice": "triton_musa.language.libdevice",
}

# Triton module name -> what to add to it once it has been executed.
_EXTENSIONS: Dict[str, Callable[[ModuleType], None]] = {
    "triton.language": _extend_language,
    "triton.language.target_info": _extend_target_info,
    "triton.testing": _extend_testing,
    "triton.tools": _extend_tools,
}


class _ExtendingLoader(importlib.abc.Loader):
    """Runs Triton's own loader, then adds our extension to the module."""

    def __init__(self, inner: importlib.abc.Loader, extend: Callable[[ModuleType], None]) -> None:
        self.inner = inner
        self.extend = extend

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> Optional[ModuleType]:
        return self.inner.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self.inner.exec_module(module)
        self.extend(module)


class _AliasLoader(importlib.abc.Loader):
    """Loads a Triton module name as our module (the same module object)."""

    def __init__(self, ours: str) -> None:
        self.ours = ours
        self.spec: Optional[importlib.machinery.ModuleSpec] = None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> Optional[ModuleType]:
        module = importlib.import_module(self.ours)
        self.spec = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        # Executed as our module already; the import system has set the alias's spec on it: keep ours
        # (relative imports and reloads go by it).
        module.__spec__ = self.spec


class _TritonSurfaceFinder(importlib.abc.MetaPathFinder):

    def find_spec(self, fullname: str, path: Optional[Sequence[str]], target: Optional[ModuleType] = None
                  ) -> Optional[importlib.machinery.ModuleSpec]:
        ours = _LAZY_ALIASES.get(fullname)
        if ours is not None:
            return importlib.util.spec_from_loader(fullname, _AliasLoader(ours))
        extend = _EXTENSIONS.get(fullname)
        if extend is None:
            return None
        # Ask the finders after us for Triton's real module, then wrap its loader.
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None and spec.loader is not None:
                spec.loader = _ExtendingLoader(spec.loader, extend)
                return spec
        return None


def install() -> None:
    """Idempotent: hooks future imports and extends the Triton modules already loaded."""
    if not any(isinstance(f, _TritonSurfaceFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _TritonSurfaceFinder())
    for name, extend in _EXTENSIONS.items():
        module = sys.modules.get(name)
        if module is not None:
            extend(module)
    # Our modules under Triton's names (both are cheap: they import Triton lazily).
    for alias, ours in _ALIASES.items():
        sys.modules.setdefault(alias, importlib.import_module(ours))
    # ``triton.musa_testing`` is documented as an attribute of ``triton`` itself.
    triton = sys.modules.get("triton")
    if triton is not None:
        triton.musa_testing = sys.modules["triton.musa_testing"]  # type: ignore[attr-defined]
