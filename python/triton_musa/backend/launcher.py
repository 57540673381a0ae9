"""The MUSA kernel launcher: C source generated per kernel signature against the
MUSA driver API, compiled once into a Python extension and cached like Triton's
CUDA launcher (``triton.runtime.build.compile_module_from_src``).

The generated ``launch`` takes
``(gridX, gridY, gridZ, stream, function, threads, shared, launch_metadata,
enter_hook, exit_hook, *kernel_args)``; kernel arguments come in the kernel's
parameter order, after ``expand_arguments`` has flattened tensor descriptors.
A tensor descriptor is, in the kernel's parameter list (see
``conversion/TritonGPUToMUSA/DescriptorOpToLLVM.cpp``), the descriptor followed
by its rank i32 sizes and rank i64 strides (in elements). The descriptor
itself is either the tensor's base address (kernels lowered without TME:
``tensordesc_meta`` entry None) or a 64-byte ``MUtensorDescriptor`` encoded at
launch with ``muTensorDescriptorEncode`` and passed by value (TME kernels:
a dict entry).
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .launch_signature import descriptor_fields, parse_descriptor_type
from .environment import musa_home

INCLUDE_DIR = Path(__file__).resolve().parent.parent / "include"
DRIVER_HEADER = "triton_musa_driver.h"

# Triton scalar type -> (C type of the kernel parameter, PyArg format, C type PyArg writes).
_SCALARS: Dict[str, Tuple[str, str, str]] = {
    "i1": ("int8_t", "p", "int"),
    "i8": ("int8_t", "L", "long long"),
    "i16": ("int16_t", "L", "long long"),
    "i32": ("int32_t", "L", "long long"),
    "i64": ("int64_t", "L", "long long"),
    "u1": ("uint8_t", "p", "int"),
    "u8": ("uint8_t", "K", "unsigned long long"),
    "u16": ("uint16_t", "K", "unsigned long long"),
    "u32": ("uint32_t", "K", "unsigned long long"),
    "u64": ("uint64_t", "K", "unsigned long long"),
    # 16-bit floats arrive as their bit patterns (converted in Python, see MusaLauncher).
    "fp16": ("uint16_t", "H", "unsigned short"),
    "bf16": ("uint16_t", "H", "unsigned short"),
    "fp32": ("float", "f", "float"),
    "f32": ("float", "f", "float"),
    "fp64": ("double", "d", "double"),
}

@dataclass(frozen=True)
class Param:
    """One launcher argument after descriptor expansion.

    kind: "ptr", "constexpr" (received and ignored), a key of _SCALARS, or "tme"
    (a tensor whose descriptor is encoded at launch from the ``rank`` sizes and
    strides that follow it)."""

    name: str
    kind: str
    rank: int = 0
    elem_bytes: int = 0


def _elem_bytes(dtype: str) -> int:
    bits = re.search(r"(\d+)", dtype)
    if dtype in ("i1", "u1"):
        return 1
    if bits is None:
        raise ValueError(f"cannot size element type {dtype!r}")
    return max(1, int(bits.group(1)) // 8)


def expand_signature(arg_names: Sequence[str], arg_types: Sequence[str],
                     tensordesc_meta: Optional[Sequence[Optional[dict]]] = None) -> List[Param]:
    """The launcher's parameters for a kernel whose Triton signature is ``arg_types``."""
    params: List[Param] = []
    desc_index = 0
    for name, ty in zip(arg_names, arg_types):
        if isinstance(ty, tuple) or str(ty).startswith("("):
            raise NotImplementedError(f"argument {name!r}: tuple arguments are not supported by the MUSA "
                                      "launcher yet")
        ty = str(ty)
        desc = parse_descriptor_type(ty)
        if desc:
            rank = desc.rank
            meta = tensordesc_meta[desc_index] if tensordesc_meta else None
            desc_index += 1
            if meta is None:
                params.append(Param(name, "ptr"))
            else:
                params.append(Param(name, "tme", rank=rank, elem_bytes=_elem_bytes(desc.element)))
            params += [Param(f"{name}_size{i}", "i32") for i in range(rank)]
            params += [Param(f"{name}_stride{i}", "i64") for i in range(rank)]
        elif ty.startswith("*"):
            params.append(Param(name, "ptr"))
        elif ty == "constexpr":
            params.append(Param(name, "constexpr"))
        elif ty in _SCALARS:
            params.append(Param(name, ty))
        else:
            raise NotImplementedError(f"argument {name!r}: type {ty!r} is not supported by the MUSA launcher")
    return params


