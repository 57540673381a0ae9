"""Triton 3.6's own tutorial kernels as GPU-proxy cases (``proxy_gpu.py --client tutorials``).

The kernels are the tutorials' own and never live in this repository: ``build`` copies the tutorial scripts
from $TRITON_TUTORIALS_DIR (default ``<repo>/../shared/triton-3.6-tutorials``) into the bundle
(``tutorials_src/``), and both ``build`` and ``run`` load the kernels from that copy, so the GPU machine
compiles the same files.

A tutorial is a script: importing it would run its unit test and benchmark on the active device. So it is
sliced instead (``load``): of its top-level statements, only those the wanted kernels depend on run (their
``def``s with the ``triton.autotune``/``triton.jit`` decorators, the helpers and config lists those
decorators evaluate, the JIT functions the kernels call, the imports), found from the names each statement
binds and reads (``symtable``). They run in a fresh module compiled from the copy's path with its line
numbers, so ``triton.jit`` reads each kernel's source from the copy. While they run, the tutorials' device
questions (``driver.active.get_current_target()``, ``torch.cuda.get_device_capability()``) are answered for
Hopper, the GPU both compiles stand for (proxy_sm90 and Triton's cuda:90): the build machine and the GPU
machine then see the same config lists, and the CUDA ones.

Cases: each config of a kernel's own autotune list, after the tutorial's own pruning (06's ``keep`` and the
``early_config_prune`` functions, pure functions of the config and the launch's arguments), compiled from the
plain ``triton.jit`` function under the Autotuner with the config's meta-parameters, warps and stages. The
arguments are those the tutorial's launch wrapper passes (its strides, its descriptors, its constexprs),
made on the meta device for the build's signature and on the GPU for the run; host descriptors get their
block shapes from the config's own ``pre_hook``, as the autotuner sets them.

* 03 ``matmul_kernel``, activation "": fp16, and fp8 e5m2 with B pre-transposed as the tutorial's fp8 test
  passes it; M = N = K = 4096. Checked against the fp32 product of the same values; torch times
  ``torch.matmul`` in fp16 (for fp8 too: torch.matmul takes no fp8, and cuBLAS no e5m2 x e5m2).
* 06 ``_attn_fwd``: host descriptors (the tutorial's Hopper path without warp specialization), causal and
  not, head dim 64 and 128, fp16, batch 4, 32 heads, 4096 tokens (its benchmark's sizes), sm_scale 0.5 and
  inputs of standard deviation 0.5 (its test's). Checked against fp32 scaled_dot_product_attention to the
  test's tolerance; torch times fp16 SDPA.
* 09 ``matmul_kernel_persistent`` (pointers), ``matmul_kernel_tma_persistent`` (host descriptors) and
  ``matmul_kernel_descriptor_persistent`` (device descriptors), fp16 at 4096^3 without warp specialization,
  NUM_SMS 132 (H100 SXM and H200); ``matmul_kernel_tma`` (one program per tile, host descriptors) without
  (``t09_tma``) and with (``t09_tma_ws``) warp specialization of its K loop.

A case is named ``<group>_<config>``: the group names the tutorial, kernel and problem, the config its tile
(the BLOCK_* values), the other meta-parameters that vary within the list, warps and stages; ``proxy_gpu.py``
takes shell patterns (``'t06_*_causal_*'``). Configs mp_31 cannot hold (past its 192 KiB of shared memory)
and configs the kernel's own static_assert rejects are refused at build (proxy_gpu.py) and timed for Triton
where it takes them; ``summary`` adds the autotuner's view: the best config of each group for ours and for
Triton, and Triton's best among the configs ours built.
"""

from __future__ import annotations

import ast
import contextlib
import os
import shutil
import symtable
import sys
import types
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Set, Tuple

from proxy_kernels import Case, Setup, _close, _gen

REPO = Path(__file__).resolve().parents[1]
DIR_ENV = "TRITON_TUTORIALS_DIR"
DEFAULT_DIR = REPO.parent / "shared" / "triton-3.6-tutorials"
SRC_DIR = "tutorials_src"  # the copied tutorials, inside the bundle
FILES = {"03": "03-matrix-multiplication.py", "06": "06-fused-attention.py", "09": "09-persistent-matmul.py"}
# What the cases take from each tutorial: the kernels they launch and the helpers their wrappers call.
USES = {"03": ("matmul_kernel", ), "06": ("_attn_fwd", "is_hopper", "TensorDescriptor"),
        "09": ("matmul_kernel_persistent", "matmul_kernel_tma", "matmul_kernel_tma_persistent",
               "matmul_kernel_descriptor_persistent", "TensorDescriptor")}
