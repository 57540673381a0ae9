"""`triton_musa.mlir`: MLIR's Python bindings with our dialects. Build TTGIR from
Python, run our passes through PassManager, walk what comes out, read module and
layout attributes of a kernel Triton compiled, hand a module to _musa_mlir
without printing it, and coexist with triton, torch and (when it is installed)
the upstream `mlir` package in one process, in every import order."""

from __future__ import annotations

import importlib.util
import itertools
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import List, Tuple

import pytest

from triton_musa import _musa_mlir
from triton_musa.mlir import ir, passmanager
from triton_musa.mlir.dialects import arith, tt, ttg

WARPS = 4


def _walk(op: ir.Operation) -> List[ir.Operation]:
    """Every operation nested in ``op`` (``op`` included), in pre-order."""
    found: List[ir.Operation] = []

    def visit(o: ir.Operation) -> ir.WalkResult:
        found.append(o)
        return ir.WalkResult.ADVANCE

    op.walk(visit, ir.WalkOrder.PRE_ORDER)
    return found


def _build_masked_copy(arch: str = "mp_31", warp_size: int = 32) -> ir.Module:
    """``out[i] = x[i]`` for ``i < n`` over one block of two elements per thread, built with the
    ODS builders of tt/ttg/arith: a masked tt.load and a masked tt.store in a blocked layout."""
    block = 2 * WARPS * warp_size
    i32, f32 = ir.IntegerType.get_signless(32), ir.F32Type.get()
    module = ir.Module.create()
    attrs = module.operation.attributes
    attrs["ttg.target"] = ir.StringAttr.get(f"musa:{arch}")
    attrs["ttg.num-warps"] = ir.IntegerAttr.get(i32, WARPS)
    attrs["ttg.num-ctas"] = ir.IntegerAttr.get(i32, 1)
    attrs["ttg.threads-per-warp"] = ir.IntegerAttr.get(i32, warp_size)

    layout = ttg.BlockedEncodingAttr.get([2], [warp_size], [WARPS], [0])
    ptr = tt.PointerType.get(f32)
    ptrs = ir.RankedTensorType.get([block], ptr, layout)
    ints = ir.RankedTensorType.get([block], i32, layout)
    mask_type = ir.RankedTensorType.get([block], ir.IntegerType.get_signless(1), layout)
    kernel_type = ir.FunctionType.get([ptr, ptr, i32], [])

    with ir.InsertionPoint(module.body):
        kernel = tt.FuncOp("masked_copy", ir.TypeAttr.get(kernel_type), sym_visibility="public")
    entry = kernel.body.blocks.append(ptr, ptr, i32)
    x, out, n = entry.arguments
    with ir.InsertionPoint(entry):
        offsets = tt.make_range(ints, 0, block)
        mask = arith.cmpi(arith.CmpIPredicate.slt, offsets, tt.splat(ints, n))
        value = tt.load(tt.addptr(ptrs, tt.splat(ptrs, x), offsets), mask=mask)
        tt.store(tt.addptr(ptrs, tt.splat(ptrs, out), offsets), value, mask=mask)
        tt.return_([])
    assert ir.RankedTensorType(mask.type) == mask_type
    return module


@pytest.mark.parametrize("arch,warp_size", [("mp_31", 32), ("mp_22", 128)])
def test_builders_to_musa_llvm_through_pass_manager(arch: str, warp_size: int) -> None:
    with ir.Context(), ir.Location.unknown():
        module = _build_masked_copy(arch, warp_size)
        assert module.operation.verify()
        ops = [op.name for op in _walk(module.operation)]
        assert ops.count("tt.load") == 1 and ops.count("tt.store") == 1

        pm = passmanager.PassManager.parse(
            "builtin.module(musa-allocate-shared-memory,musa-insert-barriers,convert-tritongpu-to-musa)")
        pm.run(module.operation)

        lowered = _walk(module.operation)
        names = [op.name for op in lowered]
        assert not [name for name in names if name.split(".")[0] in ("tt", "ttg")], names
        kernel = [op for op in lowered if op.name == "llvm.func" and
                  ir.StringAttr(op.attributes["sym_name"]).value == "masked_copy"]
        assert len(kernel) == 1
        callees = {ir.FlatSymbolRefAttr(op.attributes["callee"]).value
                   for op in lowered if op.name == "llvm.call" and "callee" in op.attributes}
        musa = {c for c in callees if c.startswith("llvm.musa.")}
        # The thread id feeds the offsets; the masks guard the global accesses.
        assert "llvm.musa.read.ptx.sreg.tid.x" in musa, callees
        # The module-level facts the backend reads survive the lowering.
        assert ir.StringAttr(module.operation.attributes["ttg.target"]).value == f"musa:{arch}"
        assert ir.IntegerAttr(module.operation.attributes["ttg.shared"]).value == 0


