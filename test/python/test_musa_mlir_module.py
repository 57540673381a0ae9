"""_musa_mlir's text API (parse/verify/pipeline/print of a module in a context
of its own), diagnostics as exceptions, and coexistence with triton's and
torch's own LLVM/MLIR copies. _musa_mlir runs on the same MLIR as
triton_musa.mlir (test_mlir_bindings.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from triton_musa import _musa_mlir as mlir

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
    module = mlir.parse(ADD, source_name="add.mlir")
    printed = str(module)
    assert "arith.addi" in printed
    assert str(mlir.parse(printed)) == printed


def test_pipeline_runs_in_place() -> None:
    module = mlir.parse(ADD)
    module.run_pipeline("builtin.module(canonicalize)")
    # x + 0 folds away: the pass really ran.
    assert "arith.addi" not in str(module)


def test_bare_pass_list_is_accepted() -> None:
    module = mlir.parse(ADD)
    module.run_pipeline("canonicalize,cse")
    assert "arith.addi" not in str(module)


def test_parse_error_carries_file_line_col() -> None:
    with pytest.raises(mlir.MLIRError, match=r"broken\.mlir:2:\d+: error: "):
        mlir.parse("module {\n  func.func @f( }\n", source_name="broken.mlir")


def test_verifier_error_is_an_exception() -> None:
    # Parses fine; the return type mismatch is a verifier error.
    text = "func.func @f() -> i32 {\n  %c = arith.constant 1 : i64\n  return %c : i64\n}\n"
    with pytest.raises(mlir.MLIRError, match=r"error: .*type"):
        mlir.parse(text, source_name="bad_return.mlir")


def test_unknown_pass_is_an_exception() -> None:
    module = mlir.parse(ADD)
    with pytest.raises(mlir.MLIRError, match="does not refer to a registered pass"):
        module.run_pipeline("builtin.module(no-such-pass)")


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
        import triton.language as tl
        from triton.compiler import ASTSource
        from triton.backends.compiler import GPUTarget

        @triton.jit
        def k(x, n, B: tl.constexpr):
            o = tl.arange(0, B)
            tl.store(x + o, tl.load(x + o, mask=o < n) + 1, mask=o < n)

        src = ASTSource(k, signature={{"x": "*fp32", "n": "i32", "B": "constexpr"}}, constexprs={{"B": 64}})
        ttir = triton.compile(src, target=GPUTarget("musa", "mp_31", 32)).asm["ttir"]
        mod = m.parse({ADD!r})
        mod.run_pipeline("canonicalize")
        print("ok", len(ttir) > 0)
        """)
    # @triton.jit needs its source in a file.
    script_path = tmp_path / "coexist.py"
    script_path.write_text(script)
    result = subprocess.run([sys.executable, str(script_path)], capture_output=True, text=True, timeout=300,
                            env={**os.environ, "TRITON_CACHE_DIR": str(tmp_path / "cache")})
    assert result.returncode == 0, result.stderr
    assert "ok True" in result.stdout
