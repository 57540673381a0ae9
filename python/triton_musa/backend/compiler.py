"""The MUSA compiler backend: options and stages.

Stages, each consuming its predecessor's output: ``ttir`` and ``ttgir``
(Triton, in process), then our lowering of the TTGIR (lowering.py). Where the
CPU emulator is the active driver that is ``emuir`` (the LLVM-dialect module
lowered for the emulator target, which the emulator JIT-compiles); otherwise
``llir`` (LLVM IR for mtgpu-mt-musa, on any machine), followed by ``mubin``
where the MUSA SDK toolchain is found. ``compile_to_ttgir`` stops after TTGIR,
for tools that only need Triton's IR.

Triton finds the backend by scanning this module for the one concrete
``BaseBackend`` subclass, so no other such class may be visible here.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass, field, fields
from types import ModuleType
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from triton import knobs
from triton._C.libtriton import ir, passes
from triton.backends.compiler import BaseBackend, GPUTarget, Language

from . import emulator
from .cache_key import backend_key
from .environment import llvm_opt_disabled
from .errors import user_errors
from .lowering import MatmulOptions, check_num_stages, lower_for_emulator, record_launch_warps
from .proxy import proxy_target
from .target import DEFAULT_ARCH, MusaArch, parse_arch
from .toolchain import libdevice_path

# fp8 storage and conversion types on every arch: the conversions are integer code (no fp8
# hardware needed) and the FMA dot upcasts fp8 operands; fp8e4b15, which Triton keeps as i8,
# converts through convert_custom_types (language/fp8e4b15.py) and enters dots as fp16. The
# table's has_fp8 is about fp8 matrix units (mp_31), which the matrix-path selection reads.
_FP8_DTYPES = ("fp8e4nv", "fp8e5", "fp8e4b15")
# The FMA path computes every fp32 dot in fp32, so tf32x3/bf16x3/bf16x6 are honoured by
# being more precise than asked (Triton's F32DotTC split would only multiply the work). A
# matrix path that runs fp32 dots on tf32/bf16 units must split them first.
_DOT_PRECISIONS = ("ieee", "tf32", "tf32x3", "bf16x3", "bf16x6")


def _is_power_of_two(n: int) -> bool:
    return n > 0 and (n & (n - 1)) == 0


def _normalize_extern_libs(libs: Any) -> Tuple[Tuple[str, str], ...]:
    """Accept a dict or (name, path) pairs; options stay hashable as a sorted tuple."""
    if libs is None:
        return ()
    items = libs.items() if isinstance(libs, dict) else libs
    return tuple(sorted((str(name), str(path)) for name, path in items))


@dataclass(frozen=True)
class MusaOptions:
    """Compilation options; every field is part of the cache key (see ``hash``).

    The names are those Triton's code generator, JIT and cache read from an
    options object (num_warps, supported_fp8_dtypes, allowed_dot_input_precisions, ...).
    """

    arch: str = DEFAULT_ARCH
    warp_size: int = 32
    num_warps: int = 4
    num_ctas: int = 1
    num_stages: int = 3
    debug: bool = False
    enable_fp_fusion: bool = True
    sanitize_overflow: bool = True
    # Read by triton.runtime.jit when it builds launch hooks; MUSA has no such launches yet.
    launch_cooperative_grid: bool = False
    launch_pdl: bool = False
    supported_fp8_dtypes: Tuple[str, ...] = ()
    deprecated_fp8_dot_operand_dtypes: Tuple[str, ...] = ()
    # No hardware TF32 path is selected before the MUSA matrix passes exist, so IEEE by default.
    default_dot_input_precision: str = "ieee"
    allowed_dot_input_precisions: Tuple[str, ...] = _DOT_PRECISIONS
    max_num_imprecise_acc_default: int = 0
    extern_libs: Optional[Tuple[Tuple[str, str], ...]] = None
    ir_override: Optional[str] = None
    instrumentation_mode: str = ""
    backend_name: str = "musa"
    # The matrix-path switches of --musa-accelerate-matmul, options so that the hash covers them; the
    # defaults come from ENABLE_MUSA_MMA and MUSA_ENABLE_SQMMA when the options are built.
    enable_mma: bool = field(default_factory=lambda: MatmulOptions.from_env().enable_mma)
    enable_sqmma: bool = field(default_factory=lambda: MatmulOptions.from_env().enable_sqmma)
    # AMD's tuning options, which code written for ROCm passes off CUDA (tutorial 03's non-CUDA configs):
    # accepted, with no MUSA meaning. The matrix instruction comes from the catalogue (MFMA's non-K
    # dimension names none of MUSA's), occupancy from the shared memory a kernel takes, and operand
    # packing from the instruction; a misspelt option still gets Triton's error.
    matrix_instr_nonkdim: int = 0
    waves_per_eu: int = 0
    kpack: int = 1
    # DISABLE_LLVM_OPT (Moore Threads' Triton switch): the LLVM IR for the GPU (and the proxy) is not
    # optimised; an option so that the hash covers it.
    disable_llvm_opt: bool = field(default_factory=llvm_opt_disabled)

    def __post_init__(self) -> None:
        arch = parse_arch(self.arch)
        object.__setattr__(self, "arch", arch.name)
        if self.warp_size != arch.warp_size:
            raise ValueError(f"warp_size={self.warp_size} does not match {arch.name} ({arch.codename}), "
                             f"whose warps have {arch.warp_size} threads; pass warp_size={arch.warp_size} "
                             f"or GPUTarget('musa', '{arch.name}', {arch.warp_size})")
        if not isinstance(self.num_warps, int) or not _is_power_of_two(self.num_warps):
            raise ValueError(f"num_warps must be a positive power of two, got {self.num_warps!r}")
        if self.num_ctas != 1:
            raise ValueError(f"num_ctas={self.num_ctas} is not supported on MUSA: "
                             "thread-block clusters are not used, pass num_ctas=1")
        for knob in ("matrix_instr_nonkdim", "waves_per_eu", "kpack"):
            value = getattr(self, knob)
            if not isinstance(value, int) or value < 0:
                raise ValueError(f"{knob} (an AMD tuning option, accepted and ignored on MUSA) must be a "
                                 f"non-negative integer, got {value!r}")
        check_num_stages(self.num_stages)
        unsupported_fp8 = set(self.supported_fp8_dtypes) - set(supported_fp8_dtypes(arch))
        if unsupported_fp8:
            raise ValueError(f"{arch.name} does not support fp8 types {sorted(unsupported_fp8)}; "
                             f"supported: {list(supported_fp8_dtypes(arch)) or 'none'}")
        object.__setattr__(self, "supported_fp8_dtypes", tuple(self.supported_fp8_dtypes))
        bad_precisions = set(self.allowed_dot_input_precisions) - set(_DOT_PRECISIONS)
        if bad_precisions:
            raise ValueError(f"dot input precisions {sorted(bad_precisions)} are not supported on MUSA; "
                             f"choose among {list(_DOT_PRECISIONS)}")
        object.__setattr__(self, "allowed_dot_input_precisions", tuple(self.allowed_dot_input_precisions))
        if self.default_dot_input_precision not in self.allowed_dot_input_precisions:
            raise ValueError(f"default_dot_input_precision={self.default_dot_input_precision!r} "
                             f"is not one of {list(self.allowed_dot_input_precisions)}")
        libs = dict(_normalize_extern_libs(self.extern_libs))
        libs.setdefault("libdevice", libdevice_path(arch))
        object.__setattr__(self, "extern_libs", _normalize_extern_libs(libs))

    @property
    def musa_arch(self) -> MusaArch:
        return parse_arch(self.arch)

    @property
    def llvm_opt_level(self) -> int:
        """The LLVM optimisation level of the kernel's LLVM IR export: 3, or 0 with disable_llvm_opt."""
        return 0 if self.disable_llvm_opt else 3

    @property
    def matmul(self) -> MatmulOptions:
        return MatmulOptions(enable_mma=self.enable_mma, enable_sqmma=self.enable_sqmma)

    def hash(self) -> str:
        # Library paths, not contents: the SDK may be absent while only IR is produced.
        key = "_".join(f"{f.name}-{getattr(self, f.name)}" for f in sorted(fields(self), key=lambda f: f.name))
        return hashlib.sha256(key.encode("utf-8")).hexdigest()


