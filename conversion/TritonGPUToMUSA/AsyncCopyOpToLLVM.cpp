//===- AsyncCopyOpToLLVM.cpp - Async global->shared copies -> LLVM -------===//
//
// ttg.async_copy_global_to_local / ttg.async_commit_group / ttg.async_wait,
// which --musa-pipeline-loops emits, on MUSA's per-thread copies
// (MUSA-FACTS.md, "g2s copies"):
//
//  - a copy: each thread starts one TargetInfo::asyncCopyGlobalToShared
//    (`llvm.musa.memcpy.g2s`) of 4, 8 or 16 bytes per vector of registers
//    that are consecutive both in global memory (the op's `contiguity`,
//    where its maker computed one, else our axis analysis of the pointers,
//    their alignment and the mask, AxisAnalysis.h) and in the shared
//    buffer's layout. A masked-off
//    vector is not copied: the thread stores `other` (or zero) there with a
//    plain store (on a target whose copy takes a source size, such as the
//    GPU proxy's cp.async, a zero `other` is the copy's own zero fill
//    instead; the emulator does copy-or-zero in one runtime call). Vectors
//    of fewer than 4 bytes are loaded and stored synchronously, which the
//    wait semantics allow (the data just lands early). Cache modifiers and eviction policies are hints the g2s
//    intrinsic has no operand for; they are dropped.
//  - a commit group: nothing. MUSA has no copy groups.
//  - a wait: TargetInfo::asyncCopyWait (`llvm.musa.memcpy.g2s.wait`), which
//    completes every copy the *calling thread* started, then a block
//    barrier so that every thread sees every thread's copies. `num` (the
//    number of most recent groups allowed to stay in flight) is therefore
//    not honoured: each wait waits for all groups, which is what `num` = 0
//    asks and more than any larger `num` asks, so it is always correct. The
//    overlap a pipelined loop gets is between a copy's issue and the next
//    wait (the loads of iteration i + s - 1 overlap the work between their
//    issue and the wait at the top of the next iteration), not s - 1 full
//    iterations as with NVIDIA's cp.async groups; --musa-pipeline-loops
//    issues a loop's copies before its compute and waits once per lookahead.
//
// Tokens carry nothing at run time (an i32 0, see TypeConverter.cpp).
// --musa-allocate-shared-memory keeps a copy's buffer allocated until the
// wait, and --musa-insert-barriers counts the wait as a barrier.
//
//===----------------------------------------------------------------------===//

#include "conversion/TritonGPUToMUSA/AxisAnalysis.h"
#include "conversion/TritonGPUToMUSA/LayoutIndices.h"
#include "conversion/TritonGPUToMUSA/PatternTritonGPUOpToLLVM.h"
#include "conversion/TritonGPUToMUSA/PredicatedRegion.h"
#include "conversion/TritonGPUToMUSA/SharedMemory.h"
#include "conversion/TritonGPUToMUSA/Utility.h"

#include "dialects/MUSAGPU/IR/Dialect.h"
#include "dialects/Triton/IR/Dialect.h"
#include "dialects/TritonGPU/IR/Dialect.h"
#include "layouts/LinearLayout.h"
#include "target/LLVMCalls.h"

#include "mlir/IR/Matchers.h"
#include "llvm/ADT/bit.h"
#include "layouts/SharedBuffers.h"

using namespace mlir;
using namespace mlir::triton_musa;
namespace ttg = mlir::triton::gpu;
namespace mgpu = mlir::musagpu;

