"""Module.to_llvm_ir: the llir stage. Its output must be LLVM 14 IR, which
Debian's llvm-as-14 (the parser of the MUSA SDK's llc) checks."""

from __future__ import annotations

import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest

from triton_musa import _musa_mlir as mlir

KERNEL = textwrap.dedent("""\
    module {
      llvm.func @llvm.musa.read.ptx.sreg.tid.x() -> i32
      llvm.func @llvm.musa.barrier0()
      llvm.func @__mt_fast_expf(f32) -> f32
      llvm.func @k(%out: !llvm.ptr<1>, %x: i32, %v: vector<4xi32>) attributes {musa.kernel, musa.maxntidx = 128 : i32} {
        %c127 = llvm.mlir.constant(127 : i32) : i32
        %c1 = llvm.mlir.constant(1 : i32) : i32
        %tid = llvm.call @llvm.musa.read.ptx.sreg.tid.x() : () -> i32
        %a = llvm.and %tid, %c127 : i32
        %z = llvm.zext %a : i32 to i64
        %p = llvm.getelementptr inbounds %out[%z] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
        %s = llvm.shl %a, %c1 : i32
        %o = llvm.or %s, %c1 : i32
        %cmp = llvm.call_intrinsic "llvm.ucmp.i32.i32"(%x, %o) : (i32, i32) -> i32
        %f = llvm.uitofp %cmp : i32 to f32
        %e = llvm.call @__mt_fast_expf(%f) : (f32) -> f32
        llvm.store %e, %p : f32, !llvm.ptr<1>
        %three = llvm.mlir.constant(dense<3> : vector<4xi32>) : vector<4xi32>
        %vm = llvm.mul %v, %three : vector<4xi32>
        %q = llvm.getelementptr inbounds %out[%c127] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, vector<4xi32>
        llvm.store %vm, %q : vector<4xi32>, !llvm.ptr<1>
        llvm.call @llvm.musa.barrier0() : () -> ()
        llvm.return
      }
    }
    """)

# A stand-in libdevice in LLVM 14 IR (the SDK's is LLVM 14 bitcode).
LIBDEVICE = textwrap.dedent("""\
    target triple = "mtgpu-mt-musa"
    define float @__mt_fast_expf(float %x) {
      %y = fmul float %x, 0x3FF7154760000000
      %r = call float @llvm.exp2.f32(float %y)
      ret float %r
    }
    define float @__mt_unused(float %x) {
      ret float %x
    }
    declare float @llvm.exp2.f32(float)
    """)

FORBIDDEN = ("nneg", "disjoint", "samesign", "memory(", "captures(", "initializes",
             "range(", "splat", "#dbg_", "llvm.ucmp")


def llvm_as_14() -> str:
    path = shutil.which("llvm-as-14")
    if path is None:
        pytest.fail("llvm-as-14 not found: install Debian/Ubuntu's llvm-14 "
                    "(the acceptance check for LLVM 14 IR)")
    return path


def assert_llvm14(text: str) -> None:
    result = subprocess.run([llvm_as_14(), "-opaque-pointers", "-o", "/dev/null", "-"],
                            input=text, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr + "\n" + text
    for token in FORBIDDEN:
        assert token not in text, token


@pytest.mark.parametrize("arch", ["mp_31", "mp_22"])
def test_kernel_is_llvm14_ir(arch: str) -> None:
    text = mlir.parse(KERNEL).to_llvm_ir(arch)
    assert 'target triple = "mtgpu-mt-musa"' in text
    assert "p3:32:32" in text
    assert "define cc102 void @k(" in text
    assert '!{ptr @k, !"kernel", i32 1}' in text
    assert '!{ptr @k, !"maxntidx", i32 128}' in text
    assert "<i32 3, i32 3, i32 3, i32 3>" in text
    assert_llvm14(text)


def test_without_compat_step_llvm22_spelling_remains() -> None:
    text = mlir.parse(KERNEL).to_llvm_ir("mp_31", llvm14_compatible=False)
    assert "splat (i32 3)" in text
    assert "or disjoint" in text


@pytest.mark.parametrize("opt_level", [0, 1, 2, 3])
def test_every_opt_level(opt_level: int) -> None:
    assert_llvm14(mlir.parse(KERNEL).to_llvm_ir("mp_31", opt_level=opt_level))


def test_libdevice_is_linked_and_internalized(tmp_path: Path) -> None:
    source = tmp_path / "libdevice.ll"
    source.write_text(LIBDEVICE)
    bitcode = tmp_path / "libdevice.bc"
    subprocess.run([llvm_as_14(), "-opaque-pointers", str(source), "-o", str(bitcode)],
                   check=True)
    text = mlir.parse(KERNEL).to_llvm_ir("mp_31", opt_level=0, libdevice=str(bitcode))
    assert "define internal float @__mt_fast_expf" in text
    assert "__mt_unused" not in text
    assert_llvm14(text)
    # At O3 the internalized function is inlined away.
    optimized = mlir.parse(KERNEL).to_llvm_ir("mp_31", libdevice=str(bitcode))
    assert "@__mt_fast_expf" not in optimized
    assert "llvm.exp2.f32" in optimized
    assert_llvm14(optimized)


def test_missing_libdevice_is_an_error(tmp_path: Path) -> None:
    missing = tmp_path / "nope.bc"
    with pytest.raises(mlir.MLIRError, match="libdevice '.*nope.bc' does not exist"):
        mlir.parse(KERNEL).to_llvm_ir("mp_31", libdevice=str(missing))


def test_unknown_arch_is_an_error() -> None:
    with pytest.raises(mlir.MLIRError, match="unknown MUSA architecture 'mp_99'"):
        mlir.parse(KERNEL).to_llvm_ir("mp_99")


def test_bad_opt_level_is_an_error() -> None:
    with pytest.raises(ValueError, match="opt_level"):
        mlir.parse(KERNEL).to_llvm_ir("mp_31", opt_level=7)


def test_post14_intrinsic_is_named() -> None:
    module = mlir.parse(textwrap.dedent("""\
        module {
          llvm.func @k(%x: f32, %p: !llvm.ptr<1>) attributes {musa.kernel} {
            %y = llvm.call_intrinsic "llvm.exp10.f32"(%x) : (f32) -> f32
            llvm.store %y, %p : f32, !llvm.ptr<1>
            llvm.return
          }
        }
        """), source_name="exp10.mlir")
    with pytest.raises(mlir.MLIRError, match=r"exp10.mlir:1:1: error: .*'llvm.exp10.f32' has no LLVM 14"):
        module.to_llvm_ir("mp_31")


def test_maxntidx_without_kernel_is_located() -> None:
    module = mlir.parse(textwrap.dedent("""\
        module {
          llvm.func @f() attributes {musa.maxntidx = 128 : i32} {
            llvm.return
          }
        }
        """), source_name="f.mlir")
    with pytest.raises(mlir.MLIRError, match=r"f.mlir:2:3: error: 'musa.maxntidx' on 'f'"):
        module.to_llvm_ir("mp_31")
