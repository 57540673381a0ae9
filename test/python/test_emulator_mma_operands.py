"""Matrix-unit dots on the CPU emulator, against PyTorch: f16 accumulators (`out_dtype=tl.float16`), operands
transposed in the kernel (`tl.trans`, `.T`), and one operand read by two dots.

WMMA and SQMMA accumulate in f32 only (MUSA-FACTS.md). An f16 accumulator runs on them widened to f32 and is
rounded once per dot, as the FMA path sums an f16 accumulator: the reference rounds to f16 after each K step.
"""

from __future__ import annotations

import re
from typing import Any, Dict, List, Tuple

import pytest

torch = pytest.importorskip("torch")
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

from corpus import TARGETS  # noqa: E402
from dot_paths import read_dot_paths  # noqa: E402
from jit_compile import compile_specialized  # noqa: E402
from triton_musa.backend.emulator import emulator_active  # noqa: E402
from triton_musa.backend.lowering import MatmulOptions, dot_path_report, parse_ttgir, run_passes  # noqa: E402

pytestmark = pytest.mark.skipif(not emulator_active(), reason="a MUSA device or another GPU driver is active here; "
                                "the emulator runs where none is (or with TRITON_MUSA_EMULATOR=1)")



def reports(kernel: Any) -> List[Tuple[str, str, str]]:
    """(result type, path, details) per dot, from --musa-dot-path-report."""
    return [(dot.acc, dot.path, dot.details) for dot in read_dot_paths(dot_path_report(kernel.asm["ttgir"]))]


def accelerated_ttgir(kernel: Any, *then: str) -> str:
    """The kernel's TTGIR after --musa-accelerate-matmul and the passes `then`."""
    module = parse_ttgir(kernel.asm["ttgir"])
    run_passes(module, f"builtin.module({','.join([MatmulOptions().pass_spec(), *then])})")
    return str(module)


def compile_for(fn: Any, arch: str, args: Dict[str, Any], consts: Dict[str, Any], **options: Any) -> Any:
    """`fn` compiled for `arch` as Triton's JIT specializes it (so that the pipeliner can make async copies);
    `consts` gains the integer arguments that became constants."""
    kernel, specialized = compile_specialized(fn, arch, args, consts, **options)
    consts.update(specialized)
    return kernel


def launch(kernel: Any, fn: Any, grid: Tuple[int, int], args: Dict[str, Any], consts: Dict[str, Any]) -> None:
    kernel[(*grid, 1)](*[consts[n] if n in consts else args[n] for n in fn.arg_names])


# --- f16 accumulators ----------------------------------------------------------------------------------------


