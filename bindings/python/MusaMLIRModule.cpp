//===- MusaMLIRModule.cpp - triton_musa._musa_mlir ------------------------===//
//
// What our MLIR library adds to MLIR's Python bindings (`triton_musa.mlir`,
// which parse, verify, transform and print modules): the LLVM IR exports,
// the architecture, matrix-instruction and intrinsic tables, linear layouts
// and the emulator. Export diagnostics become `MLIRError` exceptions whose
// diagnostics are data: (severity, "file:line:col", message).
//
// Built into the aggregate library of `triton_musa.mlir` (one MLIR in the
// process): the functions taking `ir.Module`/`ir.Operation`/`ir.Attribute`
// work on the bindings' objects directly, without printing and re-parsing.
//
//===----------------------------------------------------------------------===//

#include "bindings/c/TritonMUSA.h"
#include "bindings/python/DialectClasses.h"
#include "bindings/python/EmulatorBindings.h"
#include "bindings/python/LayoutConversionBindings.h"
#include "bindings/python/LinearLayoutBindings.h"
#include "conversion/LLVMIRExport/LLVMIRExport.h"
#include "conversion/NVPTXExport/NVPTXExport.h"
#include "registration/InitAll.h"
#include "catalogue/MatrixInstrs.h"
#include "emulator/MatrixUnits.h"
#include "target/MUSAArch.h"
#include "catalogue/TargetKind.h"
#include "target/MUSAIntrinsics.h"

#include "mlir/Bindings/Python/NanobindAdaptors.h"
#include "mlir/CAPI/IR.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

#include <nanobind/nanobind.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/variant.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <memory>
#include <stdexcept>
#include <map>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

namespace nb = nanobind;
using namespace mlir;

namespace {

/// One diagnostic as Python receives it: (severity, "file:line:col",
/// message).
using DiagnosticRecord = std::tuple<std::string, std::string, std::string>;

/// Raised (as `_musa_mlir.MLIRError`) when MLIR reports an error. Python
/// sees `headline` and `diagnostics` (DiagnosticRecord tuples) as attributes;
/// the message is the headline and one "where: severity: message" line each.
struct MLIRDiagnosticError : std::runtime_error {
  explicit MLIRDiagnosticError(const std::string &headline,
                               std::vector<DiagnosticRecord> diagnostics = {})
      : std::runtime_error(format(headline, diagnostics)), headline(headline),
        diagnostics(std::move(diagnostics)) {}

  static std::string format(const std::string &headline,
                            const std::vector<DiagnosticRecord> &diagnostics) {
    std::string message = headline;
    for (const auto &[severity, where, text] : diagnostics)
      message += "\n" + where + ": " + severity + ": " + text;
    return message;
  }

  std::string headline;
  std::vector<DiagnosticRecord> diagnostics;
};

/// The Python class of MLIRDiagnosticError (set in NB_MODULE).
PyObject *mlirErrorType = nullptr;

std::string formatLocation(Location loc) {
  if (auto fileLoc = loc->findInstanceOf<FileLineColLoc>())
    return (fileLoc.getFilename().str() + ":" +
            std::to_string(fileLoc.getLine()) + ":" +
            std::to_string(fileLoc.getColumn()));
  std::string text;
  llvm::raw_string_ostream os(text);
  loc.print(os);
  return text;
}

const char *severityName(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return "error";
  case DiagnosticSeverity::Warning:
    return "warning";
  case DiagnosticSeverity::Note:
    return "note";
  case DiagnosticSeverity::Remark:
    return "remark";
  }
  return "diagnostic";
}

/// Collects every diagnostic emitted while alive, with its notes.
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(MLIRContext *context)
      : handler(context, [this](Diagnostic &diag) {
          record(diag);
          for (Diagnostic &note : diag.getNotes())
            record(note);
          return success();
        }) {}

  /// Throws MLIRDiagnosticError with everything collected, led by `what`.
  [[noreturn]] void raise(const std::string &what) const {
    throw MLIRDiagnosticError(what, records);
  }

