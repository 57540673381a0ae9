/* triton_musa._musa_mlir: the module is built into the bindings' aggregate
 * library (libTritonMUSAPythonCAPI.so, bindings/python/CMakeLists.txt) so that
 * it shares the one MLIR of `triton_musa.mlir`; this file is its entry point. */
#include <Python.h>

PyObject *mlirTritonMUSAPythonModuleInit(void);

PyMODINIT_FUNC PyInit__musa_mlir(void) {
  return mlirTritonMUSAPythonModuleInit();
}
