"""Liger-Kernel's own Triton kernels as GPU-proxy cases (``proxy_gpu.py --client liger``).

The kernels are Liger-Kernel 0.8.5's, imported unchanged from its source distribution: ``build`` fetches
it as scripts/client_suite.py does and copies its ``src/`` into the bundle (``liger_src/``), and both
``build`` and ``run`` import the kernel modules from there, so the GPU machine (torch and triton, no
registry) compiles the same files. Each case takes the specialization Liger's own wrapper picks at an
LLM size (Llama-3-8B: hidden 4096, MLP 14336, vocabulary 128256, 32 query and 8 key/value heads of 128;
8192 tokens) on an H200 (132 SMs, the grid of the backward norms), and checks the kernel's outputs
against a PyTorch reference computed in fp32 from the same inputs.
"""

from __future__ import annotations

import importlib
import importlib.util
import math
import shutil
import sys
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

from proxy_kernels import Case, Setup, _close, _gen

REPO = Path(__file__).resolve().parents[1]
SRC_DIR = "liger_src"  # the sdist's src/, inside the bundle
DEPS_DIR = "liger_deps"  # pure-Python packages Liger imports beyond torch and triton (packaging)
MODULES = ("rms_norm", "layer_norm", "swiglu", "cross_entropy", "rope", "softmax", "utils")


@dataclass(frozen=True)
class Sizes:
    tokens: int = 8192
    hidden: int = 4096
    intermediate: int = 14336
    vocab: int = 128256
    q_heads: int = 32
    kv_heads: int = 8
    head_dim: int = 128
    softmax_cols: int = 8192  # one head's attention scores over 8192 tokens
    sms: int = 132  # H200: Liger's backward norms launch one program per SM


# ---------------------------------------------------------------------------------------------- sources

