"""Device probes: one small kernel per inferred hardware fact, run on the MUSA device (or, in CI and on any
machine without one, on the CPU emulator, which encodes the same inferences: there every probe must say
``confirmed``).

Each probe runs its kernel through the whole compiler, reads from the compiled module how our compiler placed
the data (the linear layouts of the fragments and shared buffers it chose), and predicts the kernel's output
under the statement of the fact in facts.py: "if the hardware does what this statement says, and our compiler
does what it does, the kernel prints this". Output and prediction agree: ``confirmed``; else ``differs``,
with the first differing elements and the table row or line to change. The operands are small distinct
integers, exact in every type used, so a wrong fragment or swizzle moves values visibly and nothing is
compared with a tolerance.
"""

from __future__ import annotations

import contextlib
import os
import re
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from .facts import (DescriptorArgFacts, Fragment, RingFacts, SQMMAFacts, Swizzle, TMEFacts, canonical_swizzles,
                    ph1_wmma_m16n16, qy2_wmma_m32n32k16, sqmma_accumulator)
from .report import CONFIRMED, DIFFERS, ERROR, ProbeResult

SECTION = "device"
_SHOWN = 4  # differing elements quoted per probe


@dataclass(frozen=True)
class Hypotheses:
    """The statements the probes test (facts.py); a test replaces one with a wrong one."""
    fragments: Dict[str, Fragment] = field(default_factory=lambda: {
        "qy2_wmma_m32n32k16": qy2_wmma_m32n32k16(), "ph1_wmma_m16n16k16": ph1_wmma_m16n16(16),
        "ph1_wmma_m16n16k32": ph1_wmma_m16n16(32)})
    sqmma_accumulator: Callable[[int, int], Fragment] = sqmma_accumulator
    swizzles: Dict[int, Swizzle] = field(default_factory=canonical_swizzles)
    sqmma: SQMMAFacts = SQMMAFacts()
    tme: TMEFacts = TMEFacts()
    ring: RingFacts = RingFacts()
    descriptor_args: DescriptorArgFacts = DescriptorArgFacts()

    def swizzle(self, granularity: int) -> Swizzle:
        return self.swizzles[granularity]


# --- Running kernels and reading what the compiler did ------------------------------------------------

class Runner:
    """Runs the probe kernels on the active MUSA driver: the device, or the emulator emulating ``arch``.
    Observations are kept, so that probes of several facts share one kernel run."""

    def __init__(self, emulated: bool) -> None:
        self.emulated = emulated
        self.target = "emulator" if emulated else "musa"
        self.device = "cpu" if emulated else "musa"
        self._cache: Dict[Any, Any] = {}

    @contextlib.contextmanager
    def arch(self, arch: str) -> Iterator[None]:
        """On the emulator, ``arch`` is the emulated architecture while the block runs (TRITON_MUSA_ARCH)."""
        from ...backend.environment import ARCH_ENV
        if not self.emulated:
            yield
            return
        old = os.environ.get(ARCH_ENV)
        os.environ[ARCH_ENV] = arch
        try:
            yield
        finally:
            if old is None:
                os.environ.pop(ARCH_ENV, None)
            else:
                os.environ[ARCH_ENV] = old

    def cached(self, key: Any, make: Callable[[], Any]) -> Any:
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]


def launch(runner: Runner, fn: Any, arch: str, signature: Dict[str, str], args: Dict[str, Any],
           grid: Tuple[int, int, int] = (1, 1, 1), **options: Any) -> Any:
    """Compiles ``fn`` for ``arch`` (every non-tensor argument in ``signature`` typed, constexprs given in
    ``args``) and launches it on ``grid``; returns the compiled kernel. Compiled for an explicit target, not
    through the JIT, whose kernel cache keeps the first target it saw (the emulator probes both archs)."""
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    from ...backend.target import parse_arch
    constexprs = {name: args[name] for name, kind in signature.items() if kind == "constexpr"}
    warp = parse_arch(arch).warp_size
    with runner.arch(arch):
        compiled = triton.compile(ASTSource(fn, signature=signature, constexprs=constexprs),
                                  target=GPUTarget("musa", arch, warp), options=options)
        compiled[grid](*[args[name] for name in fn.arg_names])
    return compiled


