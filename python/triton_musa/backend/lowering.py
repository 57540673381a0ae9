"""TTGIR -> LLVM for a MUSA target, through our MLIR library.

One pipeline serves every target: the MUSA TTGIR passes (descriptor tiles
through TME where the arch has it, gather-offset relayout, shared-memory
allocation, barriers), then
``--convert-tritongpu-to-musa`` for the MUSA GPU or, with
``target=emulator``, for the CPU emulator. The architecture is the module's
``ttg.target``. Every step is a pass pipeline string that ``musa-opt`` replays
on the saved TTGIR; the device's LLVM IR export is what
``musa-translate --musa-to-llvmir`` replays on the result. Ops the lowering
does not cover yet raise ``MLIRError`` naming the op.

The module is parsed, transformed and read through MLIR's Python bindings
(``triton_musa.mlir``): the facts the backend needs (``ttg.target``, the
shared memory ``--musa-allocate-shared-memory`` planned, the dot-path remarks,
diagnostics with their locations) are attributes and diagnostics, not text,
and the LLVM IR export takes the same module object (one MLIR in the process).
"""

from __future__ import annotations

import os
import re
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

from .environment import ENABLE_MMA_ENV, ENABLE_SQMMA_ENV, matrix_switch
from .environment import dump_requested
from .instrumentation import StepTimer, run_pipeline
from .target import MusaArch
from .toolchain import libdevice_path

# The first LLVM release whose llc reads the IR our exporter writes without the compatibility step.
LLVM_MAJOR_WITHOUT_REWRITES = 19

# What --convert-tritongpu-to-musa lowers for: the MUSA GPU, the CPU emulator emulating it, or
# the GPU proxy (an NVIDIA GPU running its code, proxy.py).
TARGETS = ("musa", "emulator", "proxy")


@dataclass(frozen=True)
class LoweredModule:
    pipeline: str
    llvm_dialect: str  # the module after `pipeline`, in the MLIR LLVM dialect
    shared_bytes: int  # shared memory per block, as --musa-allocate-shared-memory planned it
    # Per tensor-descriptor argument of the kernel, in order: 1 where the host passes a 64-byte
    # MUtensorDescriptor, 0 where the tensor's base address (GPU target only; empty on the emulator).
    tme_descriptor_args: Tuple[int, ...] = ()
    # The warps a block is launched with where a loop is warp-specialized (the module's
    # ttg.total-num-warps: num_warps and the producer warps); None: num_warps.
    total_num_warps: Optional[int] = None


@dataclass(frozen=True)
class LoweredKernel(LoweredModule):
    llir: str = ""  # LLVM IR text for mtgpu-mt-musa, readable by the SDK's llc
    # The kernel calls an intrinsic that needs shared memory at address 0 (SQMMA descriptors): the module
    # attribute SHARED_MEMORY_FROM_ZERO_ATTR, which llc is told with -mtgpu-alloc-shared-memory-from-zero=1.
    shared_memory_from_zero: bool = False
    # The GPU proxy: Triton's tensordesc_meta of the TMA tensor maps the host encodes (proxy_tensor_maps).
    tensor_maps: Optional[List[Dict[str, Any]]] = None


# Unit module attribute the MUSA target sets for such intrinsics (target/MUSAIntrinsics.h).
SHARED_MEMORY_FROM_ZERO_ATTR = "musagpu.shared_memory_from_zero"


@dataclass(frozen=True)
class MatmulOptions:
    """Matrix-path switches of --musa-accelerate-matmul (ENABLE_MUSA_MMA, MUSA_ENABLE_SQMMA)."""
    enable_mma: bool = True
    enable_sqmma: bool = True

    @classmethod
    def from_env(cls) -> "MatmulOptions":
        """``ENABLE_MUSA_MMA=0`` puts every dot on FMA; ``MUSA_ENABLE_SQMMA=0`` keeps SQMMA off (mp_31's
        f16/bf16 dots then take its WMMA)."""
        return cls(enable_mma=matrix_switch(ENABLE_MMA_ENV), enable_sqmma=matrix_switch(ENABLE_SQMMA_ENV))

    def pass_spec(self, target: str = "musa") -> str:
        """The pass with these switches, selecting from ``target``'s rows of the catalogue."""
        options = [] if target == "musa" else [f"target={target}"]
        if not self.enable_mma:
            options.append("enable-mma=false")
        if not self.enable_sqmma:
            options.append("enable-sqmma=false")
        return "musa-accelerate-matmul" + (f"{{{' '.join(options)}}}" if options else "")