HOPPER_CAPABILITY = (9, 0)  # proxy_sm90 runs on sm_90a; the run's reference is cuda:90


@dataclass(frozen=True)
class Sizes:
    matmul: int = 4096  # M = N = K
    batch: int = 4  # 06's benchmark: BATCH, N_HEADS = 4, 32 and N_CTX from 1024 to 16384
    heads: int = 32
    n_ctx: int = 4096
    head_dims: Tuple[int, ...] = (64, 128)
    sm_scale: float = 0.5  # 06's test
    sms: int = 132  # NUM_SMS of 09's persistent kernels


# ---------------------------------------------------------------------------------------------- sources

def tutorials_dir() -> Path:
    return Path(os.environ.get(DIR_ENV) or DEFAULT_DIR)


def prepare_bundle(out: Path, src: Optional[Path] = None) -> None:
    """Copies the tutorials the cases use (and their LICENSE) into the bundle."""
    src = src or tutorials_dir()
    missing = [name for name in FILES.values() if not (src / name).is_file()]
    if missing:
        raise FileNotFoundError(f"{src} lacks {', '.join(missing)}: point ${DIR_ENV} at Triton 3.6's "
                                "python/tutorials")
    dest = out / SRC_DIR
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    for name in (*FILES.values(), "LICENSE"):
        if (src / name).is_file():
            shutil.copy2(src / name, dest / name)


# ---------------------------------------------------------------------------------------------- loading

# Methods whose call on a module-level name changes it in place: a list built by appends (as the tutorials'
# benchmark lists are) is bound by its appends too.
_MUTATORS = frozenset({"append", "extend", "insert", "update", "setdefault", "pop", "remove", "clear", "sort"})


@dataclass(frozen=True)
class _Names:
    """What one top-level statement does to the module's namespace."""

    binds: Set[str]  # names it binds or changes in place
    kills: bool  # whether it rebinds them whatever they were before
    now: Set[str]  # names it reads while it runs (decorators and defaults of a def included)
    later: Set[str]  # names the functions it defines read when they are called


def _globals_read(table: symtable.SymbolTable) -> Set[str]:
    """The global names read in a scope and in the scopes nested in it."""
    names = {s.get_name() for s in table.get_symbols() if s.is_global() and s.is_referenced()}
    for child in table.get_children():
        names |= _globals_read(child)
    return names


def _mutated(stmt: ast.stmt) -> Set[str]:
    """Names a statement changes without rebinding them: ``x.append(...)``, ``x[k] = v``, ``x.a = v``."""
    names: Set[str] = set()
    for node in ast.walk(stmt):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _MUTATORS:
            root: ast.expr = node.func.value
        elif isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.ctx, ast.Store):
            root = node.value
        else:
            continue
        while isinstance(root, (ast.Subscript, ast.Attribute)):
            root = root.value
        if isinstance(root, ast.Name):
            names.add(root.id)
    return names


def _names(stmt: ast.stmt) -> _Names:
    """What ``stmt`` binds and reads, from the symbol table of the statement alone."""
    table = symtable.symtable(ast.unparse(stmt), "<tutorial>", "exec")
    top = table.get_symbols()
    binds = {s.get_name() for s in top if s.is_assigned() or s.is_imported()}
    now = {s.get_name() for s in top if s.is_referenced()}
    later: Set[str] = set()
    is_def = isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))
    for child in table.get_children():
        # A def's body runs when it is called. Anything else nested (comprehensions, lambdas, class bodies)
        # counts as running now: the safe side, it keeps earlier bindings alive.
        (later if is_def and child.get_name() == stmt.name else now).update(_globals_read(child))
    if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        binds |= _mutated(stmt)
    kills = isinstance(stmt, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) or (
        isinstance(stmt, ast.Assign) and all(isinstance(t, ast.Name) for t in stmt.targets))
    return _Names(binds, kills, now, later)


