"""Corpus kernels that lower today, run on the CPU emulator for both archs and
compared with PyTorch (or, for the random-number kernels, with a Philox written
here, bit for bit)."""

from __future__ import annotations

from typing import Any, Tuple

import pytest

torch = pytest.importorskip("torch")
import triton  # noqa: E402

from corpus import BY_NAME, TARGETS  # noqa: E402
from triton_musa.backend.emulator import emulator_active  # noqa: E402

pytestmark = pytest.mark.skipif(not emulator_active(), reason="a MUSA device or another GPU driver is active here; "
                                "the emulator runs where none is (or with TRITON_MUSA_EMULATOR=1)")

ARCHS = tuple(TARGETS)
DTYPES = {"*fp16": torch.float16, "*bf16": torch.bfloat16, "*fp32": torch.float32, "*fp64": torch.float64}


def launch(name: str, arch: str, grid: Tuple[int, int, int], *args: Any) -> None:
    entry = BY_NAME[name]
    kernel = triton.compile(entry.source(), target=TARGETS[arch], options=dict(entry.options))
    params = entry.fn.arg_names
    full = list(args) + [entry.constexprs[p] for p in params[len(args):]]
    kernel[grid](*full)


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("name,n", [("add", 5000), ("add_fp16_w1", 777), ("add_bf16_w2", 1500),
                                    ("add_f64_w8", 10000)])
def test_add(name: str, n: int, arch: str) -> None:
    entry = BY_NAME[name]
    dtype = DTYPES[entry.signature["x_ptr"]]
    x, y = torch.randn(n, dtype=dtype), torch.randn(n, dtype=dtype)
    out = torch.zeros(n, dtype=dtype)
    launch(name, arch, (triton.cdiv(n, entry.constexprs["BLOCK"]), 1, 1), x, y, out, n)
    torch.testing.assert_close(out, x + y)


