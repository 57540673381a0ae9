//===- SharedMemoryBuffers.cpp - Shared-memory buffers of TTGIR ----------===//

#include "passes/SharedMemoryBuffers.h"

#include "layouts/SharedBuffers.h"
#include "target/Scratch.h"

#include "dialects/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::triton_musa;
namespace ttg = mlir::triton::gpu;

FailureOr<std::optional<OwnedBuffer>>
mlir::triton_musa::getOwnedBuffer(Operation *op,
                                  const TargetInfo &targetInfo) {
  if (auto alloc = dyn_cast<ttg::LocalAllocOp>(op)) {
    auto type = cast<ttg::MemDescType>(alloc.getType());
    FailureOr<int64_t> bytes = getSharedAllocationBytes(type, [&] {
      return op->emitError() << "shared buffer " << type << ": ";
    });
    if (failed(bytes))
      return failure();
    OwnedBuffer buffer;
    buffer.bytes = *bytes;
    if (std::optional<uint32_t> align = alloc.getAlignment())
      buffer.alignment = std::max<int64_t>(buffer.alignment, *align);
    if (auto linear =
            dyn_cast<ttg::SharedLinearEncodingAttr>(type.getEncoding()))
      buffer.alignment =
          std::max<int64_t>(buffer.alignment, linear.getAlignment());
    return std::optional<OwnedBuffer>(buffer);
  }
  FailureOr<unsigned> scratch = getScratchSizeInBytes(op, targetInfo);
  if (failed(scratch))
    return failure();
  if (*scratch == 0)
    return std::optional<OwnedBuffer>();
  OwnedBuffer buffer;
  buffer.bytes = *scratch;
  buffer.isScratch = true;
  return std::optional<OwnedBuffer>(buffer);
}

namespace {
bool collect(Value value, SmallVectorImpl<Operation *> &allocs,
             llvm::SmallPtrSetImpl<Value> &visited);

/// Values yielded into result/argument `index` of `op`'s regions.
bool collectYielded(Operation *op, unsigned index,
                    SmallVectorImpl<Operation *> &allocs,
                    llvm::SmallPtrSetImpl<Value> &visited) {
  bool known = true;
  for (Region &region : op->getRegions())
    for (Block &block : region)
      if (auto yield = dyn_cast<scf::YieldOp>(block.getTerminator()))
        if (index < yield.getNumOperands())
          known &= collect(yield.getOperand(index), allocs, visited);
  return known;
}

bool collect(Value value, SmallVectorImpl<Operation *> &allocs,
             llvm::SmallPtrSetImpl<Value> &visited) {
  if (!visited.insert(value).second)
    return true;
  if (auto result = dyn_cast<OpResult>(value)) {
    Operation *def = result.getOwner();
    if (isa<ttg::LocalAllocOp>(def)) {
      allocs.push_back(def);
      return true;
    }
    if (isa<ttg::MemDescIndexOp, ttg::MemDescSubsliceOp, ttg::MemDescTransOp,
            ttg::MemDescReshapeOp, ttg::MemDescReinterpretOp>(def))
      return collect(def->getOperand(0), allocs, visited);
    unsigned index = result.getResultNumber();
    if (auto forOp = dyn_cast<scf::ForOp>(def))
      return collect(forOp.getInitArgs()[index], allocs, visited) &
             collectYielded(def, index, allocs, visited);
    if (isa<scf::IfOp>(def))
      return collectYielded(def, index, allocs, visited);
    if (auto whileOp = dyn_cast<scf::WhileOp>(def)) {
      auto condition = whileOp.getConditionOp();
      return collect(condition.getArgs()[index], allocs, visited);
    }
    return false;
  }
  auto arg = cast<BlockArgument>(value);
  Operation *parent = arg.getOwner()->getParentOp();
  if (auto forOp = dyn_cast<scf::ForOp>(parent)) {
    if (arg.getArgNumber() == 0)
      return false; // The induction variable is no memdesc.
    unsigned index = arg.getArgNumber() - 1;
    return collect(forOp.getInitArgs()[index], allocs, visited) &
           collectYielded(parent, index, allocs, visited);
  }
  if (auto whileOp = dyn_cast<scf::WhileOp>(parent)) {
    unsigned index = arg.getArgNumber();
    if (arg.getOwner()->getParent() == &whileOp.getBefore())
      return collect(whileOp.getInits()[index], allocs, visited) &
             collect(whileOp.getYieldOp().getOperand(index), allocs,
                     visited);
    return collect(whileOp.getConditionOp().getArgs()[index], allocs,
                   visited);
  }
  return false;
}
} // namespace

bool mlir::triton_musa::collectViewedAllocs(
    Value memdesc, SmallVectorImpl<Operation *> &allocs) {
  llvm::SmallPtrSet<Value, 8> visited;
  return collect(memdesc, allocs, visited);
}
