"""The corpus entry type and the two targets every entry is compiled for."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Tuple

from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

TARGETS: Dict[str, GPUTarget] = {
    "mp_31": GPUTarget("musa", "mp_31", 32),
    "mp_22": GPUTarget("musa", "mp_22", 128),
}
ALL_ARCHS: Tuple[str, ...] = tuple(TARGETS)

# Pointer arguments Triton's JIT would mark 16-byte aligned ("D" specialization).
ALIGNED: List[List[Any]] = [["tt.divisibility", 16]]


@dataclass(frozen=True)
class CorpusEntry:
    name: str
    fn: Any  # triton.runtime.jit.JITFunction
    signature: Dict[str, str]
    constexprs: Dict[str, Any] = field(default_factory=dict)
    options: Dict[str, Any] = field(default_factory=lambda: {"num_warps": 4, "num_stages": 3, "debug": False})
    archs: Tuple[str, ...] = ALL_ARCHS
    # Argument name -> attributes, as Triton's JIT specialization would attach them.
    attrs: Dict[str, List[List[Any]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        params = self.fn.arg_names
        if list(self.signature) != list(params):
            raise ValueError(f"{self.name}: signature keys {list(self.signature)} != kernel parameters {params}")
        for k in self.constexprs:
            if self.signature.get(k) != "constexpr":
                raise ValueError(f"{self.name}: constexpr {k!r} must be typed 'constexpr' in the signature")
        unknown = set(self.archs) - set(TARGETS)
        if unknown:
            raise ValueError(f"{self.name}: unknown archs {sorted(unknown)}")

    def source(self) -> ASTSource:
        params = self.fn.arg_names
        attrs = {(params.index(k), ): v for k, v in self.attrs.items()}
        return ASTSource(self.fn, signature=dict(self.signature), constexprs=dict(self.constexprs), attrs=attrs)


def entry(name: str, fn: Any, signature: Dict[str, str], constexprs: Dict[str, Any] | None = None, *,
          num_warps: int = 4, num_stages: int = 3, debug: bool = False, archs: Tuple[str, ...] = ALL_ARCHS,
          aligned: Tuple[str, ...] = ()) -> CorpusEntry:
    """Shorthand: every constexpr is added to the signature as 'constexpr' when missing."""
    sig = dict(signature)
    for k in fn.arg_names:
        if k not in sig and constexprs and k in constexprs:
            sig[k] = "constexpr"
    sig = {k: sig[k] for k in fn.arg_names if k in sig}
    return CorpusEntry(name=name, fn=fn, signature=sig, constexprs=dict(constexprs or {}),
                       options={"num_warps": num_warps, "num_stages": num_stages, "debug": debug}, archs=archs,
                       attrs={k: ALIGNED for k in aligned})
