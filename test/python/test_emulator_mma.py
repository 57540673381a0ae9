"""Matrix paths of tl.dot on the CPU emulator (issue 9): which path --musa-accelerate-matmul takes per dot
(--musa-dot-path-report) and the result against PyTorch, on both archs.

The emulator's WMMA and SQMMA are written from MUSA-FACTS.md's fragment formulas (emulator/MatrixUnits.cpp),
independently of the compiler's linear layouts (layouts/LayoutConversion.cpp): a fragment layout that
disagreed with the emulated hardware's would give wrong numbers here. The register order inside a QY2
fragment is inferred (no source states it); both sides use the same inference, marked as such.

PH1 WMMA (mp_31, the f16/bf16 dots SQMMA cannot take): m16n16k32 atoms where K allows, else m16n16k16; the
k16 fragments' register order is the open MUSA backend's, k32's the same formula with one more K bit (inferred).
Both: atoms whose shape, fragments and register
order the open MUSA backend states (MUSA-FACTS.md); inferred: its rounding (exact products, one f32 rounding
per add), as for QY2.

SQMMA (mp_31): the accumulator fragment and the descriptor's addressing (tile start, leading stride, the
256-byte swizzle on absolute shared addresses) are stated by the open MUSA backend (MUSA-FACTS.md); inferred
and so only checked against our own emulator: that the swizzle line is 256 B for every granularity, that tf32
rounds its inputs to nearest (ties away), that the wait is needed only before the accumulators are read (the
emulator computes at issue and fails a thread that ends with unwaited SQMMAs). The emulator's descriptor
encoding is its own (EmulatorABI.h).
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
from dot_paths import read_dot_paths  # noqa: E402
from jit_compile import DTYPE_NAMES, compile_specialized, launch  # noqa: E402
from triton_musa.backend.emulator import emulator_active  # noqa: E402
from triton_musa.backend.lowering import MatmulOptions, dot_path_report, parse_ttgir, pipeline_report, run_passes  # noqa: E402

pytestmark = pytest.mark.skipif(not emulator_active(), reason="a MUSA device or another GPU driver is active here; "
                                "the emulator runs where none is (or with TRITON_MUSA_EMULATOR=1)")

_SIG = DTYPE_NAMES


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


def reported_paths(ttgir: str, matmul: Optional[MatmulOptions] = None, num_stages: int = 1) -> list[Tuple[str, str]]:
    """(path, details) per dot of `ttgir`, from --musa-dot-path-report (whose quoted rows read_dot_paths
    checks against the catalogue), after the software pipeline of `num_stages`."""
    return [(dot.path, dot.details) for dot in read_dot_paths(dot_path_report(ttgir, matmul, num_stages=num_stages))]


def pipelined(ttgir: str, num_stages: int, target: str = "emulator") -> str:
    """The one remark of --musa-pipeline-loops on `ttgir`'s loop, asserting that it was pipelined."""
    [remark] = pipeline_report(ttgir, num_stages, target=target)
    assert "loop pipelined:" in remark, remark
    return remark


def check(d: torch.Tensor, ref: torch.Tensor, dtype: torch.dtype, prec: Optional[str] = None) -> None:
    if dtype == torch.int8:
        assert torch.equal(d, ref), (d - ref).abs().max()
    elif dtype == torch.float32 and prec == "tf32":
        # tf32 keeps 10 mantissa bits of each input: relative error about 2^-11 per product.
        torch.testing.assert_close(d.to(torch.float64), ref, rtol=1e-2, atol=5e-2)
    else:
        # Products of 16-bit operands are exact in f32; only the f32 sums round (K <= 128 terms).
        torch.testing.assert_close(d.to(torch.float64), ref, rtol=2e-5, atol=2e-4)


_SQMMA_MN = [(32, 32), (32, 64), (32, 128), (16, 64), (64, 16), (64, 32), (64, 64), (64, 128), (128, 32), (128, 64),
             (128, 128)]
_SQMMA_MN_TF32 = [(16, 64), (32, 32), (32, 64), (64, 16), (64, 32), (64, 64), (128, 64), (128, 128)]


def expected_sqmma(dtype: torch.dtype, prec: Optional[str], BM: int, BN: int, BK: int, num_warps: int) -> bool:
    """mp_31's SQMMA (MUSA-FACTS.md): a legal instruction tiles the dot in whole squads of 4 warps along M."""
    if dtype in (torch.float16, torch.bfloat16):
        mns, ks = _SQMMA_MN, (16, 32, 64)
    elif dtype == torch.float32 and prec == "tf32":
        mns, ks = _SQMMA_MN_TF32, (8, 16, 32)
    elif dtype in (torch.int8, torch.float8_e4m3fn, torch.float8_e5m2):
        mns, ks = _SQMMA_MN, (32, 64, 128)
    else:
        return False
    if num_warps % 4:
        return False
    warps_m = 4
    while warps_m <= num_warps:
        squads_m, warps_n = warps_m // 4, num_warps // warps_m
        if any(BM % (m * squads_m) == 0 and BN % (n * warps_n) == 0 and BK % k == 0 for m, n in mns for k in ks):
            return True
        warps_m *= 2
    return False


