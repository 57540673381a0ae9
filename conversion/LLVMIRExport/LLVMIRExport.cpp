//===- LLVMIRExport.cpp - LLVM-dialect module -> MUSA LLVM IR -------------===//
//
// Translation, MUSA kernel conventions, libdevice linking and optimization;
// the LLVM 14 rewrite lives in LLVM14Compat.cpp / LLVM14Print.cpp.
//
//===----------------------------------------------------------------------===//

#include "conversion/LLVMIRExport/LLVMIRExport.h"
#include "conversion/LLVMIRExport/LLVM14Compat.h"
#include "target/MUSAArch.h"
#include "target/MUSAIntrinsics.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/IPO/Internalize.h"

using namespace mlir;
using namespace mlir::triton_musa;

namespace {

/// Emits `message` as an MLIR error at `loc` (so that tools and the Python
/// module report it like every other diagnostic) and returns it as an error.
llvm::Error emitFailure(Location loc, const llvm::Twine &message) {
  emitError(loc) << message;
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 message.str());
}

/// What the conversion asked for on one kernel `llvm.func`.
struct KernelMarker {
  std::string name;
  std::optional<uint32_t> maxNTidX;
  /// 0-based numbers of the grid-constant parameters.
  SmallVector<unsigned> gridConstants;
};

/// Reads the `musa.kernel` / `musa.maxntidx` attributes (LLVMIRExport.h).
llvm::Expected<SmallVector<KernelMarker>> collectKernels(ModuleOp module) {
  SmallVector<KernelMarker> kernels;
  std::optional<llvm::Error> error;
  module.walk([&](LLVM::LLVMFuncOp func) {
    Attribute kernelAttr = func->getAttr(kKernelAttrName);
    Attribute maxAttr = func->getAttr(kMaxNTidXAttrName);
    if (!kernelAttr && !maxAttr)
      return WalkResult::advance();
    auto fail = [&](const llvm::Twine &message) {
      error = emitFailure(func.getLoc(), message);
      return WalkResult::interrupt();
    };
    if (!kernelAttr)
      return fail(llvm::Twine("'") + kMaxNTidXAttrName + "' on '" +
                  func.getName() + "', which is not marked '" +
                  kKernelAttrName + "'");
    if (!isa<UnitAttr>(kernelAttr))
      return fail(llvm::Twine("'") + kKernelAttrName +
                  "' must be a unit attribute");
    if (func.isExternal())
      return fail("kernel '" + func.getName() + "' has no body");
    KernelMarker marker{func.getName().str(), std::nullopt, {}};
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
      if (Attribute attr = func.getArgAttr(i, kGridConstantAttrName)) {
        if (!isa<UnitAttr>(attr))
          return fail(llvm::Twine("'") + kGridConstantAttrName +
                      "' must be a unit attribute");
        marker.gridConstants.push_back(i);
      }
    if (maxAttr) {
      auto intAttr = dyn_cast<IntegerAttr>(maxAttr);
      if (!intAttr || intAttr.getValue().isNegative() ||
          intAttr.getValue().getActiveBits() > 32 || intAttr.getInt() == 0)
        return fail(llvm::Twine("'") + kMaxNTidXAttrName +
                    "' must be a positive 32-bit integer");
      marker.maxNTidX = static_cast<uint32_t>(intAttr.getInt());
    }
    kernels.push_back(std::move(marker));
    return WalkResult::advance();
  });
  if (error)
    return std::move(*error);
  return kernels;
}

