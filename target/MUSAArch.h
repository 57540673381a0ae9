//===- MUSAArch.h - The table of MUSA architectures -------------*- C++ -*-===//
//
// Every fact the compiler knows about a MUSA architecture lives in one row of
// the table in MUSAArch.cpp; passes, the target interface, the LLVM IR export
// and Python (through the extension module) all read it from there. A module
// names its architecture in `ttg.target = "musa:<arch>"`.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_TARGET_MUSAARCH_H
#define TRITON_MUSA_TARGET_MUSAARCH_H

#include "catalogue/MatrixInstrs.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir::triton_musa {

/// One MUSA GPU architecture.
struct MUSAArchInfo {
  /// As in `ttg.target = "musa:<name>"`, e.g. "mp_31".
  StringRef name;
  /// The vendor's codename, e.g. "PH1".
  StringRef codename;
  /// Compute capability, e.g. 3.1 for mp_31.
  unsigned major, minor;
  /// Threads per warp.
  unsigned warpSize;
  /// Static shared memory per block, in bytes.
  unsigned maxSharedMemoryBytes;
  /// Bits of a warp vote (`llvm.musa.vote.ballot.sync`) result.
  unsigned ballotBits;
  /// The matrix unit `tl.dot` prefers (none: dots run on FMA). mp_31's
  /// dots that SQMMA cannot take go to its WMMA (--musa-accelerate-matmul).
  std::optional<musagpu::MatrixUnitKind> matrixUnit;
  /// Native bf16 arithmetic and conversions.
  bool hasBF16;
  /// fp8 e4m3/e5m2 conversions (and fp8 matrix operands).
  bool hasFP8;
  /// The tensor memory engine and async barriers.
  bool hasTME;
};

/// Every supported architecture, oldest first.
ArrayRef<MUSAArchInfo> getMUSAArchs();

/// The architecture named `name` ("mp_31"), or null.
const MUSAArchInfo *lookupMUSAArch(StringRef name);

/// "mp_22, mp_31": the supported names, for error messages.
std::string getMUSAArchNames();

/// The module attribute naming the target, e.g. "musa:mp_31".
constexpr StringLiteral kTargetAttrName = "ttg.target";

/// The architecture a pass compiles `module` for: `archOverride` when given
/// (a pass's `arch=` option), else the module's `ttg.target`. Reports an
/// error on the module (prefixed with `passFlag`) and fails when neither
/// names a supported MUSA architecture.
FailureOr<const MUSAArchInfo *> resolveMUSAArch(ModuleOp module,
                                                StringRef archOverride,
                                                StringRef passFlag);

/// resolveMUSAArch for a step that can do without an architecture: null
/// when neither `archOverride` nor a `ttg.target` names one; the same
/// errors for a non-MUSA target or an unknown architecture.
FailureOr<const MUSAArchInfo *> resolveOptionalMUSAArch(ModuleOp module,
                                                        StringRef archOverride,
                                                        StringRef passFlag);

} // namespace mlir::triton_musa

#endif // TRITON_MUSA_TARGET_MUSAARCH_H
