"""Software pipelining (num_stages) and async global->shared copies on the CPU emulator, both archs.

Our pipeliner (--musa-pipeline-loops, after the matrix-path selection) turns loop loads that feed
a dot, or every load of a loop whose `tl.range` asks for stages, into
``ttg.async_copy_global_to_local`` into rings of ``num_stages`` shared-memory slots, issued
``num_stages - 1`` iterations ahead; our lowering makes them per-thread g2s copies, which the emulator
lands only at the thread's wait (so a missing wait or barrier gives wrong numbers). Each test
checks that the pipelined kernels really use async copies (num_stages > 1) and compares against
PyTorch, with ragged sizes so the masked tails (zero-filled by plain stores) are exercised."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Dict, Tuple

import pytest

torch = pytest.importorskip("torch")
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.compiler import ASTSource  # noqa: E402

from corpus import TARGETS  # noqa: E402
from jit_compile import compile_specialized, launch  # noqa: E402
from triton_musa.backend.emulator import emulator_active  # noqa: E402
from triton_musa.backend.environment import RACECHECK_ENV  # noqa: E402
from triton_musa.backend.lowering import dot_path_report, matrix_passes, parse_ttgir, run_passes  # noqa: E402

pytestmark = pytest.mark.skipif(not emulator_active(), reason="a MUSA device or another GPU driver is active here; "
                                "the emulator runs where none is (or with TRITON_MUSA_EMULATOR=1)")

ARCHS = tuple(TARGETS)


def compile_and_run(fn: Any, arch: str, grid: Tuple[int, ...], args: Dict[str, Any], constexprs: Dict[str, Any], *,
                    num_stages: int, num_warps: int = 4) -> Any:
    """Compiles `fn` for `arch` specialized as Triton's JIT would (jit_compile.py: what lets the pipeliner
    prove vector copies), launches it and returns the compiled kernel."""
    kernel, consts = compile_specialized(fn, arch, args, constexprs, num_warps=num_warps, num_stages=num_stages)
    launch(kernel, fn, grid, args, consts)
    return kernel


def musa_ttgir(kernel: Any, num_stages: int) -> str:
    """The kernel's TTGIR after our matrix-path and pipeline passes (what the emulator's lowering runs)."""
    module = parse_ttgir(kernel.asm["ttgir"])
    run_passes(module, f"builtin.module({matrix_passes('emulator', num_stages=num_stages)})")
    return str(module)


def assert_pipelined(kernel: Any, num_stages: int) -> None:
    """num_stages > 1: loads became async copies into rings of num_stages slots; else none."""
    ttgir = musa_ttgir(kernel, num_stages)
    if num_stages > 1:
        assert "ttg.async_copy_global_to_local" in ttgir, "the loop was not pipelined"
        assert f"!ttg.memdesc<{num_stages}x" in ttgir, "expected a ring of num_stages slots"
    else:
        assert "ttg.async_copy_global_to_local" not in ttgir


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        kk = k * BK + rk
        a = tl.load(a_ptr + rm[:, None] * stride_am + kk[None, :] * stride_ak,
                    mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        b = tl.load(b_ptr + kk[:, None] * stride_bk + rn[None, :] * stride_bn,
                    mask=(kk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc.to(c_ptr.dtype.element_ty),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("num_stages", [1, 2, 3, 4])
@pytest.mark.parametrize("dtype", [torch.float16, torch.float32])
def test_matmul_k_loop(arch: str, num_stages: int, dtype: torch.dtype) -> None:
    # K = 208 with BK = 32: 7 iterations, the last one half masked; M and N ragged too.
    M, N, K = 40, 48, 208
    torch.manual_seed(num_stages)
    a = torch.randn(M, K, dtype=dtype)
    b = torch.randn(K, N, dtype=dtype)
    c = torch.zeros(M, N, dtype=dtype)
    BM, BN, BK = 32, 32, 32
    kernel = compile_and_run(
        matmul_kernel, arch, (triton.cdiv(M, BM), triton.cdiv(N, BN)),
        dict(a_ptr=a, b_ptr=b, c_ptr=c, M=M, N=N, K=K, stride_am=a.stride(0), stride_ak=a.stride(1),
             stride_bk=b.stride(0), stride_bn=b.stride(1), stride_cm=c.stride(0)), dict(BM=BM, BN=BN, BK=BK),
        num_stages=num_stages)
    assert_pipelined(kernel, num_stages)
    # The dot's path: on QY2 an f16 32x32 tile is one WMMA atom, computed by all 4 warps (replicated).
    [report] = dot_path_report(kernel.asm["ttgir"])
    kind = "f16" if dtype == torch.float16 else "tf32"
    expected = {"mp_22": "wmma f16 x f16 -> f32 m32n32k16 on mp_2x, warpsPerCTA [1, 4]" if dtype == torch.float16
                else ": fma (",
                "mp_31": f"sqmma {kind} x {kind} -> f32 m32n32k32 on mp_3x, warpsPerCTA [4, 1]"}[arch]
    assert expected in report, report
    ref = (a.float() @ b.float()).to(dtype)
    # mp_31 runs the f32 dot on SQMMA in tf32 (Triton's default input_precision): 10 mantissa bits.
    tol = 1e-2 if dtype == torch.float16 or arch == "mp_31" else 1e-4
    torch.testing.assert_close(c, ref, atol=tol * 10, rtol=tol)


@triton.jit
def row_sum_kernel(x_ptr, out_ptr, N, stride, BLOCK: tl.constexpr, STAGES: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros((BLOCK, ), dtype=tl.float32)
    for off in tl.range(0, N, BLOCK, num_stages=STAGES):
        cols = off + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + row * stride + cols, mask=cols < N, other=0.0).to(tl.float32)
    tl.store(out_ptr + row, tl.sum(acc, axis=0))


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("num_stages", [1, 2, 3, 4])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
def test_streaming_row_sum(arch: str, num_stages: int, dtype: torch.dtype) -> None:
    # Blocks of BLOCK columns, the last one partly masked. A g2s copy moves at least 4 bytes per
    # thread, so fp16 needs 2 elements per thread of the 512 threads of 4 mp_22 warps, and a mask
    # constant over those 2 (Triton only vectorizes `cols < N` when 16 divides N).
    block = 256 if dtype == torch.float32 else 1024
    rows, N = 5, 4 * block - 48
    torch.manual_seed(num_stages)
    x = torch.randn(rows, 4 * block, dtype=dtype)  # row stride a multiple of 16 elements
    out = torch.zeros(rows, dtype=torch.float32)
    kernel = compile_and_run(row_sum_kernel, arch, (rows, ), dict(x_ptr=x, out_ptr=out, N=N, stride=x.stride(0)),
                             dict(BLOCK=block, STAGES=num_stages), num_stages=num_stages)
    assert_pipelined(kernel, num_stages)
    torch.testing.assert_close(out, x[:, :N].float().sum(dim=1), atol=1e-3, rtol=1e-4)


@pytest.mark.parametrize("arch", ARCHS)
def test_pipelined_matmul_llir_is_llvm14(arch: str) -> None:
    """The llir of a 3-stage 128x128x64 fp16 matmul: g2s copies of 16 bytes (the loop-carried pointers'
    contiguity, AxisAnalysis) with prefetch 0, a wait in the loop and after it, all accepted by LLVM 14."""
    import llvm14_ir
    from triton_musa.backend.compiler import compile_to_ttgir
    from triton_musa.backend.lowering import lower_to_llir
    from triton_musa.backend.target import parse_arch
    signature = {name: "i32" for name in matmul_kernel.arg_names}
    signature.update(a_ptr="*fp16", b_ptr="*fp16", c_ptr="*fp16")
    constexprs = dict(stride_ak=1, stride_bn=1, BM=128, BN=128, BK=64)
    signature.update({name: "constexpr" for name in constexprs})
    aligned = ("a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_bk", "stride_cm")
    attrs = {(matmul_kernel.arg_names.index(name), ): [["tt.divisibility", 16]] for name in aligned}
    src = ASTSource(matmul_kernel, signature=signature, constexprs=constexprs, attrs=attrs)
    ttgir = compile_to_ttgir(src, TARGETS[arch], dict(num_warps=4, num_stages=3))["ttgir"]
    # Triton's stage stops before pipelining: the loop is pipelined by our passes only.
    assert "ttg.async_copy_global_to_local" not in ttgir
    llir = lower_to_llir(ttgir, parse_arch(arch), num_stages=3).llir
    assert "call void @llvm.musa.memcpy.g2s(ptr addrspace(3) " in llir
    assert ", i32 16, i32 0)" in llir
    assert llir.count("call void @llvm.musa.memcpy.g2s.wait()") == 2  # in the loop and after it
    assert llvm14_ir.problems(llir) == []


@triton.jit
def grouped_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                          BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # The shape users copy from Triton's tutorial: wrapped row/column offsets, pointers carried through the
    # loop and advanced by a constant, and a K mask that depends on the iteration.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = (pid_m * BM + tl.arange(0, BM)) % M
    rn = (pid_n * BN + tl.arange(0, BN)) % N
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=rk[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_ptrs, mask=rk[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK
        b_ptrs += BK * stride_bk
    cm = pid_m * BM + tl.arange(0, BM)
    cn = pid_n * BN + tl.arange(0, BN)
    tl.store(c_ptr + cm[:, None] * stride_cm + cn[None, :], acc.to(tl.float16),
             mask=(cm[:, None] < M) & (cn[None, :] < N))


@pytest.mark.parametrize("arch", ARCHS)
def test_carried_pointers_and_wrapped_offsets_copy_16_bytes(arch: str) -> None:
    """The axis analysis follows loop-carried pointers (through the pipeline's own iter_args), `x % M`
    offsets and the iteration-dependent K mask, so every copy of the pipelined loop is as wide as the layout
    allows: no element-wise synchronous load is left (what Triton's own analysis gives the same kernel)."""
    from triton_musa.backend.compiler import compile_to_ttgir
    from triton_musa.backend.lowering import lower_to_llir
    from triton_musa.backend.target import parse_arch
    signature = {name: "i32" for name in grouped_matmul_kernel.arg_names}
    signature.update(a_ptr="*fp16", b_ptr="*fp16", c_ptr="*fp16")
    constexprs = dict(BM=64, BN=64, BK=32)
    signature.update({name: "constexpr" for name in constexprs})
    aligned = ("a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_bk", "stride_cm")
    attrs = {(grouped_matmul_kernel.arg_names.index(name), ): [["tt.divisibility", 16]] for name in aligned}
    src = ASTSource(grouped_matmul_kernel, signature=signature, constexprs=constexprs, attrs=attrs)
    ttgir = compile_to_ttgir(src, TARGETS[arch], dict(num_warps=4, num_stages=3))["ttgir"]
    llir = lower_to_llir(ttgir, parse_arch(arch), num_stages=3).llir
    copies = re.findall(r"call void @llvm\.musa\.memcpy\.g2s\(ptr addrspace\(3\) [^,]+, ptr addrspace\(1\) [^,]+, "
                        r"i32 (\d+), i32 0\)", llir)
    # Each thread's part of a 64x32 fp16 tile: 16 bytes on mp_31 (128 threads), 8 on mp_22 (512 threads).
    widest = {"mp_31": "16", "mp_22": "8"}[arch]
    assert copies and set(copies) == {widest}, sorted(set(copies))
    assert not re.search(r"load (half|i16), ptr addrspace\(1\)", llir)


@pytest.mark.parametrize("arch", ARCHS)
def test_grouped_matmul_runs(arch: str) -> None:
    """The same kernel on the emulator, ragged M, N and K (the wrapped offsets read valid rows), num_stages 3."""
    M, N, K = 72, 80, 112
    torch.manual_seed(3)
    a = torch.randn(M, K, dtype=torch.float16)
    b = torch.randn(K, N, dtype=torch.float16)
    c = torch.zeros(M, N, dtype=torch.float16)
    compile_and_run(grouped_matmul_kernel, arch, (triton.cdiv(M, 64), triton.cdiv(N, 64)),
                    dict(a_ptr=a, b_ptr=b, c_ptr=c, M=M, N=N, K=K, stride_am=a.stride(0), stride_bk=b.stride(0),
                         stride_cm=c.stride(0)), dict(BM=64, BN=64, BK=32), num_stages=3)
    torch.testing.assert_close(c.float(), a.float() @ b.float(), atol=1e-1, rtol=1e-2)


@triton.jit
def flattened_persistent_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                                       BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                                       PROGRAMS: tl.constexpr):
    # A persistent kernel whose tile loop and K loop Triton flattens into one loop (`flatten=True`): the
    # tile's offsets come out of an scf.if taken when a new tile starts, so the copies issued ahead read
    # the next tile's rows while this tile's epilogue stores.
    tiles_n = tl.cdiv(N, BN)
    num_tiles = tl.cdiv(M, BM) * tiles_n
    k_tiles = tl.cdiv(K, BK)
    rk = tl.arange(0, BK)
    for tile in tl.range(tl.program_id(0), num_tiles, PROGRAMS, flatten=True):
        rm = (tile // tiles_n) * BM + tl.arange(0, BM)
        rn = (tile % tiles_n) * BN + tl.arange(0, BN)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for ki in range(k_tiles):
            kk = ki * BK + rk
            a = tl.load(a_ptr + rm[:, None] * stride_am + kk[None, :], mask=(rm[:, None] < M) & (kk[None, :] < K),
                        other=0.0)
            b = tl.load(b_ptr + kk[:, None] * stride_bk + rn[None, :], mask=(kk[:, None] < K) & (rn[None, :] < N),
                        other=0.0)
            acc = tl.dot(a, b, acc)
        tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc.to(tl.float16),
                 mask=(rm[:, None] < M) & (rn[None, :] < N))


def run_flattened_persistent_matmul(arch: str, M: int, BM: int, seed: int) -> str:
    """Runs flattened_persistent_matmul_kernel on 4 programs with 3-stage rings over an fp16 M x 80 by
    80 x 72 product (BM x 32 tiles, 3 K steps of 32 a tile, the last one masked), checks it against torch
    and returns the loop's --musa-pipeline-loops remark."""
    from triton_musa.backend.lowering import pipeline_report
    N, K = 72, 80
    torch.manual_seed(seed)
    a = torch.randn(M, K, dtype=torch.float16)
    b = torch.randn(K, N, dtype=torch.float16)
    c = torch.zeros(M, N, dtype=torch.float16)
    kernel = compile_and_run(flattened_persistent_matmul_kernel, arch, (4, ),
                             dict(a_ptr=a, b_ptr=b, c_ptr=c, M=M, N=N, K=K, stride_am=a.stride(0),
                                  stride_bk=b.stride(0), stride_cm=c.stride(0)),
                             dict(BM=BM, BN=32, BK=32, PROGRAMS=4), num_stages=3)
    torch.testing.assert_close(c.float(), a.float() @ b.float(), atol=1e-1, rtol=1e-2)
    [remark] = pipeline_report(kernel.asm["ttgir"], 3, target="emulator")
    return remark


@pytest.mark.parametrize("arch", ARCHS)
def test_flattened_persistent_loop(arch: str) -> None:
    """A flattened persistent loop is pipelined across tile boundaries and runs right: 6 tiles on 4
    programs (two programs take a second tile), 3 K steps each with the last one masked."""
    remark = run_flattened_persistent_matmul(arch, 40, 32, seed=5)
    assert "loop pipelined: 2 loads as async copies" in remark, remark


def run_one_tile_matmul(M: int, N: int, K: int, BM: int, BN: int, BK: int, *, num_warps: int, num_stages: int,
                        seed: int) -> str:
    """Runs matmul_kernel on mp_31 as one BM x BN tile over an fp16 M x K by K x N product, checks it
    against torch and returns the loop's --musa-pipeline-loops remark."""
    from triton_musa.backend.lowering import pipeline_report
    torch.manual_seed(seed)
    a = torch.randn(M, K, dtype=torch.float16)
    b = torch.randn(K, N, dtype=torch.float16)
    c = torch.zeros(M, N, dtype=torch.float16)
    kernel = compile_and_run(
        matmul_kernel, "mp_31", (1, 1),
        dict(a_ptr=a, b_ptr=b, c_ptr=c, M=M, N=N, K=K, stride_am=a.stride(0), stride_ak=a.stride(1),
             stride_bk=b.stride(0), stride_bn=b.stride(1), stride_cm=c.stride(0)), dict(BM=BM, BN=BN, BK=BK),
        num_stages=num_stages, num_warps=num_warps)
    torch.testing.assert_close(c.float(), a.float() @ b.float(), atol=1e-1, rtol=1e-2)
    [remark] = pipeline_report(kernel.asm["ttgir"], num_stages, target="emulator")
    return remark


def test_matrix_unit_in_flight_where_the_slot_is_free(monkeypatch: pytest.MonkeyPatch) -> None:
    """mp_31, 128x256x64 on 8 warps, num_stages 3: the rings hold one block per SM with or without a
    fourth slot, so the planner keeps each sqmma in flight into the next iteration (its wait moved to
    just before the next one); ragged M, N and K, against torch, with the race check on (which fails a
    copy into a slot the sqmma in flight still reads)."""
    monkeypatch.setenv(RACECHECK_ENV, "1")
    remark = run_one_tile_matmul(120, 250, 224, 128, 256, 64, num_warps=8, num_stages=3, seed=7)
    assert "rings of 4 slots" in remark and "the matrix unit in flight" in remark, remark


@pytest.mark.parametrize("num_stages", [3, 4])
def test_matrix_unit_in_flight_within_the_slots(monkeypatch: pytest.MonkeyPatch, num_stages: int) -> None:
    """mp_31, tutorial 03's 128x128x32 on 4 warps: an extra slot would cost a block per SM, so the sqmma
    stays in flight within num_stages slots and the copies go one iteration less ahead (num_stages - 2),
    never into the slot the sqmma in flight reads; 7 K steps, the last masked, ragged M and N, against torch,
    with the race check on (which fails a copy into that slot)."""
    monkeypatch.setenv(RACECHECK_ENV, "1")
    remark = run_one_tile_matmul(100, 90, 208, 128, 128, 32, num_warps=4, num_stages=num_stages,
                                 seed=num_stages)
    ahead = num_stages - 2
    assert (f"rings of {num_stages} slots, copies issued {ahead} iteration{'s' if ahead > 1 else ''} ahead"
            in remark and "the matrix unit in flight" in remark), remark


@pytest.mark.parametrize("k_steps", [4, 5])
def test_matrix_unit_waited_for_once_a_round(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, k_steps: int) -> None:
    """mp_31 with unit-waits-per-round, 128x256x64 on 8 warps, num_stages 3 (the sqmma in flight, 4 slots,
    copies 2 iterations ahead): the sqmmas are waited for in every second iteration only and chain through
    the accumulator unwaited in between; an even and an odd number of K steps (the last round cut short by
    the loop's end), ragged M, N and K, against torch, with the race check on."""
    enable_pipeline_option(monkeypatch, tmp_path, "unit-waits-per-round=true")
    monkeypatch.setenv(RACECHECK_ENV, "1")
    remark = run_one_tile_matmul(120, 250, k_steps * 64 - 16, 128, 256, 64, num_warps=8, num_stages=3,
                                 seed=k_steps)
    assert "the matrix unit in flight into the next iteration and waited for every 2 iterations" in remark, remark


def test_matrix_unit_waited_for_once_a_round_across_tiles(monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Path) -> None:
    """mp_31 with unit-waits-per-round, a flattened persistent loop of 64x32x32 tiles on 4 warps (the sqmma
    in flight through each tile's end, waited for in every second iteration): 3 K steps a tile, so the
    rounds straddle the tiles' ends, where the epilogue waits for its own sqmma; 6 tiles on 4 programs (two
    take a second), against torch."""
    enable_pipeline_option(monkeypatch, tmp_path, "unit-waits-per-round=true")
    monkeypatch.setenv(RACECHECK_ENV, "1")
    remark = run_flattened_persistent_matmul("mp_31", 100, 64, seed=11)
    assert "the matrix unit in flight into the next iteration and waited for every 2 iterations" in remark, remark


@pytest.mark.parametrize("BM, BN, BK, warps, stages, slots, ahead",
                         [(128, 256, 64, 8, 3, 4, 3), (128, 128, 32, 4, 3, 3, 2)])
def test_copies_after_the_matrix_unit(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, BM: int, BN: int,
                                      BK: int, warps: int, stages: int, slots: int, ahead: int) -> None:
    """mp_31 with copies-after-unit: each iteration's copies are issued after its sqmma and a barrier, into
    the slot of the sqmma every thread waited for just before, so the sqmma stays in flight with every slot
    but the one it reads ahead: 128x256x64 on two squads (the free fourth slot one more iteration ahead) and
    128x128x32 (3 slots, 2 ahead). Ragged sizes with the last K step masked, against torch, with the race
    check on (which fails a copy into the operands of an sqmma a thread has not seen waited for)."""
    enable_pipeline_option(monkeypatch, tmp_path, "copies-after-unit=true")
    monkeypatch.setenv(RACECHECK_ENV, "1")
    remark = run_one_tile_matmul(BM - 8, BN - 6, 5 * BK - 16, BM, BN, BK, num_warps=warps, num_stages=stages,
                                 seed=BK + 1)
    plural = "s" if ahead > 1 else ""
    assert (f"rings of {slots} slots, copies issued {ahead} iteration{plural} ahead after the matrix unit's "
            "next instruction" in remark and "the matrix unit in flight" in remark), remark


def test_copies_after_the_matrix_unit_across_tiles(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """mp_31 with copies-after-unit, the flattened persistent loop (the sqmma in flight through each tile's
    end): the copies of the next tile's first iterations are issued after the sqmma and before the tile's
    epilogue, which waits for its own sqmma; 6 tiles on 4 programs, against torch, with the race check on."""
    enable_pipeline_option(monkeypatch, tmp_path, "copies-after-unit=true")
    monkeypatch.setenv(RACECHECK_ENV, "1")
    remark = run_flattened_persistent_matmul("mp_31", 100, 64, seed=13)
    assert "after the matrix unit's next instruction" in remark, remark


def enable_pipeline_option(monkeypatch: pytest.MonkeyPatch, cache: Path, option: str) -> None:
    """Compiles with `option` of --musa-pipeline-loops on (a planner switch no compile option reaches),
    afresh and into a cache of its own (`cache`): Triton's cache key does not know the switch, and a kernel
    compiled with it must not be found by a test compiling the same source without it."""
    from triton_musa.backend import lowering
    original = lowering.matrix_passes
    monkeypatch.setattr(lowering, "matrix_passes",
                        lambda *args, **kwargs: lowering.with_pipeline_options(original(*args, **kwargs), [option]))
    monkeypatch.setenv("TRITON_ALWAYS_COMPILE", "1")
    monkeypatch.setenv("TRITON_CACHE_DIR", str(cache))


@pytest.mark.parametrize("BM, BN, BK, warps, stages", [(128, 256, 64, 8, 3), (128, 128, 32, 4, 4)])
def test_batches_beside_the_matrix_unit_in_flight(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, BM: int,
                                                  BN: int, BK: int, warps: int, stages: int) -> None:
    """mp_31 with batch-beside-matrix-unit: tutorial 03's 128x256x64 (4 slots, the 4th free) and 128x128x32
    at 4 stages (4 slots, the sqmma in flight within them) take batches of two iterations' copies in four
    slots, the slot of the sqmma in flight included, issued after the next sqmma. Ragged sizes with an odd
    number of K steps (the last batch half past the end), against torch, with the race check on, which
    reports a missing barrier. (The emulator lands copies at the thread's wait, so a copy refilling a slot
    an sqmma in flight reads does not show here: the lit test checks that order.)"""
    enable_pipeline_option(monkeypatch, tmp_path, "batch-beside-matrix-unit=true")
    monkeypatch.setenv(RACECHECK_ENV, "1")
    remark = run_one_tile_matmul(BM - 8, BN - 6, 5 * BK - 16, BM, BN, BK, num_warps=warps, num_stages=stages,
                                 seed=BK)
    assert ("rings of 4 slots, copies issued 2 iterations ahead in batches of 2 iterations' tiles after the "
            "matrix unit's next instruction" in remark), remark