private:
  void record(Diagnostic &diag) {
    records.emplace_back(severityName(diag.getSeverity()),
                         formatLocation(diag.getLocation()), diag.str());
  }

  std::vector<DiagnosticRecord> records;
  ScopedDiagnosticHandler handler;
};

/// The `llir` stage: LLVM IR text for MUSA (conversion/LLVMIRExport).
/// The architecture is the module's `ttg.target`.
std::string exportLLVMIR(ModuleOp module, int optLevel,
                         const std::optional<std::string> &libdevice,
                         bool llvm14Compatible) {
  if (optLevel < 0 || optLevel > 3)
    throw std::invalid_argument("opt_level must be in 0..3, got " +
                                std::to_string(optLevel));
  DiagnosticCollector diagnostics(module.getContext());
  mlir::triton_musa::ExportOptions options;
  options.optLevel = static_cast<unsigned>(optLevel);
  options.libdevicePath = libdevice;
  options.llvm14Compatible = llvm14Compatible;
  llvm::Expected<std::string> text =
      mlir::triton_musa::translateToMUSALLVMIR(module, options);
  if (!text) {
    // The reason is among the collected diagnostics.
    llvm::consumeError(text.takeError());
    diagnostics.raise("cannot export the module to LLVM IR");
  }
  return std::move(*text);
}

/// The GPU proxy's `llir` stage: LLVM IR text for nvptx64-nvidia-cuda
/// (conversion/NVPTXExport) of a module lowered with target=proxy.
std::string exportNVPTXLLVMIR(ModuleOp module, const std::string &sm, unsigned ptxVersion,
                          int optLevel,
                          const std::optional<std::string> &libdevice) {
  if (optLevel < 0 || optLevel > 3)
    throw std::invalid_argument("opt_level must be in 0..3, got " +
                                std::to_string(optLevel));
  DiagnosticCollector diagnostics(module.getContext());
  mlir::triton_musa::NVPTXExportOptions options;
  options.sm = sm;
  options.ptxVersion = ptxVersion;
  options.optLevel = static_cast<unsigned>(optLevel);
  options.libdevicePath = libdevice;
  llvm::Expected<std::string> text =
      mlir::triton_musa::translateToNVPTXLLVMIR(module, options);
  if (!text) {
    llvm::consumeError(text.takeError());
    diagnostics.raise("cannot export the module to NVPTX LLVM IR for " + sm);
  }
  return std::move(*text);
}

/// A context of our own with every dialect loaded (intrinsicSignature builds
/// the table's LLVM types in it).
std::unique_ptr<MLIRContext> makeContext() {
  DialectRegistry registry;
  mlir::triton_musa::registerAllDialects(registry);
  auto context = std::make_unique<MLIRContext>(
      registry, MLIRContext::Threading::DISABLED);
  context->loadAllAvailableDialects();
  return context;
}

using ArchField = std::variant<bool, int64_t, std::string>;

/// The architecture table (target/MUSAArch.cpp) as Python dictionaries.
std::vector<std::map<std::string, ArchField>> architectures() {
  std::vector<std::map<std::string, ArchField>> rows;
  for (const mlir::triton_musa::MUSAArchInfo &arch : mlir::triton_musa::getMUSAArchs()) {
    std::string unit =
        arch.matrixUnit ? mlir::musagpu::stringifyMatrixUnitKind(*arch.matrixUnit).str()
                        : std::string("none");
    rows.push_back({
        {"name", arch.name.str()},
        {"codename", arch.codename.str()},
        {"major", int64_t(arch.major)},
        {"minor", int64_t(arch.minor)},
        {"warp_size", int64_t(arch.warpSize)},
        {"max_shared_memory_bytes", int64_t(arch.maxSharedMemoryBytes)},
        {"ballot_bits", int64_t(arch.ballotBits)},
        {"matrix_unit", std::string(unit)},
        {"has_bf16", arch.hasBF16},
        {"has_fp8", arch.hasFP8},
        {"has_tme", arch.hasTME},
    });
  }
  return rows;
}

