"""_musa_mlir.translate_to_llvm_ir: the llir stage, on a module parsed with
triton_musa.mlir. Its output must be LLVM 14 IR, which Debian's llvm-as-14 (the
parser of the MUSA SDK's llc) checks."""

from __future__ import annotations

import math
import re
import shutil
import struct
import subprocess
import textwrap
from pathlib import Path
from typing import Any

import pytest

import llvm14_ir
from triton_musa import _musa_mlir as mlir
from triton_musa.backend.lowering import parse_ttgir

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



def to_llvm_ir(text: str, *, source_name: str = "<string>", **options: Any) -> str:
    """The LLVM IR export of the module ``text`` (the llir stage's call, with its ``options``)."""
    return mlir.translate_to_llvm_ir(parse_ttgir(text, source_name=source_name), **options)


def with_target(module: str, arch: str = "mp_31") -> str:
    """``module`` compiled for ``arch``: the export reads the architecture from ``ttg.target``."""
    return module.replace("module {", f'module attributes {{ttg.target = "musa:{arch}"}} {{', 1)


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

def llvm_as_14() -> str:
    try:
        return llvm14_ir.llvm_as_14()
    except llvm14_ir.Llvm14ToolsMissing as exc:
        pytest.fail(str(exc), pytrace=False)


def assert_llvm14(text: str) -> None:
    """llvm-as-14 reads `text`, no LLVM 22 token, every llvm.* intrinsic exists in LLVM 14 with its signature
    (the same check as lit's %check-llvm14)."""
    try:
        found = llvm14_ir.problems(text)
    except llvm14_ir.Llvm14ToolsMissing as exc:
        pytest.fail(str(exc), pytrace=False)
    assert not found, "\n".join(found) + "\n" + text


@pytest.mark.parametrize("arch", ["mp_31", "mp_22"])
def test_kernel_is_llvm14_ir(arch: str) -> None:
    text = to_llvm_ir(with_target(KERNEL, arch))
    assert 'target triple = "mtgpu-mt-musa"' in text
    assert "p3:32:32" in text
    assert "define cc102 void @k(" in text
    assert '!{ptr @k, !"kernel", i32 1}' in text
    assert '!{ptr @k, !"maxntidx", i32 128}' in text
    assert "<i32 3, i32 3, i32 3, i32 3>" in text
    assert_llvm14(text)


def test_without_compat_step_llvm22_spelling_remains() -> None:
    text = to_llvm_ir(with_target(KERNEL), llvm14_compatible=False)
    assert "splat (i32 3)" in text
    assert "or disjoint" in text


@pytest.mark.parametrize("opt_level", [0, 1, 2, 3])
def test_every_opt_level(opt_level: int) -> None:
    assert_llvm14(to_llvm_ir(with_target(KERNEL), opt_level=opt_level))


def test_libdevice_is_linked_and_internalized(tmp_path: Path) -> None:
    source = tmp_path / "libdevice.ll"
    source.write_text(LIBDEVICE)
    bitcode = tmp_path / "libdevice.bc"
    subprocess.run([llvm_as_14(), "-opaque-pointers", str(source), "-o", str(bitcode)],
                   check=True)
    text = to_llvm_ir(with_target(KERNEL), opt_level=0, libdevice=str(bitcode))
    assert "define internal float @__mt_fast_expf" in text
    assert "__mt_unused" not in text
    assert_llvm14(text)
    # At O3 the internalized function is inlined away.
    optimized = to_llvm_ir(with_target(KERNEL), libdevice=str(bitcode))
    assert "@__mt_fast_expf" not in optimized
    assert "llvm.exp2.f32" in optimized
    assert_llvm14(optimized)


def test_missing_libdevice_is_an_error(tmp_path: Path) -> None:
    missing = tmp_path / "nope.bc"
    with pytest.raises(mlir.MLIRError, match="libdevice '.*nope.bc' does not exist"):
        to_llvm_ir(with_target(KERNEL), libdevice=str(missing))


