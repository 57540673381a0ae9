//===- LibdeviceNames.cpp - __mt_* libdevice names -> __nv_* --------------===//

#include "conversion/NVPTXExport/LibdeviceNames.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir::triton_musa;

std::optional<std::string>
mlir::triton_musa::getNVLibdeviceName(llvm::StringRef mtName) {
  // libdevice.py's fp32 rsqrt is a MUSA intrinsic, not an `__mt_` function.
  if (mtName == "llvm.musa.rsq")
    return std::string("__nv_rsqrtf");
  llvm::StringRef name = mtName;
  if (!name.consume_front("__mt_"))
    return std::nullopt;
  // Names that do not follow the rule.
  llvm::StringRef special = llvm::StringSwitch<llvm::StringRef>(name)
                                .Case("expf_f32", "fast_expf")
                                .Case("fast_fdivide_f32", "fast_fdividef")
                                .Case("div_rte_f64", "ddiv_rn")
                                .Case("div_rtz_f64", "ddiv_rz")
                                .Case("div_rtn_f64", "ddiv_rd")
                                .Case("div_rtp_f64", "ddiv_ru")
                                .Case("isfinite_f32", "finitef")
                                .Case("isfinite_f64", "isfinited")
                                .Case("isnan_f64", "isnand")
                                .Case("isinf_f64", "isinfd")
                                .Case("abs_i32", "abs")
                                .Case("abs_i64", "llabs")
                                .Case("ffs_i32", "ffs")
                                .Case("ffsll_i64", "ffsll")
                                .Case("pown_f32", "powif")
                                .Case("pown_f64", "powi")
                                .Case("ncdf_f32", "normcdff")
                                .Case("saturate_f32", "saturatef")
                                // MT's fast tanh: the accurate one is
                                // at least as accurate.
                                .Case("tt_tanh_f32", "tanhf")
                                .Default("");
  if (!special.empty())
    return "__nv_" + special.str();
  if (name.consume_back("_f32"))
    return "__nv_" + name.str() + "f";
  if (name.consume_back("_f64"))
    return "__nv_" + name.str();
  return "__nv_" + name.str();
}
