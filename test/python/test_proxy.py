"""The GPU proxy's compile side (no GPU needed): GPUTarget("musa", "proxy_sm90", 32) gives the
TTGIR of mp_31, NVVM below the target interface, PTX from LLVM's NVPTX backend and a cubin that
the wheel's ptxas accepts. The device run is bench/proxy_gpu.py (README, "GPU proxy")."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest
import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource
from triton.language.extra import libdevice
from triton.language.extra.musa import libdevice as mt_libdevice  # Moore Threads' name (fast_tanh, fast_gelu)

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import proxy_kernels  # noqa: E402

PROXY = GPUTarget("musa", "proxy_sm90", 32)
MP31 = GPUTarget("musa", "mp_31", 32)


def compile_case(case: proxy_kernels.Case, target: GPUTarget = PROXY) -> Any:
    return triton.compile(case.source(), target=target, options=case.options())


def case(name: str) -> proxy_kernels.Case:
    return next(c for c in proxy_kernels.cases() if c.name == name)


def test_vector_add_ptx_and_cubin() -> None:
    kernel = compile_case(case("vector_add"))
    ptx = kernel.asm["ptx"]
    assert ".target sm_90" in ptx
    assert ".visible .entry add_kernel(" in ptx
    assert re.search(r"\.maxntid 128\b", ptx)
    # 1024 elements over 128 threads, 16-byte aligned: two 128-bit loads per operand and thread.
    assert len(re.findall(r"ld\.global(\.nc)?\.v4\.[bf]32", ptx)) == 4
    assert len(re.findall(r"st\.global\.v4\.[bf]32", ptx)) == 2
    assert kernel.asm["cubin"][:4] == b"\x7fELF"
    assert kernel.metadata.shared == 0 and kernel.metadata.num_warps == 4
    assert "ptx_kernel" in kernel.asm["llir"] and "nvptx64-nvidia-cuda" in kernel.asm["llir"]


@pytest.mark.parametrize("name", ["softmax", "transpose", "cumsum_i32"])
def test_same_ttgir_as_mp31(name: str) -> None:
    """Above the target interface the proxy is mp_31: the TTGIR is the same text."""
    c = case(name)
    ttgir = compile_case(c).asm["ttgir"]
    assert ttgir == compile_case(c, MP31).asm["ttgir"]
    assert 'ttg.target = "musa:mp_31"' in ttgir and '"ttg.threads-per-warp" = 32' in ttgir


def test_transpose_goes_through_shared_memory_with_barriers() -> None:
    kernel = compile_case(case("transpose"))
    ptx = kernel.asm["ptx"]
    assert kernel.metadata.shared > 0
    assert ".extern .shared .align 16 .b8 global_smem[]" in ptx
    assert "st.shared" in ptx and "ld.shared" in ptx
    assert "bar.sync \t0" in ptx or "bar.sync 0" in ptx or "barrier.sync.aligned \t0" in ptx \
        or "barrier.sync.aligned 0" in ptx
    # Shared pointers are 32-bit as on MUSA (p3:32): addresses in %r registers, no 64-bit adds.
    assert "p3:32:32" in kernel.asm["llir"]
    assert re.search(r"st\.shared\.b32 \t\[%r\d+", ptx) and not re.search(r"st\.shared\.\S+ \t\[%rd", ptx)


def test_reductions_shuffle_and_atomics() -> None:
    ptx = compile_case(case("softmax")).asm["ptx"]
    assert "shfl.sync.bfly.b32" in ptx
    ptx = compile_case(case("atomic_sum_i32")).asm["ptx"]
    assert "atom.global.add.u32" in ptx or "red.global.add.u32" in ptx or "atom.global.add.s32" in ptx \
        or "red.global.add.s32" in ptx or "atom.add" in ptx or "red.add" in ptx


@triton.jit
def math_kernel(x_ptr, y_ptr, out_ptr, d_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    d = tl.load(d_ptr + offs)
    r = libdevice.tanh(x) + libdevice.pow(x, y) + libdevice.fast_expf(x) + tl.math.erf(y) + mt_libdevice.fast_tanh(y)
    r += libdevice.isnan(x).to(tl.float32) + libdevice.div_rn(d, d + 1.0).to(tl.float32)
    r += libdevice.rsqrt(y)  # llvm.musa.rsq on the device
    tl.store(out_ptr + offs, r)


@triton.jit
def gelu_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, mt_libdevice.fast_gelu(tl.load(x_ptr + offs)))


def test_libdevice_function_without_nv_counterpart_is_a_named_error() -> None:
    """MT's fast_gelu (__mt_tt_gelu_f32) has no libdevice.10.bc function: the proxy says so."""
    src = ASTSource(gelu_kernel, {"x_ptr": "*fp32", "BLOCK": "constexpr"}, {"BLOCK": 128})
    with pytest.raises(Exception, match="no libdevice.10.bc counterpart of __mt_tt_gelu_f32"):
        triton.compile(src, target=PROXY)


