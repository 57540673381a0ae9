//===- WarpSpecializeOpToLLVM.cpp - ttg.warp_specialize -> branches -------===//
//
// A block of a kernel with warp-specialized loops runs the module's
// num-warps warps and, after them, the warps of each partition
// ("ttg.total-num-warps" in all). Every warp runs the code before a
// ttg.warp_specialize (so the partitions find their captures computed, and
// block barriers there count every warp); there the partition warps branch
// into their partition and return from the kernel at its end, the others
// run the default region and go on.
//
// So nothing in a partition or in the default region may wait for the
// whole block (the other group never arrives): the ops that lower to a
// block barrier are refused there; --musa-insert-barriers refuses to place
// one. Code after the op runs without the partition warps, which have
// returned (a block barrier there counts the warps still running: the
// emulator's rule, and the bring-up kit's probe for the hardware).
//
//===----------------------------------------------------------------------===//

#include "conversion/TritonGPUToMUSA/PatternTritonGPUOpToLLVM.h"

#include "dialects/MUSAGPU/IR/Dialect.h"
#include "dialects/Triton/IR/Dialect.h"
#include "dialects/TritonGPU/IR/Dialect.h"

#include "target/Scratch.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"

using namespace mlir;
using namespace mlir::triton_musa;
namespace ttg = mlir::triton::gpu;
namespace mgpu = mlir::musagpu;