def expand_arguments(arg_types: Sequence[str], args: Sequence[Any],
                     arg_names: Optional[Sequence[str]] = None) -> List[Any]:
    """Flattens TensorDescriptor arguments (base, sizes, strides) and turns 16-bit float scalars into
    their bit patterns, matching ``expand_signature``."""
    out: List[Any] = []
    for index, (ty, arg) in enumerate(zip(arg_types, args)):
        ty = str(ty)
        desc = parse_descriptor_type(ty)
        if desc:
            name = arg_names[index] if arg_names else f"#{index}"
            out += [value for _, _, value in descriptor_fields(name, arg, desc.rank)]
        elif ty == "fp16":
            out.append(struct.unpack("<H", struct.pack("<e", float(arg)))[0])
        elif ty == "bf16":
            bits = struct.unpack("<I", struct.pack("<f", float(arg)))[0]
            out.append(((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) & 0xFFFF)  # round to nearest even
        else:
            out.append(arg)
    return out


def _c_ident(index: int) -> str:
    return f"a{index}"


def make_launcher_source(kernel_name: str, params: Sequence[Param]) -> str:
    """C source of a Python extension ``launch`` for one kernel signature."""
    decls: List[str] = []
    fmt = ""
    refs: List[str] = []
    prepare: List[str] = []
    kernel_args: List[str] = []
    for i, p in enumerate(params):
        v = _c_ident(i)
        label = p.name.replace('"', "'")
        if p.kind in ("ptr", "tme", "constexpr"):
            decls.append(f"  PyObject *{v}_obj = NULL;")
            fmt += "O"
            refs.append(f"&{v}_obj")
        else:
            param_ty, code, parsed_ty = _SCALARS[p.kind]
            decls.append(f"  {parsed_ty} {v}_in = 0;")
            fmt += code
            refs.append(f"&{v}_in")
        if p.kind == "ptr":
            prepare.append(f"  MUdeviceptr {v} = 0;\n"
                           f"  if (!tm_device_pointer({v}_obj, {i}, \"{label}\", &{v})) return NULL;")
            kernel_args.append(f"&{v}")
        elif p.kind == "tme":
            sizes = ", ".join(f"(muuint64_t){_c_ident(i + 1 + d)}_in" for d in range(p.rank))
            strides = ", ".join(f"(muuint64_t){_c_ident(i + 1 + p.rank + d)}_in" for d in range(p.rank))
            prepare.append(f"  MUdeviceptr {v}_base = 0;\n"
                           f"  if (!tm_device_pointer({v}_obj, {i}, \"{label}\", &{v}_base)) return NULL;\n"
                           f"  _Alignas(64) MUtensorDescriptor {v};\n"
                           f"  {{\n"
                           f"    const muuint64_t sizes[{p.rank}] = {{{sizes}}};\n"
                           f"    const muuint64_t strides[{p.rank}] = {{{strides}}};\n"
                           f"    if (!tm_encode_descriptor(&{v}, {v}_base, {p.rank}, {p.elem_bytes}, sizes, strides, "
                           f"\"{label}\")) return NULL;\n"
                           f"  }}")
            kernel_args.append(f"&{v}")
        elif p.kind != "constexpr":
            param_ty = _SCALARS[p.kind][0]
            prepare.append(f"  {param_ty} {v} = ({param_ty}){v}_in;")
            kernel_args.append(f"&{v}")
    params_array = ", ".join(kernel_args) if kernel_args else "NULL"
    name = kernel_name.replace('"', "'")
    return _TEMPLATE.format(kernel_name=name, decls="\n".join(decls), fmt=fmt,
                            refs="".join(f", {r}" for r in refs), prepare="\n".join(prepare),
                            params_array=params_array, num_params=max(1, len(kernel_args)))


# The parts every launcher shares; {placeholders} are filled per signature.
_TEMPLATE = r'''/* triton-musa launcher for kernel "{kernel_name}" (generated). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include "triton_musa_driver.h"

static int tm_check(MUresult rc, const char *what) {{
  if (rc == MUSA_SUCCESS) return 1;
  const char *msg = NULL;
  if (muGetErrorString(rc, &msg) != MUSA_SUCCESS || msg == NULL) msg = "unknown error";
  PyErr_Format(PyExc_RuntimeError, "triton-musa: %s failed for kernel \"{kernel_name}\": %s (MUSA error %d)",
               what, msg, (int)rc);
  return 0;
}}

/* A kernel pointer argument: None (null), an int (an address) or an object with data_ptr(). Tensors must
   live on a MUSA device: a CPU tensor passed to a device kernel is reported by name. */
static int tm_device_pointer(PyObject *obj, int index, const char *name, MUdeviceptr *out) {{
  *out = 0;
  if (obj == Py_None) return 1;
  if (PyLong_Check(obj)) {{
    *out = (MUdeviceptr)PyLong_AsUnsignedLongLong(obj);
    return !PyErr_Occurred();
  }}
  PyObject *ptr = PyObject_CallMethod(obj, "data_ptr", NULL);
  if (ptr == NULL) {{
    PyErr_Clear();
    PyErr_Format(PyExc_TypeError, "kernel \"{kernel_name}\": argument %d ('%s') must be a tensor, an int address "
                 "or None", index, name);
    return 0;
  }}
  *out = (MUdeviceptr)PyLong_AsUnsignedLongLong(ptr);
  Py_DECREF(ptr);
  if (PyErr_Occurred()) return 0;
  if (*out == 0) return 1;
  MUdeviceptr device_ptr = 0;
  MUresult rc = muPointerGetAttribute(&device_ptr, MU_POINTER_ATTRIBUTE_DEVICE_POINTER, *out);
  if (rc != MUSA_SUCCESS) {{
    PyErr_Format(PyExc_ValueError, "kernel \"{kernel_name}\": argument %d ('%s') is not in MUSA device memory "
                 "(a CPU tensor passed to a device kernel? move it with .to('musa'))", index, name);
    return 0;
  }}
  *out = device_ptr;
  return 1;
}}

/* sizes/strides come outermost first and in elements; the driver wants them innermost first, strides in bytes
   for every dimension but the innermost. */
static int tm_encode_descriptor(MUtensorDescriptor *desc, MUdeviceptr base, int rank, int elem_bytes,
                                const muuint64_t *sizes, const muuint64_t *strides, const char *name) {{
  MUtensorDescriptorDataType type;
  switch (elem_bytes) {{
  case 1: type = MU_TENSOR_DESCRIPTOR_DATA_TYPE_UINT8; break;
  case 2: type = MU_TENSOR_DESCRIPTOR_DATA_TYPE_UINT16; break;
  case 4: type = MU_TENSOR_DESCRIPTOR_DATA_TYPE_UINT32; break;
  default:
    PyErr_Format(PyExc_ValueError, "kernel \"{kernel_name}\": descriptor '%s' has %d-byte elements; MUSA TME "
                 "descriptors take 1, 2 or 4", name, elem_bytes);
    return 0;
  }}
  if (base % 16 != 0) {{
    PyErr_Format(PyExc_ValueError, "kernel \"{kernel_name}\": descriptor '%s' base address is not 16-byte aligned", name);
    return 0;
  }}
  if (strides[rank - 1] != 1) {{
    PyErr_Format(PyExc_ValueError, "kernel \"{kernel_name}\": descriptor '%s' has innermost stride %llu; TME needs "
                 "a contiguous innermost dimension", name, (unsigned long long)strides[rank - 1]);
    return 0;
  }}
  muuint64_t dims[5], byte_strides[4];
  for (int d = 0; d < rank; ++d) dims[d] = sizes[rank - 1 - d];
  for (int d = 1; d < rank; ++d) byte_strides[d - 1] = strides[rank - 1 - d] * (muuint64_t)elem_bytes;
  memset(desc, 0, sizeof(*desc));
  return tm_check(muTensorDescriptorEncode(desc, type, (muuint32_t)rank, (void *)(uintptr_t)base, dims, byte_strides,
                                           MU_TENSOR_DESCRIPTOR_INTERLEAVE_NONE, 0),
                  "muTensorDescriptorEncode");
}}

static int tm_call_hook(PyObject *hook, PyObject *launch_metadata) {{
  if (hook == Py_None) return 1;
  PyObject *res = PyObject_CallOneArg(hook, launch_metadata);
  if (res == NULL) return 0;
  Py_DECREF(res);
  return 1;
}}

static PyObject *launch(PyObject *self, PyObject *args) {{
  (void)self;
  int gridX = 0, gridY = 0, gridZ = 0, threads = 0, shared = 0;
  unsigned long long stream = 0, function = 0;
  PyObject *launch_metadata = NULL, *enter_hook = NULL, *exit_hook = NULL;
{decls}
  if (!PyArg_ParseTuple(args, "iiiKKiiOOO{fmt}", &gridX, &gridY, &gridZ, &stream, &function, &threads, &shared,
                        &launch_metadata, &enter_hook, &exit_hook{refs}))
    return NULL;
  if (gridX * gridY * gridZ <= 0) Py_RETURN_NONE;
  if (!tm_call_hook(enter_hook, launch_metadata)) return NULL;
{prepare}
  void *params[{num_params}] = {{{params_array}}};
  MUresult rc;
  Py_BEGIN_ALLOW_THREADS;
  rc = muLaunchKernel((MUfunction)(uintptr_t)function, (unsigned)gridX, (unsigned)gridY, (unsigned)gridZ,
                      (unsigned)threads, 1, 1, (unsigned)shared, (MUstream)(uintptr_t)stream, params, NULL);
  Py_END_ALLOW_THREADS;
  if (!tm_check(rc, "muLaunchKernel")) return NULL;
  if (!tm_call_hook(exit_hook, launch_metadata)) return NULL;
  Py_RETURN_NONE;
}}

static PyMethodDef tm_methods[] = {{
  {{"launch", launch, METH_VARARGS, "Launch the kernel on a MUSA stream."}},
  {{NULL, NULL, 0, NULL}}
}};

static struct PyModuleDef tm_module = {{PyModuleDef_HEAD_INIT, "__triton_musa_launcher", NULL, -1, tm_methods,
                                        NULL, NULL, NULL, NULL}};

PyMODINIT_FUNC PyInit___triton_musa_launcher(void) {{ return PyModule_Create(&tm_module); }}
'''


def sdk_build_dirs() -> Tuple[List[str], List[str]]:
    """(include dirs, library dirs) of the MUSA SDK, ours first."""
    home = musa_home()
    return [str(INCLUDE_DIR), str(home / "include")], [str(home / "lib"), str(home / "lib64")]


def require_sdk_headers(what: str) -> None:
    if not (musa_home() / "include" / "musa.h").exists():
        raise RuntimeError(f"{what} needs the MUSA SDK's musa.h, not found under {musa_home()}/include; "
                           "install the MUSA SDK or set MUSA_HOME")


def build_launcher(src: str, *, declarations_only: bool = False, library_dirs: Optional[List[str]] = None,
                   libraries: Optional[List[str]] = None) -> Any:
    """Compiles (or finds in Triton's cache) the launcher extension for ``src``.

    ``declarations_only`` compiles against our declarations header instead of the SDK's musa.h (tests,
    machines without the SDK); the result must then be linked against a stand-in for libmusa."""
    from triton.runtime.build import compile_module_from_src
    include_dirs, sdk_lib_dirs = sdk_build_dirs()
    if not declarations_only:
        require_sdk_headers("launching MUSA kernels")
    return compile_module_from_src(src=src, name="__triton_musa_launcher", include_dirs=include_dirs,
                                   library_dirs=sdk_lib_dirs if library_dirs is None else library_dirs,
                                   libraries=["musa"] if libraries is None else libraries,
                                   ccflags=["-DTRITON_MUSA_DECLARATIONS_ONLY"] if declarations_only else [])


class MusaLauncher:
    """``CompiledKernel``'s launcher on a MUSA device: Triton calls it as
    ``launcher(gx, gy, gz, stream, function, packed_metadata, launch_metadata, enter_hook, exit_hook, *args)``."""

    def __init__(self, src: Any, metadata: Any, **build_options: Any) -> None:
        signature = dict(getattr(src, "signature", {}) or {})
        self.arg_types: List[str] = [str(t) for t in signature.values()]
        self.arg_names: List[str] = list(signature)
        self.kernel_name: str = getattr(metadata, "name", "kernel")
        params = expand_signature(list(signature), self.arg_types, getattr(metadata, "tensordesc_meta", None))
        self.needs_expansion = any(t.startswith("tensordesc") or t in ("fp16", "bf16") for t in self.arg_types)
        # Positions (among all arguments) of the descriptors the host encodes.
        meta = list(getattr(metadata, "tensordesc_meta", None) or [])
        desc_positions = [i for i, t in enumerate(self.arg_types) if t.startswith("tensordesc")]
        self.encoded_descriptors = [i for i, m in zip(desc_positions, meta) if m is not None]
        self.threads = int(metadata.num_warps) * int(metadata.warp_size)
        self.shared = int(metadata.shared)
        self.source = make_launcher_source(self.kernel_name, params)
        self.launch = build_launcher(self.source, **build_options).launch

    def __call__(self, grid_x: int, grid_y: int, grid_z: int, stream: Any, function: Any, packed_metadata: Any,
                 launch_metadata: Any, launch_enter_hook: Any, launch_exit_hook: Any, *args: Any) -> None:
        for i in self.encoded_descriptors:
            if getattr(args[i], "padding", "zero") != "zero":
                raise ValueError(f"kernel {self.kernel_name!r}: argument {i} is a TensorDescriptor with padding "
                                 f"{args[i].padding!r}; MUSA TME descriptors pad out-of-bounds reads with zero only")
        if self.needs_expansion:
            args = tuple(expand_arguments(self.arg_types, args, self.arg_names))
        self.launch(grid_x, grid_y, grid_z, stream, function, self.threads, self.shared, launch_metadata,
                    launch_enter_hook, launch_exit_hook, *args)