def slice_module(body: Sequence[ast.stmt], wanted: Set[str]) -> List[ast.stmt]:
    """The top-level statements that the names in ``wanted`` depend on, in their order. A backward pass keeps
    each statement that binds a name needed at that point and then needs what it reads; a kept function reads
    its globals when it is called, after the module has run, so those join ``wanted`` and the pass repeats
    until nothing more is needed. Statements nothing needs (tests, benchmarks, prints) are left out."""
    names = [_names(stmt) for stmt in body]
    late = set(wanted)
    while True:
        needed = set(late)
        kept: List[int] = []
        for i in reversed(range(len(body))):
            n = names[i]
            if not n.binds & needed:
                continue
            kept.append(i)
            if n.kills:
                needed -= n.binds
            needed |= n.now
        grown = late.union(*(names[i].later for i in kept))
        if grown == late:
            return [body[i] for i in reversed(kept)]
        late = grown


class _HopperDriver:
    """What the tutorials ask of ``triton.runtime.driver.active`` while their definitions run."""

    def get_current_target(self) -> Any:
        from triton.backends.compiler import GPUTarget
        major, minor = HOPPER_CAPABILITY
        return GPUTarget("cuda", major * 10 + minor, 32)

    def get_active_torch_device(self) -> Any:
        import torch
        return torch.device("cuda")


@contextlib.contextmanager
def as_hopper() -> Iterator[None]:
    """The tutorials' device questions answered for Hopper, on any machine, for the time of the block."""
    import torch
    from triton.runtime import driver
    # DriverConfig creates its driver on first use: its private slot is read so as not to create one here
    # (None is restored as None).
    previous, capability = driver._active, torch.cuda.get_device_capability
    driver.set_active(_HopperDriver())
    torch.cuda.get_device_capability = lambda device=None: HOPPER_CAPABILITY
    try:
        yield
    finally:
        driver.set_active(previous)
        torch.cuda.get_device_capability = capability


def load(path: Path, names: Sequence[str]) -> types.ModuleType:
    """The tutorial at ``path`` as a module holding ``names`` and what they depend on (see slice_module),
    defined as Hopper would see them (as_hopper)."""
    tree = ast.parse(path.read_text(), str(path))
    body = slice_module(tree.body, set(names))
    name = "triton_tutorial_" + path.stem.replace("-", "_")
    module = types.ModuleType(name)
    module.__file__ = str(path)
    sys.modules[name] = module  # what triton.jit and inspect find from the functions' __module__
    code = compile(ast.Module(body=body, type_ignores=[]), str(path), "exec")
    with as_hopper():
        exec(code, module.__dict__)
    missing = [n for n in names if not hasattr(module, n)]
    if missing:
        raise AttributeError(f"{path} defines no {', '.join(missing)}")
    return module


def load_bundle(bundle: Path) -> Dict[str, types.ModuleType]:
    root = (bundle / SRC_DIR).resolve()
    missing = [name for name in FILES.values() if not (root / name).is_file()]
    if missing:
        raise FileNotFoundError(f"{root} lacks {', '.join(missing)}: build the bundle with --client tutorials")
    return {key: load(root / name, USES[key]) for key, name in FILES.items()}


# ---------------------------------------------------------------------------------------------- cases

@dataclass(frozen=True)
class Problem:
    """One launch of a tutorial kernel as the tutorial's wrapper makes it; a case per config of its list."""

    group: str  # the cases' name prefix and the summary's row
    kernel: Any  # the tutorial's kernel object: an Autotuner over the triton.jit function
    args: Callable[[Any], Dict[str, Any]]  # device -> the wrapper's arguments by parameter name, tensors empty
    grid: Callable[[Dict[str, Any]], Tuple[int, ...]]  # from the arguments and the config's meta-parameters
    inputs: Tuple[str, ...]  # arguments filled with random values (of a descriptor, its tensor)
    output: str
    reference: Callable[[Dict[str, Any]], Any]  # the expected output, fp32, from the filled inputs
    torch_fn: Callable[[Dict[str, Any]], Callable[[], Any]]  # the same work in PyTorch, for timing
    flops: float
    rtol: float
    atol: float
    std: float = 1.0  # the inputs' standard deviation


@dataclass
class TutorialCase(Case):
    group: str = ""
    config: str = ""  # the config's part of the name


def _unwrap(kernel: Any) -> Tuple[Any, Any]:
    """(the Autotuner, the triton.jit function) under a tutorial's decorators."""
    from triton.runtime.autotuner import Autotuner, Heuristics
    tuner, fn = None, kernel
    while isinstance(fn, (Autotuner, Heuristics)):
        if isinstance(fn, Autotuner) and tuner is None:
            tuner = fn
        fn = fn.fn
    if tuner is None:
        raise TypeError(f"{fn} is not autotuned: it has no config list")
    return tuner, fn