/// Makes the marked functions MUSA kernels: calling convention 102 and
/// `!musa.annotations` entries.
void markKernels(llvm::Module &module, ArrayRef<KernelMarker> kernels) {
  llvm::LLVMContext &ctx = module.getContext();
  llvm::NamedMDNode *annotations =
      module.getOrInsertNamedMetadata("musa.annotations");
  auto addAnnotation = [&](llvm::Function *func, llvm::StringRef key,
                           uint32_t value) {
    llvm::Metadata *operands[] = {
        llvm::ValueAsMetadata::get(func), llvm::MDString::get(ctx, key),
        llvm::ConstantAsMetadata::get(
            llvm::ConstantInt::get(llvm::Type::getInt32Ty(ctx), value))};
    annotations->addOperand(llvm::MDNode::get(ctx, operands));
  };
  for (const KernelMarker &kernel : kernels) {
    llvm::Function *func = module.getFunction(kernel.name);
    func->setCallingConv(kMUSAKernelCallingConv);
    // The driver looks kernels up by name; keep them visible and whole.
    func->setLinkage(llvm::GlobalValue::ExternalLinkage);
    func->setVisibility(llvm::GlobalValue::DefaultVisibility);
    addAnnotation(func, "kernel", 1);
    if (kernel.maxNTidX)
      addAnnotation(func, "maxntidx", *kernel.maxNTidX);
    if (!kernel.gridConstants.empty()) {
      SmallVector<llvm::Metadata *> params;
      for (unsigned i : kernel.gridConstants)
        params.push_back(llvm::ConstantAsMetadata::get(
            llvm::ConstantInt::get(llvm::Type::getInt32Ty(ctx), i + 1)));
      llvm::Metadata *operands[] = {llvm::ValueAsMetadata::get(func),
                                    llvm::MDString::get(ctx, "grid_constant"),
                                    llvm::MDNode::get(ctx, params)};
      annotations->addOperand(llvm::MDNode::get(ctx, operands));
    }
  }
}

/// The table entry of every `llvm.musa.*` function of `module`, by name.
/// Each must be a declaration that the intrinsic table (MUSAIntrinsics.h)
/// gives with exactly its type on `arch`, or, without an architecture, on
/// one of the table's architectures; anything else is reported at the
/// function.
llvm::Expected<llvm::StringMap<const MUSAIntrinsicEntry *>>
checkMUSAIntrinsics(ModuleOp module, const MUSAArchInfo *arch) {
  llvm::StringMap<const MUSAIntrinsicEntry *> entries;
  ArrayRef<MUSAArchInfo> archs =
      arch ? ArrayRef<MUSAArchInfo>(*arch) : getMUSAArchs();
  std::optional<llvm::Error> error;
  module.walk([&](LLVM::LLVMFuncOp func) {
    StringRef name = func.getName();
    if (!name.starts_with("llvm.musa."))
      return WalkResult::advance();
    auto fail = [&](const llvm::Twine &message) {
      error = emitFailure(func.getLoc(), message);
      return WalkResult::interrupt();
    };
    if (!func.isExternal())
      return fail("'" + name + "' is defined in the module; llvm.musa.* "
                  "names are reserved for MUSA intrinsics");
    std::string why, expected;
    for (const MUSAArchInfo &candidate : archs) {
      FailureOr<MUSAIntrinsic> intrinsic =
          lookupMUSAIntrinsic(module.getContext(), name, candidate, why);
      if (failed(intrinsic))
        break; // The name is the same on every architecture.
      LLVM::LLVMFunctionType type =
          getFunctionType(module.getContext(), intrinsic->signature);
      if (type == func.getFunctionType()) {
        entries[name] = intrinsic->entry;
        return WalkResult::advance();
      }
      llvm::raw_string_ostream os(expected);
      os << (expected.empty() ? "" : " or ") << type << " (" << candidate.name
         << ")";
    }
    std::string actual;
    llvm::raw_string_ostream os(actual);
    os << func.getFunctionType();
    if (expected.empty())
      return fail("'" + name + "' is not a MUSA intrinsic we know: " + why);
    return fail("'" + name + "' is declared as " + actual +
                ", but the MUSA intrinsic table (target/MUSAIntrinsics.cpp) "
                "gives " +
                expected);
  });
  if (error)
    return std::move(*error);
  return entries;
}

