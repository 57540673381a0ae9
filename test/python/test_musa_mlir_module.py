"""The library's Python face as the backend uses it: modules parsed and run
through triton_musa.mlir (lowering.parse_ttgir / run_passes), exported by
_musa_mlir.translate_to_llvm_ir; every diagnostic of the library raised as one
exception type, _musa_mlir.MLIRError, with its diagnostics as data; and
_musa_mlir beside triton's and torch's own LLVM/MLIR copies. The bindings
themselves are test_mlir_bindings.py's."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from triton_musa import _musa_mlir as mlir
from triton_musa.backend.lowering import LoweringError, parse_ttgir, run_passes

ADD = textwrap.dedent("""\
    module {
      func.func @add(%a: i32) -> i32 {
        %c0 = arith.constant 0 : i32
        %0 = arith.addi %a, %c0 : i32
        return %0 : i32
      }
    }
    """)


def test_parse_and_print_round_trip() -> None:
    module = parse_ttgir(ADD, source_name="add.mlir")
    printed = str(module)
    assert "arith.addi" in printed
    assert str(parse_ttgir(printed)) == printed


def test_pipeline_runs_in_place() -> None:
    module = parse_ttgir(ADD)
    assert run_passes(module, "builtin.module(canonicalize)") == []
    # x + 0 folds away: the pass really ran.
    assert "arith.addi" not in str(module)


def test_parse_error_carries_file_line_col() -> None:
    with pytest.raises(mlir.MLIRError, match=r"broken\.mlir:2:\d+: error: ") as info:
        parse_ttgir("module {\n  func.func @f( }\n", source_name="broken.mlir")
    assert isinstance(info.value, LoweringError)
    assert info.value.headline == "failed to parse broken.mlir"
    error = info.value.diagnostics[0]
    assert error.severity == "error" and error.where.startswith("broken.mlir:2:"), error


def test_verifier_error_is_an_exception() -> None:
    # Parses fine; the return type mismatch is a verifier error.
    text = "func.func @f() -> i32 {\n  %c = arith.constant 1 : i64\n  return %c : i64\n}\n"
    with pytest.raises(mlir.MLIRError, match=r"error: .*type") as info:
        parse_ttgir(text, source_name="bad_return.mlir")
    assert info.value.diagnostics[0].where.startswith("bad_return.mlir:3:"), info.value.diagnostics


def test_unknown_pass_is_an_exception() -> None:
    module = parse_ttgir(ADD)
    with pytest.raises(mlir.MLIRError, match="no-such-pass") as info:
        run_passes(module, "builtin.module(no-such-pass)")
    assert info.value.headline == "invalid pass pipeline 'builtin.module(no-such-pass)'"


def test_failing_pass_is_an_exception_with_the_ops_location() -> None:
    # convert-tritongpu-to-musa needs the module's target; the error names where it stopped.
    module = parse_ttgir(textwrap.dedent("""\
        module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
          tt.func @f() {
            tt.return
          }
        }
        """), source_name="no_target.ttgir")
    with pytest.raises(mlir.MLIRError, match="failed") as info:
        run_passes(module, "builtin.module(convert-tritongpu-to-musa)")
    assert [d for d in info.value.diagnostics if d.severity == "error"], info.value.diagnostics
    assert all(d.where.startswith("no_target.ttgir:") for d in info.value.diagnostics), info.value.diagnostics


def test_export_error_is_the_same_exception_type() -> None:
    # The exporter raises _musa_mlir.MLIRError too, its diagnostics as (severity, where, message) data.
    module = parse_ttgir(ADD.replace("module {", 'module attributes {ttg.target = "musa:mp_99"} {', 1),
                         source_name="mp99.mlir")
    with pytest.raises(mlir.MLIRError, match="unknown MUSA architecture 'mp_99'") as info:
        mlir.translate_to_llvm_ir(module)
    assert info.value.headline == "cannot export the module to LLVM IR"
    assert [tuple(d) for d in info.value.diagnostics][0][:2] == ("error", "mp99.mlir:1:1"), info.value.diagnostics


def test_dialects_registered() -> None:
    names = set(mlir.registered_dialects())
    assert {"tt", "ttg", "musagpu", "arith", "scf", "math", "llvm"} <= names


@pytest.mark.parametrize("order", [
    ["triton", "torch", "triton_musa._musa_mlir"],
    ["triton_musa._musa_mlir", "torch", "triton"],
    ["torch", "triton_musa._musa_mlir", "triton"],
])
def test_coexists_with_triton_and_torch(order: list[str], tmp_path) -> None:
    # A fresh interpreter per order: symbol clashes between LLVM copies only
    # show when the libraries are loaded in that order into one process.
    script = "\n".join(f"import {name}" for name in order) + textwrap.dedent(f"""
        from triton_musa import _musa_mlir as m
        from triton_musa.backend.lowering import parse_ttgir, run_passes
        import torch
        import triton.language as tl
        from triton.compiler import ASTSource
        from triton.backends.compiler import GPUTarget

        @triton.jit
        def k(x, n, B: tl.constexpr):
            o = tl.arange(0, B)
            tl.store(x + o, tl.load(x + o, mask=o < n) + 1, mask=o < n)

        src = ASTSource(k, signature={{"x": "*fp32", "n": "i32", "B": "constexpr"}}, constexprs={{"B": 64}})
        ttgir = triton.compile(src, target=GPUTarget("musa", "mp_31", 32)).asm["ttgir"]
        mod = parse_ttgir(ttgir)
        run_passes(mod, "builtin.module(musa-allocate-shared-memory,convert-tritongpu-to-musa,canonicalize)")
        llir = m.translate_to_llvm_ir(mod, opt_level=0)
        assert torch.ones(3).add(1).sum().item() == 6.0
        print("ok", 'target triple = "mtgpu-mt-musa"' in llir)
        """)
    # @triton.jit needs its source in a file.
    script_path = tmp_path / "coexist.py"
    script_path.write_text(script)
    result = subprocess.run([sys.executable, str(script_path)], capture_output=True, text=True, timeout=300,
                            env={**os.environ, "TRITON_CACHE_DIR": str(tmp_path / "cache")})
    assert result.returncode == 0, result.stderr
    assert "ok True" in result.stdout
