//===- TemporaryLayoutConversion.h - Stand-in for LayoutConversion.h -*- C++ -*-===//
//
// TEMPORARY: blocked and slice layouts only, until layouts/LayoutConversion.h
// lands; same signature, so switching is a change of include and namespace.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_TEMPORARYLAYOUTCONVERSION_H
#define TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_TEMPORARYLAYOUTCONVERSION_H

#include "layouts/LinearLayout.h"

#include "mlir/IR/Attributes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/LogicalResult.h"

namespace triton_musa::temporary {

/// The linear layout (register, lane, warp, block) -> (dim0, ...) of a
/// tensor of `shape` with distributed layout `layout`.
llvm::FailureOr<LinearLayout>
toLinearLayout(llvm::ArrayRef<int64_t> shape, mlir::Attribute layout,
               llvm::function_ref<mlir::InFlightDiagnostic()> emitError);

} // namespace triton_musa::temporary

#endif
