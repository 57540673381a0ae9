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
// Pipelining: a load directly in an scf.for whose indices can be
// recomputed for a later iteration gets a ring of num-stages buffers and
// barriers; the loads of the first num-stages - 1 iterations are issued
// before the loop, and iteration i issues the load of iteration
// i + num-stages - 1 before waiting for its own.
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

/// Threads i32 values (starting at `inits`) through every scf.for around
/// `op` as extra iter_args; returns their values at `op`. `next(values)`,
/// called once with the insertion point unspecified, builds the values to
/// carry on after `op` (it may replace `op` itself).
FailureOr<SmallVector<Value>>
threadState(IRRewriter &rewriter, Operation *op, Operation *func,
            ValueRange inits,
            function_ref<FailureOr<SmallVector<Value>>(ValueRange)> next) {
  size_t n = inits.size();
  SmallVector<Value> state(inits);
  size_t depth = getAncestors(op, func).size();
  for (size_t level = 0; level < depth; ++level) {
    auto loop = cast<scf::ForOp>(getAncestors(op, func)[level]);
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
  SmallVector<Operation *> loops = getAncestors(op, func);
  FailureOr<SmallVector<Value>> carried = next(state);
  if (failed(carried))
    return failure();
  // Innermost yields the new values, each outer loop its inner loop's.
  SmallVector<Value> values = *carried;
  for (size_t level = loops.size(); level-- > 0;) {
    auto loop = cast<scf::ForOp>(loops[level]);
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (size_t i = 0; i < n; ++i)
      yield->setOperand(yield.getNumOperands() - n + i, values[i]);
    values.assign(loop.getResults().take_back(n).begin(),
                  loop.getResults().take_back(n).end());
  }
  return state;
}

/// The ops of `loop`'s body that `values` are computed by, in body order,
/// provided they can be recomputed for another iteration: pure, without
/// regions, and depending on the loop only through its induction variable.
/// Otherwise sets `why`.
std::optional<SmallVector<Operation *>>
getRecomputableSlice(scf::ForOp loop, ValueRange values, std::string &why) {
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> worklist(values.begin(), values.end());
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (v == loop.getInductionVar() || loop.isDefinedOutsideOfLoop(v))
      continue;
    Operation *def = v.getDefiningOp();
    if (!def) {
      why = "its indices depend on a loop-carried value";
      return std::nullopt;
    }
    if (def->getParentOp() != loop.getOperation() || !isPure(def) ||
        def->getNumRegions() != 0) {
      why = ("its indices are computed by '" + def->getName().getStringRef() +
             "', which cannot be recomputed for a later iteration")
                .str();
      return std::nullopt;
    }
    if (slice.insert(def))
      worklist.append(def->operand_begin(), def->operand_end());
  }
  SmallVector<Operation *> ordered = slice.takeVector();
  llvm::sort(ordered, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });
  return ordered;
}

/// The type of one slot of the multi-buffered `buffer`.
ttg::MemDescType getSlotType(Value buffer) {
  auto type = cast<ttg::MemDescType>(buffer.getType());
  return ttg::MemDescType::get(type.getShape().drop_front(),
                               type.getElementType(), type.getEncoding(),
                               type.getMemorySpace(),
                               type.getMutableMemory());
}

/// One descriptor load that goes through TME.
struct PlannedLoad {
  triton::DescriptorLoadOp op;
  /// Buffers (and barriers) in its ring; 1: not pipelined.
  int32_t stages = 1;
  int32_t firstBarrier = 0;
  Value buffer;
  /// The matrix-unit operand buffer the loaded tile is copied into
  /// (getMatrixOperandAlloc), which the TME buffer replaces; null if none.
  ttg::LocalAllocOp operandAlloc;
};