@triton.jit
def f16_acc_kernel(a_ptr, b_ptr, c_ptr, d_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                   HAS_C: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    N = tl.num_programs(1) * BN
    if HAS_C:
        acc = tl.load(c_ptr + rm[:, None] * N + rn[None, :])
    else:
        acc = tl.zeros((BM, BN), dtype=tl.float16)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(a, b, acc, out_dtype=tl.float16)
    tl.store(d_ptr + rm[:, None] * N + rn[None, :], acc)


def f16_ulp(x: torch.Tensor) -> torch.Tensor:
    """The spacing of f16 numbers at |x| (subnormal spacing below 2^-14)."""
    _, exponent = torch.frexp(x.float().abs())
    return torch.exp2((exponent - 1).clamp(min=-14).float() - 10)


def check_rounded_per_step(d: torch.Tensor, c: torch.Tensor, a: torch.Tensor, b: torch.Tensor, bk: int) -> None:
    """`d` against the reference that rounds the accumulator to f16 after each K step of `bk`. Inside a step the
    f32 sums may differ in order, so a step's rounding may land on the neighbouring f16: at most one ulp (at the
    largest partial sum's magnitude) per step, kept by the later steps."""
    ref, largest = c, c.float().abs()
    steps = 0
    for k in range(0, a.shape[1], bk):
        ref = (ref.float() + a[:, k:k + bk].float() @ b[k:k + bk].float()).half()
        largest = torch.maximum(largest, ref.float().abs())
        steps += 1
    err = (d.float() - ref.float()).abs()
    bad = err > steps * f16_ulp(largest)
    assert not bad.any(), f"{int(bad.sum())} of {d.numel()} elements off by more than {steps} f16 ulps; max " \
                          f"error {err.max().item()}"
    assert (err == 0).float().mean() > 0.95, "most elements round exactly as the reference"


# (arch, dtype, BM, BN, BK, num_warps, expected path)
_F16_ACC = [
    ("mp_22", torch.float16, 64, 64, 32, 4, "wmma"),
    ("mp_22", torch.float16, 64, 128, 16, 8, "wmma"),
    ("mp_22", torch.float16, 16, 64, 32, 4, "fma"),  # no whole m32n32k16 atom: the same rounding on FMA
    ("mp_31", torch.float16, 64, 64, 32, 4, "sqmma"),
    ("mp_31", torch.float16, 128, 64, 64, 8, "sqmma"),
    ("mp_31", torch.float8_e4m3fn, 64, 64, 64, 4, "sqmma"),
    ("mp_31", torch.float8_e5m2, 64, 32, 64, 4, "sqmma"),
    ("mp_31", torch.float16, 32, 32, 16, 2, "wmma"),  # 2 warps: no squad, so PH1's WMMA
]


@pytest.mark.parametrize("has_c", [False, True])
@pytest.mark.parametrize("arch,dtype,BM,BN,BK,num_warps,path", _F16_ACC,
                         ids=lambda v: str(v).replace("torch.", "") if not isinstance(v, int) else str(v))
def test_f16_accumulator(arch: str, dtype: torch.dtype, BM: int, BN: int, BK: int, num_warps: int, path: str,
                         has_c: bool) -> None:
    gen = torch.Generator().manual_seed(BM + BN + BK)
    M, N, K = 2 * BM, 2 * BN, 3 * BK
    a = torch.randn((M, K), generator=gen).clamp(-3, 3).to(dtype)
    b = torch.randn((K, N), generator=gen).clamp(-3, 3).to(dtype)
    c = torch.randn((M, N), generator=gen).half()
    d = torch.empty((M, N), dtype=torch.float16)
    args = dict(a_ptr=a, b_ptr=b, c_ptr=c, d_ptr=d, K=K)
    consts = dict(BM=BM, BN=BN, BK=BK, HAS_C=has_c)
    kernel = compile_for(f16_acc_kernel, arch, args, consts, num_warps=num_warps)
    [(result, taken, details)] = reports(kernel)
    assert (result, taken) == ("f16", path), details
    if path != "fma":
        assert details.endswith("accumulating in f32"), details
    launch(kernel, f16_acc_kernel, (M // BM, N // BN), args, consts)
    check_rounded_per_step(d, c if has_c else torch.zeros((M, N), dtype=torch.float16), a, b, BK)


# --- operands transposed in the kernel ------------------------------------------------------------------------


@triton.jit
def trans_kernel(at_ptr, bt_ptr, d_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                 TRANS_A: tl.constexpr, TRANS_B: tl.constexpr):
    # at is stored K x M when TRANS_A (else M x K), bt N x K when TRANS_B (else K x N); the kernel transposes
    # the loaded tiles with tl.trans / .T.
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        if TRANS_A:
            a = tl.trans(tl.load(at_ptr + (k + rk)[:, None] * M + rm[None, :]))
        else:
            a = tl.load(at_ptr + rm[:, None] * K + (k + rk)[None, :])
        if TRANS_B:
            b = tl.load(bt_ptr + rn[:, None] * K + (k + rk)[None, :]).T
        else:
            b = tl.load(bt_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(a, b, acc)
    tl.store(d_ptr + rm[:, None] * N + rn[None, :], acc)


_TRANS = [(True, True), (True, False), (False, True)]


@pytest.mark.parametrize("num_stages", [1, 3])
@pytest.mark.parametrize("trans_a,trans_b", _TRANS)
@pytest.mark.parametrize("arch,BM,BN,BK,num_warps", [("mp_31", 64, 32, 32, 4), ("mp_31", 128, 64, 32, 8),
                                                     ("mp_22", 64, 64, 32, 4)])
def test_transposed_in_kernel(arch: str, BM: int, BN: int, BK: int, num_warps: int, trans_a: bool, trans_b: bool,
                              num_stages: int) -> None:
    """On mp_31 the sqmma reads a transposed tile through a memdesc_trans of its SQMMA buffer, stored in the
    layout seen through the transpose (a ring slot when pipelined, if the slot spans whole swizzle periods);
    nothing is loaded into registers and stored again."""
    gen = torch.Generator().manual_seed(BM * 7 + BK)
    M, N, K = 2 * BM, 2 * BN, 4 * BK
    a = torch.randn((M, K), generator=gen).half()
    b = torch.randn((K, N), generator=gen).half()
    d = torch.empty((M, N))
    at = a.t().contiguous() if trans_a else a
    bt = b.t().contiguous() if trans_b else b
    args = dict(at_ptr=at, bt_ptr=bt, d_ptr=d, M=M, N=N, K=K)
    consts = dict(BM=BM, BN=BN, BK=BK, TRANS_A=trans_a, TRANS_B=trans_b)
    kernel = compile_for(trans_kernel, arch, args, consts, num_warps=num_warps, num_stages=num_stages)
    pipeline = ["musa-sink-accumulator-conversions", f"musa-pipeline-loops{{num-stages={num_stages}}}"]
    assert ("ttg.async_copy_global_to_local" in accelerated_ttgir(kernel, *pipeline)) == (num_stages > 1)
    [(_, path, details)] = reports(kernel)
    if arch == "mp_31":
        assert path == "sqmma", details
        assert f"A {'M' if trans_a else 'K'}-major, B {'K' if trans_b else 'N'}-major" in details, details
        text = accelerated_ttgir(kernel, *pipeline)
        sqmma = next(line for line in text.splitlines() if "musagpu.sqmma " in line)
        views = {line.split(" = ")[0].strip(): line for line in text.splitlines() if "ttg.memdesc_trans" in line}
        operands = re.search(r"musagpu\.sqmma (%\S+), (%\S+),", sqmma).groups()
        # The transposed operand is stored once into an SQMMA buffer in the layout seen through the transpose,
        # which the sqmma reads through a memdesc_trans view. A ring slot smaller than the operand's swizzle
        # period (256 * 256 / granule bytes: 16-byte granules K-major, 32-byte MN-major) cannot take that
        # buffer's place, its swizzle would differ from slot to slot: that tile is read back from a plain ring
        # and stored into the buffer.
        slot_bytes = (BM * BK * 2, BK * BN * 2)
        periods = (2048 if trans_a else 4096, 4096 if trans_b else 2048)
        in_place = [num_stages == 1 or slot % period == 0 for slot, period in zip(slot_bytes, periods)]
        for operand, transposed in zip(operands, (trans_a, trans_b)):
            assert (operand in views) == transposed, f"{operand} in\n{sqmma}\nviews: {list(views)}"
        if all(in_place):
            assert "ttg.local_load" not in text, "an operand went through registers:\n" + text
    else:
        assert path == "wmma", details
    launch(kernel, trans_kernel, (M // BM, N // BN), args, consts)
    torch.testing.assert_close(d.double(), a.double() @ b.double(), rtol=2e-5, atol=2e-4)


# --- an operand read by two dots ------------------------------------------------------------------------------


def test_operands_stored_once_for_two_dots() -> None:
    """The corpus kernel `dot_acc_out_fp16` reads a and b in two dots (f32 and f16 accumulators): on mp_31 each
    is stored into one SQMMA buffer, from the layout it was loaded in."""
    from corpus import BY_NAME
    entry = BY_NAME["dot_acc_out_fp16"]
    kernel = triton.compile(entry.source(), target=TARGETS["mp_31"], options=dict(entry.options))
    assert [(r, p) for r, p, _ in reports(kernel)] == [("f32", "sqmma"), ("f16", "sqmma")]
    text = accelerated_ttgir(kernel)
    allocs = [line for line in text.splitlines() if "ttg.local_alloc" in line]
    assert len(allocs) == 2 and all("#ttg.dot_op" not in line for line in allocs), "\n".join(allocs)
    assert "ttg.local_load" not in text


# --- the epilogue in the accumulator layout -------------------------------------------------------------------


def _scaled_descriptor_matmul(a_desc, b_desc, c_desc, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    m = tl.program_id(0) * BM
    n = tl.program_id(1) * BN
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        acc = tl.dot(a_desc.load([m, k]), b_desc.load([k, n]), acc)
    c_desc.store([m, n], (acc * 0.5).to(tl.float16))


@pytest.mark.parametrize("arch,path", [("mp_31", "sqmma"), ("mp_22", "wmma")])
def test_descriptor_store_from_accumulator_layout(arch: str, path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The scale and the cast run in the unit's layout and the descriptor store takes that layout: after the
    matrix-path passes no ttg.convert_layout is left outside the K loop (one conversion into Triton's store
    layout went through shared-memory scratch before, or two)."""
    from triton.tools.tensor_descriptor import TensorDescriptor
    from triton_musa.backend.environment import ARCH_ENV
    monkeypatch.setenv(ARCH_ENV, arch)
    kernel = triton.jit(_scaled_descriptor_matmul)  # a fresh JITFunction: it fixes its target on first launch
    M, N, K, BM, BN, BK = 128, 128, 96, 64, 64, 32
    gen = torch.Generator().manual_seed(3)
    a = torch.randn((M, K), generator=gen).half()
    b = torch.randn((K, N), generator=gen).half()
    c = torch.zeros((M, N), dtype=torch.float16)
    compiled = kernel[(M // BM, N // BN)](TensorDescriptor.from_tensor(a, [BM, BK]),
                                          TensorDescriptor.from_tensor(b, [BK, BN]),
                                          TensorDescriptor.from_tensor(c, [BM, BN]), K, BM=BM, BN=BN, BK=BK)
    assert [p for _, p, _ in reports(compiled)] == [path]
    text = accelerated_ttgir(compiled, "musa-sink-accumulator-conversions")
    epilogue = text[text.index("scf.yield"):]
    assert "ttg.convert_layout" not in epilogue, epilogue
    assert re.search(rf"tt\.descriptor_store .* tensor<64x64xf16, #{path}", epilogue), epilogue
    torch.testing.assert_close(c.float(), ((a.float() @ b.float()) * 0.5).half().float(), rtol=1e-3, atol=1e-3)
