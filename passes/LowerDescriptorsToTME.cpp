//===- LowerDescriptorsToTME.cpp - --musa-lower-descriptors-to-tme --------===//
//
// Rewrites tensor-descriptor loads and stores into TME tile transfers
// through a shared-memory buffer, tracked by integer async barriers, on
// architectures with TME (see the pass description in Passes.td for the
// shapes produced and what stays on the path without TME).
//
// Descriptor representation (decided here, used by the lowering): the TME
// ops keep the `!tt.tensordesc` operand; --convert-tritongpu-to-musa asks
// the target for its descriptor address (TargetInfo::
// getTMEDescriptorAddress). On the CPU emulator that is an emulator
// descriptor the kernel fills from the tensor's base, shape and strides
// (EmulatorABI.h), for kernel arguments and `tt.make_tensor_descriptor`
// alike. On the GPU it must be the 64-byte MUtensorDescriptor the host
// encodes (muTensorDescriptorEncode) and the launcher passes by value;
// until the lowering receives that parameter, `target=musa` keeps every
// descriptor on the path without TME and says so in a remark.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialects/MUSAGPU/IR/Dialect.h"
#include "dialects/Triton/IR/Dialect.h"
#include "dialects/TritonGPU/IR/Dialect.h"
#include "target/MUSAArch.h"
#include "target/TargetInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

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
/// Async barrier ids are 1..63.
constexpr int32_t kMaxBarrierId = 63;

/// The ops from `op`'s parent up to (excluding) the function, outermost
/// first.
SmallVector<Operation *> getAncestors(Operation *op, Operation *func) {
  SmallVector<Operation *> ancestors;
  for (Operation *p = op->getParentOp(); p && p != func; p = p->getParentOp())
    ancestors.push_back(p);
  std::reverse(ancestors.begin(), ancestors.end());
  return ancestors;
}

/// The shared layout of a TME buffer of `shape` (dims fastest last, as
/// Triton's tiles): the box stored densely, innermost dimension fastest,
/// with the canonical swizzle (MUSA-FACTS.md: granularity 16/32/64 B,
/// stride = line = 256 B) whose period (line x stride / granularity) fits
/// the buffer, the smallest granularity first; no swizzle for buffers
/// smaller than 1 KiB. Returns the encoding and the alignment the swizzle
/// needs (the hardware swizzles absolute shared addresses).
std::pair<mgpu::TMESharedEncodingAttr, int32_t>
chooseSharedEncoding(MLIRContext *ctx, ArrayRef<int64_t> shape,
                     unsigned elementBits) {
  int64_t bytes = elementBits / 8;
  for (int64_t d : shape)
    bytes *= d;
  SmallVector<unsigned> order;
  for (unsigned d = shape.size(); d-- > 0;)
    order.push_back(d);
  for (auto [granularity, granuleBytes] :
       {std::pair{mgpu::TMESwizzleGranularity::B16, 16},
        std::pair{mgpu::TMESwizzleGranularity::B32, 32},
        std::pair{mgpu::TMESwizzleGranularity::B64, 64}}) {
    int64_t period = 256 * (256 / granuleBytes);
    if (bytes >= period && granuleBytes >= int64_t(elementBits / 8))
      return {mgpu::TMESharedEncodingAttr::get(
                  ctx, granularity, mgpu::TMESwizzleStride::B256,
                  mgpu::TMESwizzleLine::B256, elementBits, order),
              int32_t(period)};
  }
  return {mgpu::TMESharedEncodingAttr::get(
              ctx, mgpu::TMESwizzleGranularity::None,
              mgpu::TMESwizzleStride::B256, mgpu::TMESwizzleLine::B256,
              elementBits, order),
          128};
}

struct MUSALowerDescriptorsToTME
    : public mlir::triton_musa::impl::MUSALowerDescriptorsToTMEBase<
          MUSALowerDescriptorsToTME> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<TargetKind> kind = parseTargetKind(target);
    if (!kind) {
      module.emitError() << kPassFlag << ": unknown target '" << target
                         << "'; expected 'musa' or 'emulator'";
      return signalPassFailure();
    }
    FailureOr<const MUSAArchInfo *> musaArch =
        resolveMUSAArch(module, arch, kPassFlag);
    if (failed(musaArch))
      return signalPassFailure();
    // Without TME every descriptor op keeps the plain path: nothing to say.
    if (!(*musaArch)->hasTME)
      return;
    emulator = *kind == TargetKind::Emulator;
    for (auto func : module.getOps<triton::FuncOp>())
      if (failed(runOnFunction(func)))
        return signalPassFailure();
  }