def supported_fp8_dtypes(arch: MusaArch) -> Tuple[str, ...]:
    return _FP8_DTYPES


def min_dot_size(lhs_type: Any, rhs_type: Any) -> Tuple[int, int, int]:
    """Smallest (M, N, K) accepted by ``tl.dot``.

    Permissive on purpose: dots that no matrix unit can take fall back to FMA in
    our lowering, so only a 16-element K is required (what every Triton frontend
    check and the 8/16-bit MMA atoms assume), never a minimum M or N."""
    return (1, 1, 16)


class MusaBackend(BaseBackend):
    """Compiles Triton kernels for ``GPUTarget("musa", <arch>, warp_size)``, an architecture of the table (target.py)."""

    @staticmethod
    def supports_target(target: GPUTarget) -> bool:
        return target.backend == "musa"

    def __init__(self, target: GPUTarget) -> None:
        super().__init__(target)
        # GPUTarget("musa", "proxy_sm90", 32): the GPU proxy compiles the code of its MUSA arch for
        # an NVIDIA GPU (proxy.py); everything above the target interface is that arch's.
        self.proxy = proxy_target(target.arch)
        self.arch = parse_arch(self.proxy.musa_arch if self.proxy else target.arch)
        # Triton's AOT tool builds GPUTarget("musa", "mp_31", "32") from "--target musa:mp_31:32".
        if int(target.warp_size) != self.arch.warp_size:
            raise ValueError(f"GPUTarget warp_size={target.warp_size} does not match {self.arch.name}, "
                             f"whose warps have {self.arch.warp_size} threads")
        # CompiledKernel reads the last stage as the "binary" (bytes).
        self.binary_ext = "cubin" if self.proxy else binary_stage()

    @functools.lru_cache()
    def hash(self) -> str:
        proxy = f"{self.proxy.name}-" if self.proxy else ""
        return f"triton-musa-{proxy}{self.arch.name}-{self.arch.warp_size}-{self.binary_ext}-{backend_key()}"

    def parse_options(self, opts: Dict[str, Any]) -> MusaOptions:
        arch = self.arch
        given_arch = opts.get("arch")
        if given_arch is not None and parse_arch(given_arch) != arch:
            raise ValueError(f"option arch={given_arch!r} contradicts the target architecture {arch.name}")
        args: Dict[str, Any] = {k: opts[k] for k in MusaOptions.__dataclass_fields__ if opts.get(k) is not None}
        args["arch"] = arch.name
        args.setdefault("warp_size", int(self.target.warp_size))
        args.setdefault("supported_fp8_dtypes", supported_fp8_dtypes(arch))
        # Honour TRITON_DEFAULT_FP_FUSION like the in-tree backends do.
        args.setdefault("enable_fp_fusion", knobs.language.default_fp_fusion)
        return MusaOptions(**args)

    def pack_metadata(self, metadata: Any) -> Tuple[int, int, int]:
        return (metadata.num_warps, metadata.num_ctas, metadata.shared)

    def get_codegen_implementation(self, options: MusaOptions) -> Dict[str, Callable[..., Any]]:
        # convert_custom_types: every cast from or to fp8e4b15 (Triton has no IR type for it).
        from ..language.fp8e4b15 import convert_fp8e4b15
        return {"min_dot_size": min_dot_size, "convert_custom_types": convert_fp8e4b15}

    def get_module_map(self) -> Dict[str, ModuleType]:
        from ..language import libdevice
        return {"triton.language.extra.libdevice": libdevice}

    def load_dialects(self, ctx: Any) -> None:
        # MUSA dialects live in our own MLIR library, never in Triton's context.
        pass

    def add_stages(self, stages: Dict[str, Callable[[Any, Dict[str, Any]], Any]], options: MusaOptions,
                   language: Language = Language.TRITON) -> None:
        if language != Language.TRITON:
            raise NotImplementedError("Gluon kernels are not supported by the MUSA backend yet")
        stages["ttir"] = lambda src, metadata: self.make_ttir(src, metadata, options)
        stages["ttgir"] = lambda src, metadata: self.make_ttgir(src, metadata, options)
        if self.proxy:
            from . import proxy
            target = self.proxy
            stages["llir"] = lambda src, metadata: proxy.make_llir(src, metadata, target, options)
            stages["ptx"] = lambda src, metadata: proxy.make_ptx(src, metadata, target, options)
            stages["cubin"] = lambda src, metadata: proxy.make_cubin(src, metadata, target, options)
            return
        # Each stage consumes its predecessor's output: ttgir -> emuir on the CPU emulator,
        # ttgir -> llir (-> mubin with the SDK) for a MUSA GPU. The same MUSA TTGIR passes
        # run in both; only the conversion's target differs (lowering.lowering_pipeline).
        binary = binary_stage()
        if binary == "emuir":
            stages["emuir"] = lambda src, metadata: self.make_emuir(src, metadata, options)
            return
        stages["llir"] = lambda src, metadata: self.make_llir(src, metadata, options)
        if binary == "mubin":
            stages["mubin"] = lambda src, metadata: self.make_mubin(src, metadata, options)

    @staticmethod
    def make_ttir(mod: Any, metadata: Dict[str, Any], opt: MusaOptions) -> Any:
        """The stock TTIR cleanup, as Triton's NVIDIA backend runs it.

        Tensor descriptors are kept as they are (no rewrite to pointers): the MUSA
        stages lower them to TME."""
        pm = ir.pass_manager(mod.context)
        pm.enable_debug()
        passes.common.add_inliner(pm)
        passes.ttir.add_rewrite_tensor_pointer(pm)
        passes.common.add_canonicalizer(pm)
        passes.ttir.add_combine(pm)
        passes.ttir.add_reorder_broadcast(pm)
        passes.common.add_cse(pm)
        passes.common.add_symbol_dce(pm)
        passes.ttir.add_loop_unroll(pm)
        pm.run(mod, "make_ttir")
        return mod

    @staticmethod
    def make_ttgir(mod: Any, metadata: Dict[str, Any], opt: MusaOptions) -> Any:
        """TTIR -> TTGIR with Triton's target-independent layout passes, and no pipelining.

        Never add passes.ttgpuir.add_accelerate_matmul (asserts on non-"cuda:" targets
        and aborts the process) nor any nvidia./amd. pass, nor Triton's pipeliner
        (assign_latencies / schedule_loops / pipeline): matrix units, software pipelining
        and TME are chosen by the MUSA stages that follow (lowering.matrix_passes), in that
        order, so the pipeline is planned for the matrix unit that reads it. ``num_stages``
        reaches only --musa-pipeline-loops (Passes.td says what it means)."""
        pm = ir.pass_manager(mod.context)
        pm.enable_debug()
        passes.ttir.add_convert_to_ttgpuir(pm, f"musa:{opt.arch}", opt.num_warps, opt.warp_size, opt.num_ctas)
        passes.ttgpuir.add_coalesce(pm)
        passes.ttgpuir.add_remove_layout_conversions(pm)
        passes.ttgpuir.add_optimize_thread_locality(pm)
        passes.ttgpuir.add_remove_layout_conversions(pm)
        passes.ttir.add_loop_aware_cse(pm)
        # Loop nests marked `tl.range(..., flatten=True)` become one loop, as Triton's NVIDIA
        # stages (sm80/sm90) do before pipelining: target-independent, on scf and arith only.
        passes.ttgpuir.add_fuse_nested_loops(pm)
        passes.common.add_canonicalizer(pm)
        passes.ttir.add_triton_licm(pm)
        passes.common.add_canonicalizer(pm)
        # Without accelerate_matmul the dots keep blocked (FMA) operand layouts. This pass is
        # target-independent; it folds transposed operands into ttg.local_alloc +
        # ttg.memdesc_trans (and reduce_data_duplication below routes the other dot operands
        # through local_alloc/local_load), so MUSA matrix passes see shared-memory operands.
        passes.ttgpuir.add_optimize_dot_operands(pm, False)
        passes.ttgpuir.add_remove_layout_conversions(pm)
        passes.ttgpuir.add_reduce_data_duplication(pm)
        passes.ttgpuir.add_reorder_instructions(pm)
        passes.ttir.add_loop_aware_cse(pm)
        passes.common.add_symbol_dce(pm)
        passes.common.add_sccp(pm)
        passes.common.add_cse(pm)
        passes.common.add_canonicalizer(pm)
        pm.run(mod, "make_ttgir")

        # What CompiledKernel and launchers read; shared memory is allocated by later MUSA stages.
        metadata["name"] = mod.get_entry_func_name()
        metadata["shared"] = 0
        # Not mod.get_tensordesc_metadata(): it dereferences the NVIDIA shared encoding
        # that only nvidia passes attach to descriptors and segfaults on a musa module.
        # The GPU's llir stage fills it in (the TME stage decides which descriptors the
        # host encodes); the emulator takes every descriptor as base, shape and strides.
        metadata["tensordesc_meta"] = None
        metadata["global_scratch_size"] = 0
        metadata["global_scratch_align"] = 1
        metadata["profile_scratch_size"] = 0
        metadata["profile_scratch_align"] = 1
        return mod

    @staticmethod
    def make_llir(ttgir: Any, metadata: Dict[str, Any], opt: MusaOptions) -> str:
        """TTGIR -> LLVM IR for mtgpu-mt-musa (lowering.lower_to_llir); raises MusaCompileError
        naming an op the lowering does not support yet, OutOfResources past the shared memory."""
        from .lowering import lower_to_llir
        name = metadata.get("name", "kernel")
        with user_errors(name, opt.arch):
            lowered = lower_to_llir(str(ttgir), opt.musa_arch, opt_level=opt.llvm_opt_level,
                                    source_name=f"{name}.ttgir", num_stages=opt.num_stages, matmul=opt.matmul)
        metadata["shared"] = lowered.shared_bytes
        metadata["tensordesc_meta"] = tensordesc_meta(lowered.tme_descriptor_args)
        metadata["shared_memory_from_zero"] = lowered.shared_memory_from_zero
        record_launch_warps(metadata, lowered)
        return lowered.llir

    @staticmethod
    def make_emuir(ttgir: Any, metadata: Dict[str, Any], opt: MusaOptions) -> str:
        """TTGIR -> LLVM dialect for the CPU emulator target (what the emulator loads)."""
        name = metadata.get("name", "kernel")
        with user_errors(name, opt.arch):
            lowered = lower_for_emulator(str(ttgir), opt.musa_arch, source_name=f"{name}.ttgir",
                                         num_stages=opt.num_stages, matmul=opt.matmul)
        metadata["shared"] = lowered.shared_bytes
        record_launch_warps(metadata, lowered)
        return lowered.llvm_dialect

    @staticmethod
    def make_mubin(llir: str, metadata: Dict[str, Any], opt: MusaOptions) -> bytes:
        """LLVM IR -> mubin with the MUSA SDK's llc and ld.lld."""
        from .instrumentation import StepTimer
        from .toolchain import find_toolchain
        name = metadata.get("name", "kernel")
        timer = StepTimer(f"LLVM steps of {name}")
        with timer.step(f"MUSA SDK llc -mcpu={opt.arch} + ld.lld"):
            mubin = find_toolchain().compile_mubin(
                llir, opt.musa_arch, name, shared_memory_from_zero=metadata.get("shared_memory_from_zero", False))
        timer.report()
        return mubin


