//===- TMEOpToLLVM.cpp - musagpu TME and async-barrier ops -> LLVM --------===//
//
// The tensor memory engine (TME) tile transfers and the integer async
// barriers that track them, lowered through the target's TME hooks (the
// `llvm.musa.tme.*` / `llvm.musa.async.*` calls on the GPU, the emulator
// runtime's `__musa_emu_tme_*` / `__musa_emu_async_bar_*` on the CPU).
//
// Who issues what (MUSA-FACTS.md, last section): thread 0 of the block (of
// a warp-specialized partition: its first thread)
// issues TME loads and stores after a block barrier (so every thread's
// earlier shared-memory accesses of the buffer are done: for a load,
// --musa-insert-barriers places it where one is pending), commits stores,
// initializes barriers (then a block barrier, so nobody waits on a barrier
// not yet set up), adds expected bytes and arrives; every thread waits.
// A `tme_store_wait` is thread 0's read wait followed by a block barrier,
// so that no thread overwrites a buffer a store still reads.
//
// A box wider than 256 bytes along its innermost dimension is moved by
// several instructions (musagpu::getTMEBoxSplits), each a dense sub-box
// stored after the previous one in the shared buffer, as the
// #musagpu.tme_shared layout places them.
//
//===----------------------------------------------------------------------===//

#include "conversion/TritonGPUToMUSA/PatternTritonGPUOpToLLVM.h"
#include "conversion/TritonGPUToMUSA/PredicatedRegion.h"
#include "conversion/TritonGPUToMUSA/TensorDescriptor.h"
#include "target/LLVMCalls.h"

#include "dialects/MUSAGPU/IR/Dialect.h"
#include "dialects/Triton/IR/Dialect.h"

#include <type_traits>

using namespace mlir;
using namespace mlir::triton_musa;
namespace mgpu = mlir::musagpu;

namespace {

/// Fails (reporting on `op`) on an architecture without TME.
LogicalResult requireTME(Operation *op, const TargetInfo &target) {
  if (target.hasTME())
    return success();
  return op->emitError() << "'" << op->getName()
                         << "' needs the tensor memory engine and async "
                            "barriers, which "
                         << target.getArchName() << " does not have";
}

/// Runs `body` where `tid` (thread 0's index along x, or its lane) equals
/// `value`.
void onThreadIndex(ConversionPatternRewriter &rewriter, Location loc,
                   Value tid, int32_t value, function_ref<void()> body) {
  Value match = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                     tid, i32Const(rewriter, loc, value));
  emitIfThen(
      rewriter, loc, match,
      [&]() -> Value {
        body();
        return {};
      },
      Value());
}

/// Runs `body` on the first thread of the warps that run `op` only: thread
/// 0 of the block, or the first thread of the warp-specialized partition
/// `op` was inlined from (kPartitionFirstThreadAttr).
void onFirstThread(Operation *op, ConversionPatternRewriter &rewriter,
                   Location loc, const TargetInfo &target,
                   function_ref<void()> body) {
  int64_t firstThread = 0;
  if (auto attr = op->getAttrOfType<IntegerAttr>(kPartitionFirstThreadAttr))
    firstThread = attr.getInt();
  onThreadIndex(rewriter, loc, target.threadId(rewriter, loc, 0),
                int32_t(firstThread), body);
}

/// Runs `body` on the first lane of each warp only.
void onFirstLanes(ConversionPatternRewriter &rewriter, Location loc,
                  const TargetInfo &target, function_ref<void()> body) {
  Value lane = LLVM::URemOp::create(
      rewriter, loc, target.threadId(rewriter, loc, 0),
      i32Const(rewriter, loc, target.getWarpSize()));
  onThreadIndex(rewriter, loc, lane, 0, body);
}

/// The i64 descriptor address of a TME op's `desc` operand (`lowered` its
/// converted value): an address as is, or, for a `!tt.tensordesc`, the one
/// the target builds for it.
FailureOr<Value> getDescriptorAddress(Operation *op, Value desc, Value lowered,
                                      ConversionPatternRewriter &rewriter,
                                      const TargetInfo &target) {
  Location loc = op->getLoc();
  Type i64 = rewriter.getI64Type();
  auto descType = dyn_cast<triton::TensorDescType>(desc.getType());
  if (!descType) {
    if (isa<LLVM::LLVMPointerType>(lowered.getType()))
      return LLVM::PtrToIntOp::create(rewriter, loc, i64, lowered).getResult();
    return lowered;
  }
  FailureOr<LoweredTensorDesc> values =
      getLoweredTensorDesc(op, desc, lowered, rewriter);
  if (failed(values))
    return failure();
  TMEDescriptorFields fields;
  fields.base = values->base;
  fields.shape = values->shape;
  fields.strides = values->strides;
  fields.padNaN = values->padNaN;
  // A kernel argument the host encodes (--musa-lower-descriptors-to-tme
  // marked it; FuncOpToLLVM.cpp makes it the byval parameter).
  if (auto arg = dyn_cast<BlockArgument>(lowered))
    if (auto func = dyn_cast<LLVM::LLVMFuncOp>(arg.getOwner()->getParentOp());
        func && arg.getOwner()->isEntryBlock() &&
        func.getArgAttr(arg.getArgNumber(), kTMEDescriptorArgAttrName))
      fields.hostEncoded = lowered;
  Type element = descType.getBlockType().getElementType();
  fields.elementType = element;
  fields.elementBytes = std::max(1u, element.getIntOrFloatBitWidth() / 8);
  return target.getTMEDescriptorAddress(rewriter, loc, fields);
}