def _client_suite() -> types.ModuleType:
    """scripts/client_suite.py (a script, not a package module), loaded once."""
    if "client_suite" not in sys.modules:
        spec = importlib.util.spec_from_file_location("client_suite", REPO / "scripts" / "client_suite.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["client_suite"] = module  # its dataclasses look their module up while it executes
        spec.loader.exec_module(module)
    return sys.modules["client_suite"]


def fetch_src() -> Path:
    """The unpacked sdist's src/ (pip download into client_suite's cache, as its test suite runs it)."""
    suite = _client_suite()
    return suite.fetch(suite.LIGER, suite.default_cache()) / "src"


def prepare_bundle(out: Path, src: Optional[Path] = None) -> None:
    """Copies Liger's src/ (fetched when not given) and `packaging`, which its ops/utils.py imports, into the
    bundle."""
    src = src or fetch_src()
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.rmtree(out / SRC_DIR, ignore_errors=True)
    shutil.copytree(src, out / SRC_DIR, ignore=skip)
    import packaging
    shutil.rmtree(out / DEPS_DIR, ignore_errors=True)
    shutil.copytree(Path(packaging.__file__).parent, out / DEPS_DIR / "packaging", ignore=skip)


def load(bundle: Path) -> Dict[str, types.ModuleType]:
    """Liger's kernel modules from the bundle's copy. `liger_kernel/__init__.py` and `ops/__init__.py`
    import every op of the library and its backend dispatcher; the kernel modules need only
    liger_kernel.utils and liger_kernel.ops.utils, so both packages are entered as plain package objects
    over the copied folders and only the modules below are executed."""
    root = (bundle / SRC_DIR).resolve()
    if not (root / "liger_kernel" / "ops" / "rms_norm.py").is_file():
        raise FileNotFoundError(f"{root} holds no liger_kernel/ops/: build the bundle with --client liger")
    deps = str((bundle / DEPS_DIR).resolve())
    if deps not in sys.path:
        sys.path.append(deps)  # last: an installed packaging wins
    for name, folder in (("liger_kernel", root / "liger_kernel"), ("liger_kernel.ops", root / "liger_kernel" / "ops")):
        loaded = sys.modules.get(name)
        if loaded is not None:
            if list(getattr(loaded, "__path__", [])) != [str(folder)]:
                raise ImportError(f"{name} is already imported from {getattr(loaded, '__path__', '?')}, not {folder}")
            continue
        package = types.ModuleType(name)
        package.__path__ = [str(folder)]
        sys.modules[name] = package
    return {m: importlib.import_module(f"liger_kernel.ops.{m}") for m in MODULES}


# ---------------------------------------------------------------------------------------------- cases

def _case(name: str, kernel: Any, pointers: Dict[str, str], values: Dict[str, Any], num_warps: int, amount: float,
          setup: Callable[[Any, Case], Setup]) -> Case:
    """A Case whose scalar types and specialization are Triton's JIT rule for the values Liger passes
    (ints equal to 1 and None become constexprs, as at a real launch); defaults fill the constexprs
    Liger leaves out."""
    from triton.runtime.jit import mangle_type
    signature: Dict[str, str] = {}
    values = dict(values)
    for param in kernel.params:
        if param.name not in values and param.name not in pointers and param.has_default:
            values[param.name] = param.default
        if param.name in pointers:
            signature[param.name] = pointers[param.name]
        elif param.is_constexpr:
            signature[param.name] = "constexpr"
        else:
            signature[param.name] = mangle_type(values[param.name], specialize=True)
    return Case(name, kernel, signature, values, num_warps, "GB/s", amount, setup, memory_bound=True)


def _prepared(c: Case, tensors: Dict[str, Any], grid: Tuple[int, ...], expected: Dict[str, Any],
              tolerance: float, outputs: Optional[Callable[[], Dict[str, Any]]] = None,
              inplace: Tuple[str, ...] = (), torch_fn: Optional[Callable[[], Any]] = None) -> Setup:
    """A Setup that compares `outputs()` (default: the tensors named in `expected`) with `expected`, to
    `tolerance` of each reference's largest magnitude (0: exactly), then restores the `inplace` inputs
    (Liger writes gradients over its inputs) for the next checked launch. Timing launches run on whatever
    the previous launch left: the kernels' cost does not depend on the values."""
    saved = {n: tensors[n].clone() for n in inplace}
    read = outputs or (lambda: {n: tensors[n] for n in expected})

    def check() -> Optional[str]:
        errors = []
        for key, out in read().items():
            ref = expected[key]
            scale = ref.float().abs().max().item()
            error = _close(out.float(), ref.float(), tolerance, tolerance * scale)
            if error is not None:
                errors.append(f"{key}: {error}")
        for n, t in saved.items():
            tensors[n].copy_(t)
        return "; ".join(errors) or None

    return Setup(c.value_args(tensors), grid, check, lambda: None, torch_fn or (lambda: None))


BF16_TOL = 2e-2  # bf16 outputs against an fp32 reference: a few bf16 ulps of the largest value
FP32_TOL = 1e-5


def _randn(dev: Any, *shape: int, dtype: Any = None, generator: Any = None) -> Any:
    import torch
    return torch.randn(*shape, device=dev, generator=generator).to(dtype or torch.bfloat16)


def _rms_ref(x: Any, w: Any, eps: float) -> Tuple[Any, Any]:
    """Liger's "llama" casting: rstd in fp32, the weight multiply in the input's type."""
    import torch
    xf = x.float()
    rstd = torch.rsqrt(xf.pow(2).mean(dim=1) + eps)
    return (xf * rstd[:, None]).to(x.dtype) * w, rstd


def _setup_rms_fwd(dev: Any, c: Case) -> Setup:
    import torch
    n, m = c.values["n_cols"], c.values["M"]
    g = _gen(dev)
    x, w = _randn(dev, m, n, generator=g), _randn(dev, n, generator=g)
    y, rstd = torch.empty_like(x), torch.empty(m, device=dev)
    ref_y, ref_rstd = _rms_ref(x, w, c.values["eps"])
    tensors = {"Y_ptr": y, "X_ptr": x, "W_ptr": w, "RSTD_ptr": rstd}
    eps = c.values["eps"]
    return _prepared(c, tensors, (m, ), {"Y_ptr": ref_y, "RSTD_ptr": ref_rstd}, BF16_TOL,
                     torch_fn=lambda: torch.nn.functional.rms_norm(x, (n, ), w, eps))


def _setup_rms_bwd(dev: Any, c: Case) -> Setup:
    import torch
    n, m = c.values["n_cols"], c.values["n_rows"]
    g = _gen(dev)
    x, w, dy = _randn(dev, m, n, generator=g), _randn(dev, n, generator=g), _randn(dev, m, n, generator=g)
    _, rstd = _rms_ref(x, w, 1e-6)
    dx, dw = torch.empty_like(x), torch.empty(c.values["sms"], n, device=dev)

    def reference() -> Dict[str, Any]:
        xf, r = x.float(), rstd[:, None]
        mw = dy.float() * w.float()  # the kernel adds the fp32 offset to W first: an fp32 product
        dx_ref = r * mw - r**3 / n * (mw * xf).sum(dim=1, keepdim=True) * xf
        return {"dX": dx_ref.to(x.dtype), "dW": (dy.float() * (xf * r).to(x.dtype).float()).sum(dim=0)}

    tensors = {"dY_ptr": dy, "dX_ptr": dx, "X_ptr": x, "W_ptr": w, "RSTD_ptr": rstd, "dW_ptr": dw}
    return _prepared(c, tensors, (c.values["sms"], ), reference(), BF16_TOL,
                     outputs=lambda: {"dX": dx, "dW": dw.sum(dim=0)}, torch_fn=reference)


def _setup_ln_fwd(dev: Any, c: Case) -> Setup:
    import torch
    n, m, eps = c.values["n_cols"], c.values["M"], c.values["eps"]
    g = _gen(dev)
    x, w, b = _randn(dev, m, n, generator=g), _randn(dev, n, generator=g), _randn(dev, n, generator=g)
    y, mean, rstd = torch.empty_like(x), torch.empty(m, device=dev), torch.empty(m, device=dev)
    xf = x.float()
    var, mu = torch.var_mean(xf, dim=1, correction=0)
    expected = {"Y_ptr": torch.nn.functional.layer_norm(xf, (n, ), w.float(), b.float(), eps).to(x.dtype),
                "Mean_ptr": mu, "RSTD_ptr": torch.rsqrt(var + eps)}
    tensors = {"Y_ptr": y, "X_ptr": x, "W_ptr": w, "B_ptr": b, "Mean_ptr": mean, "RSTD_ptr": rstd}
    return _prepared(c, tensors, (m, ), expected, BF16_TOL,
                     torch_fn=lambda: torch.nn.functional.layer_norm(x, (n, ), w, b, eps))


def _setup_ln_bwd(dev: Any, c: Case) -> Setup:
    import torch
    n, m = c.values["n_cols"], c.values["n_rows"]
    g = _gen(dev)
    x, w, dy = _randn(dev, m, n, generator=g), _randn(dev, n, generator=g), _randn(dev, m, n, generator=g)
    var, mean = torch.var_mean(x.float(), dim=1, correction=0)
    rstd = torch.rsqrt(var + 1e-5)
    dx = torch.empty_like(x)
    dw, db = (torch.empty(c.values["sms"], n, device=dev) for _ in range(2))

    def reference() -> Dict[str, Any]:
        xhat = (x.float() - mean[:, None]) * rstd[:, None]
        wdy = w.float() * dy.float()
        c1, c2 = (xhat * wdy).mean(dim=1, keepdim=True), wdy.mean(dim=1, keepdim=True)
        return {"DX": ((wdy - (xhat * c1 + c2)) * rstd[:, None]).to(x.dtype),
                "DW": (dy.float() * xhat).sum(dim=0), "DB": dy.float().sum(dim=0)}

    tensors = {"X_ptr": x, "W_ptr": w, "Mean_ptr": mean, "RSTD_ptr": rstd, "DX_ptr": dx, "DW_ptr": dw, "DB_ptr": db,
               "DY_ptr": dy}
    return _prepared(c, tensors, (c.values["sms"], ), reference(), BF16_TOL,
                     outputs=lambda: {"DX": dx, "DW": dw.sum(dim=0), "DB": db.sum(dim=0)}, torch_fn=reference)


def _setup_swiglu_fwd(dev: Any, c: Case) -> Setup:
    import torch
    n, m = c.values["n_cols"], c.values["M"]
    g = _gen(dev)
    a, b = _randn(dev, m, n, generator=g), _randn(dev, m, n, generator=g)
    out = torch.empty_like(a)
    silu = torch.nn.functional.silu
    expected = {"c_ptr": silu(a.float()).to(b.dtype) * b}
    return _prepared(c, {"a_ptr": a, "b_ptr": b, "c_ptr": out}, (m, ), expected, BF16_TOL,
                     torch_fn=lambda: silu(a) * b)


def _setup_swiglu_bwd(dev: Any, c: Case) -> Setup:
    import torch
    n, m = c.values["n_cols"], c.values["M"]
    g = _gen(dev)
    dc, a, b = (_randn(dev, m, n, generator=g) for _ in range(3))

    def reference() -> Dict[str, Any]:
        af, sig = a.float(), torch.sigmoid(a.float())
        silu = af * sig
        return {"a_ptr": (dc.float() * (silu * (1 - sig) + sig) * b.float()).to(a.dtype),
                "b_ptr": (dc.float() * silu).to(b.dtype)}

    return _prepared(c, {"dc_ptr": dc, "a_ptr": a, "b_ptr": b}, (m, ), reference(), BF16_TOL,
                     inplace=("a_ptr", "b_ptr"), torch_fn=reference)


def _ce_inputs(dev: Any, rows: int, vocab: int, ignore_index: int) -> Tuple[Any, Any]:
    import torch
    g = _gen(dev)
    x = _randn(dev, rows, vocab, generator=g)
    y = torch.randint(0, vocab, (rows, ), device=dev, generator=g)
    y[::16] = ignore_index  # padding tokens: Liger zeroes their gradient rows and skips their loss
    return x, y


def _ce_reference(x: Any, y: Any, n_non_ignore: int, ignore_index: int, loss_dtype: Any) -> Dict[str, Any]:
    """Mean-reduced cross entropy's per-row loss and the gradient that Liger writes over the logits."""
    import torch
    keep = y != ignore_index
    xf = x.float()
    lse = torch.logsumexp(xf, dim=1)
    target = y.clamp(min=0)
    loss = torch.where(keep, lse - xf.gather(1, target[:, None])[:, 0], 0.0) / n_non_ignore
    grad = torch.softmax(xf, dim=1)
    grad[torch.arange(len(y), device=y.device), target] -= 1.0
    grad = torch.where(keep[:, None], grad, 0.0) / n_non_ignore
    return {"X_ptr": grad.to(x.dtype), "loss_ptr": loss.to(loss_dtype)}


def _setup_ce(dev: Any, c: Case) -> Setup:
    import torch
    rows, vocab, ignore = c.values["M"], c.values["n_cols"], c.values["ignore_index"]
    x, y = _ce_inputs(dev, rows, vocab, ignore)
    loss_dtype = torch.float32 if c.signature["loss_ptr"] == "*fp32" else x.dtype
    loss = torch.zeros(rows, device=dev, dtype=loss_dtype)
    # Normalised by the whole batch's non-ignored tokens (for the FLCE chunk, more than its own rows).
    expected = _ce_reference(x, y, c.values["n_non_ignore"], ignore, loss_dtype)
    xs = x.clone()  # torch's loss on logits that the kernels' timing launches do not overwrite
    ce = torch.nn.functional.cross_entropy
    return _prepared(c, {"X_ptr": x, "Y_ptr": y, "loss_ptr": loss}, (rows, ), expected, BF16_TOL,
                     inplace=("X_ptr", ), torch_fn=lambda: ce(xs, y, ignore_index=ignore))


def _setup_element_mul(dev: Any, c: Case) -> Setup:
    import torch
    rows, cols = c.values["M"], c.values["n_cols"]
    g = _gen(dev)
    x = _randn(dev, rows, cols, generator=g)
    scale_dtype = torch.float32 if c.signature["grad_output_ptr"] == "*fp32" else x.dtype
    scale = torch.tensor(0.125 + 1 / 3, device=dev, dtype=scale_dtype)  # not a power of two: rounding shows
    # One product rounded once to the gradient's type, as torch rounds it.
    expected = {"X_ptr": (x.float() * scale.float()).to(x.dtype) if scale_dtype == torch.float32 else x * scale}
    xs = x.clone()
    return _prepared(c, {"X_ptr": x, "grad_output_ptr": scale}, (rows, ), expected, 0.0, inplace=("X_ptr", ),
                     torch_fn=lambda: xs.mul_(scale))


def _setup_rope(dev: Any, c: Case) -> Setup:
    import torch
    seq, hd, nq, nk = c.values["sl"], c.values["hd"], c.values["n_qh"], c.values["n_kh"]
    backward = c.values["BACKWARD_PASS"]
    g = _gen(dev)
    # Liger's layout after its transpose: (batch, seq, heads, head_dim), contiguous; cos/sin (1, seq, hd).
    q, k = _randn(dev, 1, seq, nq, hd, generator=g), _randn(dev, 1, seq, nk, hd, generator=g)
    inv_freq = 1.0 / (500000.0 ** (torch.arange(0, hd, 2, device=dev).float() / hd))
    freqs = torch.arange(seq, device=dev).float()[:, None] * inv_freq[None, :]
    angles = torch.cat([freqs, freqs], dim=1)[None]
    cos, sin = angles.cos().to(q.dtype), angles.sin().to(q.dtype)
    sign = -1.0 if backward else 1.0  # the backward pass rotates by the opposite angle

    def rotate(t: Any) -> Any:
        half = hd // 2
        rotated = torch.cat([-t[..., half:], t[..., :half]], dim=-1)
        return t * cos[:, :, None] + sign * rotated * sin[:, :, None]

    def reference() -> Dict[str, Any]:
        return {"q_ptr": rotate(q.float()).to(q.dtype), "k_ptr": rotate(k.float()).to(k.dtype)}

    return _prepared(c, {"q_ptr": q, "k_ptr": k, "cos": cos, "sin": sin}, (seq, ), reference(), BF16_TOL,
                     inplace=("q_ptr", "k_ptr"), torch_fn=lambda: (rotate(q), rotate(k)))


def _setup_softmax_fwd(dev: Any, c: Case) -> Setup:
    import torch
    rows, cols = c.values["M"], c.values["n_cols"]
    x = torch.randn(rows, cols, device=dev, generator=_gen(dev))
    y = torch.empty_like(x)
    return _prepared(c, {"Y_ptr": y, "X_ptr": x}, (rows, ), {"Y_ptr": torch.softmax(x, dim=1)}, FP32_TOL,
                     torch_fn=lambda: torch.softmax(x, dim=1))


def _setup_softmax_bwd(dev: Any, c: Case) -> Setup:
    import torch
    rows, cols = c.values["M"], c.values["n_cols"]
    g = _gen(dev)
    y = torch.softmax(torch.randn(rows, cols, device=dev, generator=g), dim=1)
    dy = torch.randn(rows, cols, device=dev, generator=g)
    dx = torch.empty_like(y)

    def reference() -> Any:
        return y * (dy - (dy * y).sum(dim=1, keepdim=True))

    return _prepared(c, {"dy_ptr": dy, "y_ptr": y, "dx_ptr": dx}, (rows, ), {"dx_ptr": reference()}, FP32_TOL,
                     torch_fn=reference)


def cases(bundle: Path, sizes: Sizes = Sizes()) -> List[Case]:
    """The cases, with the kernels loaded from the bundle. Each comment names the wrapper whose choice the
    case takes (Liger 0.8.5, src/liger_kernel/ops/)."""
    import triton
    import triton.language as tl
    ops = load(bundle)
    t, h, v, s = sizes.tokens, sizes.hidden, sizes.vocab, sizes.sms
    bf16, f32, i64 = "*bf16", "*fp32", "*i64"
    norm_block, norm_warps = ops["utils"].calculate_settings(h)
    rows_per_program = math.ceil(t / s)  # the backward norms' rows per SM
    ce_block = min(ops["cross_entropy"].MAX_FUSED_SIZE, triton.next_power_of_2(v))
    ce_warps = 32  # cross_entropy_forward: 32 warps off HIP and Blackwell
    ignore = -100
    n_non_ignore = t - len(range(0, t, 16))  # _ce_inputs ignores every 16th token
    # fused_linear_cross_entropy_forward: logits in chunks of next_pow2(cdiv(BT, cdiv(V, H))) rows.
    chunk = min(triton.next_power_of_2(triton.cdiv(t, triton.cdiv(v, h))), t)
    swiglu_block, swiglu_warps = ops["utils"].calculate_settings(sizes.intermediate)
    softmax_block, softmax_warps = ops["utils"].calculate_settings(sizes.softmax_cols)
    nq, nk, hd = sizes.q_heads, sizes.kv_heads, sizes.head_dim
    p2 = triton.next_power_of_2
    rope = {"q_row_stride": nq * hd, "k_row_stride": nk * hd, "cos_row_stride": hd, "sin_row_stride": hd, "sl": t,
            "bs": 1, "cos_bs": 1, "n_qh": nq, "n_kh": nk, "hd": hd, "pad_n_qh": p2(nq), "pad_n_kh": p2(nk),
            "pad_hd": p2(hd), "pad_rd": p2(hd), "rd": hd, "BLOCK_SIZE": max(p2(nq), p2(nk))}
    rope_bytes = 2 * 2 * t * (nq + nk) * hd + 2 * 2 * t * hd
    ce = {"X_stride": v, "Y_stride": 1, "weight_ptr": None, "z_loss_ptr": None, "loss_stride": 1,
          "token_accuracy_ptr": None, "token_accuracy_stride": 0, "predicted_tokens_ptr": None,
          "predicted_tokens_stride": 0, "n_cols": v, "n_non_ignore": n_non_ignore,
          "sum_non_ignore_weight": n_non_ignore, "weight_sum": 0.0, "ignore_index": ignore, "lse_square_scale": 0.0,
          "label_smoothing": 0.0, "reduction": "mean", "softcap": None, "RETURN_Z_LOSS": False,
          "RETURN_TOKEN_ACCURACY": False, "RETURN_PREDICTED_TOKENS": False, "BLOCK_SIZE": ce_block,
          "HAS_WEIGHT": False, "HAS_SOFTCAPPING": False, "HAS_GRADIENTS": True}
    rms, ln, sw, ces, sm = (ops[m] for m in ("rms_norm", "layer_norm", "swiglu", "cross_entropy", "softmax"))
    return [
        # rms_norm_forward, casting "llama" (LigerRMSNorm's default), rows wider than 256: one row a program.
        _case("liger_rms_norm_fwd", rms._rms_norm_forward_kernel,
              {"Y_ptr": bf16, "X_ptr": bf16, "W_ptr": bf16, "RSTD_ptr": f32},
              {"Y_row_stride": h, "X_row_stride": h, "W_row_stride": 1, "RSTD_row_stride": 1, "n_cols": h,
               "eps": 1e-6, "offset": 0.0, "casting_mode": 0, "elementwise_affine": True, "BLOCK_SIZE": norm_block,
               "M": t}, norm_warps, 2 * 2 * t * h + 4 * t, _setup_rms_fwd),
        # rms_norm_backward with in_place=False (in place, dX would overwrite dY), one program per SM.
        _case("liger_rms_norm_bwd", rms._rms_norm_backward_kernel,
              {"dY_ptr": bf16, "dX_ptr": bf16, "X_ptr": bf16, "W_ptr": bf16, "RSTD_ptr": f32, "dW_ptr": f32},
              {"dY_row_stride": h, "dX_row_stride": h, "X_row_stride": h, "X_dtype": tl.bfloat16, "W_row_stride": 1,
               "RSTD_row_stride": 1, "dW_row_stride": h, "n_rows": t, "n_cols": h, "offset": 0.0,
               "rows_per_program": rows_per_program, "casting_mode": 0, "elementwise_affine": True,
               "BLOCK_SIZE": norm_block, "COMPUTE_DW": True, "sms": s}, norm_warps, 3 * 2 * t * h + 4 * s * h,
              _setup_rms_bwd),
        _case("liger_layer_norm_fwd", ln._layer_norm_forward_kernel,
              {"Y_ptr": bf16, "X_ptr": bf16, "W_ptr": bf16, "B_ptr": bf16, "Mean_ptr": f32, "RSTD_ptr": f32},
              {"Y_row_stride": h, "X_row_stride": h, "W_row_stride": 1, "B_row_stride": 1, "Mean_row_stride": 1,
               "RSTD_row_stride": 1, "n_cols": h, "eps": 1e-5, "BLOCK_SIZE": norm_block, "M": t}, norm_warps,
              2 * 2 * t * h + 8 * t, _setup_ln_fwd),
        # layer_norm_backward passes rows_per_program as a constexpr.
        _case("liger_layer_norm_bwd", ln._layer_norm_backward_kernel,
              {"X_ptr": bf16, "W_ptr": bf16, "Mean_ptr": f32, "RSTD_ptr": f32, "DX_ptr": bf16, "DW_ptr": f32,
               "DB_ptr": f32, "DY_ptr": bf16},
              {"stride_x": h, "stride_mean": 1, "stride_rstd": 1, "stride_dx": h, "stride_dw": h, "stride_db": h,
               "stride_dy": h, "n_rows": t, "n_cols": h, "rows_per_program": rows_per_program,
               "BLOCK_SIZE": norm_block, "COMPUTE_DW": True, "COMPUTE_DB": True, "sms": s}, norm_warps,
              3 * 2 * t * h + 8 * s * h, _setup_ln_bwd),
        # swiglu_forward/backward off Blackwell: one row a program, calculate_settings(14336).
        _case("liger_swiglu_fwd", sw._swiglu_forward_kernel, {"a_ptr": bf16, "b_ptr": bf16, "c_ptr": bf16},
              {"stride": sizes.intermediate, "gate_multiplier": 1.0, "n_cols": sizes.intermediate,
               "BLOCK_SIZE": swiglu_block, "M": t}, swiglu_warps, 3 * 2 * t * sizes.intermediate, _setup_swiglu_fwd),
        _case("liger_swiglu_bwd", sw._swiglu_backward_kernel, {"dc_ptr": bf16, "a_ptr": bf16, "b_ptr": bf16},
              {"stride": sizes.intermediate, "gate_multiplier": 1.0, "n_cols": sizes.intermediate,
               "BLOCK_SIZE": swiglu_block, "M": t}, swiglu_warps, 5 * 2 * t * sizes.intermediate, _setup_swiglu_bwd),
        # cross_entropy_forward on bf16 logits: loss per row in the logits' type, the gradient over them.
        _case("liger_cross_entropy", ces.liger_cross_entropy_kernel, {"X_ptr": bf16, "Y_ptr": i64, "loss_ptr": bf16},
              dict(ce, M=t), ce_warps, 3 * 2 * t * v, _setup_ce),
        # cross_entropy_backward when grad_output is not 1: the gradient scaled in place.
        _case("liger_ce_grad_scale", ces.element_mul_kernel, {"X_ptr": bf16, "grad_output_ptr": bf16},
              {"X_stride": v, "n_cols": v, "BLOCK_SIZE": ce_block, "M": t}, 32, 2 * 2 * t * v, _setup_element_mul),
        # fused_linear_cross_entropy_forward: the same kernel on one chunk of logits, fp32 loss, the whole
        # batch's token count.
        _case("liger_flce_chunk_ce", ces.liger_cross_entropy_kernel, {"X_ptr": bf16, "Y_ptr": i64, "loss_ptr": f32},
              dict(ce, M=chunk), 32, 3 * 2 * chunk * v, _setup_ce),
        # fused_linear_cross_entropy_backward: grad_weight (V x H) scaled by an fp32 grad_output.
        _case("liger_flce_grad_scale", ces.element_mul_kernel, {"X_ptr": bf16, "grad_output_ptr": f32},
              {"X_stride": h, "n_cols": h, "BLOCK_SIZE": min(ce_block, triton.next_power_of_2(h)), "M": v}, 32,
              2 * 2 * v * h, _setup_element_mul),
        # rope_forward/backward: default num_warps (4).
        _case("liger_rope_fwd", ops["rope"]._triton_rope, {"q_ptr": bf16, "k_ptr": bf16, "cos": bf16, "sin": bf16},
              dict(rope, BACKWARD_PASS=False), 4, rope_bytes, _setup_rope),
        _case("liger_rope_bwd", ops["rope"]._triton_rope, {"q_ptr": bf16, "k_ptr": bf16, "cos": bf16, "sin": bf16},
              dict(rope, BACKWARD_PASS=True), 4, rope_bytes, _setup_rope),
        # _softmax_forward/_backward: fp32 scores, single block (calculate_settings caps rows at 65536).
        _case("liger_softmax_fwd", sm._softmax_single_block_forward_kernel, {"Y_ptr": f32, "X_ptr": f32},
              {"Y_row_stride": sizes.softmax_cols, "X_row_stride": sizes.softmax_cols, "n_cols": sizes.softmax_cols,
               "BLOCK_SIZE": softmax_block, "M": t}, softmax_warps, 2 * 4 * t * sizes.softmax_cols,
              _setup_softmax_fwd),
        _case("liger_softmax_bwd", sm._softmax_single_block_backward_kernel,
              {"dy_ptr": f32, "y_ptr": f32, "dx_ptr": f32},
              {"dy_stride": sizes.softmax_cols, "y_stride": sizes.softmax_cols, "dx_stride": sizes.softmax_cols,
               "n_cols": sizes.softmax_cols, "BLOCK_SIZE": softmax_block, "M": t}, softmax_warps,
              3 * 4 * t * sizes.softmax_cols, _setup_softmax_bwd),
    ]