def tensordesc_meta(tme_flags: Sequence[int]) -> Optional[List[Optional[Dict[str, Any]]]]:
    """The launcher's ``tensordesc_meta`` from --musa-lower-descriptors-to-tme's per-descriptor-argument
    flags (in argument order): a dict where the host encodes a 64-byte MUtensorDescriptor, None where it
    passes the tensor's base address. None when no flags were recorded (no descriptor, or the emulator)."""
    if not tme_flags:
        return None
    return [{"encoding": "MUtensorDescriptor"} if flag else None for flag in tme_flags]


def binary_stage() -> str:
    """The last stage: ``emuir`` where the CPU emulator is the active driver, else ``mubin``
    where the SDK toolchain is found, else ``llir``. Part of the backend hash, so a cached
    kernel always has the stage its binary_ext names."""
    if emulator.emulator_active():
        return "emuir"
    from .toolchain import MusaToolchainNotFound, find_toolchain
    try:
        find_toolchain()
    except MusaToolchainNotFound:
        return "llir"
    return "mubin"


def compile_to_ttgir(src: Any, target: GPUTarget, options: Optional[Dict[str, Any]] = None) -> Dict[str, str]:
    """Runs only Triton's stages (``ttir``, ``ttgir``) on an ``ASTSource``, without the cache,
    and returns their printed IR. For kernels whose later stages are not supported yet."""
    from triton.compiler.compiler import make_backend
    backend = make_backend(target)
    opts = backend.parse_options(dict(options or {}, **src.parse_options()))
    context = ir.context()
    ir.load_dialects(context)
    backend.load_dialects(context)
    module = src.make_ir(target, opts, backend.get_codegen_implementation(opts), backend.get_module_map(), context)
    metadata: Dict[str, Any] = {}
    out: Dict[str, str] = {}
    module = backend.make_ttir(module, metadata, opts)
    out["ttir"] = str(module)
    module = backend.make_ttgir(module, metadata, opts)
    out["ttgir"] = str(module)
    return out
