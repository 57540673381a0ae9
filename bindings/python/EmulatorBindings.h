//===- EmulatorBindings.h - Python face of the CPU emulator -----*- C++ -*-===//
//
// Exposes emulator/ to Python: `_musa_mlir.emulator_load(text)` JIT-compiles
// a kernel lowered with --convert-tritongpu-to-musa{target=emulator} into an
// `EmulatedKernel`, whose `launch` runs it on host memory. Errors raise
// `_musa_mlir.EmulatorError`.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_BINDINGS_PYTHON_EMULATORBINDINGS_H
#define TRITON_MUSA_BINDINGS_PYTHON_EMULATORBINDINGS_H

#include <nanobind/nanobind.h>

/// Adds `EmulatedKernel`, `emulator_load` and `EmulatorError` to `m`.
void bindEmulator(nanobind::module_ &m);

#endif // TRITON_MUSA_BINDINGS_PYTHON_EMULATORBINDINGS_H
