"""One kernel per family of the compiler's corpus (kernels.py): compiled to a mubin by the SDK in the ABI
section, run against torch in the device section, and a matmul timed with ``do_bench`` on a device."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Tuple

from . import kernels
from .report import CONFIRMED, DIFFERS, ERROR, NOT_CHECKED, ProbeResult

Args = Dict[str, Any]


@dataclass(frozen=True)
class Family:
    name: str
    fn: Any
    signature: Dict[str, str]
    constexprs: Dict[str, Any]
    archs: Tuple[str, ...]
    # (arguments by name, grid, reference: args -> (output tensor, expected)) on a torch device.
    make: Callable[[str], Tuple[Args, Tuple[int, int, int], Callable[[Args], Tuple[Any, Any]]]]
    options: Dict[str, Any] = None  # type: ignore[assignment]


def _randn(*shape: int, device: str, dtype: Any = None, seed: int = 0) -> Any:
    import torch
    gen = torch.Generator().manual_seed(seed)
    return torch.randn(*shape, generator=gen).to(dtype or torch.float32).to(device)


def _elementwise(device: str) -> Tuple[Args, Tuple[int, int, int], Callable]:
    import torch
    n = 1000
    args = dict(x=_randn(n, device=device), y=_randn(n, device=device, seed=1), out=torch.zeros(n, device=device),
                n=n, BLOCK=256)
    return args, (4, 1, 1), lambda a: (a["out"], torch.exp(a["x"]) * a["y"] + torch.sqrt(a["x"].abs()))


def _reduction(device: str) -> Tuple[Args, Tuple[int, int, int], Callable]:
    import torch
    args = dict(x=_randn(8, 64, device=device), out=torch.zeros(8, 64, device=device), N=64)
    return args, (8, 1, 1), lambda a: (a["out"], torch.softmax(a["x"], dim=1))


def _dot(device: str) -> Tuple[Args, Tuple[int, int, int], Callable]:
    import torch
    m = n = 128
    k = 64
    args = dict(a=_randn(m, k, device=device, dtype=torch.float16), b=_randn(k, n, device=device, dtype=torch.float16,
                seed=1), c=torch.zeros(m, n, device=device), M=m, N=n, K=k, BM=64, BN=64, BK=32)
    return args, (2, 2, 1), lambda a: (a["c"], a["a"].float() @ a["b"].float())


def _memory(device: str) -> Tuple[Args, Tuple[int, int, int], Callable]:
    import torch
    n = 1000
    args = dict(x=_randn(n, device=device), out=torch.zeros(n, device=device),
                counter=torch.zeros(1, dtype=torch.int32, device=device), n=n, BLOCK=256)

    def reference(a: Args) -> Tuple[Any, Any]:
        return torch.cat([a["out"], a["counter"].float()]), torch.cat([a["x"] * 2, torch.tensor([float(n)],
                                                                                                device=device)])
    return args, (4, 1, 1), reference


def _shapes(device: str) -> Tuple[Args, Tuple[int, int, int], Callable]:
    import torch
    args = dict(x=_randn(32, 16, device=device), out=torch.zeros(16, 32, device=device), R=32, C=16)
    return args, (1, 1, 1), lambda a: (a["out"], a["x"].t())


def _control(device: str) -> Tuple[Args, Tuple[int, int, int], Callable]:
    import torch
    n = 300
    args = dict(x=_randn(n, device=device), out=torch.zeros(64, device=device), n=n, BLOCK=64)

    def reference(a: Args) -> Tuple[Any, Any]:
        x = torch.nn.functional.pad(a["x"], (0, 320 - n)).reshape(5, 64)
        return a["out"], x[0] - x[1] + x[2] - x[3] + x[4]
    return args, (1, 1, 1), reference


BOTH = ("mp_31", "mp_22")
FAMILIES: Tuple[Family, ...] = (
    Family("elementwise", kernels.family_elementwise,
           {"x": "*fp32", "y": "*fp32", "out": "*fp32", "n": "i32", "BLOCK": "constexpr"}, {"BLOCK": 256}, BOTH,
           _elementwise),
    Family("reductions", kernels.family_reduction, {"x": "*fp32", "out": "*fp32", "N": "constexpr"}, {"N": 64},
           BOTH, _reduction),
    Family("dot", kernels.family_dot, {"a": "*fp16", "b": "*fp16", "c": "*fp32", "M": "i32", "N": "i32", "K": "i32",
                                       "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"},
           {"BM": 64, "BN": 64, "BK": 32}, BOTH, _dot),
    Family("memory", kernels.family_memory, {"x": "*fp32", "out": "*fp32", "counter": "*i32", "n": "i32",
                                             "BLOCK": "constexpr"}, {"BLOCK": 256}, BOTH, _memory),
    Family("shapes", kernels.family_shapes, {"x": "*fp32", "out": "*fp32", "R": "constexpr", "C": "constexpr"},
           {"R": 32, "C": 16}, BOTH, _shapes),
    Family("control", kernels.family_control, {"x": "*fp32", "out": "*fp32", "n": "i32", "BLOCK": "constexpr"},
           {"BLOCK": 64}, BOTH, _control),
    # A TME descriptor kernel argument: byval, align 64, grid-constant in !musa.annotations.
    Family("memory (TME descriptor argument)", kernels.tme_copy_probe,
           {"desc": "tensordesc<fp16[64, 32]>", "out": "*fp16", "row": "i32", "col": "i32", "R": "constexpr",
            "C": "constexpr"}, {"R": 64, "C": 32}, ("mp_31", ), None),  # type: ignore[arg-type]
)


def compile_families_to_mubin(toolchain: Any, archs: Tuple[str, ...] = BOTH) -> List[ProbeResult]:
    """The ABI section's kernels: each family through the whole compiler and the SDK (llc, ld.lld)."""
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    from ...backend.compiler import compile_to_ttgir
    from ...backend.lowering import lower_to_llir
    from ...backend.target import parse_arch
    from ...backend.toolchain import MusaToolchainError
    results = []
    for family in FAMILIES:
        for arch in family.archs:
            if arch not in archs:
                continue
            name = f"kernel {family.name} on {arch}"
            fact = "a kernel of each corpus family compiles to a mubin"
            musa_arch = parse_arch(arch)
            try:
                src = ASTSource(family.fn, signature=family.signature, constexprs=family.constexprs)
                ttgir = compile_to_ttgir(src, GPUTarget("musa", arch, musa_arch.warp_size), {"num_warps": 4})["ttgir"]
                lowered = lower_to_llir(ttgir, musa_arch, source_name=f"{family.fn.__name__}.ttgir")
            except Exception as exc:  # noqa: BLE001
                results.append(ProbeResult("abi", name, fact, ERROR, f"our compiler failed: {type(exc).__name__}: "
                                           f"{str(exc)[:2000]}"))
                continue
            try:
                toolchain.compile_mubin(lowered.llir, musa_arch, family.fn.__name__,
                                        shared_memory_from_zero=lowered.shared_memory_from_zero)
                results.append(ProbeResult("abi", name, fact, CONFIRMED))
            except MusaToolchainError as exc:
                text = str(exc).strip().splitlines()
                results.append(ProbeResult("abi", name, fact, DIFFERS, "\n".join(text[:8]),
                                           "the construct llc names (the ABI probes above point at the entry "
                                           "when it is an intrinsic)"))
    return results


