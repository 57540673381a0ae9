//===- HostMath.h - MUSA libdevice functions for the CPU emulator -*- C++ -*-===//
//
// Host implementations of the MUSA libdevice functions (`__mt_*`, `__nv_*`,
// `llvm.musa.rsq`), bound by name in the emulator's JIT (see HostMath.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_EMULATOR_HOSTMATH_H
#define TRITON_MUSA_EMULATOR_HOSTMATH_H

#include <utility>
#include <vector>

namespace mlir::triton_musa::emulator {

/// Each symbol python/triton_musa/language/libdevice.py can emit with the
/// address of its host implementation.
std::vector<std::pair<const char *, void *>> hostMathSymbols();

} // namespace mlir::triton_musa::emulator

#endif // TRITON_MUSA_EMULATOR_HOSTMATH_H