/// Gives the `llvm.musa.*` declarations (and their calls) the attributes of
/// their table entries, which LLVM cannot know for unknown intrinsics: all
/// nounwind; `ReadNone` ones memory(none), willreturn and nosync (CSE'd and
/// hoisted at -O3; `readnone` in LLVM 14); the others `convergent`.
void annotateMUSAIntrinsics(
    llvm::Module &module,
    const llvm::StringMap<const MUSAIntrinsicEntry *> &entries) {
  for (llvm::Function &func : module) {
    auto it = entries.find(func.getName());
    if (it == entries.end())
      continue;
    func.addFnAttr(llvm::Attribute::NoUnwind);
    bool pure = it->second->kind == CalleeKind::ReadNone;
    if (pure) {
      func.setDoesNotAccessMemory();
      func.addFnAttr(llvm::Attribute::WillReturn);
      func.addFnAttr(llvm::Attribute::NoSync);
    } else {
      func.setConvergent();
    }
    // Call sites too: LLVM 14 passes look at either.
    for (llvm::User *user : func.users()) {
      auto *call = dyn_cast<llvm::CallBase>(user);
      if (!call || call->getCalledFunction() != &func)
        continue;
      call->addFnAttr(llvm::Attribute::NoUnwind);
      if (!pure)
        call->setConvergent();
    }
  }
}

/// Links the functions of `path` that `module` needs and internalizes them.
llvm::Error linkLibdevice(llvm::Module &module, llvm::StringRef path,
                          Location loc) {
  llvm::Expected<std::unique_ptr<llvm::Module>> lib =
      readLibdevice(module.getContext(), path, loc);
  if (!lib)
    return lib.takeError();
  return linkNeededLibdeviceFunctions(module, std::move(*lib), path, loc);
}

} // namespace

llvm::Expected<std::unique_ptr<llvm::Module>>
mlir::triton_musa::readLibdevice(llvm::LLVMContext &context,
                                 llvm::StringRef path, Location loc) {
  if (!llvm::sys::fs::exists(path))
    return emitFailure(loc, "libdevice '" + path + "' does not exist");
  llvm::SMDiagnostic diag;
  std::unique_ptr<llvm::Module> lib =
      llvm::parseIRFile(path, diag, context);
  if (!lib) {
    std::string text;
    llvm::raw_string_ostream os(text);
    diag.print("libdevice", os, /*ShowColors=*/false);
    return emitFailure(loc, "cannot read libdevice '" + path + "': " + text);
  }
  return lib;
}

llvm::Error mlir::triton_musa::linkNeededLibdeviceFunctions(
    llvm::Module &module, std::unique_ptr<llvm::Module> lib,
    llvm::StringRef path, Location loc) {
  // libdevice is built for the same target; agreeing on the strings keeps the
  // linker from warning about a mismatch.
  lib->setTargetTriple(module.getTargetTriple());
  lib->setDataLayout(module.getDataLayout());
  bool failed = llvm::Linker::linkModules(
      module, std::move(lib), llvm::Linker::Flags::LinkOnlyNeeded,
      [](llvm::Module &linked, const llvm::StringSet<> &fromLib) {
        llvm::internalizeModule(linked, [&](const llvm::GlobalValue &gv) {
          return !gv.hasName() || !fromLib.contains(gv.getName());
        });
      });
  if (failed)
    return emitFailure(loc, "linking libdevice '" + path + "' failed");
  return llvm::Error::success();
}

void mlir::triton_musa::registerLLVMIRExportTranslations(
    DialectRegistry &registry) {
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
}

llvm::Error mlir::triton_musa::checkOptLevel(unsigned optLevel, Location loc) {
  if (optLevel > 3)
    return emitFailure(loc, "optimization level " + llvm::Twine(optLevel) +
                                " is not in 0..3");
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<llvm::Module>>
mlir::triton_musa::translateToLLVMModule(ModuleOp module,
                                         llvm::LLVMContext &llvmContext) {
  DialectRegistry registry;
  registerLLVMIRExportTranslations(registry);
  module->getContext()->appendDialectRegistry(registry);
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext, "LLVMDialectModule");
  if (!llvmModule)
    return emitFailure(module.getLoc(),
                       "cannot translate the module to LLVM IR");
  return llvmModule;
}

