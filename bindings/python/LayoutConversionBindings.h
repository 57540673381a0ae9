//===- LayoutConversionBindings.h - Python face of layouts ------*- C++ -*-===//
//
// Exposes mlir::triton_musa::toLinearLayout to Python as
// `_musa_mlir.layout_to_linear` and `_musa_mlir.type_to_linear`.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_BINDINGS_PYTHON_LAYOUTCONVERSIONBINDINGS_H
#define TRITON_MUSA_BINDINGS_PYTHON_LAYOUTCONVERSIONBINDINGS_H

#include <nanobind/nanobind.h>

/// Adds `layout_to_linear(layout: str, shape: list[int]) -> LinearLayout` and
/// `type_to_linear(type: str) -> LinearLayout` to `m` (which must already
/// bind LinearLayout). Parse errors and unsupported layouts raise ValueError
/// carrying the diagnostics.
void bindLayoutConversion(nanobind::module_ &m);

#endif // TRITON_MUSA_BINDINGS_PYTHON_LAYOUTCONVERSIONBINDINGS_H
