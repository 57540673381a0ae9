"""Matrix paths of tl.dot on the CPU emulator (issue 9): which path --musa-accelerate-matmul takes per dot
(--musa-dot-path-report) and the result against PyTorch, on both archs.

The emulator's WMMA is written from MUSA-FACTS.md's fragment formulas (emulator/MatrixUnits.cpp),
independently of the compiler's linear layouts (layouts/LayoutConversion.cpp): a fragment layout that
disagreed with the emulated hardware's would give wrong numbers here. The register order inside a QY2
fragment is inferred (no source states it); both sides use the same inference, marked as such.
"""

from __future__ import annotations

import re
from typing import Any, Dict, Optional, Tuple

import pytest

torch = pytest.importorskip("torch")
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.compiler import ASTSource  # noqa: E402

from corpus import TARGETS  # noqa: E402
from triton_musa.backend.emulator import emulator_active  # noqa: E402
from triton_musa.backend.lowering import MatmulOptions, dot_path_report  # noqa: E402

pytestmark = pytest.mark.skipif(not emulator_active(), reason="a MUSA device or another GPU driver is active here; "
                                "the emulator runs where none is (or with TRITON_MUSA_EMULATOR=1)")

_SIG = {
    torch.float16: "fp16", torch.bfloat16: "bf16", torch.float32: "fp32", torch.int8: "i8", torch.int32: "i32",
    torch.float8_e4m3fn: "fp8e4nv", torch.float8_e5m2: "fp8e5"
}


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, d_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn, BM: tl.constexpr,
                  BN: tl.constexpr, BK: tl.constexpr, HAS_C: tl.constexpr, TRANS_B: tl.constexpr,
                  INT_ACC: tl.constexpr, PREC: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    if INT_ACC:
        acc = tl.zeros((BM, BN), dtype=tl.int32)
    else:
        acc = tl.zeros((BM, BN), dtype=tl.float32)
    if HAS_C:
        acc += tl.load(c_ptr + rm[:, None] * scm + rn[None, :] * scn)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * sam + (k + rk)[None, :] * sak)
        if TRANS_B:
            # B^T tile (BN x BK), transposed in registers.
            bt = tl.load(b_ptr + rn[:, None] * sbn + (k + rk)[None, :] * sbk)
            b = tl.trans(bt)
        else:
            b = tl.load(b_ptr + (k + rk)[:, None] * sbk + rn[None, :] * sbn)
        if INT_ACC:
            acc = tl.dot(a, b, acc, out_dtype=tl.int32)
        else:
            acc = tl.dot(a, b, acc, input_precision=PREC)
    tl.store(d_ptr + rm[:, None] * scm + rn[None, :] * scn, acc)


def _inputs(dtype: torch.dtype, shape: Tuple[int, int], gen: torch.Generator) -> torch.Tensor:
    if dtype == torch.int8:
        return torch.randint(-8, 8, shape, generator=gen, dtype=torch.int8)
    x = torch.randn(shape, generator=gen)
    if dtype in (torch.float8_e4m3fn, torch.float8_e5m2):
        x = x.clamp(-4, 4)
    return x.to(dtype)


