//===- ScheduleAsyncCopies.cpp - --musa-schedule-async-copies ------------===//
//
// Triton's pipeliner leaves each pipelined loop as: wait, read the current
// buffers, compute (tt.dot), then start the copies that refill a buffer for a
// later iteration. Every ttg.async_wait on MUSA waits for all of the thread's
// copies (AsyncCopyOpToLLVM.cpp), so copies started after the compute are
// waited for at the top of the next iteration without overlapping anything.
// This pass moves the compute below the copies: each tt.dot of the loop body
// that comes before the body's last async copy, with everything that depends
// on it in the body, goes to just before the terminator. That is legal
// whenever all of those ops are free of memory effects (then only their
// data dependencies matter, and every op they use still precedes them); a
// loop where one is not is left alone. The dot's operand local_loads go
// with it when they read slots the copies do not refill (growing the ring
// as below): a 64x64x16 fp32 FMA dot otherwise holds 192 operand registers
// per thread across the copies (128 registers and spills on the proxy,
// against 96 without). See the pass description.
//
// A musagpu.sqmma reads its operands from the ring slots themselves, and
// Triton's ring (num_stages - 1 slots, filled num_stages - 1 iterations
// ahead) refills in iteration i the very slot iteration i reads: the copies
// can only start after the sqmma, and the next iteration's wait exposes
// their whole latency. With one more slot, iteration i refills the slot
// iteration i - 1 read (whose sqmma has been waited for) instead, so the
// copies go first and overlap the sqmma. The ring grows when its indices
// are Triton's wrapping counters (which also gives every slot index in the
// prologue as a constant) and the shared memory of the arch holds the extra
// slot; then the sqmma and its wait are moved like a dot. (The wait stays
// in the iteration: each thread's wait covers only its own warp's part of
// the squad's reads, and the block barrier of the next iteration's copy
// wait must follow every warp's wait before the copies refill the slot.)
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialects/MUSAGPU/IR/Dialect.h"
#include "dialects/Triton/IR/Dialect.h"
#include "dialects/TritonGPU/IR/Dialect.h"
#include "target/MUSAArch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::triton_musa {
#define GEN_PASS_DEF_MUSASCHEDULEASYNCCOPIES
#include "passes/Passes.h.inc"
} // namespace mlir::triton_musa

using namespace mlir;
using namespace mlir::triton_musa;
namespace ttg = mlir::triton::gpu;
namespace mgpu = mlir::musagpu;

