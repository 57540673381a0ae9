"""Is this LLVM IR text something the MUSA SDK's LLVM 14 ``llc`` reads? One check for lit and pytest.

``llvm-as-14`` alone is not enough: it takes a call to any ``llvm.*`` name it does not
know (``llvm.ldexp``, ``llvm.is.fpclass``, ``llvm.scmp`` are LLVM 15+) as an ordinary
external function, and never checks the signature of a declared intrinsic nobody calls.
So besides ``llvm-as-14`` and the tokens LLVM 22 prints that LLVM 14 rejects, every
declared ``llvm.*`` function (other than ``llvm.musa.*``, the SDK's own) must

1. name an LLVM 14 intrinsic: looked up in LLVM 14's generated name table, as LLVM's
   ``Function::lookupIntrinsicID`` does (longest name prefix ending at a dot; only an
   overloaded intrinsic may carry a type suffix), and
2. have LLVM 14's signature and mangling: a probe module that calls the declaration with
   constant arguments goes through ``llvm-as-14``, whose verifier checks both.

The tables come with Debian/Ubuntu's ``llvm-14-dev`` (``IntrinsicImpl.inc``).

    python llvm14_ir.py FILE.ll     # lit: %check-llvm14 FILE.ll; exit 1 with the problems
"""

from __future__ import annotations

import functools
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Tuple

# What LLVM 22 prints and LLVM 14's parser rejects (or, for the intrinsics, does not know).
FORBIDDEN_TOKENS: Tuple[str, ...] = (
    "nneg", "disjoint", "samesign", "nusw", "inrange", "memory(", "captures(", "initializes", "range(", "nofpclass",
    "dead_on_", "writable", "splat", "#dbg_", "aarch64_sme", "llvm.scmp", "llvm.ucmp", "llvm.ldexp",
    "llvm.is.fpclass")

INTRINSIC_TABLE_CANDIDATES = ("/usr/lib/llvm-14/include/llvm/IR/IntrinsicImpl.inc",
                              "/usr/include/llvm-14/llvm/IR/IntrinsicImpl.inc")
_DECLARE = re.compile(r"^declare\s+(?P<head>.*?)\s*@(?P<name>llvm\.[\w.]+)\((?P<params>.*)\)(?P<tail>[^)]*)$",
                      re.MULTILINE)
# One LLVM type at the start (parameter) or end (return) of a string.
_TYPE = r"(?:<[^<>]*>|\{[^{}]*\}|\[[^\[\]]*\]|ptr addrspace\(\d+\)|[\w.]+)"
_FLOATS = ("half", "bfloat", "float", "double", "fp128", "x86_fp80", "ppc_fp128")


class Llvm14ToolsMissing(RuntimeError):
    pass


def llvm_as_14() -> str:
    path = shutil.which("llvm-as-14")
    if path is None:
        raise Llvm14ToolsMissing("llvm-as-14 not found: install Debian/Ubuntu's llvm-14 "
                                 "(the parser of the MUSA SDK's llc)")
    return path