def _walk(op: Any) -> Iterator[Any]:
    yield op
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                yield from _walk(inner.operation)


def matrix_module(ttgir: str, target: str, num_stages: int = 1) -> Any:
    """The kernel's module after our matrix and TME passes for ``target``: the encodings they chose."""
    from ...backend.lowering import matrix_passes, parse_ttgir, run_passes
    module = parse_ttgir(ttgir)
    run_passes(module, f"builtin.module({matrix_passes(target, num_stages=num_stages)})")
    return module


def ops_named(module: Any, name: str) -> List[Any]:
    return [op for op in _walk(module.operation) if op.name == name]


def distributed_slots(type_text: str) -> Dict[Tuple[int, int], Tuple[int, int]]:
    """(thread, value) -> (row, col) of a distributed tensor type, from our linear layout of its encoding."""
    from ... import _musa_mlir
    layout = _musa_mlir.type_to_linear(type_text)
    ins = layout.in_dims
    lanes = ins["lane"]
    slots = {}
    for warp in range(ins["warp"]):
        for lane in range(lanes):
            for v in range(ins["register"]):
                out = layout.apply({"register": v, "lane": lane, "warp": warp, "block": 0})
                slots[(warp * lanes + lane, v)] = (out["dim0"], out["dim1"])
    return slots


def shared_coords(type_text: str) -> List[Tuple[int, int]]:
    """Element offset -> (row, col) of a shared buffer (a !ttg.memdesc), from our linear layout."""
    from ... import _musa_mlir
    layout = _musa_mlir.type_to_linear(type_text)
    return [(out["dim0"], out["dim1"]) for out in
            (layout.apply({"offset": o, "block": 0}) for o in range(layout.in_dims["offset"]))]


def swizzle_granularity(type_text: str) -> int:
    match = re.search(r"swizzleGranularity = (\w+)", type_text)
    if match is None:
        raise ValueError(f"no TME swizzle in {type_text}")
    return 0 if match.group(1) == "none" else int(match.group(1)[1:])


def _compare(observed: Any, expected: Any, describe: Callable[[Tuple[int, ...]], str] = lambda i: "") -> str:
    """'' when equal, else the first differing elements: 'out[i, j]: hardware x, the statement predicts y'."""
    import torch
    observed, expected = observed.double().cpu(), expected.double()
    same = (observed == expected) | (torch.isnan(observed) & torch.isnan(expected))
    if bool(same.all()):
        return ""
    wrong = (~same).nonzero().tolist()
    lines = [f"{len(wrong)} of {same.numel()} elements differ from the prediction:"]
    for index in wrong[:_SHOWN]:
        where = ", ".join(map(str, index))
        note = describe(tuple(index))
        lines.append(f"out[{where}]: the kernel printed {observed[tuple(index)].item():g}, the statement predicts "
                     f"{expected[tuple(index)].item():g}" + (f" ({note})" if note else ""))
    return "\n".join(lines)


def _ints(shape: Sequence[int], seed: int, low: int = -4, high: int = 5) -> Any:
    import torch
    gen = torch.Generator().manual_seed(seed)
    return torch.randint(low, high, tuple(shape), generator=gen).double()


# --- Matrix units --------------------------------------------------------------------------------------

@dataclass
class DotRun:
    a: Any
    b: Any
    c: Any
    d: Any  # what the kernel printed
    ttgir: str
    row: str  # the catalogue row the dot took (--musa-dot-path-report)
    module: Any


