"""Code written for Moore Threads' own Triton: its ``triton.language.extra.musa.libdevice`` is ours, with
MT's ``fast_gelu`` (GELU in its erf form, FlagGems' MUSA gelu "none"), run on the emulator against torch."""

from __future__ import annotations

import sys

import pytest

torch = pytest.importorskip("torch")
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.compiler import ASTSource  # noqa: E402
from triton.language.extra.musa import libdevice  # noqa: E402

from triton_musa.backend.emulator import emulator_active  # noqa: E402
from triton_musa.language import libdevice as musa_libdevice  # noqa: E402

TARGETS = {"mp_31": GPUTarget("musa", "mp_31", 32), "mp_22": GPUTarget("musa", "mp_22", 128)}
N = 256

needs_emulator = pytest.mark.skipif(not emulator_active(), reason="the CPU emulator is not the active driver")


def test_mt_module_names_resolve_to_our_libdevice() -> None:
    import triton.language.extra.musa as extra_musa
    import triton.language.extra.musa.libdevice as by_path
    assert libdevice is musa_libdevice and by_path is musa_libdevice and extra_musa.libdevice is musa_libdevice
    assert sys.modules["triton.language.extra.musa.libdevice"] is musa_libdevice
    # Our module keeps its own spec under the alias.
    assert musa_libdevice.__spec__.name == "triton_musa.language.libdevice"
    # What FlagGems' MUSA ops call through it.
    for name in ("fast_tanh", "fast_gelu", "rsqrt", "exp", "erf", "pow", "log"):
        assert callable(getattr(libdevice, name)), name


@triton.jit
def mt_style_kernel(x_ptr, y_ptr, gelu_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(gelu_ptr + offs, libdevice.fast_gelu(x))
    r = libdevice.fast_tanh(x) + libdevice.rsqrt(y) + libdevice.exp(x) * libdevice.erf(x)
    r += libdevice.pow(y, x) + libdevice.log(y)
    tl.store(out_ptr + offs, r)


def _compile(arch: str):
    src = ASTSource(mt_style_kernel, {"x_ptr": "*fp32", "y_ptr": "*fp32", "gelu_ptr": "*fp32", "out_ptr": "*fp32",
                                      "BLOCK": "constexpr"}, {"BLOCK": N})
    return triton.compile(src, target=TARGETS[arch])


def test_fast_gelu_is_the_library_function_from_mp31_on() -> None:
    """MT's fast_gelu is the library's __mt_tt_gelu_f32 (capability >= 3.1); on mp_22 it is composed from erf."""
    assert 'symbol = "__mt_tt_gelu_f32"' in _compile("mp_31").asm["ttir"]
    mp22 = _compile("mp_22").asm["ttir"]
    assert "__mt_tt_gelu_f32" not in mp22 and 'symbol = "__mt_erf_f32"' in mp22


def test_fast_gelu_takes_fp32_only() -> None:
    @triton.jit
    def half_kernel(x_ptr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(x_ptr + offs, libdevice.fast_gelu(tl.load(x_ptr + offs)))

    src = ASTSource(half_kernel, {"x_ptr": "*fp16", "BLOCK": "constexpr"}, {"BLOCK": 32})
    with pytest.raises(triton.CompilationError, match="fast_gelu takes fp32 values, got fp16"):
        triton.compile(src, target=TARGETS["mp_31"])


@needs_emulator
@pytest.mark.parametrize("arch", list(TARGETS))
def test_mt_style_kernel_against_torch(arch: str) -> None:
    gen = torch.Generator().manual_seed(43)
    x = torch.rand(N, generator=gen) * 8 - 4
    y = torch.rand(N, generator=gen) * 3 + 0.25
    gelu = torch.empty(N)
    out = torch.empty(N)
    _compile(arch)[(1, 1, 1)](x, y, gelu, out, N)
    xd, yd = x.double(), y.double()
    torch.testing.assert_close(gelu.double(), torch.nn.functional.gelu(xd), rtol=2e-6, atol=1e-6)
    ref = torch.tanh(xd) + torch.rsqrt(yd) + torch.exp(xd) * torch.erf(xd) + torch.pow(yd, xd) + torch.log(yd)
    torch.testing.assert_close(out.double(), ref, rtol=1e-5, atol=1e-5)
