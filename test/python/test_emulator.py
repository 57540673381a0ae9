"""The CPU emulator end to end: Triton kernels compiled by our pipeline, run on
torch CPU tensors for mp_31 (warp 32) and mp_22 (warp 128), compared with PyTorch;
global accesses outside the tensors are reported as Python exceptions."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Dict, Tuple

import pytest

torch = pytest.importorskip("torch")
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.compiler import ASTSource  # noqa: E402

from triton_musa.backend.emulator import emulator_active  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
TARGETS = {"mp_31": GPUTarget("musa", "mp_31", 32), "mp_22": GPUTarget("musa", "mp_22", 128)}
ARCHS = tuple(TARGETS)

pytestmark = pytest.mark.skipif(not emulator_active(), reason="a MUSA device or another GPU driver is active here; "
                                "the emulator runs where none is (or with TRITON_MUSA_EMULATOR=1)")


def compile_for(fn: Any, arch: str, signature: Dict[str, str], constexprs: Dict[str, Any], **options: Any) -> Any:
    for k in constexprs:
        signature.setdefault(k, "constexpr")
    signature = {k: signature[k] for k in fn.arg_names}
    src = ASTSource(fn, signature=signature, constexprs=constexprs)
    return triton.compile(src, target=TARGETS[arch], options=options or None)


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("n,block,num_warps", [(1, 128, 1), (1000, 256, 4), (4097, 1024, 4), (98432, 1024, 8)])
def test_vector_add(arch: str, n: int, block: int, num_warps: int) -> None:
    kernel = compile_for(add_kernel, arch, {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32"},
                         {"BLOCK": block}, num_warps=num_warps)
    # The stages chain: on the emulator, ttgir is lowered once, for the emulator (no llir).
    assert "emuir" in kernel.asm and "llir" not in kernel.asm
    x, y = torch.rand(n), torch.rand(n)
    out = torch.full((n, ), float("nan"))
    kernel[(triton.cdiv(n, block), 1, 1)](x, y, out, n, block)
    torch.testing.assert_close(out, x + y)


def test_vector_add_through_jit() -> None:
    """The plain `kernel[grid](...)` path with the driver's own target."""
    n = 5000
    x, y = torch.rand(n), torch.rand(n)
    out = torch.empty_like(x)
    add_kernel[(triton.cdiv(n, 512), )](x, y, out, n, BLOCK=512)
    torch.testing.assert_close(out, x + y)