/// The hardware transfers (one per split of the box) of a TME op on the
/// shared buffer `buffer` (converted: `shared`), without the descriptor.
FailureOr<SmallVector<TMETransfer>>
getTransfers(Operation *op, ArrayRef<int32_t> box, ValueRange coords,
             Value buffer, Value shared, ConversionPatternRewriter &rewriter) {
  Location loc = op->getLoc();
  auto bufferType = cast<ShapedType>(buffer.getType());
  unsigned bits = bufferType.getElementType().getIntOrFloatBitWidth();
  TMETransfer common;
  // The box is cut into the buffer's column pieces (256 B, or a 128 B
  // swizzle line on the GPU proxy).
  int64_t pieceBytes = mgpu::kTMEMaxBoxInnerBytes;
  if (auto memdesc = dyn_cast<triton::gpu::MemDescType>(bufferType)) {
    Attribute encoding = memdesc.getEncoding();
    if (auto tme = dyn_cast<mgpu::TMESharedEncodingAttr>(encoding)) {
      pieceBytes = tme.getPieceBytes();
      common.swizzleGranularity = int32_t(tme.getSwizzleGranularity());
      common.swizzleStride = int32_t(tme.getSwizzleStride());
      common.swizzleLine = int32_t(tme.getSwizzleLine());
    } else if (encoding) {
      return op->emitError()
             << "'" << op->getName() << "' on a shared buffer with encoding "
             << encoding
             << ": TME writes boxes densely (or with a #musagpu.tme_shared "
                "swizzle), so the buffer needs a #musagpu.tme_shared encoding";
    }
  }
  SmallVector<int64_t> box64(box.begin(), box.end());
  auto splits = mgpu::getTMEBoxSplits(
      box64, bits, [&] { return op->emitError(); }, pieceBytes);
  if (failed(splits))
    return failure();
  Type i8 = rewriter.getI8Type();
  SmallVector<TMETransfer> transfers;
  for (const mgpu::TMEBoxSplit &split : *splits) {
    TMETransfer t = common;
    for (int64_t d : split.box)
      t.box.push_back(int32_t(d));
    t.coords.assign(coords.begin(), coords.end());
    if (split.innerOffset)
      t.coords[0] = LLVM::AddOp::create(
          rewriter, loc, t.coords[0],
          i32Const(rewriter, loc, split.innerOffset));
    t.shared = split.sharedOffset == 0
                   ? shared
                   : LLVM::GEPOp::create(
                         rewriter, loc, shared.getType(), i8, shared,
                         ArrayRef<LLVM::GEPArg>{LLVM::GEPArg(int32_t(
                             split.sharedOffset * bits / 8))})
                         .getResult();
    transfers.push_back(std::move(t));
  }
  return transfers;
}

/// musagpu.tme_load / musagpu.tme_store -> (for a store, the source fence
/// and a block barrier,) then thread 0 starts one tile transfer per split
/// of the box (a load completes on the op's barrier).
template <typename OpTy>
struct TMETransferOpConversion : public MUSAPattern<OpTy> {
  using MUSAPattern<OpTy>::MUSAPattern;
  static constexpr bool kIsLoad = std::is_same_v<OpTy, mgpu::TMELoadOp>;

  LogicalResult lower(OpTy op, typename OpTy::Adaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    const TargetInfo &targetInfo = this->targetInfo;
    if (failed(requireTME(op, targetInfo)))
      return failure();
    Location loc = op.getLoc();
    Value shared, sharedLowered;
    if constexpr (kIsLoad) {
      shared = op.getDst();
      sharedLowered = adaptor.getDst();
    } else {
      shared = op.getSrc();
      sharedLowered = adaptor.getSrc();
    }
    auto transfers = getTransfers(op, op.getBox(), adaptor.getCoords(), shared,
                                  sharedLowered, rewriter);
    if (failed(transfers))
      return failure();
    // A load's barrier (earlier accesses of the buffer done before thread 0
    // issues) is --musa-insert-barriers' to place: it knows when none is
    // pending. A store's source was just written by every thread, after the
    // target's fence.
    if constexpr (!kIsLoad) {
      targetInfo.fenceSharedWritesForAsyncReads(rewriter, loc);
      targetInfo.barrier(rewriter, loc);
    }
    FailureOr<Value> desc = getDescriptorAddress(
        op, op.getDesc(), adaptor.getDesc(), rewriter, targetInfo);
    if (failed(desc))
      return failure();
    onFirstThread(op, rewriter, loc, targetInfo, [&] {
      for (TMETransfer &t : *transfers) {
        t.descriptor = *desc;
        t.innerPersist = int32_t(op.getInnerPersist());
        t.outerPersist = int32_t(op.getOuterPersist());
        t.l2Policy = int32_t(op.getL2Policy());
        if constexpr (kIsLoad) {
          t.prefetch = int32_t(op.getPrefetch());
          targetInfo.tmeLoad(rewriter, loc, adaptor.getBarrier(), t);
        } else {
          targetInfo.tmeStore(rewriter, loc, t);
        }
      }
    });
    rewriter.eraseOp(op);
    return success();
  }
};

