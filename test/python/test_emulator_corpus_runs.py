"""Corpus kernels that were compiled and lowered but never run (issue 14), now run on the CPU
emulator for both archs (mp_31 warp 32, mp_22 warp 128) and checked against PyTorch or exact
arithmetic: casts, fp8 conversions, the tuple (linear-recurrence) associative scan, hex device
printing and device assertions, and the host-`TensorDescriptor` kernels (matmul, 3-D, gather).

Inputs are seeded; comparisons are bit-exact wherever the arithmetic is exact (conversions, integer
data, small-integer matmuls) and carry a per-dtype tolerance elsewhere."""

from __future__ import annotations

from collections import Counter
from typing import List

import pytest

torch = pytest.importorskip("torch")
import triton  # noqa: E402
from triton.tools.tensor_descriptor import TensorDescriptor  # noqa: E402

from corpus import BY_NAME, TARGETS  # noqa: E402
from test_emulator_kernels import _launch_corpus  # noqa: E402
from triton_musa.backend.emulator import emulator_active  # noqa: E402

pytestmark = pytest.mark.skipif(not emulator_active(), reason="a MUSA device or another GPU driver is active here; "
                                "the emulator runs where none is (or with TRITON_MUSA_EMULATOR=1)")

ARCHS = tuple(TARGETS)


def _bits(t: torch.Tensor) -> torch.Tensor:
    """The raw bits of a 8/16/32-bit tensor, so that equality also sees -0.0 and every NaN payload."""
    return t.view({1: torch.uint8, 2: torch.int16, 4: torch.int32}[t.element_size()])


def _wrap_i32(v: torch.Tensor) -> torch.Tensor:
    """int64 values reduced modulo 2^32 into int32 (the kernel's i32 adds wrap)."""
    return (((v + 2**31) % 2**32) - 2**31).to(torch.int32)


def _both_signs_shuffled(parts: List[torch.Tensor], n: int, g: torch.Generator) -> torch.Tensor:
    """The first `n` of `parts` and their negations, in a random order drawn from `g`."""
    x = torch.cat(parts)
    x = torch.cat([x, -x])
    x = x[torch.randperm(len(x), generator=g)]
    assert len(x) >= n
    return x[:n].contiguous()


# ---------------------------------------------------------------------------------------------------------------
# casts: fp32 -> fp16 (rtne and rtz), bf16, i32 (bitcast and fptosi), u8
# ---------------------------------------------------------------------------------------------------------------


def _fp16_rtz(x: torch.Tensor) -> torch.Tensor:
    """fp32 -> fp16 rounding toward zero: torch's round-to-nearest-even, stepped one code back toward
    zero wherever it rounded away from zero (overflow to inf included: inf - 1 code is 65504)."""
    h = x.to(torch.float16)
    away = h.float().abs() > x.abs()
    bits = h.view(torch.int16)
    return torch.where(away, bits - 1, bits).view(torch.float16)


def _cast_inputs(n: int) -> torch.Tensor:
    g = torch.Generator().manual_seed(14)
    parts: List[torch.Tensor] = [
        torch.randn(900, generator=g) * 100,
        torch.rand(700, generator=g) * 257 - 1,  # (-1, 256): where x.to(uint8) is defined
        torch.rand(100, generator=g) * 2 - 1,  # fractions: truncation toward zero
        (torch.rand(100, generator=g) * 2 - 1) * 2.0**-14,  # fp16 subnormals and underflow
        torch.tensor([0.0, -0.0, 65504.0, 65505.0, 65519.0, 65520.0, 65536.0, 1e6, 1e9, 2.0**-24, 2.0**-25,
                      2.0**-26, 3 * 2.0**-26, 255.5, 255.0, 0.5, -0.5, -0.9999]),
    ]
    # Exact ties: halfway between neighbouring fp16 (10-bit mantissa) and bf16 (7-bit) values,
    # where round-to-nearest-even and round-toward-zero disagree on every odd neighbour.
    m = torch.arange(0, 64, dtype=torch.float64)
    for e in range(-12, 15, 3):
        parts.append(((1 + (2 * m + 1) * 2.0**-11) * 2.0**e).float())
        parts.append(((1 + (2 * m + 1) * 2.0**-8) * 2.0**e).float())
    return _both_signs_shuffled(parts, n, g)


