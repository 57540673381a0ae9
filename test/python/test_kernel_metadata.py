"""What common Triton code reads of a compiled kernel and of ``driver.active.utils``: on the emulator,
``n_regs``/``n_spills`` and the device properties as the README documents them, and the fused-softmax
occupancy pattern of Triton's tutorial 02 run unchanged on both archs; on the device path, the numbers
``load_binary`` reads from the loaded function (``muFuncGetAttribute``), against a stand-in libmusa
and, where there is one, a real MUSA device (marked ``musa_device``); the CUDA-only utilities and the
properties a device lacks are refused with a message."""

from __future__ import annotations

import ctypes
import os
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.runtime import driver  # noqa: E402

from triton_musa.backend.emulator import emulator_active  # noqa: E402

emulator_only = pytest.mark.skipif(not emulator_active(), reason="a MUSA device or another GPU driver is active "
                                   "here; the emulator runs where none is (or with TRITON_MUSA_EMULATOR=1)")


def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols,
                   BLOCK_SIZE: tl.constexpr, num_stages: tl.constexpr):
    # Triton's tutorial 02 (fused softmax), unchanged.
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages):
        row_start_ptr = input_ptr + row_idx * input_row_stride
        col_offsets = tl.arange(0, BLOCK_SIZE)
        input_ptrs = row_start_ptr + col_offsets
        mask = col_offsets < n_cols
        row = tl.load(input_ptrs, mask=mask, other=-float('inf'))
        row_minus_max = row - tl.max(row, axis=0)
        numerator = tl.exp(row_minus_max)
        denominator = tl.sum(numerator, axis=0)
        softmax_output = numerator / denominator
        output_row_start_ptr = output_ptr + row_idx * output_row_stride
        output_ptrs = output_row_start_ptr + col_offsets
        tl.store(output_ptrs, softmax_output, mask=mask)


