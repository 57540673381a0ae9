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
import triton.language as tl  # noqa: E402

from triton_musa.backend.launcher import (INCLUDE_DIR, MusaLauncher, expand_arguments, expand_signature,  # noqa: E402
                                          make_launcher_source)
from triton_musa.backend.musa_utils import SOURCE as UTILS_SOURCE  # noqa: E402

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
def stub(musa_driver_stub: ctypes.CDLL) -> ctypes.CDLL:
    # Global (conftest), so the launcher extension (linked with no -lmusa) resolves the driver symbols to it.
    return musa_driver_stub


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


# ---------------------------------------------------------------------------------------------------------------
# TME descriptors: what reaches muTensorDescriptorEncode and the kernel parameters, against the tensor itself

DESC_SIGNATURES = {
    # (argument names, types, which descriptors the host encodes)
    "rank1_u8": (["d"], ["tensordesc<u8[64]>"], [True]),
    "rank3_fp32": (["d", "n"], ["tensordesc<fp32[2, 8, 16]>", "i32"], [True]),
    "rank5_bf16": (["d"], ["tensordesc<bf16[1, 1, 2, 8, 32]>"], [True]),
    "mixed": (["a", "x", "b"], ["tensordesc<fp16[16, 32]>", "*fp32", "tensordesc<fp8e4nv[32, 64]>"], [True, False]),
}


@pytest.mark.parametrize("name", sorted(DESC_SIGNATURES))
def test_descriptor_launchers_compile_with_gcc(name: str, tmp_path: Path) -> None:
    """Every rank and element size, encoded and base-address descriptors side by side."""
    names, types, encoded = DESC_SIGNATURES[name]
    meta = [{"encoding": "MUtensorDescriptor"} if e else None for e in encoded]
    src = make_launcher_source("k", expand_signature(names, types, meta))
    assert src.count("_Alignas(64) MUtensorDescriptor a") == sum(encoded)
    gcc_check(src, tmp_path, name)


def encode_case(tensor, block):
    """(TensorDescriptor, the 64-byte-then-sizes-then-strides bytes the kernel must receive (the descriptor
    part as the stub fills it), what muTensorDescriptorEncode must be called with)."""
    from triton.tools.tensor_descriptor import TensorDescriptor
    desc = TensorDescriptor.from_tensor(tensor, block)
    rank, elem = tensor.dim(), tensor.element_size()
    dims = list(reversed(tensor.shape))  # innermost first
    strides = [s * elem for s in reversed(tensor.stride()[:-1])]  # bytes, outer dimensions
    type_code = {1: 0, 2: 1, 4: 2}[elem]
    encoded = [type_code, rank, tensor.data_ptr()] + dims + [0] * (5 - rank) + strides + [0] * (4 - len(strides))
    tail = struct.pack(f"<{rank}i{rank}q", *tensor.shape, *tensor.stride())
    return desc, encoded, tail


@pytest.mark.parametrize("case", ["dense2d", "sliced_rows", "permuted3d", "int8_1d", "fp32_5d"])
def test_encode_arguments_match_the_tensor(stub: ctypes.CDLL, case: str) -> None:
    """muTensorDescriptorEncode receives the element-size type, the rank, the base, the dims innermost first
    and the outer strides in bytes of the tensor actually passed (sliced and permuted views keep their real
    strides); the kernel receives the 64-byte descriptor at a 64-byte-aligned address, then the i32 sizes
    and the i64 strides in elements."""
    storage = torch.zeros(4096, dtype=torch.float32)
    if case == "dense2d":
        t, block, ty = torch.zeros(48, 64, dtype=torch.float16), [16, 32], "fp16"
    elif case == "sliced_rows":
        t, block, ty = torch.zeros(40, 96, dtype=torch.float16)[3:35, 8:72], [16, 32], "fp16"
    elif case == "permuted3d":
        t, block, ty = torch.zeros(8, 6, 32, dtype=torch.float32).permute(1, 0, 2)[1:5], [2, 4, 16], "fp32"
    elif case == "int8_1d":
        t, block, ty = torch.zeros(256, dtype=torch.int8)[16:208], [64], "i8"
    else:
        t, block, ty = storage[:2 * 3 * 4 * 5 * 8].view(2, 3, 4, 5, 8), [1, 1, 2, 4, 8], "fp32"
    if t.data_ptr() % 16:
        pytest.fail(f"{case}: the test's view must start 16-byte aligned")
    desc, encoded, tail = encode_case(t, block)
    rank = t.dim()
    sig = f"tensordesc<{ty}[{', '.join(map(str, block))}]>"
    launcher = launcher_for(["d", "n"], [sig, "i32"], tensordesc_meta=[{"encoding": "MUtensorDescriptor"}])
    set_device_range(stub, t, storage)
    expect_params(stub, [64] + [4] * rank + [8] * rank + [4])
    calls = ctypes.c_int.in_dll(stub, "stub_encode_calls").value
    launcher(1, 1, 1, 0, 1, None, None, None, None, desc, 9)
    assert ctypes.c_int.in_dll(stub, "stub_encode_calls").value == calls + 1
    got_encoded = list((ctypes.c_ulonglong * 16).in_dll(stub, "stub_encoded"))
    assert got_encoded[:12] == encoded
    assert got_encoded[12:15] == [0, 0, 0]  # INTERLEAVE_NONE, zero fill, a 64-byte-aligned descriptor
    got = recorded(stub, 64 + len(tail) + 4)
    assert struct.unpack("<Q", got[:8])[0] == t.data_ptr() and got[8:64] == b"\xa5" * 56
    assert got[64:] == tail + struct.pack("<i", 9)
    assert (ctypes.c_int * 32).in_dll(stub, "stub_param_aligned64")[0] == 1