llvm::Error mlir::triton_musa::verifyLLVMModule(llvm::Module &module,
                                                Location loc) {
  std::string brokenWhy;
  llvm::raw_string_ostream brokenStream(brokenWhy);
  if (llvm::verifyModule(module, &brokenStream))
    return emitFailure(loc, "invalid LLVM IR: " + brokenWhy);
  return llvm::Error::success();
}

void mlir::triton_musa::optimizeLLVMModule(llvm::Module &module,
                                           unsigned optLevel,
                                           llvm::TargetMachine *machine) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(machine);
  llvm::TargetLibraryInfoImpl tlii(module.getTargetTriple());
  tlii.disableAllFunctions();
  fam.registerPass([&] { return llvm::TargetLibraryAnalysis(tlii); });
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);

  llvm::OptimizationLevel level = llvm::OptimizationLevel::O3;
  if (optLevel == 1)
    level = llvm::OptimizationLevel::O1;
  else if (optLevel == 2)
    level = llvm::OptimizationLevel::O2;
  llvm::ModulePassManager mpm =
      optLevel == 0 ? pb.buildO0DefaultPipeline(llvm::OptimizationLevel::O0)
                    : pb.buildPerModuleDefaultPipeline(level);
  mpm.run(module, mam);
}

llvm::Expected<std::unique_ptr<llvm::Module>>
mlir::triton_musa::translateToMUSALLVMModule(ModuleOp module,
                                             llvm::LLVMContext &llvmContext,
                                             const ExportOptions &options) {
  Location loc = module.getLoc();
  // The IR is the same for every architecture (llc's -mcpu picks it) but
  // for the types of the WMMA intrinsics, which the architecture's warp
  // size decides.
  FailureOr<const MUSAArchInfo *> arch =
      resolveOptionalMUSAArch(module, options.arch, "--musa-to-llvmir");
  if (failed(arch))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the module names no MUSA architecture");
  if (llvm::Error error = checkOptLevel(options.optLevel, loc))
    return std::move(error);

  auto kernels = collectKernels(module);
  if (!kernels)
    return kernels.takeError();
  auto intrinsics = checkMUSAIntrinsics(module, *arch);
  if (!intrinsics)
    return intrinsics.takeError();

  auto translated = translateToLLVMModule(module, llvmContext);
  if (!translated)
    return translated.takeError();
  std::unique_ptr<llvm::Module> llvmModule = std::move(*translated);

  llvmModule->setTargetTriple(llvm::Triple(kMUSATriple));
  llvmModule->setDataLayout(kMUSADataLayout);
  markKernels(*llvmModule, *kernels);
  annotateMUSAIntrinsics(*llvmModule, *intrinsics);

  if (options.libdevicePath && !options.libdevicePath->empty())
    if (llvm::Error error =
            linkLibdevice(*llvmModule, *options.libdevicePath, loc))
      return std::move(error);

  if (llvm::Error error = verifyLLVMModule(*llvmModule, loc))
    return std::move(error);

  // There is no TargetMachine for mtgpu: target hooks take their defaults.
  optimizeLLVMModule(*llvmModule, options.optLevel);
  // Kernels carry no debug info to the SDK, and LLVM 14 cannot read LLVM
  // 22's debug records anyway.
  llvm::StripDebugInfo(*llvmModule);

  if (options.llvm14Compatible)
    if (llvm::Error error = makeLLVM14Compatible(*llvmModule)) {
      std::string message = llvm::toString(std::move(error));
      return emitFailure(loc, "LLVM 14 compatibility: " + message);
    }
  return llvmModule;
}

llvm::Expected<std::string>
mlir::triton_musa::translateToMUSALLVMIR(ModuleOp module,
                                         const ExportOptions &options) {
  llvm::LLVMContext llvmContext;
  auto llvmModule = translateToMUSALLVMModule(module, llvmContext, options);
  if (!llvmModule)
    return llvmModule.takeError();
  if (options.llvm14Compatible) {
    auto text = printLLVM14Module(**llvmModule);
    if (!text) {
      std::string message = llvm::toString(text.takeError());
      return emitFailure(module.getLoc(), "LLVM 14 compatibility: " + message);
    }
    return text;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  (*llvmModule)->print(os, /*AAW=*/nullptr);
  return text;
}
