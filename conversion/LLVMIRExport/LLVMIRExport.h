//===- LLVMIRExport.h - LLVM-dialect module -> MUSA LLVM IR text --------===//
//
// The `llir` stage: translates a module in the MLIR LLVM dialect into LLVM IR
// text for triple `mtgpu-mt-musa` that the MUSA SDK's LLVM 14 based `llc`
// accepts (with --opaque-pointers).
//
// Steps: translate (mlir::translateModuleToLLVMIR), set triple and data
// layout, turn kernel markers into the MUSA calling convention and
// `!musa.annotations`, give `llvm.musa.*` declarations their attributes, link
// libdevice (only the needed functions, then internalize), optimize at
// O<optLevel> with the new pass manager, strip debug info and, unless
// disabled, rewrite the module for LLVM 14 (LLVM14Compat.h).
//
// How the conversion marks kernels (the only contract with
// --convert-tritongpu-to-musa): put on each kernel `llvm.func`
//
//   llvm.func @k(...) attributes {musa.kernel, musa.maxntidx = 128 : i32}
//
// `musa.kernel` (unit attribute) makes the function a kernel: calling
// convention 102 (`mtgpu_kernel`, printed `cc102`; MLIR's CConv enum has no
// spelling for it), external linkage, and `!{ptr @k, !"kernel", i32 1}` in
// `!musa.annotations`. `musa.maxntidx` (integer; num_warps * warp_size) adds
// `!{ptr @k, !"maxntidx", i32 N}`. `musa.grid_constant` (unit, on a
// kernel argument) adds `!{ptr @k, !"grid_constant", !{i32 i + 1}}` (the
// 1-based parameter numbers, as NVVM spells grid constants; inferred for
// MUSA). Everything else about the function (its arguments, `llvm.musa.*`
// calls) is plain LLVM dialect.
//
// `llvm.musa.*` declarations need no attributes from the conversion: each
// must be one the intrinsic table (target/MUSAIntrinsics.h) gives, with its
// type, for the module's architecture (`ttg.target`, or any architecture of
// the table when the module names none); another is an error at the
// declaration. The export gives each the attributes of its entry
// (declaration and call sites): nounwind, plus memory(none) + willreturn for
// `ReadNone` entries, `convergent` for the others.
//
//===----------------------------------------------------------------------===//
#ifndef TRITON_MUSA_CONVERSION_LLVMIREXPORT_LLVMIREXPORT_H
#define TRITON_MUSA_CONVERSION_LLVMIREXPORT_LLVMIREXPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
class TargetMachine;
} // namespace llvm

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::triton_musa {

/// Unit attribute on an `llvm.func` that makes it a MUSA kernel.
inline constexpr llvm::StringLiteral kKernelAttrName = "musa.kernel";
/// Integer attribute on a kernel: the maximum threads per block.
inline constexpr llvm::StringLiteral kMaxNTidXAttrName = "musa.maxntidx";
/// Unit attribute on a kernel argument: a grid-constant parameter (the
/// `byval` TME descriptor), `!{ptr @k, !"grid_constant", !{i32 i + 1}}`.
inline constexpr llvm::StringLiteral kGridConstantAttrName =
    "musa.grid_constant";

/// LLVM target facts for MUSA GPUs (MUSA-FACTS.md, "LLVM target").
inline constexpr llvm::StringLiteral kMUSATriple = "mtgpu-mt-musa";
inline constexpr llvm::StringLiteral kMUSADataLayout =
    "e-p:64:64:64:64-p1:64:64:64:64-p2:64:64:64:64-p3:32:32-p4:32:32-p5:64:64-"
    "i64:64-v16:16-v24:32-v32:32-v48:64-v96:128";
/// The `mtgpu_kernel` calling convention.
inline constexpr unsigned kMUSAKernelCallingConv = 102;

struct ExportOptions {
  /// Overrides the module's `ttg.target` ("musa:<arch>"), e.g. "mp_31":
  /// musa-translate's --musa-arch for hand-written modules.
  std::string arch;
  /// 0..3: the default new-pass-manager pipeline O<optLevel>.
  unsigned optLevel = 3;
  /// libdevice bitcode to link; an empty value links nothing, a path that
  /// does not exist is an error.
  std::optional<std::string> libdevicePath;
  /// Rewrite the module so that LLVM 14's parser accepts its text.
  bool llvm14Compatible = true;
};

/// Adds the MLIR -> LLVM IR translation interfaces the export needs.
void registerLLVMIRExportTranslations(DialectRegistry &registry);

// Steps shared by the MUSA export and the NVPTX (GPU proxy) export; their
// failures are also emitted as MLIR errors at `loc`.

/// Fails (reporting at `loc`) unless `optLevel` is in 0..3.
llvm::Error checkOptLevel(unsigned optLevel, Location loc);

/// `module` (LLVM dialect) as a new llvm::Module in `llvmContext`, the
/// translation interfaces registered first.
llvm::Expected<std::unique_ptr<llvm::Module>>
translateToLLVMModule(ModuleOp module, llvm::LLVMContext &llvmContext);

/// Fails (reporting at `loc`, with the verifier's reason) if `module` is not
/// valid LLVM IR.
llvm::Error verifyLLVMModule(llvm::Module &module, Location loc);

/// Runs LLVM's default O<optLevel> pipeline (optLevel in 0..3) with the
/// analyses and callbacks of `machine` (the defaults without one). The
/// library is switched off because a GPU has no libc to call (LLVM would
/// otherwise form memset, sqrtf, puts ... calls).
void optimizeLLVMModule(llvm::Module &module, unsigned optLevel,
                        llvm::TargetMachine *machine = nullptr);

/// Translates and prepares `module` (steps in the file comment) into a new
/// llvm::Module in `llvmContext`. Errors from MLIR are also emitted as
/// diagnostics on the module's context.
llvm::Expected<std::unique_ptr<llvm::Module>>
translateToMUSALLVMModule(ModuleOp module, llvm::LLVMContext &llvmContext,
                          const ExportOptions &options);

/// The libdevice bitcode at `path`, parsed in `context`; a missing or
/// unreadable file is reported at `loc`.
llvm::Expected<std::unique_ptr<llvm::Module>>
readLibdevice(llvm::LLVMContext &context, llvm::StringRef path, Location loc);

/// Links the functions of `lib` (libdevice read from `path`) that `module`
/// needs, internalized, so that the rest of the library is dropped.
llvm::Error linkNeededLibdeviceFunctions(llvm::Module &module,
                                         std::unique_ptr<llvm::Module> lib,
                                         llvm::StringRef path, Location loc);

/// translateToMUSALLVMModule, printed as LLVM IR text.
llvm::Expected<std::string> translateToMUSALLVMIR(ModuleOp module,
                                                  const ExportOptions &options);

} // namespace mlir::triton_musa

#endif // TRITON_MUSA_CONVERSION_LLVMIREXPORT_LLVMIREXPORT_H