def run_families(runner: Any, archs: Tuple[str, ...]) -> List[ProbeResult]:
    """The device section's kernels against torch (float32 results within 1e-4 relative)."""
    import torch

    from .device import launch
    results = []
    for family in FAMILIES:
        if family.make is None:
            continue
        for arch in family.archs:
            if arch not in archs:
                continue
            name = f"kernel {family.name} ({arch})"
            fact = "a kernel of each corpus family matches torch"
            try:
                args, grid, reference = family.make(runner.device)
                launch(runner, family.fn, arch, family.signature, args, grid=grid, num_warps=4)
                got, expected = reference(args)
                if torch.allclose(got.float().cpu(), expected.float().cpu(), rtol=1e-4, atol=1e-4):
                    results.append(ProbeResult("device", name, fact, CONFIRMED))
                else:
                    err = (got.float().cpu() - expected.float().cpu()).abs().max().item()
                    results.append(ProbeResult("device", name, fact, DIFFERS, f"largest difference {err:g}",
                                               "a compiler bug on this device: report it with this file"))
            except Exception as exc:  # noqa: BLE001
                results.append(ProbeResult("device", name, fact, ERROR, f"{type(exc).__name__}: {str(exc)[:2000]}"))
    return results


def bench_matmul(runner: Any) -> ProbeResult:
    """``do_bench`` of a 2048^3 f16 matmul on the device (on the emulator the time would measure the emulator)."""
    fact = "do_bench of a 2048^3 f16 matmul (TFLOP/s)"
    if runner.emulated:
        return ProbeResult("device", "matmul do_bench", fact, NOT_CHECKED,
                           "no MUSA device: a time on the CPU emulator would measure the emulator")
    import torch
    import triton
    size = 2048
    a = torch.randn(size, size, device="musa", dtype=torch.float16)
    b = torch.randn(size, size, device="musa", dtype=torch.float16)
    c = torch.empty(size, size, device="musa", dtype=torch.float32)
    fn = kernels.family_dot
    ms = triton.musa_testing.do_bench(lambda: fn[(size // 64, size // 64)](a, b, c, size, size, size, 64, 64, 32))
    return ProbeResult("device", "matmul do_bench", fact, CONFIRMED,
                       f"{ms:.3f} ms, {2 * size ** 3 / ms / 1e9:.1f} TFLOP/s")
