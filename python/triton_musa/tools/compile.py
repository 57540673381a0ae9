"""Ahead-of-time compilation for MUSA: ``python -m triton_musa.tools.compile``.

    python -m triton_musa.tools.compile --kernel-name add_kernel \\
        --signature "*fp32,*fp32,*fp32,i32,1024" --grid 1,1,1 \\
        --target-backend musa --target-arch mp_31 --target-warp-size 32 path/to/kernel.py

(``--target musa:mp_31:32`` is accepted too, as by Triton's own tool.) Writes
``<out>.<hash>_<suffix>.{c,h}``: the mubin embedded as bytes, ``load_<name>()``,
``unload_<name>()`` and ``<name>(stream, args...)`` over the MUSA driver API, and
the ``tt-linker`` line Triton's link step reads. Signature entries: a type
(``*fp16``, ``i32``, ...), optionally ``:16`` (divisible by 16) or ``:1``
(equal to 1), or a number (a constexpr). No active driver is needed. Without a
MUSA SDK it stops with a message naming where ``llc`` was searched;
``--emit llir`` writes the LLVM IR instead.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..backend.target import parse_arch


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
        return [(n, t) for n, t in self.signature.items() if t != "constexpr"]


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
    parser.add_argument("--target-arch", default="mp_31")
    parser.add_argument("--target-warp-size", type=int, default=None)
    parser.add_argument("--emit", choices=("mubin", "llir"), default="mubin",
                        help="mubin (needs the MUSA SDK): C launcher + embedded binary; llir: LLVM IR only")
    args = parser.parse_args(argv)

    from .aot_c import render
    target = parse_target(args)
    kernel = load_kernel(args.path, args.kernel_name)
    spec = parse_signature(kernel.arg_names, args.signature)
    grid = [g.strip() for g in args.grid.split(",")]
    if len(grid) != 3:
        raise ValueError(f"--grid {args.grid!r}: expected three comma-separated values")
    out_name = args.out_name or args.kernel_name
    out_path = args.out_path or Path(out_name)
    meta = f"warps{args.num_warps}xstages{args.num_stages}"
    sig_hash = hashlib.sha256(" ".join([args.signature, meta, str(target)]).encode()).hexdigest()[:8]
    suffix = "".join(f"{i}{'c' if i in spec.equal_to_1 else ''}{'d' if i in spec.divisible_by_16 else ''}"
                     for i in range(len(spec.arg_names)))
    result, metadata, options = compile_stages(kernel, spec, target, args.num_warps, args.num_stages, args.emit)
    if args.emit == "llir":
        out = out_path.with_suffix(f".{sig_hash}_{suffix}.ll")
        out.write_text(result)
        return [out]
    func_name = f"{out_name}_{sig_hash}_{suffix}"
    c_src, h_src = render(func_name=func_name, triton_name=metadata["name"], spec=spec, binary=result,
                          shared=int(metadata["shared"]), threads=options.num_warps * options.warp_size, grid=grid,
                          algo_info="_".join(["x".join(str(v) for v in spec.constants.values()), meta]))
    outputs = []
    for ext, text in ((".c", c_src), (".h", h_src)):
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
