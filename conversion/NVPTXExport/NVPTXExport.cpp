//===- NVPTXExport.cpp - The GPU proxy's LLVM IR and PTX ------------------===//
//
// Steps in NVPTXExport.h. The kernel markers are those of LLVMIRExport.h,
// which --convert-tritongpu-to-musa puts on kernels whatever the target.
//
//===----------------------------------------------------------------------===//

#include "conversion/NVPTXExport/NVPTXExport.h"
#include "conversion/LLVMIRExport/LLVMIRExport.h"
#include "conversion/NVPTXExport/LibdeviceNames.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/IPO/Internalize.h"

#include <mutex>

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
}

using namespace mlir;
using namespace mlir::triton_musa;

namespace {

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 message.str());
}

/// Emits `message` as an MLIR error at `loc` and returns it as an error.
llvm::Error emitFailure(Location loc, const llvm::Twine &message) {
  emitError(loc) << message;
  return makeError(message);
}

/// The NVPTX TargetMachine for `options.sm` and PTX `options.ptxVersion`.
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createNVPTXTargetMachine(const NVPTXExportOptions &options) {
  static std::once_flag initialized;
  std::call_once(initialized, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    // Shared-memory pointers are 32 bits wide, as in the MUSA data layout
    // (p3:32): otherwise every shared access of the proxy pays a 64-bit
    // address add that MUSA code does not have.
    auto &registered = llvm::cl::getRegisteredOptions();
    auto it = registered.find("nvptx-short-ptr");
    if (it != registered.end())
      static_cast<llvm::cl::opt<bool> *>(it->second)->setValue(true);
  });
  llvm::Triple triple(kNVPTXTriple);
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return makeError("the NVPTX backend is not available: " + error);
  llvm::TargetOptions targetOptions;
  targetOptions.AllowFPOpFusion = options.fpFusion
                                      ? llvm::FPOpFusion::Fast
                                      : llvm::FPOpFusion::Standard;
  std::string features = "+ptx" + std::to_string(options.ptxVersion);
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, options.sm, features, targetOptions, llvm::Reloc::PIC_,
      std::nullopt, llvm::CodeGenOptLevel::Aggressive));
  if (!machine)
    return makeError("cannot create an NVPTX target machine for " +
                     options.sm);
  return machine;
}

/// Makes the functions marked `musa.kernel` PTX kernels with "nvvm.maxntid",
/// their `musa.grid_constant` parameters "nvvm.grid_constant".
llvm::Error markKernels(ModuleOp module, llvm::Module &llvmModule) {
  std::optional<llvm::Error> error;
  module.walk([&](LLVM::LLVMFuncOp func) {
    if (!func->hasAttr(kKernelAttrName))
      return;
    llvm::Function *kernel = llvmModule.getFunction(func.getName());
    if (!kernel || kernel->isDeclaration()) {
      error = emitFailure(func.getLoc(),
                          "kernel '" + func.getName() + "' has no body");
      return;
    }
    kernel->setCallingConv(llvm::CallingConv::PTX_Kernel);
    kernel->setLinkage(llvm::GlobalValue::ExternalLinkage);
    kernel->setVisibility(llvm::GlobalValue::DefaultVisibility);
    if (auto maxNTid = func->getAttrOfType<IntegerAttr>(kMaxNTidXAttrName))
      kernel->addFnAttr("nvvm.maxntid", std::to_string(maxNTid.getInt()));
    // A host-encoded tensor map (CUtensorMap) parameter: TMA reads it in
    // place, through its address.
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
      if (func.getArgAttr(i, kGridConstantAttrName))
        kernel->addParamAttr(i, llvm::Attribute::get(kernel->getContext(),
                                                     "nvvm.grid_constant"));
  });
  if (error)
    return std::move(*error);
  return llvm::Error::success();
}

/// The libdevice.10.bc function (f32 name; f64 drops the `f`) that computes
/// an LLVM math intrinsic NVPTX cannot select (it has no libcalls).
std::optional<llvm::StringRef> getLibdeviceForIntrinsic(llvm::Intrinsic::ID id) {
  switch (id) {
  case llvm::Intrinsic::exp:
    return "exp";
  case llvm::Intrinsic::exp10:
    return "exp10";
  case llvm::Intrinsic::log:
    return "log";
  case llvm::Intrinsic::log10:
    return "log10";
  case llvm::Intrinsic::log2:
    return "log2";
  case llvm::Intrinsic::sin:
    return "sin";
  case llvm::Intrinsic::cos:
    return "cos";
  case llvm::Intrinsic::tan:
    return "tan";
  case llvm::Intrinsic::pow:
    return "pow";
  default:
    return std::nullopt;
  }
}

/// Calls of scalar f32/f64 math intrinsics without an NVPTX instruction
/// become calls of their `__nv_*` libdevice functions.
void replaceMathIntrinsics(llvm::Module &module) {
  SmallVector<llvm::Function *> intrinsics;
  for (llvm::Function &func : module)
    if (func.isIntrinsic() && getLibdeviceForIntrinsic(func.getIntrinsicID()))
      intrinsics.push_back(&func);
  for (llvm::Function *func : intrinsics) {
    llvm::Type *type = func->getReturnType();
    if (!type->isFloatTy() && !type->isDoubleTy())
      continue;
    std::string name = ("__nv_" + *getLibdeviceForIntrinsic(
                                       func->getIntrinsicID()))
                           .str() +
                       (type->isFloatTy() ? "f" : "");
    llvm::FunctionCallee callee =
        module.getOrInsertFunction(name, func->getFunctionType());
    func->replaceAllUsesWith(callee.getCallee());
    func->eraseFromParent();
  }
}