def _tensor(arg: Any) -> Any:
    """A TensorDescriptor's tensor, or the tensor itself."""
    from triton.tools.tensor_descriptor import TensorDescriptor
    return arg.base if isinstance(arg, TensorDescriptor) else arg


def _launch_args(problem: Problem, config: Any, device: Any) -> Dict[str, Any]:
    """The kernel's arguments under ``config``: the autotuner's merge of its meta-parameters into the launch's,
    then the config's pre_hook (the tutorials' hooks set their host descriptors' block shapes)."""
    args = problem.args(device)
    args.update(config.kwargs)
    if config.pre_hook is not None:
        config.pre_hook(args)
    return args


def _configs(problem: Problem) -> List[Any]:
    """The kernel's configs as its autotuner would try them for this launch (early_config_prune applied)."""
    tuner, _ = _unwrap(problem.kernel)
    configs = list(tuner.configs)
    if tuner.early_config_prune is not None:
        # The autotuner passes the positional arguments and the keyword ones; the tutorials' prune functions
        # read the constexprs their wrappers pass by keyword.
        args = problem.args("meta")
        configs = tuner.early_config_prune(configs, args, **args)
    return configs


def _labels(configs: Sequence[Any]) -> List[str]:
    """Per config: its tile (the BLOCK_* values), the other meta-parameters that vary within the list (a True
    flag by its name), warps and stages."""
    keys = [k for k in configs[0].kwargs if "BLOCK" not in k]
    varying = [k for k in keys if len({repr(c.kwargs.get(k)) for c in configs}) > 1]
    labels = []
    for c in configs:
        parts = ["x".join(str(v) for k, v in c.kwargs.items() if "BLOCK" in k)]
        for k in varying:
            value = c.kwargs.get(k)
            if isinstance(value, bool):
                parts += [k.lower()] if value else []
            else:
                parts.append(f"{k.lower()}{value}")
        labels.append("_".join(parts + [f"w{c.num_warps}", f"s{c.num_stages}"]))
    return labels


def _signature(fn: Any, args: Dict[str, Any]) -> Dict[str, str]:
    """Triton's JIT rule for these arguments: pointers and descriptors by element type (and block), ints by
    width, ints equal to 1 and None as constexprs."""
    from triton.runtime.jit import mangle_type
    return {p.name: "constexpr" if p.is_constexpr else mangle_type(args[p.name], specialize=True)
            for p in fn.params}


def _is_buffer(arg: Any) -> bool:
    import torch
    from triton.tools.tensor_descriptor import TensorDescriptor
    return isinstance(arg, (torch.Tensor, TensorDescriptor))


def _setup(problem: Problem, config: Any, device: Any, case: Case) -> Setup:
    import torch
    import triton
    args = _launch_args(problem, config, device)
    g = _gen(device)
    for name in problem.inputs:
        t = _tensor(args[name])
        t.copy_(torch.randn(t.shape, device=device, generator=g) * problem.std)
    expected = problem.reference(args)
    out = _tensor(args[problem.output])
    out.fill_(float("nan"))  # a tile the kernel leaves unwritten fails the check

    def check() -> Optional[str]:
        error = _close(out.float(), expected, problem.rtol, problem.atol)
        out.fill_(float("nan"))
        return error

    # Device-made descriptors take global scratch from Triton's allocator (06 and 09 set one in their wrappers).
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device=device))
    return Setup([args[n] for n in case.kernel.arg_names], tuple(problem.grid(args)), check, lambda: None,
                 problem.torch_fn(args))


def _cases_of(problem: Problem) -> List[TutorialCase]:
    _, fn = _unwrap(problem.kernel)
    configs = _configs(problem)
    cases = []
    for config, label in zip(configs, _labels(configs)):
        args = _launch_args(problem, config, "meta")
        values = {k: v for k, v in args.items() if not _is_buffer(v)}
        cases.append(TutorialCase(f"{problem.group}_{label}", fn, _signature(fn, args), values, config.num_warps,
                                  "TFLOP/s", problem.flops, partial(_setup, problem, config),
                                  num_stages=config.num_stages, group=problem.group, config=label))
    return cases


