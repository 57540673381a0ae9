//===- InitAll.h - Everything musa-opt and the Python module register ----===//
//
// One registration point shared by `musa-opt` and `triton_musa._musa_mlir`, so
// that every stage the Python backend runs can be replayed with the opt tool.
//
//===----------------------------------------------------------------------===//
#ifndef TRITON_MUSA_REGISTRATION_INITALL_H
#define TRITON_MUSA_REGISTRATION_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::triton_musa {

/// Adds the dialects that TTIR/TTGIR/MUSA IR may contain to `registry`.
void registerAllDialects(DialectRegistry &registry);

/// Registers our passes and the upstream passes our pipelines use, so that
/// pipeline strings parse in both the opt tool and the Python module.
void registerAllPasses();

} // namespace mlir::triton_musa

#endif // TRITON_MUSA_REGISTRATION_INITALL_H
