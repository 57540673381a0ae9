//===- Emulator.cpp - LLVM dialect -> host JIT for the CPU emulator -------===//
//
// Loading a kernel (Emulator.h): parse the LLVM-dialect module, translate it
// for the host, instrument it (Instrumentation.h), optimize, compile and
// link it with ORC; and the kernel's cache image, linked again without
// compiling.
//
//===----------------------------------------------------------------------===//

#include "emulator/Emulator.h"
#include "emulator/HostMath.h"
#include "emulator/Instrumentation.h"

#include "conversion/LLVMIRExport/LLVMIRExport.h"
#include "target/EmulatorABI.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

#include <cstring>
#include <mutex>

using namespace mlir;
using namespace mlir::triton_musa;
using namespace mlir::triton_musa::emulator;

namespace {

namespace abi = mlir::triton_musa::emulator_abi;

//===----------------------------------------------------------------------===//
// Host helpers the generated code may call (half/bfloat conversions that
// x86 lowers to libcalls), so that no particular libgcc is needed.
//===----------------------------------------------------------------------===//

#if defined(__x86_64__) && (defined(__FLT16_MAX__) || defined(__clang__))
#define TRITON_MUSA_EMU_HALF 1
uint16_t floatToBFloatBits(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u)
    return uint16_t((u >> 16) | 0x40); // quiet NaN
  u += 0x7fffu + ((u >> 16) & 1);      // round to nearest even
  return uint16_t(u >> 16);
}
_Float16 bitsAsHalf(uint16_t bits) {
  _Float16 h;
  std::memcpy(&h, &bits, 2);
  return h;
}
extern "C" {
// bfloat travels in the same register as half on x86-64.
static _Float16 emuTruncSFBF2(float x) {
  return bitsAsHalf(floatToBFloatBits(x));
}
static _Float16 emuTruncDFBF2(double x) {
  // Through float: exact enough except for double-rounding ties.
  return bitsAsHalf(floatToBFloatBits(float(x)));
}
static float emuExtendHFSF2(_Float16 h) { return float(h); }
static double emuExtendHFDF2(_Float16 h) { return double(h); }
static _Float16 emuTruncSFHF2(float x) { return _Float16(x); }
static _Float16 emuTruncDFHF2(double x) { return _Float16(x); }
}
#endif

} // namespace

std::vector<std::pair<const char *, void *>> emulator::hostHelperSymbols() {
  std::vector<std::pair<const char *, void *>> symbols;
#ifdef TRITON_MUSA_EMU_HALF
  symbols = {
      {"__truncsfbf2", reinterpret_cast<void *>(&emuTruncSFBF2)},
      {"__truncdfbf2", reinterpret_cast<void *>(&emuTruncDFBF2)},
      {"__extendhfsf2", reinterpret_cast<void *>(&emuExtendHFSF2)},
      {"__extendhfdf2", reinterpret_cast<void *>(&emuExtendHFDF2)},
      {"__truncsfhf2", reinterpret_cast<void *>(&emuTruncSFHF2)},
      {"__truncdfhf2", reinterpret_cast<void *>(&emuTruncDFHF2)},
  };
#endif
  return symbols;
}

namespace {

/// Host code generation settings for instrumented kernels, which have
/// thousands of blocks (access checks, masked copies) and long runs of
/// address arithmetic. LLVM exposes these only as command-line options; this
/// library's LLVM generates host code only for the emulator. Measured on
/// Liger's fused MoE up-projection (16k lines of host IR, on an AMD EPYC host)
/// the JIT took 5.3 s with the first alone, 2.4 s with all, and no
/// bench/emulator.py kernel runs slower:
///  - no region splitting in the greedy register allocator (it grows a live
///    range's split region block by block within a complexity budget): half
///    of the code generation of a 25k-instruction grouped-GEMM kernel;
///  - no CodeGenPrepare promotion of extensions into loads (it tries every
///    extension of an address chain and undoes most of them);
///  - no machine instruction scheduling, before or after register allocation
///    (quadratic in a block's memory accesses; the host CPUs reorder out of
///    order anyway; on AMD hosts the post-RA scheduler alone was a quarter of
///    the code generation).
void tuneHostCodeGeneration() {
  llvm::DenseMap<llvm::StringRef, llvm::cl::Option *> &options =
      llvm::cl::getRegisteredOptions();
  for (auto [name, value] :
       {std::pair("grow-region-complexity-budget", "0"),
        std::pair("disable-cgp-ext-ld-promotion", "true"),
        std::pair("enable-misched", "false"),
        std::pair("post-RA-scheduler", "false")}) {
    auto it = options.find(name);
    // Position 1, as if given on a command line: some passes honour an
    // option only where it was (getPosition() > 0).
    if (it != options.end())
      it->second->addOccurrence(1, it->first, value);
  }
}

void initializeHostTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
    tuneHostCodeGeneration();
  });
}

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::string paramKind(llvm::Type *type) {
  if (type->isPointerTy())
    return "ptr";
  if (type->isIntegerTy())
    return "i" + std::to_string(type->getIntegerBitWidth());
  if (type->isHalfTy())
    return "f16";
  if (type->isBFloatTy())
    return "bf16";
  if (type->isFloatTy())
    return "f32";
  if (type->isDoubleTy())
    return "f64";
  return "";
}