def _matmul_args(a: Any, b: Any, c: Any) -> Dict[str, Any]:
    """The pointer matmuls' arguments as the tutorials' wrappers pass them: C[M, N] = A[M, K] @ B[K, N]."""
    (m, k), n = a.shape, b.shape[1]
    return {"a_ptr": a, "b_ptr": b, "c_ptr": c, "M": m, "N": n, "K": k, "stride_am": a.stride(0),
            "stride_ak": a.stride(1), "stride_bk": b.stride(0), "stride_bn": b.stride(1), "stride_cm": c.stride(0),
            "stride_cn": c.stride(1)}


def _fp32_product(a: Any, b: Any) -> Any:
    import torch
    return torch.matmul(a.float(), b.float())


def _problems_03(module: types.ModuleType, s: Sizes) -> List[Problem]:
    """03's ``matmul(a, b)``: C in fp16, a 1-D grid of tiles."""
    import torch
    import triton
    n = s.matmul

    def args(device: Any, dtype: Any) -> Dict[str, Any]:
        a = torch.empty(n, n, dtype=dtype, device=device)
        b = torch.empty(n, n, dtype=dtype, device=device)
        if dtype != torch.float16:
            b = b.T  # the fp8 test and benchmark pre-transpose B: K-major, as fp8 matrix units read it
        return dict(_matmul_args(a, b, torch.empty(n, n, dtype=torch.float16, device=device)), ACTIVATION="")

    def grid(a: Dict[str, Any]) -> Tuple[int, ...]:
        return (triton.cdiv(a["M"], a["BLOCK_SIZE_M"]) * triton.cdiv(a["N"], a["BLOCK_SIZE_N"]), )

    def reference(a: Dict[str, Any]) -> Any:
        return _fp32_product(a["a_ptr"], a["b_ptr"])

    def torch_fp16(a: Dict[str, Any]) -> Callable[[], Any]:
        x, y = a["a_ptr"].half(), a["b_ptr"].half()
        return lambda: torch.matmul(x, y)

    return [
        Problem("t03_matmul_fp16", module.matmul_kernel, lambda dev: args(dev, torch.float16), grid,
                ("a_ptr", "b_ptr"), "c_ptr", reference, torch_fp16, 2.0 * n**3, 2e-2, 0.25),
        # Hopper's fp8 wgmma accumulates below fp32 precision: Triton's own compile misses the exact sums by
        # more than one at K = 4096 (proxy_kernels' matmul_fp8e4m3), hence atol 2.
        Problem("t03_matmul_fp8e5", module.matmul_kernel, lambda dev: args(dev, torch.float8_e5m2), grid,
                ("a_ptr", "b_ptr"), "c_ptr", reference, torch_fp16, 2.0 * n**3, 2e-2, 2.0),
    ]


def _problems_06(module: types.ModuleType, s: Sizes) -> List[Problem]:
    """06's ``_attention.forward`` on Hopper with warp_specialize=False: host descriptors over the
    (batch * heads * tokens, head_dim) views of q, k, v and o."""
    import torch
    import triton
    z, h, n = s.batch, s.heads, s.n_ctx
    is_hopper = module.is_hopper()  # answered under as_hopper, as the cases are built
    sdpa = torch.nn.functional.scaled_dot_product_attention

    def args(device: Any, head_dim: int, causal: bool) -> Dict[str, Any]:
        q, k, v, o = (torch.empty(z, h, n, head_dim, dtype=torch.float16, device=device) for _ in range(4))
        y_dim, dummy_block = z * h * n, [1, 1]

        def desc(t: Any) -> Any:
            return module.TensorDescriptor(t, shape=[y_dim, head_dim], strides=[head_dim, 1], block_shape=dummy_block)

        return {"sm_scale": s.sm_scale, "M": torch.empty(z, h, n, dtype=torch.float32, device=device), "Z": z,
                "H": h, "desc_q": desc(q), "desc_k": desc(k), "desc_v": desc(v), "desc_o": desc(o), "N_CTX": n,
                "HEAD_DIM": head_dim, "FP8_OUTPUT": False, "STAGE": 3 if causal else 1, "warp_specialize": False,
                "IS_HOPPER": is_hopper}

    def grid(a: Dict[str, Any]) -> Tuple[int, ...]:
        return (triton.cdiv(a["N_CTX"], a["BLOCK_M"]), a["Z"] * a["H"], 1)

    def reference(a: Dict[str, Any]) -> Any:
        q, k, v = (_tensor(a[x]).float() for x in ("desc_q", "desc_k", "desc_v"))
        return sdpa(q, k, v, is_causal=a["STAGE"] == 3, scale=a["sm_scale"])

    def torch_fn(a: Dict[str, Any]) -> Callable[[], Any]:
        q, k, v = (_tensor(a[x]) for x in ("desc_q", "desc_k", "desc_v"))
        return lambda: sdpa(q, k, v, is_causal=a["STAGE"] == 3, scale=a["sm_scale"])

    problems = []
    for head_dim in s.head_dims:
        for causal in (False, True):
            flops = 4.0 * z * h * n * n * head_dim * (0.5 if causal else 1.0)  # the benchmark's count
            problems.append(Problem(
                f"t06_attn_fwd_d{head_dim}" + ("_causal" if causal else ""), module._attn_fwd,
                lambda dev, d=head_dim, c=causal: args(dev, d, c), grid, ("desc_q", "desc_k", "desc_v"), "desc_o",
                reference, torch_fn, flops, 0.0, 1e-2, std=0.5))  # the test's inputs and tolerance
    return problems


