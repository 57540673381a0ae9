//===- LibdeviceNames.h - __mt_* libdevice names -> __nv_* ----*- C++ -*-===//
//
// The MUSA lowering calls the MUSA math library by its `__mt_*` names
// (python/triton_musa/language/libdevice.py, `math.erf`). On the GPU proxy
// the same functions come from NVIDIA's libdevice.10.bc. The rule:
// `__mt_<f>_f32` -> `__nv_<f>f`, `__mt_<f>_f64` -> `__nv_<f>`, an integer
// helper without suffix `__mt_<f>` -> `__nv_<f>`; the few names that differ
// (rounding-mode divisions, fast variants, isfinite, abs, ffs, pown, ncdf,
// saturate) are listed in LibdeviceNames.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef TRITON_MUSA_CONVERSION_NVPTXEXPORT_LIBDEVICENAMES_H
#define TRITON_MUSA_CONVERSION_NVPTXEXPORT_LIBDEVICENAMES_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir::triton_musa {

/// The libdevice.10.bc name of the MUSA libdevice function `mtName`
/// (`__mt_...`, or the intrinsic `llvm.musa.rsq` that libdevice.py's fp32
/// `rsqrt` calls), or nullopt when `mtName` is neither.
std::optional<std::string> getNVLibdeviceName(llvm::StringRef mtName);

} // namespace mlir::triton_musa

#endif // TRITON_MUSA_CONVERSION_NVPTXEXPORT_LIBDEVICENAMES_H
