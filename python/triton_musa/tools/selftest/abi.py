"""ABI probes: the SDK's ``llc`` against our intrinsic table and matrix catalogue, no GPU needed.

For every instance of every entry of the intrinsic table (target/MUSAIntrinsics.cpp) on each architecture
that may emit it, and for every matrix-catalogue row we lower for the device
(dialects/MUSAGPU/IR/MatrixInstrs.cpp), a minimal module: a kernel calling the intrinsic once with constant
operands and storing its result. It goes through our LLVM IR export (which declares the intrinsic from the
table, with the table's attributes, and applies the LLVM-14 compatibility step keyed by the SDK llc's
version) and then ``MusaToolchain.compile_mubin``: ``llc`` and ``ld.lld`` with the flags the compiler uses.
A name or signature llc rejects is reported as ``differs`` with llc's message and the entry to change.
Then the llc flags themselves, and one kernel per family of the compiler's corpus (kernels.py) compiled to a
mubin, which also covers the descriptor argument's ``grid_constant`` annotation.
"""

from __future__ import annotations

import itertools
import re
import textwrap
from dataclasses import dataclass
from typing import Callable, Dict, Iterable, List, Optional, Sequence

from .report import CONFIRMED, DIFFERS, ERROR, NOT_CHECKED, ProbeResult

SECTION = "abi"

# Instances of the table's families (the values each <param> takes in what the compiler emits). A family
# the kit does not list is reported as an error, so that a new entry cannot go unprobed.
FAMILY_PARAMS: Dict[str, Dict[str, Sequence[str]]] = {
    "llvm.musa.read.ptx.sreg.<reg>.<dim>": {"reg": ("tid", "ctaid", "nctaid"), "dim": ("x", "y", "z")},
    "llvm.musa.shfl.<kind>.sync.i32": {"kind": ("xor", "up", "down", "idx")},
    "llvm.musa.tme.ld.tile.<N>d": {"N": ("1", "2", "3", "4", "5")},
    "llvm.musa.tme.st.<N>d": {"N": ("1", "2", "3", "4", "5")},
    "llvm.musa.sqmma.desc.<elem>": {"elem": ("half", "fp32", "i8")},
}
# Families whose instances are the matrix catalogue's rows (probed row by row below).
MATRIX_FAMILIES = ("llvm.musa.sqmma.<tag>.m<M>n<N>k<K>.mma", "llvm.musa.<tag>.m<M>n<N>k<K>.mma")
# Entries only architectures with TME (and SQMMA) emit.
_TME_ONLY = re.compile(r"^llvm\.musa\.(tme|async|sqmma)\.")


@dataclass(frozen=True)
class Instance:
    name: str
    arch: str
    pattern: str
    shared_memory_from_zero: bool
    fact: str
    change: str


def _instances(pattern: str) -> List[str]:
    params = FAMILY_PARAMS[pattern]
    keys = list(params)
    names = []
    for values in itertools.product(*(params[k] for k in keys)):
        name = pattern
        for key, value in zip(keys, values):
            name = name.replace(f"<{key}>", value)
        names.append(name)
    return names


def intrinsic_instances(archs: Sequence[Dict]) -> tuple[List[Instance], List[ProbeResult]]:
    """Every (name, arch) the table's non-matrix entries give, and an error per entry the kit cannot expand."""
    from ... import _musa_mlir
    instances: List[Instance] = []
    problems: List[ProbeResult] = []
    for entry in _musa_mlir.intrinsics():
        pattern = entry["pattern"]
        if pattern in MATRIX_FAMILIES:
            continue
        if "<" in pattern and pattern not in FAMILY_PARAMS:
            problems.append(ProbeResult(SECTION, pattern, "intrinsic table entry", ERROR,
                                        "the selftest has no instances of this family: add its parameters to "
                                        "FAMILY_PARAMS in triton_musa/tools/selftest/abi.py"))
            continue
        names = _instances(pattern) if "<" in pattern else [pattern]
        for arch in archs:
            if _TME_ONLY.match(pattern) and not arch["has_tme"]:
                continue
            for name in names:
                instances.append(Instance(name, arch["name"], pattern, bool(entry["shared_memory_from_zero"]),
                                          "llc accepts the intrinsic table's name and signature",
                                          f"target/MUSAIntrinsics.cpp, entry '{pattern}'"))
    return instances, problems


