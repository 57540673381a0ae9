//===- Dialect.h - The ttg (TritonGPU) dialect ------------------*- C++ -*-===//
//
// The single header for Triton 3.6's `ttg` dialect as declared by
// triton-musa: layouts, !ttg.memdesc, !ttg.async.token and the ttg ops.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_DIALECTS_TRITONGPU_IR_DIALECT_H
#define TRITON_MUSA_DIALECTS_TRITONGPU_IR_DIALECT_H

#include "dialects/Triton/IR/Dialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TensorEncoding.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <optional>

namespace mlir::triton::gpu {

/// Memory-effect resources used by ttg ops.
struct SharedMemory : public SideEffects::Resource::Base<SharedMemory> {
  StringRef getName() final { return "<SharedMemory>"; }
};
struct GlobalMemory : public SideEffects::Resource::Base<GlobalMemory> {
  StringRef getName() final { return "<GlobalMemory>"; }
};

} // namespace mlir::triton::gpu

#include "dialects/TritonGPU/IR/TritonGPUDialect.h.inc"

#include "dialects/TritonGPU/IR/TritonGPUAttrInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/TritonGPU/IR/TritonGPUAttrDefs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/TritonGPU/IR/TritonGPUTypes.h.inc"

#define GET_OP_CLASSES
#include "dialects/TritonGPU/IR/TritonGPUOps.h.inc"

namespace mlir::triton::gpu {

/// Launch shape of a module, read from its "ttg.*" attributes.
struct ModuleLaunchInfo {
  unsigned numWarps = 0;
  /// The warps a block is launched with: numWarps and those of the
  /// functions' warp-specialized partitions ("ttg.total-num-warps").
  unsigned totalNumWarps = 0;
  unsigned threadsPerWarp = 0;
  unsigned numCTAs = 1;
  StringRef target;
};

/// Reads "ttg.num-warps", "ttg.total-num-warps" (default: num-warps),
/// "ttg.threads-per-warp", "ttg.num-ctas" and "ttg.target" from `module`; std::nullopt if num-warps or
/// threads-per-warp is missing.
std::optional<ModuleLaunchInfo> getModuleLaunchInfo(ModuleOp module);

/// Rank of a ttg layout (any LayoutEncodingTrait); 0 if `layout` is not one.
unsigned getLayoutRank(Attribute layout);

/// Splits flattened bases (`rank` integers per basis) into one vector each.
SmallVector<SmallVector<int32_t>> unflattenBases(ArrayRef<int32_t> flat,
                                                 unsigned rank);

} // namespace mlir::triton::gpu

#endif // TRITON_MUSA_DIALECTS_TRITONGPU_IR_DIALECT_H