@pytest.mark.parametrize("arch", ARCHS)
def test_casts(arch: str) -> None:
    n = 3001  # six programs of 512, the last one partly masked
    x = _cast_inputs(n)
    h_out = torch.full((n, ), 7.0, dtype=torch.float16)
    bf_out = torch.full((n, ), 7.0, dtype=torch.bfloat16)
    i_out = torch.full((n, ), 7, dtype=torch.int32)
    u8_out = torch.full((n, ), 7, dtype=torch.uint8)
    _launch_corpus("casts", arch, (triton.cdiv(n, 512), 1, 1), x, h_out, bf_out, i_out, u8_out, n)

    h = x.to(torch.float16)
    # fp16 + fp16 (one rounding of the exact sum), and bf16 * 2 (exact): bit for bit, -0.0 and inf included.
    assert torch.equal(_bits(h_out), _bits(h + _fp16_rtz(x)))
    assert torch.equal(_bits(bf_out), _bits(x.to(torch.bfloat16) * 2.0))

    # The integer sums are compared where every fptosi/fptoui of the kernel has a defined result
    # (LLVM makes an out-of-range float -> int conversion poison): the fp16 value must be finite.
    defined = torch.isfinite(h)
    assert defined.sum() > 0.9 * n
    bf = x.to(torch.bfloat16).float()
    expected_i = (x.view(torch.int32).long() + x.trunc().long() + h.float().trunc().long() + bf.trunc().long())
    assert torch.equal(i_out[defined], _wrap_i32(expected_i)[defined])

    # uint8: (x > 0) + trunc(x), with the u8 add wrapping (255.5 -> 255 + 1 = 0); defined on (-1, 256).
    in_u8 = (x > -1) & (x < 256)
    assert in_u8.sum() > 0.2 * n
    expected_u8 = ((x > 0).long() + x.trunc().long()) % 256
    assert torch.equal(u8_out[in_u8].long(), expected_u8[in_u8])


# ---------------------------------------------------------------------------------------------------------------
# fp8_convert: fp32 -> fp8e4nv (round to nearest even, saturating), fp32 -> fp16 -> fp8e5, and back
# ---------------------------------------------------------------------------------------------------------------


def _fp8_inputs(n: int) -> torch.Tensor:
    g = torch.Generator().manual_seed(8)
    m = torch.arange(0, 8, dtype=torch.float64)
    parts: List[torch.Tensor] = [
        torch.rand(1200, generator=g) * 896 - 448,
        torch.randn(300, generator=g),
        (torch.rand(100, generator=g) * 2 - 1) * 2.0**-6,  # e4m3 subnormals (below 2^-6) and underflow
        (torch.rand(100, generator=g) * 2 - 1) * 2.0**-14,  # e5m2 subnormals (below 2^-14)
        torch.rand(60, generator=g) * 552 + 448,  # past e4m3's largest finite value: saturates to 448
        torch.tensor([0.0, -0.0, 448.0, 464.0, 479.0, 480.0, 2.0**-9, 2.0**-10, 3 * 2.0**-10, 2.0**-16, 2.0**-17]),
    ]
    for e in range(-6, 9):
        parts.append(((1 + (2 * m + 1) / 16) * 2.0**e).float())  # e4m3 ties (3-bit mantissa)
        parts.append(((1 + (2 * m[:4] + 1) / 8) * 2.0**e).float())  # e5m2 ties (2-bit mantissa)
    return _both_signs_shuffled(parts, n, g)