def matrix_passes(target: str = "musa", matmul: Optional[MatmulOptions] = None, num_stages: int = 1) -> str:
    """The TTGIR passes that decide the matrix paths and the software pipeline for ``target`` ("musa",
    "emulator" or "proxy"), in order: loops carry their in-kernel descriptors as the makers' operands;
    the loads and stores of in-kernel descriptors that TME does not take become pointer accesses; scaled dots become
    plain dots; the matrix-path selection on
    unpipelined loops, from the target's rows of the catalogue; the results kept in the accumulator layout
    through the epilogue's elementwise ops and stores; the one software pipeliner, which plans and expands
    every loop whose loads feed a dot (``num_stages``: loads issued ``num_stages - 1`` iterations ahead
    into rings of ``num_stages`` slots: async copies, or TME tiles for descriptor loads); TME for every other
    descriptor load and store; the gather-offset relayout. A comma-separated list of pass
    specs."""
    if target not in TARGETS:
        raise ValueError(f"unknown lowering target {target!r}; expected one of {TARGETS}")
    check_num_stages(num_stages)
    matmul = matmul or MatmulOptions()
    target_option = [] if target == "musa" else [f"target={target}"]

    def spec(name: str, options: List[str]) -> str:
        return name + (f"{{{' '.join(options)}}}" if options else "")

    pipeline = spec("musa-pipeline-loops",
                    target_option + ([f"num-stages={num_stages}"] if num_stages > 1 else []))
    tme = spec("musa-lower-descriptors-to-tme", target_option)
    pointers = spec("musa-lower-descriptors-to-pointers", target_option)
    return (f"musa-carry-descriptor-fields,{pointers},musa-decompose-scaled-dot,{matmul.pass_spec(target)},"
            f"musa-sink-accumulator-conversions,{pipeline},{tme},musa-relayout-gather-offsets")


def with_pipeline_options(passes: str, options: Sequence[str]) -> str:
    """``passes`` (a pass list as ``matrix_passes`` returns it) with ``options`` (``name=value``) added to
    --musa-pipeline-loops: the planner's switches that no compile option reaches (the bench and tests
    compare the plans they choose)."""
    def add(match: "re.Match[str]") -> str:
        return "musa-pipeline-loops{" + " ".join(filter(None, [match.group(1), *options])) + "}"

    return re.sub(r"musa-pipeline-loops(?:\{([^}]*)\})?", add, passes)


def check_num_stages(num_stages: object) -> None:
    """``num_stages`` as the pipeline takes it (a loop's copies issued ``num_stages - 1`` iterations ahead;
    0 and 1: no pipelining), or a ValueError naming it."""
    if not isinstance(num_stages, int) or isinstance(num_stages, bool) or num_stages < 0:
        raise ValueError(f"num_stages must be a non-negative integer, got {num_stages!r}")


def lowering_pipeline(target: str = "musa", matmul: Optional[MatmulOptions] = None, num_stages: int = 1) -> str:
    """The pass pipeline from TTGIR to the LLVM dialect for ``target`` ("musa", "emulator" or
    "proxy"): the matrix passes, then the shared-memory plan, barriers and the conversion; the
    matrix-path switches default to MatmulOptions() (both units on; the compile passes its options')."""
    option = "" if target == "musa" else f"{{target={target}}}"
    return (f"builtin.module({matrix_passes(target, matmul, num_stages)},musa-allocate-shared-memory,"
            f"musa-insert-barriers,convert-tritongpu-to-musa{option},canonicalize,cse)")


def dot_path_pipeline(matmul: Optional[MatmulOptions] = None, num_stages: int = 1) -> str:
    """The pipeline whose remarks ``dot_path_report`` returns: the matrix-path selection (and, for
    ``num_stages`` > 1, the software pipeline, so that operands read from its rings say so), then
    --musa-dot-path-report."""
    matmul = matmul or MatmulOptions()
    passes = [matmul.pass_spec()]
    if num_stages > 1:
        passes += ["musa-sink-accumulator-conversions", f"musa-pipeline-loops{{num-stages={num_stages}}}"]
    return f"builtin.module({','.join(passes)},musa-dot-path-report)"


def pipeline_report_pipeline(matmul: Optional[MatmulOptions] = None, num_stages: int = 1,
                             target: str = "musa") -> str:
    """The pipeline whose remarks ``pipeline_report`` returns: the passes of ``matrix_passes`` up to and
    including --musa-pipeline-loops."""
    passes = matrix_passes(target, matmul, num_stages).split(",")
    last = next(i for i, spec in enumerate(passes) if spec.startswith("musa-pipeline-loops"))
    return f"builtin.module({','.join(passes[:last + 1])})"


