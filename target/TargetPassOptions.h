//===- TargetPassOptions.h - The `target=` pass option ----------*- C++ -*-===//
//
// TargetKind and its command-line parser, so that the `target=` option that
// TargetPassOptions.td declares is typed: `target=musa|emulator|proxy`, and
// any other name is rejected while the pipeline is parsed, with the legal
// names in the message.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_TARGET_TARGETPASSOPTIONS_H
#define TRITON_MUSA_TARGET_TARGETPASSOPTIONS_H

#include "catalogue/TargetKind.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"

#include <optional>

namespace mlir::triton_musa {

/// The `target=` spelling of `kind`: "musa", "emulator" or "proxy".
llvm::StringRef getTargetKindName(TargetKind kind);

/// The inverse of getTargetKindName; std::nullopt for any other name.
std::optional<TargetKind> parseTargetKind(llvm::StringRef name);

} // namespace mlir::triton_musa

namespace llvm::cl {

/// Parses a `target=` pass option value with parseTargetKind.
template <>
class parser<mlir::triton_musa::TargetKind>
    : public basic_parser<mlir::triton_musa::TargetKind> {
public:
  parser(Option &option) : basic_parser(option) {}

  /// Returns true (after reporting the legal names) on an unknown name.
  bool parse(Option &option, StringRef argName, StringRef arg,
             mlir::triton_musa::TargetKind &value);
  StringRef getValueName() const override { return "musa|emulator|proxy"; }
  void printOptionDiff(const Option &option, mlir::triton_musa::TargetKind value,
                       const OptionValue<mlir::triton_musa::TargetKind> &def,
                       size_t globalWidth) const;
  /// Prints the `target=` spelling (used when a pipeline is printed).
  static void print(raw_ostream &os, mlir::triton_musa::TargetKind value);

  void anchor() override;
};

} // namespace llvm::cl

#endif // TRITON_MUSA_TARGET_TARGETPASSOPTIONS_H
