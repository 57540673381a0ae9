//===- musa-translate.cpp - LLVM-dialect module -> MUSA LLVM IR text -----===//
//
// Replays the backend's `llir` stage on a saved module:
//
//   musa-translate --musa-to-llvmir --musa-arch=mp_31 [--opt-level=N]
//                  [--libdevice=PATH] [--no-llvm14-compat] in.mlir [-o out.ll]
//
// and the GPU proxy's `llir` and `ptx` stages (conversion/NVPTXExport) on a
// module lowered with convert-tritongpu-to-musa{target=proxy}:
//
//   musa-translate --proxy-to-nvptx-llvmir [--sm=sm_90a] [--ptx-version=87]
//                  [--libdevice=libdevice.10.bc] in.mlir [--emit-ptx]
//
// Errors are printed as file:line:col diagnostics; the exit status is 1.
//
//===----------------------------------------------------------------------===//

#include "conversion/LLVMIRExport/LLVMIRExport.h"
#include "conversion/NVPTXExport/NVPTXExport.h"
#include "registration/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

namespace cl = llvm::cl;

static cl::opt<std::string> inputFilename(cl::Positional,
                                          cl::desc("<input .mlir file>"),
                                          cl::init("-"));
static cl::opt<std::string> outputFilename("o", cl::desc("Output file"),
                                           cl::value_desc("filename"),
                                           cl::init("-"));
static cl::opt<bool>
    musaToLLVMIR("musa-to-llvmir",
                 cl::desc("Translate an LLVM-dialect module to MUSA LLVM IR"));
static cl::opt<bool> proxyToNVPTX(
    "proxy-to-nvptx-llvmir",
    cl::desc("GPU proxy: translate an LLVM-dialect module lowered with "
             "target=proxy to LLVM IR for nvptx64-nvidia-cuda"));
static cl::opt<bool>
    emitPTX("emit-ptx",
            cl::desc("With --proxy-to-nvptx-llvmir: print PTX instead"));
static cl::opt<std::string> sm("sm", cl::desc("GPU proxy: the NVIDIA GPU"),
                               cl::init("sm_90a"));
static cl::opt<unsigned> ptxVersion("ptx-version",
                                    cl::desc("GPU proxy: PTX ISA x 10"),
                                    cl::init(87));
static cl::opt<std::string>
    arch("musa-arch",
         cl::desc("MUSA architecture, e.g. mp_31 (default: the module's "
                  "ttg.target)"),
         cl::init(""));
static cl::opt<unsigned> optLevel("opt-level",
                                  cl::desc("LLVM optimization level 0..3"),
                                  cl::init(3));
static cl::opt<std::string>
    libdevice("libdevice", cl::desc("libdevice bitcode to link (optional)"),
              cl::value_desc("path"));
static cl::opt<bool> noLLVM14Compat(
    "no-llvm14-compat",
    cl::desc("Print LLVM 22 IR, without the LLVM 14 compatibility step"));

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "triton-musa LLVM IR exporter\n");
  if (!musaToLLVMIR && !proxyToNVPTX) {
    llvm::errs() << "musa-translate: choose a translation (--musa-to-llvmir "
                    "or --proxy-to-nvptx-llvmir)\n";
    return 1;
  }

  DialectRegistry registry;
  triton_musa::registerAllDialects(registry);
  triton_musa::registerLLVMIRExportTranslations(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  std::string error;
  auto input = openInputFile(inputFilename, &error);
  if (!input) {
    llvm::errs() << "musa-translate: " << error << "\n";
    return 1;
  }
  auto sourceMgr = std::make_shared<llvm::SourceMgr>();
  sourceMgr->AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(*sourceMgr, &context);

  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;

  std::string text;
  if (proxyToNVPTX) {
    triton_musa::NVPTXExportOptions proxyOptions;
    proxyOptions.sm = sm;
    proxyOptions.ptxVersion = ptxVersion;
    proxyOptions.optLevel = optLevel;
    if (!libdevice.empty())
      proxyOptions.libdevicePath = libdevice;
    llvm::Expected<std::string> llvmIR =
        triton_musa::translateToNVPTXLLVMIR(*module, proxyOptions);
    if (!llvmIR) {
      // Already reported as a diagnostic with its location.
      llvm::consumeError(llvmIR.takeError());
      return 1;
    }
    text = std::move(*llvmIR);
    if (emitPTX) {
      llvm::Expected<std::string> ptx =
          triton_musa::compileNVPTXLLVMIRToPTX(text, proxyOptions);
      if (!ptx) {
        llvm::errs() << "musa-translate: " << llvm::toString(ptx.takeError())
                     << "\n";
        return 1;
      }
      text = std::move(*ptx);
    }
  } else {
    triton_musa::ExportOptions options;
    options.arch = arch;
    options.optLevel = optLevel;
    if (!libdevice.empty())
      options.libdevicePath = libdevice;
    options.llvm14Compatible = !noLLVM14Compat;
    llvm::Expected<std::string> llvmIR =
        triton_musa::translateToMUSALLVMIR(*module, options);
    if (!llvmIR) {
      // Already reported as a diagnostic with its location.
      llvm::consumeError(llvmIR.takeError());
      return 1;
    }
    text = std::move(*llvmIR);
  }

  auto output = openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << "musa-translate: " << error << "\n";
    return 1;
  }
  output->os() << text;
  output->keep();
  return 0;
}