@dataclass(frozen=True)
class Diagnostic:
    """One MLIR diagnostic: ``where`` is ``file:line:col`` where the location has one."""
    severity: str  # "error", "warning", "note" or "remark"
    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.severity}: {self.message}"

    @property
    def shows_ir(self) -> bool:
        """Whether this is MLIR's note that prints the failing operation."""
        return self.severity == "note" and self.message.startswith("see current operation")


def _file_line_col(loc: Any) -> Optional[str]:
    """The first file:line:col in ``loc`` (as mlir::Location::findInstanceOf<FileLineColLoc> finds it)."""
    if loc.is_a_file():
        return f"{loc.filename}:{loc.start_line}:{loc.start_col}"
    if loc.is_a_name():
        return _file_line_col(loc.child_loc)
    if loc.is_a_callsite():
        return _file_line_col(loc.callee) or _file_line_col(loc.caller)
    if loc.is_a_fused():
        for child in loc.locations:
            found = _file_line_col(child)
            if found:
                return found
    return None


def _diagnostics(diagnostic: Any) -> List[Diagnostic]:
    """A bindings diagnostic (``ir.DiagnosticInfo``/``ir.Diagnostic``) and its notes."""
    where = _file_line_col(diagnostic.location) or str(diagnostic.location)
    out = [Diagnostic(diagnostic.severity.name.lower(), where, diagnostic.message)]
    for note in diagnostic.notes:
        out.extend(_diagnostics(note))
    return out


class LoweringError(Exception):
    """Raised in place of the bindings' ``ir.MLIRError``: ``diagnostics`` holds every diagnostic with
    its notes; the message is the headline and one ``file:line:col: severity: message`` line each."""

    def __init__(self, headline: str, diagnostics: List[Diagnostic]) -> None:
        super().__init__("\n".join([headline, *map(str, diagnostics)]))
        self.headline = headline
        self.diagnostics = diagnostics


class OutOfSharedMemory(LoweringError):
    """The kernel needs more shared memory per block than the architecture has: ``required`` is the
    module's ``ttg.shared`` as --musa-allocate-shared-memory planned it, ``limit`` the arch's."""

    def __init__(self, error: LoweringError, required: int, limit: int) -> None:
        super().__init__(error.headline, error.diagnostics)
        self.required = required
        self.limit = limit


@contextmanager
def _mlir_errors(headline: str) -> Iterator[None]:
    from ..mlir import ir
    try:
        yield
    except ir.MLIRError as exc:
        diagnostics = [d for info in exc.error_diagnostics for d in _diagnostics(info)]
        raise _lowering_error_type()(headline, diagnostics) from None


def library_error(exc: BaseException) -> LoweringError:
    """``exc`` as a LoweringError: itself, or an ``_musa_mlir.MLIRError`` (whose ``headline`` and
    ``diagnostics`` tuples are data, not text to read), or another exception's message as the headline."""
    if isinstance(exc, LoweringError):
        return exc
    headline = getattr(exc, "headline", None)
    records = getattr(exc, "diagnostics", None)
    if headline is None or records is None:
        return _lowering_error_type()(str(exc) or type(exc).__name__, [])
    return _lowering_error_type()(headline, [Diagnostic(*record) for record in records])


@contextmanager
def _library_errors() -> Iterator[None]:
    """Raises the exporters' ``_musa_mlir.MLIRError`` as the lowering's LoweringError."""
    from .. import _musa_mlir
    try:
        yield
    except _musa_mlir.MLIRError as exc:
        raise library_error(exc) from None


def _lowering_error_type() -> type:
    """LoweringError, also an ``_musa_mlir.MLIRError`` (what the exporters raise), so one ``except``
    catches every error of our library."""
    global _LoweringMLIRError
    if _LoweringMLIRError is None:
        from .. import _musa_mlir

        class MLIRLoweringError(LoweringError, _musa_mlir.MLIRError):
            pass
        _LoweringMLIRError = MLIRLoweringError
    return _LoweringMLIRError


_LoweringMLIRError: Optional[type] = None


def _context() -> Any:
    from ..mlir import ir
    return ir.Context()  # our dialects are registered in every context (_site_initialize_0)


def parse_ttgir(ttgir: str, context: Optional[Any] = None, *, source_name: str = "kernel.ttgir") -> Any:
    """Parses and verifies ``ttgir`` (any module text) into a builtin.module ``ir.Operation``, in ``context``
    or a new one (the operation keeps it alive); raises MLIRError with ``source_name:line:col`` diagnostics."""
    from ..mlir import ir
    with _mlir_errors(f"failed to parse {source_name}"):
        return ir.Operation.parse(ttgir, source_name=source_name, context=context or _context())