/// `void __musa_emu_entry(const i64 *slots)` calling `kernel` with parameter
/// i read from slot i.
void addEntryTrampoline(llvm::Module &module, llvm::Function &kernel) {
  llvm::LLVMContext &ctx = module.getContext();
  auto *ptrTy = llvm::PointerType::get(ctx, 0);
  auto *fnTy =
      llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptrTy}, false);
  auto *entry = llvm::Function::Create(fnTy, llvm::Function::ExternalLinkage,
                                       abi::kEntry, module);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", entry));
  llvm::Value *slots = entry->getArg(0);
  llvm::SmallVector<llvm::Value *> args;
  for (llvm::Argument &param : kernel.args()) {
    llvm::Value *slot = b.CreateConstInBoundsGEP1_64(
        b.getInt8Ty(), slots, 8 * param.getArgNo());
    args.push_back(b.CreateAlignedLoad(param.getType(), slot, llvm::Align(1)));
  }
  // Not inlined: the instruction counter skips the trampoline's own code.
  b.CreateCall(&kernel, args)->setIsNoInline();
  b.CreateRetVoid();
}

void optimize(llvm::Module &module, llvm::TargetMachine &tm, unsigned level) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(&tm);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::OptimizationLevel opt = level == 0   ? llvm::OptimizationLevel::O0
                                : level == 1 ? llvm::OptimizationLevel::O1
                                : level == 2 ? llvm::OptimizationLevel::O2
                                             : llvm::OptimizationLevel::O3;
  llvm::ModulePassManager mpm =
      level == 0 ? pb.buildO0DefaultPipeline(opt)
                 : pb.buildPerModuleDefaultPipeline(opt);
  mpm.run(module, mam);
}

} // namespace

EmulatedKernel::~EmulatedKernel() = default;