def matrix_instances(archs: Sequence[Dict]) -> List[Instance]:
    """The device's lowered rows of the catalogue, each on the first architecture of its major."""
    from ... import _musa_mlir
    by_major = {}
    for arch in archs:
        by_major.setdefault(arch["major"], arch["name"])
    instances = []
    for row in _musa_mlir.matrix_instructions():
        if not row["lowered"] or "musa" not in row["targets"].split(",") or row["arch_major"] not in by_major:
            continue
        instances.append(Instance(row["intrinsic"], by_major[row["arch_major"]],
                                  "llvm.musa.sqmma.<tag>.m<M>n<N>k<K>.mma" if row["unit"] == "sqmma"
                                  else "llvm.musa.<tag>.m<M>n<N>k<K>.mma",
                                  row["unit"] == "sqmma", "llc accepts the matrix row's intrinsic",
                                  f"dialects/MUSAGPU/IR/MatrixInstrs.cpp, row '{row['description']}' "
                                  "(and its signature in target/MUSAIntrinsics.cpp)"))
    return instances


# LLVM IR type spellings (the table's) -> MLIR LLVM-dialect types.
def _mlir_type(llvm_type: str) -> str:
    vector = re.fullmatch(r"<(\d+) x (\w+)>", llvm_type)
    if vector:
        return f"vector<{vector.group(1)}x{_mlir_type(vector.group(2))}>"
    pointer = re.fullmatch(r"ptr(?: addrspace\((\d+)\))?", llvm_type)
    if pointer:
        return f"!llvm.ptr<{pointer.group(1)}>" if pointer.group(1) else "!llvm.ptr"
    return {"float": "f32", "half": "f16", "bfloat": "bf16", "double": "f64"}.get(llvm_type, llvm_type)


def _constant(name: str, mlir_type: str) -> str:
    """An operand of the probe: 1 for integers (barrier ids start at 1), zero vectors, null pointers."""
    if mlir_type.startswith("vector<"):
        return f"%{name} = llvm.mlir.zero : {mlir_type}"
    if mlir_type.startswith("!llvm.ptr"):
        return f"%{name} = llvm.mlir.zero : {mlir_type}"
    if mlir_type == "i1":
        return f"%{name} = llvm.mlir.constant(true) : i1"
    if mlir_type.startswith("f") or mlir_type == "bf16":
        return f"%{name} = llvm.mlir.constant(1.0 : {mlir_type}) : {mlir_type}"
    return f"%{name} = llvm.mlir.constant(1 : {mlir_type}) : {mlir_type}"


def probe_module(name: str, arch: str) -> str:
    """The minimal LLVM-dialect module calling ``name`` as the table declares it on ``arch``."""
    from ... import _musa_mlir
    signature = _musa_mlir.intrinsic_signature(name, arch)
    operands = [_mlir_type(t) for t in signature["operands"]]
    result = None if signature["result"] == "void" else _mlir_type(signature["result"])
    body = [_constant(f"a{i}", t) for i, t in enumerate(operands)]
    args = ", ".join(f"%a{i}" for i in range(len(operands)))
    fn_type = f"({', '.join(operands)}) -> {result or '()'}"
    if result:
        body.append(f"%r = llvm.call @{name}({args}) : {fn_type}")
        body.append(f"llvm.store %r, %out : {result}, !llvm.ptr<1>")
    else:
        body.append(f"llvm.call @{name}({args}) : {fn_type}")
    body.append("llvm.return")
    declaration = f"llvm.func @{name}({', '.join(operands)})" + (f" -> {result}" if result else "")
    return textwrap.dedent(f"""\
        module attributes {{ttg.target = "musa:{arch}"}} {{
          {declaration}
          llvm.func @probe(%out: !llvm.ptr<1>) attributes {{musa.kernel}} {{
            {(chr(10) + '    ').join(body)}
          }}
        }}""")


def export_llir(mlir_text: str, llvm_major: int) -> str:
    """Our LLVM IR export of an LLVM-dialect module, with the compatibility step the compiler applies for an
    llc of ``llvm_major`` (lowering.lower_to_llir)."""
    from ... import _musa_mlir
    from ...backend.lowering import LLVM_MAJOR_WITHOUT_REWRITES
    from ...mlir import ir
    with ir.Context():
        module = ir.Module.parse(mlir_text)
        return _musa_mlir.translate_to_llvm_ir(module, opt_level=0,
                                               llvm14_compatible=llvm_major < LLVM_MAJOR_WITHOUT_REWRITES)