/// Renames the `__mt_*` declarations to libdevice.10.bc's names and links
/// those functions from `path`, internalized.
llvm::Error linkLibdevice(llvm::Module &module,
                          const std::optional<std::string> &path,
                          Location loc) {
  SmallVector<llvm::Function *> calls;
  std::string firstCall;
  for (llvm::Function &func : module) {
    if (!func.isDeclaration())
      continue;
    bool musaLibdevice = func.getName().starts_with("__mt_") ||
                         func.getName() == "llvm.musa.rsq";
    if (musaLibdevice)
      calls.push_back(&func);
    if (firstCall.empty() &&
        (musaLibdevice || func.getName().starts_with("__nv_")))
      firstCall = func.getName().str();
  }
  if (firstCall.empty())
    return llvm::Error::success();
  if (!path || path->empty())
    return emitFailure(loc, "the module calls " + firstCall +
                                ", and no libdevice.10.bc was given");
  llvm::Expected<std::unique_ptr<llvm::Module>> lib =
      readLibdevice(module.getContext(), *path, loc);
  if (!lib)
    return lib.takeError();
  for (llvm::Function *func : calls) {
    std::string mtName = func->getName().str();
    std::string nvName = *getNVLibdeviceName(mtName);
    llvm::Function *libFunc = (*lib)->getFunction(nvName);
    if (!libFunc)
      return emitFailure(loc, "the proxy has no libdevice.10.bc counterpart "
                              "of " + mtName + " (looked for " + nvName +
                              ")");
    if (libFunc->getFunctionType() != func->getFunctionType())
      return emitFailure(loc, mtName + " and " + nvName +
                                  " have different types");
    if (llvm::Function *existing = module.getFunction(nvName)) {
      func->replaceAllUsesWith(existing);
      func->eraseFromParent();
    } else {
      func->setName(nvName);
    }
  }
  return linkNeededLibdeviceFunctions(module, std::move(*lib), *path, loc);
}

} // namespace

llvm::Expected<std::string>
mlir::triton_musa::translateToNVPTXLLVMIR(ModuleOp module,
                                          const NVPTXExportOptions &options) {
  Location loc = module.getLoc();
  if (llvm::Error error = checkOptLevel(options.optLevel, loc))
    return std::move(error);
  auto machine = createNVPTXTargetMachine(options);
  if (!machine)
    return emitFailure(loc, llvm::toString(machine.takeError()));

  llvm::LLVMContext llvmContext;
  auto translated = translateToLLVMModule(module, llvmContext);
  if (!translated)
    return translated.takeError();
  std::unique_ptr<llvm::Module> llvmModule = std::move(*translated);
  llvmModule->setTargetTriple((*machine)->getTargetTriple());
  llvmModule->setDataLayout((*machine)->createDataLayout());
  // libdevice asks __nvvm_reflect("__CUDA_FTZ"); keep denormals (IEEE).
  llvmModule->addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz",
                            uint32_t(0));

  if (llvm::Error error = markKernels(module, *llvmModule))
    return std::move(error);
  replaceMathIntrinsics(*llvmModule);
  if (llvm::Error error =
          linkLibdevice(*llvmModule, options.libdevicePath, loc))
    return std::move(error);

  if (llvm::Error error = verifyLLVMModule(*llvmModule, loc))
    return std::move(error);
  optimizeLLVMModule(*llvmModule, options.optLevel, machine->get());
  llvm::StripDebugInfo(*llvmModule);

  std::string text;
  llvm::raw_string_ostream os(text);
  llvmModule->print(os, /*AAW=*/nullptr);
  return text;
}

llvm::Expected<std::string>
mlir::triton_musa::compileNVPTXLLVMIRToPTX(llvm::StringRef llvmIR,
                                           const NVPTXExportOptions &options) {
  auto machine = createNVPTXTargetMachine(options);
  if (!machine)
    return machine.takeError();
  llvm::LLVMContext llvmContext;
  llvm::SMDiagnostic diag;
  std::unique_ptr<llvm::Module> module =
      llvm::parseAssemblyString(llvmIR, diag, llvmContext);
  if (!module) {
    std::string text;
    llvm::raw_string_ostream os(text);
    diag.print("llir", os, /*ShowColors=*/false);
    return makeError("cannot parse the LLVM IR: " + text);
  }
  module->setTargetTriple((*machine)->getTargetTriple());
  module->setDataLayout((*machine)->createDataLayout());
  llvm::SmallString<0> ptx;
  {
    llvm::raw_svector_ostream os(ptx);
    llvm::legacy::PassManager pm;
    if ((*machine)->addPassesToEmitFile(pm, os, nullptr,
                                        llvm::CodeGenFileType::AssemblyFile))
      return makeError("the NVPTX backend cannot emit PTX for " + options.sm);
    pm.run(*module);
  }
  return std::string(ptx.str());
}