def test_libdevice_maps_onto_nv_libdevice() -> None:
    """__mt_* calls become libdevice.10.bc's __nv_* functions, linked and inlined: ptxas gets no call."""
    src = ASTSource(math_kernel, {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "d_ptr": "*fp64",
                                  "BLOCK": "constexpr"}, {"BLOCK": 256})
    kernel = triton.compile(src, target=PROXY)
    llir = kernel.asm["llir"]
    assert "__mt_" not in llir and "llvm.musa." not in llir and "__nv_" not in kernel.asm["ptx"]
    assert "call" not in kernel.asm["ptx"].split(".entry")[1]
    assert kernel.asm["cubin"][:4] == b"\x7fELF"


@pytest.mark.parametrize("name", [c.name for c in proxy_kernels.cases()])
def test_bundle_case_compiles(name: str) -> None:
    """Every kernel of the GPU run compiles to a cubin (the build step of bench/proxy_gpu.py)."""
    kernel = compile_case(case(name))
    assert kernel.asm["cubin"][:4] == b"\x7fELF"
    assert f".entry {kernel.metadata.name}(" in kernel.asm["ptx"]


def test_proxy_refuses_128_lane_archs() -> None:
    from triton_musa import _musa_mlir
    from triton_musa.backend.lowering import parse_ttgir, run_passes
    ttgir = compile_case(case("vector_add"), MP31).asm["ttgir"].replace("musa:mp_31", "musa:mp_22")
    module = parse_ttgir(ttgir)
    with pytest.raises(_musa_mlir.MLIRError, match="target=proxy runs on 32-lane NVIDIA warps; mp_22"):
        run_passes(module, "builtin.module(convert-tritongpu-to-musa{target=proxy})")


def _after_matrix_passes(ttgir: str, target: str, num_stages: int) -> str:
    """The TTGIR after our matrix passes for ``target``, printed without aliases."""
    from triton_musa.backend import lowering
    module = lowering.parse_ttgir(ttgir)
    lowering.run_passes(module, f"builtin.module({lowering.matrix_passes(target, num_stages=num_stages)})")
    return module.operation.get_asm(use_local_scope=True)


def _without_matrix_encodings(ttgir: str) -> str:
    """``ttgir`` with what may differ between the proxy's rows and mp_31's blanked: the operand swizzles
    (#musagpu.tme_shared parameters), buffer alignments (the swizzle periods) and the accumulator's
    fragment."""
    ttgir = re.sub(r"#musagpu\.tme_shared<\{[^}]*\}>", "#musagpu.tme_shared<..>", ttgir)
    ttgir = re.sub(r"alignment = \d+ : i32", "alignment = ..", ttgir)
    return ttgir.replace(", fragment = wgmma_warpgroup", "")


@pytest.mark.parametrize("name", ["matmul_fp16", "matmul_bf16", "matmul_desc_fp16"])
def test_matrix_passes_make_mp31s_choices(name: str) -> None:
    """The proxy times mp_31's decisions: after the matrix passes, its TTGIR is mp_31's up to the
    encodings (the same SQMMA instruction, warps, ring slots, TME rings and barriers, and wait
    placement), and it carries the proxy's rows: wgmma's fragment and Hopper's 128-byte swizzle."""
    from triton_musa.backend.compiler import compile_to_ttgir
    c = case(name)
    ttgir = compile_to_ttgir(c.source(), MP31, c.options())["ttgir"]
    assert ttgir == compile_to_ttgir(c.source(), PROXY, c.options())["ttgir"]
    mp31 = _after_matrix_passes(ttgir, "musa", c.num_stages)
    proxy = _after_matrix_passes(ttgir, "proxy", c.num_stages)
    assert "musagpu.sqmma " in mp31 and "instrShape = [128, 128, 64]" in mp31
    if "desc" in name:  # the planner's TME rings: one barrier per slot, the same on both
        assert "musagpu.tme_load" in mp31 and "musagpu.async_barrier_record 6" in mp31
    assert "fragment = wgmma_warpgroup" in proxy and "fragment = wgmma_warpgroup" not in mp31
    assert "swizzleStride = b128, swizzleLine = b128" in proxy
    assert _without_matrix_encodings(proxy) == _without_matrix_encodings(mp31)


