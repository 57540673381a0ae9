//===- TMETransfers.cpp - Which descriptor tiles TME moves ----------------===//
//
// See TMETransfers.h.
//
//===----------------------------------------------------------------------===//

#include "passes/TMETransfers.h"

#include "dialects/TritonGPU/IR/Dialect.h"
#include "target/TargetInfo.h"

using namespace mlir;
using namespace mlir::triton_musa;
using namespace mlir::triton_musa::tme;
namespace ttg = mlir::triton::gpu;
namespace mgpu = mlir::musagpu;

namespace {

/// Why `desc` cannot be addressed by TME on the target, or "" if it can.
std::string whyNotDescriptor(Value desc, const TargetInfo &targetInfo) {
  if (isKernelArgument(desc))
    return "";
  if (desc.getDefiningOp<triton::MakeTensorDescOp>())
    return !targetInfo.tmeReadsHostEncodedDescriptorsOnly()
               ? ""
               : "TME on the MUSA GPU reads host-encoded descriptors "
                 "(kernel arguments); encoding one made by "
                 "'tt.make_tensor_descriptor' on the device is not known "
                 "for MUSA";
  return "the descriptor is neither made by 'tt.make_tensor_descriptor' "
         "nor a kernel argument";
}

/// Why the tile `type` of `descType` cannot be one TME box, or "".
std::string whyNotBox(triton::TensorDescType descType, RankedTensorType type,
                      const TargetInfo &targetInfo) {
  RankedTensorType block = descType.getBlockType();
  if (type.getShape() != block.getShape())
    return "the tile drops dimensions of the descriptor's block";
  Type element = type.getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0)
    return "TME moves whole-byte integer or float elements";
  SmallVector<int64_t> box(llvm::reverse(block.getShape()));
  if (failed(mgpu::getTMEBoxSplits(box, element.getIntOrFloatBitWidth())))
    return "the box is not a legal TME box (at least 32 bytes innermost, "
           "and a multiple of 256 bytes when wider than 256)";
  return targetInfo.whyNotTMEBox(box);
}

} // namespace

void tme::applyOneFormPerArgument(triton::FuncOp func,
                                  TransferReasons &reasons) {
  for (BlockArgument arg : func.getArguments()) {
    if (!isa<triton::TensorDescType>(arg.getType()) || arg.use_empty() ||
        !isKernelArgument(arg))
      continue;
    std::string blocker;
    for (Operation *user : arg.getUsers()) {
      if (isa<mgpu::TMELoadOp, mgpu::TMEStoreOp>(user))
        continue;
      auto it = reasons.find(user);
      if (it == reasons.end())
        blocker =
            ("it is also used by '" + user->getName().getStringRef() + "'")
                .str();
      else if (!it->second.empty())
        blocker = it->second;
    }
    if (blocker.empty())
      continue;
    for (Operation *user : arg.getUsers())
      if (auto it = reasons.find(user);
          it != reasons.end() && it->second.empty())
        it->second = "another use of its descriptor argument stays "
                     "without TME (" +
                     blocker + ") and the host passes one form per argument";
  }
}

bool tme::isKernelArgument(Value desc) {
  auto arg = dyn_cast<BlockArgument>(desc);
  auto func = arg ? dyn_cast<triton::FuncOp>(arg.getOwner()->getParentOp())
                  : nullptr;
  unsigned rank =
      cast<triton::TensorDescType>(desc.getType()).getBlockType().getRank();
  return func && func.isPublic() && arg.getOwner()->isEntryBlock() &&
         arg.getArgNumber() + 2 * rank < func.getNumArguments();
}