/// The `ttg.local_alloc` that copies `load`'s tile into a matrix-unit
/// operand buffer, where TME can write that buffer itself: the tile's only
/// use, in the same block, immutable, with a #musagpu.tme_shared encoding,
/// and read only by musagpu.sqmma ops of that block each waited for there.
/// A later load into the same slot is issued after a block barrier in a
/// later iteration, so no SQMMA still reads the slot then.
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

/// Per descriptor load/store of a function: why it stays without TME, or ""
/// if it need not.
using TransferReasons = llvm::MapVector<Operation *, std::string>;

/// The ids of the async barriers a function's loads may use.
struct BarrierBudget {
  int32_t firstId;
  int32_t size;
};

/// The TME box of `tile`: its shape, innermost dimension first.
SmallVector<int32_t> getBox(RankedTensorType tile) {
  SmallVector<int32_t> box;
  for (int64_t d : llvm::reverse(tile.getShape()))
    box.push_back(int32_t(d));
  return box;
}

SmallVector<Value> innermostFirst(ValueRange indices) {
  return SmallVector<Value>(llvm::reverse(indices));
}

int64_t getTileBytes(RankedTensorType tile) {
  return tile.getNumElements() *
         (tile.getElementType().getIntOrFloatBitWidth() / 8);
}

/// Rewrites the planned loads and stores of one function: constants and
/// barrier set-up at the function's entry (in creation order), then the
/// pipelined rings, the single loads and the stores.
class TMERewriter {
public:
  TMERewriter(triton::FuncOp func, int32_t firstId)
      : func(func), ctx(func.getContext()), rewriter(ctx),
        entry(OpBuilder::atBlockBegin(&func.getBody().front())),
        funcLoc(func.getLoc()), i32(rewriter.getI32Type()), firstId(firstId) {
    zero = i32c(0);
    one = i32c(1);
  }

  /// Gives each load its barrier ids (a ring's are consecutive) and
  /// initializes them at the function's entry.
  void initBarriers(MutableArrayRef<PlannedLoad> loads);
  /// Rewrites the loads of one loop's ring (all with the same stages).
  LogicalResult rewriteRing(ArrayRef<PlannedLoad *> group);
  /// Rewrites a load that is not pipelined: issue, wait, read the buffer.
  LogicalResult rewriteLoad(PlannedLoad &load);
  /// Rewrites a store: into a buffer, then a TME store from it.
  void rewriteStore(triton::DescriptorStoreOp store);
  /// A buffer of `buffers` tiles for `op`, allocated before its outermost
  /// enclosing op and freed after it; `beforeFree` runs just before the
  /// free. Its layout is `operandAlloc`'s where given (the tiles are the
  /// matrix unit's operands), else chooseSharedEncoding's.
  Value allocateBuffer(Operation *op, RankedTensorType tile, int32_t buffers,
                       function_ref<void()> beforeFree,
                       ttg::LocalAllocOp operandAlloc = {});
  /// Replaces the load of `load` by `slot`'s tile: the operand buffer by
  /// the slot itself where the load has one, else by a local_load of it
  /// (at the insertion point).
  void replaceLoad(PlannedLoad &load, Value slot);

private:
  Value i32c(int64_t v) {
    return arith::ConstantOp::create(entry, funcLoc, i32,
                                     entry.getI32IntegerAttr(v));
  }
  /// The constant of barrier `id`.
  Value barrierId(int32_t id) { return barrierIds[id - firstId]; }
  /// Expect the tile's bytes on `bar`, start the load into `buffer` at
  /// `indices`, arrive (thread 0's part of the barrier's phase).
  void issue(PlannedLoad &load, ValueRange indices, Value buffer, Value bar);

  triton::FuncOp func;
  MLIRContext *ctx;
  IRRewriter rewriter;
  OpBuilder entry;
  Location funcLoc;
  Type i32;
  int32_t firstId;
  Value zero, one;
  SmallVector<Value> barrierIds; // the constant of id firstId + i
};

