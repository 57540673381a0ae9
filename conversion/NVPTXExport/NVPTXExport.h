//===- NVPTXExport.h - The GPU proxy's LLVM IR and PTX --------*- C++ -*-===//
//
// The back end of the GPU proxy (TargetKind::Proxy, target/ProxyTargetInfo.cpp):
// a module lowered by `--convert-tritongpu-to-musa{target=proxy}` becomes
// LLVM IR for `nvptx64-nvidia-cuda`, then PTX through the NVPTX backend of
// the LLVM we link. ptxas (from the triton wheel) makes the cubin.
//
// translateToNVPTXLLVMIR: translate (mlir::translateModuleToLLVMIR), take the
// triple and data layout of the NVPTX TargetMachine for `sm`, turn each
// kernel marker of LLVMIRExport.h (`musa.kernel`, `musa.maxntidx`) into the
// `ptx_kernel` calling convention and the "nvvm.maxntid" attribute, rename
// the `__mt_*` libdevice calls to their `__nv_*` counterparts
// (LibdeviceNames.h), link those of libdevice.10.bc (then internalize),
// verify, optimize at O<optLevel> with the NVPTX pass-builder callbacks
// (NVVMReflect resolves libdevice's `__nvvm_reflect`), strip debug info.
//
// compileNVPTXLLVMIRToPTX: LLVM IR text -> PTX text for `sm` and PTX ISA
// `ptxVersion` (e.g. 87 for ptxas 12.8).
//
//===----------------------------------------------------------------------===//
#ifndef TRITON_MUSA_CONVERSION_NVPTXEXPORT_NVPTXEXPORT_H
#define TRITON_MUSA_CONVERSION_NVPTXEXPORT_NVPTXEXPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace mlir::triton_musa {

inline constexpr llvm::StringLiteral kNVPTXTriple = "nvptx64-nvidia-cuda";

struct NVPTXExportOptions {
  /// The NVIDIA GPU: "sm_90a" is Hopper with the arch-specific
  /// instructions SQMMA becomes (wgmma).
  std::string sm = "sm_90a";
  /// PTX ISA version times ten (87 = PTX 8.7).
  unsigned ptxVersion = 87;
  /// 0..3: the default new-pass-manager pipeline O<optLevel>.
  unsigned optLevel = 3;
  /// libdevice.10.bc; needed only when the module calls `__mt_*` functions.
  std::optional<std::string> libdevicePath;
  /// Contract a*b+c into FMA in code generation (Triton's enable_fp_fusion).
  bool fpFusion = true;
};

/// LLVM IR text for nvptx64-nvidia-cuda from a module in the LLVM dialect
/// lowered with target=proxy. Errors are also emitted as diagnostics on the
/// module's context.
llvm::Expected<std::string>
translateToNVPTXLLVMIR(ModuleOp module, const NVPTXExportOptions &options);

/// PTX text from LLVM IR text for nvptx64-nvidia-cuda.
llvm::Expected<std::string>
compileNVPTXLLVMIRToPTX(llvm::StringRef llvmIR,
                        const NVPTXExportOptions &options);

} // namespace mlir::triton_musa

#endif // TRITON_MUSA_CONVERSION_NVPTXEXPORT_NVPTXEXPORT_H
