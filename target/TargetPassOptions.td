//===- TargetPassOptions.td - Pass options naming the target -*- tablegen -*-===//
//
// The one declaration of the options that name the target: `arch=`, which
// every MUSA pass takes, and `target=`, which the passes whose output differs
// between the GPU, the CPU emulator and the GPU proxy take.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_TARGET_PASS_OPTIONS_TD
#define TRITON_MUSA_TARGET_PASS_OPTIONS_TD

include "mlir/Pass/PassBase.td"

// Empty (the default) means the module's `ttg.target = "musa:<arch>"`
// decides; a name overrides it. The table in MUSAArch.cpp lists the names.
defvar MUSAArchOption = Option<"arch", "arch", "std::string", "\"\"",
    "MUSA architecture to compile for (e.g. mp_31, mp_22); default: the "
    "module's ttg.target">;

// `target=musa|emulator|proxy`, parsed into a TargetKind by the parser in
// TargetPassOptions.h: any other name fails the pipeline parse with the legal
// names. `desc` says what each target means to the pass.
class MUSATargetOption<string desc>
    : Option<"target", "target", "::mlir::triton_musa::TargetKind",
             "::mlir::triton_musa::TargetKind::Device", desc>;

#endif // TRITON_MUSA_TARGET_PASS_OPTIONS_TD