def _problems_09(module: types.ModuleType, s: Sizes) -> List[Problem]:
    """09's ``matmul_persistent(a, b.T)``, ``matmul_tma_persistent(a, b)`` and
    ``matmul_descriptor_persistent(a, b)`` with B given as a contiguous (N, K), warp_specialize=False."""
    import torch
    import triton
    n, sms, f16 = s.matmul, s.sms, torch.float16

    def operands(device: Any) -> Tuple[Any, Any, Any]:
        return tuple(torch.empty(n, n, dtype=f16, device=device) for _ in range(3))  # A (M, K), B (N, K), C

    def pointers(device: Any) -> Dict[str, Any]:
        a, b, c = operands(device)
        return dict(_matmul_args(a, b.T, c), NUM_SMS=sms)

    def tma_args(device: Any, warp_specialize: bool) -> Dict[str, Any]:
        """The host descriptors (their block shapes the config's pre_hook sets) and sizes of 09's TMA kernels."""
        a, b, c = operands(device)
        dummy_block = [1, 1]
        return {"a_desc": module.TensorDescriptor.from_tensor(a, dummy_block),
                "b_desc": module.TensorDescriptor.from_tensor(b, dummy_block),
                "c_desc": module.TensorDescriptor.from_tensor(c, dummy_block), "M": n, "N": n, "K": n,
                "FP8_OUTPUT": False, "WARP_SPECIALIZE": warp_specialize}

    def tma(device: Any) -> Dict[str, Any]:
        return dict(tma_args(device, False), NUM_SMS=sms)

    def descriptors(device: Any) -> Dict[str, Any]:
        a, b, c = operands(device)
        # FLATTEN: the wrapper flattens unless it warp-specializes on Hopper.
        return {"a_ptr": a, "b_ptr": b, "c_ptr": c, "M": n, "N": n, "K": n, "NUM_SMS": sms,
                "WARP_SPECIALIZE": False, "FLATTEN": True}

    def tma_tiles(warp_specialize: bool) -> Callable[[Any], Dict[str, Any]]:
        """matmul_tma(a, b, warp_specialize): one program per tile."""
        return lambda device: tma_args(device, warp_specialize)

    def grid(a: Dict[str, Any]) -> Tuple[int, ...]:
        tiles = triton.cdiv(a["M"], a["BLOCK_SIZE_M"]) * triton.cdiv(a["N"], a["BLOCK_SIZE_N"])
        return (min(a["NUM_SMS"], tiles), )

    def tiles_grid(a: Dict[str, Any]) -> Tuple[int, ...]:
        return (triton.cdiv(a["M"], a["BLOCK_SIZE_M"]) * triton.cdiv(a["N"], a["BLOCK_SIZE_N"]), )

    def product(a_name: str, b_name: str, nk: bool) -> Tuple[Callable[..., Any], Callable[..., Any]]:
        """(reference, torch_fn) of A @ B, with B stored (N, K) when ``nk``."""
        def operands_of(a: Dict[str, Any]) -> Tuple[Any, Any]:
            b = _tensor(a[b_name])
            return _tensor(a[a_name]), b.T if nk else b

        def reference(a: Dict[str, Any]) -> Any:
            return _fp32_product(*operands_of(a))

        def torch_fn(a: Dict[str, Any]) -> Callable[[], Any]:
            x, y = operands_of(a)
            return lambda: torch.matmul(x, y)

        return reference, torch_fn

    flops = 2.0 * n**3
    return [
        Problem("t09_persistent_fp16", module.matmul_kernel_persistent, pointers, grid, ("a_ptr", "b_ptr"), "c_ptr",
                *product("a_ptr", "b_ptr", False), flops, 2e-2, 0.25),
        Problem("t09_tma_fp16", module.matmul_kernel_tma, tma_tiles(False), tiles_grid, ("a_desc", "b_desc"),
                "c_desc", *product("a_desc", "b_desc", True), flops, 2e-2, 0.25),
        Problem("t09_tma_ws_fp16", module.matmul_kernel_tma, tma_tiles(True), tiles_grid, ("a_desc", "b_desc"),
                "c_desc", *product("a_desc", "b_desc", True), flops, 2e-2, 0.25),
        Problem("t09_tma_persistent_fp16", module.matmul_kernel_tma_persistent, tma, grid, ("a_desc", "b_desc"),
                "c_desc", *product("a_desc", "b_desc", True), flops, 2e-2, 0.25),
        Problem("t09_descriptor_persistent_fp16", module.matmul_kernel_descriptor_persistent, descriptors, grid,
                ("a_ptr", "b_ptr"), "c_ptr", *product("a_ptr", "b_ptr", True), flops, 2e-2, 0.25),
    ]


