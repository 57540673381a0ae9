"""The llvm.musa.* intrinsic table (target/MUSAIntrinsics.cpp) against the public record of MUSA's spellings
(test/data/MUSA-INTRINSICS.txt), and the LLVM IR export's check that every llvm.musa.* declaration comes from it.

The record is read as written: ``name(operands) -> result  [where seen]`` lines, the SQMMA and WMMA family lines
with their shape lists, and the stated fragment formulas. A difference must be written down in the entry's
``deviation``.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import pytest

from triton_musa import _musa_mlir

RECORD = Path(__file__).resolve().parents[1] / "data" / "MUSA-INTRINSICS.txt"
ARCHS = ("mp_31", "mp_22")
PH1, QY2 = "mp_31", "mp_22"

# One LLVM type at the start of an operand, and an optional "x<count>" repetition ("i32 x7 as above").
_TYPE = re.compile(r"(ptr addrspace\(\d+\)|ptr|<\d+ x [a-z0-9]+>|<E x i32>|i\d+|float|half|bfloat|double|void)"
                   r"(?:\s+x(\d+)\b)?")


@dataclass(frozen=True)
class RecordLine:
    name: str
    operands: Optional[List[str]]  # None where an operand has no type in the record
    result: Optional[str]


def _split_operands(text: str) -> List[str]:
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "(<":
            depth += 1
        elif ch in ")>":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def _types(operands: str) -> Optional[List[str]]:
    types: List[str] = []
    for operand in _split_operands(operands):
        match = _TYPE.match(operand)
        if match is None:
            return None
        types.extend([match.group(1)] * int(match.group(2) or 1))
    return types


def _result(text: str) -> Optional[str]:
    match = _TYPE.match(text.strip())
    return match.group(1) if match else None


def _signature_line(line: str) -> Optional[RecordLine]:
    match = re.match(r"\s*(?:e\.g\.\s+)?(llvm\.musa\.[\w.<>]+)\((.*?)\)\s*->\s*(.*?)(\s\[|\s\s|$)", line)
    if match is None:
        return None
    return RecordLine(match.group(1), _types(match.group(2)), _result(match.group(3)))


def _record_text() -> str:
    return RECORD.read_text()


def record_lines() -> List[RecordLine]:
    """Every ``name(...) -> ...`` line of the record (also the indented WMMA examples)."""
    lines = []
    for line in _record_text().splitlines():
        if line.startswith("#"):
            continue
        parsed = _signature_line(line)
        if parsed is not None:
            lines.append(parsed)
    return lines


def ours(name: str, arch: str) -> Optional[Dict]:
    try:
        return _musa_mlir.intrinsic_signature(name, arch)
    except ValueError:
        return None


def entries() -> Dict[str, Dict]:
    return {e["pattern"]: e for e in _musa_mlir.intrinsics()}


def _fixed(pattern: str) -> bool:
    return "<" not in pattern


def test_record_is_the_shared_copy() -> None:
    # The copy names its origin; the parser finds the record's lines in it.
    assert "shared/MUSA-INTRINSICS.txt" in _record_text().splitlines()[0]
    assert len(record_lines()) > 60


def test_table_entries_are_well_formed() -> None:
    table = _musa_mlir.intrinsics()
    patterns = [e["pattern"] for e in table]
    assert len(patterns) == len(set(patterns))
    for e in table:
        assert e["pattern"].startswith("llvm.musa."), e
        assert e["kind"] in ("readnone", "convergent"), e
        assert e["evidence"], f"{e['pattern']}: no evidence"


@pytest.mark.parametrize("arch", ARCHS)
def test_named_intrinsics_match_the_record(arch: str) -> None:
    """Every record line the table knows: operand count, order and types, and result."""
    compared = 0
    table = entries()
    for line in record_lines():
        if "<" in line.name:
            continue  # the family lines, checked below
        signature = ours(line.name, arch)
        if signature is None or signature["pattern"].endswith(".mma"):
            continue  # not one we emit / the WMMA examples (per arch, below)
        assert line.operands is not None and line.result is not None, line
        ok = signature["operands"] == line.operands and signature["result"] == line.result
        if not ok:
            deviation = table[signature["pattern"]]["deviation"]
            assert deviation, (
                f"{line.name} on {arch}: ours {signature['operands']} -> {signature['result']}, "
                f"record {line.operands} -> {line.result}, and the entry writes down no deviation")
        compared += 1
    assert compared >= 30


def test_every_fixed_entry_is_in_the_record() -> None:
    names = {line.name for line in record_lines()}
    for pattern in entries():
        if _fixed(pattern):
            assert pattern in names, f"{pattern} is not in the record"


def test_every_family_has_record_instances() -> None:
    """Each family entry resolves at least one name the record spells (or, for the matrix
    families, the record's family line)."""
    names = {line.name for line in record_lines()}
    for pattern in entries():
        if _fixed(pattern):
            continue
        hits = [n for n in names if (ours(n, PH1) or {}).get("pattern") == pattern]
        assert hits or pattern in names, f"no record name is an instance of {pattern}"


def _family_line(prefix: str) -> str:
    for line in _record_text().splitlines():
        if line.startswith(prefix):
            return line
    raise AssertionError(f"the record has no line starting {prefix!r}")


def _shapes(label: str) -> List[Tuple[int, int]]:
    line = _family_line(f"     MxN ({label}")
    return [(int(m), int(n)) for m, n in re.findall(r"\b(\d+)x(\d+)\b", line.split(":", 1)[1])]


def _sqmma_ks() -> Dict[str, List[int]]:
    line = _family_line("     K: ")
    ks = {}
    for part in line.split(":", 1)[1].split(";"):
        types, values = part.strip().split(" ", 1)
        for t in types.split("/"):
            ks[t] = [int(v) for v in values.split("|")]
    return ks


def test_sqmma_family_matches_the_record() -> None:
    line = _family_line("llvm.musa.sqmma.<tag>.m<M>n<N>k<K>.mma(")
    operands = _types(re.search(r"\((.*)\)\s*->", line).group(1))
    tags = re.search(r"tag: (.*)", _record_text()).group(1)
    # "fmma (f16), ..., e4m3, e5m2 (fp8 -> f32)": a tag without a type has the next one's.
    tag_type: Dict[str, str] = {}
    pending: List[str] = []
    for tag, elem in re.findall(r"(\w+)(?: \((\w+)[^)]*\))?", tags):
        pending.append(tag)
        if elem:
            tag_type.update({t: elem for t in pending})
            pending = []
    assert set(tag_type) == {"fmma", "bfmma", "tfmma", "smma", "e4m3", "e5m2"}
    shapes = {"tf32": _shapes("tf32")}
    ks = _sqmma_ks()
    checked = 0
    for tag, elem in tag_type.items():
        key = {"fp8": "e4m3", "s8": "s8"}.get(elem, elem)
        for m, n in shapes.get(elem, _shapes("f16")):
            for k in ks[key]:
                name = f"llvm.musa.sqmma.{tag}.m{m}n{n}k{k}.mma"
                acc = f"<{m * n // 128} x i32>"  # E = M*N/128
                signature = ours(name, PH1)
                assert signature is not None, name
                assert signature["operands"] == [acc if t == "<E x i32>" else t for t in operands], name
                assert signature["result"] == acc, name
                assert signature["kind"] == "convergent"
                checked += 1
    assert checked > 150


def _words(elements: int, bits: int, warp: int) -> str:
    # "packed into i32 words: a single i32 when one word, else <n x i32>"
    words = elements * bits // 32 // warp
    return "i32" if words == 1 else f"<{words} x i32>"


_WMMA_BITS = {"s8": 8, "f16": 16, "bf16": 16, "tf32": 32}


def test_wmma_family_matches_the_record_on_ph1() -> None:
    section = _record_text().split("PH1 (wmma version 3.1):", 1)[1].split("e.g.", 1)[0]
    line = _family_line("llvm.musa.<tag>.m<M>n<N>k<K>.mma(")
    fixed, optional = re.search(r"\(A, B, C, (.*?) \[, (.*?) for e4m3/e5m2\]\)", line).groups()
    trailing, fp8_trailing = _types(fixed), _types(optional)
    checked = 0
    for row in section.strip().splitlines():
        tag, *shapes = row.split("(")[0].split()
        elem = re.search(r"\((\w+)", row)
        bits = _WMMA_BITS[elem.group(1)] if elem else 8  # e4m3 / e5m2: 8-bit
        for shape in shapes:
            m, n, k = map(int, re.fullmatch(r"m(\d+)n(\d+)k(\d+)", shape).groups())
            c = _words(m * n, 32, 32)  # words(C) = M*N*32/32/warp
            expected = [_words(m * k, bits, 32), _words(n * k, bits, 32), c, *trailing]
            if tag in ("e4m3", "e5m2"):
                expected += fp8_trailing
            signature = ours(f"llvm.musa.{tag}.m{m}n{n}k{k}.mma", PH1)
            assert signature is not None, (tag, shape)
            assert (signature["operands"], signature["result"]) == (expected, c), (tag, shape)
            checked += 1
    assert checked == 28


@pytest.mark.parametrize("name,arch", [("llvm.musa.ffmma.m16n16k16.mma", PH1),
                                       ("llvm.musa.ffmma.m32n32k16.mma", QY2),
                                       ("llvm.musa.bfmma.m32n32k16.mma", QY2)])
def test_wmma_examples_match_the_record(name: str, arch: str) -> None:
    line = next(line for line in record_lines() if line.name == name)
    signature = ours(name, arch)
    assert (signature["operands"], signature["result"]) == (line.operands, line.result)


def test_attributes() -> None:
    # Ids and pure functions of their operands are readnone; everything else convergent.
    kinds = {e["pattern"]: e["kind"] for e in _musa_mlir.intrinsics()}
    assert kinds["llvm.musa.read.ptx.sreg.<reg>.<dim>"] == "readnone"
    assert kinds["llvm.musa.sqmma.desc.<elem>"] == "readnone"
    assert kinds["llvm.musa.rsq"] == "readnone"
    assert kinds["llvm.musa.barrier0"] == "convergent"
    # SQMMA needs shared memory from address 0 (llc's -mtgpu-alloc-shared-memory-from-zero=1).
    from_zero = {e["pattern"] for e in _musa_mlir.intrinsics() if e["shared_memory_from_zero"]}
    assert from_zero == {"llvm.musa.sqmma.desc.<elem>", "llvm.musa.sqmma.<tag>.m<M>n<N>k<K>.mma"}


def test_unknown_names_are_refused() -> None:
    for name in ("llvm.musa.wmma", "llvm.musa.read.ptx.sreg.tid.w", "llvm.musa.tme.ld.tile.6d",
                 "llvm.musa.sqmma.hmma.m32n32k16.mma", "llvm.musa.barrier.sync"):
        with pytest.raises(ValueError):
            _musa_mlir.intrinsic_signature(name, PH1)


# --- The export: every llvm.musa.* declaration comes from the table ------------------------------------

def _export(body: str, target: str = "musa:mp_31", **kwargs) -> str:
    from triton_musa.mlir import ir
    text = textwrap.dedent(f"""\
        module attributes {{ttg.target = "{target}"}} {{
        {textwrap.indent(textwrap.dedent(body), "  ")}
          llvm.func @k() attributes {{musa.kernel}} {{
            llvm.return
          }}
        }}""")
    with ir.Context():
        module = ir.Module.parse(text)
        return _musa_mlir.translate_to_llvm_ir(module, opt_level=0, **kwargs)


def test_export_refuses_a_name_the_table_lacks() -> None:
    with pytest.raises(_musa_mlir.MLIRError) as info:
        _export("llvm.func @llvm.musa.barrier.sync()")
    assert info.value.diagnostics[0][0] == "error"
    assert "'llvm.musa.barrier.sync' is not a MUSA intrinsic we know" in info.value.diagnostics[0][2]


def test_export_refuses_another_signature() -> None:
    # The ABI probe: sqmma.wait takes no operand.
    with pytest.raises(_musa_mlir.MLIRError) as info:
        _export("llvm.func @llvm.musa.sqmma.wait(i32)")
    assert "is declared as !llvm.func<void (i32)>" in info.value.diagnostics[0][2]


def test_export_checks_wmma_against_the_modules_arch() -> None:
    ph1 = "llvm.func @llvm.musa.ffmma.m16n16k16.mma(vector<4xi32>, vector<4xi32>, vector<8xi32>, i32, i32, i32) " \
          "-> vector<8xi32>"
    assert "declare <8 x i32> @llvm.musa.ffmma.m16n16k16.mma" in _export(ph1)
    with pytest.raises(_musa_mlir.MLIRError, match="mp_22"):
        _export(ph1, target="musa:mp_22")  # QY2's 128 lanes hold a quarter of the fragment each


def test_export_applies_the_tables_attributes() -> None:
    llir = _export("llvm.func @llvm.musa.sqmma.desc.half(i16, i32, i32, i32) -> i32\n"
                   "llvm.func @llvm.musa.barrier0()\n"
                   "llvm.func @llvm.musa.rsq(f32) -> f32", llvm14_compatible=False)
    groups = dict(re.findall(r"^attributes (#\d+) = \{ (.*) \}$", llir, re.M))

    def attributes(name: str) -> str:
        return groups[re.search(rf"declare .*@{re.escape(name)}\(.*\) (#\d+)", llir).group(1)]
    for pure in ("llvm.musa.sqmma.desc.half", "llvm.musa.rsq"):
        assert "memory(none)" in attributes(pure) and "convergent" not in attributes(pure), pure
    assert "convergent" in attributes("llvm.musa.barrier0")


def test_lowering_emitting_an_unknown_name_fails_the_export() -> None:
    # tt.extern_elementwise lowers to a declaration of the symbol it names: an llvm.musa.* name the table
    # lacks gets through the lowering and is refused by the export.
    from triton_musa.backend.lowering import LoweringError, lower_to_llir
    from triton_musa.backend.target import parse_arch
    ttgir = textwrap.dedent("""\
        #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
        module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
          tt.func public @k(%p: !tt.ptr<f32>) {
            %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
            %x = arith.sitofp %r : tensor<128xi32, #blocked> to tensor<128xf32, #blocked>
            %y = tt.extern_elementwise %x {libname = "", libpath = "/usr/local/musa/mtgpu/bitcode/libdevice.31.bc", pure = true, symbol = "SYMBOL"} : (tensor<128xf32, #blocked>) -> tensor<128xf32, #blocked>
            %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
            %q = tt.addptr %ps, %r : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
            tt.store %q, %y : tensor<128x!tt.ptr<f32>, #blocked>
            tt.return
          }
        }""")
    arch = parse_arch(PH1)
    known = lower_to_llir(ttgir.replace("SYMBOL", "llvm.musa.rsq"), arch, libdevice="")
    assert "@llvm.musa.rsq(float)" in known.llir
    with pytest.raises(LoweringError) as info:
        lower_to_llir(ttgir.replace("SYMBOL", "llvm.musa.rsqrt"), arch, libdevice="")
    assert any("'llvm.musa.rsqrt' is not a MUSA intrinsic we know" in d.message for d in info.value.diagnostics)