/// Lowers the musagpu ops that become one target hook call:
///   tme_store_commit            -> thread 0 commits;
///   tme_store_wait              -> thread 0's read wait, then a block barrier;
///   async_barrier_record        -> the record call, from every thread;
///   async_barrier_init          -> thread 0 initializes, then a block barrier;
///   async_barrier_expect_bytes  -> thread 0 adds the bytes;
///   async_barrier_arrive        -> thread 0 arrives once (per_warp: the
///                                  first lane of each warp);
///   async_barrier_wait          -> every thread waits.
template <typename OpTy>
struct TMEHookOpConversion : public MUSAPattern<OpTy> {
  using MUSAPattern<OpTy>::MUSAPattern;
  static constexpr bool kEveryThread =
      llvm::is_one_of<OpTy, mgpu::AsyncBarrierRecordOp,
                      mgpu::AsyncBarrierWaitOp>::value;
  static constexpr bool kBarrierAfter =
      llvm::is_one_of<OpTy, mgpu::TMEStoreWaitOp,
                      mgpu::AsyncBarrierInitOp>::value;

  LogicalResult lower(OpTy op, typename OpTy::Adaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    const TargetInfo &targetInfo = this->targetInfo;
    if (failed(requireTME(op, targetInfo)))
      return failure();
    Location loc = op.getLoc();
    auto emitHook = [&] {
      if constexpr (std::is_same_v<OpTy, mgpu::TMEStoreCommitOp>)
        targetInfo.tmeStoreCommit(rewriter, loc);
      else if constexpr (std::is_same_v<OpTy, mgpu::AsyncBarrierRecordOp>)
        targetInfo.asyncBarrierRecord(rewriter, loc, op.getCount());
      else if constexpr (std::is_same_v<OpTy, mgpu::TMEStoreWaitOp>)
        targetInfo.tmeStoreReadWait(rewriter, loc);
      else if constexpr (std::is_same_v<OpTy, mgpu::AsyncBarrierExpectBytesOp>)
        targetInfo.asyncBarrierExpectBytes(rewriter, loc, adaptor.getBarrier(),
                                           adaptor.getBytes());
      else if constexpr (std::is_same_v<OpTy, mgpu::AsyncBarrierArriveOp>)
        targetInfo.asyncBarrierArrive(rewriter, loc, adaptor.getBarrier());
      else if constexpr (std::is_same_v<OpTy, mgpu::AsyncBarrierInitOp>)
        targetInfo.asyncBarrierInit(rewriter, loc, adaptor.getBarrier(),
                                    adaptor.getArriveCount(),
                                    adaptor.getPhase());
      else {
        static_assert(std::is_same_v<OpTy, mgpu::AsyncBarrierWaitOp>,
                      "an op without a hook call");
        targetInfo.asyncBarrierWait(rewriter, loc, adaptor.getBarrier(),
                                    adaptor.getPhase());
      }
    };
    bool perWarp = false;
    if constexpr (std::is_same_v<OpTy, mgpu::AsyncBarrierArriveOp>)
      perWarp = op.getPerWarp();
    if constexpr (kEveryThread)
      emitHook();
    else if (perWarp)
      onFirstLanes(rewriter, loc, targetInfo, emitHook);
    else
      onFirstThread(op, rewriter, loc, targetInfo, emitHook);
    if constexpr (kBarrierAfter)
      targetInfo.barrier(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::triton_musa::populateTMEOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo) {
  patterns.add<TMETransferOpConversion<mgpu::TMELoadOp>,
               TMETransferOpConversion<mgpu::TMEStoreOp>,
               TMEHookOpConversion<mgpu::TMEStoreCommitOp>,
               TMEHookOpConversion<mgpu::TMEStoreWaitOp>,
               TMEHookOpConversion<mgpu::AsyncBarrierRecordOp>,
               TMEHookOpConversion<mgpu::AsyncBarrierInitOp>,
               TMEHookOpConversion<mgpu::AsyncBarrierExpectBytesOp>,
               TMEHookOpConversion<mgpu::AsyncBarrierArriveOp>,
               TMEHookOpConversion<mgpu::AsyncBarrierWaitOp>>(
      typeConverter, targetInfo);
}