def test_invalid_layout_raises() -> None:
    with ir.Context():
        with pytest.raises(ValueError, match="power of two"):
            ttg.BlockedEncodingAttr.get([3], [32], [4], [0])


def test_unknown_pass_is_named() -> None:
    with ir.Context():
        with pytest.raises(ValueError, match="no-such-pass"):
            passmanager.PassManager.parse("builtin.module(no-such-pass)")


def test_every_pass_of_the_backend_pipeline_parses() -> None:
    from triton_musa.backend.lowering import dot_path_pipeline, lowering_pipeline

    with ir.Context():
        for target in ("musa", "emulator", "proxy"):
            passmanager.PassManager.parse(lowering_pipeline(target))
        passmanager.PassManager.parse(dot_path_pipeline())


def test_kernel_ttgir_attributes_and_layout_fields(corpus_ir) -> None:
    # A kernel Triton compiled: module attributes and its tensors' layouts as Python values.
    text = corpus_ir.get("add", "mp_22")["ttgir"]
    with ir.Context():
        module = ir.Module.parse(text)
        attrs = module.operation.attributes
        assert ir.IntegerAttr(attrs["ttg.num-warps"]).value == WARPS
        assert ir.IntegerAttr(attrs["ttg.threads-per-warp"]).value == 128
        assert ir.StringAttr(attrs["ttg.target"]).value == "musa:mp_22"

        loads = [op for op in _walk(module.operation) if op.name == "tt.load"]
        assert loads
        encoding = ir.RankedTensorType(loads[0].results[0].type).encoding
        assert isinstance(encoding, ttg.BlockedEncodingAttr)  # downcast by TypeID
        assert ttg.BlockedEncodingAttr.isinstance(encoding)
        assert encoding.warps_per_cta == [WARPS]
        assert encoding.threads_per_warp == [128]
        assert encoding.order == [0]
        size = ir.RankedTensorType(loads[0].results[0].type).shape[0]
        assert encoding.size_per_thread[0] * 128 * WARPS in (size, *(size * k for k in (2, 4, 8))) or \
            size % (128 * WARPS) == 0
        # The same attribute object feeds the linear-layout engine (no printing).
        layout = _musa_mlir.layout_to_linear(encoding, [size])
        assert layout.out_dim_size("dim0") == size

        ptr_type = ir.RankedTensorType(loads[0].operands[0].type).element_type
        assert isinstance(ptr_type, tt.PointerType)
        assert ptr_type.address_space == 1
        assert str(ptr_type.pointee_type) == "f32"


def test_memdesc_and_shared_layout_fields() -> None:
    text = textwrap.dedent("""\
        #shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
        #smem = #ttg.shared_memory
        module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
          tt.func public @k() {
            %0 = ttg.local_alloc : () -> !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>
            tt.return
          }
        }
        """)
    with ir.Context():
        module = ir.Module.parse(text)
        alloc = [op for op in _walk(module.operation) if op.name == "ttg.local_alloc"][0]
        memdesc = alloc.results[0].type
        assert isinstance(memdesc, ttg.MemDescType)
        assert memdesc.shape == [2, 64, 32] and memdesc.mutable
        assert str(memdesc.element_type) == "f16"
        shared = memdesc.encoding
        assert isinstance(shared, ttg.SwizzledSharedEncodingAttr)
        assert (shared.vec, shared.per_phase, shared.max_phase, shared.order) == (8, 1, 8, [1, 0])


def test_malformed_module_raises_with_file_line_col() -> None:
    with ir.Context():
        with pytest.raises(ir.MLIRError) as info:
            ir.Operation.parse("module {\n  tt.func @f( {\n}\n", source_name="broken.ttgir")
        diagnostics = info.value.error_diagnostics
        assert diagnostics
        location = str(diagnostics[0].location)
        assert location.startswith('loc("broken.ttgir":2:'), location
        assert 'broken.ttgir":2:' in str(info.value)


def test_verifier_error_raises_with_location() -> None:
    with ir.Context():
        module = ir.Module.parse(textwrap.dedent("""\
            tt.func @f(%p: !tt.ptr<f32>) {
              %v = tt.load %p : !tt.ptr<f32>
              tt.return
            }
            """))
        # Break it from Python: a store of an i32 through a pointer to f32.
        func = module.body.operations[0]
        entry = func.regions[0].blocks[0]
        with ir.InsertionPoint(entry.operations[len(entry.operations) - 1]), ir.Location.file("made.py", 7, 3):
            c = arith.constant(ir.IntegerType.get_signless(32), 1)
            tt.StoreOp(entry.arguments[0], c)
        with pytest.raises(ir.MLIRError) as info:
            module.operation.verify()
        assert 'loc("made.py":7:3)' in str(info.value.error_diagnostics[0].location)