def run_dot(runner: Runner, arch: str, dtype: str, m: int, n: int, k: int, num_warps: int) -> DotRun:
    """dot_probe for one tile on ``arch``; raises if the dot did not take a matrix unit."""
    def make() -> DotRun:
        import torch

        from ...backend.lowering import dot_path_report
        from .kernels import dot_probe
        torch_dtype = {"f16": torch.float16, "tf32": torch.float32}[dtype]
        a, b, c = _ints((m, k), 1), _ints((k, n), 2), _ints((m, n), 3)
        dev = [t.to(torch_dtype if t is not c else torch.float32).to(runner.device) for t in (a, b, c)]
        d = torch.zeros(m, n, dtype=torch.float32, device=runner.device)
        kind = {"f16": "*fp16", "tf32": "*fp32"}[dtype]
        compiled = launch(runner, dot_probe, arch,
                          {"a": kind, "b": kind, "c": "*fp32", "d": "*fp32", "M": "constexpr", "N": "constexpr",
                           "K": "constexpr", "PREC": "constexpr"},
                          dict(a=dev[0], b=dev[1], c=dev[2], d=d, M=m, N=n, K=k, PREC="tf32"), num_warps=num_warps)
        ttgir = compiled.asm["ttgir"]
        report = dot_path_report(ttgir)
        match = re.search(r": ((?:wmma|sqmma) [^,]*)", report[0]) if report else None
        if match is None:
            raise RuntimeError(f"the probe's dot took no matrix unit: {report}")
        return DotRun(a, b, c, d.cpu().double(), ttgir, match.group(1), matrix_module(ttgir, runner.target))
    return runner.cached(("dot", arch, dtype, m, n, k, num_warps), make)


def _catalogue_row(description: str) -> Dict[str, Any]:
    from ... import _musa_mlir
    for row in _musa_mlir.matrix_instructions():
        if row["description"] == description:
            return row
    raise RuntimeError(f"the dot-path report names '{description}', which is no row of the catalogue")


def _fragment_change(row: str) -> str:
    fragment = _catalogue_row(row)["fragment"]
    return (f"catalogue row '{row}' (dialects/MUSAGPU/IR/MatrixInstrs.cpp), fragment {fragment}: its linear "
            "layout in layouts/LayoutConversion.cpp and its owner tables in emulator/MatrixUnits.cpp")


def predict_register_dot(run: DotRun, fragment: Fragment) -> Tuple[Any, Dict]:
    """The output of a one-atom WMMA dot if the hardware's fragment is ``fragment`` and the compiler places
    the values as its layouts say: A'[P(t, v)] = A[L(t, v)], likewise B and C; D' = A' B' + C';
    out[L_C(t, v)] = D'[P_C(t, v)]."""
    import torch
    (op,) = ops_named(run.module, "musagpu.wmma")
    la, lb = (distributed_slots(str(op.operands[i].type)) for i in (0, 1))
    lc = distributed_slots(str(op.result.type))
    for name, layout, count in (("A", la, fragment.a_values), ("B", lb, fragment.b_values),
                                ("C", lc, fragment.c_values)):
        if len(layout) != fragment.threads * count:
            raise RuntimeError(f"{fragment.name}: the compiler's {name} holds {len(layout)} values, the "
                               f"statement {fragment.threads} x {count}")
    a2, b2, c2 = torch.zeros_like(run.a), torch.zeros_like(run.b), torch.zeros_like(run.c)
    for (t, v), where in la.items():
        a2[fragment.a(t, v)] = run.a[where]
    for (t, v), where in lb.items():
        b2[fragment.b(t, v)] = run.b[where]
    for (t, v), where in lc.items():
        c2[fragment.c(t, v)] = run.c[where]
    d2 = a2 @ b2 + c2
    out = torch.zeros_like(run.c)
    for (t, v), where in lc.items():
        out[where] = d2[fragment.c(t, v)]
    return out, {where: slot for slot, where in lc.items()}


