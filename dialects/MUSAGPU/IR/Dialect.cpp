#include "dialects/MUSAGPU/IR/Dialect.h"

#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::musagpu;

#include "dialects/MUSAGPU/IR/MUSAGPUDialect.cpp.inc"

namespace {
/// Prints layouts as aliases (`#sqmma`, `#tme_shared1`, ...), as Triton
/// prints its own (`#mma`, `#shared`): long layouts stay readable in IR.
struct MUSAGPUOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;

  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<SQMMAEncodingAttr>(attr))
      os << "sqmma";
    else if (isa<WMMAEncodingAttr>(attr))
      os << "wmma";
    else if (isa<WMMAOperandEncodingAttr>(attr))
      os << "wmma_operand";
    else if (isa<TMESharedEncodingAttr>(attr))
      os << "tme_shared";
    else
      return AliasResult::NoAlias;
    return AliasResult::FinalAlias;
  }
};
} // namespace

void MUSAGPUDialect::initialize() {
  addInterfaces<MUSAGPUOpAsmInterface>();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "dialects/MUSAGPU/IR/MUSAGPUOps.cpp.inc"
      >();
}

bool mlir::musagpu::isSharedMemoryBuffer(Type type) {
  if (auto memdesc = dyn_cast<triton::gpu::MemDescType>(type))
    return isa_and_nonnull<triton::gpu::SharedMemorySpaceAttr>(
        memdesc.getMemorySpace());
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref)
    return false;
  auto space = dyn_cast_or_null<IntegerAttr>(memref.getMemorySpace());
  return space && space.getInt() == 3;
}
