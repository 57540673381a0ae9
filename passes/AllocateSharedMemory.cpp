//===- AllocateSharedMemory.cpp - --musa-allocate-shared-memory ----------===//
//
// Liveness over the pre-order numbering of each function's ops, first-fit
// placement, then per-function bases so that callees sit above their
// callers (see the pass description in Passes.td).
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/SharedMemoryBuffers.h"

#include "target/Scratch.h"
#include "target/TargetInfo.h"

#include "dialects/Triton/IR/Dialect.h"
#include "dialects/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MathExtras.h"

#include <functional>
#include <limits>

namespace mlir::triton_musa {
#define GEN_PASS_DEF_MUSAALLOCATESHAREDMEMORY
#include "passes/Passes.h.inc"
} // namespace mlir::triton_musa

using namespace mlir;
using namespace mlir::triton_musa;
namespace ttg = mlir::triton::gpu;

namespace {

/// One buffer to place: live over op positions [start, end].
struct Buffer {
  Operation *owner;
  int64_t bytes;
  int64_t alignment;
  int64_t start;
  int64_t end;
  int64_t offset = 0;
};

/// Pre-order positions of a function's ops, and the last position inside
/// each op (its own for ops without regions).
struct Numbering {
  llvm::DenseMap<Operation *, int64_t> first, last;

  explicit Numbering(Operation *func) {
    int64_t next = 0;
    func->walk<WalkOrder::PreOrder>([&](Operation *op) { first[op] = next++; });
    func->walk<WalkOrder::PostOrder>([&](Operation *op) {
      int64_t end = first[op];
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (Operation &inner : block)
            end = std::max(end, last[&inner]);
      last[op] = end;
    });
  }
};

bool isLoop(Operation *op) { return isa<LoopLikeOpInterface>(op); }

/// Extends [start, end] to cover `user`, or the whole outermost loop around
/// `user` that does not contain `alloc` (the buffer is then live in every
/// iteration).
void extendToUse(Operation *alloc, Operation *user, const Numbering &numbers,
                 int64_t &start, int64_t &end) {
  Operation *cover = user;
  for (Operation *p = user->getParentOp(); p; p = p->getParentOp()) {
    if (p->isAncestor(alloc))
      break;
    if (isLoop(p))
      cover = p;
  }
  start = std::min(start, numbers.first.lookup(cover));
  end = std::max(end, numbers.last.lookup(cover));
}

/// Live range of a ttg.local_alloc: from the alloc to the last use of any
/// value that may view its buffer.
std::pair<int64_t, int64_t> getLiveRange(Operation *alloc,
                                         const Numbering &numbers) {
  int64_t start = numbers.first.lookup(alloc);
  int64_t end = start;
  SmallVector<Value> worklist{alloc->getResult(0)};
  llvm::SmallPtrSet<Value, 16> seen;
  auto push = [&](Value v) {
    if (seen.insert(v).second)
      worklist.push_back(v);
  };
  // A value carried around `loop` stays live over all of it.
  auto coverLoop = [&](Operation *loop) {
    start = std::min(start, numbers.first.lookup(loop));
    end = std::max(end, numbers.last.lookup(loop));
  };
  // End (position) of the latest asynchronous copy into the buffer, -1 if
  // none: the copy keeps writing until a ttg.async_wait.
  int64_t lastAsyncCopy = -1;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      extendToUse(alloc, user, numbers, start, end);
      unsigned index = use.getOperandNumber();
      if (auto copy = dyn_cast<ttg::AsyncCopyGlobalToLocalOp>(user);
          copy && copy.getResult() == value) {
        int64_t copyStart = start, copyEnd = -1;
        extendToUse(alloc, user, numbers, copyStart, copyEnd);
        lastAsyncCopy = std::max(lastAsyncCopy, copyEnd);
      }
      if (isa<ttg::MemDescIndexOp, ttg::MemDescSubsliceOp, ttg::MemDescTransOp,
              ttg::MemDescReshapeOp, ttg::MemDescReinterpretOp>(user)) {
        push(user->getResult(0));
      } else if (auto forOp = dyn_cast<scf::ForOp>(user)) {
        unsigned first = forOp.getNumControlOperands();
        if (index >= first) {
          push(forOp.getRegionIterArgs()[index - first]);
          push(forOp.getResult(index - first));
          coverLoop(forOp);
        }
      } else if (auto whileOp = dyn_cast<scf::WhileOp>(user)) {
        push(whileOp.getBeforeArguments()[index]);
        coverLoop(whileOp);
      } else if (isa<scf::YieldOp>(user)) {
        Operation *parent = user->getParentOp();
        if (auto forOp = dyn_cast<scf::ForOp>(parent)) {
          push(forOp.getRegionIterArgs()[index]);
          push(forOp.getResult(index));
          coverLoop(forOp);
        } else if (auto whileOp = dyn_cast<scf::WhileOp>(parent)) {
          push(whileOp.getBeforeArguments()[index]);
          coverLoop(whileOp);
        } else if (parent->getNumResults() > index) {
          push(parent->getResult(index));
        }
      } else if (auto condition = dyn_cast<scf::ConditionOp>(user)) {
        if (index > 0) {
          auto whileOp = cast<scf::WhileOp>(condition->getParentOp());
          push(whileOp.getAfterArguments()[index - 1]);
          push(whileOp.getResult(index - 1));
          coverLoop(whileOp);
        }
      }
    }
  }
  // Every ttg.async_wait completes all copies (see AsyncCopyOpToLLVM.cpp):
  // the buffer lives until the first wait after its last copy, or to the
  // end of the function if none follows.
  if (lastAsyncCopy >= 0) {
    Operation *func = alloc->getParentOfType<triton::FuncOp>();
    int64_t waitEnd = numbers.last.lookup(func);
    func->walk([&](ttg::AsyncWaitOp wait) {
      int64_t waitStart = std::numeric_limits<int64_t>::max(), last = -1;
      extendToUse(alloc, wait, numbers, waitStart, last);
      if (numbers.first.lookup(wait) > lastAsyncCopy)
        waitEnd = std::min(waitEnd, last);
    });
    end = std::max(end, waitEnd);
  }
  return {start, end};
}

