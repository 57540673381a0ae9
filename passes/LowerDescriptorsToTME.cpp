//===- LowerDescriptorsToTME.cpp - --musa-lower-descriptors-to-tme --------===//
//
// Rewrites tensor-descriptor loads and stores into TME tile transfers
// through a shared-memory buffer, tracked by integer async barriers, on
// architectures with TME (see the pass description in Passes.td for the
// shapes produced and what stays on the path without TME).
//
// Descriptor representation (decided here, used by the lowering): the TME
// ops keep the `!tt.tensordesc` operand. On the CPU emulator the lowering
// builds an emulator descriptor from the tensor's base, shape and strides
// (EmulatorABI.h), for kernel arguments and `tt.make_tensor_descriptor`
// alike. On the GPU the descriptor is the 64-byte MUtensorDescriptor the
// host encodes (muTensorDescriptorEncode) and passes by value: only kernel
// arguments qualify, each one wholly (the host passes one form per
// argument, so one use without TME keeps all its uses without TME); such
// an argument is marked `musagpu.tme_descriptor`, and the module attribute
// `musagpu.tme_descriptor_args` holds, per descriptor argument of the
// kernel, 1 where the host encodes it (what the launcher reads).
//
// Ringed loads: --musa-pipeline-loops, which runs first, already rewrote
// the descriptor loads of the loops it pipelines into TME rings; this pass
// lowers every other descriptor load where it is, and every store.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "passes/IfResults.h"
#include "passes/TMETransfers.h"

#include "dialects/MUSAGPU/IR/Dialect.h"
#include "dialects/Triton/IR/Dialect.h"
#include "dialects/TritonGPU/IR/Dialect.h"
#include "target/MUSAArch.h"
#include "target/TargetInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::triton_musa {
#define GEN_PASS_DEF_MUSALOWERDESCRIPTORSTOTME
#include "passes/Passes.h.inc"
} // namespace mlir::triton_musa

using namespace mlir;
using namespace mlir::triton_musa;
namespace ttg = mlir::triton::gpu;
namespace mgpu = mlir::musagpu;