void TMERewriter::initBarriers(MutableArrayRef<PlannedLoad> loads) {
  if (loads.empty())
    return;
  int32_t count = 0;
  for (PlannedLoad &load : loads) {
    load.firstBarrier = firstId + count;
    count += load.stages;
  }
  mgpu::AsyncBarrierRecordOp::create(entry, funcLoc, firstId + count - 1);
  for (int32_t id = firstId; id < firstId + count; ++id) {
    barrierIds.push_back(i32c(id));
    mgpu::AsyncBarrierInitOp::create(entry, funcLoc, barrierIds.back(), one,
                                     zero);
  }
}

Value TMERewriter::allocateBuffer(Operation *op, RankedTensorType tile,
                                  int32_t buffers,
                                  function_ref<void()> beforeFree,
                                  ttg::LocalAllocOp operandAlloc) {
  SmallVector<Operation *> ancestors = getAncestors(op, func);
  Operation *outer = ancestors.empty() ? op : ancestors.front();
  auto [chosen, alignment] = chooseSharedEncoding(
      ctx, tile.getShape(), tile.getElementType().getIntOrFloatBitWidth());
  Attribute encoding = chosen;
  if (operandAlloc) {
    // The matrix unit's layout, with the alignment its swizzle needs.
    encoding = operandAlloc.getType().getEncoding();
    if (auto align = operandAlloc->getAttrOfType<IntegerAttr>("alignment"))
      alignment = std::max<int32_t>(alignment, align.getInt());
  }
  SmallVector<int64_t> shape;
  if (buffers > 1)
    shape.push_back(buffers);
  shape.append(tile.getShape().begin(), tile.getShape().end());
  auto type = ttg::MemDescType::get(shape, tile.getElementType(), encoding,
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

void TMERewriter::replaceLoad(PlannedLoad &load, Value slot) {
  Location loc = load.op.getLoc();
  if (load.operandAlloc) {
    rewriter.replaceOp(load.operandAlloc, slot);
    rewriter.eraseOp(load.op);
    return;
  }
  Value result =
      ttg::LocalLoadOp::create(rewriter, loc, load.op.getType(), slot, Value());
  rewriter.replaceOp(load.op, result);
}

void TMERewriter::issue(PlannedLoad &load, ValueRange indices, Value buffer,
                        Value bar) {
  Location loc = load.op.getLoc();
  auto tile = cast<RankedTensorType>(load.op.getType());
  Value bytes = arith::ConstantOp::create(
      rewriter, loc, i32, rewriter.getI32IntegerAttr(getTileBytes(tile)));
  mgpu::AsyncBarrierExpectBytesOp::create(rewriter, loc, bar, bytes);
  mgpu::TMELoadOp::create(rewriter, loc, load.op.getDesc(),
                          innermostFirst(indices), buffer, bar,
                          rewriter.getDenseI32ArrayAttr(getBox(tile)));
  mgpu::AsyncBarrierArriveOp::create(rewriter, loc, bar);
}

LogicalResult TMERewriter::rewriteRing(ArrayRef<PlannedLoad *> group) {
  // The loop may have been replaced (as an ancestor of an earlier ring's).
  auto loop = cast<scf::ForOp>(group.front()->op->getParentOp());
  int32_t ringSize = group.front()->stages;
  if (llvm::any_of(group,
                   [&](PlannedLoad *l) { return l->stages != ringSize; }))
    return group.front()->op.emitError()
           << kPassFlag << ": the loads of one loop need one ring size";
  Value ringSizeValue = i32c(ringSize);
  Location loc = loop.getLoc();
  // Issues every load of the ring for the iteration whose induction
  // variable is `iv` (in `forLoop`) into slot `slot`, if `iv` < ub.
  auto issueAll = [&](scf::ForOp forLoop, Value iv, Value slot) {
    Value inRange =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt, iv,
                              forLoop.getUpperBound());
    auto ifOp = scf::IfOp::create(rewriter, loc, inRange,
                                  /*withElseRegion=*/false);
    rewriter.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    for (PlannedLoad *load : group) {
      std::string why;
      auto slice = getRecomputableSlice(forLoop, load->op.getIndices(), why);
      assert(slice && "the ring's loads were checked when planning");
      IRMapping mapping;
      mapping.map(forLoop.getInductionVar(), iv);
      for (Operation *op : *slice)
        rewriter.clone(*op, mapping);
      SmallVector<Value> indices;
      for (Value index : load->op.getIndices())
        indices.push_back(mapping.lookupOrDefault(index));
      Value bar = arith::AddIOp::create(rewriter, loc,
                                        barrierId(load->firstBarrier), slot);
      Value view = ttg::MemDescIndexOp::create(
          rewriter, loc, getSlotType(load->buffer), load->buffer, slot);
      issue(*load, indices, view, bar);
    }
    rewriter.setInsertionPointAfter(ifOp);
  };
  // iv + k * step, in the induction variable's type.
  auto ivPlus = [&](scf::ForOp forLoop, Value iv, int64_t k) -> Value {
    if (k == 0)
      return iv;
    Value kValue = arith::ConstantOp::create(
        rewriter, loc, IntegerAttr::get(iv.getType(), k));
    return arith::AddIOp::create(
        rewriter, loc, iv,
        arith::MulIOp::create(rewriter, loc, kValue, forLoop.getStep()));
  };
  auto slotPlus = [&](Value slot, int64_t k) -> Value {
    return arith::RemUIOp::create(
        rewriter, loc, arith::AddIOp::create(rewriter, loc, slot, i32c(k)),
        ringSizeValue);
  };
  int32_t ahead = ringSize - 1;
  FailureOr<SmallVector<Value>> state = threadState(
      rewriter, loop, func, {zero, zero},
      [&](ValueRange at) -> FailureOr<SmallVector<Value>> {
        Value firstSlot = at[0], firstPhase = at[1];
        // The first `ahead` iterations' loads, before the loop.
        rewriter.setInsertionPoint(loop);
        for (int32_t k = 0; k < ahead; ++k)
          issueAll(loop, ivPlus(loop, loop.getLowerBound(), k),
                   slotPlus(firstSlot, k));
        rewriter.setInsertionPoint(loop);
        auto replaced = loop.replaceWithAdditionalYields(
            rewriter, ValueRange{firstSlot, firstPhase},
            /*replaceInitOperandUsesInLoop=*/false,
            [&](OpBuilder &b, Location l, ArrayRef<BlockArgument> args) {
              // The next slot; the phase flips when the slots wrap.
              Value next = arith::AddIOp::create(b, l, args[0], one);
              Value wrap = arith::CmpIOp::create(
                  b, l, arith::CmpIPredicate::eq, next, ringSizeValue);
              Value flipped = arith::XOrIOp::create(b, l, args[1], one);
              return SmallVector<Value>{
                  arith::SelectOp::create(b, l, wrap, zero, next),
                  arith::SelectOp::create(b, l, wrap, flipped, args[1])};
            });
        if (failed(replaced))
          return failure();
        auto newLoop = cast<scf::ForOp>(replaced->getOperation());
        Value slot = newLoop.getRegionIterArgs().take_back(2)[0];
        Value phase = newLoop.getRegionIterArgs().take_back(2)[1];
        // Iteration i first issues iteration i + ahead's loads into the
        // slot iteration i - 1 read (every thread is past that read: the
        // load is issued after a block barrier).
        rewriter.setInsertionPointToStart(newLoop.getBody());
        issueAll(newLoop, ivPlus(newLoop, newLoop.getInductionVar(), ahead),
                 slotPlus(slot, ahead));
        for (PlannedLoad *load : group) {
          Location loadLoc = load->op.getLoc();
          rewriter.setInsertionPoint(load->op);
          Value bar = arith::AddIOp::create(
              rewriter, loadLoc, barrierId(load->firstBarrier), slot);
          mgpu::AsyncBarrierWaitOp::create(rewriter, loadLoc, bar, phase);
          Value view = ttg::MemDescIndexOp::create(
              rewriter, loadLoc, getSlotType(load->buffer), load->buffer,
              slot);
          replaceLoad(*load, view);
        }
        return SmallVector<Value>(newLoop.getResults().take_back(2));
      });
  if (failed(state))
    return func.emitError() << kPassFlag
                            << ": cannot carry the TME ring state through "
                               "the enclosing loops";
  return success();
}

LogicalResult TMERewriter::rewriteLoad(PlannedLoad &load) {
  triton::DescriptorLoadOp op = load.op;
  Location loc = op.getLoc();
  auto tile = cast<RankedTensorType>(op.getType());
  Value buffer = allocateBuffer(op, tile, 1, [] {}, load.operandAlloc);
  Value bar = barrierId(load.firstBarrier);
  Operation *wait = nullptr;
  FailureOr<SmallVector<Value>> phase = threadState(
      rewriter, op, func, {zero},
      [&](ValueRange at) -> FailureOr<SmallVector<Value>> {
        rewriter.setInsertionPoint(op);
        issue(load, op.getIndices(), buffer, bar);
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
  replaceLoad(load, buffer);
  return success();
}

void TMERewriter::rewriteStore(triton::DescriptorStoreOp store) {
  Location loc = store.getLoc();
  auto tile = cast<RankedTensorType>(store.getSrc().getType());
  Value buffer = allocateBuffer(store, tile, 1, [&] {
    mgpu::TMEStoreWaitOp::create(rewriter, loc);
  });
  rewriter.setInsertionPoint(store);
  // In a loop the previous iteration's store may still read the buffer.
  if (!getAncestors(store, func).empty())
    mgpu::TMEStoreWaitOp::create(rewriter, loc);
  ttg::LocalStoreOp::create(rewriter, loc, store.getSrc(), buffer);
  mgpu::TMEStoreOp::create(rewriter, loc, buffer, store.getDesc(),
                           innermostFirst(store.getIndices()),
                           rewriter.getDenseI32ArrayAttr(getBox(tile)));
  mgpu::TMEStoreCommitOp::create(rewriter, loc);
  rewriter.eraseOp(store);
}

struct MUSALowerDescriptorsToTME
    : public mlir::triton_musa::impl::MUSALowerDescriptorsToTMEBase<
          MUSALowerDescriptorsToTME> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (numStages < 1) {
      module.emitError() << kPassFlag << ": num-stages must be at least 1, "
                         << "got " << numStages;
      return signalPassFailure();
    }
    FailureOr<const MUSAArchInfo *> musaArch =
        resolveMUSAArch(module, arch, kPassFlag);
    if (failed(musaArch))
      return signalPassFailure();
    // Without TME every descriptor op keeps the plain path: nothing to say.
    // The GPU proxy (NVVM) has no TME either.
    if (!(*musaArch)->hasTME || target == TargetKind::Proxy)
      return;
    emulator = target == TargetKind::Emulator;
    for (auto func : module.getOps<triton::FuncOp>())
      if (failed(runOnFunction(func)))
        return signalPassFailure();
  }

private:
  bool emulator = false;

  /// Whether `desc` is a kernel argument followed by its shape and strides.
  static bool isKernelArgument(Value desc) {
    auto arg = dyn_cast<BlockArgument>(desc);
    auto func = arg ? dyn_cast<triton::FuncOp>(arg.getOwner()->getParentOp())
                    : nullptr;
    unsigned rank = cast<triton::TensorDescType>(desc.getType())
                        .getBlockType()
                        .getRank();
    return func && func.isPublic() && arg.getOwner()->isEntryBlock() &&
           arg.getArgNumber() + 2 * rank < func.getNumArguments();
  }

  /// Why `desc` cannot be addressed by TME, or "" if it can.
  std::string whyNotDescriptor(Value desc) {
    if (isKernelArgument(desc))
      return "";
    if (desc.getDefiningOp<triton::MakeTensorDescOp>())
      return emulator ? ""
                      : "TME on the MUSA GPU reads host-encoded descriptors "
                        "(kernel arguments); encoding one made by "
                        "'tt.make_tensor_descriptor' on the device is not "
                        "known for MUSA";
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

  /// The stages of `load`'s ring: the enclosing loop's `tt.num_stages`, else
  /// the pass option, where the load can be issued ahead; else 1 (with a
  /// remark when more were asked for).
  int32_t getStages(triton::DescriptorLoadOp load) {
    auto loop = dyn_cast<scf::ForOp>(load->getParentOp());
    if (!loop)
      return 1;
    int64_t stages = numStages;
    if (auto attr = loop->getAttrOfType<IntegerAttr>("tt.num_stages"))
      stages = attr.getInt();
    if (stages <= 1)
      return 1;
    std::string why;
    if (!loop.isDefinedOutsideOfLoop(load.getDesc()))
      why = "its descriptor is made inside the loop";
    else
      (void)getRecomputableSlice(loop, load.getIndices(), why);
    if (!why.empty()) {
      load->emitRemark() << "descriptor load is not pipelined: " << why;
      return 1;
    }
    return int32_t(std::min<int64_t>(stages, kMaxBarrierId));
  }

  TransferReasons collectTransfers(triton::FuncOp func);
  BarrierBudget getBarrierBudget(triton::FuncOp func);
  DenseMap<Operation *, int32_t> assignStages(TransferReasons &reasons,
                                              BarrierBudget budget);
  void markHostEncodedArguments(triton::FuncOp func,
                                TransferReasons &reasons);
  LogicalResult runOnFunction(triton::FuncOp func);
};

/// Every descriptor load and store of `func` with why it stays without TME
/// (gathers, scatters and reductions only get a remark).
TransferReasons
MUSALowerDescriptorsToTME::collectTransfers(triton::FuncOp func) {
  TransferReasons reasons;
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
      reasons[op] = why;
    } else if (auto store = dyn_cast<triton::DescriptorStoreOp>(op)) {
      std::string why = whyNotDescriptor(store.getDesc());
      if (why.empty())
        why = whyNotBox(store.getDesc().getType(),
                        cast<RankedTensorType>(store.getSrc().getType()));
      reasons[op] = why;
    } else if (isa<triton::DescriptorGatherOp, triton::DescriptorScatterOp,
                   triton::DescriptorReduceOp>(op)) {
      op->emitRemark() << "'" << op->getName()
                       << "' stays without TME: MUSA's TME has no "
                          "gather/scatter/reduce form known here";
    }
  });
  return reasons;
}

