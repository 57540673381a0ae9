"""f32 -> bf16 on the CPU emulator keeps subnormals, as a GPU's conversion does: the host JIT must not
use the AVX512-BF16 / AVX-NE-CONVERT vector conversions, which flush them to zero whatever MXCSR says
(Emulator.cpp turns those extensions off)."""

from __future__ import annotations

import torch
import triton
import triton.language as tl


@triton.jit
def _to_bf16(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask).to(tl.bfloat16), mask=mask)


def test_f32_to_bf16_keeps_subnormals() -> None:
    # bf16 subnormals and values that round to them, with both signs; a block of them, which the
    # host compiler vectorizes.
    tiny = torch.tensor([2.0**-127, 2.0**-130, 3 * 2.0**-133, 2.0**-133, 1.5 * 2.0**-126, 2.0**-126], dtype=torch.float32)
    x = torch.cat([tiny, -tiny]).repeat(22)[:256].contiguous()
    out = torch.empty(256, dtype=torch.bfloat16)
    _to_bf16[(1, )](x, out, 256, 256)
    want = x.to(torch.bfloat16)
    assert (want != 0).all()
    assert torch.equal(out.view(torch.int16), want.view(torch.int16))