llvm::Expected<std::unique_ptr<EmulatedKernel>>
EmulatedKernel::load(const std::string &llvmDialectText,
                     const LoadOptions &options) {
  initializeHostTarget();
  std::unique_ptr<EmulatedKernel> kernel(new EmulatedKernel());

  // Parse the LLVM-dialect module, collecting diagnostics for the error.
  // The module is the LLVM dialect's (with builtin attributes only: the
  // `ttg.*` and `musagpu.*` module attributes are integers, strings and
  // arrays), so that dialect and its translation are all the parser and
  // the export need.
  DialectRegistry registry;
  registry.insert<LLVM::LLVMDialect>();
  registerLLVMIRExportTranslations(registry);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  std::string diagnostics;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    diagnostics += "\n" + diag.str();
    return success();
  });
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(llvmDialectText, ParserConfig(&context));
  if (!module)
    return makeError("emulator: cannot parse the kernel module:" +
                     diagnostics);

  auto intAttr = [&](StringRef name) -> uint64_t {
    if (auto attr = (*module)->getAttrOfType<IntegerAttr>(name))
      return attr.getValue().getZExtValue();
    return 0;
  };
  // A block runs the warps of the kernel's warp-specialized partitions too.
  kernel->numWarps = unsigned(std::max(intAttr("ttg.num-warps"),
                                       intAttr("ttg.total-num-warps")));
  kernel->warpSize = unsigned(intAttr("ttg.threads-per-warp"));
  kernel->sharedBytes = intAttr("ttg.shared");

  SmallVector<LLVM::LLVMFuncOp> kernels;
  module->walk([&](LLVM::LLVMFuncOp fn) {
    if (fn->hasAttr(kKernelAttrName))
      kernels.push_back(fn);
  });
  if (kernels.size() != 1)
    return makeError("emulator: expected one kernel (an llvm.func marked '" +
                     kKernelAttrName + "') in the module, found " +
                     llvm::Twine(kernels.size()));
  kernel->name = kernels.front().getName().str();
  if (kernel->numWarps == 0 || kernel->warpSize == 0)
    return makeError("emulator: kernel '" + kernel->name +
                     "' lacks the module attributes \"ttg.num-warps\" and "
                     "\"ttg.threads-per-warp\"");

  // Translate for the host.
  auto llvmContext = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*module, *llvmContext, kernel->name);
  if (!llvmModule)
    return makeError("emulator: cannot translate kernel '" + kernel->name +
                     "' to LLVM IR:" + diagnostics);

  auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!jtmb)
    return jtmb.takeError();
  jtmb->setCodeGenOptLevel(options.fastCodeGeneration
                               ? llvm::CodeGenOptLevel::None
                               : llvm::CodeGenOptLevel::Default);
  // The vector f32 -> bf16 conversions of these extensions flush subnormals
  // to zero whatever MXCSR says: the scalar conversion (a libcall, see
  // hostHelperSymbols) rounds them like a GPU.
  for (const char *feature : {"-avx512bf16", "-avxneconvert"})
    jtmb->getFeatures().AddFeature(feature);
  auto tm = jtmb->createTargetMachine();
  if (!tm)
    return tm.takeError();
  llvmModule->setDataLayout((*tm)->createDataLayout());
  llvmModule->setTargetTriple((*tm)->getTargetTriple());

  llvm::Function *kernelFn = llvmModule->getFunction(kernel->name);
  if (!kernelFn)
    return makeError("emulator: kernel '" + kernel->name +
                     "' vanished in the translation");
  for (llvm::Argument &param : kernelFn->args()) {
    std::string kind = paramKind(param.getType());
    if (kind.empty()) {
      std::string typeText;
      llvm::raw_string_ostream os(typeText);
      param.getType()->print(os);
      return makeError("emulator: kernel '" + kernel->name + "' parameter " +
                       llvm::Twine(param.getArgNo()) + " has type " +
                       typeText + ", which the launcher cannot pass");
    }
    kernel->params.push_back(kind);
  }

  batchStores(*llvmModule, *kernelFn);
  instrumentMemoryAccesses(*llvmModule, *kernelFn);
  guardIntegerDivisions(*llvmModule);
  addEntryTrampoline(*llvmModule, *kernelFn);
  {
    std::string problems;
    llvm::raw_string_ostream os(problems);
    if (llvm::verifyModule(*llvmModule, &os))
      return makeError("emulator: the host module of '" + kernel->name +
                       "' is invalid: " + problems);
  }
  optimize(*llvmModule, **tm, options.optLevel);
  batchWarpShuffles(*llvmModule);
  if (options.countInstructions)
    instrumentInstructionCount(*llvmModule);
  {
    llvm::raw_string_ostream os(kernel->hostIR);
    llvmModule->print(os, nullptr);
  }
  {
    llvm::raw_string_ostream os(kernel->objectCode);
    llvm::buffer_ostream object(os);
    llvm::legacy::PassManager codegen;
    if ((*tm)->addPassesToEmitFile(codegen, object, nullptr,
                                   llvm::CodeGenFileType::ObjectFile))
      return makeError("emulator: the host target cannot emit object files");
    codegen.run(*llvmModule);
  }
  if (llvm::Error err = kernel->link())
    return std::move(err);
  return kernel;
}

llvm::Error EmulatedKernel::link() {
  initializeHostTarget();
  auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!jtmb)
    return jtmb.takeError();
  // JIT: runtime functions resolve to the runtime, the rest to the process.
  auto built = llvm::orc::LLJITBuilder()
                   .setJITTargetMachineBuilder(std::move(*jtmb))
                   .create();
  if (!built)
    return built.takeError();
  std::unique_ptr<llvm::orc::LLJIT> lljit = std::move(*built);
  llvm::orc::JITDylib &dylib = lljit->getMainJITDylib();
  auto processSymbols =
      llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
          lljit->getDataLayout().getGlobalPrefix());
  if (!processSymbols)
    return processSymbols.takeError();
  dylib.addGenerator(std::move(*processSymbols));
  llvm::orc::SymbolMap symbols;
  auto define = [&](const char *symbol, void *address) {
    symbols[lljit->mangleAndIntern(symbol)] = {
        llvm::orc::ExecutorAddr::fromPtr(address),
        llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable};
  };
  for (auto [symbol, address] : runtimeSymbols())
    define(symbol, address);
  for (auto [symbol, address] : hostHelperSymbols())
    define(symbol, address);
  for (auto [symbol, address] : hostMathSymbols())
    define(symbol, address);
  if (llvm::Error err =
          dylib.define(llvm::orc::absoluteSymbols(std::move(symbols))))
    return err;
  if (llvm::Error err = lljit->addObjectFile(llvm::MemoryBuffer::getMemBufferCopy(
          objectCode, name + ".o")))
    return err;
  auto found = lljit->lookup(abi::kEntry);
  if (!found)
    return makeError("emulator: cannot JIT-compile kernel '" + name +
                     "': " + llvm::toString(found.takeError()));
  entry = found->toPtr<EntryFn>();
  jit = std::move(lljit);
  return llvm::Error::success();
}

