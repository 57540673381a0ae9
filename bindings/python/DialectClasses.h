//===- DialectClasses.h - Python classes of tt/ttg attributes and types ---===//
#ifndef TRITON_MUSA_BINDINGS_PYTHON_DIALECTCLASSES_H
#define TRITON_MUSA_BINDINGS_PYTHON_DIALECTCLASSES_H

#include <nanobind/nanobind.h>

/// Adds `_register_dialect_classes(dialect, module)`, which defines the
/// Python classes of a dialect's attributes and types (subclasses of
/// `triton_musa.mlir.ir.Attribute`/`Type`) in `module`; the dialect modules
/// `triton_musa.mlir.dialects.tt`/`ttg` call it when they are imported.
void bindDialectClasses(nanobind::module_ &m);

#endif // TRITON_MUSA_BINDINGS_PYTHON_DIALECTCLASSES_H
