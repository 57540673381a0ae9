"""Corpus kernels whose atomics and histograms need scratch shared memory lower
to LLVM IR that llvm-as-14 reads once the shared memory is handed out. The
offsets are written by hand here (what --musa-allocate-shared-memory does):
each scratch op gets its own buffer, the module the total."""
from __future__ import annotations

import re

import pytest

from triton_musa.backend.lowering import lower_to_llir
from triton_musa.backend.target import parse_arch
from test_llvmir_export import assert_llvm14

# Generous per-op buffer: the corpus ops need at most 64 x i32 bins.
BUFFER_BYTES = 1024

SCRATCH_OP = re.compile(r"(= (?:tt\.atomic_rmw|tt\.atomic_cas|tt\.histogram) [^:]*?)( :)")


def allocate_by_hand(ttgir: str) -> str:
    """Gives every atomic/histogram op its own `allocation.offset` and sets
    the module's `ttg.shared`."""
    count = 0

    def give_offset(match: re.Match[str]) -> str:
        nonlocal count
        offset = count * BUFFER_BYTES
        count += 1
        return f"{match.group(1)} {{allocation.offset = {offset} : i32}}{match.group(2)}"

    text = SCRATCH_OP.sub(give_offset, ttgir)
    return text.replace('"ttg.num-ctas" = 1 : i32,',
                        f'"ttg.num-ctas" = 1 : i32, ttg.shared = {count * BUFFER_BYTES} : i32,', 1)


@pytest.mark.parametrize("name", ["atomic_cas", "atomic_rmw", "histogram"])
@pytest.mark.parametrize("arch_name", ["mp_31", "mp_22"])
def test_scratch_ops_lower_to_llvm14(name: str, arch_name: str, corpus_ir) -> None:
    ttgir = allocate_by_hand(corpus_ir.get(name, arch_name)["ttgir"])
    assert "allocation.offset" in ttgir
    lowered = lower_to_llir(ttgir, parse_arch(arch_name), source_name=f"{name}.ttgir")
    leftover = re.search(r'^\s*(?:%[^=]+= )?"?(?:tt|ttg)\.\w+', lowered.llvm_dialect, re.MULTILINE)
    assert leftover is None, leftover.group(0)
    if name == "histogram":
        assert re.search(r"atomicrmw add ptr addrspace\(3\) .* syncscope\(\"workgroup\"\) monotonic",
                         lowered.llir), lowered.llir
    else:
        assert re.search(r"syncscope\(\"agent\"\)", lowered.llir), lowered.llir
    assert_llvm14(lowered.llir)