def run_passes(module: Any, pipeline: str) -> List[Diagnostic]:
    """Runs ``pipeline`` on ``module`` in place; returns the remarks the passes emitted."""
    from ..mlir import ir, passmanager
    context = module.context
    remarks: List[Diagnostic] = []

    def keep_remark(diagnostic: Any) -> bool:
        if diagnostic.severity != ir.DiagnosticSeverity.REMARK:
            return False  # errors and their notes reach the MLIRError raised below
        remarks.append(_diagnostics(diagnostic)[0])  # without MLIR's note printing the op
        return True

    handler = context.attach_diagnostic_handler(keep_remark)
    try:
        with _mlir_errors(f"invalid pass pipeline '{pipeline}'"):
            pm = passmanager.PassManager.parse(pipeline, context=context)
        with _mlir_errors(f"pass pipeline '{pipeline}' failed"):
            pm.run(module.operation)
    except ValueError as exc:  # an unknown pass or option
        raise _lowering_error_type()(f"invalid pass pipeline '{pipeline}'",
                                     [Diagnostic("error", "<pipeline>", str(exc))]) from None
    finally:
        handler.detach()
    return remarks


def module_attribute(module: Any, name: str) -> Any:
    """The module's integer or string attribute ``name`` as a Python value, None where it has none."""
    from ..mlir import ir
    attributes = module.operation.attributes
    if name not in attributes:
        return None
    value = attributes[name]
    if isinstance(value, ir.IntegerAttr):
        return value.value
    if isinstance(value, ir.StringAttr):
        return value.value
    if isinstance(value, ir.DenseI32ArrayAttr):
        return list(value)
    raise ValueError(f"module attribute '{name}' = {value} is neither an integer nor a string")


def _report(ttgir: str, pipeline: str, source_name: str, prefix: str) -> list[str]:
    """The remarks of ``pipeline`` on ``ttgir`` whose message starts with ``prefix``, as text."""
    with _context() as context:
        module = parse_ttgir(ttgir, context, source_name=source_name)
        return [str(remark) for remark in run_passes(module, pipeline) if remark.message.startswith(prefix)]


def dot_path_report(ttgir: str, matmul: Optional[MatmulOptions] = None, *, num_stages: int = 1,
                    source_name: str = "kernel.ttgir") -> list[str]:
    """Per dot of ``ttgir``, the remark of --musa-dot-path-report: the matrix path it takes, or
    ``fma (<why>)``. Lines read ``<loc>: remark: dot MxNxK <a> -> <acc>: <path>``, where a matrix path
    is the catalogue row of its instruction and the tiling (``wmma f16 x f16 -> f32 m32n32k16 on mp_2x,
    warpsPerCTA [2, 2]``); with ``num_stages`` > 1 an SQMMA that reads a pipelined ring says so."""
    return _report(ttgir, dot_path_pipeline(matmul, num_stages), source_name, "dot ")


def pipeline_report(ttgir: str, num_stages: int, matmul: Optional[MatmulOptions] = None, *,
                    target: str = "musa", source_name: str = "kernel.ttgir") -> list[str]:
    """Per loop of ``ttgir`` with a load to pipeline, the remark of --musa-pipeline-loops: ``loop
    pipelined: <the plan>`` or ``loop not pipelined: <why>``."""
    return _report(ttgir, pipeline_report_pipeline(matmul, num_stages, target), source_name, "loop ")


def _lower(ttgir: str, arch: MusaArch, target: str, source_name: str,
           num_stages: int = 1, matmul: Optional[MatmulOptions] = None) -> Tuple[Any, LoweredModule]:
    """The module in the LLVM dialect (it keeps its context alive) and what was lowered."""
    module = parse_ttgir(ttgir, _context(), source_name=source_name)
    module_target = module_attribute(module, "ttg.target")
    if module_target != f"musa:{arch.name}":
        raise ValueError(f"{source_name}: the module's ttg.target is {module_target!r}, "
                         f"not 'musa:{arch.name}': compile it for the architecture it was made for")
    pipeline = lowering_pipeline(target, matmul, num_stages=num_stages)
    kernel = os.path.splitext(source_name)[0]
    if dump_requested(kernel):
        print(f"// triton-musa: musa-opt '--pass-pipeline={pipeline}' {source_name}")
    try:
        run_pipeline(module, pipeline, run_passes, kernel=kernel)
    except LoweringError as exc:
        # --musa-allocate-shared-memory records its plan in ttg.shared even when it exceeds the arch.
        planned = module_attribute(module, "ttg.shared")
        if isinstance(planned, int) and planned > arch.max_shared_memory_bytes:
            raise OutOfSharedMemory(exc, planned, arch.max_shared_memory_bytes) from None
        raise
    shared = module_attribute(module, "ttg.shared") or 0
    tme_args = tuple(module_attribute(module, "musagpu.tme_descriptor_args") or ())
    total_warps = module_attribute(module, "ttg.total-num-warps")
    return module, LoweredModule(pipeline=pipeline, llvm_dialect=str(module), shared_bytes=int(shared),
                                 tme_descriptor_args=tme_args,
                                 total_num_warps=int(total_warps) if total_warps is not None else None)


