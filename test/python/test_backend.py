"""The MUSA backend as Triton sees it: registration, options, stages, libdevice, driver."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource
from triton.language.extra import libdevice

from triton_musa.backend import device as musa_device
from triton_musa.backend import driver as musa_driver
from triton_musa.backend import launcher as musa_launcher
from triton_musa.backend import emulator as musa_emulator
from triton_musa.backend import environment as musa_environment
from triton_musa.backend import target as target_module
from triton_musa.backend.compiler import MusaBackend, MusaOptions, compile_to_ttgir
from triton_musa.backend.driver import MusaDriver
from triton_musa.backend.toolchain import MusaToolchainNotFound

MP31 = GPUTarget("musa", "mp_31", 32)
MP22 = GPUTarget("musa", "mp_22", 128)


@triton.jit
def _add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


@triton.jit
def _exp(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, libdevice.exp(tl.load(x_ptr + offs)))


@triton.jit
def _missing_libdevice(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, libdevice.rcbrt(tl.load(x_ptr + offs)))


@triton.jit
def _to_fp8(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs).to(tl.float8e4nv))


def _compile(fn: Any, signature: dict, constexprs: dict, target: GPUTarget, **options: Any) -> Any:
    return triton.compile(ASTSource(fn, signature=signature, constexprs=constexprs), target=target, options=options)


def _ttgir_only(fn: Any, signature: dict, constexprs: dict, target: GPUTarget, **options: Any) -> Any:
    """Triton's stages only, for kernels whose ops are not lowered (llir) yet."""
    ir = compile_to_ttgir(ASTSource(fn, signature=signature, constexprs=constexprs), target, options)
    return SimpleNamespace(asm=ir)


