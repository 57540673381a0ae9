"""Ahead-of-time compilation for MUSA: ``python -m triton_musa.tools.compile``.

    python -m triton_musa.tools.compile --kernel-name add_kernel \\
        --signature "*fp32,*fp32,*fp32,i32,1024" --grid 1,1,1 \\
        --target-backend musa --target-arch mp_31 --target-warp-size 32 path/to/kernel.py

(``--target musa:mp_31:32`` is accepted too, as by Triton's own tool.) Writes
``<out>.<hash>_<suffix>.{c,h}`` from the templates Triton's ``triton.tools.compile``
fills for ``--target musa:...`` (``templates.py``), with the same parameters, names
and hash, so both tools write the same files: the mubin embedded as bytes,
``load_<name>()``, ``unload_<name>()`` and ``<name>(stream, args...)`` over the MUSA
driver API, and the ``tt-linker`` line that ``python -m triton_musa.tools.link`` reads
to combine specializations. Signature entries: a type (``*fp16``, ``i32``, ...),
optionally ``:16`` (divisible by 16) or ``:1`` (equal to 1), or a number (a
constexpr). No active driver is needed. Without a MUSA SDK it stops with a message
naming where ``llc`` was searched; ``--emit llir`` writes the LLVM IR instead.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..backend.target import DEFAULT_ARCH, parse_arch
from .templates import c_type


@dataclass
class KernelSpec:
    """The parsed ``--signature``: runtime arguments, constexprs and divisibility hints."""

    arg_names: List[str]
    signature: Dict[str, str]
    constants: Dict[str, Any]
    divisible_by_16: List[int] = field(default_factory=list)
    equal_to_1: List[int] = field(default_factory=list)

    @property
    def runtime_args(self) -> List[Tuple[str, str]]:
        """The launch function's arguments: every non-constexpr one."""
        return [(n, t) for n, t in self.signature.items() if t != "constexpr"]

    @property
    def full_args(self) -> List[Tuple[str, str]]:
        """The ``tt-linker`` arguments: the runtime ones and, as ``i32``, those specialized to 1 (which the
        dispatcher tests)."""
        ones = {self.arg_names[i] for i in self.equal_to_1}
        return [(n, "i32" if n in ones else t) for n, t in self.signature.items() if t != "constexpr" or n in ones]

    @property
    def constant_values(self) -> List[Any]:
        """Constexpr values in Triton's order (numbers first, then the ``:1`` arguments), for ``algo_info``."""
        ones = {self.arg_names[i] for i in self.equal_to_1}
        return [v for n, v in self.constants.items() if n not in ones] + [1] * len(ones)


def _number(text: str) -> Optional[Any]:
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return None


def parse_signature(arg_names: Sequence[str], text: str) -> KernelSpec:
    entries = [s.strip() for s in text.split(",")]
    if len(entries) != len(arg_names):
        raise ValueError(f"--signature has {len(entries)} entries but the kernel takes {len(arg_names)} arguments "
                         f"({', '.join(arg_names)})")
    spec = KernelSpec(list(arg_names), {}, {})
    for i, (name, entry) in enumerate(zip(arg_names, entries)):
        ty, _, hint = entry.partition(":")
        value = _number(ty)
        if value is not None:
            spec.signature[name], spec.constants[name] = "constexpr", value
            continue
        spec.signature[name] = ty
        if hint == "16":
            spec.divisible_by_16.append(i)
        elif hint == "1":
            spec.equal_to_1.append(i)
            spec.signature[name], spec.constants[name] = "constexpr", 1
        elif hint:
            raise ValueError(f"argument {name!r}: hint ':{hint}' is not one of ':16', ':1'")
    return spec


def parse_target(args: argparse.Namespace) -> Any:
    from triton.backends.compiler import GPUTarget
    if args.target:
        parts = args.target.split(":")
        if len(parts) != 3:
            raise ValueError(f"--target {args.target!r}: expected <backend>:<arch>:<warp-size>, e.g. musa:mp_31:32")
        backend, arch_name, warp = parts
    else:
        backend, arch_name, warp = args.target_backend, args.target_arch, args.target_warp_size
    if backend != "musa":
        raise ValueError(f"target backend {backend!r}: this tool compiles for 'musa'")
    arch = parse_arch(arch_name)
    warp_size = int(warp) if warp is not None else arch.warp_size
    return GPUTarget("musa", arch.name, warp_size)


def load_kernel(path: Path, name: str) -> Any:
    sys.path.insert(0, str(path.parent))
    spec = importlib.util.spec_from_file_location(path.stem, path)
    if spec is None or spec.loader is None:
        raise ValueError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if not hasattr(module, name):
        raise ValueError(f"{path} defines no kernel named {name!r}")
    return getattr(module, name)


def compile_stages(kernel: Any, spec: KernelSpec, target: Any, num_warps: int, num_stages: int,
                   emit: str) -> Tuple[Any, Dict[str, Any], Any]:
    """Runs our stages up to ``emit`` ("llir" or "mubin") without Triton's driver or cache; returns
    (result, metadata, options)."""
    from triton._C.libtriton import ir
    from triton.compiler import ASTSource
    from triton.compiler.compiler import make_backend
    if emit == "mubin":
        from ..backend.toolchain import find_toolchain
        find_toolchain()  # fail before compiling when the SDK is missing
    attrs = {(i,): [["tt.divisibility", 16]] for i in spec.divisible_by_16}
    src = ASTSource(fn=kernel, signature=spec.signature, constexprs=spec.constants, attrs=attrs)
    backend = make_backend(target)
    options = backend.parse_options({"num_warps": num_warps, "num_stages": num_stages})
    context = ir.context()
    ir.load_dialects(context)
    module = src.make_ir(target, options, backend.get_codegen_implementation(options), backend.get_module_map(),
                         context)
    metadata: Dict[str, Any] = {}
    module = backend.make_ttir(module, metadata, options)
    module = backend.make_ttgir(module, metadata, options)
    llir = backend.make_llir(str(module), metadata, options)
    if emit == "llir":
        return llir, metadata, options
    return backend.make_mubin(llir, metadata, options), metadata, options