std::string EmulatedKernel::getHostTarget() {
  initializeHostTarget();
  std::string host = llvm::sys::getProcessTriple() + " " +
                     llvm::sys::getHostCPUName().str();
  std::vector<std::string> features;
  for (const auto &[feature, enabled] : llvm::sys::getHostCPUFeatures())
    if (enabled)
      features.push_back(feature.str());
  llvm::sort(features);
  for (const std::string &feature : features)
    host += " +" + feature;
  return host;
}

// The cache image: a header line, then one field per line (the name, the
// launch numbers, the parameter kinds), then the host IR's and the object
// file's sizes and bytes.
static constexpr llvm::StringLiteral kCacheImageMagic = "triton-musa emulator image 1";

std::string EmulatedKernel::getCacheImage() const {
  std::string image;
  llvm::raw_string_ostream os(image);
  os << kCacheImageMagic << "\n" << name << "\n"
     << numWarps << " " << warpSize << " " << sharedBytes << "\n"
     << llvm::join(params, ",") << "\n"
     << hostIR.size() << " " << objectCode.size() << "\n"
     << hostIR << objectCode;
  return image;
}

llvm::Expected<std::unique_ptr<EmulatedKernel>>
EmulatedKernel::loadCached(llvm::StringRef image) {
  auto bad = [](const llvm::Twine &why) {
    return makeError("emulator: not a kernel cache image (" + why + ")");
  };
  auto line = [&]() {
    auto [head, rest] = image.split('\n');
    image = rest;
    return head;
  };
  if (line() != kCacheImageMagic)
    return bad("no header");
  std::unique_ptr<EmulatedKernel> kernel(new EmulatedKernel());
  kernel->name = line().str();
  llvm::SmallVector<llvm::StringRef> numbers, kinds;
  line().split(numbers, ' ');
  uint64_t irBytes = 0, objectBytes = 0;
  if (numbers.size() != 3 || numbers[0].getAsInteger(10, kernel->numWarps) ||
      numbers[1].getAsInteger(10, kernel->warpSize) ||
      numbers[2].getAsInteger(10, kernel->sharedBytes))
    return bad("launch numbers");
  llvm::StringRef kindLine = line();
  if (!kindLine.empty())
    kindLine.split(kinds, ',');
  for (llvm::StringRef kind : kinds)
    kernel->params.push_back(kind.str());
  llvm::SmallVector<llvm::StringRef> sizes;
  line().split(sizes, ' ');
  if (sizes.size() != 2 || sizes[0].getAsInteger(10, irBytes) ||
      sizes[1].getAsInteger(10, objectBytes) ||
      image.size() != irBytes + objectBytes)
    return bad("sizes");
  kernel->hostIR = image.take_front(irBytes).str();
  kernel->objectCode = image.drop_front(irBytes).str();
  if (llvm::Error err = kernel->link())
    return std::move(err);
  return kernel;
}

llvm::Expected<LaunchStats>
EmulatedKernel::launch(const std::vector<uint64_t> &slots,
                       LaunchConfig config) const {
  if (slots.size() != params.size())
    return makeError("kernel '" + name + "' takes " +
                     llvm::Twine(params.size()) + " parameters, got " +
                     llvm::Twine(slots.size()));
  config.kernelName = name;
  if (config.numThreads == 0)
    config.numThreads = numWarps * warpSize;
  if (config.warpSize == 0)
    config.warpSize = warpSize;
  config.sharedBytes = std::max(config.sharedBytes, sharedBytes);
  return emulator::launch(entry, slots, config);
}