def test_base_address_and_encoded_descriptors_side_by_side(stub: ctypes.CDLL) -> None:
    """tensordesc_meta None keeps the base address (a kernel whose descriptor stays without TME)."""
    a = torch.zeros(32, 64, dtype=torch.float16)
    b = torch.zeros(64, 32, dtype=torch.float16)
    da, enc_a, tail_a = encode_case(a, [16, 32])
    db, _, tail_b = encode_case(b, [16, 32])
    launcher = launcher_for(["a", "b"], ["tensordesc<fp16[16, 32]>", "tensordesc<fp16[16, 32]>"],
                            tensordesc_meta=[{"encoding": "MUtensorDescriptor"}, None])
    set_device_range(stub, a, b)
    expect_params(stub, [64, 4, 4, 8, 8, 8, 4, 4, 8, 8])
    launcher(1, 1, 1, 0, 1, None, None, None, None, da, db)
    assert list((ctypes.c_ulonglong * 16).in_dll(stub, "stub_encoded"))[:12] == enc_a
    got = recorded(stub, 64 + 24 + 8 + 24)
    assert got[64:88] == tail_a
    assert struct.unpack("<Q", got[88:96])[0] == b.data_ptr() and got[96:] == tail_b


def test_unsupported_descriptors_are_reported(stub: ctypes.CDLL) -> None:
    """8-byte elements (no TME data type) and NaN padding (not encodable) are errors naming the argument."""
    from triton.tools.tensor_descriptor import TensorDescriptor
    x = torch.zeros(16, 16, dtype=torch.float64)
    set_device_range(stub, x)
    expect_params(stub, [64, 4, 4, 8, 8])
    launcher = launcher_for(["d"], ["tensordesc<fp64[8, 8]>"], tensordesc_meta=[{"encoding": "MUtensorDescriptor"}])
    with pytest.raises(ValueError, match=r"descriptor 'd' has 8-byte elements"):
        launcher(1, 1, 1, 0, 1, None, None, None, None, TensorDescriptor.from_tensor(x, [8, 8]))
    h = torch.zeros(16, 16, dtype=torch.float16)
    set_device_range(stub, h)
    launcher = launcher_for(["d"], ["tensordesc<fp16[8, 16]>"], tensordesc_meta=[{"encoding": "MUtensorDescriptor"}])
    with pytest.raises(ValueError, match=r"padding 'nan'; MUSA TME descriptors pad .* with zero only"):
        launcher(1, 1, 1, 0, 1, None, None, None, None, TensorDescriptor.from_tensor(h, [8, 16], padding="nan"))