def test_module_handed_to_llvm_export_without_reparsing(corpus_ir) -> None:
    # Lower with the bindings, export with _musa_mlir: the same module object, one MLIR.
    text = corpus_ir.get("add", "mp_31")["ttgir"]
    with ir.Context():
        module = ir.Module.parse(text)
        passmanager.PassManager.parse(
            "builtin.module(musa-allocate-shared-memory,musa-insert-barriers,convert-tritongpu-to-musa)"
        ).run(module.operation)
        llir = _musa_mlir.translate_to_llvm_ir(module, opt_level=0)
        assert 'target triple = "mtgpu-mt-musa"' in llir
        assert llir == _musa_mlir.translate_to_llvm_ir(module.operation, opt_level=0)
        with pytest.raises(TypeError):
            _musa_mlir.translate_to_llvm_ir(module.body.operations[0])


def test_one_mlir_in_the_process() -> None:
    # _musa_mlir is only an entry point: its code lives in the bindings' aggregate library.
    lib = Path(ir.__file__).parent / "_mlir_libs" / "libTritonMUSAPythonCAPI.so"
    entry = Path(_musa_mlir.__file__)
    assert lib.is_file()
    assert entry.stat().st_size < 100_000, f"{entry} links its own MLIR ({entry.stat().st_size} bytes)"
    maps = Path("/proc/self/maps").read_text()
    loaded = {line.split()[-1] for line in maps.splitlines() if "TritonMUSAPythonCAPI" in line}
    assert len(loaded) == 1, loaded


def _dynamic_symbols(path: Path) -> List[Tuple[str, str]]:
    """(binding, name) of every symbol ``path`` defines in its dynamic symbol table."""
    out = subprocess.run(["readelf", "--dyn-syms", "-W", str(path)], capture_output=True, text=True,
                         check=True).stdout
    rows = [line.split() for line in out.splitlines()]
    return [(row[4], row[7]) for row in rows if len(row) >= 8 and row[0][:-1].isdigit() and row[6] != "UND"]


# Symbols of MLIR's Python classes are namespaced by our nanobind domain (mlir::python::<domain>),
# so no other bindings package defines them; libstdc++'s template statics are the same everywhere.
_OURS = re.compile(r"triton_musa_mlir")
_STD = re.compile(r"^_Z(GV|Z|N|K|T[IVS])*St")


def test_shared_objects_export_only_their_interfaces() -> None:
    # Another MLIR (libtriton's, the upstream package's) can never bind to ours, nor ours to it.
    libs = Path(ir.__file__).parent / "_mlir_libs"
    capi = [name for _, name in _dynamic_symbols(libs / "libTritonMUSAPythonCAPI.so")]
    assert len(capi) > 500, "the aggregate exports the C API"
    assert all(re.match(r"mlir[A-Z]", name) for name in capi), [n for n in capi if not n.startswith("mlir")][:20]
    assert {"mlirTritonMUSARegisterAllDialects", "mlirTritonMUSARegisterAllPasses"} <= set(capi)

    objects = [*libs.glob("*.so"), Path(_musa_mlir.__file__)]
    assert len(objects) >= 6
    for path in objects:
        symbols = _dynamic_symbols(path)
        unique = [n for b, n in symbols if b == "UNIQUE" and not (_OURS.search(n) or _STD.match(n))]
        assert not unique, f"{path.name}: STB_GNU_UNIQUE {unique[:10]}"
        # MLIR/LLVM C++ outside our domain; a template over the C API's handle types (Mlir*) is the
        # bindings' own instantiation.
        leaked = [n for _, n in symbols if re.match(r"_ZN?K?4(mlir|llvm)", n) and not _OURS.search(n)
                  and "Mlir" not in n]
        assert not leaked, f"{path.name} exports {leaked[:10]}"
    # _musa_mlir is an entry point only.
    assert [n for _, n in _dynamic_symbols(Path(_musa_mlir.__file__))] == ["PyInit__musa_mlir"]


