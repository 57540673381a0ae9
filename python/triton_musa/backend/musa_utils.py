"""``driver.utils`` on a MUSA device: ``load_binary`` (``muModuleLoadData``) and
``get_device_properties`` (``muDeviceGetAttribute``), as a small C extension
built once against the MUSA driver API (see ``launcher.build_launcher``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Optional, Tuple

from .driver_utils import DeviceProperties, RefusesCudaOnlyUtils
from .descriptor_record import FillsDescriptorRecords
from .launcher import INCLUDE_DIR, sdk_build_dirs

SOURCE = r'''/* triton-musa device utilities. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include "triton_musa_driver.h"

static int tm_check(MUresult rc, const char *what) {
  if (rc == MUSA_SUCCESS) return 1;
  const char *msg = NULL;
  if (muGetErrorString(rc, &msg) != MUSA_SUCCESS || msg == NULL) msg = "unknown error";
  PyErr_Format(PyExc_RuntimeError, "triton-musa: %s failed: %s (MUSA error %d)", what, msg, (int)rc);
  return 0;
}

/* Makes the device's primary context current when no context is. */
static int tm_ensure_context(int device) {
  MUcontext ctx = NULL;
  if (!tm_check(muCtxGetCurrent(&ctx), "muCtxGetCurrent")) return 0;
  if (ctx != NULL) return 1;
  MUdevice dev;
  if (!tm_check(muDeviceGet(&dev, device), "muDeviceGet")) return 0;
  if (!tm_check(muDevicePrimaryCtxRetain(&ctx, dev), "muDevicePrimaryCtxRetain")) return 0;
  return tm_check(muCtxSetCurrent(ctx), "muCtxSetCurrent");
}

/* load_binary(name, mubin, shared, device) -> (module, function, n_regs, n_spills, max_threads, static_shared),
   all but the handles read from the loaded function. Kernels that need more shared memory than the static limit
   opt in to the larger dynamic limit; a kernel whose static and dynamic shared memory together exceed the
   opt-in limit is refused here rather than at its first launch. */
static PyObject *load_binary(PyObject *self, PyObject *args) {
  (void)self;
  const char *name = NULL, *data = NULL;
  Py_ssize_t size = 0;
  int shared = 0, device = 0;
  if (!PyArg_ParseTuple(args, "ss#ii", &name, &data, &size, &shared, &device)) return NULL;
  MUmodule mod = NULL;
  MUfunction fun = NULL;
  int n_regs = 0, n_spills = 0, max_threads = 0, static_used = 0;
  int ok = 1;
  Py_BEGIN_ALLOW_THREADS;
  ok = tm_ensure_context(device);
  Py_END_ALLOW_THREADS;
  if (!ok) return NULL;
  if (!tm_check(muModuleLoadData(&mod, data), "muModuleLoadData")) return NULL;
  if (!tm_check(muModuleGetFunction(&fun, mod, name), "muModuleGetFunction")) return NULL;
  if (!tm_check(muFuncGetAttribute(&n_regs, MU_FUNC_ATTRIBUTE_NUM_REGS, fun), "muFuncGetAttribute(NUM_REGS)") ||
      !tm_check(muFuncGetAttribute(&n_spills, MU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, fun),
                "muFuncGetAttribute(LOCAL_SIZE_BYTES)") ||
      !tm_check(muFuncGetAttribute(&max_threads, MU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fun),
                "muFuncGetAttribute(MAX_THREADS_PER_BLOCK)") ||
      !tm_check(muFuncGetAttribute(&static_used, MU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fun),
                "muFuncGetAttribute(SHARED_SIZE_BYTES)"))
    return NULL;
  n_spills /= 4; /* bytes of local memory -> 32-bit spill slots, as Triton reports them */
  int static_limit = 0, optin_limit = 0;
  if (!tm_check(muDeviceGetAttribute(&static_limit, MU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, device),
                "muDeviceGetAttribute(MAX_SHARED_MEMORY_PER_BLOCK)"))
    return NULL;
  if (shared + static_used > static_limit) {
    if (!tm_check(muDeviceGetAttribute(&optin_limit, MU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, device),
                  "muDeviceGetAttribute(MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)"))
      return NULL;
    if (shared + static_used > optin_limit) {
      PyErr_Format(PyExc_RuntimeError, "triton-musa: kernel %s needs %d bytes of shared memory (%d static in the "
                   "mubin, %d dynamic) but device %d allows at most %d per block", name, shared + static_used,
                   static_used, shared, device, optin_limit);
      return NULL;
    }
    if (!tm_check(muFuncSetAttribute(fun, MU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, shared),
                  "muFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)"))
      return NULL;
  }
  return Py_BuildValue("(KKiiii)", (unsigned long long)(uintptr_t)mod, (unsigned long long)(uintptr_t)fun, n_regs,
                       n_spills, max_threads, static_used);
}

static PyObject *get_device_properties(PyObject *self, PyObject *args) {
  (void)self;
  int device = 0;
  if (!PyArg_ParseTuple(args, "i", &device)) return NULL;
  struct { const char *key; MUdevice_attribute attr; } attrs[] = {
    {"max_shared_mem", MU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN},
    {"multiprocessor_count", MU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT},
    {"max_num_regs", MU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK},
    {"warpSize", MU_DEVICE_ATTRIBUTE_WARP_SIZE},
    {"sm_clock_rate", MU_DEVICE_ATTRIBUTE_CLOCK_RATE},
    {"mem_clock_rate", MU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE},
    {"mem_bus_width", MU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH},
    {"l2_cache_size", MU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE},
  };
  PyObject *out = PyDict_New();
  if (out == NULL) return NULL;
  for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); ++i) {
    int value = 0;
    if (!tm_check(muDeviceGetAttribute(&value, attrs[i].attr, device), attrs[i].key)) { Py_DECREF(out); return NULL; }
    PyObject *v = PyLong_FromLong(value);
    if (v == NULL || PyDict_SetItemString(out, attrs[i].key, v) != 0) { Py_XDECREF(v); Py_DECREF(out); return NULL; }
    Py_DECREF(v);
  }
  return out;
}

static PyMethodDef tm_methods[] = {
  {"load_binary", load_binary, METH_VARARGS, "Load a mubin and return its kernel."},
  {"get_device_properties", get_device_properties, METH_VARARGS, "Device attributes Triton asks for."},
  {NULL, NULL, 0, NULL}
};

static struct PyModuleDef tm_module = {PyModuleDef_HEAD_INIT, "musa_utils", NULL, -1, tm_methods,
                                       NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit_musa_utils(void) { return PyModule_Create(&tm_module); }
'''


def build_utils(*, declarations_only: bool = False, library_dirs: Any = None, libraries: Any = None) -> Any:
    from triton.runtime.build import compile_module_from_src
    from .launcher import require_sdk_headers
    if not declarations_only:
        require_sdk_headers("loading MUSA kernels")
    include_dirs, sdk_lib_dirs = sdk_build_dirs()
    return compile_module_from_src(src=SOURCE, name="musa_utils", include_dirs=include_dirs,
                                   library_dirs=sdk_lib_dirs if library_dirs is None else library_dirs,
                                   libraries=["musa"] if libraries is None else libraries,
                                   ccflags=["-DTRITON_MUSA_DECLARATIONS_ONLY"] if declarations_only else [])


@dataclass(frozen=True)
class LoadedFunction:
    """What the MUSA driver reports of a loaded kernel (``muFuncGetAttribute``): its registers per thread,
    spill slots (local memory bytes / 4, as Triton counts them), the most threads per block it may run and its
    static shared memory (in the mubin, beside the dynamic ``metadata.shared`` passed at launch)."""
    n_regs: int
    n_spills: int
    max_threads: int
    static_shared: int


def torch_musa_module() -> Any:
    """``torch.musa``, which importing ``torch_musa`` installs (a MUSA machine's torch)."""
    import torch
    import torch_musa  # noqa: F401
    return torch.musa


class MusaUtils(FillsDescriptorRecords, RefusesCudaOnlyUtils):
    """Built on first use, so a driver object costs nothing until a kernel is loaded."""

    def __init__(self, **build_options: Any) -> None:
        self._build_options = build_options
        self._mod: Any = None
        self._properties: Dict[int, Dict[str, Any]] = {}
        self._loaded: Dict[int, LoadedFunction] = {}

    def _module(self) -> Any:
        if self._mod is None:
            self._mod = build_utils(**self._build_options)
        return self._mod

    def load_binary(self, name: str, kernel: bytes, shared: int, device: int) -> Tuple[Any, Any, int, int, int]:
        module, function, n_regs, n_spills, max_threads, static_shared = self._module().load_binary(
            name, kernel, shared, device)
        self._loaded[function] = LoadedFunction(n_regs, n_spills, max_threads, static_shared)
        return module, function, n_regs, n_spills, max_threads

    def loaded_function(self, function: int) -> LoadedFunction:
        """The driver's attributes of ``function``, a ``CompiledKernel.function`` this object loaded."""
        try:
            return self._loaded[function]
        except KeyError:
            raise KeyError(f"function handle {function:#x} was not loaded by this driver's load_binary") from None

    def get_device_properties(self, device: Optional[int]) -> Dict[str, Any]:
        """``muDeviceGetAttribute`` of ``device`` (None: the current device, as ``torch.device("musa").index``)."""
        if device is None:
            device = int(torch_musa_module().current_device())
        if device not in self._properties:
            self._properties[device] = DeviceProperties(dict(self._module().get_device_properties(device)),
                                                        f"MUSA device {device}")
        return self._properties[device]

    def set_printf_fifo_size(self, size_bytes: int) -> None:
        raise NotImplementedError("triton-musa: set_printf_fifo_size is not supported on MUSA devices yet (the "
                                  "printf buffer limit of the MUSA driver is not wired up); device printf uses "
                                  "the driver's default buffer")


__all__ = ["LoadedFunction", "MusaUtils", "SOURCE", "build_utils", "INCLUDE_DIR", "torch_musa_module"]