namespace {

/// The op of `region` (or nested in it) that lowers to a block barrier,
/// which a warp-specialized region cannot run, or null: those that
/// synchronize the block themselves, and those with a scratch buffer (a
/// layout conversion or reduction through shared memory).
Operation *findBlockBarrier(Region &region) {
  Operation *found = nullptr;
  region.walk([&](Operation *op) {
    bool scratch =
        op->hasAttr(kAllocationOffsetAttr) && !isa<ttg::LocalAllocOp>(op);
    if (scratch ||
        isa<ttg::LocalBarrierOp, mgpu::AsyncBarrierInitOp, mgpu::TMEStoreOp,
            mgpu::TMEStoreWaitOp, ttg::AsyncWaitOp>(op)) {
      found = op;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

struct WarpSpecializeOpConversion : public MUSAPattern<ttg::WarpSpecializeOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult lower(ttg::WarpSpecializeOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    // (Placement and block barriers: prepareWarpSpecializedRegions, before
    // the conversion moves the function's body.)
    ttg::WarpSpecializePartitionsOp partitions = op.getPartitionOp();
    auto launch = ttg::getModuleLaunchInfo(op->getParentOfType<ModuleOp>());
    if (!launch)
      return op.emitError("the module has no \"ttg.num-warps\" and "
                          "\"ttg.threads-per-warp\"");
    unsigned warpSize = launch->threadsPerWarp;
    unsigned partitionWarps = 0;
    for (int32_t warps : op.getPartitionNumWarps())
      partitionWarps += unsigned(warps);
    if (launch->numWarps + partitionWarps > launch->totalNumWarps)
      return op.emitError()
             << "the partitions need " << launch->numWarps + partitionWarps
             << " warps in all, but the module's \"ttg.total-num-warps\" is "
             << launch->totalNumWarps;

    Location loc = op.getLoc();
    Block *head = rewriter.getInsertionBlock();
    Block *rest = rewriter.splitBlock(head, rewriter.getInsertionPoint());
    Block *join = rest;
    if (op.getNumResults() != 0) {
      SmallVector<Location> locs(op.getNumResults(), loc);
      join = rewriter.createBlock(rest, op.getResultTypes(), locs);
      cf::BranchOp::create(rewriter, loc, rest);
    }

    // The default region: its yield branches to the join.
    Block *defaultEntry = &op.getDefaultRegion().front();
    for (Block &block : op.getDefaultRegion())
      if (auto yield = dyn_cast<ttg::WarpYieldOp>(block.getTerminator())) {
        rewriter.setInsertionPoint(yield);
        rewriter.replaceOpWithNewOp<cf::BranchOp>(yield, join,
                                                  yield.getValues());
      }
    rewriter.inlineRegionBefore(op.getDefaultRegion(), join);

    // Each partition from its first warp on (its ops were marked with its
    // first thread by prepareWarpSpecializedRegions); its end returns from
    // the kernel.
    SmallVector<std::pair<Block *, unsigned>> partitionEntries;
    unsigned firstWarp = launch->numWarps;
    for (auto [region, warps] : llvm::zip_equal(
             partitions.getPartitionRegions(), op.getPartitionNumWarps())) {
      for (Block &block : region)
        if (auto ret = dyn_cast<ttg::WarpReturnOp>(block.getTerminator())) {
          rewriter.setInsertionPoint(ret);
          rewriter.replaceOpWithNewOp<LLVM::ReturnOp>(ret, ValueRange());
        }
      // The captures themselves replace the partition's arguments (they
      // dominate it: every warp computed them), so that what the lowering
      // traces back to its origin (a descriptor to the kernel's argument)
      // is still found there.
      Block *entry = rewriter.createBlock(join);
      Block *first = &region.front();
      rewriter.inlineRegionBefore(region, join);
      rewriter.mergeBlocks(first, entry, partitions.getExplicitCaptures());
      partitionEntries.push_back({entry, firstWarp});
      firstWarp += unsigned(warps);
    }

    // The dispatch: warps below num-warps run the default region, each
    // partition's warps their partition.
    rewriter.setInsertionPointToEnd(head);
    Value tid = targetInfo.threadId(rewriter, loc, 0);
    Value warp = targetInfo.warpUniform(
        rewriter, loc,
        LLVM::UDivOp::create(rewriter, loc, tid,
                             i32Const(rewriter, loc, int32_t(warpSize))));
    // head: warp < num-warps ? default : test 0; test k: warp < the next
    // partition's first warp ? partition k : test k + 1; the last partition
    // takes the rest.
    if (partitionEntries.empty()) {
      cf::BranchOp::create(rewriter, loc, defaultEntry);
      rewriter.replaceOp(op, join->getArguments());
      return success();
    }
    Block *test = rewriter.createBlock(defaultEntry);
    rewriter.setInsertionPointToEnd(head);
    Value isDefault = LLVM::ICmpOp::create(
        rewriter, loc, LLVM::ICmpPredicate::ult, warp,
        i32Const(rewriter, loc, int32_t(launch->numWarps)));
    cf::CondBranchOp::create(rewriter, loc, isDefault, defaultEntry,
                             ValueRange(), test, ValueRange());
    for (auto [index, entry] : llvm::enumerate(partitionEntries)) {
      rewriter.setInsertionPointToEnd(test);
      if (index + 1 == partitionEntries.size()) {
        cf::BranchOp::create(rewriter, loc, entry.first);
        break;
      }
      Block *next = rewriter.createBlock(defaultEntry);
      rewriter.setInsertionPointToEnd(test);
      Value inThis = LLVM::ICmpOp::create(
          rewriter, loc, LLVM::ICmpPredicate::ult, warp,
          i32Const(rewriter, loc,
                   int32_t(partitionEntries[index + 1].second)));
      cf::CondBranchOp::create(rewriter, loc, inThis, entry.first,
                               ValueRange(), next, ValueRange());
      test = next;
    }
    rewriter.replaceOp(op, join->getArguments());
    return success();
  }
};

} // namespace

LogicalResult
mlir::triton_musa::prepareWarpSpecializedRegions(ModuleOp module) {
  auto launch = ttg::getModuleLaunchInfo(module);
  WalkResult result = module.walk([&](ttg::WarpSpecializeOp op) {
    auto kernel = dyn_cast<triton::FuncOp>(op->getParentOp());
    if (!kernel || !kernel.isPublic()) {
      op.emitError("ttg.warp_specialize is supported only directly in a "
                   "kernel's body (its partition warps return from the "
                   "kernel at the partition's end)");
      return WalkResult::interrupt();
    }
    SmallVector<Region *> regions = {&op.getDefaultRegion()};
    for (Region &partition : op.getPartitionOp().getPartitionRegions())
      regions.push_back(&partition);
    for (Region *region : regions)
      if (Operation *barrier = findBlockBarrier(*region)) {
        barrier->emitError()
            << "'" << barrier->getName()
            << "' waits for the whole block, which a warp-specialized "
               "region cannot do: the other warps never arrive";
        return WalkResult::interrupt();
      }
    // The partitions' first threads, for the ops one thread issues (set
    // here, outside the conversion, which inlines the partitions).
    if (!launch)
      return WalkResult::advance(); // the pattern reports it
    int64_t firstWarp = launch->numWarps;
    for (auto [partition, warps] :
         llvm::zip_equal(op.getPartitionOp().getPartitionRegions(),
                         op.getPartitionNumWarps())) {
      IntegerAttr firstThread = IntegerAttr::get(
          IntegerType::get(op.getContext(), 64),
          firstWarp * int64_t(launch->threadsPerWarp));
      partition.walk([&](Operation *inner) {
        inner->setAttr(kPartitionFirstThreadAttr, firstThread);
      });
      firstWarp += warps;
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

void mlir::triton_musa::populateWarpSpecializeOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo) {
  patterns.add<WarpSpecializeOpConversion>(typeConverter, targetInfo);
}