@pytest.mark.parametrize("arch", ARCHS)
def test_fp8_convert(arch: str) -> None:
    n = 2000  # four programs of 512, the last one partly masked
    x = _fp8_inputs(n)
    e4 = torch.full((n, ), 0x55, dtype=torch.uint8).view(torch.float8_e4m3fn)
    e5 = torch.full((n, ), 0x55, dtype=torch.uint8).view(torch.float8_e5m2)
    out = torch.full((n, ), -7.0)
    _launch_corpus("fp8_convert", arch, (triton.cdiv(n, 512), 1, 1), x, e4, e5, out, n)

    # Both Triton (cvt.rn.satfinite) and torch convert fp32 -> e4m3 rounding to nearest even and
    # saturating: |x| past 448 gives +-448 (e4m3fn has no infinity).
    ref_e4 = x.to(torch.float8_e4m3fn)
    saturated = x.abs() > 464
    assert saturated.sum() > 50 and torch.equal(ref_e4.float()[saturated].abs().unique(), torch.tensor([448.0]))
    ref_e5 = x.to(torch.float16).to(torch.float8_e5m2)  # |x| < 1000: far inside e5m2's range
    assert torch.equal(_bits(e4), _bits(ref_e4))
    assert torch.equal(_bits(e5), _bits(ref_e5))
    # Widening back is exact; the fp32 sum is taken in the kernel's order, so it is exact too.
    back = ref_e4.float() + ref_e5.to(torch.float16).float() + ref_e5.to(torch.bfloat16).float()
    assert torch.equal(_bits(out), _bits(back + _bits(ref_e4).float()))


# ---------------------------------------------------------------------------------------------------------------
# associative_scan over a tuple: the first-order linear recurrence h[i] = a[i] * h[i-1] + b[i]
# ---------------------------------------------------------------------------------------------------------------


def _recurrence(a: List[float], b: List[float]) -> List[float]:
    h, out = 0.0, []
    for ai, bi in zip(a, b):
        h = ai * h + bi
        out.append(h)
    return out


@pytest.mark.parametrize("arch", ARCHS)
def test_associative_scan_linear_recurrence_exact(arch: str) -> None:
    # a in {-1, 0, 1} and small integer b: every partial product and sum is a small integer, exact in
    # fp32 whatever order the scan combines them in, so the result must equal the recurrence exactly.
    block = BY_NAME["associative_scan"].constexprs["BLOCK"]
    g = torch.Generator().manual_seed(3)
    a = torch.randint(-1, 2, (block, ), generator=g).float()
    a[torch.rand(block, generator=g) < 0.7] = 1.0  # mostly carries, so the sums run long
    b = torch.randint(-8, 9, (block, ), generator=g).float()
    out = torch.full((block, ), 1e9)
    _launch_corpus("associative_scan", arch, (1, 1, 1), a, b, out)
    assert torch.equal(out, torch.tensor(_recurrence(a.tolist(), b.tolist()), dtype=torch.float32))


@pytest.mark.parametrize("arch", ARCHS)
def test_associative_scan_linear_recurrence_float(arch: str) -> None:
    block = BY_NAME["associative_scan"].constexprs["BLOCK"]
    g = torch.Generator().manual_seed(4)
    a = torch.rand(block, generator=g) * 0.5 + 0.5  # decays: |h| stays O(10)
    b = torch.randn(block, generator=g)
    out = torch.full((block, ), 1e9)
    _launch_corpus("associative_scan", arch, (1, 1, 1), a, b, out)
    ref = torch.tensor(_recurrence(a.double().tolist(), b.double().tolist()), dtype=torch.float64)
    # fp32, up to 256 combine steps in a tree order: a few ulps of the running magnitude.
    torch.testing.assert_close(out.double(), ref, rtol=1e-5, atol=1e-5)


