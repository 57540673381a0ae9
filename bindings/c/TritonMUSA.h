//===- TritonMUSA.h - C API of triton-musa's dialects and passes ----------===//
//
// What MLIR's Python bindings (`triton_musa.mlir`) need from our library, in
// the MLIR C API convention. Everything named `mlir[A-Z]*` is what the
// aggregate library `libTritonMUSAPythonCAPI.so` exports (version script
// bindings/python/TritonMUSAPythonCAPI.map); every other symbol stays local.
//
//===----------------------------------------------------------------------===//
#ifndef TRITON_MUSA_BINDINGS_C_TRITONMUSA_H
#define TRITON_MUSA_BINDINGS_C_TRITONMUSA_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Adds tt, ttg, musagpu and the upstream dialects TTGIR and our lowering use
/// (registration/InitAll.h, the set musa-opt registers).
MLIR_CAPI_EXPORTED void
mlirTritonMUSARegisterAllDialects(MlirDialectRegistry registry);

/// Registers our passes, --convert-tritongpu-to-musa and the upstream passes
/// our pipelines use, so that `PassManager.parse` finds them. Idempotent.
MLIR_CAPI_EXPORTED void mlirTritonMUSARegisterAllPasses(void);

#ifdef __cplusplus
}
#endif

#endif // TRITON_MUSA_BINDINGS_C_TRITONMUSA_H