namespace {

/// Widest per-thread copy of the g2s intrinsic, in bytes.
constexpr unsigned kMaxCopyBytes = 16;
/// Narrowest per-thread copy of the g2s intrinsic, in bytes.
constexpr unsigned kMinCopyBytes = 4;

/// Replaces `op`'s token result by the run-time token, an i32 0.
void replaceWithToken(Operation *op, ConversionPatternRewriter &rewriter) {
  rewriter.replaceOp(op, i32Const(rewriter, op->getLoc(), 0));
}

/// Lowers ttg.async_copy_global_to_local to per-thread g2s copies (see the
/// file comment).
struct AsyncCopyGlobalToLocalOpConversion
    : public MUSAPattern<ttg::AsyncCopyGlobalToLocalOp> {
  AsyncCopyGlobalToLocalOpConversion(TritonGPUToMUSATypeConverter &converter,
                                     const TargetInfo &targetInfo,
                                     const LoopFacts &loopFacts)
      : MUSAPattern(converter, targetInfo), loopFacts(loopFacts) {}
  const LoopFacts &loopFacts;

  LogicalResult
  lower(ttg::AsyncCopyGlobalToLocalOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto emitError = [&] { return op.emitError(); };
    if (op.getIsVolatile())
      return op.emitError() << "a volatile 'ttg.async_copy_global_to_local' "
                               "is not supported by "
                            << kPassFlag;
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<ttg::MemDescType>(op.getResult().getType());
    auto layout = getLinearLayout(srcType, emitError);
    auto bufferLayout = getSharedBufferLayout(dstType, emitError);
    Type elementType =
        getTypeConverter()->convertType(dstType.getElementType());
    if (failed(layout) || failed(bufferLayout) || !elementType)
      return failure();
    SharedBuffer buffer{adaptor.getResult(), std::move(*bufferLayout),
                        dstType.getElementType()};
    buffer.padded =
        dyn_cast<ttg::PaddedSharedEncodingAttr>(dstType.getEncoding());

    llvm::Expected<LinearLayout> toSlots =
        invertAndCompose(buffer.layout, *layout);
    if (!toSlots)
      return op.emitError() << "cannot address shared memory of layout "
                            << buffer.layout.toString() << " from registers of "
                            << layout->toString() << ": "
                            << llvm::toString(toSlots.takeError());
    FailureOr<SmallVector<Value>> slots =
        emitSharedSlots(rewriter, loc, targetInfo, buffer, *layout, emitError);
    if (failed(slots))
      return failure();

    SmallVector<Value> ptrs = unpackLLElements(rewriter, loc, adaptor.getSrc());
    unsigned n = ptrs.size();
    if (slots->size() != n)
      return op.emitError() << "expected " << slots->size()
                            << " pointers per thread, got " << n;
    SmallVector<Value> masks, others;
    if (adaptor.getMask())
      masks = unpackOrSplat(rewriter, loc, adaptor.getMask(), n);
    if (adaptor.getOther())
      others = unpackOrSplat(rewriter, loc, adaptor.getOther(), n);
    // A masked-off copy stores zeros (no `other`, or +0 / 0 splatted).
    Value otherTensor = op.getOther();
    bool zeroOther = !otherTensor || matchPattern(otherTensor, m_Zero()) ||
                     matchPattern(otherTensor, m_PosZeroFloat());

    // Width of one copy: what the global side allows (Triton's contiguity),
    // what the shared layout allows, at most 16 bytes.
    bool isBool = elementType.isInteger(1);
    unsigned elementBytes = getSharedElementBytes(dstType.getElementType());
    // The op's `contiguity` where its maker proved one, else what our axis
    // analysis proves of the pointers and mask (as for tt.load).
    unsigned contiguity = std::max<unsigned>(
        std::max<int32_t>(1, op.getContiguity()),
        getAccessVectorWidth(op.getSrc(), op.getMask(), rewriter, loopFacts));
    unsigned maxVec = std::max<unsigned>(
        1, std::min<unsigned>(contiguity, kMaxCopyBytes / elementBytes));
    maxVec = unsigned(llvm::bit_floor(maxVec));
    unsigned vec = isBool ? 1 : getSharedVectorWidth(*toSlots, buffer, maxVec);
    unsigned bytes = vec * elementBytes;
    bool async = !isBool && bytes >= kMinCopyBytes;
    Type vectorType =
        vec == 1 ? elementType : VectorType::get({int64_t(vec)}, elementType);

    int32_t duplicates = getDuplicateRegisterMask(*layout);
    Value owner = emitOwnerPredicate(rewriter, loc, targetInfo, *layout);
    auto body = [&]() -> Value {
      for (unsigned i = 0; i < n; i += vec) {
        if (i & duplicates)
          continue;
        Value dst = emitSharedSlotPointer(rewriter, loc, buffer, (*slots)[i]);
        // `other` (or zero) for the vector starting at register i.
        auto otherValue = [&]() -> Value {
          if (others.empty())
            return LLVM::ZeroOp::create(rewriter, loc, vectorType);
          if (vec == 1)
            return others[i];
          Value v = LLVM::UndefOp::create(rewriter, loc, vectorType);
          for (unsigned j = 0; j < vec; ++j)
            v = LLVM::InsertElementOp::create(rewriter, loc, v, others[i + j],
                                              i32Const(rewriter, loc, j));
          return v;
        };
        if (!async) {
          // Synchronous: load (or `other`), then a plain shared store;
          // booleans are bytes in memory.
          Type memoryType = isBool ? rewriter.getI8Type() : vectorType;
          auto load = [&]() -> Value {
            return LLVM::LoadOp::create(rewriter, loc, memoryType, ptrs[i],
                                        bytes);
          };
          Value value;
          if (masks.empty()) {
            value = load();
          } else {
            Value other = otherValue();
            if (isBool)
              other = LLVM::ZExtOp::create(rewriter, loc, memoryType, other);
            value = emitIfThen(rewriter, loc, masks[i], load, other);
          }
          LLVM::StoreOp::create(rewriter, loc, value, dst, bytes);
          continue;
        }
        auto copy = [&]() -> Value {
          targetInfo.asyncCopyGlobalToShared(rewriter, loc, dst, ptrs[i],
                                             bytes);
          return Value();
        };
        if (masks.empty()) {
          copy();
          continue;
        }
        if (zeroOther && targetInfo.asyncCopyGlobalToSharedOrZero(
                             rewriter, loc, dst, ptrs[i], bytes, masks[i]))
          continue;
        emitIfThen(rewriter, loc, masks[i], copy, Value());
        // Masked off: the buffer still receives `other` (zero by default).
        Value off = LLVM::XOrOp::create(
            rewriter, loc, masks[i],
            LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(),
                                     rewriter.getBoolAttr(true)));
        emitIfThen(
            rewriter, loc, off,
            [&]() -> Value {
              LLVM::StoreOp::create(rewriter, loc, otherValue(), dst, bytes);
              return Value();
            },
            Value());
      }
      return Value();
    };
    emitIfThen(rewriter, loc, owner, body, Value());
    replaceWithToken(op, rewriter);
    return success();
  }
};

