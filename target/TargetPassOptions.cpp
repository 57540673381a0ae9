//===- TargetPassOptions.cpp - The `target=` pass option --------*- C++ -*-===//

#include "target/TargetPassOptions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir::triton_musa;

namespace {
struct TargetKindName {
  TargetKind kind;
  llvm::StringLiteral name;
};
/// The one list of `target=` spellings.
constexpr TargetKindName kTargetKindNames[] = {
    {TargetKind::Device, "musa"},
    {TargetKind::Emulator, "emulator"},
    {TargetKind::Proxy, "proxy"},
};
} // namespace

llvm::StringRef mlir::triton_musa::getTargetKindName(TargetKind kind) {
  for (const TargetKindName &entry : kTargetKindNames)
    if (entry.kind == kind)
      return entry.name;
  llvm_unreachable("TargetKind without a name");
}

std::optional<TargetKind>
mlir::triton_musa::parseTargetKind(llvm::StringRef name) {
  for (const TargetKindName &entry : kTargetKindNames)
    if (entry.name == name)
      return entry.kind;
  return std::nullopt;
}

namespace llvm::cl {

bool parser<TargetKind>::parse(Option &option, StringRef, StringRef arg,
                               TargetKind &value) {
  if (std::optional<TargetKind> kind = parseTargetKind(arg)) {
    value = *kind;
    return false;
  }
  // "'musa', 'emulator' or 'proxy'", from the table.
  std::string legal;
  for (auto [i, entry] : llvm::enumerate(kTargetKindNames)) {
    if (i != 0)
      legal += i + 1 == std::size(kTargetKindNames) ? " or " : ", ";
    legal += ("'" + entry.name + "'").str();
  }
  return option.error("unknown target '" + arg + "'; expected " + legal);
}

void parser<TargetKind>::printOptionDiff(const Option &option,
                                         TargetKind value,
                                         const OptionValue<TargetKind> &def,
                                         size_t globalWidth) const {
  printOptionName(option, globalWidth);
  outs() << "= " << getTargetKindName(value);
  if (def.hasValue())
    outs() << " (default: " << getTargetKindName(def.getValue()) << ")";
  outs() << "\n";
}

void parser<TargetKind>::print(raw_ostream &os, TargetKind value) {
  os << getTargetKindName(value);
}

void parser<TargetKind>::anchor() {}

} // namespace llvm::cl
