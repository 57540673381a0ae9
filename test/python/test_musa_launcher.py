"""The generated MUSA launcher and device utilities: C generated per signature,
compiled with gcc against our driver-API declarations (no SDK here), and run
against a stand-in libmusa that records what reaches ``muLaunchKernel``."""

from __future__ import annotations

import ctypes
import struct
import subprocess
import sysconfig
from pathlib import Path
from types import SimpleNamespace
from typing import List

import pytest

torch = pytest.importorskip("torch")

from triton_musa.backend.launcher import INCLUDE_DIR, MusaLauncher, expand_signature, make_launcher_source  # noqa: E402
from triton_musa.backend.musa_utils import SOURCE as UTILS_SOURCE  # noqa: E402

HERE = Path(__file__).resolve().parent
SIGNATURES = {
    "pointers": (["x", "y"], ["*fp32", "*i8"]),
    "ints": (["a", "b", "c", "d", "e"], ["i1", "i8", "i32", "i64", "u64"]),
    "floats": (["f", "g", "h", "k"], ["fp16", "bf16", "fp32", "fp64"]),
    "constexpr": (["x", "BLOCK"], ["*fp16", "constexpr"]),
    "descriptor": (["d", "n"], ["tensordesc<fp16[64, 32]>", "i32"]),
}


def gcc_check(source: str, tmp_path: Path, name: str) -> None:
    path = tmp_path / f"{name}.c"
    path.write_text(source)
    subprocess.run(["gcc", "-fsyntax-only", "-Wall", "-Wextra", "-Werror", "-DTRITON_MUSA_DECLARATIONS_ONLY",
                    f"-I{INCLUDE_DIR}", f"-I{sysconfig.get_paths()['include']}", str(path)], check=True)


@pytest.mark.parametrize("name", sorted(SIGNATURES))
@pytest.mark.parametrize("tme", [False, True])
def test_generated_launcher_compiles_with_gcc(name: str, tme: bool, tmp_path: Path) -> None:
    names, types = SIGNATURES[name]
    meta = [{"elem_size": 2}] if (tme and name == "descriptor") else None
    src = make_launcher_source("k", expand_signature(names, types, meta))
    assert "muLaunchKernel" in src and ("muTensorDescriptorEncode(desc" in src)
    if meta:
        assert "tm_encode_descriptor(&a0" in src
    gcc_check(src, tmp_path, name)


def test_device_utils_compile_with_gcc(tmp_path: Path) -> None:
    assert "MU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES" in UTILS_SOURCE
    gcc_check(UTILS_SOURCE, tmp_path, "utils")


@pytest.fixture(scope="module")
def stub(tmp_path_factory: pytest.TempPathFactory) -> ctypes.CDLL:
    out = tmp_path_factory.mktemp("stub") / "libmusa_stub.so"
    subprocess.run(["gcc", "-shared", "-fPIC", "-O1", "-DTRITON_MUSA_DECLARATIONS_ONLY", f"-I{INCLUDE_DIR}",
                    str(HERE / "musa_driver_stub.c"), "-o", str(out)], check=True)
    # Global, so the launcher extension (linked with no -lmusa) resolves the driver symbols to it.
    return ctypes.CDLL(str(out), mode=ctypes.RTLD_GLOBAL)


def launcher_for(names: List[str], types: List[str], tensordesc_meta=None, warps: int = 4, shared: int = 0):
    src = SimpleNamespace(signature=dict(zip(names, types)))
    metadata = SimpleNamespace(name="k", num_warps=warps, warp_size=32, shared=shared, tensordesc_meta=tensordesc_meta)
    return MusaLauncher(src, metadata, declarations_only=True, library_dirs=[], libraries=[])


def set_device_range(stub: ctypes.CDLL, *tensors) -> None:
    lo = min(t.untyped_storage().data_ptr() for t in tensors)
    hi = max(t.untyped_storage().data_ptr() + t.untyped_storage().nbytes() for t in tensors)
    ctypes.c_ulonglong.in_dll(stub, "stub_device_lo").value = lo
    ctypes.c_ulonglong.in_dll(stub, "stub_device_hi").value = hi