@pytest.mark.parametrize("base,tile,warps,stages", [
    ("matmul_fp16", (128, 256, 64), 8, 3), ("matmul_fp16", (64, 256, 32), 4, 4),
    ("matmul_fp16", (128, 128, 32), 4, 4), ("matmul_fp16", (32, 64, 32), 2, 5),
    ("matmul_fp8e4m3", (64, 32, 32), 2, 5)])
def test_autotuned_tiles_make_mp31s_choices(base: str, tile: tuple, warps: int, stages: int) -> None:
    """The tiles tutorial 03 autotunes over (8 warps as two squads on 128x256, 64-row tiles, short K steps in
    flight, 2-warp WMMA, fp8 on 2 warps upcast to the f16 WMMA), on the bench's matmul kernels: after the
    matrix and pipeline passes the proxy's TTGIR is mp_31's up to the encodings of its own rows."""
    import dataclasses
    from triton_musa.backend.compiler import compile_to_ttgir
    c = case(base)
    bm, bn, bk = tile
    c = dataclasses.replace(c, values=dict(c.values, BM=bm, BN=bn, BK=bk), num_warps=warps, num_stages=stages)
    ttgir = compile_to_ttgir(c.source(), MP31, c.options())["ttgir"]
    mp31 = _after_matrix_passes(ttgir, "musa", c.num_stages)
    proxy = _after_matrix_passes(ttgir, "proxy", c.num_stages)
    assert "musagpu.sqmma " in mp31 or "musagpu.wmma " in mp31
    unit_fragment = "fragment = wgmma_warpgroup" if "musagpu.sqmma " in mp31 else "fragment = mma_sync_warp"
    assert unit_fragment in proxy and unit_fragment not in mp31
    strip = _without_matrix_encodings
    assert strip(proxy).replace(", fragment = mma_sync_warp", "") == strip(mp31)


def test_two_warp_matmul_makes_mp31s_wmma_choice_and_runs_on_mma_sync() -> None:
    """A two-warp dot is PH1's 32-lane WMMA on mp_31; the proxy picks the same atom (m16n16k32), warps and
    ring, in the fragment of its own rows, and runs each instruction as 2 x 2 mma.sync.m16n8k16 (PTX ISA),
    not as FMA."""
    from triton_musa.backend.compiler import compile_to_ttgir
    c = case("matmul_fp16_w2")
    ttgir = compile_to_ttgir(c.source(), MP31, c.options())["ttgir"]
    mp31 = _after_matrix_passes(ttgir, "musa", c.num_stages)
    proxy = _after_matrix_passes(ttgir, "proxy", c.num_stages)
    assert "musagpu.wmma " in mp31 and "instrShape = [16, 16, 32]}" in mp31 and "fragment" not in mp31
    assert "instrShape = [16, 16, 32], fragment = mma_sync_warp}" in proxy
    assert proxy.replace(", fragment = mma_sync_warp", "") == mp31
    ptx = compile_case(c).asm["ptx"]
    # 64 x 32 x 32 over two warps: 4 atoms per warp and K step, 4 mma.sync each.
    assert len(re.findall(r"mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.f16\.f16\.f32", ptx)) == 16
    assert "fma.rn.f32" not in ptx


@pytest.mark.parametrize("name", ["matmul_fp16", "matmul_bf16"])
def test_matrix_unit_case_runs_on_wgmma(name: str) -> None:
    """The dot of a matrix-unit case is wgmma in the PTX: m64n128k16, two per 128 rows and four per K = 64
    step, between wgmma.fence and commit, waited for, with operands in shared memory that cp.async fills."""
    kernel = compile_case(case(name))
    ptx = kernel.asm["ptx"]
    ty = "f16" if name.endswith("fp16") else "bf16"
    assert len(re.findall(rf"wgmma\.mma_async\.sync\.aligned\.m64n128k16\.f32\.{ty}\.{ty}", ptx)) == 8
    assert "wgmma.fence.sync.aligned" in ptx and "wgmma.commit_group.sync.aligned" in ptx
    # Operand tiles only cp.async fills need no proxy fence before wgmma: Triton's own Hopper compile of
    # the same source has none either (tiles the threads store are fenced by their writers).
    theirs = triton.compile(case(name).source(), target=GPUTarget("cuda", 90, 32), options=case(name).options())
    assert "wgmma.mma_async" in theirs.asm["ptx"] and "fence.proxy.async" not in theirs.asm["ptx"]
    assert "fence.proxy.async" not in ptx
    assert "wgmma.wait_group.sync.aligned 0" in ptx
    # num_stages = 3 fills the ring two iterations ahead: the K loop waits for its copies in every other
    # iteration (--musa-pipeline-loops), one predicated wait, and drains them once after the loop.
    assert len(re.findall(r"@%p\d+ cp\.async\.wait_all;", ptx)) == 1
    assert len(re.findall(r"^\s*cp\.async\.wait_all;", ptx, re.M)) == 1
    # 16-byte copies bypass L1 (.cg), as Triton's own do.
    assert "cp.async.cg.shared.global" in ptx and "cp.async.ca.shared.global" not in ptx
    assert "fma.rn.f32" not in ptx  # no FMA dot left
    assert kernel.asm["cubin"][:4] == b"\x7fELF"


