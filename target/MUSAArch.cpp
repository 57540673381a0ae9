//===- MUSAArch.cpp - The table of MUSA architectures ---------------------===//
//
// Facts from MUSA-FACTS.md. mp_21 (QY1) is not in the table: its shared
// memory per block is not public, so it is refused with the list of the
// supported architectures rather than compiled against a guess.
//
//===----------------------------------------------------------------------===//

#include "target/MUSAArch.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::triton_musa;

static constexpr MUSAArchInfo kArchs[] = {
    // name    codename major minor warp smem    ballot unit
    {"mp_22", "QY2", 2, 2, 128, 73728, 128, musagpu::MatrixUnitKind::WMMA,
     /*hasBF16=*/true, /*hasFP8=*/false, /*hasTME=*/false},
    {"mp_31", "PH1", 3, 1, 32, 196608, 32, musagpu::MatrixUnitKind::SQMMA,
     /*hasBF16=*/true, /*hasFP8=*/true, /*hasTME=*/true},
};

ArrayRef<MUSAArchInfo> mlir::triton_musa::getMUSAArchs() { return kArchs; }

const MUSAArchInfo *mlir::triton_musa::lookupMUSAArch(StringRef name) {
  for (const MUSAArchInfo &arch : kArchs)
    if (arch.name == name)
      return &arch;
  return nullptr;
}

std::string mlir::triton_musa::getMUSAArchNames() {
  std::string names;
  for (const MUSAArchInfo &arch : kArchs)
    names += (names.empty() ? "" : ", ") + arch.name.str();
  return names;
}

FailureOr<const MUSAArchInfo *>
mlir::triton_musa::resolveOptionalMUSAArch(ModuleOp module,
                                           StringRef archOverride,
                                           StringRef passFlag) {
  StringRef name = archOverride;
  if (name.empty()) {
    auto target = module->getAttrOfType<StringAttr>(kTargetAttrName);
    if (!target)
      return static_cast<const MUSAArchInfo *>(nullptr);
    StringRef value = target.getValue();
    if (!value.consume_front("musa:"))
      return module.emitError()
             << passFlag << ": \"" << kTargetAttrName << "\" = \""
             << target.getValue()
             << "\" is not a MUSA target (\"musa:<arch>\")";
    name = value;
  }
  if (const MUSAArchInfo *arch = lookupMUSAArch(name))
    return arch;
  return module.emitError() << passFlag << ": unknown MUSA architecture '"
                            << name << "'; supported: " << getMUSAArchNames();
}

FailureOr<const MUSAArchInfo *>
mlir::triton_musa::resolveMUSAArch(ModuleOp module, StringRef archOverride,
                                   StringRef passFlag) {
  FailureOr<const MUSAArchInfo *> arch =
      resolveOptionalMUSAArch(module, archOverride, passFlag);
  if (failed(arch) || *arch)
    return arch;
  return module.emitError()
         << passFlag << ": the module has no \"" << kTargetAttrName
         << "\" attribute and no arch= option was given; supported: "
         << getMUSAArchNames();
}