/// First fit, largest buffers first: each buffer goes to the lowest aligned
/// offset clear of every placed buffer whose live range overlaps its own.
/// Returns the bytes used.
int64_t placeBuffers(MutableArrayRef<Buffer> buffers) {
  SmallVector<Buffer *> order;
  for (Buffer &buffer : buffers)
    order.push_back(&buffer);
  llvm::stable_sort(order, [](const Buffer *a, const Buffer *b) {
    if (a->bytes != b->bytes)
      return a->bytes > b->bytes;
    return a->start < b->start;
  });
  SmallVector<Buffer *> placed;
  int64_t total = 0;
  for (Buffer *buffer : order) {
    SmallVector<Buffer *> live;
    for (Buffer *other : placed)
      if (other->start <= buffer->end && buffer->start <= other->end)
        live.push_back(other);
    SmallVector<int64_t> candidates{0};
    for (Buffer *other : live)
      candidates.push_back(other->offset + other->bytes);
    llvm::sort(candidates);
    for (int64_t candidate : candidates) {
      int64_t offset = llvm::alignTo(candidate, buffer->alignment);
      bool clear = llvm::all_of(live, [&](Buffer *other) {
        return offset + buffer->bytes <= other->offset ||
               other->offset + other->bytes <= offset;
      });
      if (clear) {
        buffer->offset = offset;
        break;
      }
    }
    // The largest candidate is past every live buffer, so one always fits.
    placed.push_back(buffer);
    total = std::max(total, buffer->offset + buffer->bytes);
  }
  return total;
}