/// Barrier ids from 2 where the function has g2s copies (public MUSA code
/// keeps id 1 for them), else from 1.
BarrierBudget
MUSALowerDescriptorsToTME::getBarrierBudget(triton::FuncOp func) {
  bool hasAsyncCopies = false;
  func.walk([&](Operation *op) {
    if (op->getName().getStringRef() == "ttg.async_copy_global_to_local" ||
        isa<mgpu::AsyncCopyGlobalToSharedOp>(op))
      hasAsyncCopies = true;
  });
  int32_t firstId = hasAsyncCopies ? 2 : 1;
  return {firstId, kMaxBarrierId - firstId + 1};
}

/// The stages of every TME load: one barrier per load, a ring per pipelined
/// load. Past the budget no load is pipelined, and the loads past it stay
/// without TME.
DenseMap<Operation *, int32_t>
MUSALowerDescriptorsToTME::assignStages(TransferReasons &reasons,
                                        BarrierBudget budget) {
  DenseMap<Operation *, int32_t> stages;
  int64_t needed = 0;
  for (auto &[op, why] : reasons)
    if (auto load = dyn_cast<triton::DescriptorLoadOp>(op); load && why.empty())
      needed += stages[op] = getStages(load);
  if (needed <= budget.size)
    return stages;
  needed = 0;
  for (auto &[op, why] : reasons) {
    auto it = stages.find(op);
    if (!why.empty() || it == stages.end())
      continue;
    if (it->second > 1)
      op->emitRemark() << "descriptor load is not pipelined: the "
                          "function's rings would need more than the "
                       << budget.size << " async barriers it has";
    it->second = 1;
    if (++needed > budget.size) {
      why = "the function already uses all its async barriers";
      --needed;
    }
  }
  return stages;
}