TransferReasons tme::collectTransfers(triton::FuncOp func,
                                      const TargetInfo &targetInfo,
                                      bool remarkOthers) {
  TransferReasons reasons;
  func.walk([&](Operation *op) {
    if (auto load = dyn_cast<triton::DescriptorLoadOp>(op)) {
      std::string why = whyNotDescriptor(load.getDesc(), targetInfo);
      if (why.empty())
        why = whyNotBox(load.getDesc().getType(),
                        cast<RankedTensorType>(load.getType()), targetInfo);
      if (why.empty())
        for (Operation *p = op->getParentOp(); p && p != func;
             p = p->getParentOp())
          if (!isa<scf::ForOp, scf::IfOp>(p))
            why = ("it is inside '" + p->getName().getStringRef() +
                   "' (loads are tracked through scf.for and scf.if only)")
                      .str();
      reasons[op] = why;
    } else if (auto store = dyn_cast<triton::DescriptorStoreOp>(op)) {
      std::string why = whyNotDescriptor(store.getDesc(), targetInfo);
      if (why.empty())
        why = whyNotBox(store.getDesc().getType(),
                        cast<RankedTensorType>(store.getSrc().getType()),
                        targetInfo);
      reasons[op] = why;
    } else if (remarkOthers &&
               isa<triton::DescriptorGatherOp, triton::DescriptorScatterOp,
                   triton::DescriptorReduceOp>(op)) {
      op->emitRemark() << "'" << op->getName()
                       << "' stays without TME: MUSA's TME has no "
                          "gather/scatter/reduce form known here";
    }
  });
  if (targetInfo.tmeReadsHostEncodedDescriptorsOnly())
    applyOneFormPerArgument(func, reasons);
  return reasons;
}

SmallVector<int32_t> tme::getBox(RankedTensorType tile) {
  SmallVector<int32_t> box;
  for (int64_t d : llvm::reverse(tile.getShape()))
    box.push_back(int32_t(d));
  return box;
}

SmallVector<Value> tme::innermostFirst(ValueRange indices) {
  return SmallVector<Value>(llvm::reverse(indices));
}

int64_t tme::getTileBytes(RankedTensorType tile) {
  return tile.getNumElements() * (tile.getElementTypeBitWidth() / 8);
}

Operation *tme::getBufferScope(Operation *op) {
  Operation *scope = op;
  for (Operation *p = op->getParentOp(); p && !isa<triton::FuncOp>(p);
       p = p->getParentOp())
    if (isa<LoopLikeOpInterface>(p))
      scope = p;
  return scope;
}

bool tme::hasAsyncCopies(triton::FuncOp func) {
  bool found = false;
  func.walk([&](Operation *op) {
    if (isa<ttg::AsyncCopyGlobalToLocalOp, mgpu::AsyncCopyGlobalToSharedOp>(
            op))
      found = true;
  });
  return found;
}

namespace {
mgpu::AsyncBarrierRecordOp getRecord(triton::FuncOp func) {
  auto records = func.getBody().front().getOps<mgpu::AsyncBarrierRecordOp>();
  return records.empty() ? mgpu::AsyncBarrierRecordOp() : *records.begin();
}
} // namespace

int32_t tme::nextAsyncBarrierId(triton::FuncOp func, bool keepIdForCopies) {
  mgpu::AsyncBarrierRecordOp record = getRecord(func);
  return record ? int32_t(record.getCount()) + 1 : (keepIdForCopies ? 2 : 1);
}

FailureOr<int32_t> tme::reserveAsyncBarrierIds(triton::FuncOp func,
                                               int32_t count,
                                               bool keepIdForCopies) {
  int32_t first = nextAsyncBarrierId(func, keepIdForCopies);
  int32_t last = first + count - 1;
  if (count < 1 || last > kMaxAsyncBarrierId)
    return failure();
  if (mgpu::AsyncBarrierRecordOp record = getRecord(func)) {
    record.setCount(last);
  } else {
    OpBuilder b = OpBuilder::atBlockBegin(&func.getBody().front());
    mgpu::AsyncBarrierRecordOp::create(b, func.getLoc(), last);
  }
  return first;
}