@pytest.mark.parametrize("arch", ARCHS)
def test_where(arch: str) -> None:
    n, threshold = 3001, 0.25
    x, y = torch.randn(n), torch.randn(n)
    out = torch.zeros(n)
    launch("where", arch, (triton.cdiv(n, 1024), 1, 1), x, y, out, n, threshold)
    r = torch.where(x > threshold, x, y)
    r = torch.where(torch.arange(n) % 2 == 0, r, -r)
    torch.testing.assert_close(out, r)


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("mode", [0, 1, 2])
def test_control_flow(arch: str, mode: int) -> None:
    n, block = 1000, 256
    x = torch.randn(n)
    out = torch.zeros(n)
    launch("control_flow", arch, (triton.cdiv(n, block), 1, 1), x, out, n, mode)
    xs = {0: x * 2.0, 1: x + 1.0}.get(mode, -x) * 0.5**mode
    padded = torch.zeros(triton.cdiv(n, block) * block)
    padded[:n] = x
    acc = padded.view(-1, block).sum(0) * 6.0 + 3.0
    expected = xs + acc.repeat(triton.cdiv(n, block))[:n]
    torch.testing.assert_close(out, expected, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("arch", ARCHS)
def test_calls_noinline(arch: str) -> None:
    n, block, scale = 1000, 256, 0.3
    x = torch.randn(n)
    out = torch.zeros(n)
    launch("calls_noinline", arch, (triton.cdiv(n, block), 1, 1), x, out, n, scale)
    pid = torch.arange(n) // block
    torch.testing.assert_close(out, torch.clamp(x * (scale * (pid + 1).float()), -1.0, 1.0))


@pytest.mark.parametrize("arch", ARCHS)
def test_grid_hints_3d_grid(arch: str) -> None:
    # pid = pid0 + pid1 * num_programs(0) + pid2 * 7 over a (2, 3, 1) grid: programs 0..5.
    block, stride = 1024, 2
    n = 5 * block + 17
    x = torch.randn(n * stride)
    out = torch.zeros(6 * block)
    launch("grid_hints_w8", arch, (2, 3, 1), x, out, stride, n)
    torch.testing.assert_close(out[:n], x[::stride][:n])
    assert torch.count_nonzero(out[n:]) == 0


@pytest.mark.parametrize("arch", ARCHS)
def test_indirect_load(arch: str) -> None:
    n, rows, d = 70, 50, 64
    table = torch.randn(rows, d)
    idx = torch.randint(0, rows, (n + 1, ), dtype=torch.int32)
    idx[n] = 3  # the flag read through a volatile load
    out = torch.zeros(n, d)
    launch("indirect_load", arch, (triton.cdiv(n, 32), 1, 1), table, idx, out, n)
    torch.testing.assert_close(out, table[idx[:n].long()] + 3.0)


# Philox4x32-10 (Salmon et al., SC'11), written from the algorithm, as Triton's tl.randint
# uses it: counter (offset, 0, 0, 0), key (seed low, seed high); first output word.
PHILOX_M = (0xD2511F53, 0xCD9E8D57)
PHILOX_W = (0x9E3779B9, 0xBB67AE85)
MASK32 = 0xFFFFFFFF


def philox4x32(counter: Tuple[int, int, int, int], key: Tuple[int, int], rounds: int = 10) -> Tuple[int, ...]:
    c0, c1, c2, c3 = counter
    k0, k1 = key
    for _ in range(rounds):
        p0, p1 = PHILOX_M[0] * c0, PHILOX_M[1] * c2  # full 64-bit products: hi and lo words both used
        c0, c1, c2, c3 = (p1 >> 32) ^ c1 ^ k0, p1 & MASK32, (p0 >> 32) ^ c3 ^ k1, p0 & MASK32
        k0, k1 = (k0 + PHILOX_W[0]) & MASK32, (k1 + PHILOX_W[1]) & MASK32
    return c0, c1, c2, c3


def test_philox_reference_matches_the_published_answers() -> None:
    # Known-answer vectors of Random123 (kat_vectors, philox4x32 10 rounds).
    assert philox4x32((0, 0, 0, 0), (0, 0)) == (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)
    assert philox4x32((MASK32, ) * 4, (MASK32, MASK32)) == (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)
    assert philox4x32((0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344),
                      (0xA4093822, 0x299F31D0)) == (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1)


def reference_randint(seed: int, n: int) -> torch.Tensor:
    """tl.randint(seed, arange(n)) as int32 (the kernel stores the uint32 words into an i32 tensor)."""
    key = (seed & MASK32, (seed >> 32) & MASK32)
    words = [philox4x32((i, 0, 0, 0), key)[:2] for i in range(n)]
    return torch.tensor([[w - (1 << 32) if w >> 31 else w for w in pair] for pair in words], dtype=torch.int64)


def uniform(words: torch.Tensor) -> torch.Tensor:
    """tl.rand's map of an int32 word to [0, 1): |x| (x < 0 -> -x - 1) times 2^-31 in float32."""
    x = torch.where(words < 0, -words - 1, words)
    return x.to(torch.float32) * torch.tensor(4.6566127342e-10, dtype=torch.float32)


@pytest.mark.parametrize("arch", ARCHS)
def test_rand_randint_randn_bit_for_bit(arch: str) -> None:
    n, seed = 4000, 1234
    out, iout = torch.zeros(n), torch.zeros(n, dtype=torch.int32)
    launch("rand", arch, (triton.cdiv(n, 256), 1, 1), out, iout, seed, n)
    words = reference_randint(seed, n)
    # randint: the first Philox word, bit for bit (a low-half umulhi changes every one).
    assert torch.equal(iout.to(torch.int64), words[:, 0])
    # rand + randn: randn is Box-Muller on the first two words; its log/sqrt/cos are libm-accurate.
    u1, u2 = uniform(words[:, 0]), uniform(words[:, 1])
    normal = torch.sqrt(-2.0 * torch.log(torch.clamp(u1, min=1.0e-7))) * torch.cos(6.283185307179586 * u2)
    torch.testing.assert_close(out, uniform(words[:, 0]) + normal, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("arch", ARCHS)
def test_dropout(arch: str) -> None:
    n, p, seed = 8192, 0.3, 42
    torch.manual_seed(0)
    x = torch.rand(n) + 0.5
    out = torch.full((n, ), -1.0)
    launch("dropout", arch, (triton.cdiv(n, 1024), 1, 1), x, out, n, p, seed)
    # Which elements are kept is decided by the Philox bits: exactly, per element.
    keep = uniform(reference_randint(seed, n)[:, 0]) > torch.tensor(p, dtype=torch.float32)
    torch.testing.assert_close(out, torch.where(keep, x / (1 - p), torch.zeros(n)))


@pytest.mark.parametrize("arch", ARCHS)
def test_cat_broadcast(arch: str) -> None:
    block = BY_NAME["cat_broadcast"].constexprs["BLOCK"]
    torch.manual_seed(1)
    # Small integers: every sum below is exact in fp16, so the result is exact too.
    x = torch.randint(-4, 5, (block, )).to(torch.float16)
    y = torch.randint(-4, 5, (block, )).to(torch.float16)
    out = torch.full((3 * block, ), 99.0, dtype=torch.float16)
    launch("cat_broadcast", arch, (1, 1, 1), x, y, out)
    # can_reorder=True leaves the order of the concatenation to the compiler: compare as multisets.
    assert torch.equal(out[:2 * block].sort().values, torch.cat([x, y]).sort().values)
    # sum over the broadcast columns: block * y[i]; over the 4 broadcast rows: 4 * x[i].
    assert torch.equal(out[2 * block:], (block * y.float() + 4 * x.float()).to(torch.float16))


@pytest.mark.parametrize("arch", ARCHS)
def test_map_elementwise(arch: str) -> None:
    block = BY_NAME["map_elementwise"].constexprs["BLOCK"]
    torch.manual_seed(2)
    x = torch.randn(block)
    x[:4] = torch.tensor([0.0, -0.0, 1e-30, -1e-30])  # the branch's edge: x > 0 is strict
    out = torch.full((block, ), -1.0)
    launch("map_elementwise", arch, (1, 1, 1), x, out)
    torch.testing.assert_close(out, torch.where(x > 0, x * x, torch.zeros(block)), rtol=0, atol=0)