@functools.lru_cache(maxsize=None)
def intrinsic_table() -> Dict[str, bool]:
    """LLVM 14's intrinsic names -> whether the intrinsic is overloaded (takes a type suffix)."""
    path = next((Path(p) for p in INTRINSIC_TABLE_CANDIDATES if Path(p).exists()), None)
    if path is None:
        raise Llvm14ToolsMissing(f"LLVM 14's intrinsic table not found in {INTRINSIC_TABLE_CANDIDATES}: "
                                 "install Debian/Ubuntu's llvm-14-dev")
    text = path.read_text()
    names_block = text.split("#ifdef GET_INTRINSIC_NAME_TABLE", 1)[1].split("#endif", 1)[0]
    names = re.findall(r'^\s*"(llvm\.[^"]+)",', names_block, re.MULTILINE)
    overload_block = text.split("#ifdef GET_INTRINSIC_OVERLOAD_TABLE", 1)[1].split("#endif", 1)[0]
    bytes_ = [sum(1 << int(bit) for bit in re.findall(r"1<<(\d)", row))
              for row in overload_block.splitlines() if row.strip().startswith("0")]
    # Intrinsic id 0 is "not_intrinsic": names[i] has id i + 1, whose bit is set when overloaded.
    return {name: bool(bytes_[(i + 1) // 8] >> ((i + 1) % 8) & 1) for i, name in enumerate(names)}


def lookup_intrinsic(name: str) -> str | None:
    """The LLVM 14 intrinsic `name` resolves to, or None (LLVM 14 takes it for a plain function)."""
    table = intrinsic_table()
    parts = name.split(".")
    for end in range(len(parts), 1, -1):
        base = ".".join(parts[:end])
        if base in table:
            return base if base == name or table[base] else None
    return None


def _token(token: str) -> re.Pattern:
    """`token` as a keyword, not inside a name (`@splats`, `%range`); intrinsic names as they are."""
    if token.startswith("llvm."):
        return re.compile(re.escape(token))
    tail = r"(?![\w.])" if token[-1].isalnum() else ""
    return re.compile(r"(?<![\w@%$.\"-])" + re.escape(token) + tail)


def _constant(type_: str) -> str:
    if type_.startswith("ptr"):
        return "null"
    if re.fullmatch(r"i\d+", type_):
        return "1"  # valid for every immarg of LLVM 14 (alignments, flags, ranks)
    if type_ in _FLOATS:
        return "0.0"
    return "zeroinitializer"


def _split_params(params: str) -> List[str]:
    out, depth, start = [], 0, 0
    for i, ch in enumerate(params):
        depth += ch in "<{[(" and 1 or (-1 if ch in ">}])" else 0)
        if ch == "," and depth == 0:
            out.append(params[start:i].strip())
            start = i + 1
    if params.strip():
        out.append(params[start:].strip())
    return out


def _probe(name: str, head: str, params: str) -> str | None:
    """A module calling the declaration with constants (so `immarg` holds), or None if it cannot be built."""
    ret = re.search(_TYPE + r"$", head)
    types = [re.match(_TYPE, p) for p in _split_params(params)]
    if ret is None or any(t is None or t.group(0) == "metadata" for t in types) or "..." in params:
        return None
    args = ", ".join(f"{t.group(0)} {_constant(t.group(0))}" for t in types)
    return (f"declare {ret.group(0)} @{name}({', '.join(t.group(0) for t in types)})\n"
            f"define void @probe() {{\n  call {ret.group(0)} @{name}({args})\n  ret void\n}}\n")


def _llvm_as_14_error(text: str) -> str | None:
    """llvm-as-14's complaint about `text` (its first lines, not a crash's stack dump), or None."""
    proc = subprocess.run([llvm_as_14(), "-opaque-pointers", "-o", "/dev/null", "-"], input=text,
                          capture_output=True, text=True)
    if proc.returncode == 0:
        return None
    if proc.returncode < 0 or "Stack dump:" in proc.stderr:
        return f"llvm-as-14 crashed (exit {proc.returncode})"
    return " / ".join(proc.stderr.strip().splitlines()[:3])


def problems(text: str) -> List[str]:
    """Everything in `text` that the SDK's LLVM 14 llc would reject; empty when it is clean."""
    found = [f"LLVM 22 token {t!r}" for t in FORBIDDEN_TOKENS if _token(t).search(text)]
    error = _llvm_as_14_error(text)
    if error:
        found.append(error)
    for decl in _DECLARE.finditer(text):
        name = decl.group("name")
        if name.startswith("llvm.musa."):
            continue
        if lookup_intrinsic(name) is None:
            found.append(f"@{name} is not an LLVM 14 intrinsic")
            continue
        probe = _probe(name, decl.group("head"), decl.group("params"))
        if probe is None:
            found.append(f"@{name}: cannot read the declaration's types: {decl.group(0)}")
            continue
        error = _llvm_as_14_error(probe)
        if error:
            found.append(f"@{name} does not have LLVM 14's signature: {error}")
    return found


def main(argv: List[str]) -> int:
    if len(argv) != 1:
        print(f"usage: {Path(sys.argv[0]).name} FILE.ll", file=sys.stderr)
        return 2
    found = problems(Path(argv[0]).read_text())
    for p in found:
        print(f"{argv[0]}: {p}", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