def _importable(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


# The upstream bindings take part only where they are installed (they are not a dependency).
_OTHERS = ["triton", "torch"] + (["mlir.ir"] if _importable("mlir.ir") else [])
_ORDERS = list(itertools.permutations(["triton_musa.mlir.ir"] + _OTHERS))


@pytest.mark.parametrize("order", _ORDERS, ids=["-".join(o) for o in _ORDERS])
def test_import_orders(order: List[str], tmp_path: Path) -> None:
    # A fresh interpreter per order: clashes between MLIR/LLVM copies show only when the
    # libraries are loaded in that order into one process. Then each library does real work.
    script = "\n".join(f"import {name}" for name in order) + textwrap.dedent(f"""
        import triton, torch
        import triton.language as tl
        from triton.compiler import ASTSource
        from triton.backends.compiler import GPUTarget
        from triton_musa.mlir import ir, passmanager

        @triton.jit
        def k(x, n, B: tl.constexpr):
            o = tl.arange(0, B)
            tl.store(x + o, tl.load(x + o, mask=o < n) + 1, mask=o < n)

        src = ASTSource(k, signature={{"x": "*fp32", "n": "i32", "B": "constexpr"}}, constexprs={{"B": 64}})
        ttgir = triton.compile(src, target=GPUTarget("musa", "mp_31", 32)).asm["ttgir"]
        with ir.Context():
            module = ir.Module.parse(ttgir)
            passmanager.PassManager.parse("builtin.module(musa-allocate-shared-memory,"
                                          "convert-tritongpu-to-musa)").run(module.operation)
            assert "llvm.func" in str(module)
        assert torch.ones(3).add(1).sum().item() == 6.0
        if {"mlir.ir" in order!r}:
            import mlir.ir as upstream
            with upstream.Context():
                assert "arith.addi" in str(upstream.Module.parse(
                    "func.func @f(%a: i32) -> i32 {{ %0 = arith.addi %a, %a : i32 return %0 : i32 }}"))
        print("ok")
        """)
    script_path = tmp_path / "imports.py"  # @triton.jit needs its source in a file
    script_path.write_text(script)
    result = subprocess.run([sys.executable, str(script_path)], capture_output=True, text=True, timeout=300,
                            env={**os.environ, "TRITON_CACHE_DIR": str(tmp_path / "cache")})
    assert result.returncode == 0, result.stderr[-4000:]
    assert result.stdout.strip().endswith("ok")


def test_lowering_errors_carry_located_diagnostics() -> None:
    # The backend reads diagnostics as data: the failing op's location and message, and MLIR's note
    # printing the op as a note of its own kind (left out of the concise error).
    from triton_musa.backend.errors import MusaCompileError, translate
    from triton_musa.backend.lowering import LoweringError, lower_for_emulator
    from triton_musa.backend.target import parse_arch

    ttgir = textwrap.dedent("""\
        module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
          tt.func public @scratch() {
            %p = ttg.global_scratch_alloc {alignment = 8 : i32, nbytes = 100 : i32} : !tt.ptr<i8>
            tt.return
          }
        }
        """)
    with pytest.raises(_musa_mlir.MLIRError) as info:
        lower_for_emulator(ttgir, parse_arch("mp_31"), source_name="scratch.ttgir")
    assert isinstance(info.value, LoweringError)
    error = info.value.diagnostics[0]
    assert (error.severity, error.where) == ("error", "scratch.ttgir:3:10")
    assert "ttg.global_scratch_alloc" in error.message
    assert any(d.shows_ir for d in info.value.diagnostics)
    concise = translate(info.value, "scratch", "mp_31")
    assert isinstance(concise, MusaCompileError)
    assert "scratch.ttgir:3:10: error:" in str(concise) and "see current operation" not in str(concise)


def test_dot_path_report_from_remarks(corpus_ir) -> None:
    from triton_musa.backend.lowering import MatmulOptions, dot_path_report

    ttgir = corpus_ir.get("add", "mp_31")["ttgir"]
    assert dot_path_report(ttgir, MatmulOptions()) == []  # no dot, no remark


def test_cache_key_digests_the_one_library() -> None:
    # _musa_mlir is a small entry point: the backend's cache key follows the library with the code.
    from triton_musa.backend import cache_key

    lib = Path(ir.__file__).parent / "_mlir_libs" / "libTritonMUSAPythonCAPI.so"
    assert os.path.samefile(cache_key._library_path(), lib)
    assert cache_key.library_digest() not in ("", "none")


def test_musagpu_and_rewrite_modules() -> None:
    from triton_musa.mlir import rewrite
    from triton_musa.mlir.dialects import musagpu

    ops = [getattr(musagpu, name) for name in dir(musagpu) if name.endswith("Op")]
    assert ops and all(op.OPERATION_NAME.startswith("musagpu.") for op in ops)
    with ir.Context(), ir.Location.unknown():
        module = ir.Module.parse("func.func @f(%a: i32) -> i32 {\n  %c0 = arith.constant 0 : i32\n"
                                 "  %0 = arith.addi %a, %c0 : i32\n  return %0 : i32\n}")
        # No patterns: the greedy driver still folds x + 0.
        rewrite.apply_patterns_and_fold_greedily(module, rewrite.RewritePatternSet().freeze())
        assert "arith.addi" not in str(module)


def _default_visibility_mlir_c() -> List[str]:
    """A libMLIR-C.so with MLIR's C++ exported at default visibility (thousands of STB_GNU_UNIQUE
    symbols): the xtc-mlir-dev wheel's, where that build dependency is installed."""
    try:
        from importlib.metadata import PackageNotFoundError, distribution
        path = Path(distribution("xtc-mlir-dev").locate_file("mlir/lib/libMLIR-C.so"))
    except (ImportError, PackageNotFoundError):
        return []
    return [str(path)] if path.is_file() else []


_OTHER_MLIR_SCRIPT = textwrap.dedent("""\
    import ctypes, sys

    class Ref(ctypes.Structure):
        _fields_ = [("data", ctypes.c_char_p), ("length", ctypes.c_size_t)]

    class Handle(ctypes.Structure):
        _fields_ = [("ptr", ctypes.c_void_p)]

    def other():
        # How Python loads an extension's libraries: RTLD_LOCAL.
        lib = ctypes.CDLL(sys.argv[1], mode=ctypes.RTLD_LOCAL)
        for name, res, args in [("mlirContextCreate", Handle, []), ("mlirDialectRegistryCreate", Handle, []),
                                ("mlirRegisterAllDialects", None, [Handle]),
                                ("mlirContextAppendDialectRegistry", None, [Handle, Handle]),
                                ("mlirModuleCreateParse", Handle, [Handle, Ref]),
                                ("mlirModuleGetOperation", Handle, [Handle]),
                                ("mlirOperationVerify", ctypes.c_bool, [Handle])]:
            f = getattr(lib, name)
            f.restype, f.argtypes = res, args
        ctx, registry = lib.mlirContextCreate(), lib.mlirDialectRegistryCreate()
        lib.mlirRegisterAllDialects(registry)
        lib.mlirContextAppendDialectRegistry(ctx, registry)
        text = b"func.func @f(%a: i32) -> i32 {\\n %0 = arith.addi %a, %a : i32\\n return %0 : i32\\n}"
        module = lib.mlirModuleCreateParse(ctx, Ref(text, len(text)))
        assert module.ptr and lib.mlirOperationVerify(lib.mlirModuleGetOperation(module))

    def ours():
        from triton_musa import _musa_mlir
        from triton_musa.mlir import ir, passmanager
        with ir.Context():
            m = ir.Module.parse('module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, '
                                'ttg.target = "musa:mp_31"} {\\n tt.func @f(%p: !tt.ptr<f32>) {\\n'
                                ' %v = tt.load %p : !tt.ptr<f32>\\n tt.store %p, %v : !tt.ptr<f32>\\n'
                                ' tt.return\\n }\\n}')
            passmanager.PassManager.parse("builtin.module(musa-allocate-shared-memory,"
                                          "convert-tritongpu-to-musa,canonicalize)").run(m.operation)
            assert "llvm.func" in str(m)
            assert "mtgpu-mt-musa" in _musa_mlir.translate_to_llvm_ir(m, opt_level=0)

    steps = [other, ours] if sys.argv[2] == "other-first" else [ours, other]
    for step in steps + steps:
        step()
    print("ok")
    """)


def _beside_a_default_visibility_mlir(library: str, order: str, tmp_path: Path) -> None:
    # Another MLIR that exports its C++ (as a default-visibility build of the upstream bindings does):
    # both work in one process, in either order, each on its own registries.
    script = tmp_path / "other_mlir.py"
    script.write_text(_OTHER_MLIR_SCRIPT)
    result = subprocess.run([sys.executable, str(script), library, order], capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr[-4000:]
    assert result.stdout.strip() == "ok"


# Defined only where such a library is installed (a build dependency, not a test dependency): an
# empty parametrization would be reported as a skip.
if _default_visibility_mlir_c():
    @pytest.mark.parametrize("library", _default_visibility_mlir_c())
    @pytest.mark.parametrize("order", ["other-first", "ours-first"])
    def test_beside_a_default_visibility_mlir(library: str, order: str, tmp_path: Path) -> None:
        _beside_a_default_visibility_mlir(library, order, tmp_path)