def _compile_add(target: GPUTarget, **options: Any) -> Any:
    sig = {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"}
    return _compile(_add, sig, {"BLOCK": 1024}, target, **options)


def _text(ir: Any) -> str:
    # The ttgir stage is the last one for now, so CompiledKernel stores it as the binary (bytes).
    return ir.decode() if isinstance(ir, bytes) else ir


# -- registration --------------------------------------------------------------------------------


def test_backend_registered() -> None:
    from triton.backends import backends
    assert backends["musa"].compiler is MusaBackend
    assert backends["musa"].driver is MusaDriver


def test_make_backend_selects_musa_only_for_musa_targets() -> None:
    from triton.compiler.compiler import make_backend
    assert isinstance(make_backend(MP31), MusaBackend)
    assert MusaBackend.supports_target(MP22)
    assert not MusaBackend.supports_target(GPUTarget("cuda", 90, 32))


# -- options -------------------------------------------------------------------------------------


@pytest.mark.parametrize("target,fp8", [(MP31, ("fp8e4nv", "fp8e5", "fp8e4b15")), (MP22, ("fp8e4nv", "fp8e5", "fp8e4b15"))])
def test_default_options(target: GPUTarget, fp8: tuple) -> None:
    opts = MusaBackend(target).parse_options({})
    assert opts.arch == target.arch and opts.warp_size == target.warp_size
    assert opts.num_ctas == 1 and opts.num_warps == 4
    assert set(opts.supported_fp8_dtypes) == set(fp8)
    assert opts.default_dot_input_precision == "ieee"
    assert set(opts.allowed_dot_input_precisions) == {"ieee", "tf32", "tf32x3", "bf16x3", "bf16x6"}
    libdevice_name = "libdevice.31.bc" if target.arch == "mp_31" else "libdevice.bc"
    assert dict(opts.extern_libs)["libdevice"].endswith(f"mtgpu/bitcode/{libdevice_name}")


def test_options_round_trip_through_dict() -> None:
    # Triton's JIT feeds options.__dict__ back into parse_options when it compiles.
    backend = MusaBackend(MP31)
    opts = backend.parse_options({"num_warps": 8, "num_stages": 2, "debug": True})
    again = backend.parse_options(dict(opts.__dict__))
    assert again == opts and again.hash() == opts.hash()
    assert backend.parse_options({"num_warps": 4}).hash() != opts.hash()


@pytest.mark.parametrize("bad", [-1, 2.5, True, "3"])
def test_num_stages_is_checked_once_for_options_and_the_pipeline(bad: object) -> None:
    """The same check (lowering.check_num_stages) for a kernel's options and for the lowering API."""
    from triton_musa.backend.lowering import matrix_passes
    with pytest.raises(ValueError, match=rf"num_stages must be a non-negative integer, got {bad!r}"):
        MusaBackend(MP31).parse_options({"num_stages": bad})
    with pytest.raises(ValueError, match=rf"num_stages must be a non-negative integer, got {bad!r}"):
        matrix_passes("musa", num_stages=bad)  # type: ignore[arg-type]


def test_amd_tuning_options_are_accepted_and_ignored() -> None:
    """Code written for ROCm (tutorial 03's non-CUDA configs) passes AMD's knobs; they compile on MUSA to the
    same TTGIR as without them, a misspelt one still gets Triton's error, and a bad value ours."""
    import triton
    import triton.language as tl
    from triton.compiler import ASTSource

    @triton.jit
    def dot_kernel(a_ptr, c_ptr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tile = tl.load(a_ptr + offs[:, None] * BLOCK + offs[None, :])
        tl.store(c_ptr + offs[:, None] * BLOCK + offs[None, :], tl.dot(tile, tile))

    src = ASTSource(dot_kernel, {"a_ptr": "*fp16", "c_ptr": "*fp32", "BLOCK": "constexpr"}, {"BLOCK": 64})
    plain = triton.compile(src, target=MP31, options={"num_warps": 4})
    amd = triton.compile(src, target=MP31,
                         options={"num_warps": 4, "matrix_instr_nonkdim": 16, "waves_per_eu": 2, "kpack": 2})
    assert amd.asm["ttgir"] == plain.asm["ttgir"]
    with pytest.raises(ValueError, match="kpack .*must be a non-negative integer"):
        MusaBackend(MP31).parse_options({"kpack": -1})
    # Through the JIT, as an autotune config passes them (on the active driver: the emulator here).
    import torch
    a = torch.randn(64, 64).to(torch.float16)
    c = torch.empty(64, 64)
    dot_kernel[(1, )](a, c, BLOCK=64, num_warps=4, matrix_instr_nonkdim=16, waves_per_eu=2, kpack=2)
    torch.testing.assert_close(c.double(), a.double() @ a.double(), rtol=1e-4, atol=1e-3)
    with pytest.raises(KeyError, match="matrix_instr_nonkdimm was specified but unrecognised"):
        dot_kernel[(1, )](a, c, BLOCK=64, matrix_instr_nonkdimm=16)


def test_disable_llvm_opt_is_a_hashed_option_that_skips_llvm_optimisation(monkeypatch: pytest.MonkeyPatch) -> None:
    """Moore Threads' DISABLE_LLVM_OPT: the LLVM IR for the GPU is exported at O0, and the option is part of
    the cache key."""
    import triton
    import triton.language as tl
    from triton.compiler import ASTSource

    @triton.jit
    def scale(x_ptr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(x_ptr + offs, tl.load(x_ptr + offs) * 2.0)

    backend = MusaBackend(MP31)
    monkeypatch.delenv("DISABLE_LLVM_OPT", raising=False)
    optimised = backend.parse_options({})
    monkeypatch.setenv("DISABLE_LLVM_OPT", "1")
    unoptimised = backend.parse_options({})
    assert not optimised.disable_llvm_opt and unoptimised.disable_llvm_opt
    assert optimised.hash() != unoptimised.hash() and str(optimised) != str(unoptimised)
    assert (optimised.llvm_opt_level, unoptimised.llvm_opt_level) == (3, 0)
    # The GPU's LLVM IR stage (the emulator, active here, stops before it).
    ttgir = triton.compile(ASTSource(scale, {"x_ptr": "*fp32", "BLOCK": "constexpr"}, {"BLOCK": 256}),
                           target=MP31).asm["ttgir"]
    llir = {opts.disable_llvm_opt: MusaBackend.make_llir(ttgir, {"name": "scale"}, opts)
            for opts in (optimised, unoptimised)}
    # LLVM's O3 marks the calls (the thread-id intrinsics) as tail calls and folds the index arithmetic.
    assert "tail call" in llir[False] and "tail call" not in llir[True] and "call" in llir[True]
    assert " shl " in llir[True] and " shl " not in llir[False]


@pytest.mark.parametrize("env,name", [("ENABLE_MUSA_MMA", "enable_mma"), ("MUSA_ENABLE_SQMMA", "enable_sqmma")])
def test_matrix_switches_are_hashed_options(monkeypatch: pytest.MonkeyPatch, env: str, name: str) -> None:
    """The environment switch sets its option's default, an explicit option wins, and the options hash
    (Triton's on-disk cache key) and the options' text (the JIT's in-process kernel key) differ with it."""
    backend = MusaBackend(MP31)
    monkeypatch.delenv(env, raising=False)
    on = backend.parse_options({})
    monkeypatch.setenv(env, "0")
    off = backend.parse_options({})
    assert getattr(on, name) is True and getattr(off, name) is False
    assert getattr(off.matmul, name) is False
    assert off.hash() != on.hash() and str(off) != str(on)
    assert backend.parse_options({name: True}).hash() == on.hash()
    assert backend.parse_options(dict(off.__dict__)) == off


@triton.jit
def _dot(a_ptr, b_ptr, c_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    idx = offs[:, None] * BLOCK + offs[None, :]
    tl.store(c_ptr + idx, tl.dot(tl.load(a_ptr + idx), tl.load(b_ptr + idx)))


def test_matrix_switch_option_decides_the_lowering(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lowering takes the switch from the options it compiles with, not from the environment of the
    moment: enable_mma=False puts mp_22's f16 dot on FMA with ENABLE_MUSA_MMA unset."""
    monkeypatch.delenv("ENABLE_MUSA_MMA", raising=False)
    sig = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32", "BLOCK": "constexpr"}

    def lowered(**options: Any) -> str:  # llir on the device, emuir on the emulator: both call the WMMA hook
        asm = _compile(_dot, sig, {"BLOCK": 64}, MP22, **options).asm
        return _text(asm["llir"] if "llir" in asm else asm["emuir"])
    assert "wmma" in lowered()
    assert "wmma" not in lowered(enable_mma=False)


@pytest.mark.parametrize("target,opts,match", [
    (MP31, {"warp_size": 128}, "warp_size=128 does not match mp_31"),
    (MP22, {"warp_size": 32}, "warp_size=32 does not match mp_22"),
    (MP31, {"num_warps": 3}, "num_warps must be a positive power of two"),
    (MP31, {"num_warps": 0}, "num_warps must be a positive power of two"),
    (MP31, {"num_ctas": 2}, "num_ctas=2 is not supported"),
    # An fp8 type outside MUSA's list (AMD's fp8e4b8) is refused by name.
    (MP22, {"supported_fp8_dtypes": ("fp8e4b8", )}, "mp_22 does not support fp8 types \\['fp8e4b8'\\]"),
    (MP31, {"allowed_dot_input_precisions": ("ieee", "bf16x9")}, "bf16x9"),
    (MP31, {"arch": "mp_22"}, "contradicts the target architecture mp_31"),
])
def test_invalid_options_raise(target: GPUTarget, opts: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        MusaBackend(target).parse_options(opts)


@pytest.mark.parametrize("target,match", [
    (GPUTarget("musa", "mp_99", 32), "unknown MUSA architecture 'mp_99'"),
    # QY1: not in the architecture table (its shared memory per block is not public).
    (GPUTarget("musa", "mp_21", 128), "unknown MUSA architecture 'mp_21'; supported architectures: mp_22, mp_31"),
    (GPUTarget("musa", "mp_31", 128), "warp_size=128 does not match mp_31"),
    (GPUTarget("musa", "mp_22", 32), "warp_size=32 does not match mp_22"),
])
def test_invalid_targets_raise(target: GPUTarget, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        MusaBackend(target)


def test_options_dataclass_validates_directly() -> None:
    with pytest.raises(ValueError, match="supported architectures: mp_22, mp_31"):
        MusaOptions(arch="sm_90")


# -- compilation ---------------------------------------------------------------------------------


@pytest.mark.parametrize("target", [MP31, MP22], ids=["mp_31", "mp_22"])
def test_compile_to_ttgir(target: GPUTarget) -> None:
    kernel = _compile_add(target)
    assert {"ttir", "ttgir"} <= set(kernel.asm)
    ttgir = _text(kernel.asm["ttgir"])
    assert f'ttg.target = "musa:{target.arch}"' in ttgir
    assert f'"ttg.threads-per-warp" = {target.warp_size}' in ttgir
    assert '"ttg.num-warps" = 4' in ttgir
    assert "tt.func public @_add" in _text(kernel.asm["ttir"])
    assert kernel.name == "_add"
    assert kernel.metadata.shared == 0
    assert kernel.metadata.target == target


@pytest.mark.parametrize("num_warps", [1, 2, 8])
def test_num_warps_reaches_ttgir(num_warps: int) -> None:
    ttgir = _text(_compile_add(MP22, num_warps=num_warps).asm["ttgir"])
    assert f'"ttg.num-warps" = {num_warps}' in ttgir


def test_launch_without_sdk_names_musa_h(no_emulator: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    # The launcher and device utils are C built against the SDK's musa.h: without an SDK, say so.
    monkeypatch.setenv("MUSA_HOME", str(tmp_path))
    kernel = _compile_add(MP31)
    with pytest.raises(RuntimeError, match="musa.h"):
        musa_launcher.MusaLauncher(kernel.src, kernel.metadata)
    with pytest.raises(RuntimeError, match="musa.h"):
        MusaDriver().utils.load_binary(kernel.name, kernel.kernel, 0, 0)


@pytest.mark.parametrize("target,lib", [(MP31, "libdevice.31.bc"), (MP22, "libdevice.bc")], ids=["mp_31", "mp_22"])
def test_libdevice_calls_musa_math_library(target: GPUTarget, lib: str) -> None:
    kernel = _ttgir_only(_exp, {"x_ptr": "*fp32", "out_ptr": "*fp32", "BLOCK": "constexpr"}, {"BLOCK": 128}, target)
    ttir = _text(kernel.asm["ttir"])
    assert 'symbol = "__nv_expf"' in ttir  # MUSA's libdevice keeps CUDA's name for exp
    assert f'/mtgpu/bitcode/{lib}"' in ttir


def test_libdevice_missing_function_is_explained() -> None:
    with pytest.raises(Exception) as info:
        _compile(_missing_libdevice, {"x_ptr": "*fp32", "BLOCK": "constexpr"}, {"BLOCK": 128}, MP31)
    chain = []
    err: BaseException | None = info.value
    while err is not None:
        chain.append(str(err))
        err = err.__cause__ or err.__context__
    assert any("libdevice.rcbrt is not available on the MUSA backend" in msg for msg in chain), chain


@pytest.mark.parametrize("target", [MP31, MP22], ids=["mp_31", "mp_22"])
def test_fp8_storage_on_every_arch(target: GPUTarget) -> None:
    # Software conversions: fp8 needs no fp8 unit as a storage and conversion type.
    sig = {"x_ptr": "*fp32", "out_ptr": "*fp8e4nv", "BLOCK": "constexpr"}
    assert "f8E4M3FN" in _text(_ttgir_only(_to_fp8, sig, {"BLOCK": 128}, target).asm["ttgir"])


def test_architecture_table_matches_the_facts() -> None:
    # The C++ table (target/MUSAArch.cpp) against MUSA-FACTS.md: warp size and shared memory per block.
    archs = {a.name: a for a in target_module.known_archs().values()}
    assert sorted(archs) == ["mp_22", "mp_31"]
    assert (archs["mp_31"].codename, archs["mp_31"].warp_size, archs["mp_31"].max_shared_memory_bytes) == \
        ("PH1", 32, 196608)
    assert (archs["mp_22"].codename, archs["mp_22"].warp_size, archs["mp_22"].max_shared_memory_bytes) == \
        ("QY2", 128, 73728)
    assert archs["mp_31"].matrix_unit == "sqmma" and archs["mp_22"].matrix_unit == "wmma"
    assert archs["mp_31"].has_fp8 and not archs["mp_22"].has_fp8
    assert archs["mp_31"].has_tme and not archs["mp_22"].has_tme


def test_warp_size_as_a_string() -> None:
    # Triton's AOT tool builds GPUTarget("musa", "mp_31", "32") from "--target musa:mp_31:32".
    assert MusaBackend(GPUTarget("musa", "mp_31", "32")).parse_options({}).warp_size == 32


def test_codegen_and_module_map() -> None:
    backend = MusaBackend(MP31)
    fns = backend.get_codegen_implementation(backend.parse_options({}))
    assert fns["min_dot_size"](None, None) == (1, 1, 16)
    from triton_musa.language import libdevice as musa_libdevice
    assert backend.get_module_map() == {"triton.language.extra.libdevice": musa_libdevice}


# -- driver --------------------------------------------------------------------------------------


@pytest.fixture
def no_emulator(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The device driver alone: the CPU emulator switched off (TRITON_MUSA_EMULATOR=0)."""
    monkeypatch.setenv("TRITON_MUSA_EMULATOR", "0")
    musa_emulator.emulator_active.cache_clear()
    yield
    monkeypatch.undo()
    musa_emulator.emulator_active.cache_clear()


def test_musa_driver_inactive_without_device(no_emulator: Any) -> None:
    # Triton then reports "0 active drivers"; the warning says why ours is not one.
    with pytest.warns(UserWarning, match="the MUSA driver is not active: TRITON_MUSA_EMULATOR=0 turns the CPU "
                      "emulator off and no MUSA device is usable"):
        assert MusaDriver.is_active() is False


def test_importing_triton_musa_activates_no_driver() -> None:
    # In a fresh interpreter: whatever Triton decided before, it decides the same with us installed.
    script = textwrap.dedent("""
        import triton_musa
        import triton
        from triton.backends import backends
        from triton.runtime.driver import driver
        active = sorted(name for name, b in backends.items() if b.driver.is_active())
        assert "musa" not in active, active
        if not active:
            try:
                driver.active
            except RuntimeError as e:
                assert "0 active drivers" in str(e), e
            else:
                raise AssertionError("a driver became active on a machine without GPUs")
        print("ok", active)
    """)
    env = dict(os.environ, TRITON_MUSA_EMULATOR="0")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("ok")


def test_emulator_is_the_one_driver_without_gpus() -> None:
    """Where no GPU driver is active, the CPU emulator makes musa the one active driver."""
    script = textwrap.dedent("""
        import triton
        from triton.backends import backends
        others = sorted(n for n, b in backends.items() if n != "musa" and b.driver.is_active())
        active = triton.runtime.driver.active
        print("others" if others else type(active).__name__, active.get_current_target())
    """)
    env = {k: v for k, v in os.environ.items() if k not in ("TRITON_MUSA_EMULATOR", "TRITON_MUSA_ARCH")}
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr
    if not proc.stdout.startswith("others"):
        assert proc.stdout.startswith("MusaDriver GPUTarget(backend='musa', arch='mp_31', warp_size=32)"), proc.stdout


def test_package_import_is_light() -> None:
    script = "import sys, triton_musa; assert 'triton' not in sys.modules and 'torch' not in sys.modules"
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


def test_environment_breaks_the_emulator_import_circle() -> None:
    """The emulator and its launcher read the environment names and the device probe from environment.py,
    so the launcher loads without the emulator module (they used to import each other)."""
    script = ("import sys, triton_musa.backend.emulator_launcher; "
              "assert 'triton_musa.backend.emulator' not in sys.modules, 'the launcher imports the emulator'")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


def test_musa_utils_does_not_reach_back_into_device() -> None:
    """device.py builds on musa_utils.py (its utils, torch.musa); musa_utils reads nothing of device.py
    (it used to import it for torch.musa: a circle)."""
    import ast
    source = Path(musa_device.__file__).with_name("musa_utils.py").read_text()
    imported = {node.module for node in ast.walk(ast.parse(source)) if isinstance(node, ast.ImportFrom)}
    assert "device" not in imported and "triton_musa.backend.device" not in imported, imported


def _fake_musa_device(monkeypatch: pytest.MonkeyPatch, capability: tuple) -> None:
    fake = SimpleNamespace(is_available=lambda: True, current_device=lambda: 0,
                           get_device_capability=lambda device=None: capability)
    monkeypatch.setattr(musa_device, "torch_musa_module", lambda: fake)
    monkeypatch.setattr(musa_driver, "_musa_device_status",
                        lambda: musa_environment.DeviceStatus(True, "a fake MUSA device"))


@pytest.mark.parametrize("capability,target", [((3, 1), MP31), ((2, 2), MP22)])
def test_current_target_from_device_capability(monkeypatch: pytest.MonkeyPatch, capability: tuple,
                                               target: GPUTarget, no_emulator: Any) -> None:
    _fake_musa_device(monkeypatch, capability)
    assert MusaDriver.is_active()
    assert MusaDriver().get_current_target() == target


def test_unknown_device_capability_is_an_error(monkeypatch: pytest.MonkeyPatch, no_emulator: Any) -> None:
    _fake_musa_device(monkeypatch, (4, 0))
    with pytest.raises(ValueError, match="unknown MUSA architecture 'mp_40'"):
        MusaDriver().get_current_target()


def test_cpp_argument_types(monkeypatch: pytest.MonkeyPatch, no_emulator: Any, tmp_path: Path) -> None:
    """Asked only by Triton's AOT tool: on a MUSA device with the SDK, the AOT C types."""
    import aot_env
    _fake_musa_device(monkeypatch, (3, 1))
    d = MusaDriver()
    monkeypatch.setenv("MUSA_HOME", str(tmp_path / "no-sdk"))
    with pytest.raises(MusaToolchainNotFound, match="llc was not found"):
        d.map_python_to_cpp_type("*fp16")  # the kernel Triton's tool embeds would be LLVM IR
    monkeypatch.setenv("MUSA_HOME", str(aot_env.fake_sdk(tmp_path)))
    assert d.map_python_to_cpp_type("*fp16") == "MUdeviceptr"
    assert d.map_python_to_cpp_type("i32") == "int32_t"
    assert d.map_python_to_cpp_type("tensordesc<fp16[64,64]>") == "MUtensorDescriptor"
    with pytest.raises(ValueError, match="no C type"):
        d.map_python_to_cpp_type("fp128")


def test_cpp_argument_types_refused_on_the_emulator() -> None:
    """Triton's AOT tool on the emulator would embed emulator code as the mubin: it stops, saying so."""
    with pytest.raises(RuntimeError, match="the active MUSA driver is the CPU emulator.*triton_musa.tools.compile"):
        MusaDriver().map_python_to_cpp_type("*fp16")