/// On the GPU the host passes one form per argument: TME for all of its
/// uses, or for none. Marks the arguments the host encodes, records the
/// form of each descriptor argument on the module, and keeps every use of
/// an argument without TME when one use stays without it.
void MUSALowerDescriptorsToTME::markHostEncodedArguments(
    triton::FuncOp func, TransferReasons &reasons) {
  MLIRContext *ctx = &getContext();
  SmallVector<int32_t> encodedArgs;
  for (BlockArgument arg : func.getArguments()) {
    if (!isa<triton::TensorDescType>(arg.getType()))
      continue;
    encodedArgs.push_back(0);
    if (arg.use_empty() || !isKernelArgument(arg))
      continue;
    std::string blocker;
    for (Operation *user : arg.getUsers()) {
      auto it = reasons.find(user);
      if (it == reasons.end())
        blocker =
            ("it is also used by '" + user->getName().getStringRef() + "'")
                .str();
      else if (!it->second.empty())
        blocker = it->second;
    }
    if (blocker.empty()) {
      func.setArgAttr(arg.getArgNumber(), kTMEDescriptorArgAttrName,
                      UnitAttr::get(ctx));
      encodedArgs.back() = 1;
      continue;
    }
    for (Operation *user : arg.getUsers())
      if (auto it = reasons.find(user);
          it != reasons.end() && it->second.empty())
        it->second = "another use of its descriptor argument stays "
                     "without TME (" +
                     blocker + ") and the host passes one form per argument";
  }
  if (func.isPublic() && !encodedArgs.empty())
    func->getParentOfType<ModuleOp>()->setAttr(
        kTMEDescriptorArgsAttrName, DenseI32ArrayAttr::get(ctx, encodedArgs));
}