def template_params(*, func_name: str, kernel_name: str, spec: KernelSpec, binary: bytes, shared: int,
                    num_warps: int, num_stages: int, warp_size: int, grid: Sequence[str]) -> Dict[str, Any]:
    """The parameters Triton's ``triton.tools.compile`` gives the templates, computed the same way."""
    runtime = spec.runtime_args
    return {
        "kernel_name": func_name,
        "triton_kernel_name": kernel_name,
        "bin_size": len(binary),
        "bin_data": ", ".join(f"0x{b:02x}" for b in binary),
        "signature": ", ".join(f"{c_type(t)} {n}" for n, t in runtime),
        "full_signature": ", ".join(f"{c_type(t)} {n}" for n, t in spec.full_args),
        "arg_pointers": ", ".join([f"&{n}" for n, _ in runtime] + ["&global_scratch", "&profile_scratch"]),
        "num_args": len(runtime) + 2,
        "kernel_docstring": [f"{k}={v}" for k, v in spec.constants.items()] +
        [f"num_warps={num_warps}", f"num_stages={num_stages}"],
        "shared": shared,
        "num_warps": num_warps,
        "algo_info": "_".join(["x".join(str(v) for v in spec.constant_values), meta_signature(num_warps, num_stages)]),
        "gridX": grid[0],
        "gridY": grid[1],
        "gridZ": grid[2],
        "_placeholder": "",
        "warp_size": warp_size,
    }


def meta_signature(num_warps: int, num_stages: int) -> str:
    return f"warps{num_warps}xstages{num_stages}"


def signature_hash(signature: str, num_warps: int, num_stages: int) -> str:
    """Triton's: the first 8 hex digits of sha256 over the signature entries and the meta signature."""
    entries = [s.strip(" ") for s in signature.split(",")]
    return hashlib.sha256(" ".join(entries + [meta_signature(num_warps, num_stages)]).encode()).hexdigest()[:8]


def main(argv: Optional[Sequence[str]] = None) -> List[Path]:
    parser = argparse.ArgumentParser(prog="python -m triton_musa.tools.compile", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("path", type=Path, help="Python file defining the kernel (it is executed)")
    parser.add_argument("--kernel-name", "-n", required=True)
    parser.add_argument("--signature", "-s", required=True)
    parser.add_argument("--grid", "-g", required=True, help="gridX,gridY,gridZ: C expressions of the arguments")
    parser.add_argument("--num-warps", "-w", type=int, default=4)
    parser.add_argument("--num-stages", "-ns", type=int, default=3)
    parser.add_argument("--out-name", "-on", default=None)
    parser.add_argument("--out-path", "-o", type=Path, default=None)
    parser.add_argument("--target", "-t", default=None, help="<backend>:<arch>:<warp-size>, e.g. musa:mp_31:32")
    parser.add_argument("--target-backend", default="musa")
    parser.add_argument("--target-arch", default=DEFAULT_ARCH)
    parser.add_argument("--target-warp-size", type=int, default=None)
    parser.add_argument("--emit", choices=("mubin", "llir"), default="mubin",
                        help="mubin (needs the MUSA SDK): C launcher + embedded binary; llir: LLVM IR only")
    args = parser.parse_args(argv)

    from .templates import render
    target = parse_target(args)
    kernel = load_kernel(args.path, args.kernel_name)
    spec = parse_signature(kernel.arg_names, args.signature)
    grid = [g.strip() for g in args.grid.split(",")]
    if len(grid) != 3:
        raise ValueError(f"--grid {args.grid!r}: expected three comma-separated values")
    out_name = args.out_name or args.kernel_name
    out_path = args.out_path or Path(out_name)
    sig_hash = signature_hash(args.signature, args.num_warps, args.num_stages)
    suffix = "".join(f"{i}{'c' if i in spec.equal_to_1 else ''}{'d' if i in spec.divisible_by_16 else ''}"
                     for i in range(len(spec.arg_names)))
    result, metadata, options = compile_stages(kernel, spec, target, args.num_warps, args.num_stages, args.emit)
    if args.emit == "llir":
        out = out_path.with_suffix(f".{sig_hash}_{suffix}.ll")
        out.write_text(result)
        return [out]
    params = template_params(func_name=f"{out_name}_{sig_hash}_{suffix}", kernel_name=args.kernel_name, spec=spec,
                             binary=result, shared=int(metadata["shared"]), num_warps=args.num_warps,
                             num_stages=args.num_stages, warp_size=options.warp_size, grid=grid)
    outputs = []
    for ext, text in render(params).items():
        out = out_path.with_suffix(f".{sig_hash}_{suffix}{ext}")
        out.write_text(text)
        outputs.append(out)
    return outputs


if __name__ == "__main__":
    from ..backend.toolchain import MusaToolchainNotFound
    try:
        for written in main():
            print(written)
    except (MusaToolchainNotFound, ValueError) as exc:
        sys.exit(f"error: {exc} (or pass --emit llir)" if isinstance(exc, MusaToolchainNotFound) else f"error: {exc}")
