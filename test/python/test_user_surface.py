"""The backend as a user meets it: target_info folding, do_bench / musa_testing,
the older descriptor helpers, OutOfResources and autotune pruning, cache keys,
GPUTarget as Triton's tools build it, and the MUSA device status."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.compiler import ASTSource  # noqa: E402
from triton.runtime.errors import OutOfResources  # noqa: E402

from triton_musa.backend.emulator import emulator_active  # noqa: E402

TARGETS = {"mp_31": GPUTarget("musa", "mp_31", 32), "mp_22": GPUTarget("musa", "mp_22", 128)}
needs_emulator = pytest.mark.skipif(not emulator_active(), reason="runs kernels on the CPU emulator, which is not "
                                    "the active driver here (set TRITON_MUSA_EMULATOR=1)")


@triton.jit
def target_branches(out_ptr):
    if tl.target_info.is_musa():
        tl.store(out_ptr, 1111)
    else:
        tl.store(out_ptr, 2222)
    if tl.target_info.musa_capability_geq(3, 1):
        tl.store(out_ptr + 1, 3131)
    else:
        tl.store(out_ptr + 1, 2222)


def ttir_of(fn, arch: str, signature) -> str:
    from triton_musa.backend.compiler import compile_to_ttgir
    return compile_to_ttgir(ASTSource(fn, signature=signature), TARGETS[arch])["ttir"]


@pytest.mark.parametrize("arch", sorted(TARGETS))
def test_target_info_folds_branches_for_the_compiled_target(arch: str) -> None:
    ttir = ttir_of(target_branches, arch, {"out_ptr": "*i32"})
    assert "1111" in ttir and "scf.if" not in ttir
    # The compiled-for arch decides, not the active driver's (emulated mp_31 here).
    assert ("3131" in ttir) == (arch == "mp_31")
    assert ("2222" in ttir) == (arch != "mp_31")


def test_target_info_from_host_code_and_module_surface() -> None:
    assert tl.target_info.is_musa() == (triton.runtime.driver.active.get_current_target().backend == "musa")
    assert "is_musa" in tl.target_info.__all__ and "musa_capability_geq" in tl.target_info.__all__
    assert tl.target_info.musa_capability_geq(9, 9) is False


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


@needs_emulator
def test_do_bench_device_type_and_musa_testing() -> None:
    x, y = torch.randn(4096), torch.randn(4096)
    out = torch.empty_like(x)

    def run() -> None:
        add_kernel[(4,)](x, y, out, x.numel(), BLOCK=1024)

    with pytest.warns(UserWarning, match="CPU emulator"):
        t = triton.testing.do_bench(run, warmup=1, rep=5, device_type="musa")
    assert t > 0
    torch.testing.assert_close(out, x + y)
    assert triton.musa_testing.do_bench(run, warmup=1, rep=5) > 0
    assert triton.testing.do_bench(run, warmup=1, rep=5) > 0  # the stock call is unchanged
    assert len(triton.testing.do_bench(run, 1, 5, None, [0.5, 0.8])) == 2  # positional stock arguments
    with pytest.raises(ValueError, match="active Triton driver is 'musa'"):
        triton.testing.do_bench(run, device_type="cuda")


def test_experimental_descriptor_helpers_map_to_tensor_descriptor() -> None:
    from triton.tools.experimental_descriptor import create_1d_tma_descriptor, create_2d_tma_descriptor, \
        create_3d_tma_descriptor
    from triton.tools.tensor_descriptor import TensorDescriptor
    x = torch.empty(8, 16, 32, dtype=torch.float16)
    d2 = create_2d_tma_descriptor(x, 128, 32, 64, 16, x.element_size())
    assert isinstance(d2, TensorDescriptor)
    assert (list(d2.shape), list(d2.strides), list(d2.block_shape)) == ([128, 32], [32, 1], [64, 16])
    assert d2.base is x
    d3 = create_3d_tma_descriptor(x, 8, 16, 32, 2, 4, 16, 2)
    assert list(d3.strides) == [512, 32, 1]
    d1 = create_1d_tma_descriptor(x.data_ptr(), 4096, 64, 4)
    assert d1.base.data_ptr() == x.data_ptr() and d1.base.dtype == torch.uint32
    with pytest.raises(ValueError, match="element_size=4 does not match"):
        create_2d_tma_descriptor(x, 128, 32, 64, 16, 4)


@triton.jit
def transpose_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    rm = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    rn = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = (rm[:, None] < n) & (rn[None, :] < n)
    x = tl.load(x_ptr + rm[:, None] * n + rn[None, :], mask=mask)
    tl.store(y_ptr + rn[:, None] * n + rm[None, :], tl.trans(x), mask=tl.trans(mask))


def test_shared_memory_over_the_limit_is_out_of_resources() -> None:
    # A 256x256 fp32 transpose goes through 256 KiB of shared memory: more than either arch has.
    src = ASTSource(transpose_kernel, signature={"x_ptr": "*fp32", "y_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"},
                    constexprs={"BLOCK": 256})
    for target in TARGETS.values():
        with pytest.raises(OutOfResources, match="shared memory"):
            triton.compile(src, target=target)


@needs_emulator
def test_autotune_prunes_the_config_that_does_not_fit(capsys: pytest.CaptureFixture[str]) -> None:
    tuned = triton.autotune(configs=[triton.Config({"BLOCK": 512}), triton.Config({"BLOCK": 16})],
                            key=["n"])(transpose_kernel)
    n = 48
    x = torch.randn(n, n)
    y = torch.empty_like(x)
    tuned[lambda m: (triton.cdiv(n, m["BLOCK"]), triton.cdiv(n, m["BLOCK"]))](x, y, n)
    assert tuned.best_config.kwargs["BLOCK"] == 16
    assert torch.equal(y, x.t())


def test_compile_errors_are_concise_unless_a_dump_is_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    from triton_musa.backend.errors import MusaCompileError, translate
    from triton_musa.backend.lowering import Diagnostic, LoweringError, OutOfSharedMemory
    error = LoweringError("pass pipeline failed", [
        Diagnostic("error", "kernel.py:12:8", "'tt.foo' is not supported by the MUSA lowering yet"),
        Diagnostic("note", "kernel.py:12:8", 'see current operation: %0 = "tt.foo"() : () -> i32\n'
                   "  tt.func @k() {\n  }")])
    monkeypatch.delenv("MLIR_ENABLE_DUMP", raising=False)
    monkeypatch.delenv("TRITON_KERNEL_DUMP", raising=False)
    err = translate(error, "k", "mp_31")
    assert isinstance(err, MusaCompileError)
    text = str(err)
    assert "kernel 'k'" in text and "kernel.py:12:8" in text and "not supported" in text
    assert "see current operation" not in text and "tt.func" not in text
    monkeypatch.setenv("MLIR_ENABLE_DUMP", "1")
    assert "tt.func @k()" in str(translate(error, "k", "mp_31"))
    # By name, as the per-pass dumps read it: this kernel's IR, not another's.
    monkeypatch.setenv("MLIR_ENABLE_DUMP", "k")
    assert "tt.func @k()" in str(translate(error, "k", "mp_31"))
    monkeypatch.setenv("MLIR_ENABLE_DUMP", "another_kernel")
    assert "tt.func @k()" not in str(translate(error, "k", "mp_31"))
    # Past the shared memory: the numbers are the module's ttg.shared and the arch's, not message text.
    oor = translate(OutOfSharedMemory(LoweringError("pass pipeline failed", []), 1048576, 196608), "k", "mp_31")
    assert isinstance(oor, OutOfResources) and oor.required == 1048576 and oor.limit == 196608


def _fake_tool(path: Path, version: str) -> None:
    path.write_text(f"#!/bin/sh\necho 'Fake SDK LLVM (https://example.invalid):'\necho '  LLVM version {version}'\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def test_cache_key_follows_the_sdk_llc(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from triton_musa.backend.cache_key import backend_key
    from triton_musa.backend.toolchain import find_toolchain
    llc, lld = tmp_path / "llc", tmp_path / "ld.lld"
    _fake_tool(llc, "14.0.6")
    _fake_tool(lld, "14.0.6")
    monkeypatch.setenv("TRITON_MUSA_LLC_PATH", str(llc))
    monkeypatch.setenv("TRITON_MUSA_LLD_PATH", str(lld))
    assert find_toolchain().llvm_major == 14
    key14 = backend_key()
    assert backend_key() == key14
    os.utime(llc, ns=(1, 1))  # the SDK is replaced by one with a newer llc
    _fake_tool(llc, "17.0.1")
    assert find_toolchain().llvm_major == 17
    assert backend_key() != key14
    monkeypatch.delenv("TRITON_MUSA_LLC_PATH")
    monkeypatch.setenv("MUSA_HOME", str(tmp_path / "absent"))
    assert "llc=no-sdk" in backend_key() or Path("/usr/local/musa/bin/llc").exists()


def test_gpu_target_as_triton_tools_build_it() -> None:
    from triton_musa.backend.compiler import MusaBackend
    backend = MusaBackend(GPUTarget("musa", "mp_31", "32"))  # from "--target musa:mp_31:32"
    assert backend.parse_options({}).warp_size == 32
    with pytest.raises(ValueError, match="warp_size"):
        MusaBackend(GPUTarget("musa", "mp_31", "128"))


def test_musa_device_status_says_why() -> None:
    from triton_musa.backend.driver import musa_device_status
    status = musa_device_status()
    try:
        import torch_musa  # noqa: F401
    except ImportError:
        assert not status.available and "torch_musa is not installed" in status.reason


@needs_emulator
@pytest.mark.parametrize("arch", sorted(TARGETS))
def test_warmup_compiles_for_each_emulated_target(arch: str, tmp_path: Path) -> None:
    # Triton's JIT keeps the target per device for the life of the process: one process per arch.
    script = textwrap.dedent(f"""
        import torch, triton, triton.language as tl

        @triton.jit
        def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
            offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            mask = offs < n
            tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)

        x = torch.empty(1024)
        compiled = add_kernel.warmup(x, x, x, 1024, BLOCK=256, grid=(4,))
        print(compiled.metadata.target.arch, compiled.metadata.warp_size)
    """)
    path = tmp_path / "warmup.py"  # @triton.jit needs the kernel's source file
    path.write_text(script)
    env = dict(os.environ, TRITON_MUSA_ARCH=arch, TRITON_MUSA_EMULATOR="1")
    proc = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == [arch, str(TARGETS[arch].warp_size)]