def test_unknown_arch_is_an_error() -> None:
    with pytest.raises(mlir.MLIRError, match="unknown MUSA architecture 'mp_99'"):
        to_llvm_ir(with_target(KERNEL, "mp_99"))


def test_bad_opt_level_is_an_error() -> None:
    with pytest.raises(ValueError, match="opt_level"):
        to_llvm_ir(with_target(KERNEL), opt_level=7)


def test_post14_intrinsic_is_named() -> None:
    module = parse_ttgir(textwrap.dedent("""\
        module {
          llvm.func @k(%x: f32, %p: !llvm.ptr<1>) attributes {musa.kernel} {
            %y = llvm.call_intrinsic "llvm.exp10.f32"(%x) : (f32) -> f32
            llvm.store %y, %p : f32, !llvm.ptr<1>
            llvm.return
          }
        }
        """), source_name="exp10.mlir")
    with pytest.raises(mlir.MLIRError, match=r"exp10.mlir:1:1: error: .*'llvm.exp10.f32' has no LLVM 14"):
        mlir.translate_to_llvm_ir(module)


def test_maxntidx_without_kernel_is_located() -> None:
    module = parse_ttgir(textwrap.dedent("""\
        module {
          llvm.func @f() attributes {musa.maxntidx = 128 : i32} {
            llvm.return
          }
        }
        """), source_name="f.mlir")
    with pytest.raises(mlir.MLIRError, match=r"f.mlir:2:3: error: 'musa.maxntidx' on 'f'"):
        mlir.translate_to_llvm_ir(module)


# -O3 turns x * exp2(sitofp n) into llvm.ldexp and the select chain into
# llvm.scmp; the compatibility step expands both. Run the LLVM 14 text on the
# host with lli-14 and compare with numpy.
FORMED = textwrap.dedent("""\
    module {
      llvm.mlir.global internal constant @fmt("%a %d\\0A\\00") {addr_space = 0 : i32}
      llvm.func @printf(!llvm.ptr, ...) -> i32
      llvm.func @strtof(!llvm.ptr, !llvm.ptr) -> f32
      llvm.func @atoi(!llvm.ptr) -> i32
      llvm.func @main(%argc: i32, %argv: !llvm.ptr) -> i32 {
        %null = llvm.mlir.zero : !llvm.ptr
        %p1 = llvm.getelementptr %argv[1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
        %p2 = llvm.getelementptr %argv[2] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
        %s1 = llvm.load %p1 : !llvm.ptr -> !llvm.ptr
        %s2 = llvm.load %p2 : !llvm.ptr -> !llvm.ptr
        %x = llvm.call @strtof(%s1, %null) : (!llvm.ptr, !llvm.ptr) -> f32
        %n = llvm.call @atoi(%s2) : (!llvm.ptr) -> i32
        %f = llvm.sitofp %n : i32 to f32
        %e = llvm.intr.exp2(%f) : (f32) -> f32
        %y = llvm.fmul %x, %e : f32
        %yd = llvm.fpext %y : f32 to f64
        %c5 = llvm.mlir.constant(5 : i32) : i32
        %lt = llvm.icmp "slt" %n, %c5 : i32
        %gt = llvm.icmp "sgt" %n, %c5 : i32
        %m1 = llvm.mlir.constant(-1 : i32) : i32
        %one = llvm.mlir.constant(1 : i32) : i32
        %zero = llvm.mlir.constant(0 : i32) : i32
        %c0 = llvm.select %gt, %one, %zero : i1, i32
        %c = llvm.select %lt, %m1, %c0 : i1, i32
        %fmt = llvm.mlir.addressof @fmt : !llvm.ptr
        %r = llvm.call @printf(%fmt, %yd, %c) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, f64, i32) -> i32
        llvm.return %zero : i32
      }
    }
    """)