def record_launch_warps(metadata: Dict[str, Any], lowered: LoweredModule) -> None:
    """A kernel with a warp-specialized loop is launched with its partitions' warps too (the module's
    ttg.total-num-warps): the launchers size the block from metadata num_warps."""
    if lowered.total_num_warps is not None:
        metadata["num_warps"] = lowered.total_num_warps


def lower_for_emulator(ttgir: str, arch: MusaArch, *, source_name: str = "kernel.ttgir",
                       num_stages: int = 1, matmul: Optional[MatmulOptions] = None) -> LoweredModule:
    """TTGIR -> LLVM dialect for the CPU emulator emulating ``arch`` (what the emulator JIT loads);
    ``matmul`` defaults to MatmulOptions() (both units on)."""
    return _lower(ttgir, arch, "emulator", source_name, num_stages, matmul)[1]


def lower_to_llir(ttgir: str, arch: MusaArch, *, opt_level: int = 3, source_name: str = "kernel.ttgir",
                  libdevice: Optional[str] = None, num_stages: int = 1,
                  matmul: Optional[MatmulOptions] = None) -> LoweredKernel:
    """TTGIR -> LLVM IR for the MUSA GPU ``arch``; links ``libdevice`` (default: the SDK's, when installed);
    ``matmul`` defaults to MatmulOptions() (both units on)."""
    from .. import _musa_mlir
    module, lowered = _lower(ttgir, arch, "musa", source_name, num_stages, matmul)
    if libdevice is None:
        sdk_libdevice = libdevice_path(arch)
        libdevice = sdk_libdevice if os.path.exists(sdk_libdevice) else None
    # The compatibility rewrites are keyed by the SDK llc's LLVM major (14 when no SDK is found).
    from .toolchain import target_llvm_major
    timer = StepTimer(f"LLVM steps of {os.path.splitext(source_name)[0]}")
    with timer.step(f"LLVM IR export for {arch.name} (translation, O{opt_level}, LLVM-compatibility rewrites)"), \
            _library_errors():
        llir = _musa_mlir.translate_to_llvm_ir(module, opt_level=opt_level, libdevice=libdevice,
                                               llvm14_compatible=target_llvm_major() < LLVM_MAJOR_WITHOUT_REWRITES)
    timer.report()
    return LoweredKernel(pipeline=lowered.pipeline, llvm_dialect=lowered.llvm_dialect,
                         shared_bytes=lowered.shared_bytes, tme_descriptor_args=lowered.tme_descriptor_args,
                         total_num_warps=lowered.total_num_warps, llir=llir,
                         shared_memory_from_zero=SHARED_MEMORY_FROM_ZERO_ATTR in module.operation.attributes)


def lower_for_proxy(ttgir: str, arch: MusaArch, *, sm: str, ptx_version: int, libdevice: Optional[str],
                    opt_level: int = 3, source_name: str = "kernel.ttgir", num_stages: int = 1,
                    matmul: Optional[MatmulOptions] = None) -> LoweredKernel:
    """TTGIR for ``arch`` -> LLVM IR for the GPU proxy (nvptx64-nvidia-cuda, ``sm``), with ``__mt_*`` calls
    mapped onto ``libdevice`` (libdevice.10.bc). Replay: ``musa-opt`` with the pipeline of target "proxy",
    then ``musa-translate --proxy-to-nvptx-llvmir``."""
    from .. import _musa_mlir
    module, lowered = _lower(ttgir, arch, "proxy", source_name, num_stages, matmul)
    with _library_errors():
        llir = _musa_mlir.translate_to_nvptx_llvm_ir(module, sm=sm, ptx_version=ptx_version, opt_level=opt_level,
                                                     libdevice=libdevice)
    from .proxy_tensor_maps import tensor_map_meta
    return LoweredKernel(pipeline=lowered.pipeline, llvm_dialect=lowered.llvm_dialect,
                         shared_bytes=lowered.shared_bytes, total_num_warps=lowered.total_num_warps, llir=llir,
                         tensor_maps=tensor_map_meta(module, lowered.tme_descriptor_args))
