"""What ``driver.active.utils`` answers beyond loading kernels, on both devices: the device
properties as a dict that names what it lacks, and clear refusals of the CUDA driver's utilities
that common Triton code calls but MUSA has no counterpart for."""

from __future__ import annotations

from typing import Any, Dict

# CUDA-only ``driver.active.utils`` functions that Triton code calls, and why MUSA has none.
_CUDA_ONLY: Dict[str, str] = {
    "cuOccupancyMaxActiveClusters": "it counts thread-block clusters, and MUSA kernels run without clusters "
                                    "(num_ctas=1)",
    "fill_tma_descriptor": "it encodes a CUDA TMA descriptor; on MUSA build descriptors with "
                           "triton.tools.tensor_descriptor.TensorDescriptor.from_tensor (the launcher encodes "
                           "the TME descriptor) or triton.tools.experimental_descriptor",
}


class DeviceProperties(dict):
    """``get_device_properties``'s dict: a key it lacks raises a KeyError that says where the
    properties come from and which keys there are, instead of a bare ``KeyError: 'x'``."""

    def __init__(self, values: Dict[str, Any], source: str, missing_reasons: Dict[str, str] | None = None) -> None:
        super().__init__(values)
        self.source = source
        self.missing_reasons = dict(missing_reasons or {})

    def __missing__(self, key: Any) -> Any:
        why = self.missing_reasons.get(key, "it is not one of them")
        raise KeyError(f"{key!r}: {self.source} has the properties {', '.join(sorted(self))}; {why}")


class RefusesCudaOnlyUtils:
    """Mixin: the CUDA-only utilities above raise AttributeError with the reason (other unknown
    names raise the usual AttributeError)."""

    def __getattr__(self, name: str) -> Any:
        if name in _CUDA_ONLY:
            raise AttributeError(f"driver.active.utils.{name} is a CUDA driver utility with no MUSA counterpart: "
                                 f"{_CUDA_ONLY[name]}")
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