private:
  bool emulator = false;

  /// Why `desc` cannot be addressed by TME, or "" if it can.
  std::string whyNotDescriptor(Value desc) {
    if (!emulator)
      return "TME on the MUSA GPU needs a host-encoded MUtensorDescriptor "
             "kernel parameter, which the lowering does not receive yet";
    if (desc.getDefiningOp<triton::MakeTensorDescOp>())
      return "";
    auto arg = dyn_cast<BlockArgument>(desc);
    auto func = arg ? dyn_cast<triton::FuncOp>(arg.getOwner()->getParentOp())
                    : nullptr;
    unsigned rank = cast<triton::TensorDescType>(desc.getType())
                        .getBlockType()
                        .getRank();
    if (func && func.isPublic() && arg.getOwner()->isEntryBlock() &&
        arg.getArgNumber() + 2 * rank < func.getNumArguments())
      return "";
    return "the descriptor is neither made by 'tt.make_tensor_descriptor' "
           "nor a kernel argument";
  }

  /// Why the tile `type` of `desc` cannot be one TME box, or "".
  std::string whyNotBox(triton::TensorDescType descType,
                        RankedTensorType type) {
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
    return "";
  }

  /// Threads a phase (i32, starting at 0) through every scf.for around
  /// `op`; returns the phase at `op`. `next(phase)` gives the value to
  /// carry to the next iteration, built at `op`.
  FailureOr<Value> threadPhase(IRRewriter &rewriter, Operation *op,
                               Operation *func, Value zero,
                               function_ref<Value(Value)> next) {
    SmallVector<Operation *> ancestors = getAncestors(op, func);
    if (ancestors.empty()) {
      next(zero);
      return zero;
    }
    Value init = zero;
    for (size_t level = 0; level < ancestors.size(); ++level) {
      auto loop = cast<scf::ForOp>(getAncestors(op, func)[level]);
      rewriter.setInsertionPoint(loop);
      auto replaced = loop.replaceWithAdditionalYields(
          rewriter, ValueRange{init}, /*replaceInitOperandUsesInLoop=*/false,
          [](OpBuilder &, Location, ArrayRef<BlockArgument> args) {
            return SmallVector<Value>{args.front()};
          });
      if (failed(replaced))
        return failure();
      auto newLoop = cast<scf::ForOp>(replaced->getOperation());
      init = newLoop.getRegionIterArgs().back();
    }
    Value phase = init;
    Value carried = next(phase);
    // Innermost yields the flipped phase, each outer loop its inner loop's.
    SmallVector<Operation *> loops = getAncestors(op, func);
    for (size_t level = loops.size(); level-- > 0;) {
      auto loop = cast<scf::ForOp>(loops[level]);
      auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
      yield->setOperand(yield.getNumOperands() - 1, carried);
      carried = loop.getResults().back();
    }
    return phase;
  }

  LogicalResult runOnFunction(triton::FuncOp func) {
    MLIRContext *ctx = &getContext();
    SmallVector<triton::DescriptorLoadOp> loads;
    SmallVector<triton::DescriptorStoreOp> stores;
    func.walk([&](Operation *op) {
      if (auto load = dyn_cast<triton::DescriptorLoadOp>(op)) {
        std::string why = whyNotDescriptor(load.getDesc());
        if (why.empty())
          why = whyNotBox(load.getDesc().getType(),
                          cast<RankedTensorType>(load.getType()));
        if (why.empty())
          for (Operation *p : getAncestors(op, func))
            if (!isa<scf::ForOp>(p)) {
              why = ("it is inside '" + p->getName().getStringRef() +
                     "' (loads are tracked through scf.for loops only)")
                        .str();
              break;
            }
        if (why.empty() && loads.size() == size_t(kMaxBarrierId))
          why = "the function already uses all 63 async barriers";
        if (why.empty())
          loads.push_back(load);
        else
          op->emitRemark() << "descriptor load stays without TME: " << why;
      } else if (auto store = dyn_cast<triton::DescriptorStoreOp>(op)) {
        std::string why = whyNotDescriptor(store.getDesc());
        if (why.empty())
          why = whyNotBox(store.getDesc().getType(),
                          cast<RankedTensorType>(store.getSrc().getType()));
        if (why.empty())
          stores.push_back(store);
        else
          op->emitRemark() << "descriptor store stays without TME: " << why;
      } else if (isa<triton::DescriptorGatherOp, triton::DescriptorScatterOp,
                     triton::DescriptorReduceOp>(op)) {
        op->emitRemark() << "'" << op->getName()
                         << "' stays without TME: MUSA's TME has no "
                            "gather/scatter/reduce form known here";
      }
    });
    if (loads.empty() && stores.empty())
      return success();

    IRRewriter rewriter(ctx);
    Block &entry = func.getBody().front();
    rewriter.setInsertionPointToStart(&entry);
    Location funcLoc = func.getLoc();
    Type i32 = rewriter.getI32Type();
    auto i32c = [&](int64_t v) {
      return arith::ConstantOp::create(rewriter, funcLoc, i32,
                                       rewriter.getI32IntegerAttr(v));
    };
    Value zero = i32c(0), one = i32c(1);
    // Barrier ids, one per load, starting after id 1 where the function has
    // g2s copies (public MUSA code keeps id 1 for them).
    bool hasAsyncCopies = false;
    func.walk([&](Operation *op) {
      if (op->getName().getStringRef() == "ttg.async_copy_global_to_local" ||
          isa<mgpu::AsyncCopyGlobalToSharedOp>(op))
        hasAsyncCopies = true;
    });
    int32_t firstId = hasAsyncCopies ? 2 : 1;
    if (!loads.empty() && firstId + int32_t(loads.size()) - 1 > kMaxBarrierId)
      loads.resize(kMaxBarrierId - firstId + 1);
    SmallVector<Value> barriers;
    if (!loads.empty()) {
      mgpu::AsyncBarrierRecordOp::create(
          rewriter, funcLoc, firstId + int32_t(loads.size()) - 1);
      for (size_t i = 0; i < loads.size(); ++i) {
        Value bar = i32c(firstId + int32_t(i));
        barriers.push_back(bar);
        mgpu::AsyncBarrierInitOp::create(rewriter, funcLoc, bar, one, zero);
      }
    }

    auto memSpace = ttg::SharedMemorySpaceAttr::get(ctx);
    // A buffer for `op`'s tile, allocated before its outermost enclosing op
    // and freed after it; `beforeFree` runs just before the free.
    auto allocateBuffer = [&](Operation *op, RankedTensorType tile,
                              function_ref<void()> beforeFree) -> Value {
      SmallVector<Operation *> ancestors = getAncestors(op, func);
      Operation *outer = ancestors.empty() ? op : ancestors.front();
      auto [encoding, alignment] = chooseSharedEncoding(
          ctx, tile.getShape(), tile.getElementType().getIntOrFloatBitWidth());
      auto type = ttg::MemDescType::get(tile.getShape(), tile.getElementType(),
                                        encoding, memSpace,
                                        /*mutableMemory=*/true);
      rewriter.setInsertionPoint(outer);
      auto alloc = ttg::LocalAllocOp::create(rewriter, op->getLoc(), type,
                                             Value(),
                                             rewriter.getI32IntegerAttr(
                                                 alignment));
      rewriter.setInsertionPointAfter(outer);
      beforeFree();
      ttg::LocalDeallocOp::create(rewriter, op->getLoc(), alloc);
      return alloc;
    };
    auto innermostFirst = [](ValueRange indices) {
      return SmallVector<Value>(llvm::reverse(indices));
    };
    auto boxOf = [](RankedTensorType tile) {
      SmallVector<int32_t> box;
      for (int64_t d : llvm::reverse(tile.getShape()))
        box.push_back(int32_t(d));
      return box;
    };

    for (auto [load, bar] : llvm::zip(loads, barriers)) {
      Location loc = load.getLoc();
      auto tile = cast<RankedTensorType>(load.getType());
      Value buffer = allocateBuffer(load, tile, [] {});
      int64_t bytes = tile.getNumElements() *
                      (tile.getElementType().getIntOrFloatBitWidth() / 8);
      Value result;
      FailureOr<Value> phase = threadPhase(
          rewriter, load, func, zero, [&](Value phase) -> Value {
            rewriter.setInsertionPoint(load);
            Value bytesValue = arith::ConstantOp::create(
                rewriter, loc, i32, rewriter.getI32IntegerAttr(bytes));
            mgpu::AsyncBarrierExpectBytesOp::create(rewriter, loc, bar,
                                                    bytesValue);
            mgpu::TMELoadOp::create(
                rewriter, loc, load.getDesc(),
                innermostFirst(load.getIndices()), buffer, bar,
                rewriter.getDenseI32ArrayAttr(boxOf(tile)));
            mgpu::AsyncBarrierArriveOp::create(rewriter, loc, bar);
            mgpu::AsyncBarrierWaitOp::create(rewriter, loc, bar, phase);
            result = ttg::LocalLoadOp::create(rewriter, loc, tile, buffer,
                                              Value());
            return arith::XOrIOp::create(rewriter, loc, phase, one);
          });
      if (failed(phase))
        return load.emitError() << kPassFlag
                                << ": cannot carry the async barrier phase "
                                   "through the enclosing loops";
      rewriter.replaceOp(load, result);
    }

    for (triton::DescriptorStoreOp store : stores) {
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
                               innermostFirst(store.getIndices()),
                               rewriter.getDenseI32ArrayAttr(boxOf(tile)));
      mgpu::TMEStoreCommitOp::create(rewriter, loc);
      rewriter.eraseOp(store);
    }
    return success();
  }
};

} // namespace
