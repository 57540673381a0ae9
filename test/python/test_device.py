"""Kernels on a real MUSA GPU (marked ``musa_device``): skipped, with the missing part named, where
torch_musa sees no device of the capability. Each runs in a subprocess with the emulator off
(``TRITON_MUSA_EMULATOR=0``), since the suite's own process uses the emulator as its driver.
The marker's decision itself is checked here too, on stand-in device states."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from musa_device_marker import missing_device

REPO = Path(__file__).resolve().parents[2]

_PRELUDE = '''
import torch
import triton
import triton.language as tl
from triton.runtime import driver

active = driver.active
assert type(active).__name__ == "MusaDriver" and not active.emulated, f"active driver: {active!r}"
DEVICE = active.get_active_torch_device()
assert DEVICE.type == "musa", DEVICE


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) + tl.load(y_ptr + offsets, mask=mask), mask=mask)


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    m = tl.arange(0, M)[:, None]
    n = tl.arange(0, N)[None, :]
    k = tl.arange(0, K)
    a = tl.load(a_ptr + m * K + k[None, :])
    b = tl.load(b_ptr + k[:, None] * N + n)
    tl.store(c_ptr + m * N + n, tl.dot(a, b))
'''

VECTOR_ADD = _PRELUDE + '''
n = 98432
x = torch.rand(n, device=DEVICE)
y = torch.rand(n, device=DEVICE)
out = torch.empty_like(x)
add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
torch.testing.assert_close(out.cpu(), (x + y).cpu())
print("target", active.get_current_target())
'''

DO_BENCH = _PRELUDE + '''
a = torch.randn(64, 32, device=DEVICE, dtype=torch.float16)
b = torch.randn(32, 64, device=DEVICE, dtype=torch.float16)
c = torch.empty(64, 64, device=DEVICE, dtype=torch.float32)
run = lambda: matmul_kernel[(1,)](a, b, c, 64, 64, 32, num_warps=4)
run()
torch.testing.assert_close(c.cpu(), a.float().cpu() @ b.float().cpu(), atol=1e-2, rtol=1e-2)
for ms in (triton.testing.do_bench(run, device_type="musa"), triton.musa_testing.do_bench(run)):
    assert 0 < ms < 1000, ms
print("ms", ms)
'''


def run_on_device(script: str, tmp_path: Path) -> str:
    env = dict(os.environ, TRITON_MUSA_EMULATOR="0", TRITON_CACHE_DIR=str(tmp_path / "cache"))
    path = tmp_path / "on_device.py"  # @triton.jit reads the kernel's source from its file
    path.write_text(script)
    proc = subprocess.run([sys.executable, str(path)], env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


@pytest.mark.musa_device(min_capability=(2, 2))
def test_vector_add_on_the_device(tmp_path: Path) -> None:
    assert "target GPUTarget(backend='musa'" in run_on_device(VECTOR_ADD, tmp_path)


@pytest.mark.musa_device(min_capability=(3, 1))
def test_do_bench_of_a_matmul_on_the_device(tmp_path: Path) -> None:
    assert "ms " in run_on_device(DO_BENCH, tmp_path)


def test_marker_names_what_is_missing() -> None:
    def status(available: bool, reason: str):
        return lambda: SimpleNamespace(available=available, reason=reason)

    no_torch_musa = "torch_musa is not installed (No module named 'torch_musa'); it comes with the MUSA SDK"
    assert missing_device((3, 1), status=status(False, no_torch_musa)) == \
        f"needs a MUSA device of capability >= 3.1: {no_torch_musa}"
    qy2 = status(True, "1 MUSA device(s), device 0 has capability 2.2")
    assert missing_device((3, 1), status=qy2, capability=lambda: (2, 2)) == \
        "needs a MUSA device of capability >= 3.1: device 0 has capability 2.2"
    assert missing_device((2, 2), status=qy2, capability=lambda: (2, 2)) is None
    # Here: the real probe's reason (this machine has no MUSA device).
    reason = missing_device((2, 2))
    assert reason is None or reason.startswith("needs a MUSA device of capability >= 2.2: ")