@pytest.mark.parametrize("arch", ARCHS)
def test_vector_add_example_runs(arch: str) -> None:
    env = dict(os.environ, TRITON_MUSA_ARCH=arch)
    proc = subprocess.run([sys.executable, str(REPO / "examples" / "vector_add.py")], env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert f"for {arch}" in proc.stdout
    assert proc.stdout.strip().splitlines()[-1] == "vector add passed"


@triton.jit
def copy2d_kernel(src, dst, M, N, s_m, s_n, d_m, d_n, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(src + rm[:, None] * s_m + rn[None, :] * s_n, mask=mask, other=-1.0)
    tl.store(dst + rm[:, None] * d_m + rn[None, :] * d_n, x * 2.0, mask=mask)


@pytest.mark.parametrize("arch", ARCHS)
def test_masked_2d_strided_copy(arch: str) -> None:
    base = torch.randn(90, 70)
    src = base[3:80:2, 5:].t()  # (65, 39), strides (1, 140)
    M, N = src.shape
    dst_full = torch.zeros(M, N + 11)
    dst = dst_full[:, 7:7 + N]
    kernel = compile_for(copy2d_kernel, arch, {"src": "*fp32", "dst": "*fp32", "M": "i32", "N": "i32", "s_m": "i32",
                                               "s_n": "i32", "d_m": "i32", "d_n": "i32"}, {"BM": 32, "BN": 16})
    kernel[(triton.cdiv(M, 32), triton.cdiv(N, 16), 1)](src, dst, M, N, src.stride(0), src.stride(1), dst.stride(0),
                                                        dst.stride(1), 32, 16)
    torch.testing.assert_close(dst, src * 2.0)
    # Nothing outside the destination view was written.
    assert torch.count_nonzero(dst_full[:, :7]) == 0 and torch.count_nonzero(dst_full[:, 7 + N:]) == 0


@triton.jit
def unmasked_store_kernel(out_ptr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, offs.to(tl.float32))


@pytest.mark.parametrize("arch", ARCHS)
def test_out_of_bounds_store_is_reported(arch: str) -> None:
    from triton_musa._musa_mlir import EmulatorError
    kernel = compile_for(unmasked_store_kernel, arch, {"out_ptr": "*fp32"}, {"BLOCK": 128})
    out = torch.zeros(200)  # the second block stores past the end
    with pytest.raises(EmulatorError) as info:
        kernel[(2, 1, 1)](out, 128)
    message = str(info.value)
    assert "kernel 'unmasked_store_kernel'" in message
    assert "out-of-bounds store of 4 bytes" in message
    assert "program id (1, 0, 0)" in message
    assert "thread " in message and "lane " in message
    assert f"address {out.data_ptr() + 4 * 200:#x}" in message or "bytes past the end of argument 'out_ptr'" in message
    assert isinstance(info.value, RuntimeError)


@pytest.mark.parametrize("arch", ARCHS)
def test_cuda_tensor_is_refused_clearly(arch: str) -> None:
    kernel = compile_for(unmasked_store_kernel, arch, {"out_ptr": "*fp32"}, {"BLOCK": 128})
    with pytest.raises(TypeError, match="must be a tensor"):
        kernel[(1, 1, 1)]("not a tensor", 128)


def test_do_bench_measures_the_emulator() -> None:
    n = 1 << 14
    x, y = torch.rand(n), torch.rand(n)
    out = torch.empty_like(x)
    bench = triton.runtime.driver.active.get_benchmarker()
    with pytest.warns(UserWarning, match="measure the emulator"):
        ms = bench(lambda: add_kernel[(triton.cdiv(n, 1024), )](x, y, out, n, BLOCK=1024), warmup=1, rep=5)
    assert ms > 0
    ms = triton.testing.do_bench(lambda: add_kernel[(triton.cdiv(n, 1024), )](x, y, out, n, BLOCK=1024), warmup=1,
                                 rep=5)
    assert ms > 0


def test_autotuner_runs_each_config_once_on_the_emulator() -> None:
    """The autotuner's benchmarker on the emulator: one run per config, timed by the emulator's launch
    clock (so the config's compile is not in its time), then the chosen config runs the call itself; the
    result is the kernel's, whichever config won."""
    runs: Dict[int, int] = {}

    def counter(block: int) -> Any:
        def hook(nargs: Dict[str, Any]) -> None:
            runs[block] = runs.get(block, 0) + 1
        return hook

    blocks = (128, 256, 1024)
    tuned = triton.autotune(configs=[triton.Config({"BLOCK": b}, num_warps=4, pre_hook=counter(b)) for b in blocks],
                            key=["n"])(add_kernel)
    n = 3000
    x, y = torch.rand(n), torch.rand(n)
    out = torch.full_like(x, float("nan"))
    with pytest.warns(UserWarning, match="measure the emulator"):
        tuned[lambda meta: (triton.cdiv(n, meta["BLOCK"]), )](x, y, out, n)
    torch.testing.assert_close(out, x + y)
    best = tuned.best_config.kwargs["BLOCK"]
    assert runs == {b: 1 + (b == best) for b in blocks}
    bench = triton.runtime.driver.active.get_benchmarker()
    # A fresh kernel: its first call compiles (tens of milliseconds at least), the launch alone is timed.
    fresh = triton.jit(add_kernel.fn)
    start = time.perf_counter()
    with pytest.warns(UserWarning, match="measure the emulator"):
        ms = bench(lambda: fresh[(triton.cdiv(n, 1024), )](x, y, out, n, BLOCK=1024))
    wall_ms = (time.perf_counter() - start) * 1e3
    assert 0 < ms and ms * 10 < wall_ms
    # Nothing launched on the emulator: a second call is timed instead.
    with pytest.warns(UserWarning, match="measure the emulator"):
        assert len(bench(lambda: None, quantiles=(0.5, 0.2, 0.8))) == 3


def test_current_target_is_the_emulated_arch() -> None:
    target = triton.runtime.driver.active.get_current_target()
    expected = os.environ.get("TRITON_MUSA_ARCH", "mp_31")
    assert (target.backend, target.arch) == ("musa", expected)
    assert target.warp_size == (32 if expected == "mp_31" else 128)
    assert triton.runtime.driver.active.get_active_torch_device() == torch.device("cpu")


@triton.jit
def masked_divide_kernel(a_ptr, b_ptr, q_ptr, r_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=0)
    b = tl.load(b_ptr + offs, mask=mask, other=0)  # masked lanes divide by 0, as on a GPU
    tl.store(q_ptr + offs, a // b, mask=mask)
    tl.store(r_ptr + offs, a % b, mask=mask)


@pytest.mark.parametrize("arch", ARCHS)
def test_masked_lanes_may_divide_by_zero(arch: str) -> None:
    n = 1000
    a = torch.randint(-1000, 1000, (n, ), dtype=torch.int32)
    b = torch.randint(1, 50, (n, ), dtype=torch.int32) * torch.where(torch.rand(n) < 0.5, 1, -1).int()
    q, r = torch.zeros(n, dtype=torch.int32), torch.zeros(n, dtype=torch.int32)
    kernel = compile_for(masked_divide_kernel, arch, {"a_ptr": "*i32", "b_ptr": "*i32", "q_ptr": "*i32",
                                                      "r_ptr": "*i32", "n": "i32"}, {"BLOCK": 256})
    kernel[(triton.cdiv(n, 256), 1, 1)](a, b, q, r, n, 256)
    # Triton's integer division and remainder truncate toward zero (C semantics).
    torch.testing.assert_close(q, torch.div(a, b, rounding_mode="trunc"))
    torch.testing.assert_close(r, a - b * torch.div(a, b, rounding_mode="trunc"))


@triton.jit
def _through_shared_memory(x_ptr, out_ptr, ROWS: tl.constexpr, COLS: tl.constexpr):
    rows = tl.arange(0, ROWS)[:, None]
    cols = tl.arange(0, COLS)[None, :]
    x = tl.load(x_ptr + rows * COLS + cols)
    tl.store(out_ptr + cols * ROWS + rows, x + 1.0)


def test_an_arch_launched_after_another_gets_its_own_shared_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    """Triton caches the device's shared memory by device; the emulator's one device changes arch with
    TRITON_MUSA_ARCH: a kernel of mp_31 that needs more than mp_22's 72 KiB runs after one of mp_22 in the
    same process (the cache is dropped when the arch changes)."""
    from triton_musa.backend.environment import ARCH_ENV
    monkeypatch.setenv(ARCH_ENV, "mp_22")
    n = 64
    x, out = torch.randn(n), torch.empty(n)
    compile_for(add_kernel, "mp_22", {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32"},
                {"BLOCK": 128})[(1, 1, 1)](x, x, out, n, 128)
    torch.testing.assert_close(out, x + x)
    monkeypatch.setenv(ARCH_ENV, "mp_31")
    rows, cols = 128, 256  # 128 KiB of fp32 through shared memory: past mp_22's 72 KiB
    y = torch.randn(rows, cols)
    res = torch.empty(cols, rows)
    kernel = compile_for(_through_shared_memory, "mp_31", {"x_ptr": "*fp32", "out_ptr": "*fp32"},
                         {"ROWS": rows, "COLS": cols}, num_warps=4)
    assert kernel.metadata.shared > 72 * 1024, kernel.metadata.shared
    kernel[(1, 1, 1)](y, res, rows, cols)
    torch.testing.assert_close(res, y.T + 1.0)
