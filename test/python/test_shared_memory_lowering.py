"""Shared-memory lowering (ttg.local_*, memdesc views, ttg.convert_layout)
down to LLVM IR that the LLVM 14 based SDK llc reads, for both archs: the
kernels of the lit tests, one module at a time, through lower_to_llir (the
allocation and barrier passes included)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from triton_musa.backend.lowering import lower_to_llir, lowering_pipeline
from triton_musa.backend.target import parse_arch

from test_llvmir_export import assert_llvm14

LIT_DIR = Path(__file__).resolve().parents[1] / "mlir" / "Conversion" / "TritonGPUToMUSA"
INPUTS = {
    "mp_31": [LIT_DIR / "memory.mlir", LIT_DIR / "convert-layout.mlir"],
    "mp_22": [LIT_DIR / "Inputs" / "memory.mp_22.mlir", LIT_DIR / "Inputs" / "convert-layout.mp_22.mlir"],
}


def _modules(path: Path) -> list[tuple[str, str]]:
    """(kernel name, module text) per `// -----` split of a lit input."""
    result = []
    for chunk in path.read_text().split("// -----"):
        name = re.search(r"tt\.func public @(\w+)", chunk)
        assert name, chunk
        result.append((name.group(1), chunk))
    return result


CASES = [(arch, path.name, name, text)
         for arch, paths in INPUTS.items() for path in paths for name, text in _modules(path)]


def test_pipeline_allocates_and_inserts_barriers_first() -> None:
    pipeline = lowering_pipeline()
    order = [pipeline.index(p) for p in ("musa-allocate-shared-memory",
                                         "musa-insert-barriers",
                                         "convert-tritongpu-to-musa")]
    assert order == sorted(order)


@pytest.mark.parametrize("arch_name,file,kernel,text", CASES,
                         ids=[f"{a}-{f}-{k}" for a, f, k, _ in CASES])
def test_shared_memory_kernel_lowers_to_llvm14_ir(arch_name: str, file: str, kernel: str, text: str) -> None:
    lowered = lower_to_llir(text, parse_arch(arch_name), source_name=f"{file}:{kernel}")
    assert re.search(rf"^define cc102 .* @{kernel}\(", lowered.llir, re.MULTILINE), lowered.llir
    leftover = re.search(r'^\s*(?:%[^=]+= )?"?(?:tt|ttg)\.\w+', lowered.llvm_dialect, re.MULTILINE)
    assert leftover is None, leftover.group(0)
    if "ttg.shared = 0" not in lowered.llvm_dialect:
        # Every access goes through the one shared-memory symbol.
        assert "@global_smem" in lowered.llir
        assert "addrspace(3)" in lowered.llir
        assert_barrier_between_shared_writes_and_reads(lowered.llir)
    assert_llvm14(lowered.llir)


_SHARED_ACCESS = re.compile(r"\b(store|load) [^\n]*ptr addrspace\(3\)|call [^\n]*@llvm\.musa\.(syncthreads\.lm|barrier0)\(")


def assert_barrier_between_shared_writes_and_reads(llir: str) -> None:
    """In text order, a read of shared memory after a write to it has a block barrier in between
    (other threads read what one thread wrote: the allocation/barrier passes must put one there)."""
    written = False
    for m in _SHARED_ACCESS.finditer(llir):
        if m.group(2):
            written = False
        elif m.group(1) == "store":
            written = True
        else:
            assert not written, f"shared-memory load after a store with no barrier between: {m.group(0)}"