def test_stored_operand_tiles_are_fenced_by_their_writers() -> None:
    """Flash attention on the proxy: the Q tile (stored once before the K loop) and the P tile (stored
    every iteration) are st.shared writes into wgmma operand buffers, so each run of stores ends in a
    fence.proxy.async before the barrier and the wgmma; the scores' wgmma, on Q and a K slot cp.async
    fills, has no fence of its own in the loop."""
    lines = [line.strip() for line in compile_case(case("attention_fp16")).asm["ptx"].splitlines()]
    fences = [i for i, line in enumerate(lines) if line.startswith("fence.proxy.async")]
    groups = [i for i, line in enumerate(lines) if line.startswith("wgmma.fence")]
    stores = [i for i, line in enumerate(lines) if line.startswith("st.shared")]
    assert len(groups) == 2 and len(fences) == 2, (groups, fences)
    for group in groups:
        last_store = max(i for i in stores if i < group)
        assert any(last_store < fence < group for fence in fences), (last_store, group, fences)


CUDA90 = GPUTarget("cuda", 90, 32)


@triton.jit
def _desc_copy(in_desc, out_desc, B0: tl.constexpr, B1: tl.constexpr):
    out_desc.store([0, 0], in_desc.load([0, 0]) + 1)


@pytest.mark.parametrize("dtype,inner", [("fp16", 64), ("fp16", 32), ("fp16", 16), ("fp16", 128), ("bf16", 64),
                                         ("fp32", 32), ("i8", 128), ("i32", 32), ("u32", 32), ("i64", 16),
                                         ("fp64", 16)])
def test_tensor_maps_are_triton_nvidia_ones(dtype: str, inner: int) -> None:
    """The proxy's TMA tensor maps, as the host encodes them: Triton's CUDA launcher encodes a host
    TensorDescriptor with the kernel's ``tensordesc_meta``, so ours must be what Triton's own NVIDIA
    compile of the same kernel records (swizzle, element type and size, box), for each swizzle width
    (32, 64, 128 B rows; 256 B rows in two 128 B boxes) and element type."""
    block = f"{dtype}[32, {inner}]"
    src = ASTSource(_desc_copy, {"in_desc": f"tensordesc<{block}>", "out_desc": f"tensordesc<{block}>",
                                 "B0": "constexpr", "B1": "constexpr"}, constexprs={"B0": 32, "B1": inner})
    ours = triton.compile(src, target=PROXY, options={"num_warps": 4})
    theirs = triton.compile(src, target=CUDA90, options={"num_warps": 4})
    assert ours.metadata.tensordesc_meta == theirs.metadata.tensordesc_meta
    ptx = ours.asm["ptx"]
    assert ".param .align 64 .b8 _desc_copy_param_0[128]" in ptx
    assert "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" in ptx
    assert "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group" in ptx


def test_descriptor_matmul_runs_on_tma_and_wgmma() -> None:
    """The descriptor matmul case: its TME ring is TMA into mbarrier-tracked slots that wgmma reads
    directly (no copy of the tiles through registers), its epilogue a TMA store; its tensor maps are
    Triton's."""
    c = case("matmul_desc_fp16")
    kernel = compile_case(c)
    reference = compile_case(c, CUDA90)
    assert kernel.metadata.tensordesc_meta == reference.metadata.tensordesc_meta
    ptx = kernel.asm["ptx"]
    assert len(re.findall(r"wgmma\.mma_async\.sync\.aligned\.m64n128k16\.f32\.f16\.f16", ptx)) == 8
    assert "mbarrier.try_wait.parity.shared::cta.b64" in ptx
    assert "ld.shared" not in ptx  # the operands never pass through registers
    # Three ring slots of 16 KiB for each operand, and the 64 mbarriers.
    assert kernel.metadata.shared == 3 * 2 * 128 * 64 * 2 + 64 * 8
