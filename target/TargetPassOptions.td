//===- TargetPassOptions.td - Pass options naming the target -*- tablegen -*-===//
//
// The one declaration of the `arch=` option that every MUSA pass takes.
// Empty (the default) means the module's `ttg.target = "musa:<arch>"`
// decides; a name overrides it. The table in MUSAArch.cpp lists the names.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_TARGET_PASS_OPTIONS_TD
#define TRITON_MUSA_TARGET_PASS_OPTIONS_TD

include "mlir/Pass/PassBase.td"

defvar MUSAArchOption = Option<"arch", "arch", "std::string", "\"\"",
    "MUSA architecture to compile for (e.g. mp_31, mp_22); default: the "
    "module's ttg.target">;

#endif // TRITON_MUSA_TARGET_PASS_OPTIONS_TD