LogicalResult MUSALowerDescriptorsToTME::runOnFunction(triton::FuncOp func) {
  TransferReasons reasons = collectTransfers(func);
  BarrierBudget budget = getBarrierBudget(func);
  DenseMap<Operation *, int32_t> stages = assignStages(reasons, budget);
  if (!emulator)
    markHostEncodedArguments(func, reasons);

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
      loads.push_back({load, stages.lookup(op), 0, Value(),
                       getMatrixOperandAlloc(load)});
    else
      stores.push_back(cast<triton::DescriptorStoreOp>(op));
  }
  if (loads.empty() && stores.empty())
    return success();

  TMERewriter tme(func, budget.firstId);
  tme.initBarriers(loads);
  // Pipelined loads, one ring state (extract slot, phase) per loop.
  llvm::MapVector<Operation *, SmallVector<PlannedLoad *>> rings;
  for (PlannedLoad &load : loads)
    if (load.stages > 1) {
      auto tile = cast<RankedTensorType>(load.op.getType());
      load.buffer = tme.allocateBuffer(load.op, tile, load.stages, [] {},
                                       load.operandAlloc);
      rings[load.op->getParentOp()].push_back(&load);
    }
  for (auto &ring : rings)
    if (failed(tme.rewriteRing(ring.second)))
      return failure();
  for (PlannedLoad &load : loads)
    if (load.stages <= 1 && failed(tme.rewriteLoad(load)))
      return failure();
  for (triton::DescriptorStoreOp store : stores)
    tme.rewriteStore(store);
  return success();
}

} // namespace