namespace {

constexpr StringLiteral kPassFlag = "--musa-lower-descriptors-to-tme";
/// The ops from `op`'s parent up to (excluding) the function, outermost
/// first.
SmallVector<Operation *> getAncestors(Operation *op, Operation *func) {
  SmallVector<Operation *> ancestors;
  for (Operation *p = op->getParentOp(); p && p != func; p = p->getParentOp())
    ancestors.push_back(p);
  std::reverse(ancestors.begin(), ancestors.end());
  return ancestors;
}

/// Threads i32 values (starting at `inits`) through every scf.for around
/// `op` as extra iter_args, and through every scf.if around it as extra
/// results; returns their values at `op`. `next(values)`, called once with
/// the insertion point unspecified, builds the values to carry on after
/// `op` (it may replace `op` itself).
FailureOr<SmallVector<Value>>
threadState(IRRewriter &rewriter, Operation *op, Operation *func,
            ValueRange inits,
            function_ref<FailureOr<SmallVector<Value>>(ValueRange)> next) {
  size_t n = inits.size();
  SmallVector<Value> state(inits);
  size_t depth = getAncestors(op, func).size();
  // The state on entry to each level (what an if's other branch passes on).
  SmallVector<SmallVector<Value>> entryStates;
  for (size_t level = 0; level < depth; ++level) {
    entryStates.push_back(state);
    auto loop = dyn_cast<scf::ForOp>(getAncestors(op, func)[level]);
    if (!loop)
      continue;
    rewriter.setInsertionPoint(loop);
    auto replaced = loop.replaceWithAdditionalYields(
        rewriter, state, /*replaceInitOperandUsesInLoop=*/false,
        [](OpBuilder &, Location, ArrayRef<BlockArgument> args) {
          return SmallVector<Value>(args.begin(), args.end());
        });
    if (failed(replaced))
      return failure();
    auto newLoop = cast<scf::ForOp>(replaced->getOperation());
    state.assign(newLoop.getRegionIterArgs().take_back(n).begin(),
                 newLoop.getRegionIterArgs().take_back(n).end());
  }
  SmallVector<Operation *> ancestors = getAncestors(op, func);
  FailureOr<SmallVector<Value>> carried = next(state);
  if (failed(carried))
    return failure();
  // The innermost level passes the new values on, each outer level its
  // inner level's.
  SmallVector<Value> values = *carried;
  for (size_t level = ancestors.size(); level-- > 0;) {
    if (auto ifOp = dyn_cast<scf::IfOp>(ancestors[level])) {
      Operation *inside = level + 1 < ancestors.size()
                              ? ancestors[level + 1]
                              : values[0].getDefiningOp();
      // The branch holding the op passes the new values on, the other one
      // the values on entry.
      ValueRange onEntry = entryStates[level], carriedOn = values;
      bool inThen = ifOp.getThenRegion().isAncestor(inside->getParentRegion());
      scf::IfOp newIf =
          appendIfResults(rewriter, ifOp, inThen ? carriedOn : onEntry,
                          inThen ? onEntry : carriedOn);
      // The if is replaced: the next level out finds the new one inside.
      ancestors[level] = newIf;
      values.assign(newIf.getResults().take_back(n).begin(),
                    newIf.getResults().take_back(n).end());
      continue;
    }
    auto loop = cast<scf::ForOp>(ancestors[level]);
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (size_t i = 0; i < n; ++i)
      yield->setOperand(yield.getNumOperands() - n + i, values[i]);
    values.assign(loop.getResults().take_back(n).begin(),
                  loop.getResults().take_back(n).end());
  }
  return state;
}

/// One descriptor load that goes through TME where it is.
struct PlannedLoad {
  triton::DescriptorLoadOp op;
  int32_t barrier = 0;
  /// The matrix-unit operand buffer the loaded tile is copied into
  /// (getMatrixOperandAlloc), which the TME buffer replaces; null if none.
  ttg::LocalAllocOp operandAlloc;
};

/// The `ttg.local_alloc` that copies `load`'s tile into a matrix-unit
/// operand buffer, where TME can write that buffer itself: the tile's only
/// use, in the same block, immutable, with a #musagpu.tme_shared encoding,
/// and read only by musagpu.sqmma ops of that block each waited for there.
ttg::LocalAllocOp getMatrixOperandAlloc(triton::DescriptorLoadOp load) {
  if (!load->hasOneUse())
    return {};
  auto alloc = dyn_cast<ttg::LocalAllocOp>(*load->getUsers().begin());
  if (!alloc || !alloc.getSrc() || alloc->getBlock() != load->getBlock())
    return {};
  ttg::MemDescType type = alloc.getType();
  if (type.getMutableMemory() ||
      !isa<mgpu::TMESharedEncodingAttr>(type.getEncoding()))
    return {};
  Block *block = load->getBlock();
  for (Operation *user : alloc->getUsers()) {
    auto mma = dyn_cast<mgpu::SQMMAOp>(user);
    if (!mma || mma->getBlock() != block ||
        llvm::none_of(mma->getUsers(), [&](Operation *u) {
          return isa<mgpu::SQMMAWaitOp>(u) && u->getBlock() == block;
        }))
      return {};
  }
  return alloc;
}

/// Rewrites the TME loads and stores of one function: constants and
/// barrier set-up at the function's entry (in creation order), then the
/// loads and the stores.
class TMERewriter {
public:
  TMERewriter(triton::FuncOp func, const TargetInfo &targetInfo)
      : targetInfo(targetInfo), func(func), ctx(func.getContext()), rewriter(ctx),
        entry(OpBuilder::atBlockBegin(&func.getBody().front())),
        funcLoc(func.getLoc()), i32(rewriter.getI32Type()) {
    zero = i32c(0);
    one = i32c(1);
    // The barriers' set-up follows the barrier record.
    Block &block = func.getBody().front();
    auto records = block.getOps<mgpu::AsyncBarrierRecordOp>();
    if (!records.empty())
      entry.setInsertionPointAfter(*records.begin());
  }