def expect_params(stub: ctypes.CDLL, sizes: List[int]) -> None:
    arr = (ctypes.c_size_t * 32).in_dll(stub, "stub_param_sizes")
    for i, s in enumerate(sizes):
        arr[i] = s
    ctypes.c_int.in_dll(stub, "stub_num_params").value = len(sizes)


def recorded(stub: ctypes.CDLL, nbytes: int) -> bytes:
    return bytes((ctypes.c_ubyte * 1024).in_dll(stub, "stub_params")[:nbytes])


def test_launch_passes_grid_block_stream_and_arguments(stub: ctypes.CDLL) -> None:
    x = torch.zeros(64)
    y = torch.zeros(64, dtype=torch.int8)
    launcher = launcher_for(["x", "y", "n", "s", "h", "BLOCK"], ["*fp32", "*i8", "i32", "fp32", "fp16", "constexpr"],
                            warps=8, shared=4096)
    set_device_range(stub, x, y)
    expect_params(stub, [8, 8, 4, 4, 2])
    launcher(3, 2, 1, 0xABC, 0x1234, None, None, None, None, x, y, -7, 1.5, 0.25, 128)
    assert list((ctypes.c_uint * 3).in_dll(stub, "stub_grid")) == [3, 2, 1]
    assert list((ctypes.c_uint * 3).in_dll(stub, "stub_block")) == [256, 1, 1]  # 8 warps of 32
    assert ctypes.c_uint.in_dll(stub, "stub_shared").value == 4096
    assert ctypes.c_ulonglong.in_dll(stub, "stub_stream").value == 0xABC
    assert ctypes.c_ulonglong.in_dll(stub, "stub_function").value == 0x1234
    expected = struct.pack("<QQifH", x.data_ptr(), y.data_ptr(), -7, 1.5, struct.unpack("<H", struct.pack("<e", 0.25))[0])
    assert recorded(stub, len(expected)) == expected


def test_cpu_tensor_passed_to_a_device_kernel_is_named(stub: ctypes.CDLL) -> None:
    inside, outside = torch.zeros(16), torch.zeros(16)
    launcher = launcher_for(["src", "dst"], ["*fp32", "*fp32"])
    set_device_range(stub, inside)
    expect_params(stub, [8, 8])
    with pytest.raises(ValueError, match=r"argument 1 \('dst'\) is not in MUSA device memory"):
        launcher(1, 1, 1, 0, 1, None, None, None, None, inside, outside)


def test_hooks_run_around_the_launch(stub: ctypes.CDLL) -> None:
    x = torch.zeros(4)
    launcher = launcher_for(["x"], ["*fp32"])
    set_device_range(stub, x)
    expect_params(stub, [8])
    seen: List[str] = []
    launcher(1, 1, 1, 0, 1, None, "meta", lambda m: seen.append(f"enter {m}"), lambda m: seen.append(f"exit {m}"), x)
    assert seen == ["enter meta", "exit meta"]


@pytest.mark.parametrize("tme", [False, True])
def test_tensor_descriptor_arguments(stub: ctypes.CDLL, tme: bool) -> None:
    from triton.tools.tensor_descriptor import TensorDescriptor
    base = torch.zeros(48, 64, dtype=torch.float16)
    desc = TensorDescriptor.from_tensor(base, [16, 32])
    launcher = launcher_for(["d", "n"], ["tensordesc<fp16[16, 32]>", "i32"], tensordesc_meta=[{}] if tme else None)
    set_device_range(stub, base)
    head = 64 if tme else 8
    expect_params(stub, [head, 4, 4, 8, 8, 4])
    launcher(1, 1, 1, 0, 1, None, None, None, None, desc, 5)
    tail = struct.pack("<iiqqi", 48, 64, 64, 1, 5)
    got = recorded(stub, head + len(tail))
    assert got[head:] == tail
    if tme:
        encoded = list((ctypes.c_ulonglong * 16).in_dll(stub, "stub_encoded"))
        # rank 2, innermost dimension first, strides in bytes for the outer dimensions only
        assert encoded[1:5] == [2, base.data_ptr(), 64, 48]
        assert encoded[8] == 64 * 2
        assert struct.unpack("<Q", got[:8])[0] == base.data_ptr() and got[8:16] == b"\xa5" * 8
    else:
        assert struct.unpack("<Q", got[:8])[0] == base.data_ptr()