struct MUSAAllocateSharedMemory
    : public mlir::triton_musa::impl::MUSAAllocateSharedMemoryBase<
          MUSAAllocateSharedMemory> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<const MUSAArchInfo *> musaArch =
        resolveMUSAArch(module, arch, "--musa-allocate-shared-memory");
    if (failed(musaArch))
      return signalPassFailure();
    std::unique_ptr<TargetInfo> targetInfo = createTargetInfo(**musaArch);

    // Per function: buffers placed from 0 and the bytes they need.
    llvm::MapVector<triton::FuncOp, SmallVector<Buffer>> buffersOf;
    llvm::DenseMap<triton::FuncOp, int64_t> sizeOf;
    bool ok = true;
    for (auto func : module.getOps<triton::FuncOp>()) {
      Numbering numbers(func);
      SmallVector<Buffer> buffers;
      func.walk([&](Operation *op) {
        FailureOr<std::optional<OwnedBuffer>> owned =
            getOwnedBuffer(op, *targetInfo);
        if (failed(owned)) {
          ok = false;
          return;
        }
        if (!*owned || (*owned)->bytes == 0) {
          op->removeAttr(kAllocationOffsetAttr);
          return;
        }
        Buffer buffer{op, (*owned)->bytes, (*owned)->alignment, 0, 0};
        if ((*owned)->isScratch) {
          buffer.start = numbers.first.lookup(op);
          buffer.end = numbers.last.lookup(op);
        } else {
          std::tie(buffer.start, buffer.end) = getLiveRange(op, numbers);
        }
        buffers.push_back(buffer);
      });
      sizeOf[func] = placeBuffers(buffers);
      buffersOf[func] = std::move(buffers);
    }
    if (!ok)
      return signalPassFailure();

    // Bases: a callee starts above every caller's buffers.
    llvm::StringMap<triton::FuncOp> byName;
    for (auto func : module.getOps<triton::FuncOp>())
      byName[func.getSymName()] = func;
    llvm::DenseMap<triton::FuncOp, SmallVector<triton::FuncOp>> callees;
    for (auto func : module.getOps<triton::FuncOp>())
      func.walk([&](triton::CallOp call) {
        if (auto callee = byName.lookup(call.getCallee()))
          callees[func].push_back(callee);
      });
    llvm::DenseMap<triton::FuncOp, int64_t> baseOf;
    // Post-order of the call graph from each root, reversed: callers first.
    SmallVector<triton::FuncOp> postOrder;
    llvm::DenseMap<triton::FuncOp, int> state; // 1 = on stack, 2 = done
    std::function<bool(triton::FuncOp)> visit = [&](triton::FuncOp f) {
      if (state[f] == 2)
        return true;
      if (state[f] == 1) {
        f.emitError() << "recursive call of '" << f.getSymName()
                      << "': --musa-allocate-shared-memory needs an acyclic "
                         "call graph";
        return false;
      }
      state[f] = 1;
      for (triton::FuncOp callee : callees[f])
        if (!visit(callee))
          return false;
      state[f] = 2;
      postOrder.push_back(f);
      return true;
    };
    for (auto func : module.getOps<triton::FuncOp>())
      if (!visit(func))
        return signalPassFailure();
    for (triton::FuncOp f : llvm::reverse(postOrder)) {
      baseOf.try_emplace(f, 0);
      for (triton::FuncOp callee : callees[f])
        baseOf[callee] =
            std::max(baseOf.lookup(callee), baseOf[f] + sizeOf[f]);
    }

    int64_t total = 0;
    Builder b(module.getContext());
    for (auto &[func, buffers] : buffersOf) {
      int64_t base = llvm::alignTo(baseOf[func], 16);
      baseOf[func] = base;
      for (Buffer &buffer : buffers)
        buffer.owner->setAttr(kAllocationOffsetAttr,
                              b.getI32IntegerAttr(base + buffer.offset));
      total = std::max(total, base + sizeOf[func]);
    }

    // The plan is recorded even when it exceeds the arch: the backend reads
    // the size from it to report OutOfResources.
    module->setAttr(kSharedMemorySizeAttr, b.getI32IntegerAttr(total));
    // What each kernel needs: the top of everything it may reach.
    int64_t limit = targetInfo->getMaxSharedMemoryBytes();
    for (auto func : module.getOps<triton::FuncOp>()) {
      if (!func.isPublic())
        continue;
      int64_t need = 0;
      SmallVector<triton::FuncOp> stack{func};
      llvm::SmallPtrSet<Operation *, 8> seen;
      while (!stack.empty()) {
        triton::FuncOp f = stack.pop_back_val();
        if (!seen.insert(f).second)
          continue;
        need = std::max(need, baseOf[f] + sizeOf[f]);
        llvm::append_range(stack, callees[f]);
      }
      if (need > limit) {
        func.emitError() << "kernel '" << func.getSymName() << "' needs "
                         << need << " bytes of shared memory, more than the "
                         << limit << " bytes per block of "
                         << targetInfo->getArchName();
        ok = false;
      }
    }
    if (!ok)
      return signalPassFailure();
  }
};

} // namespace
