//===- Dialect.cpp - ttg dialect registration and module checks -----------===//

#include "dialects/TritonGPU/IR/Dialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::triton::gpu;

#include "dialects/TritonGPU/IR/TritonGPUDialect.cpp.inc"

namespace {
/// Alias names as Triton prints them (#blocked, #blocked1, #shared, #smem,
/// #linear, ...); slice and dot_op layouts are printed inline.
struct TritonGPUOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;

  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<BlockedEncodingAttr>(attr)) {
      os << "blocked";
      return AliasResult::FinalAlias;
    }
    if (isa<LinearEncodingAttr>(attr)) {
      os << "linear";
      return AliasResult::FinalAlias;
    }
    if (isa<SharedEncodingTrait>(attr)) {
      os << "shared";
      return AliasResult::FinalAlias;
    }
    if (isa<SharedMemorySpaceAttr>(attr)) {
      os << "smem";
      return AliasResult::FinalAlias;
    }
    return AliasResult::NoAlias;
  }
};
} // namespace

void TritonGPUDialect::initialize() {
  registerAttributes();
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "dialects/TritonGPU/IR/TritonGPUOps.cpp.inc"
      >();
  addInterfaces<TritonGPUOpAsmInterface>();
}

std::optional<ModuleLaunchInfo>
mlir::triton::gpu::getModuleLaunchInfo(ModuleOp module) {
  auto getInt = [&](StringRef name) -> std::optional<unsigned> {
    auto attr = module->getAttrOfType<IntegerAttr>(name);
    if (!attr || attr.getValue().isNegative() ||
        attr.getValue().getActiveBits() > 32)
      return std::nullopt;
    return attr.getValue().getZExtValue();
  };
  std::optional<unsigned> numWarps =
      getInt(TritonGPUDialect::getNumWarpsAttrName());
  std::optional<unsigned> threadsPerWarp =
      getInt(TritonGPUDialect::getThreadsPerWarpAttrName());
  if (!numWarps || !threadsPerWarp)
    return std::nullopt;
  ModuleLaunchInfo info;
  info.numWarps = *numWarps;
  info.totalNumWarps = std::max(*numWarps, getInt("ttg.total-num-warps")
                                               .value_or(*numWarps));
  info.threadsPerWarp = *threadsPerWarp;
  info.numCTAs = getInt(TritonGPUDialect::getNumCTAsAttrName()).value_or(1);
  if (auto target = module->getAttrOfType<StringAttr>(
          TritonGPUDialect::getTargetAttrName()))
    info.target = target.getValue();
  return info;
}

/// Checks every distributed layout of a tensor value in `module` against
/// the module's warp/thread/CTA counts. Partition regions of
/// ttg.warp_specialize run on other warp counts and are skipped.
static LogicalResult verifyModuleLayouts(ModuleOp module,
                                         const ModuleLaunchInfo &info) {
  auto checkType = [&](Type type, Operation *op) -> LogicalResult {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor)
      return success();
    auto layout =
        dyn_cast_or_null<DistributedEncodingTrait>(tensor.getEncoding());
    if (!layout)
      return success();
    return layout.verifyForModule(
        info.numWarps, info.threadsPerWarp, info.numCTAs, [&] {
          return op->emitOpError() << "has an invalid layout for this module ("
                                   << type << "): ";
        });
  };
  WalkResult result = module->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<WarpSpecializePartitionsOp>(op))
      return WalkResult::skip();
    if (op != module.getOperation() && isa<ModuleOp>(op))
      return WalkResult::skip();
    for (Type type : op->getResultTypes())
      if (failed(checkType(type, op)))
        return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Type type : block.getArgumentTypes())
          if (failed(checkType(type, op)))
            return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

LogicalResult
TritonGPUDialect::verifyOperationAttribute(Operation *op,
                                           NamedAttribute attribute) {
  StringRef name = attribute.getName().strref();
  bool isCount = name == getNumWarpsAttrName() ||
                 name == getNumCTAsAttrName() ||
                 name == getThreadsPerWarpAttrName();
  if (isCount) {
    auto value = dyn_cast<IntegerAttr>(attribute.getValue());
    if (!value || !value.getType().isInteger() ||
        value.getValue().isNegative() || value.getValue().getActiveBits() > 32 ||
        !llvm::isPowerOf2_64(value.getValue().getZExtValue()))
      return op->emitError() << "'" << name
                             << "' must be a positive power-of-two integer";
  }
  if (name == getTargetAttrName()) {
    auto target = dyn_cast<StringAttr>(attribute.getValue());
    if (!target || !llvm::any_of(std::initializer_list<StringRef>{
                                     "musa:", "cuda:", "hip:"},
                                 [&](StringRef prefix) {
                                   return target.getValue().starts_with(prefix);
                                 }))
      return op->emitError() << "'" << name
                             << "' must be a string naming a known backend "
                                "(musa:, cuda:, hip:)";
  }
  // Layouts are checked once per module, when its warp count is verified.
  if (name == getNumWarpsAttrName()) {
    if (auto module = dyn_cast<ModuleOp>(op)) {
      std::optional<ModuleLaunchInfo> info = getModuleLaunchInfo(module);
      if (info && llvm::isPowerOf2_32(info->threadsPerWarp) &&
          llvm::isPowerOf2_32(info->numCTAs))
        return verifyModuleLayouts(module, *info);
    }
  }
  return success();
}