  /// Initializes `load`'s barrier (id `id`) at the function's entry.
  void initBarrier(PlannedLoad &load, int32_t id);
  /// Rewrites a load: issue, wait, read the buffer.
  LogicalResult rewriteLoad(PlannedLoad &load);
  /// Rewrites a store: into a buffer, then a TME store from it.
  void rewriteStore(triton::DescriptorStoreOp store);

private:
  Value i32c(int64_t v) {
    return arith::ConstantOp::create(entry, funcLoc, i32,
                                     entry.getI32IntegerAttr(v));
  }
  /// A buffer for `op`'s tile, allocated before its outermost enclosing
  /// loop (or itself) and freed after it; `beforeFree` runs just before the
  /// free. Its layout is `operandAlloc`'s where given (the tile is a matrix
  /// unit's operand), else the target's TME layout.
  Value allocateBuffer(Operation *op, RankedTensorType tile,
                       function_ref<void()> beforeFree,
                       ttg::LocalAllocOp operandAlloc = {});

  const TargetInfo &targetInfo;
  triton::FuncOp func;
  MLIRContext *ctx;
  IRRewriter rewriter;
  OpBuilder entry;
  Location funcLoc;
  Type i32;
  Value zero, one;
  DenseMap<Operation *, Value> barrierIds; // per load
};

void TMERewriter::initBarrier(PlannedLoad &load, int32_t id) {
  load.barrier = id;
  Value bar = i32c(id);
  barrierIds[load.op] = bar;
  mgpu::AsyncBarrierInitOp::create(entry, funcLoc, bar, one, zero);
}

Value TMERewriter::allocateBuffer(Operation *op, RankedTensorType tile,
                                  function_ref<void()> beforeFree,
                                  ttg::LocalAllocOp operandAlloc) {
  Operation *outer = tme::getBufferScope(op);
  auto [chosen, alignment] = targetInfo.getTMESharedEncoding(
      ctx, tile.getShape(), tile.getElementTypeBitWidth());
  Attribute encoding = chosen;
  if (operandAlloc) {
    // The matrix unit's layout, with the alignment its swizzle needs.
    encoding = operandAlloc.getType().getEncoding();
    if (auto align = operandAlloc->getAttrOfType<IntegerAttr>("alignment"))
      alignment = std::max<int32_t>(alignment, align.getInt());
  }
  auto type = ttg::MemDescType::get(tile.getShape(), tile.getElementType(),
                                    encoding,
                                    ttg::SharedMemorySpaceAttr::get(ctx),
                                    /*mutableMemory=*/true);
  rewriter.setInsertionPoint(outer);
  auto alloc =
      ttg::LocalAllocOp::create(rewriter, op->getLoc(), type, Value(),
                                rewriter.getI32IntegerAttr(alignment));
  rewriter.setInsertionPointAfter(outer);
  beforeFree();
  ttg::LocalDeallocOp::create(rewriter, op->getLoc(), alloc);
  return alloc;
}

LogicalResult TMERewriter::rewriteLoad(PlannedLoad &load) {
  triton::DescriptorLoadOp op = load.op;
  Location loc = op.getLoc();
  auto tile = cast<RankedTensorType>(op.getType());
  Value buffer = allocateBuffer(op, tile, [] {}, load.operandAlloc);
  Value bar = barrierIds.lookup(op);
  Operation *wait = nullptr;
  FailureOr<SmallVector<Value>> phase = threadState(
      rewriter, op, func, {zero},
      [&](ValueRange at) -> FailureOr<SmallVector<Value>> {
        rewriter.setInsertionPoint(op);
        Value bytes = arith::ConstantOp::create(
            rewriter, loc, i32,
            rewriter.getI32IntegerAttr(tme::getTileBytes(tile)));
        mgpu::AsyncBarrierExpectBytesOp::create(rewriter, loc, bar, bytes);
        mgpu::TMELoadOp::create(
            rewriter, loc, op.getDesc(), tme::innermostFirst(op.getIndices()),
            buffer, bar, rewriter.getDenseI32ArrayAttr(tme::getBox(tile)));
        mgpu::AsyncBarrierArriveOp::create(rewriter, loc, bar);
        wait = mgpu::AsyncBarrierWaitOp::create(rewriter, loc, bar, at[0]);
        return SmallVector<Value>{
            arith::XOrIOp::create(rewriter, loc, at[0], one)};
      });
  if (failed(phase))
    return op.emitError() << kPassFlag
                          << ": cannot carry the async barrier phase "
                             "through the enclosing loops";
  // The tile is read right after the wait.
  rewriter.setInsertionPointAfter(wait);
  if (load.operandAlloc) {
    rewriter.replaceOp(load.operandAlloc, buffer);
    rewriter.eraseOp(op);
    return success();
  }
  Value result =
      ttg::LocalLoadOp::create(rewriter, loc, op.getType(), buffer, Value());
  rewriter.replaceOp(op, result);
  return success();
}

void TMERewriter::rewriteStore(triton::DescriptorStoreOp store) {
  Location loc = store.getLoc();
  auto tile = cast<RankedTensorType>(store.getSrc().getType());
  Value buffer = allocateBuffer(store, tile, [&] {
    mgpu::TMEStoreWaitOp::create(rewriter, loc);
  });
  rewriter.setInsertionPoint(store);
  // In a loop the previous iteration's store may still read the buffer.
  if (!getAncestors(store, func).empty())
    mgpu::TMEStoreWaitOp::create(rewriter, loc);
  ttg::LocalStoreOp::create(rewriter, loc, store.getSrc(), buffer);
  mgpu::TMEStoreOp::create(rewriter, loc, buffer, store.getDesc(),
                           tme::innermostFirst(store.getIndices()),
                           rewriter.getDenseI32ArrayAttr(tme::getBox(tile)));
  mgpu::TMEStoreCommitOp::create(rewriter, loc);
  rewriter.eraseOp(store);
}

struct MUSALowerDescriptorsToTME
    : public mlir::triton_musa::impl::MUSALowerDescriptorsToTMEBase<
          MUSALowerDescriptorsToTME> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<const MUSAArchInfo *> musaArch =
        resolveMUSAArch(module, arch, kPassFlag);
    if (failed(musaArch))
      return signalPassFailure();
    // Without TME every descriptor op keeps the plain path: nothing to say.
    // The GPU proxy runs mp_31's TME as TMA.
    if (!(*musaArch)->hasTME)
      return;
    std::unique_ptr<TargetInfo> targetInfo =
        createTargetInfo(**musaArch, target);
    for (auto func : module.getOps<triton::FuncOp>())
      if (failed(runOnFunction(func, *targetInfo)))
        return signalPassFailure();
  }