def expected_wmma_warps(BM: int, BN: int, num_warps: int, atom: int = 32) -> list[int]:
    """WMMA warpsPerCTA for a BM x BN result of atom x atom tiles (32 on QY2, 16 on PH1): of the splits whose
    warps tile the result, the one where a warp reads the fewest operand rows and columns (BM / wm + BN / wn),
    more warps along M among equals; with fewer atoms than warps, one warp per atom row and all the others
    along N, where the warps past the atom columns replicate (compute the same atoms)."""
    rows, cols = BM // atom, BN // atom
    fits = [(wm, num_warps // wm) for wm in (1 << i for i in range(num_warps.bit_length()))
            if wm <= num_warps and wm <= rows and num_warps // wm <= cols]
    if fits:
        wm, wn = min(fits, key=lambda w: (BM // w[0] + BN // w[1], -w[0]))
        return [wm, wn]
    wm = min(num_warps, rows)
    return [wm, num_warps // wm]


def ph1_wmma_atom(BK: int) -> str:
    """PH1's WMMA instruction for a K tile of BK: m16n16k32 where K allows (fewer instructions, as the open MUSA
    backend prefers), else m16n16k16."""
    return "m16n16k32" if BK % 32 == 0 else "m16n16k16"


_FP8 = (torch.float8_e4m3fn, torch.float8_e5m2)


def expected_path(arch: str, dtype: torch.dtype, prec: Optional[str], BM: int, BN: int, BK: int,
                  num_warps: int) -> str:
    """The path the selection must take: mp_31's SQMMA where an instruction fits, else PH1's WMMA for f16/bf16
    on whole m16n16k16 (or k32) atoms; QY2's WMMA for f16/bf16 on whole m32n32k16 atoms (any num_warps: warps beyond
    the atoms replicate); fp8 as f16 (its values are exact in f16) where no fp8 WMMA row is lowered; FMA otherwise
    (tf32/s8 atoms of QY2 unconfirmed)."""
    if arch == "mp_31" and expected_sqmma(dtype, prec, BM, BN, BK, num_warps):
        return "sqmma"
    if dtype not in (torch.float16, torch.bfloat16, *_FP8):
        return "fma"
    atom = 16 if arch == "mp_31" else 32
    if BM % atom or BN % atom or BK % 16:
        return "fma"
    return "wmma"


# (dtype, input_precision) x (BM, BN, BK, num_warps): 44 points per the issue's coverage grid.
_DTYPES = [(torch.float16, None), (torch.bfloat16, None), (torch.float32, "tf32"), (torch.float32, "ieee"),
           (torch.int8, None)]
# The last four have fewer 32x32 atoms than warps: the warps replicate.
_SHAPES_22 = [(32, 32, 16, 1), (64, 64, 32, 4), (64, 32, 16, 2), (32, 64, 32, 2), (128, 64, 16, 8), (64, 128, 32, 8),
              (16, 64, 32, 4), (32, 64, 16, 4), (64, 32, 64, 4), (64, 32, 32, 4), (32, 32, 16, 8)]
# The last three: no SQMMA (num_warps 1 or 2, or 16x16), so PH1's WMMA for f16/bf16.
_SHAPES_31 = [(32, 32, 16, 4), (64, 64, 32, 4), (64, 32, 32, 2), (16, 16, 16, 1), (16, 16, 32, 4)]
_GRID = ([("mp_22", dt, prec, *shape) for dt, prec in _DTYPES[:2] for shape in _SHAPES_22] +
         [("mp_22", dt, prec, *shape) for dt, prec in _DTYPES[2:] for shape in _SHAPES_22[:4]] +
         [("mp_31", dt, prec, *shape) for dt, prec in _DTYPES + [(torch.float8_e4m3fn, None), (torch.float8_e5m2, None)]
          for shape in _SHAPES_31])


@pytest.mark.parametrize("arch,dtype,prec,BM,BN,BK,num_warps", _GRID,
                         ids=lambda v: str(v).replace("torch.", "") if not isinstance(v, int) else str(v))
def test_dot_path_coverage(arch: str, dtype: torch.dtype, prec: Optional[str], BM: int, BN: int, BK: int,
                           num_warps: int) -> None:
    d, ref, ttgir = run_matmul(arch, dtype, BM, BN, 2 * BK, BM, BN, BK, num_warps, prec=prec)
    paths = reported_paths(ttgir)
    assert [p for p, _ in paths] == [expected_path(arch, dtype, prec, BM, BN, BK, num_warps)], paths
    if paths[0][0] == "wmma":
        atom = ph1_wmma_atom(BK) if arch == "mp_31" else "m32n32k16"
        warps = expected_wmma_warps(BM, BN, num_warps, 16 if arch == "mp_31" else 32)
        upcast = ", operands upcast to f16" if dtype in _FP8 else ""
        assert paths[0][1] == f"{atom}, warpsPerCTA {warps}{upcast}", paths
    if paths[0][0] == "fma":
        assert paths[0][1].startswith("(") and len(paths[0][1]) > 2, "an FMA dot must say why"
    check(d, ref, dtype, prec)


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
    _, _, ttgir = run_matmul("mp_22", torch.float16, 64, 64, 64, 64, 64, 32, 4)
    module = parse_ttgir(ttgir)
    run_passes(module, f"builtin.module({MatmulOptions().pass_spec()})")
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
    assert reported_paths(ttgir, MatmulOptions.from_env()) == [("fma", f"({reason})")]
    check(d, ref, torch.float16)


@pytest.mark.parametrize("env,dtype,prec,path", [
    ("MUSA_ENABLE_SQMMA", torch.float16, None, ("wmma", "m16n16k32, warpsPerCTA [2, 2]")),
    ("MUSA_ENABLE_SQMMA", torch.float32, "tf32", ("fma", "(SQMMA disabled (MUSA_ENABLE_SQMMA=0))")),
    ("ENABLE_MUSA_MMA", torch.float16, None, ("fma", "(matrix units disabled (ENABLE_MUSA_MMA=0))")),
])
def test_sqmma_switches(monkeypatch: pytest.MonkeyPatch, env: str, dtype: torch.dtype, prec: Optional[str],
                        path: Tuple[str, str]) -> None:
    """MUSA_ENABLE_SQMMA=0 hands mp_31's f16/bf16 dots to its WMMA (other dtypes to FMA); ENABLE_MUSA_MMA=0
    keeps every dot on FMA."""
    monkeypatch.setenv(env, "0")
    d, ref, ttgir = run_matmul("mp_31", dtype, 64, 64, 64, 64, 64, 32, 4, prec=prec)
    assert reported_paths(ttgir, MatmulOptions.from_env()) == [path]
    check(d, ref, dtype, prec)


def test_sqmma_fma_reasons() -> None:
    """What neither SQMMA nor PH1's WMMA takes stays on FMA with SQMMA's reason, then WMMA's."""
    _, _, ttgir = run_matmul("mp_31", torch.float32, 64, 64, 64, 64, 64, 32, 2, prec="tf32")
    assert reported_paths(ttgir) == [("fma", "(num_warps = 2 is not a multiple of 4 (SQMMA runs on squads of 4 "
                                             "warps))")]
    _, _, ttgir = run_matmul("mp_31", torch.float32, 64, 64, 64, 64, 64, 32, 4, prec="ieee")
    assert reported_paths(ttgir) == [("fma", "(f32 operands with input_precision = ieee (only tf32 takes a matrix "
                                             "path))")]


# --- PH1 (mp_31) WMMA: the f16/bf16 dots SQMMA cannot take ------------------------------------------
#
# m16n16k32 / m16n16k16 atoms on 32-lane warps (MUSA-FACTS.md, from the open MUSA backend, which states the shape list,
# the accumulator and operand fragments with their register order, and the intrinsic's sat/fmt/layout
# arguments). Inferred, so checked only against our own emulator: that products are exact and the f32 sums
# round once per add, as on QY2.

# (M, N, K, BM, BN, BK, num_warps) -> warpsPerCTA.
_PH1_WMMA = [
    ((64, 64, 64, 64, 64, 32, 2), "[2, 1]"),
    ((32, 64, 64, 32, 64, 16, 2), "[1, 2]"),  # 32 + 32 values a warp reads, not 16 + 64
    ((32, 32, 48, 16, 16, 16, 1), "[1, 1]"),
    ((128, 64, 64, 64, 64, 64, 1), "[1, 1]"),
    ((16, 32, 64, 16, 32, 32, 4), "[1, 4]"),
    ((32, 32, 32, 16, 16, 16, 8), "[1, 8]"),
]


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
@pytest.mark.parametrize("shape,warps", _PH1_WMMA, ids=lambda v: "x".join(map(str, v)) if isinstance(v, tuple)
                         else "")
def test_ph1_wmma(dtype: torch.dtype, shape: Tuple[int, ...], warps: str) -> None:
    """Multi-block grids, K loops, an initial accumulator and B read transposed on alternate cases."""
    M, N, K, BM, BN, BK, num_warps = shape
    odd = sum(shape) % 2 == 1
    d, ref, ttgir = run_matmul("mp_31", dtype, M, N, K, BM, BN, BK, num_warps, has_c=odd, trans_b=not odd,
                               seed=sum(shape))
    assert reported_paths(ttgir) == [("wmma", f"{ph1_wmma_atom(BK)}, warpsPerCTA {warps}")]
    check(d, ref, dtype)


@pytest.mark.parametrize("num_stages", [1, 3])
def test_ph1_wmma_pipelined(num_stages: int) -> None:
    """Two warps on a pipelined K loop: the operand loads become async copies, the dots (two per step,
    chained on one accumulator) PH1's WMMA on operands read from the ring buffers."""
    d, ref, kernel = run_sqmma(torch.float16, 128, 64, 256, 64, 64, 32, 2, num_stages=num_stages, has_c=True,
                               two_dots=True, seed=13)
    assert reported_paths(kernel.asm["ttgir"]) == [("wmma", "m16n16k32, warpsPerCTA [2, 1]")] * 2
    if num_stages > 1:
        # A, B and B2, which Triton keeps in shared buffers for the register operands: the rings take those
        # buffers' place (and layout), read back with local_load; nothing stays in flight (no SQMMA).
        remark = pipelined(kernel.asm["ttgir"], num_stages)
        assert "3 loads as async copies (3 read in place)" in remark and "in flight" not in remark, remark
    check(d, ref, torch.float16)


@pytest.mark.parametrize("dtype", [torch.float8_e4m3fn, torch.float8_e5m2])
@pytest.mark.parametrize("num_stages", [1, 3])
def test_fp8_two_warps_upcast_to_f16_wmma(dtype: torch.dtype, num_stages: int) -> None:
    """fp8 dots on two warps (tutorial 03's small configs): no SQMMA (one squad is four warps) and no fp8 WMMA
    row lowered, so PH1's f16 WMMA on operands upcast in their fragments (exact), read from the rings."""
    d, ref, kernel = run_sqmma(dtype, 64, 64, 256, 64, 32, 32, 2, num_stages=num_stages, seed=17)
    assert reported_paths(kernel.asm["ttgir"], num_stages=num_stages) == \
        [("wmma", "m16n16k32, warpsPerCTA [2, 1], operands upcast to f16")]
    if num_stages > 1:
        assert "2 loads as async copies" in pipelined(kernel.asm["ttgir"], num_stages)
    check(d, ref, dtype)


# --- SQMMA end to end: operands from (pipelined) shared memory ----------------------------------


@triton.jit
def sqmma_kernel(a_ptr, b_ptr, b2_ptr, c_ptr, d_ptr, K, sam, sak, sbk, sbn, sdm, BM: tl.constexpr, BN: tl.constexpr,
                 BK: tl.constexpr, HAS_C: tl.constexpr, TWO_DOTS: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    if HAS_C:
        acc += tl.load(c_ptr + rm[:, None] * sdm + rn[None, :])
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * sam + (k + rk)[None, :] * sak)
        b = tl.load(b_ptr + (k + rk)[:, None] * sbk + rn[None, :] * sbn)
        acc = tl.dot(a, b, acc)
        if TWO_DOTS:
            # A second dot chained on the first's accumulator, B2 read like B.
            b2 = tl.load(b2_ptr + (k + rk)[:, None] * sbk + rn[None, :] * sbn)
            acc = tl.dot(a, b2, acc)
    tl.store(d_ptr + rm[:, None] * sdm + rn[None, :], acc)


def run_sqmma(dtype: torch.dtype, M: int, N: int, K: int, BM: int, BN: int, BK: int, num_warps: int, *,
              num_stages: int = 1, trans_a: bool = False, trans_b: bool = False, has_c: bool = False,
              two_dots: bool = False, seed: int = 0) -> Tuple[torch.Tensor, torch.Tensor, Any]:
    """sqmma_kernel on mp_31, specialized as Triton's JIT would (unit strides constant, 16-aligned values marked
    divisible by 16, so that the pipeliner makes async copies); returns (result, float64 reference, kernel).
    trans_a / trans_b store A / B column-major in memory."""
    gen = torch.Generator().manual_seed(seed)
    a = _inputs(dtype, (M, K), gen)
    b = _inputs(dtype, (K, N), gen)
    b2 = _inputs(dtype, (K, N), gen)
    c = torch.randn((M, N), generator=gen) if has_c else torch.zeros((M, N))
    d = torch.empty((M, N), dtype=torch.float32)
    a_mem = a.t().contiguous().t() if trans_a else a
    b_mem = b.t().contiguous().t() if trans_b else b
    b2_mem = b2.t().contiguous().t() if trans_b else b2
    args: Dict[str, Any] = dict(a_ptr=a_mem, b_ptr=b_mem, b2_ptr=b2_mem, c_ptr=c, d_ptr=d, K=K, sam=a_mem.stride(0),
                                sak=a_mem.stride(1), sbk=b_mem.stride(0), sbn=b_mem.stride(1), sdm=d.stride(0))
    constexprs = dict(BM=BM, BN=BN, BK=BK, HAS_C=has_c, TWO_DOTS=two_dots)
    kernel, consts = compile_specialized(sqmma_kernel, "mp_31", args, constexprs, num_warps=num_warps,
                                         num_stages=num_stages)
    launch(kernel, sqmma_kernel, (M // BM, N // BN), args, consts)
    ref = a.to(torch.float64) @ b.to(torch.float64) + c.to(torch.float64)
    if two_dots:
        ref += a.to(torch.float64) @ b2.to(torch.float64)
    return d, ref, kernel


def sqmma_reports(kernel: Any) -> list[Tuple[str, str]]:
    paths = reported_paths(kernel.asm["ttgir"])
    assert paths and all(p == "sqmma" for p, _ in paths), paths
    return paths


# (BM, BN, BK, num_warps) -> the instruction the heuristic picks (fewest instructions per squad, then the
# largest; f16 K = 128 goes as K steps of 64).
_SQMMA_SHAPES = [
    ((64, 64, 32, 4), "m64n64k32, warpsPerCTA [4, 1]"),
    ((128, 128, 64, 4), "m128n128k64, warpsPerCTA [4, 1]"),
    ((64, 64, 128, 4), "m64n64k64, warpsPerCTA [4, 1]"),
    ((128, 64, 32, 8), "m64n64k32, warpsPerCTA [8, 1]"),
    ((64, 128, 64, 8), "m32n128k64, warpsPerCTA [8, 1]"),
    ((64, 256, 32, 8), "m64n128k32, warpsPerCTA [4, 2]"),
    ((32, 64, 16, 4), "m32n64k16, warpsPerCTA [4, 1]"),
    ((16, 64, 32, 4), "m16n64k32, warpsPerCTA [4, 1]"),
]


@pytest.mark.parametrize("shape,instr", _SQMMA_SHAPES, ids=lambda v: "x".join(map(str, v)) if isinstance(v, tuple)
                         else "")
@pytest.mark.parametrize("num_stages", [1, 3])
def test_sqmma_shapes(shape: Tuple[int, int, int, int], instr: str, num_stages: int) -> None:
    BM, BN, BK, num_warps = shape
    d, ref, kernel = run_sqmma(torch.float16, 2 * BM, BN, 2 * BK, BM, BN, BK, num_warps, num_stages=num_stages)
    [(_, details)] = sqmma_reports(kernel)
    assert details.startswith(instr + ", A K-major, B N-major"), details
    check(d, ref, torch.float16)


@pytest.mark.parametrize("num_stages", [1, 2, 3])
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_sqmma_pipelined_128x128x64(dtype: torch.dtype, num_stages: int) -> None:
    """The issue's kernel: with num_stages > 1 the sqmma reads the pipeliner's ring buffers themselves."""
    d, ref, kernel = run_sqmma(dtype, 128, 256, 256, 128, 128, 64, 4, num_stages=num_stages, seed=num_stages)
    ttgir = kernel.asm["ttgir"]
    [(_, details)] = reported_paths(ttgir, num_stages=num_stages)
    if num_stages > 1:
        assert details.endswith("operands from the pipelined buffers"), details
        remark = pipelined(ttgir, num_stages)
        # Both tiles read in place, rings of num_stages slots, each sqmma waited for in its iteration.
        assert "2 loads as async copies (2 read in place)" in remark, remark
        assert f"rings of {num_stages} slots" in remark and "in flight" not in remark, remark
        from triton_musa.backend.lowering import matrix_passes
        module = parse_ttgir(ttgir)
        run_passes(module, f"builtin.module({matrix_passes('emulator', num_stages=num_stages)})")
        text = str(module)
        rings = re.findall(r"ttg\.local_alloc \{alignment = \d+ : i32\} : \(\) -> !ttg\.memdesc<(\d+)x", text)
        assert rings == [str(num_stages)] * 2, rings
        loop = text[text.index("scf.for"):text.index("scf.yield")]
        # No register round trip of the operands in the K loop, and the accumulator stays in its layout.
        assert "ttg.local_load" not in loop and "ttg.convert_layout" not in loop, loop
        # The copies for a later iteration go first, then the sqmma, which they overlap, and its wait.
        lines = [line.strip() for line in text[text.index("scf.for"):text.index("scf.yield")].splitlines()]
        issue = next(i for i, line in enumerate(lines) if "musagpu.sqmma " in line)
        waits = [i for i, line in enumerate(lines) if "musagpu.sqmma_wait" in line]
        refills = [i for i, line in enumerate(lines) if "ttg.async_copy_global_to_local" in line]
        assert len(refills) == 2 and max(refills) < issue, "\n".join(lines)
        assert waits == [issue + 1], "\n".join(lines)
    check(d, ref, dtype)


@pytest.mark.parametrize("num_stages", [3, 4])
def test_sqmma_in_flight_within_stages(num_stages: int) -> None:
    """Short K steps (32 f16) where one more ring slot would cost a block per SM: the sqmma stays in flight
    within num_stages slots, the copies issued num_stages - 2 iterations ahead (--musa-pipeline-loops)."""
    d, ref, kernel = run_sqmma(torch.float16, 128, 128, 320, 64, 64, 32, 4, num_stages=num_stages, seed=11)
    remark = pipelined(kernel.asm["ttgir"], num_stages)
    ahead = num_stages - 2
    assert f"rings of {num_stages} slots, copies issued {ahead} iteration" in remark, remark
    assert "the matrix unit in flight" in remark, remark
    check(d, ref, torch.float16)


@pytest.mark.parametrize("trans_a,trans_b", [(True, False), (False, True), (True, True)])
@pytest.mark.parametrize("num_stages", [1, 3])
def test_sqmma_transposed_operands(trans_a: bool, trans_b: bool, num_stages: int) -> None:
    """Column-major A (M-major buffer, transA) and column-major B (K-major buffer, transB): the 32-byte
    MN-major swizzle and the 16-byte K-major one."""
    d, ref, kernel = run_sqmma(torch.bfloat16, 128, 128, 128, 64, 64, 32, 4, num_stages=num_stages,
                               trans_a=trans_a, trans_b=trans_b, seed=5)
    [(_, details)] = sqmma_reports(kernel)
    if num_stages > 1:
        assert f"A {'M' if trans_a else 'K'}-major, B {'K' if trans_b else 'N'}-major" in details, details
    check(d, ref, torch.bfloat16)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_sqmma_chained_accumulators(dtype: torch.dtype) -> None:
    """An initial accumulator, two dots per K step chained on one accumulator, a 2x2 grid of blocks."""
    d, ref, kernel = run_sqmma(dtype, 128, 128, 192, 64, 64, 64, 4, num_stages=2, has_c=True, two_dots=True,
                               seed=7)
    assert len(sqmma_reports(kernel)) == 2
    check(d, ref, dtype)


@pytest.mark.parametrize("dtype,prec", [(torch.float32, "tf32"), (torch.int8, None), (torch.float8_e4m3fn, None),
                                        (torch.float8_e5m2, None)])
def test_sqmma_other_dtypes(dtype: torch.dtype, prec: Optional[str]) -> None:
    d, ref, ttgir = run_matmul("mp_31", dtype, 64, 64, 128, 64, 64, 64, 4, prec=prec, has_c=True, seed=11)
    assert [p for p, _ in reported_paths(ttgir)] == ["sqmma"]
    check(d, ref, dtype, prec)


def test_proxy_keeps_mp31_dots_on_fma() -> None:
    """The GPU proxy runs mp_31's TTGIR through NVVM, which has no SQMMA: an f16 dot compiles there on FMA
    (and the same dot for mp_31 itself takes SQMMA)."""
    from triton.backends.compiler import GPUTarget
    constexprs = dict(BM=64, BN=64, BK=32, HAS_C=False, TRANS_B=False, INT_ACC=False, PREC=None)
    signature = {n: "constexpr" if n in constexprs else "i32" for n in matmul_kernel.arg_names}
    signature.update(a_ptr="*fp16", b_ptr="*fp16", c_ptr="*fp32", d_ptr="*fp32")
    src = ASTSource(matmul_kernel, signature=signature, constexprs=constexprs)
    kernel = triton.compile(src, target=GPUTarget("musa", "proxy_sm90", 32), options=dict(num_warps=4))
    assert ".visible .entry matmul_kernel(" in kernel.asm["ptx"]
    assert [p for p, _ in reported_paths(kernel.asm["ttgir"])] == ["sqmma"]


# --- Batched (rank-3) tl.dot ----------------------------------------------------------------------


@triton.jit
def bmm_kernel(a_ptr, b_ptr, d_ptr, K, sab, sam, sak, sbb, sbk, sbn, sdb, sdm, BB: tl.constexpr, BM: tl.constexpr,
               BN: tl.constexpr, BK: tl.constexpr):
    rb = tl.program_id(2) * BB + tl.arange(0, BB)
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BB, BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rb[:, None, None] * sab + rm[None, :, None] * sam + (k + rk)[None, None, :] * sak)
        b = tl.load(b_ptr + rb[:, None, None] * sbb + (k + rk)[None, :, None] * sbk + rn[None, None, :] * sbn)
        acc = tl.dot(a, b, acc)
    tl.store(d_ptr + rb[:, None, None] * sdb + rm[None, :, None] * sdm + rn[None, None, :], acc)


def run_bmm(arch: str, dtype: torch.dtype, B: int, M: int, N: int, K: int, BB: int, BM: int, BN: int, BK: int,
            num_warps: int, seed: int = 0, num_stages: Optional[int] = None) -> Tuple[torch.Tensor, torch.Tensor, str]:
    """bmm_kernel on the emulated `arch` over a (M/BM, N/BN, B/BB) grid; returns (result, torch.bmm in float64,
    ttgir). With `num_stages`, specialized as Triton's JIT would (unit strides constant, 16-divisible values
    marked), so that the pipeliner turns the operand loads into async copies."""
    gen = torch.Generator().manual_seed(seed)
    a = _inputs(dtype, (B, M, K), gen)
    b = _inputs(dtype, (B, K, N), gen)
    d = torch.empty((B, M, N), dtype=torch.float32)
    args: Dict[str, Any] = dict(a_ptr=a, b_ptr=b, d_ptr=d, K=K, sab=a.stride(0), sam=a.stride(1), sak=a.stride(2),
                                sbb=b.stride(0), sbk=b.stride(1), sbn=b.stride(2), sdb=d.stride(0), sdm=d.stride(1))
    constexprs = dict(BB=BB, BM=BM, BN=BN, BK=BK)
    if num_stages is not None:
        kernel, consts = compile_specialized(bmm_kernel, arch, args, constexprs, num_warps=num_warps,
                                             num_stages=num_stages)
    else:
        signature = {n: ("constexpr" if n in constexprs else
                         ("*" + _SIG[args[n].dtype]) if isinstance(args[n], torch.Tensor) else "i32")
                     for n in bmm_kernel.arg_names}
        kernel = triton.compile(ASTSource(bmm_kernel, signature=signature, constexprs=constexprs),
                                target=TARGETS[arch], options=dict(num_warps=num_warps))
        consts = constexprs
    launch(kernel, bmm_kernel, (M // BM, N // BN, B // BB), args, consts)
    ref = torch.bmm(a.to(torch.float64), b.to(torch.float64))
    return d, ref, kernel.asm["ttgir"]


# (B, M, N, K, BB, BM, BN, BK, num_warps) -> the WMMA warps: batch first (as many warps as the block's batch
# takes), then M x N as for a 2-D dot. Further batches of a thread are further registers.
_BMM_WMMA = [
    ((4, 64, 64, 32, 4, 64, 64, 32, 4), "[4, 1, 1]"),
    ((2, 64, 64, 64, 2, 64, 64, 32, 4), "[2, 2, 1]"),
    ((8, 32, 32, 16, 8, 32, 32, 16, 4), "[4, 1, 1]"),
    ((1, 64, 64, 32, 1, 64, 64, 32, 2), "[1, 2, 1]"),
    ((8, 128, 64, 64, 2, 64, 64, 32, 4), "[2, 2, 1]"),
    ((4, 32, 64, 48, 4, 32, 32, 16, 1), "[1, 1, 1]"),
    ((2, 64, 128, 32, 2, 64, 128, 16, 8), "[2, 2, 2]"),
    # Fewer atoms than warps: the warps past the atoms replicate, along N.
    ((2, 32, 32, 16, 2, 32, 32, 16, 4), "[2, 1, 2]"),
    ((2, 32, 64, 32, 2, 32, 64, 32, 8), "[2, 1, 4]"),
    ((1, 64, 32, 64, 1, 64, 32, 32, 8), "[1, 2, 4]"),
]


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
@pytest.mark.parametrize("shape,warps", _BMM_WMMA, ids=lambda v: "x".join(map(str, v)) if isinstance(v, tuple)
                         else "")
def test_bmm_wmma(dtype: torch.dtype, shape: Tuple[int, ...], warps: str) -> None:
    """A batched tl.dot on QY2's WMMA, each batch a sequence of m32n32k16 atoms, against torch.bmm."""
    d, ref, ttgir = run_bmm("mp_22", dtype, *shape, seed=sum(shape))
    assert reported_paths(ttgir) == [("wmma", f"m32n32k16, warpsPerCTA {warps}")]
    check(d, ref, dtype)


# (B, M, N, K, BB, BM, BN, BK, num_warps) -> PH1 WMMA warps, for batched dots SQMMA cannot take.
_BMM_PH1_WMMA = [
    ((2, 16, 32, 16, 2, 16, 32, 16, 4), "[2, 1, 2]"),
    ((2, 64, 64, 32, 2, 64, 64, 32, 2), "[2, 1, 1]"),
    ((4, 16, 32, 64, 4, 16, 32, 32, 2), "[2, 1, 1]"),
]


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
@pytest.mark.parametrize("shape,warps", _BMM_PH1_WMMA, ids=lambda v: "x".join(map(str, v)) if isinstance(v, tuple)
                         else "")
def test_bmm_ph1_wmma(dtype: torch.dtype, shape: Tuple[int, ...], warps: str) -> None:
    """A batched tl.dot SQMMA cannot take (16-row tiles, num_warps 2) on PH1's WMMA, against torch.bmm."""
    d, ref, ttgir = run_bmm("mp_31", dtype, *shape, seed=sum(shape))
    assert reported_paths(ttgir) == [("wmma", f"{ph1_wmma_atom(shape[7])}, warpsPerCTA {warps}")]
    check(d, ref, dtype)


# (B, M, N, K, BB, BM, BN, BK, num_warps) -> the SQMMA instruction and warps: squads go to the batch first, the
# rest as for a 2-D dot; the operands are stored batch outermost into fresh swizzled buffers.
_BMM_SQMMA = [
    ((2, 64, 64, 32, 2, 64, 64, 32, 4), "m64n64k32, warpsPerCTA [1, 4, 1]"),
    ((2, 64, 64, 32, 2, 64, 64, 32, 8), "m64n64k32, warpsPerCTA [2, 4, 1]"),
    ((4, 32, 32, 16, 4, 32, 32, 16, 4), "m32n32k16, warpsPerCTA [1, 4, 1]"),
    ((4, 64, 128, 64, 4, 64, 128, 64, 8), "m64n128k64, warpsPerCTA [2, 4, 1]"),
    ((4, 128, 64, 128, 2, 64, 64, 32, 8), "m64n64k32, warpsPerCTA [2, 4, 1]"),
    ((2, 64, 256, 32, 2, 64, 256, 32, 4), "m64n128k32, warpsPerCTA [1, 4, 1]"),
]


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
@pytest.mark.parametrize("shape,instr", _BMM_SQMMA, ids=lambda v: "x".join(map(str, v)) if isinstance(v, tuple)
                         else "")
def test_bmm_sqmma(dtype: torch.dtype, shape: Tuple[int, ...], instr: str) -> None:
    """A batched tl.dot on mp_31's SQMMA, per batch descriptors into 3-D operand buffers, against torch.bmm."""
    d, ref, ttgir = run_bmm("mp_31", dtype, *shape, seed=sum(shape))
    assert reported_paths(ttgir) == [("sqmma", f"{instr}, A K-major, B N-major")]
    check(d, ref, dtype)


def test_bmm_fma_reasons() -> None:
    """What no batched matrix path covers stays on FMA and says why (on mp_31 PH1's WMMA takes every f16/bf16
    batched dot SQMMA cannot: test_bmm_ph1_wmma)."""
    d, ref, ttgir = run_bmm("mp_22", torch.float16, 2, 16, 64, 32, 2, 16, 64, 32, 4)
    assert reported_paths(ttgir) == [("fma", "(shape 16x64x32 is not a multiple of the m32n32k16 atom)")]
    check(d, ref, torch.float16)


@pytest.mark.parametrize("num_stages", [2, 3])
@pytest.mark.parametrize("arch,num_warps,path", [("mp_22", 4, "wmma m32n32k16, warpsPerCTA [2, 2, 1]"),
                                                 ("mp_31", 8, "sqmma m64n64k32, warpsPerCTA [2, 4, 1], A K-major, "
                                                  "B N-major, operands from the pipelined buffers")])
def test_bmm_pipelined(arch: str, num_warps: int, path: str, num_stages: int) -> None:
    """A batched K loop whose operand loads the pipeliner turns into async copies into 3-D ring slots: WMMA reads
    them through local_load; SQMMA reads the ring slots themselves, in its batch-outermost layout."""
    d, ref, ttgir = run_bmm(arch, torch.float16, 4, 64, 64, 128, 2, 64, 64, 32, num_warps, seed=num_stages,
                            num_stages=num_stages)
    pipelined(ttgir, num_stages)
    [(got, details)] = reported_paths(ttgir, num_stages=num_stages)
    assert f"{got} {details}".startswith(path), details
    check(d, ref, torch.float16)