/// The matrix-instruction catalogue (dialects/MUSAGPU/IR/MatrixInstrs.cpp),
/// one dict per row; `emulator_atom` says whether the emulator has owner
/// tables for the row's fragment and shape (WMMA; SQMMA's fragment is a
/// formula the runtime evaluates for every shape).
std::vector<std::map<std::string, ArchField>> matrixInstructions() {
  namespace mgpu = mlir::musagpu;
  using mlir::triton_musa::TargetKind;
  std::vector<std::map<std::string, ArchField>> rows;
  for (const mgpu::MatrixInstr &row : mgpu::getMatrixInstrs()) {
    std::string targets;
    for (auto [kind, name] : {std::pair{TargetKind::Device, "musa"},
                              std::pair{TargetKind::Emulator, "emulator"},
                              std::pair{TargetKind::Proxy, "proxy"}})
      if (row.isFor(kind))
        targets += (targets.empty() ? "" : ",") + std::string(name);
    bool emulatorAtom =
        row.unit == mgpu::MatrixUnitKind::SQMMA
            ? row.fragment == mgpu::MatrixFragment::SQMMASquad
            : mlir::triton_musa::emulator::lookupWMMAAtom(
                  row.fragment, row.m, row.n, row.k) != nullptr;
    rows.push_back({
        {"unit", mgpu::stringifyMatrixUnitKind(row.unit).str()},
        {"arch_major", int64_t(row.archMajor)},
        {"targets", targets},
        {"a", mgpu::stringifyMmaElementKind(row.a).str()},
        {"b", mgpu::stringifyMmaElementKind(row.b).str()},
        {"c", std::string(row.c == mgpu::MmaAccKind::S32 ? "s32" : "f32")},
        {"m", int64_t(row.m)},
        {"n", int64_t(row.n)},
        {"k", int64_t(row.k)},
        {"lowered", row.isLowered()},
        {"not_lowered", row.notLowered.str()},
        {"intrinsic", row.getIntrinsicName()},
        {"fragment", mgpu::stringifyMatrixFragment(row.fragment).str()},
        {"fragment_threads", int64_t(mgpu::getFragmentThreads(row.fragment))},
        {"operands_in_shared_memory",
         row.operands == mgpu::OperandSource::SharedMemory},
        {"max_contiguous_bytes", int64_t(row.maxContiguousBytes)},
        {"operands_k_major_only", row.operandsKMajorOnly},
        {"emulator_atom", emulatorAtom},
        {"description", row.describe()},
    });
  }
  return rows;
}

const char *calleeKindName(mlir::triton_musa::CalleeKind kind) {
  switch (kind) {
  case mlir::triton_musa::CalleeKind::ReadNone:
    return "readnone";
  case mlir::triton_musa::CalleeKind::Convergent:
    return "convergent";
  case mlir::triton_musa::CalleeKind::SideEffects:
    return "side_effects";
  }
  return "unknown";
}

/// The intrinsic table (target/MUSAIntrinsics.cpp) as Python dictionaries.
std::vector<std::map<std::string, ArchField>> intrinsics() {
  std::vector<std::map<std::string, ArchField>> rows;
  for (const auto &entry : mlir::triton_musa::getMUSAIntrinsicEntries())
    rows.push_back({
        {"pattern", entry.pattern.str()},
        {"kind", std::string(calleeKindName(entry.kind))},
        {"shared_memory_from_zero", entry.sharedMemoryFromZero},
        {"evidence", entry.evidence.str()},
        {"deviation", entry.deviation.str()},
    });
  return rows;
}