def wmma_fragment_probe(key: str, arch: str, m: int, n: int, k: int) -> "DeviceProbe":
    def run(runner: Runner, hyp: Hypotheses) -> ProbeResult:
        fragment = hyp.fragments[key]
        dot = run_dot(runner, arch, "f16", m, n, k, num_warps=1)
        expected, owner = predict_register_dot(dot, fragment)
        detail = _compare(dot.d, expected, lambda i: "C held by thread {}, value {}".format(*owner[i]))
        return _verdict(probe, detail, _fragment_change(dot.row), f"row '{dot.row}'")
    probe = DeviceProbe(f"wmma fragment {key} ({arch})", f"the register order of the {fragment_title(key)}",
                        arch, run)
    return probe


def fragment_title(key: str) -> str:
    return {"qy2_wmma_m32n32k16": "QY2 WMMA fragments (f16 m32n32k16)",
            "ph1_wmma_m16n16k16": "PH1 WMMA fragments (f16 m16n16k16)",
            "ph1_wmma_m16n16k32": "PH1 WMMA fragments (f16 m16n16k32)"}[key]


def predict_sqmma_dot(run: DotRun, hyp: Hypotheses) -> Tuple[Any, Dict, List[int]]:
    """The output of a one-instruction-per-squad SQMMA dot under ``hyp``: the hardware reads A and B from
    shared memory through the swizzle of each buffer's granularity (element (r, c) of a tile whose rows are
    ``row_bytes`` long at swizzle(r * row_bytes + c * elem_bytes)), holds the accumulator as
    ``hyp.sqmma_accumulator`` says, and chains the K steps through it (or, when scaleOut = 1 drops the
    accumulator operand, keeps only the last step's product). Returns the prediction, the owner of each
    output element and the granularities of A's and B's buffers."""
    import torch
    (op,) = ops_named(run.module, "musagpu.sqmma")
    result_type = str(op.result.type)
    inst = re.search(r"instrShape = \[(\d+), (\d+), (\d+)\]", result_type)
    inst_m, inst_n, inst_k = map(int, inst.groups())
    granularities = []
    operands = []
    for index, tensor in ((0, run.a), (1, run.b)):
        text = str(op.operands[index].type)
        coords = shared_coords(text)
        granularity = swizzle_granularity(text)
        granularities.append(granularity)
        swizzle = hyp.swizzle(granularity)
        bits = int(re.search(r"elementBitWidth = (\d+)", text).group(1))
        elem = bits // 8
        rows, cols = tensor.shape
        if cols * elem > 256:
            raise RuntimeError(f"the probe keeps each operand's rows within 256 B; {text} has {cols * elem}")
        seen = torch.zeros_like(tensor)
        for r in range(rows):
            for c in range(cols):
                seen[r, c] = tensor[coords[swizzle.address((r * cols + c) * elem) // elem]]
        operands.append(seen)
    a2, b2 = operands
    fragment = hyp.sqmma_accumulator(inst_m, inst_n)
    lc = distributed_slots(result_type)
    # The tile is one instruction per squad here (the probe's shape): P and L index the same values.
    if len(lc) != 128 * fragment.c_values or run.c.shape != (inst_m, inst_n):
        raise RuntimeError(f"the probe expects one {inst_m}x{inst_n} instruction per squad, got {result_type}")
    c2 = torch.zeros_like(run.c)
    for (t, v), where in lc.items():
        c2[fragment.c(t, v)] = run.c[where]
    steps = run.a.shape[1] // inst_k
    if hyp.sqmma.scale_out_one_accumulates:
        d2 = a2 @ b2 + c2
    else:
        last = slice((steps - 1) * inst_k, steps * inst_k)
        d2 = a2[:, last] @ b2[last, :]
    out = torch.zeros_like(run.c)
    for (t, v), where in lc.items():
        out[where] = d2[fragment.c(t, v)]
    return out, {where: slot for slot, where in lc.items()}, granularities


def sqmma_probe(name: str, fact: str, dtype: str, k: int, change: Callable[[DotRun, List[int]], str]
                ) -> "DeviceProbe":
    def run(runner: Runner, hyp: Hypotheses) -> ProbeResult:
        dot = run_dot(runner, "mp_31", dtype, 64, 64, k, num_warps=4)
        if not dot.row.startswith("sqmma"):
            raise RuntimeError(f"the probe's dot took {dot.row}, not SQMMA")
        expected, owner, granularities = predict_sqmma_dot(dot, hyp)
        detail = _compare(dot.d, expected, lambda i: "C held by thread {}, value {}".format(*owner[i]))
        return _verdict(probe, detail, change(dot, granularities),
                        f"row '{dot.row}', A/B swizzle {granularities[0]}/{granularities[1]} B")
    probe = DeviceProbe(name, fact, "mp_31", run)
    return probe


def _swizzle_change(granularity: int) -> str:
    return (f"the {granularity} B swizzle's line (256 B) in passes/LowerDescriptorsToTME.cpp "
            "chooseSharedEncoding and passes/AccelerateMatmul.cpp (the SQMMA operand encodings), the "
            "tme_shared linear layout in layouts/LayoutConversion.cpp and emulator/MatrixUnits.cpp "
            "sqmmaOperandOffset")


# --- TME -------------------------------------------------------------------------------------------------

@dataclass
class TMERun:
    x: Any  # the global tensor
    out: Any
    module: Any


def _descriptor(tensor: Any, block: Sequence[int]) -> Any:
    from triton.tools.tensor_descriptor import TensorDescriptor
    return TensorDescriptor.from_tensor(tensor, block_shape=list(block))


def run_tme_copy(runner: Runner, shape: Tuple[int, int], box: Tuple[int, int], at: Tuple[int, int]) -> TMERun:
    def make() -> TMERun:
        import torch

        from .kernels import tme_copy_probe
        x = _ints(shape, 4, -1000, 1000)
        out = torch.full(box, -7.0, dtype=torch.float16, device=runner.device)
        compiled = launch(runner, tme_copy_probe, "mp_31",
                          {"desc": f"tensordesc<fp16[{box[0]}, {box[1]}]>", "out": "*fp16", "row": "i32",
                           "col": "i32", "R": "constexpr", "C": "constexpr"},
                          dict(desc=_descriptor(x.half().to(runner.device), box), out=out, row=at[0], col=at[1],
                               R=box[0], C=box[1]))
        return TMERun(x, out.cpu().double(), matrix_module(compiled.asm["ttgir"], runner.target))
    return runner.cached(("tme", shape, box, at), make)


def _tme_buffer_type(module: Any) -> str:
    loads = [op for op in ops_named(module, "ttg.local_load") if "tme_shared" in str(op.operands[0].type)]
    if len(loads) != 1:
        raise RuntimeError(f"expected one read of one TME buffer, found {len(loads)}")
    return str(loads[0].operands[0].type)


def predict_tme_tile(x: Any, at: Tuple[int, int], box: Tuple[int, int], buffer_type: str, swizzle: Swizzle,
                     fill: float) -> Any:
    """What the kernel reads from the TME buffer if the engine wrote element (r, c) of the box at
    swizzle(r * row_bytes + c * elem_bytes) (the fill value outside the tensor) and our compiler reads
    element (i, j) at the offset its layout of the buffer gives."""
    import torch
    coords = shared_coords(buffer_type)
    elem = int(re.search(r"elementBitWidth = (\d+)", buffer_type).group(1)) // 8
    rows, cols = box
    written = {}
    for r in range(rows):
        for c in range(cols):
            gr, gc = at[0] + r, at[1] + c
            inside = 0 <= gr < x.shape[0] and 0 <= gc < x.shape[1]
            written[swizzle.address((r * cols + c) * elem) // elem] = x[gr, gc].item() if inside else fill
    out = torch.zeros(box, dtype=torch.float64)
    for offset, (i, j) in enumerate(coords):
        out[i, j] = written[offset]
    return out


def tme_swizzle_probe(rows: int, cols: int) -> "DeviceProbe":
    def run(runner: Runner, hyp: Hypotheses) -> ProbeResult:
        tme = run_tme_copy(runner, (rows, cols), (rows, cols), (0, 0))
        buffer = _tme_buffer_type(tme.module)
        granularity = swizzle_granularity(buffer)
        expected = predict_tme_tile(tme.x, (0, 0), (rows, cols), buffer, hyp.swizzle(granularity),
                                    hyp.tme.out_of_bounds_fill)
        change = _swizzle_change(granularity) if granularity else \
            "the unswizzled tme_shared layout (layouts/LayoutConversion.cpp) and the TME load's box order"
        return _verdict(probe, _compare(tme.out, expected), change, f"swizzle granularity {granularity or 'none'}")
    size = rows * cols * 2
    probe = DeviceProbe(f"tme swizzle ({size} B box)", "the TME load's swizzle (line 256 B for every granularity)",
                        "mp_31", run)
    return probe


def tme_oob_probe() -> "DeviceProbe":
    shape, box, at = (24, 16), (16, 16), (16, 8)

    def run(runner: Runner, hyp: Hypotheses) -> ProbeResult:
        tme = run_tme_copy(runner, shape, box, at)
        buffer = _tme_buffer_type(tme.module)
        expected = predict_tme_tile(tme.x, at, box, buffer, hyp.swizzle(swizzle_granularity(buffer)),
                                    hyp.tme.out_of_bounds_fill)
        return _verdict(probe, _compare(tme.out, expected),
                        "the out-of-bounds fill of TME loads: the descriptor's fill (backend/launcher.py, "
                        "muTensorDescriptorEncode's last argument) and the emulator's TME load "
                        "(emulator/Runtime.cpp), and kernels that rely on zero padding", f"box {box} at {at} of {shape}")
    probe = DeviceProbe("tme out-of-bounds fill", "a TME box beyond the tensor reads zeros", "mp_31", run)
    return probe


def tme_ring_probe(iters: int = 7, depth: int = 3) -> "DeviceProbe":
    rows, cols = 16, 16

    def run(runner: Runner, hyp: Hypotheses) -> ProbeResult:
        import torch

        from .kernels import tme_ring_probe as kernel

        def make() -> Tuple[Any, Any, Any]:
            x = _ints((iters * rows, cols), 5, -1000, 1000)
            out = torch.zeros(iters, rows, cols, dtype=torch.float16, device=runner.device)
            compiled = launch(runner, kernel, "mp_31",
                              {"desc": f"tensordesc<fp16[{rows}, {cols}]>", "out": "*fp16", "ITERS": "constexpr",
                               "R": "constexpr", "C": "constexpr", "DEPTH": "constexpr"},
                              dict(desc=_descriptor(x.half().to(runner.device), (rows, cols)), out=out, ITERS=iters,
                                   R=rows, C=cols, DEPTH=depth), num_stages=depth)
            return x, out.cpu().double(), matrix_module(compiled.asm["ttgir"], runner.target, num_stages=depth)
        x, out, module = runner.cached(("ring", iters, depth), make)
        record = ops_named(module, "musagpu.async_barrier_record")
        if not record or "async_barrier_record 3" not in str(record[0]):
            raise RuntimeError("the probe's loop was not pipelined through a ring of 3 barriers")
        tiles = x.reshape(iters, rows, cols)
        # Load i lands in buffer i % depth; iteration i waits on the barrier of its load. Hardware that takes
        # every computed id as the first returns from the wait once the first barrier's load is in: the buffer
        # still holds load i - depth.
        expected = tiles.clone()
        if not hyp.ring.honours_computed_ids:
            for i in range(iters):
                expected[i] = tiles[i - depth] if i >= depth and i % depth else tiles[i]
        return _verdict(probe, _compare(out, expected),
                        "the ring's barrier ids (passes/pipeline/PipelineLoops.cpp rewriteLoads: computed ids "
                        "first + i % depth; constant ids per buffer would need the loop unrolled by the depth)",
                        f"{iters} iterations, ring of {depth}")
    probe = DeviceProbe("tme ring barriers", "async barriers with computed (ring) ids", "mp_31", run)
    return probe


def descriptor_args_probe() -> "DeviceProbe":
    rows, cols, scale = 16, 16, 3

    def run(runner: Runner, hyp: Hypotheses) -> ProbeResult:
        import torch

        from .kernels import descriptor_args_probe as kernel

        def make() -> Tuple[Any, Any, Any]:
            a, b = _ints((rows, cols), 6), _ints((rows, cols), 7)
            out = torch.zeros(rows, cols, dtype=torch.float16, device=runner.device)
            desc = f"tensordesc<fp16[{rows}, {cols}]>"
            launch(runner, kernel, "mp_31",
                   {"da": desc, "db": desc, "out": "*fp16", "scale": "i32", "R": "constexpr", "C": "constexpr"},
                   dict(da=_descriptor(a.half().to(runner.device), (rows, cols)),
                        db=_descriptor(b.half().to(runner.device), (rows, cols)), out=out, scale=scale, R=rows,
                        C=cols))
            return a, b, out.cpu().double()
        a, b, out = runner.cached("descriptor-args", make)
        expected = a + scale * b
        if hyp.descriptor_args.delivered:
            detail = _compare(out, expected)
        else:  # the statement predicts anything but the tiles
            detail = "" if not torch.equal(out, expected) else \
                "the kernel read both tiles intact, the statement predicts a descriptor the TME unit cannot read"
        return _verdict(probe, detail, "the descriptor parameter's grid-constant annotation in !musa.annotations "
                        "and its byval([64 x i8]) align 64 form (conversion/TritonGPUToMUSA/FuncOpToLLVM.cpp, "
                        "conversion/LLVMIRExport/LLVMIRExport.cpp), and "
                        "the host side's descriptor-then-shape-then-strides arguments (backend/launcher.py)",
                        "two descriptor arguments and a scalar after them")
    probe = DeviceProbe("descriptor arguments", "a TME descriptor kernel argument (64 B by value, grid-constant)",
                        "mp_31", run)
    return probe


def warp_specialized_probe() -> "DeviceProbe":
    m, n, bk, steps = 64, 64, 32, 5

    def run(runner: Runner, hyp: Hypotheses) -> ProbeResult:
        import torch

        from .kernels import warp_specialized_probe as kernel

        def make() -> Tuple[Any, Any, Any, int]:
            a, b = _ints((m, bk * steps), 10), _ints((bk * steps, n), 11)
            out = torch.zeros(m, n, dtype=torch.float32, device=runner.device)
            compiled = launch(runner, kernel, "mp_31",
                              {"a_desc": f"tensordesc<fp16[{m}, {bk}]>", "b_desc": f"tensordesc<fp16[{bk}, {n}]>",
                               "c": "*fp32", "K": "i32", "M": "constexpr", "N": "constexpr", "BK": "constexpr"},
                              dict(a_desc=_descriptor(a.half().to(runner.device), (m, bk)),
                                   b_desc=_descriptor(b.half().to(runner.device), (bk, n)), c=out, K=bk * steps,
                                   M=m, N=n, BK=bk), num_stages=2)
            return a, b, out.cpu().double(), compiled.metadata.num_warps
        a, b, out, warps = runner.cached("warp-specialized", make)
        if warps != 5:
            raise RuntimeError(f"the probe's loop was not warp-specialized (the block runs {warps} warps, not 5)")
        return _verdict(probe, _compare(out, a @ b),
                        "the producer/consumer protocol of passes/pipeline/WarpSpecialize.cpp (a wait for the "
                        "parity before a fresh barrier's passes at once, per-warp arrivals counted in warps) and the partition's return "
                        "in conversion/TritonGPUToMUSA/WarpSpecializeOpToLLVM.cpp (a hang instead: the block "
                        "barriers after the loop wait for the returned producer warp)",
                        f"{steps} K steps through 2 slots, 4 consumer warps and a producer warp")
    probe = DeviceProbe("warp-specialized loop", "a producer warp on async barriers (count in warps, a fresh "
                        "barrier's parity-1 wait passing) that returns early, block barriers after it counting the warps still running "
                        "[inferred]", "mp_31", run)
    return probe


# --- The list ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class DeviceProbe:
    name: str
    fact: str
    arch: str
    run: Callable[[Runner, Hypotheses], ProbeResult]


def _verdict(probe: DeviceProbe, detail: str, change: str, context: str) -> ProbeResult:
    if not detail:
        return ProbeResult(SECTION, probe.name, probe.fact, CONFIRMED, context)
    return ProbeResult(SECTION, probe.name, probe.fact, DIFFERS, f"{context}: {detail}", change)


def _sqmma_accumulator_change(dot: DotRun, granularities: List[int]) -> str:
    return (f"catalogue row '{dot.row}', fragment sqmma_squad: the SQMMA accumulator layout in "
            "layouts/LayoutConversion.cpp and emulator/MatrixUnits.cpp sqmmaAccumulatorCoord "
            "(if the swizzle probes differ too, look at them first)")


def _sqmma_swizzle_change(granularity: int) -> Callable[[DotRun, List[int]], str]:
    return lambda dot, granularities: _swizzle_change(granularity) + f" (row '{dot.row}')"


def _scale_out_change(dot: DotRun, granularities: List[int]) -> str:
    return ("scaleOut in the SQMMA call (target/MUSATargetInfo.cpp, the sqmma call: we pass 1); MUTLASS "
            "names ScaleOut::One = 0, Zero = 1")


PROBES: Tuple[DeviceProbe, ...] = (
    wmma_fragment_probe("qy2_wmma_m32n32k16", "mp_22", 32, 32, 16),
    wmma_fragment_probe("ph1_wmma_m16n16k16", "mp_31", 16, 16, 16),
    wmma_fragment_probe("ph1_wmma_m16n16k32", "mp_31", 16, 16, 32),
    sqmma_probe("sqmma accumulator", "the SQMMA accumulator layout", "f16", 128, _sqmma_accumulator_change),
    sqmma_probe("sqmma operand swizzle 16 B", "the 256 B swizzle line of SQMMA's 16 B granularity (K-major A)",
                "f16", 128, _sqmma_swizzle_change(16)),
    sqmma_probe("sqmma operand swizzle 32 B", "the 256 B swizzle line of SQMMA's 32 B granularity "
                "(16-bit N-major B)", "f16", 128, _sqmma_swizzle_change(32)),
    sqmma_probe("sqmma operand swizzle 64 B", "the 256 B swizzle line of SQMMA's 64 B granularity "
                "(32-bit N-major B)", "tf32", 32, _sqmma_swizzle_change(64)),
    sqmma_probe("sqmma scaleOut", "scaleOut = 1 accumulates (two chained K = 64 steps onto a loaded C)", "f16",
                128, _scale_out_change),
    tme_swizzle_probe(16, 16),
    tme_swizzle_probe(32, 16),
    tme_swizzle_probe(64, 16),
    tme_swizzle_probe(64, 32),
    tme_oob_probe(),
    tme_ring_probe(),
    descriptor_args_probe(),
    warp_specialized_probe(),
)


def run_device_probes(probes: Sequence[DeviceProbe] = PROBES, hypotheses: Optional[Hypotheses] = None,
                      runner: Optional[Runner] = None, archs: Optional[Sequence[str]] = None) -> List[ProbeResult]:
    """Runs ``probes`` whose arch is in ``archs`` on the active driver (``runner``'s); every probe on the
    emulator, the device's arch on a device."""
    hypotheses = hypotheses or Hypotheses()
    results = []
    for probe in probes:
        if archs is not None and probe.arch not in archs:
            results.append(ProbeResult(SECTION, probe.name, probe.fact, "not checked",
                                       f"needs {probe.arch}; this device is {', '.join(archs)}"))
            continue
        try:
            results.append(probe.run(runner, hypotheses))
        except Exception as exc:  # noqa: BLE001  (a probe that cannot run is itself a finding)
            results.append(ProbeResult(SECTION, probe.name, probe.fact, ERROR, f"{type(exc).__name__}: {exc}"))
    return results