def run_matmul(arch: str, dtype: torch.dtype, M: int, N: int, K: int, BM: int, BN: int, BK: int, num_warps: int, *,
               prec: Optional[str] = None, has_c: bool = False, trans_b: bool = False,
               seed: int = 0) -> Tuple[torch.Tensor, torch.Tensor, str]:
    """Runs matmul_kernel on the emulated `arch`; returns (result, PyTorch reference, ttgir)."""
    gen = torch.Generator().manual_seed(seed)
    a = _inputs(dtype, (M, K), gen)
    b = _inputs(dtype, (K, N), gen)
    int_acc = dtype == torch.int8
    acc_dtype = torch.int32 if int_acc else torch.float32
    c = (torch.randint(-100, 100, (M, N), generator=gen, dtype=torch.int32)
         if int_acc else torch.randn((M, N), generator=gen)) if has_c else torch.zeros((M, N), dtype=acc_dtype)
    d = torch.empty((M, N), dtype=acc_dtype)
    b_arg = b.t().contiguous() if trans_b else b
    sbk, sbn = (b_arg.stride(1), b_arg.stride(0)) if trans_b else (b.stride(0), b.stride(1))
    args: Dict[str, Any] = dict(a_ptr=a, b_ptr=b_arg, c_ptr=c, d_ptr=d, M=M, N=N, K=K, sam=a.stride(0),
                                sak=a.stride(1), sbk=sbk, sbn=sbn, scm=c.stride(0), scn=c.stride(1))
    constexprs = dict(BM=BM, BN=BN, BK=BK, HAS_C=has_c, TRANS_B=trans_b, INT_ACC=int_acc, PREC=prec)
    signature = {n: ("constexpr" if n in constexprs else
                     ("*" + _SIG[args[n].dtype]) if isinstance(args[n], torch.Tensor) else "i32")
                 for n in matmul_kernel.arg_names}
    kernel = triton.compile(ASTSource(matmul_kernel, signature=signature, constexprs=constexprs),
                            target=TARGETS[arch], options=dict(num_warps=num_warps))
    kernel[(M // BM, N // BN, 1)](*[args[n] if n in args else constexprs[n] for n in matmul_kernel.arg_names])
    if int_acc:
        ref = a.to(torch.int32) @ b.to(torch.int32) + c
    else:
        ref = a.to(torch.float64) @ b.to(torch.float64) + c.to(torch.float64)
    return d, ref, kernel.asm["ttgir"]


_REPORT = re.compile(r"remark: dot (\S+) (\S+) -> (\S+): (wmma|sqmma|fma)(.*)$")


def reported_paths(ttgir: str, matmul: Optional[MatmulOptions] = None) -> list[Tuple[str, str]]:
    """(path, details) per dot of `ttgir`, from --musa-dot-path-report."""
    paths = []
    for line in dot_path_report(ttgir, matmul):
        m = _REPORT.search(line)
        assert m, f"unexpected report line: {line}"
        paths.append((m.group(4), m.group(5).strip()))
    return paths


def check(d: torch.Tensor, ref: torch.Tensor, dtype: torch.dtype) -> None:
    if dtype == torch.int8:
        assert torch.equal(d, ref), (d - ref).abs().max()
    else:
        # Products of 16-bit operands are exact in f32; only the f32 sums round (K <= 128 terms).
        torch.testing.assert_close(d.to(torch.float64), ref, rtol=2e-5, atol=2e-4)


def expected_path(arch: str, dtype: torch.dtype, prec: Optional[str], BM: int, BN: int, BK: int,
                  num_warps: int) -> str:
    """The path the selection must take: QY2's WMMA for f16/bf16 on whole m32n32k16 atoms with at least
    one atom per warp; FMA otherwise (mp_31's SQMMA is not lowered yet; tf32/s8 atoms of QY2 unconfirmed)."""
    if arch != "mp_22" or dtype not in (torch.float16, torch.bfloat16):
        return "fma"
    if BM % 32 or BN % 32 or BK % 16:
        return "fma"
    for wm in (1, 2, 4, 8, 16):
        wn = num_warps // wm
        if wm * wn == num_warps and (BM // 32) % wm == 0 and (BN // 32) % wn == 0:
            return "wmma"
    return "fma"


# (dtype, input_precision) x (BM, BN, BK, num_warps): 44 points per the coverage grid.
_DTYPES = [(torch.float16, None), (torch.bfloat16, None), (torch.float32, "tf32"), (torch.float32, "ieee"),
           (torch.int8, None)]
_SHAPES_22 = [(32, 32, 16, 1), (64, 64, 32, 4), (64, 32, 16, 2), (32, 64, 32, 2), (128, 64, 16, 8), (64, 128, 32, 8),
              (32, 64, 16, 4), (16, 64, 32, 4)]
_SHAPES_31 = [(32, 32, 16, 4), (64, 64, 32, 4)]
_GRID = ([("mp_22", dt, prec, *shape) for dt, prec in _DTYPES[:2] for shape in _SHAPES_22] +
         [("mp_22", dt, prec, *shape) for dt, prec in _DTYPES[2:] for shape in _SHAPES_22[:4]] +
         [("mp_31", dt, prec, *shape) for dt, prec in _DTYPES + [(torch.float8_e4m3fn, None)]
          for shape in _SHAPES_31])


@pytest.mark.parametrize("arch,dtype,prec,BM,BN,BK,num_warps", _GRID,
                         ids=lambda v: str(v).replace("torch.", "") if not isinstance(v, int) else str(v))
def test_dot_path_coverage(arch: str, dtype: torch.dtype, prec: Optional[str], BM: int, BN: int, BK: int,
                           num_warps: int) -> None:
    if dtype == torch.float8_e4m3fn and arch != "mp_31":
        pytest.skip("fp8 needs mp_31")
    d, ref, ttgir = run_matmul(arch, dtype, BM, BN, 2 * BK, BM, BN, BK, num_warps, prec=prec)
    paths = reported_paths(ttgir)
    assert [p for p, _ in paths] == [expected_path(arch, dtype, prec, BM, BN, BK, num_warps)], paths
    if paths[0][0] == "fma":
        assert paths[0][1].startswith("(") and len(paths[0][1]) > 2, "an FMA dot must say why"
    check(d, ref, dtype)


def test_grid_size() -> None:
    assert len(_GRID) >= 40


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_wmma_chained_acc_transposed_b_multi_block(dtype: torch.dtype) -> None:
    """addmm-style initial accumulator, B read transposed, a 2x2 grid of blocks, a K loop of 4 steps."""
    d, ref, ttgir = run_matmul("mp_22", dtype, 128, 128, 128, 64, 64, 32, 4, has_c=True, trans_b=True, seed=3)
    assert [p for p, _ in reported_paths(ttgir)] == ["wmma"]
    check(d, ref, dtype)


def test_wmma_accumulator_stays_in_layout_in_k_loop() -> None:
    """The K loop carries the WMMA accumulator: no convert_layout of it between iterations."""
    from triton_musa import _musa_mlir
    _, _, ttgir = run_matmul("mp_22", torch.float16, 64, 64, 64, 64, 64, 32, 4)
    module = _musa_mlir.parse(ttgir)
    module.run_pipeline(f"builtin.module({MatmulOptions().pass_spec()})")
    text = str(module)
    loop = text[text.index("scf.for"):text.index("scf.yield")]
    assert "musagpu.wmma" in loop
    assert re.search(r"iter_args\([^)]*\) -> \(tensor<64x64xf32, #musagpu\.wmma<", loop) or \
        re.search(r"-> \(tensor<64x64xf32, #\w+>\)", loop)
    acc_arg = re.search(r"iter_args\(%(\w+) =", loop).group(1)
    assert f"ttg.convert_layout %{acc_arg}" not in loop


@pytest.mark.parametrize("env,reason", [("ENABLE_MUSA_MMA", "matrix units disabled (ENABLE_MUSA_MMA=0)")])
def test_switch_forces_fma(monkeypatch: pytest.MonkeyPatch, env: str, reason: str) -> None:
    monkeypatch.setenv(env, "0")
    d, ref, ttgir = run_matmul("mp_22", torch.float16, 64, 64, 32, 64, 64, 32, 4)
    assert reported_paths(ttgir) == [("fma", f"({reason})")]
    check(d, ref, torch.float16)


def test_sqmma_switch_reason() -> None:
    _, _, ttgir = run_matmul("mp_31", torch.float16, 64, 64, 32, 64, 64, 32, 4)
    assert reported_paths(ttgir, MatmulOptions(enable_sqmma=False)) == [
        ("fma", "(SQMMA disabled (MUSA_ENABLE_SQMMA=0) and no other matrix path on mp_31)")
    ]
    assert reported_paths(ttgir) == [("fma", "(SQMMA lowering not implemented yet)")]