def problems(bundle: Path, sizes: Sizes = Sizes()) -> List[Problem]:
    """The launches the cases measure, with the tutorials loaded from the bundle's copy."""
    modules = load_bundle(bundle)
    with as_hopper():
        return (_problems_03(modules["03"], sizes) + _problems_06(modules["06"], sizes)
                + _problems_09(modules["09"], sizes))


def cases(bundle: Path, sizes: Sizes = Sizes()) -> List[Case]:
    """Every config of every problem, with the kernels loaded from the bundle's copy of the tutorials."""
    out: List[Case] = [case for problem in problems(bundle, sizes) for case in _cases_of(problem)]
    names = [c.name for c in out]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise ValueError(f"configs that differ only in what their names leave out: {', '.join(duplicates)}")
    return out


# ---------------------------------------------------------------------------------------------- summary

def _best(rows: Sequence[Dict[str, Any]], label: str, config: Dict[str, str]) -> Optional[Tuple[float, str]]:
    """The fastest correct launch of ``label`` among ``rows``: (rate, config)."""
    ran = [r for r in rows if f"{label}_rate" in r and r.get(f"{label}_error") is None]
    if not ran:
        return None
    best = max(ran, key=lambda r: r[f"{label}_rate"])
    return best[f"{label}_rate"], config[best["kernel"]]


def summary(rows: Sequence[Dict[str, Any]], cases: Sequence[TutorialCase]) -> List[str]:
    """What the autotuner would pick, as a markdown table under proxy_gpu's: per group, the fastest correct
    config of ours and of Triton's, and Triton's fastest among the configs ours built (the others are past
    mp_31's shared memory, rejected by the kernel, or failed to build)."""
    config = {c.name: c.config for c in cases}
    group = {c.name: c.group for c in cases}
    groups: Dict[str, List[Dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault(group[row["kernel"]], []).append(row)

    def cell(best: Optional[Tuple[float, str]], unit: str) -> str:
        return "none" if best is None else f"{best[0]:.1f} {unit} ({best[1]})"

    def ratio(ours: Optional[Tuple[float, str]], theirs: Optional[Tuple[float, str]]) -> str:
        return "" if ours is None or theirs is None else f"{ours[0] / theirs[0]:.2f}x"

    lines = ["| tutorial kernel | configs built / all | best ours | best Triton NVIDIA | ours / Triton | "
             "best Triton on ours' configs | ours / that |", "|---|---|---|---|---|---|---|"]
    for name, members in groups.items():
        unit = members[0]["unit"]
        built = [r for r in members if "ours_refused" not in r and "ours_unbuilt" not in r]
        ours, theirs, theirs_built = (_best(members, "ours", config), _best(members, "triton", config),
                                      _best(built, "triton", config))
        lines.append(f"| {name} | {len(built)} / {len(members)} | {cell(ours, unit)} | {cell(theirs, unit)} | "
                     f"{ratio(ours, theirs)} | {cell(theirs_built, unit)} | {ratio(ours, theirs_built)} |")
    return lines
