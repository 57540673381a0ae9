"""Benchmarking on MUSA: ``triton.musa_testing.do_bench`` and the
``device_type=`` argument that ``triton.testing.do_bench`` gains when the
backend loads.

Both time with the active driver's device interface: MUSA events
(``torch.musa.Event``) on a device, host timestamps on the CPU emulator (the
times then measure the emulator, and a warning says so once). Importing this
module imports no Triton module, because it is entered as
``triton.musa_testing`` while ``import triton`` is still running.
"""

from __future__ import annotations

import functools
import warnings
from types import ModuleType
from typing import Any, Callable, List, Optional, Sequence

__all__ = ["do_bench", "do_bench_once"]



def _active_backend() -> str:
    from triton.runtime import driver
    return str(driver.active.get_current_target().backend)


def do_bench(fn: Callable[[], Any], warmup: int = 25, rep: int = 100, grad_to_none: Optional[Sequence[Any]] = None,
             quantiles: Optional[List[float]] = None, return_mode: str = "mean") -> Any:
    """Times ``fn`` on the active MUSA device (or the CPU emulator), in milliseconds.

    Same arguments and result as ``triton.testing.do_bench``; raises RuntimeError
    when the active Triton driver is not triton-musa's."""
    backend = _active_backend()
    if backend != "musa":
        raise RuntimeError(f"triton.musa_testing.do_bench needs the MUSA driver, but the active Triton driver is "
                           f"{backend!r}; see triton_musa.backend.driver.musa_device_status()")
    from triton.runtime import driver
    if getattr(driver.active, "emulated", False):
        # Python's default warning filter shows this once per calling line.
        warnings.warn("triton-musa: benchmarking on the CPU emulator: times measure the emulator, "
                      "not a MUSA GPU", stacklevel=2)
    return _stock_do_bench(fn, warmup=warmup, rep=rep, grad_to_none=grad_to_none, quantiles=quantiles,
                           return_mode=return_mode)


def do_bench_once(fn: Callable[[], Any], warmup: int = 25, rep: int = 100,
                  grad_to_none: Optional[Sequence[Any]] = None, quantiles: Optional[List[float]] = None,
                  return_mode: str = "mean") -> Any:
    """The autotuner's benchmarker on the CPU emulator (``driver.get_benchmarker()``): ``fn`` runs once
    (compiling the config), and the result is the time the emulator spent in the launches it made
    (compiles and host JIT excluded), in milliseconds, in the shape ``do_bench`` gives (one value per
    quantile, or the one time for any ``return_mode``). Where ``fn`` launched nothing on the emulator, a
    second call is timed with a host clock instead. The stock loop's dozens of repetitions only make
    emulator times steadier, and emulator times say nothing about a GPU, so an autotuned kernel costs one
    run per config (``warmup``/``rep`` are accepted and unused)."""
    import time
    from triton.runtime import driver
    if not getattr(driver.active, "emulated", False):
        raise RuntimeError("triton_musa.testing.do_bench_once times the CPU emulator; on a MUSA device use "
                           "triton.musa_testing.do_bench")
    warnings.warn("triton-musa: benchmarking on the CPU emulator: times measure the emulator, "
                  "not a MUSA GPU", stacklevel=2)
    if return_mode not in ("min", "max", "mean", "median", "all"):
        raise ValueError(f"return_mode must be min, max, mean, median or all; got {return_mode!r}")
    clock = driver.active.device.launch_clock
    seconds, launches = clock.seconds, clock.launches
    fn()
    if clock.launches > launches:
        ms = (clock.seconds - seconds) * 1000.0
    else:
        if grad_to_none is not None:
            for x in grad_to_none:
                x.grad = None
        start = time.perf_counter()
        fn()
        ms = (time.perf_counter() - start) * 1000.0
    if quantiles is not None:
        values = [ms for _ in quantiles]
        return values[0] if len(values) == 1 else values
    return [ms] if return_mode == "all" else ms


def _stock_do_bench(fn: Callable[[], Any], **kwargs: Any) -> Any:
    import triton.testing
    stock = getattr(triton.testing.do_bench, "__wrapped__", triton.testing.do_bench)
    return stock(fn, **kwargs)


def _with_device_type(stock: Callable[..., Any]) -> Callable[..., Any]:
    """``stock`` plus a keyword ``device_type``: ``"musa"`` benchmarks on MUSA, None (the default) or
    the active backend's name keeps the stock behaviour, anything else is an error."""

    @functools.wraps(stock)
    def do_bench_with_device_type(fn: Callable[[], Any], *args: Any, device_type: Optional[str] = None,
                                  **kwargs: Any) -> Any:
        if device_type is None:
            return stock(fn, *args, **kwargs)
        if device_type == "musa":
            names = ("warmup", "rep", "grad_to_none", "quantiles", "return_mode")
            kwargs.update(zip(names, args))
            return do_bench(fn, **kwargs)
        backend = _active_backend()
        if device_type != backend:
            raise ValueError(f"do_bench(device_type={device_type!r}): the active Triton driver is {backend!r}; "
                             "pass its name, 'musa', or no device_type")
        return stock(fn, *args, **kwargs)

    do_bench_with_device_type.__wrapped__ = stock  # type: ignore[attr-defined]
    return do_bench_with_device_type


def install(testing: ModuleType) -> None:
    """Gives ``triton.testing.do_bench`` the ``device_type`` keyword (once)."""
    if not hasattr(testing.do_bench, "__wrapped__"):
        testing.do_bench = _with_device_type(testing.do_bench)