private:
  void markHostEncodedArguments(triton::FuncOp func,
                                const tme::TransferReasons &reasons);
  LogicalResult runOnFunction(triton::FuncOp func,
                              const TargetInfo &targetInfo);
};

/// Whether every use of `desc` moves a tile through TME: a TME op, a
/// transfer TME takes (`reasons`), or the capture of a warp-specialized
/// partition whose argument is used so.
static bool usedOnlyThroughTME(Value desc,
                               const tme::TransferReasons &reasons) {
  for (OpOperand &use : desc.getUses()) {
    Operation *user = use.getOwner();
    if (isa<mgpu::TMELoadOp, mgpu::TMEStoreOp>(user))
      continue;
    if (auto partitions = dyn_cast<ttg::WarpSpecializePartitionsOp>(user)) {
      for (Region &partition : partitions.getPartitionRegions())
        if (!usedOnlyThroughTME(
                partition.getArgument(use.getOperandNumber()), reasons))
          return false;
      continue;
    }
    auto it = reasons.find(user);
    if (it == reasons.end() || !it->second.empty())
      return false;
  }
  return true;
}

/// Marks the descriptor arguments the host encodes (every use through TME:
/// tme::collectTransfers keeps all uses of an argument on one form) and
/// records the form of each descriptor argument on the module.
void MUSALowerDescriptorsToTME::markHostEncodedArguments(
    triton::FuncOp func, const tme::TransferReasons &reasons) {
  MLIRContext *ctx = &getContext();
  SmallVector<int32_t> encodedArgs;
  for (BlockArgument arg : func.getArguments()) {
    if (!isa<triton::TensorDescType>(arg.getType()))
      continue;
    encodedArgs.push_back(0);
    if (arg.use_empty() || !tme::isKernelArgument(arg))
      continue;
    if (!usedOnlyThroughTME(arg, reasons))
      continue;
    func.setArgAttr(arg.getArgNumber(), kTMEDescriptorArgAttrName,
                    UnitAttr::get(ctx));
    encodedArgs.back() = 1;
  }
  if (func.isPublic() && !encodedArgs.empty())
    func->getParentOfType<ModuleOp>()->setAttr(
        kTMEDescriptorArgsAttrName, DenseI32ArrayAttr::get(ctx, encodedArgs));
}