# ---------------------------------------------------------------------------------------------------------------
# debug_print_assert: tl.device_print (scalar, hex, two operands) and tl.device_assert
# ---------------------------------------------------------------------------------------------------------------
#
# Triton's device_print format (PrintOpToLLVM, as Triton's own test_subprocess.py expects it, and as
# Triton 3.6 compiles this kernel for cuda:90): one line per element a thread holds,
#   pid (<x>, <y>, <z>) idx (<i>)<prefix><value>
# with the index padded to the digits of the dimension (%3u for 128), the prefix rewritten by the
# frontend to " name: ", "(operand k) " before the value when several operands are printed, hex as
# 0x%08x for i32, and "idx ()" for a scalar, which every thread of the program prints.

DEBUG_N = 200  # two programs of 128; program 1 holds 72 elements and 56 masked zeros


def _debug_inputs() -> torch.Tensor:
    g = torch.Generator().manual_seed(5)
    x = torch.randint(0, 2**31 - 1, (DEBUG_N, ), dtype=torch.int32, generator=g)
    x[:4] = torch.tensor([0, 1, 0x7FFFFFFE, 0xABCDEF])  # 0x7FFFFFFF + 1 would trip the overflow check
    return x


def _run_debug(arch: str, x: torch.Tensor, capfd: pytest.CaptureFixture[str]) -> Counter:
    out = torch.full((DEBUG_N, ), -1, dtype=torch.int32)
    capfd.readouterr()
    _launch_corpus("debug_print_assert", arch, (2, 1, 1), x, out, DEBUG_N)
    lines = Counter(ln for ln in capfd.readouterr().out.splitlines() if ln.startswith("pid ("))
    assert torch.equal(out, x + 1)
    return lines


def _threads(arch: str) -> int:
    return BY_NAME["debug_print_assert"].options["num_warps"] * TARGETS[arch].warp_size