/// The signature the table gives `name` on `arch`: {"pattern", "kind",
/// "result", "operands"} in LLVM IR's type spelling; ValueError with the
/// table's reason when it has no such intrinsic.
std::map<std::string, std::variant<std::string, std::vector<std::string>>>
intrinsicSignature(const std::string &name, const std::string &archName) {
  const mlir::triton_musa::MUSAArchInfo *arch =
      mlir::triton_musa::lookupMUSAArch(archName);
  if (!arch)
    throw std::invalid_argument("unknown MUSA architecture '" + archName +
                                "'; supported: " +
                                mlir::triton_musa::getMUSAArchNames());
  static std::unique_ptr<MLIRContext> context = makeContext();
  std::string why;
  auto intrinsic = mlir::triton_musa::lookupMUSAIntrinsic(context.get(), name,
                                                          *arch, why);
  if (failed(intrinsic))
    throw std::invalid_argument("'" + name + "': " + why);
  std::vector<std::string> operands;
  for (Type type : intrinsic->signature.operands)
    operands.push_back(mlir::triton_musa::getLLVMTypeSpelling(type));
  return {
      {"pattern", intrinsic->entry->pattern.str()},
      {"kind", std::string(calleeKindName(intrinsic->entry->kind))},
      {"result",
       mlir::triton_musa::getLLVMTypeSpelling(intrinsic->signature.result)},
      {"operands", operands},
  };
}

std::vector<std::string> registeredDialects() {
  DialectRegistry registry;
  mlir::triton_musa::registerAllDialects(registry);
  std::vector<std::string> names;
  for (llvm::StringRef name : registry.getDialectNames())
    names.push_back(name.str());
  return names;
}

/// The module of an `ir.Module` or of an `ir.Operation` that is a
/// builtin.module, from the bindings (same MLIR, no copy).
ModuleOp moduleOf(nb::handle object) {
  MlirModule module;
  if (nb::try_cast<MlirModule>(object, module))
    return unwrap(module);
  PyErr_Clear(); // the capsule of another kind leaves its error set
  MlirOperation operation;
  if (nb::try_cast<MlirOperation>(object, operation))
    if (auto moduleOp = dyn_cast<ModuleOp>(unwrap(operation)))
      return moduleOp;
  PyErr_Clear();
  throw nb::type_error("expected a triton_musa.mlir.ir.Module or a "
                       "builtin.module ir.Operation");
}

} // namespace