def _desc_matmul(a_desc, b_desc, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    m = tl.program_id(0) * BM
    n = tl.program_id(1) * BN
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        acc = tl.dot(a_desc.load([m, k]), b_desc.load([k, n]), acc)
    rm = m + tl.arange(0, BM)[:, None]
    rn = n + tl.arange(0, BN)[None, :]
    tl.store(c_ptr + rm * BN + rn, acc)


def test_device_kernel_takes_encoded_descriptors(stub: ctypes.CDLL) -> None:
    """End to end for the GPU, up to LLVM IR (no SDK here): the K loop's descriptors go through TME, the
    kernel takes them as grid-constant byval parameters (LLVM 14 IR), the compile metadata asks the launcher
    to encode both, and the launcher built from it hands the driver the tensors' real geometry."""
    import triton
    import llvm14_ir
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    from triton.tools.tensor_descriptor import TensorDescriptor
    from triton_musa.backend.compiler import compile_to_ttgir, tensordesc_meta
    from triton_musa.backend.lowering import lower_to_llir
    from triton_musa.backend.target import parse_arch
    names = ["a_desc", "b_desc", "c_ptr", "K"]
    types = ["tensordesc<fp16[32, 32]>", "tensordesc<fp16[32, 32]>", "*fp32", "i32"]
    src = ASTSource(triton.jit(_desc_matmul), signature=dict(zip(names + ["BM", "BN", "BK"], types + ["constexpr"] * 3)),
                    constexprs=dict(BM=32, BN=32, BK=32))
    ttgir = compile_to_ttgir(src, GPUTarget("musa", "mp_31", 32), dict(num_warps=4, num_stages=3))["ttgir"]
    lowered = lower_to_llir(ttgir, parse_arch("mp_31"), num_stages=3)
    assert lowered.tme_descriptor_args == (1, 1)
    llir = lowered.llir
    assert llir.count("ptr byval([64 x i8]) align 64") == 2
    assert llir.count("call void @llvm.musa.tme.ld.tile.2d(") >= 2 and "@llvm.musa.async.wait(" in llir
    assert '!"grid_constant"' in llir
    assert llvm14_ir.problems(llir) == []
    meta = tensordesc_meta(lowered.tme_descriptor_args)
    assert meta == [{"encoding": "MUtensorDescriptor"}] * 2

    a = torch.zeros(64, 96, dtype=torch.float16)
    b = torch.zeros(96, 32, dtype=torch.float16)
    c = torch.zeros(64, 32)
    _, _, tail_b = encode_case(b, [32, 32])
    _, enc_b, _ = encode_case(b, [32, 32])
    launcher = launcher_for(names + ["BM", "BN", "BK"], types + ["constexpr"] * 3, tensordesc_meta=meta)
    set_device_range(stub, a, b, c)
    expect_params(stub, [64, 4, 4, 8, 8, 64, 4, 4, 8, 8, 8, 4])
    calls = ctypes.c_int.in_dll(stub, "stub_encode_calls").value
    launcher(2, 1, 1, 0, 1, None, None, None, None, TensorDescriptor.from_tensor(a, [32, 32]),
             TensorDescriptor.from_tensor(b, [32, 32]), c, 96, 32, 32, 32)
    assert ctypes.c_int.in_dll(stub, "stub_encode_calls").value == calls + 2
    assert list((ctypes.c_ulonglong * 16).in_dll(stub, "stub_encoded"))[:12] == enc_b  # the last one encoded
    got = recorded(stub, 64 + 24 + 64 + 24 + 8 + 4)
    assert got[64 + 24 + 64:64 + 24 + 64 + 24] == tail_b
    assert struct.unpack("<Qi", got[-12:]) == (c.data_ptr(), 96)


def test_descriptor_arguments_are_checked_as_the_emulator_checks_them() -> None:
    """The device launcher flattens a TensorDescriptor through launch_signature, as the emulator's does: its
    base, sizes and strides; another rank or another object is a TypeError naming the argument (it used to
    pass whatever sizes it had, shifting every parameter after it)."""
    desc = SimpleNamespace(base=0x1000, shape=[64, 32], strides=[32, 1])
    assert expand_arguments(["tensordesc<fp16[16, 16]>", "i32"], [desc, 7]) == [0x1000, 64, 32, 32, 1, 7]
    with pytest.raises(TypeError, match=r"argument '#0': a rank-2 descriptor has shape \[2, 64, 32\]"):
        expand_arguments(["tensordesc<fp16[16, 16]>"], [SimpleNamespace(base=0, shape=[2, 64, 32],
                                                                         strides=[2048, 32, 1])])
    with pytest.raises(TypeError, match=r"argument 'a_desc' must be a TensorDescriptor, got int"):
        expand_arguments(["tensordesc<fp16[16, 16]>"], [5], ["a_desc"])
