"""The AOT link step for MUSA: ``python -m triton_musa.tools.link``.

    python -m triton_musa.tools.link out/*.h -o add_kernel

reads the headers that ``triton_musa.tools.compile`` (or Triton's
``triton.tools.compile --target musa:...``) wrote, one per specialization, through
Triton's own ``tt-linker`` parser (``triton.tools.link.HeaderParser``), and writes
``add_kernel.{c,h}`` with, per kernel ``K``:

- ``K_<algo_info>(stream, args...)`` per group of specializations with the same
  constexprs and meta-parameters: the first whose hints hold (``x % 16 == 0`` for
  ``:16``, ``x == 1`` for ``:1``; the most specialized first), else
  ``MUSA_ERROR_INVALID_VALUE``;
- ``K(stream, args..., algo_id)`` over those groups in the order of the headers given,
  ``K_default`` (algo 0), ``K_get_num_algos()``, ``load_K()`` and ``unload_K()``.

Triton's ``triton.tools.link`` writes the same dispatch for CUDA (``cuda.h``,
``CUresult``, ``CUstream``); this writes it over the MUSA driver API
(``triton_musa_driver.h``), returns errors instead of asserting, and checks that
every group of a kernel has the same C signature.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from triton.tools.link import HeaderParser, KernelLinkerMeta, LinkerError, gen_signature, gen_signature_with_full_args


def _specialized_name(meta: KernelLinkerMeta) -> str:
    return f"{meta.orig_kernel_name}_{meta.sig_hash}_{meta.suffix}"


def _condition(meta: KernelLinkerMeta) -> str:
    conds = [f"({arg} % 16 == 0)" if hint == 16 else f"({arg} == 1)"
             for arg, hint in zip(meta.arg_names, meta.sizes) if hint is not None]
    return " && ".join(conds) or "1"


def _call_args(meta: KernelLinkerMeta, *, full: bool) -> str:
    names = meta.arg_names if full else [a for a, hint in zip(meta.arg_names, meta.sizes) if hint != 1]
    return ", ".join(["stream"] + list(names))


def _params(sig: str) -> str:
    return "MUstream stream" + (f", {sig}" if sig else "")


def group_by_kernel(parser: HeaderParser) -> Dict[str, List[Tuple[str, List[KernelLinkerMeta]]]]:
    """{kernel: [(algo group name, its specializations)]}, in the order the headers came; checks signatures."""
    kernels: Dict[str, List[Tuple[str, List[KernelLinkerMeta]]]] = {}
    for group, metas in parser.kernels.items():
        kernels.setdefault(metas[0].orig_kernel_name, []).append((group, metas))
    for name, groups in kernels.items():
        first = groups[0][1][-1]
        for group, metas in groups[1:]:
            if metas[-1].arg_ctypes != first.arg_ctypes or metas[-1].arg_names != first.arg_names:
                raise LinkerError(f"kernel {name}: group {group} takes ({gen_signature_with_full_args(metas[-1])}) "
                                  f"but {groups[0][0]} takes ({gen_signature_with_full_args(first)}); "
                                  "specializations linked into one dispatcher must share the C signature")
    return kernels


def render_header(kernels: Dict[str, List[Tuple[str, List[KernelLinkerMeta]]]]) -> str:
    out = ["/* triton-musa AOT dispatcher, written by python -m triton_musa.tools.link. */", "#pragma once",
           "#include <stdint.h>", '#include "triton_musa_driver.h"', ""]
    for name, groups in kernels.items():
        full = gen_signature_with_full_args(groups[0][1][-1])
        for group, _ in groups:
            out += [f"MUresult {group}({_params(full)});", f"MUresult load_{group}(void);",
                    f"void unload_{group}(void);"]
        out += [f"int {name}_get_num_algos(void);",
                f"MUresult {name}_default({_params(full)});",
                f"MUresult {name}({_params(full)}, int algo_id);",
                f"MUresult load_{name}(void);",
                f"void unload_{name}(void);", ""]
    return "\n".join(out)


def _group_source(group: str, metas: List[KernelLinkerMeta]) -> List[str]:
    ordered = sorted(metas, key=lambda m: -m.num_specs)
    out = [f"/* {group}: {len(metas)} specialization(s) */"]
    for meta in ordered:
        spec = _specialized_name(meta)
        out += [f"MUresult {spec}({_params(gen_signature(meta))});", f"MUresult load_{spec}(void);",
                f"void unload_{spec}(void);"]
    out += ["", f"MUresult {group}({_params(gen_signature_with_full_args(metas[-1]))}) {{"]
    for meta in ordered:
        out += [f"  if ({_condition(meta)})", f"    return {_specialized_name(meta)}({_call_args(meta, full=False)});"]
    out += ["  return MUSA_ERROR_INVALID_VALUE;", "}", "", f"MUresult load_{group}(void) {{", "  MUresult rc;"]
    for meta in ordered:
        out.append(f"  if ((rc = load_{_specialized_name(meta)}()) != MUSA_SUCCESS) return rc;")
    out += ["  return MUSA_SUCCESS;", "}", "", f"void unload_{group}(void) {{"]
    out += [f"  unload_{_specialized_name(meta)}();" for meta in ordered]
    return out + ["}", ""]


def render_source(kernels: Dict[str, List[Tuple[str, List[KernelLinkerMeta]]]]) -> str:
    out = ["/* triton-musa AOT dispatcher, written by python -m triton_musa.tools.link. */", "#include <stdint.h>",
           '#include "triton_musa_driver.h"', ""]
    for name, groups in kernels.items():
        meta = groups[0][1][-1]
        full = gen_signature_with_full_args(meta)
        for group, metas in groups:
            out += _group_source(group, metas)
        table = f"{name}_kernels"
        out += [f"typedef MUresult (*{name}_kernel_t)({_params(full)});",
                f"static const {name}_kernel_t {table}[] = {{{', '.join(g for g, _ in groups)}}};", "",
                f"int {name}_get_num_algos(void) {{", f"  return (int)(sizeof({table}) / sizeof({table}[0]));", "}",
                "", f"MUresult {name}({_params(full)}, int algo_id) {{",
                f"  if (algo_id < 0 || algo_id >= {name}_get_num_algos())", "    return MUSA_ERROR_INVALID_VALUE;",
                f"  return {table}[algo_id]({_call_args(meta, full=True)});", "}", "",
                f"MUresult {name}_default({_params(full)}) {{",
                f"  return {name}({_call_args(meta, full=True)}, 0);", "}", "",
                f"MUresult load_{name}(void) {{", "  MUresult rc;"]
        out += [f"  if ((rc = load_{g}()) != MUSA_SUCCESS) return rc;" for g, _ in groups]
        out += ["  return MUSA_SUCCESS;", "}", "", f"void unload_{name}(void) {{"]
        out += [f"  unload_{g}();" for g, _ in groups]
        out += ["}", ""]
    return "\n".join(out)


def link(headers: Sequence[Path], out: Path) -> List[Path]:
    """Writes ``out.h`` and ``out.c`` dispatching over the specializations declared in ``headers``."""
    parser = HeaderParser()
    for header in headers:
        parser.extract_linker_meta(Path(header).read_text())
    if not parser.kernels:
        raise LinkerError(f"no '// tt-linker:' line in {', '.join(str(h) for h in headers)}: "
                          "pass the .h files written by the AOT compiler")
    kernels = group_by_kernel(parser)
    written = [out.with_suffix(".h"), out.with_suffix(".c")]
    written[0].write_text(render_header(kernels))
    written[1].write_text(render_source(kernels))
    return written


def main(argv: Optional[Sequence[str]] = None) -> List[Path]:
    parser = argparse.ArgumentParser(prog="python -m triton_musa.tools.link", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("headers", nargs="+", type=Path, help="the .h files of the specializations")
    parser.add_argument("--out", "-o", type=Path, required=True, help="output path without suffix")
    args = parser.parse_args(argv)
    return link(args.headers, args.out)


if __name__ == "__main__":
    try:
        for written in main():
            print(written)
    except (LinkerError, OSError) as exc:
        sys.exit(f"error: {exc}")
