//===- LinearLayoutBindings.h - Python face of LinearLayout -----*- C++ -*-===//
//
// Exposes mlir::triton_musa::LinearLayout to Python as `_musa_mlir.LinearLayout`.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_BINDINGS_PYTHON_LINEARLAYOUTBINDINGS_H
#define TRITON_MUSA_BINDINGS_PYTHON_LINEARLAYOUTBINDINGS_H

#include <nanobind/nanobind.h>

/// Adds the `LinearLayout` class to `m`, and `wgmma_accumulator_layout(m, n)`
/// (layouts/HopperFragments.h). Errors the engine reports (bad sizes,
/// mismatched dimensions, non-invertible layouts) raise ValueError.
void bindLinearLayout(nanobind::module_ &m);

#endif // TRITON_MUSA_BINDINGS_PYTHON_LINEARLAYOUTBINDINGS_H