namespace {

/// A ring slot index as Triton's pipeliner counts it in a loop: the
/// loop-carried `prev` advanced and wrapped, `next = prev + 1 >= slots ? 0 :
/// prev + 1`, yielded as the next `prev`. In iteration t it is
/// (init + 1 + t) mod slots.
struct RingCounter {
  arith::CmpIOp wrap;
  int64_t slots;
  int64_t init;
};

std::optional<int64_t> getConstantInt(Value v) {
  APInt value;
  if (!matchPattern(v, m_ConstantInt(&value)))
    return std::nullopt;
  return value.getSExtValue();
}

std::optional<RingCounter> matchRingCounter(Value index, scf::ForOp loop) {
  auto select = index.getDefiningOp<arith::SelectOp>();
  if (!select || select->getBlock() != loop.getBody())
    return std::nullopt;
  auto wrap = select.getCondition().getDefiningOp<arith::CmpIOp>();
  auto next = select.getFalseValue().getDefiningOp<arith::AddIOp>();
  if (!wrap || !next || wrap.getPredicate() != arith::CmpIPredicate::sge ||
      wrap.getLhs() != next.getResult() ||
      getConstantInt(select.getTrueValue()) != 0 ||
      getConstantInt(next.getRhs()) != 1)
    return std::nullopt;
  auto prev = dyn_cast<BlockArgument>(next.getLhs());
  std::optional<int64_t> slots = getConstantInt(wrap.getRhs());
  if (!prev || prev.getOwner() != loop.getBody() || prev.getArgNumber() == 0 ||
      !slots)
    return std::nullopt;
  unsigned iterArg = prev.getArgNumber() - 1;
  std::optional<int64_t> init = getConstantInt(loop.getInitArgs()[iterArg]);
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  if (!init || yield.getOperand(iterArg) != select.getResult())
    return std::nullopt;
  return RingCounter{wrap, *slots, *init};
}

/// The ring `view` is a slot of (through at most one memdesc_trans), with
/// the counter that picks the slot in `loop`.
struct RingSlot {
  ttg::LocalAllocOp ring;
  RingCounter counter;
};

std::optional<RingSlot> matchRingSlot(Value view, scf::ForOp loop) {
  if (auto trans = view.getDefiningOp<ttg::MemDescTransOp>())
    view = trans.getSrc();
  auto index = view.getDefiningOp<ttg::MemDescIndexOp>();
  if (!index)
    return std::nullopt;
  auto ring = index.getSrc().getDefiningOp<ttg::LocalAllocOp>();
  std::optional<RingCounter> counter = matchRingCounter(index.getIndex(), loop);
  if (!ring || ring.getSrc() || !counter ||
      counter->slots != cast<ttg::MemDescType>(ring.getType()).getShape()[0])
    return std::nullopt;
  return RingSlot{ring, *counter};
}

int64_t getBytes(ttg::MemDescType type) {
  return type.getNumElements() * type.getElementTypeBitWidth() / 8;
}

/// The wrapping counter compare that picks `index`'s slot, if any.
Operation *getCounterWrap(ttg::MemDescIndexOp index) {
  auto select = index.getIndex().getDefiningOp<arith::SelectOp>();
  return select ? select.getCondition().getDefiningOp<arith::CmpIOp>()
                : nullptr;
}

/// Gives each of `rings` one more slot, and each counter compare of
/// `wraps` (all of `slots`) a bound one higher. Fails, changing nothing,
/// unless every use of a ring is a dealloc or a memdesc_index by a
/// constant inside the ring or by one of `wraps`' counters, the counters
/// pick only ring slots, and every memdesc_index of `loop` picked by one of
/// `wraps` is of one of `rings`.
LogicalResult addRingSlots(scf::ForOp loop, ArrayRef<ttg::LocalAllocOp> rings,
                           ArrayRef<arith::CmpIOp> wraps, int64_t slots) {
  auto isWrap = [&](Operation *op) {
    return op && llvm::is_contained(wraps, op);
  };
  for (ttg::LocalAllocOp ring : rings)
    for (Operation *user : ring->getUsers()) {
      if (isa<ttg::LocalDeallocOp>(user))
        continue;
      auto index = dyn_cast<ttg::MemDescIndexOp>(user);
      if (!index)
        return failure();
      std::optional<int64_t> slot = getConstantInt(index.getIndex());
      if (!isWrap(getCounterWrap(index)) &&
          !(slot && *slot >= 0 && *slot < slots))
        return failure();
    }
  // A counter that picks anything but ring slots (a barrier phase, say)
  // keeps its bound.
  for (arith::CmpIOp wrap : wraps)
    for (Operation *select : wrap->getUsers()) {
      if (!isa<arith::SelectOp>(select))
        return failure();
      for (Operation *user : select->getUsers())
        if (!isa<ttg::MemDescIndexOp, scf::YieldOp>(user))
          return failure();
    }
  WalkResult shared = loop.getBody()->walk([&](ttg::MemDescIndexOp index) {
    auto ring = index.getSrc().getDefiningOp<ttg::LocalAllocOp>();
    if (isWrap(getCounterWrap(index)) &&
        !(ring && llvm::is_contained(rings, ring)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (shared.wasInterrupted())
    return failure();
  for (ttg::LocalAllocOp ring : rings) {
    auto type = cast<ttg::MemDescType>(ring.getType());
    SmallVector<int64_t> shape(type.getShape());
    ++shape[0];
    ring.getResult().setType(ttg::MemDescType::get(
        type.getContext(), shape, type.getElementType(), type.getEncoding(),
        type.getMemorySpace(), type.getMutableMemory(), shape));
  }
  for (arith::CmpIOp wrap : wraps) {
    OpBuilder b(wrap);
    Value bound = arith::ConstantOp::create(
        b, wrap.getLoc(), b.getIntegerAttr(wrap.getRhs().getType(), slots + 1));
    wrap.getRhsMutable().assign(bound);
  }
  return success();
}

/// Whether the copies of `body` may start before the reads `reads` (the
/// operands of its sqmma ops, and the buffers of the local_loads that feed
/// its dots): each reads ring slots that no copy of this iteration refills,
/// after giving rings one more slot where needed (and where the arch's
/// shared memory has room for it: `sharedBytes` of the kernel so far,
/// `limit` at most). Every change is made only once all are known to
/// succeed.
bool makeRoomForEarlyCopies(scf::ForOp loop, ArrayRef<Value> reads,
                            ArrayRef<ttg::AsyncCopyGlobalToLocalOp> copies,
                            int64_t &sharedBytes, int64_t limit) {
  // Per ring read: its read counter and its refill counters.
  llvm::MapVector<Operation *, std::pair<RingCounter, SmallVector<RingCounter>>>
      rings;
  // Every copy refills a ring slot; a read that is no ring slot must be of
  // a buffer no copy writes (one the body stores a tensor into, or one from
  // before the loop that is no ring's).
  SmallVector<RingSlot> written;
  llvm::SmallPtrSet<Operation *, 4> copied;
  for (ttg::AsyncCopyGlobalToLocalOp copy : copies) {
    std::optional<RingSlot> slot = matchRingSlot(copy.getResult(), loop);
    if (!slot)
      return false;
    written.push_back(*slot);
    copied.insert(slot->ring);
  }
  for (Value operand : reads) {
    if (std::optional<RingSlot> read = matchRingSlot(operand, loop)) {
      rings.insert({read->ring, {read->counter, {}}});
      continue;
    }
    Value buffer = operand;
    while (Operation *def = buffer.getDefiningOp()) {
      if (!isa<ttg::MemDescIndexOp, ttg::MemDescTransOp>(def))
        break;
      buffer = def->getOperand(0);
    }
    auto alloc = buffer.getDefiningOp<ttg::LocalAllocOp>();
    if (!alloc || copied.contains(alloc) ||
        (!alloc.getSrc() && loop->isAncestor(alloc)))
      return false;
  }
  for (const RingSlot &slot : written) {
    auto it = rings.find(slot.ring);
    if (it != rings.end())
      it->second.second.push_back(slot.counter);
  }
  // Iteration t reads slot (r + 1 + t) mod n and refills (w + 1 + t) mod n.
  auto disjoint = [](const RingCounter &read, const RingCounter &refill,
                     int64_t slots) {
    return ((refill.init - read.init) % slots + slots) % slots != 0;
  };
  SmallVector<ttg::LocalAllocOp> grow;
  SmallVector<arith::CmpIOp> wraps;
  std::optional<int64_t> slots;
  int64_t extra = 0;
  for (auto &[op, counters] : rings) {
    auto ring = cast<ttg::LocalAllocOp>(op);
    auto &[read, refills] = counters;
    if (llvm::all_of(refills, [&](const RingCounter &w) {
          return disjoint(read, w, read.slots);
        }))
      continue;
    if (!llvm::all_of(refills, [&](const RingCounter &w) {
          return disjoint(read, w, read.slots + 1);
        }))
      return false;
    // The counters may be shared with other rings: all grow alike.
    if (slots && *slots != read.slots)
      return false;
    // The new slot must start on a swizzle period, as the others do (a
    // one-slot ring need not have slots of whole periods).
    auto type = cast<ttg::MemDescType>(ring.getType());
    int64_t slotBytes = getBytes(type) / type.getShape()[0];
    if (auto tme = dyn_cast<mgpu::TMESharedEncodingAttr>(type.getEncoding());
        tme && slotBytes % tme.getSwizzlePeriodBytes() != 0)
      return false;
    slots = read.slots;
    grow.push_back(ring);
    for (RingCounter c : refills)
      if (!llvm::is_contained(wraps, c.wrap))
        wraps.push_back(c.wrap);
    if (!llvm::is_contained(wraps, read.wrap))
      wraps.push_back(read.wrap);
    extra += slotBytes;
  }
  if (grow.empty())
    return true;
  if (sharedBytes + extra > limit ||
      failed(addRingSlots(loop, grow, wraps, *slots)))
    return false;
  sharedBytes += extra;
  return true;
}

/// Moves the dots (tt.dot, or musagpu.sqmma whose ring slots the copies do
/// not refill, see makeRoomForEarlyCopies) of `loop`'s body that precede its
/// last async copy, with their users in the body, to just before its
/// terminator, if all of them but the sqmma ops, their waits and the
/// buffers the sqmma ops read that the body fills are free of memory
/// effects.
void scheduleBody(scf::ForOp loop, int64_t &sharedBytes, int64_t limit) {
  Block &body = *loop.getBody();
  Operation *lastCopy = nullptr;
  SmallVector<ttg::AsyncCopyGlobalToLocalOp> copies;
  for (Operation &op : body)
    if (auto copy = dyn_cast<ttg::AsyncCopyGlobalToLocalOp>(op)) {
      lastCopy = &op;
      copies.push_back(copy);
    }
  if (!lastCopy)
    return;
  // The ops to move: dots before the last copy and, transitively, the ops
  // of `body` (found through their ancestors in `body`) that use them.
  llvm::SetVector<Operation *> moved;
  SmallVector<mgpu::SQMMAOp> sqmmas;
  for (Operation &op : body) {
    if (&op == lastCopy)
      break;
    if (isa<triton::DotOp>(op))
      moved.insert(&op);
    if (auto sqmma = dyn_cast<mgpu::SQMMAOp>(op)) {
      moved.insert(&op);
      sqmmas.push_back(sqmma);
    }
  }
  if (moved.empty())
    return;
  for (unsigned i = 0; i < moved.size(); ++i)
    for (Value result : moved[i]->getResults())
      for (Operation *user : result.getUsers()) {
        Operation *inBody = body.findAncestorOpInBlock(*user);
        if (inBody && inBody != body.getTerminator())
          moved.insert(inBody);
      }
  // The local_loads that only feed moved dots move with them, reading
  // slots no copy of the iteration refills (the ring grows by one slot
  // where needed, as for an sqmma): otherwise the barrier before the copies
  // would keep every operand register of the dot live across them (a
  // 64x64x16 fp32 FMA dot: 192 values per thread, spilled on the proxy).
  SmallVector<Value> reads;
  for (mgpu::SQMMAOp sqmma : sqmmas)
    reads.append({sqmma.getA(), sqmma.getB()});
  SmallVector<Operation *> operandLoads;
  for (Operation *op : moved) {
    if (!isa<triton::DotOp>(op))
      continue;
    for (Value operand : op->getOperands()) {
      auto load = operand.getDefiningOp<ttg::LocalLoadOp>();
      if (!load || load->getBlock() != &body ||
          !load->isBeforeInBlock(lastCopy) ||
          llvm::is_contained(operandLoads, load.getOperation()) ||
          !llvm::all_of(load->getUsers(),
                        [&](Operation *user) { return moved.contains(user); }))
        continue;
      operandLoads.push_back(load);
    }
  }
  // The loads pass every op after them: besides the copies (checked below)
  // and the moved ops, none may write memory.
  if (!operandLoads.empty()) {
    Operation *first = *llvm::min_element(
        operandLoads, [](Operation *a, Operation *b) {
          return a->isBeforeInBlock(b);
        });
    for (Operation *op = first->getNextNode(); op != body.getTerminator();
         op = op->getNextNode())
      if (!moved.contains(op) && !llvm::is_contained(operandLoads, op) &&
          !isa<ttg::AsyncCopyGlobalToLocalOp, ttg::AsyncCommitGroupOp>(op) &&
          !isMemoryEffectFree(op)) {
        operandLoads.clear();
        break;
      }
  }
  for (Operation *load : operandLoads)
    reads.push_back(cast<ttg::LocalLoadOp>(load).getSrc());
  // Besides the sqmma ops and their waits, a moved op may store a tensor
  // into a buffer of its own (the operand of a later sqmma), which no copy
  // touches.
  if (!llvm::all_of(moved, [&](Operation *op) {
        if (auto alloc = dyn_cast<ttg::LocalAllocOp>(op))
          return alloc.getSrc() && !sqmmas.empty();
        return isMemoryEffectFree(op) ||
               isa<mgpu::SQMMAOp, mgpu::SQMMAWaitOp>(op);
      }))
    return;
  // Only worth it if a copy comes after a moved op.
  if (llvm::none_of(moved, [&](Operation *op) {
        return op->isBeforeInBlock(lastCopy);
      }))
    return;
  if (!reads.empty() &&
      !makeRoomForEarlyCopies(loop, reads, copies, sharedBytes, limit)) {
    // The dots still move, their operand loads stay.
    if (!sqmmas.empty())
      return;
    operandLoads.clear();
  }
  // The sqmma moves too, not only its wait: the copies are issued first.
  // On the GPU proxy, issuing the sqmma first and the copies while it runs
  // measured 0.85x of Triton's 4096^3 matmul against 0.93x copies first: a
  // g2s wait completes every copy of the thread, so the copies have one
  // iteration to land and each cycle they start later is waited for.
  SmallVector<Operation *> ordered(operandLoads);
  ordered.append(moved.begin(), moved.end());
  llvm::sort(ordered, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });
  for (Operation *op : ordered)
    op->moveBefore(body.getTerminator());
}

struct MUSAScheduleAsyncCopies
    : public mlir::triton_musa::impl::MUSAScheduleAsyncCopiesBase<
          MUSAScheduleAsyncCopies> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<const MUSAArchInfo *> musaArch = resolveMUSAArch(
        module, this->arch, "--musa-schedule-async-copies");
    if (failed(musaArch))
      return signalPassFailure();
    // What the kernel's buffers take before any ring grows (an upper bound
    // of the plan: --musa-allocate-shared-memory reuses dead buffers).
    int64_t sharedBytes = 0;
    module.walk([&](ttg::LocalAllocOp alloc) {
      sharedBytes += getBytes(cast<ttg::MemDescType>(alloc.getType()));
    });
    int64_t limit = (*musaArch)->maxSharedMemoryBytes;
    module.walk([&](scf::ForOp forOp) {
      scheduleBody(forOp, sharedBytes, limit);
    });
  }
};

} // namespace