NB_MODULE(_musa_mlir, m) {
  m.doc() = "triton-musa's MLIR library beside triton_musa.mlir: LLVM IR "
            "exports, the architecture, matrix-instruction and intrinsic "
            "tables, linear layouts, the emulator.";
  // Triton's kernel caches hold our EmulatedKernel objects (and their bound
  // methods) until the interpreter exits, where Python does not collect them;
  // nanobind would report each as a leak at every exit.
  nb::set_leak_warnings(false);
  mlirTritonMUSARegisterAllPasses();

  // MLIRError carries its diagnostics as data (headline, diagnostics), so
  // that Python never reads them back out of the message.
  mlirErrorType = PyErr_NewExceptionWithDoc(
      "triton_musa._musa_mlir.MLIRError",
      "An error of our MLIR library: `headline` and `diagnostics`, a list of "
      "(severity, where, message) tuples.",
      PyExc_Exception, nullptr);
  m.attr("MLIRError") = nb::handle(mlirErrorType);
  nb::register_exception_translator(
      [](const std::exception_ptr &p, void *) {
        try {
          std::rethrow_exception(p);
        } catch (const MLIRDiagnosticError &e) {
          nb::object error = nb::handle(mlirErrorType)(nb::str(e.what()));
          error.attr("headline") = nb::str(e.headline.c_str());
          nb::list diagnostics;
          for (const auto &[severity, where, text] : e.diagnostics)
            diagnostics.append(nb::make_tuple(severity, where, text));
          error.attr("diagnostics") = diagnostics;
          PyErr_SetObject(mlirErrorType, error.ptr());
        }
      });

  m.def(
      "register_dialects",
      [](MlirDialectRegistry registry) {
        mlirTritonMUSARegisterAllDialects(registry);
      },
      nb::arg("registry"),
      "Adds our dialects (tt, ttg, musagpu and the upstream ones TTGIR and "
      "the lowering use) to a triton_musa.mlir.ir.DialectRegistry.");
  m.def(
      "translate_to_llvm_ir",
      [](nb::handle module, int optLevel,
         const std::optional<std::string> &libdevice, bool llvm14Compatible) {
        return exportLLVMIR(moduleOf(module), optLevel, libdevice,
                            llvm14Compatible);
      },
      nb::arg("module"), nb::arg("opt_level") = 3,
      nb::arg("libdevice") = nb::none(), nb::arg("llvm14_compatible") = true,
      "LLVM IR text for triple mtgpu-mt-musa (for the module's ttg.target) "
      "from a triton_musa.mlir.ir.Module (or its builtin.module operation) "
      "in the LLVM dialect (kernels marked `musa.kernel`), optimized at "
      "O<opt_level>, with `libdevice` linked if given, rewritten for the "
      "MUSA SDK's LLVM 14 llc unless llvm14_compatible is False; raises "
      "MLIRError.");
  m.def(
      "translate_to_nvptx_llvm_ir",
      [](nb::handle module, const std::string &sm, unsigned ptxVersion,
         int optLevel, const std::optional<std::string> &libdevice) {
        return exportNVPTXLLVMIR(moduleOf(module), sm, ptxVersion, optLevel,
                                 libdevice);
      },
      nb::arg("module"), nb::arg("sm") = "sm_90", nb::arg("ptx_version") = 87,
      nb::arg("opt_level") = 3, nb::arg("libdevice") = nb::none(),
      "GPU proxy: LLVM IR text for nvptx64-nvidia-cuda from a "
      "triton_musa.mlir.ir.Module lowered with "
      "convert-tritongpu-to-musa{target=proxy} (kernels ptx_kernel with "
      "nvvm.maxntid, __mt_* calls mapped onto libdevice.10.bc's __nv_* and "
      "linked); raises MLIRError.");

  m.def(
      "nvptx_to_ptx",
      [](const std::string &llvmIR, const std::string &sm,
         unsigned ptxVersion, bool fpFusion) {
        mlir::triton_musa::NVPTXExportOptions options;
        options.sm = sm;
        options.ptxVersion = ptxVersion;
        options.fpFusion = fpFusion;
        llvm::Expected<std::string> ptx =
            mlir::triton_musa::compileNVPTXLLVMIRToPTX(llvmIR, options);
        if (!ptx)
          throw MLIRDiagnosticError(llvm::toString(ptx.takeError()));
        return std::move(*ptx);
      },
      nb::arg("llvm_ir"), nb::arg("sm") = "sm_90", nb::arg("ptx_version") = 87,
      nb::arg("fp_fusion") = true,
      "GPU proxy: PTX from LLVM IR text for nvptx64-nvidia-cuda through "
      "LLVM's NVPTX backend; raises MLIRError.");
  m.def("architectures", &architectures,
        "The MUSA architecture table: one dict per supported architecture "
        "(name, codename, major, minor, warp_size, max_shared_memory_bytes, "
        "ballot_bits, matrix_unit, has_bf16, has_fp8, has_tme).");
  m.def("matrix_instructions", &matrixInstructions,
        "The matrix-instruction catalogue: one dict per row (unit, "
        "arch_major, targets, a, b, c, m, n, k, lowered, not_lowered, "
        "intrinsic, fragment, fragment_threads, operands_in_shared_memory, "
        "max_contiguous_bytes, emulator_atom, description: the row as messages "
        "and --musa-dot-path-report quote it).");
  m.def("intrinsics", &intrinsics,
        "The llvm.musa.* intrinsic table: one dict per entry (pattern, kind, "
        "shared_memory_from_zero, evidence, deviation).");
  m.def("intrinsic_signature", &intrinsicSignature, nb::arg("name"),
        nb::arg("arch"),
        "The table's signature of intrinsic `name` on `arch` (pattern, kind, "
        "result, operands as LLVM IR spells the types); ValueError when the "
        "table has no such intrinsic.");
  m.def("registered_dialects", &registeredDialects,
        "Names of the dialects the library can parse.");

  bindLinearLayout(m);
  bindLayoutConversion(m);
  bindEmulator(m);
  bindDialectClasses(m);
}

/// What triton_musa/_musa_mlir*.so's PyInit__musa_mlir returns (the module is
/// defined here, in the aggregate, and exported under a C API name).
extern "C" MLIR_CAPI_EXPORTED PyObject *mlirTritonMUSAPythonModuleInit() {
  return PyInit__musa_mlir();
}
