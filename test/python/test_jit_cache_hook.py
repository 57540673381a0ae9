"""Triton's JIT cache under the emulator: kernels are filed under the driver's current device, which is the
name torch gives the current device of the tensors' device module (``torch.cpu.current_device()``, "cpu"),
so code written for any backend as ``getattr(torch, device).current_device()`` reaches that cache (clears
it, finds a kernel in it), and a compile hook's specialization data preloads the same kernel."""

from __future__ import annotations

from typing import Any, Dict, Optional

import torch
import triton
import triton.language as tl
from triton import knobs
from triton.runtime import driver


@triton.jit
def scale_by_pair(out_ptr, pair, N: tl.constexpr):
    # pair = ((factor,), (offset: constexpr,)); the loop makes a new scope, so the nested tuple with a
    # constexpr inside is flattened into the loop's arguments and rebuilt.
    offs = tl.arange(0, N)
    acc = tl.zeros((N, ), tl.float32)
    for _ in range(1):
        tl.static_assert(pair[1][0] == 3)
        acc += offs.to(tl.float32) * pair[0][0] + pair[1][0]
    tl.store(out_ptr + offs, acc)


def test_cache_key_is_torch_current_device_and_hook_data_preloads(arch: str) -> None:
    out = torch.empty(16)
    scale_by_pair[(1, )](out, ((2.0, ), (tl.constexpr(3), )), 16)  # compiled and cached once already
    torch.testing.assert_close(out, torch.arange(16, dtype=torch.float32) * 2 + 3)

    device = getattr(torch, out.device.type).current_device()
    assert device == driver.active.get_current_device()
    scale_by_pair.device_caches[device][0].clear()

    seen: Dict[str, Optional[Any]] = {"data": None}

    def hook(*args: Any, **kwargs: Any) -> bool:
        seen["data"] = kwargs["compile"]["specialization_data"]
        return False

    previous = knobs.runtime.jit_cache_hook
    knobs.runtime.jit_cache_hook = hook
    try:
        warm = scale_by_pair.warmup(out, ((2.0, ), (tl.constexpr(3), )), 16, grid=(1, ))
    finally:
        knobs.runtime.jit_cache_hook = previous
    assert warm is not None and seen["data"] is not None, "clearing the cache did not make the kernel compile again"

    preloaded = scale_by_pair.preload(seen["data"])
    assert preloaded is not None and preloaded.hash == warm.hash

    out.fill_(-1.0)
    scale_by_pair[(1, )](out, ((0.5, ), (tl.constexpr(3), )), 16)
    torch.testing.assert_close(out, torch.arange(16, dtype=torch.float32) * 0.5 + 3)