LogicalResult
MUSALowerDescriptorsToTME::runOnFunction(triton::FuncOp func,
                                         const TargetInfo &targetInfo) {
  tme::TransferReasons reasons =
      tme::collectTransfers(func, targetInfo, /*remarkOthers=*/true);
  // One barrier per load; past the function's ids a load stays without
  // TME, unless its argument already goes through TME in a ring (the host
  // passes one form per argument).
  int64_t loadsViaTME = llvm::count_if(reasons, [](const auto &entry) {
    return isa<triton::DescriptorLoadOp>(entry.first) && entry.second.empty();
  });
  bool keepIdForCopies = tme::hasAsyncCopies(func);
  int64_t granted = std::clamp<int64_t>(
      tme::kMaxAsyncBarrierId + 1 -
          tme::nextAsyncBarrierId(func, keepIdForCopies),
      0, loadsViaTME);
  FailureOr<int32_t> firstId =
      granted > 0 ? tme::reserveAsyncBarrierIds(func, int32_t(granted),
                                                keepIdForCopies)
                  : FailureOr<int32_t>(failure());
  int64_t given = 0;
  for (auto &[op, why] : reasons) {
    auto load = dyn_cast<triton::DescriptorLoadOp>(op);
    if (load && why.empty() && given++ >= granted)
      why = "the function already uses all its async barriers";
  }
  if (targetInfo.tmeReadsHostEncodedDescriptorsOnly()) {
    // A load left without a barrier keeps its argument's other uses
    // without TME too, which the rings of the pipeliner can no longer be.
    tme::applyOneFormPerArgument(func, reasons);
    for (auto &[op, why] : reasons) {
      Value desc = op->getOperand(0);
      if (!why.empty() && tme::isKernelArgument(desc) &&
          llvm::any_of(desc.getUsers(), [](Operation *user) {
            return isa<mgpu::TMELoadOp>(user);
          }))
        return op->emitError()
               << kPassFlag << ": this transfer stays without TME (" << why
               << "), but its descriptor argument already goes through TME "
                  "in a pipelined loop, and the host passes one form per "
                  "argument";
    }
    markHostEncodedArguments(func, reasons);
  }

  SmallVector<PlannedLoad> loads;
  SmallVector<triton::DescriptorStoreOp> stores;
  for (auto &[op, why] : reasons) {
    if (!why.empty()) {
      op->emitRemark() << (isa<triton::DescriptorLoadOp>(op)
                               ? "descriptor load"
                               : "descriptor store")
                       << " stays without TME: " << why;
      continue;
    }
    if (auto load = dyn_cast<triton::DescriptorLoadOp>(op))
      loads.push_back({load, 0, getMatrixOperandAlloc(load)});
    else
      stores.push_back(cast<triton::DescriptorStoreOp>(op));
  }
  if (loads.empty() && stores.empty())
    return success();

  TMERewriter tme(func, targetInfo);
  for (auto [i, load] : llvm::enumerate(loads))
    tme.initBarrier(load, *firstId + int32_t(i));
  for (PlannedLoad &load : loads)
    if (failed(tme.rewriteLoad(load)))
      return failure();
  for (triton::DescriptorStoreOp store : stores)
    tme.rewriteStore(store);
  return success();
}

} // namespace