@pytest.mark.parametrize("arch", ARCHS)
def test_debug_print_tensor_lines(arch: str, capfd: pytest.CaptureFixture[str]) -> None:
    x = _debug_inputs()
    lines = _run_debug(arch, x, capfd)
    block = BY_NAME["debug_print_assert"].constexprs["BLOCK"]
    # Every thread prints the elements it holds: 128 elements over 128 threads (mp_31) are printed
    # once each; over 512 threads (mp_22) each element lives in 4 threads and is printed 4 times.
    copies = max(1, _threads(arch) // block)
    expected: Counter = Counter()
    for pid in range(2):
        for i in range(block):
            off = pid * block + i
            v = int(x[off]) if off < DEBUG_N else 0  # masked lanes load other=0
            expected[f"pid ({pid}, 0, 0) idx ({i:3}) x=: 0x{v:08x}"] = copies
            expected[f"pid ({pid}, 0, 0) idx ({i:3}) two: (operand 0) {v}"] = copies
            expected[f"pid ({pid}, 0, 0) idx ({i:3}) two: (operand 1) {off}"] = copies
    tensor_lines = Counter({ln: c for ln, c in lines.items() if " idx (" in ln and "idx ()" not in ln})
    assert tensor_lines == expected


@pytest.mark.parametrize("arch", ARCHS)
def test_debug_print_scalar_lines(arch: str, capfd: pytest.CaptureFixture[str]) -> None:
    lines = _run_debug(arch, _debug_inputs(), capfd)
    scalar_lines = Counter({ln: c for ln, c in lines.items() if "x=:" not in ln and "two:" not in ln})
    assert scalar_lines == Counter({f"pid ({pid}, 0, 0) idx () pid: {pid}": _threads(arch) for pid in range(2)})


@pytest.mark.parametrize("arch", ARCHS)
def test_debug_assert_fires_on_negative_input(arch: str) -> None:
    x = _debug_inputs()
    x[150] = -3  # in program 1's block
    out = torch.zeros(DEBUG_N, dtype=torch.int32)
    with pytest.raises(Exception, match=r"program id \(1, 0, 0\).*negative input"):
        _launch_corpus("debug_print_assert", arch, (2, 1, 1), x, out, DEBUG_N)


@pytest.mark.parametrize("arch", ARCHS)
def test_debug_overflow_check_fires(arch: str) -> None:
    # debug=True also makes Triton check integer arithmetic for overflow: x + 1 at INT32_MAX.
    x = _debug_inputs()
    x[42] = 2**31 - 1
    out = torch.zeros(DEBUG_N, dtype=torch.int32)
    with pytest.raises(Exception, match=r"program id \(0, 0, 0\).*int32 overflow detected for operation add"):
        _launch_corpus("debug_print_assert", arch, (2, 1, 1), x, out, DEBUG_N)


# ---------------------------------------------------------------------------------------------------------------
# Host TensorDescriptor arguments: a tiled matmul, a 3-D tile, a row gather (ragged shapes: zero padding)
# ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("arch", ARCHS)
def test_tensor_desc_host_matmul(arch: str) -> None:
    c = BY_NAME["tensor_desc_host_matmul"].constexprs
    bm, bn, bk = c["BLOCK_M"], c["BLOCK_N"], c["BLOCK_K"]
    # Ragged in every dimension: M over two row tiles, N inside one column tile, K over one and a
    # half K tiles (the second K tile reads zeros past K in both operands).
    M, N, K = 136, 72, 88
    g = torch.Generator().manual_seed(6)
    # Small integers: products and fp32 sums are exact (|c| <= 88 * 9) and so is the fp16 result.
    a = torch.randint(-3, 4, (M, K), generator=g).to(torch.float16)
    b = torch.randint(-3, 4, (K, N), generator=g).to(torch.float16)
    out = torch.full((M, N), 1000.0, dtype=torch.float16)
    _launch_corpus("tensor_desc_host_matmul", arch, (triton.cdiv(M, bm), triton.cdiv(N, bn), 1),
                   TensorDescriptor.from_tensor(a, [bm, bk]), TensorDescriptor.from_tensor(b, [bk, bn]),
                   TensorDescriptor.from_tensor(out, [bm, bn]), K)
    assert torch.equal(out, (a.double() @ b.double()).to(torch.float16))


@pytest.mark.parametrize("arch", ARCHS)
def test_tensor_desc_3d(arch: str) -> None:
    block = BY_NAME["tensor_desc_3d"].constexprs["BLOCK"]
    g = torch.Generator().manual_seed(7)
    big = torch.randn(4, 40, 48, generator=g)
    # A strided window (base inside the tensor, row stride 48, plane stride 1920) smaller than the
    # [1, 32, 32] block: rows past 20 and columns past 24 read as zero.
    view = big[2:3, 5:25, 8:32]
    out = torch.full((block, block), -1.0)
    _launch_corpus("tensor_desc_3d", arch, (1, 1, 1), TensorDescriptor.from_tensor(view, [1, block, block]), out)
    expected = torch.zeros(block, block)
    expected[:20, :24] = view[0]
    assert torch.equal(out, expected)


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("rows,cols", [(64, 96), (300, 256)])
def test_tensor_desc_gather(arch: str, rows: int, cols: int) -> None:
    c = BY_NAME["tensor_desc_gather"].constexprs
    bx, by = c["BLOCK_X"], c["BLOCK_Y"]
    g = torch.Generator().manual_seed(rows)
    table = torch.randn(rows, cols, generator=g).to(torch.bfloat16)
    idx = torch.randint(0, rows, (bx, ), dtype=torch.int32, generator=g)
    idx[3] = idx[4]  # a repeated row
    idx[5] = rows  # one row past the end: gathered as zeros
    out = torch.full((bx, by), -1.0, dtype=torch.bfloat16)
    _launch_corpus("tensor_desc_gather", arch, (1, 1, 1), TensorDescriptor.from_tensor(table, [1, by]), idx, out)
    padded = torch.zeros(rows + 1, max(cols, by), dtype=torch.bfloat16)  # zero row and columns past the edge
    padded[:rows, :cols] = table
    assert torch.equal(_bits(out), _bits(padded[idx.long(), :by]))