def tutorial_softmax(x: torch.Tensor, softmax_kernel) -> tuple:
    """The tutorial's host code, unchanged but for taking the kernel (a fresh JITFunction per test: one fixes
    its target on its first launch, so a fresh one follows TRITON_MUSA_ARCH) and returning the grid it chose."""
    DEVICE = triton.runtime.driver.active.get_active_torch_device()
    properties = driver.active.utils.get_device_properties(DEVICE.index)
    NUM_SM = properties["multiprocessor_count"]
    NUM_REGS = properties["max_num_regs"]
    SIZE_SMEM = properties["max_shared_mem"]
    WARP_SIZE = properties["warpSize"]

    n_rows, n_cols = x.shape
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    num_warps = 8
    num_stages = 4 if SIZE_SMEM > 200000 else 2
    y = torch.empty_like(x)
    kernel = softmax_kernel.warmup(y, x, x.stride(0), y.stride(0), n_rows, n_cols, BLOCK_SIZE=BLOCK_SIZE,
                                   num_stages=num_stages, num_warps=num_warps, grid=(1, ))
    kernel._init_handles()
    n_regs = kernel.n_regs
    size_smem = kernel.metadata.shared
    occupancy = NUM_REGS // (n_regs * WARP_SIZE * num_warps)
    occupancy = min(occupancy, SIZE_SMEM // size_smem)
    num_programs = NUM_SM * occupancy
    num_programs = min(num_programs, n_rows)
    kernel[(num_programs, 1, 1)](y, x, x.stride(0), y.stride(0), n_rows, n_cols, BLOCK_SIZE, num_stages)
    return y, num_programs, kernel


@emulator_only
def test_fused_softmax_occupancy_pattern(arch: str) -> None:
    torch.manual_seed(0)
    x = torch.randn(97, 781)
    y, num_programs, kernel = tutorial_softmax(x, triton.jit(softmax_kernel))
    torch.testing.assert_close(y, torch.softmax(x, dim=1))
    assert kernel.metadata.target.arch == arch
    properties = driver.active.utils.get_device_properties(0)
    assert properties["warpSize"] == driver.active.get_current_target().warp_size == kernel.metadata.target.warp_size
    # One block per emulated multiprocessor (a worker runs one block at a time), at least one program.
    assert num_programs == min(properties["multiprocessor_count"], x.shape[0]) >= 1
    assert kernel.n_spills == 0 and kernel.n_max_threads == 1024


@emulator_only
def test_emulated_device_properties_follow_the_arch(arch: str) -> None:
    from triton_musa.backend.environment import emulated_arch, emulator_threads
    properties = driver.active.utils.get_device_properties(None)  # torch.device("cpu").index
    assert properties == driver.active.utils.get_device_properties(0)
    # The driver's current device is torch's name for the CPU's current device.
    assert driver.active.get_current_device() == torch.cpu.current_device() == "cpu"
    assert properties == driver.active.utils.get_device_properties(driver.active.get_current_device())
    assert properties["warpSize"] == emulated_arch().warp_size == (32 if arch == "mp_31" else 128)
    assert properties["max_shared_mem"] == emulated_arch().max_shared_memory_bytes
    assert properties["multiprocessor_count"] == (emulator_threads() or os.cpu_count())
    assert properties["max_num_regs"] == 65536
    with pytest.raises(KeyError, match="'mem_clock_rate': the MUSA CPU emulator .* has no clocks"):
        triton.testing.get_dram_gbps()
    with pytest.raises(KeyError, match="'arch': the MUSA CPU emulator .* it is not one of them"):
        properties["arch"]
    with pytest.raises(ValueError, match="one device, 'cpu' \\(or 0\\); got 1"):
        driver.active.utils.get_device_properties(1)


@emulator_only
@pytest.mark.parametrize("num_warps", [1, 4, 8])
def test_emulated_n_regs_give_one_block_per_multiprocessor(arch: str, num_warps: int) -> None:
    y, x = torch.empty(4, 16), torch.randn(4, 16)
    kernel = triton.jit(softmax_kernel).warmup(y, x, 16, 16, 4, 16, BLOCK_SIZE=16, num_stages=1, num_warps=num_warps,
                                               grid=(1, ))
    kernel._init_handles()
    properties = driver.active.utils.get_device_properties(0)
    threads = num_warps * properties["warpSize"]
    assert kernel.n_regs == properties["max_num_regs"] // threads
    assert properties["max_num_regs"] // (kernel.n_regs * threads) == 1


@emulator_only
def test_cuda_only_utils_are_refused_clearly() -> None:
    utils = driver.active.utils
    with pytest.raises(AttributeError, match="cuOccupancyMaxActiveClusters is a CUDA driver utility .* clusters"):
        utils.cuOccupancyMaxActiveClusters(None, 0, 0)
    with pytest.raises(AttributeError, match="fill_tma_descriptor is a CUDA driver utility .*from_tensor"):
        utils.fill_tma_descriptor
    with pytest.raises(AttributeError, match="has no attribute 'no_such_util'"):
        utils.no_such_util
    utils.set_printf_fifo_size(1 << 20)  # the emulator prints unbuffered: nothing to size
    with pytest.raises(ValueError, match="must be positive"):
        utils.set_printf_fifo_size(0)


# The device path, against a stand-in libmusa (test/python/musa_driver_stub.c).
_FUNC = {"MAX_THREADS_PER_BLOCK": 0, "SHARED_SIZE_BYTES": 1, "LOCAL_SIZE_BYTES": 3, "NUM_REGS": 4}
_DEVICE = {"MAX_SHARED_MEMORY_PER_BLOCK": 8, "WARP_SIZE": 10, "MAX_REGISTERS_PER_BLOCK": 12, "CLOCK_RATE": 13,
           "MULTIPROCESSOR_COUNT": 16, "MEMORY_CLOCK_RATE": 36, "GLOBAL_MEMORY_BUS_WIDTH": 37, "L2_CACHE_SIZE": 38,
           "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN": 97}


@pytest.fixture(scope="module")
def stub_utils(musa_driver_stub: ctypes.CDLL):
    from triton_musa.backend.musa_utils import MusaUtils
    return musa_driver_stub, MusaUtils(declarations_only=True, library_dirs=[], libraries=[])


def _set(stub: ctypes.CDLL, table: str, values: dict, numbers: dict) -> None:
    array = (ctypes.c_int * (16 if table == "stub_func_attrs" else 128)).in_dll(stub, table)
    for name, value in values.items():
        array[numbers[name]] = value


def test_device_load_binary_reads_the_loaded_function(stub_utils) -> None:
    stub, utils = stub_utils
    _set(stub, "stub_func_attrs", {"NUM_REGS": 96, "LOCAL_SIZE_BYTES": 40, "MAX_THREADS_PER_BLOCK": 512,
                                   "SHARED_SIZE_BYTES": 1024}, _FUNC)
    _set(stub, "stub_device_attrs", {"MAX_SHARED_MEMORY_PER_BLOCK": 49152, "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN": 65536},
         _DEVICE)
    module, function, n_regs, n_spills, max_threads = utils.load_binary("k", b"\x7fELF", 4096, 0)
    assert (n_regs, n_spills, max_threads) == (96, 10, 512)  # spills: local bytes / 4, as Triton counts them
    assert utils.loaded_function(function).static_shared == 1024
    # Static and dynamic shared memory together past the static limit: the kernel opts in.
    module, function, *_ = utils.load_binary("k", b"\x7fELF", 49152 - 512, 0)
    assert ctypes.c_int.in_dll(stub, "stub_dynamic_shared").value == 49152 - 512
    with pytest.raises(RuntimeError, match=r"needs 65537 bytes of shared memory \(1024 static in the mubin, 64513 "
                       r"dynamic\) but device 0 allows at most 65536"):
        utils.load_binary("k", b"\x7fELF", 65536 - 1023, 0)


def test_device_properties_name_what_they_lack(stub_utils) -> None:
    stub, utils = stub_utils
    _set(stub, "stub_device_attrs", {"MULTIPROCESSOR_COUNT": 48, "MAX_REGISTERS_PER_BLOCK": 65536, "WARP_SIZE": 32,
                                     "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN": 196608}, _DEVICE)
    properties = utils.get_device_properties(0)
    assert (properties["multiprocessor_count"], properties["max_num_regs"], properties["warpSize"],
            properties["max_shared_mem"]) == (48, 65536, 32, 196608)
    with pytest.raises(KeyError, match="'arch': MUSA device 0 has the properties .*max_num_regs"):
        properties["arch"]
    with pytest.raises(NotImplementedError, match="set_printf_fifo_size is not supported on MUSA devices"):
        utils.set_printf_fifo_size(1 << 20)
    with pytest.raises(AttributeError, match="cuOccupancyMaxActiveClusters is a CUDA driver utility"):
        utils.cuOccupancyMaxActiveClusters


ON_DEVICE = '''
import torch
import triton
import triton.language as tl
from triton.runtime import driver

active = driver.active
assert type(active).__name__ == "MusaDriver" and not active.emulated, f"active driver: {active!r}"
DEVICE = active.get_active_torch_device()


def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols,
                   BLOCK_SIZE: tl.constexpr, num_stages: tl.constexpr):
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages):
        col_offsets = tl.arange(0, BLOCK_SIZE)
        mask = col_offsets < n_cols
        row = tl.load(input_ptr + row_idx * input_row_stride + col_offsets, mask=mask, other=-float('inf'))
        numerator = tl.exp(row - tl.max(row, axis=0))
        tl.store(output_ptr + row_idx * output_row_stride + col_offsets, numerator / tl.sum(numerator, axis=0),
                 mask=mask)


properties = active.utils.get_device_properties(DEVICE.index)
x = torch.randn(1823, 781, device=DEVICE)
y = torch.empty_like(x)
kernel = softmax_kernel.warmup(y, x, x.stride(0), y.stride(0), 1823, 781, BLOCK_SIZE=1024, num_stages=2,
                               num_warps=8, grid=(1, ))
kernel._init_handles()
loaded = active.utils.loaded_function(kernel.function)
assert 0 < kernel.n_regs <= 255 and kernel.n_spills >= 0, (kernel.n_regs, kernel.n_spills)
assert (kernel.n_regs, kernel.n_spills, kernel.n_max_threads) == (loaded.n_regs, loaded.n_spills, loaded.max_threads)
assert loaded.static_shared + kernel.metadata.shared <= properties["max_shared_mem"]
occupancy = properties["max_num_regs"] // (kernel.n_regs * properties["warpSize"] * 8)
assert occupancy >= 1, (properties, kernel.n_regs)
num_programs = min(properties["multiprocessor_count"] * occupancy, 1823)
kernel[(num_programs, 1, 1)](y, x, x.stride(0), y.stride(0), 1823, 781, 1024, 2)
torch.testing.assert_close(y.cpu(), torch.softmax(x.cpu(), dim=1))
print("n_regs", kernel.n_regs, "n_spills", kernel.n_spills, "static shared", loaded.static_shared)
'''


@pytest.mark.musa_device(min_capability=(2, 2))
def test_device_metadata_comes_from_the_loaded_function(tmp_path: Path) -> None:
    from test_device import run_on_device
    assert "n_regs " in run_on_device(ON_DEVICE, tmp_path)