/// Lowers ttg.async_commit_group to nothing (MUSA has no copy groups).
struct AsyncCommitGroupOpConversion
    : public MUSAPattern<ttg::AsyncCommitGroupOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(ttg::AsyncCommitGroupOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    replaceWithToken(op, rewriter);
    return success();
  }
};

/// Lowers ttg.async_wait to a wait for all of the thread's copies and a
/// block barrier, whatever `num` says (see the file comment).
struct AsyncWaitOpConversion : public MUSAPattern<ttg::AsyncWaitOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(ttg::AsyncWaitOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    targetInfo.asyncCopyWait(rewriter, op.getLoc());
    targetInfo.barrier(rewriter, op.getLoc());
    replaceWithToken(op, rewriter);
    return success();
  }
};

/// Lowers musagpu.async_copy_wait: the wait alone, where its predicate
/// holds.
struct MUSAAsyncCopyWaitOpConversion
    : public MUSAPattern<mgpu::AsyncCopyWaitOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(mgpu::AsyncCopyWaitOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value pred = adaptor.getPred();
    if (!pred || !targetInfo.asyncCopyWaitIf(rewriter, loc, pred))
      emitIfThen(
          rewriter, loc, pred,
          [&]() -> Value {
            targetInfo.asyncCopyWait(rewriter, loc);
            return Value();
          },
          Value());
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::triton_musa::populateAsyncCopyOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo, const LoopFacts &loopFacts) {
  patterns.add<AsyncCopyGlobalToLocalOpConversion>(typeConverter, targetInfo,
                                                   loopFacts);
  patterns.add<AsyncCommitGroupOpConversion, AsyncWaitOpConversion,
               MUSAAsyncCopyWaitOpConversion>(typeConverter, targetInfo);
}