def f32(value: float) -> float:
    """`value` rounded to float32 (to nearest even, as C's conversion does)."""
    try:
        return struct.unpack("f", struct.pack("f", value))[0]
    except OverflowError:
        return math.copysign(math.inf, value)


def test_expanded_ldexp_and_scmp_compute_the_right_values(tmp_path: Path) -> None:
    lli = shutil.which("lli-14")
    if lli is None:  # part of llvm-14, which the suite needs anyway: never a skip
        pytest.fail("lli-14 not found: install Debian/Ubuntu's llvm-14", pytrace=False)
    assert "llvm.ldexp" in to_llvm_ir(with_target(FORMED), llvm14_compatible=False)
    text = to_llvm_ir(with_target(FORMED))
    assert_llvm14(text)
    # The host JIT cannot take the mtgpu triple and data layout.
    source = tmp_path / "formed.ll"
    source.write_text("\n".join(line for line in text.splitlines()
                                 if not line.startswith("target ")))
    xs = ["1.5", "-3.25", "1e-45", "1.1754944e-38", "3.4e38", "0.7", "0"]
    ns = [-300, -280, -150, -149, -127, -126, -20, 0, 5, 9, 127, 128, 200, 260, 300]
    for x in xs:
        for n in ns:
            out = subprocess.run([lli, "-opaque-pointers", str(source), x, str(n)],
                                 capture_output=True, text=True, check=True).stdout.split()
            # What the source computes: x * exp2(n), each rounded to f32 (the
            # double product of two floats is exact).
            power = f32(math.ldexp(1.0, n)) if n < 1024 else math.inf
            expected = f32(f32(float(x)) * power) if float(x) != 0 or power != math.inf \
                else math.nan
            got = float.fromhex(out[0]) if "inf" not in out[0] and "nan" not in out[0] \
                else float(out[0])
            assert got == expected or (math.isnan(got) and math.isnan(expected)), \
                (x, n, out, expected)
            assert int(out[1]) == (n > 5) - (n < 5), (n, out)


# Declarations llvm-as-14 accepts (unknown llvm.* names are plain functions to it, and an
# uncalled declaration's signature is never checked) but the SDK's llc would not lower.
NOT_IN_LLVM14 = {
    "ldexp": "declare float @llvm.ldexp.f32.i32(float, i32)",
    "is.fpclass": "declare i1 @llvm.is.fpclass.f32(float, i32 immarg)",
    "scmp": "declare i32 @llvm.scmp.i32.i32(i32, i32)",
    "wrong signature": "declare float @llvm.fabs.f32(i32)",
    "type suffix on a non-overloaded intrinsic": "declare void @llvm.trap.i32()",
}


@pytest.mark.parametrize("what", list(NOT_IN_LLVM14))
def test_llvm14_check_rejects_what_llvm_as_14_accepts(what: str) -> None:
    text = NOT_IN_LLVM14[what] + "\ndefine void @f() {\n  ret void\n}\n"
    subprocess.run([llvm_as_14(), "-opaque-pointers", "-o", "/dev/null", "-"], input=text, text=True, check=True)
    name = re.search(r"@(llvm\.[\w.]+)", text).group(1)
    assert any(name in p for p in llvm14_ir.problems(text)), llvm14_ir.problems(text)


def test_llvm14_check_accepts_llvm14_intrinsics() -> None:
    text = textwrap.dedent("""\
        declare float @llvm.fma.f32(float, float, float)
        declare { i32, i1 } @llvm.sadd.with.overflow.i32(i32, i32)
        declare <4 x float> @llvm.maxnum.v4f32(<4 x float>, <4 x float>)
        declare void @llvm.memcpy.p0.p1.i64(ptr noalias nocapture writeonly, ptr addrspace(1) noalias nocapture readonly, i64, i1 immarg) #0
        declare void @llvm.trap()
        declare i32 @llvm.musa.read.ptx.sreg.tid.x()
        attributes #0 = { nounwind }
        """)
    assert llvm14_ir.problems(text) == []