def _first_lines(text: str, count: int = 6) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return "\n".join(lines[:count] + ([f"... ({len(lines) - count} more lines)"] if len(lines) > count else []))


def probe_instance(toolchain, instance: Instance) -> ProbeResult:
    from ...backend.target import parse_arch
    from ...backend.toolchain import MusaToolchainError
    label = f"{instance.name} on {instance.arch}"
    try:
        llir = export_llir(probe_module(instance.name, instance.arch), toolchain.llvm_major)
    except Exception as exc:  # noqa: BLE001  (our side failed: the table or the export)
        return ProbeResult(SECTION, label, instance.fact, ERROR, f"building the probe module failed: "
                           f"{type(exc).__name__}: {exc}", instance.change)
    signature = re.search(rf"declare .*@{re.escape(instance.name)}\(.*\)", llir)
    try:
        toolchain.compile_mubin(llir, parse_arch(instance.arch), "probe",
                                shared_memory_from_zero=instance.shared_memory_from_zero)
    except MusaToolchainError as exc:
        return ProbeResult(SECTION, label, instance.fact, DIFFERS,
                           f"llc rejects `{signature.group(0) if signature else instance.name}`:\n"
                           f"{_first_lines(str(exc))}", instance.change)
    return ProbeResult(SECTION, label, instance.fact, CONFIRMED)


def llc_flags(toolchain, archs: Sequence[Dict]) -> List[ProbeResult]:
    """The flags the toolchain passes (backend/toolchain.py), on a kernel that does nothing: once plain,
    once with SQMMA's -mtgpu-alloc-shared-memory-from-zero=1 where the arch has SQMMA."""
    from ...backend.target import parse_arch
    from ...backend.toolchain import MusaToolchainError
    results = []
    for arch in archs:
        module = f'module attributes {{ttg.target = "musa:{arch["name"]}"}} {{\n' \
                 "  llvm.func @probe() attributes {musa.kernel} {\n    llvm.return\n  }\n}"
        for from_zero in (False, True) if arch["matrix_unit"] == "sqmma" else (False,):
            flags = "-march=mtgpu -mcpu=<arch> -O2 -filetype=obj" + \
                (" --opaque-pointers" if toolchain.llvm_major < 15 else "") + \
                (" -mtgpu-alloc-shared-memory-from-zero=1" if from_zero else "")
            name = f"llc flags on {arch['name']}" + (" (SQMMA)" if from_zero else "")
            try:
                toolchain.compile_mubin(export_llir(module, toolchain.llvm_major), parse_arch(arch["name"]),
                                        "probe", shared_memory_from_zero=from_zero)
                results.append(ProbeResult(SECTION, name, f"llc takes `{flags}`; ld.lld -flavor gnu -shared",
                                           CONFIRMED))
            except MusaToolchainError as exc:
                results.append(ProbeResult(SECTION, name, f"llc takes `{flags}`; ld.lld -flavor gnu -shared",
                                           DIFFERS, _first_lines(str(exc)),
                                           "python/triton_musa/backend/toolchain.py, MusaToolchain.compile_mubin"))
    return results


def run_abi_probes(archs: Optional[Sequence[Dict]] = None,
                   kernel_probes: Optional[Callable[[object], Iterable[ProbeResult]]] = None) -> List[ProbeResult]:
    """Every ABI probe against the SDK that find_toolchain() finds; one not-checked result when none is."""
    from ... import _musa_mlir
    from ...backend.toolchain import MusaToolchainNotFound, find_toolchain
    try:
        toolchain = find_toolchain()
        toolchain.version  # noqa: B018  (an llc that cannot say its version is a finding too)
    except MusaToolchainNotFound as exc:
        return [ProbeResult(SECTION, "SDK", "llc accepts our intrinsics, matrix rows, flags and kernels",
                            NOT_CHECKED, f"no MUSA SDK here: {exc}")]
    except Exception as exc:  # noqa: BLE001
        return [ProbeResult(SECTION, "SDK", "llc runs", ERROR, f"{type(exc).__name__}: {exc}")]
    archs = list(archs if archs is not None else _musa_mlir.architectures())
    instances, results = intrinsic_instances(archs)
    instances += matrix_instances(archs)
    results += llc_flags(toolchain, archs)
    results += [probe_instance(toolchain, instance) for instance in instances]
    if kernel_probes is not None:
        results += list(kernel_probes(toolchain))
    return results
