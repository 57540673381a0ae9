"""``@pytest.mark.musa_device(min_capability=(3, 1))``: a test that needs a real MUSA device of at least
that capability. Where none is visible the test is skipped with a reason naming what is missing
(torch_musa, a device, or the capability); conftest lists that reason in DOCUMENTED_SKIPS. The MUSA
SDK is not part of the condition: a device without the SDK fails the test with the toolchain's message."""

from __future__ import annotations

from typing import Callable, Optional, Tuple

import pytest
import triton  # noqa: F401  (first: importing the backend before triton would be circular)

Capability = Tuple[int, int]
MARKER = "musa_device"
REASON_PREFIX = "needs a MUSA device"
DEFAULT_MIN_CAPABILITY: Capability = (2, 1)


def _device_capability() -> Capability:
    from triton_musa.backend.musa_utils import torch_musa_module
    major, minor = torch_musa_module().get_device_capability(0)
    return int(major), int(minor)


def missing_device(min_capability: Capability, *, status: Optional[Callable[[], object]] = None,
                   capability: Callable[[], Capability] = _device_capability) -> Optional[str]:
    """Why a test needing a MUSA device of ``min_capability`` cannot run here, or None when it can."""
    from triton_musa.backend.driver import musa_device_status
    wanted = f"{REASON_PREFIX} of capability >= {min_capability[0]}.{min_capability[1]}"
    current = (status or musa_device_status)()
    if not current.available:  # type: ignore[attr-defined]
        return f"{wanted}: {current.reason}"  # type: ignore[attr-defined]
    have = capability()
    if tuple(have) < tuple(min_capability):
        return f"{wanted}: device 0 has capability {have[0]}.{have[1]}"
    return None


def skip_without_device(item: pytest.Item) -> None:
    marker = item.get_closest_marker(MARKER)
    if marker is None:
        return
    reason = missing_device(tuple(marker.kwargs.get("min_capability", DEFAULT_MIN_CAPABILITY)))
    if reason:
        pytest.skip(reason)
