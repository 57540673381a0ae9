//===- InsertBarriers.cpp - --musa-insert-barriers -----------------------===//
//
// Forward dataflow of the shared-memory accesses pending since the last
// barrier (see the pass description in Passes.td).
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/SharedMemoryBuffers.h"

#include "target/Scratch.h"
#include "target/TargetInfo.h"

#include "dialects/MUSAGPU/IR/Dialect.h"
#include "dialects/Triton/IR/Dialect.h"
#include "dialects/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

namespace mlir::triton_musa {
#define GEN_PASS_DEF_MUSAINSERTBARRIERS
#include "passes/Passes.h.inc"
} // namespace mlir::triton_musa

using namespace mlir;
using namespace mlir::triton_musa;
namespace ttg = mlir::triton::gpu;
namespace mgpu = mlir::musagpu;

namespace {

constexpr int64_t kAllOfSharedMemory = std::numeric_limits<int32_t>::max();

/// A read or write of bytes [begin, end).
struct Access {
  int64_t begin;
  int64_t end;
  bool write;
  /// A write by an asynchronous copy still in flight: no later access needs
  /// a barrier for it (a barrier does not order it; the copy wait does, and
  /// turns it into a plain write, which a later access of its bytes then
  /// needs a barrier after).
  bool async = false;

  bool operator==(const Access &o) const {
    return begin == o.begin && end == o.end && write == o.write &&
           async == o.async;
  }
  /// Whether this access, made after the pending `o`, needs a barrier.
  bool conflictsWith(const Access &o) const {
    if (o.async)
      return false;
    return (write || o.write) && begin < o.end && o.begin < end;
  }
};

/// Accesses pending since the last barrier, kept sorted and merged.
using Pending = SmallVector<Access>;

void normalize(Pending &pending) {
  llvm::sort(pending, [](const Access &a, const Access &b) {
    return std::tie(a.write, a.async, a.begin, a.end) <
           std::tie(b.write, b.async, b.begin, b.end);
  });
  Pending merged;
  for (const Access &a : pending) {
    if (!merged.empty() && merged.back().write == a.write &&
        merged.back().async == a.async && a.begin <= merged.back().end)
      merged.back().end = std::max(merged.back().end, a.end);
    else
      merged.push_back(a);
  }
  pending = std::move(merged);
}

Pending join(const Pending &a, const Pending &b) {
  Pending result(a);
  result.append(b.begin(), b.end());
  normalize(result);
  return result;
}

class BarrierInserter {
public:
  BarrierInserter(const TargetInfo &targetInfo) : targetInfo(targetInfo) {}

  LogicalResult run(triton::FuncOp func) {
    Pending entry;
    // A device function may run after its own earlier call (or its caller's
    // use of shared memory): anything may be pending.
    if (!func.isPublic())
      entry.push_back({0, kAllOfSharedMemory, true});
    for (Block &block : func.getBody())
      entry = processBlock(block, entry, /*insert=*/true);
    return success(!sawError);
  }

private:
  /// The buffers of allocs a memdesc may view, as byte ranges.
  void addViewed(Value memdesc, bool write, SmallVectorImpl<Access> &out) {
    SmallVector<Operation *> allocs;
    if (!collectViewedAllocs(memdesc, allocs)) {
      out.push_back({0, kAllOfSharedMemory, write});
      return;
    }
    for (Operation *alloc : allocs) {
      auto offset = alloc->getAttrOfType<IntegerAttr>(kAllocationOffsetAttr);
      FailureOr<std::optional<OwnedBuffer>> owned =
          getOwnedBuffer(alloc, targetInfo);
      if (!offset || failed(owned) || !*owned) {
        if (offset && failed(owned))
          sawError = true;
        out.push_back({0, kAllOfSharedMemory, write});
        continue;
      }
      out.push_back(
          {offset.getInt(), offset.getInt() + (*owned)->bytes, write});
    }
  }

  /// The shared-memory accesses of `op` itself (not of its regions).
  SmallVector<Access> getAccesses(Operation *op) {
    SmallVector<Access> accesses;
    if (auto alloc = dyn_cast<ttg::LocalAllocOp>(op)) {
      if (alloc.getSrc())
        addViewed(alloc.getResult(), /*write=*/true, accesses);
      return accesses;
    }
    if (auto store = dyn_cast<ttg::LocalStoreOp>(op)) {
      addViewed(store.getDst(), /*write=*/true, accesses);
      return accesses;
    }
    if (auto copy = dyn_cast<ttg::AsyncCopyGlobalToLocalOp>(op)) {
      addViewed(copy.getResult(), /*write=*/true, accesses);
      for (Access &access : accesses)
        access.async = true;
      return accesses;
    }
    if (auto load = dyn_cast<ttg::LocalLoadOp>(op)) {
      addViewed(load.getSrc(), /*write=*/false, accesses);
      return accesses;
    }
    // SQMMA reads both operand buffers (until its wait; the pipeline places
    // that wait before the buffers are refilled).
    if (auto sqmma = dyn_cast<mgpu::SQMMAOp>(op)) {
      addViewed(sqmma.getA(), /*write=*/false, accesses);
      addViewed(sqmma.getB(), /*write=*/false, accesses);
      return accesses;
    }
    if (isa<ttg::LocalDeallocOp, ttg::MemDescIndexOp, ttg::MemDescSubsliceOp,
            ttg::MemDescTransOp, ttg::MemDescReshapeOp,
            ttg::MemDescReinterpretOp, triton::CallOp>(op))
      return accesses;
    // Scratch: written, then read, by the op's lowering.
    if (auto offset = op->getAttrOfType<IntegerAttr>(kAllocationOffsetAttr)) {
      FailureOr<unsigned> bytes = getScratchSizeInBytes(op, targetInfo);
      if (failed(bytes)) {
        sawError = true;
      } else if (*bytes > 0) {
        accesses.push_back({offset.getInt(), offset.getInt() + *bytes, true});
        accesses.push_back({offset.getInt(), offset.getInt() + *bytes, false});
      }
    }
    // Any other op taking a buffer (e.g. an async copy into it) may read
    // and write it.
    for (Value operand : op->getOperands())
      if (isa<ttg::MemDescType>(operand.getType())) {
        addViewed(operand, /*write=*/true, accesses);
        addViewed(operand, /*write=*/false, accesses);
      }
    return accesses;
  }

  static bool conflictsWithPending(ArrayRef<Access> accesses,
                                   const Pending &pending) {
    return llvm::any_of(accesses, [&](const Access &a) {
      return llvm::any_of(pending,
                          [&](const Access &p) { return a.conflictsWith(p); });
    });
  }

  Pending processBlock(Block &block, Pending pending, bool insert) {
    for (Operation &op : llvm::make_early_inc_range(block))
      pending = processOp(&op, std::move(pending), insert);
    return pending;
  }

  Pending processRegion(Region &region, const Pending &pending, bool insert) {
    if (region.empty())
      return pending;
    // scf regions have one block; several blocks are joined conservatively.
    Pending out;
    for (Block &block : region)
      out = join(out, processBlock(block, pending, insert));
    return out;
  }

  /// Runs `body` (entry state -> exit state) to a fixpoint over a back edge
  /// from its exit to its entry; returns the entry state at the fixpoint.
  Pending loopFixpoint(const Pending &in,
                       function_ref<Pending(const Pending &, bool)> body) {
    Pending entry = in;
    normalize(entry);
    for (;;) {
      // Accumulated, so the entry state only grows: the loop terminates.
      Pending next = join(entry, body(entry, /*insert=*/false));
      if (next == entry)
        return entry;
      entry = std::move(next);
    }
  }

  Pending processOp(Operation *op, Pending pending, bool insert) {
    // ttg.async_wait lowers to a wait for the thread's copies followed by a
    // block barrier (AsyncCopyOpToLLVM.cpp).
    if (isa<ttg::LocalBarrierOp, gpu::BarrierOp, ttg::AsyncWaitOp>(op))
      return {};

    if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      Pending thenOut = processRegion(ifOp.getThenRegion(), pending, insert);
      Pending elseOut = ifOp.getElseRegion().empty()
                            ? pending
                            : processRegion(ifOp.getElseRegion(), pending,
                                            insert);
      return join(thenOut, elseOut);
    }
    if (auto forOp = dyn_cast<scf::ForOp>(op)) {
      auto body = [&](const Pending &entry, bool ins) {
        return processRegion(forOp.getRegion(), entry, ins);
      };
      Pending entry = loopFixpoint(pending, body);
      if (insert)
        body(entry, true);
      return entry; // The loop exits from its header.
    }
    if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
      // before -> (exit | after -> before).
      auto cycle = [&](const Pending &entry, bool ins) {
        Pending beforeOut = processRegion(whileOp.getBefore(), entry, ins);
        return processRegion(whileOp.getAfter(), beforeOut, ins);
      };
      Pending entry = loopFixpoint(pending, cycle);
      if (insert)
        cycle(entry, true);
      return processRegion(whileOp.getBefore(), entry, /*insert=*/false);
    }

    // A warp-specialized loop's groups order their accesses of the rings
    // with async barriers; neither can wait for the whole block.
    if (auto specialized = dyn_cast<ttg::WarpSpecializeOp>(op)) {
      bool outer = inWarpSpecialized;
      inWarpSpecialized = true;
      Pending out =
          processRegion(specialized.getDefaultRegion(), pending, insert);
      for (Region &partition :
           specialized.getPartitionOp().getPartitionRegions())
        out = join(out, processRegion(partition, pending, insert));
      inWarpSpecialized = outer;
      return out;
    }

    // Other ops with regions (e.g. tt.reduce's combine region): their
    // bodies may run any number of times.
    for (Region &region : op->getRegions()) {
      auto body = [&](const Pending &entry, bool ins) {
        return processRegion(region, entry, ins);
      };
      Pending entry = loopFixpoint(pending, body);
      if (insert)
        body(entry, true);
      pending = entry;
    }

    // The TME lowering's own block barriers (TMEOpToLLVM.cpp): a TME store
    // is issued after one, a store's read wait and an async-barrier init end
    // in one.
    if (isa<mgpu::TMEStoreOp, mgpu::TMEStoreWaitOp, mgpu::AsyncBarrierInitOp>(
            op))
      return {};

    // One thread issues a TME load, so every thread's pending access of the
    // buffer must be done first. The engine's writes do not stay pending: a
    // block barrier does not order them, the async-barrier wait every
    // reader makes does.
    if (auto tmeLoad = dyn_cast<mgpu::TMELoadOp>(op)) {
      SmallVector<Access> writes;
      addViewed(tmeLoad.getDst(), /*write=*/true, writes);
      if (conflictsWithPending(writes, pending)) {
        if (insert)
          insertBarrier(op);
        pending.clear();
      }
      return pending;
    }

    // A copy wait completes the thread's copies: their writes are plain
    // writes from here on, which other threads see after a barrier.
    if (isa<mgpu::AsyncCopyWaitOp>(op)) {
      for (Access &access : pending)
        access.async = false;
      normalize(pending);
      return pending;
    }

    SmallVector<Access> accesses = getAccesses(op);
    if (conflictsWithPending(accesses, pending)) {
      if (insert)
        insertBarrier(op);
      pending.clear();
    }
    pending.append(accesses.begin(), accesses.end());
    normalize(pending);
    return pending;
  }

  /// A block barrier before `op`; in a warp-specialized region, an error
  /// instead (the other group of warps would never arrive).
  void insertBarrier(Operation *op) {
    if (inWarpSpecialized) {
      op->emitError() << "--musa-insert-barriers: '" << op->getName()
                      << "' needs a block barrier for an earlier "
                         "shared-memory access, which a warp-specialized "
                         "region cannot wait for";
      sawError = true;
      return;
    }
    OpBuilder b(op);
    ttg::LocalBarrierOp::create(b, op->getLoc());
  }

  const TargetInfo &targetInfo;
  bool sawError = false;
  /// Inside a ttg.warp_specialize region.
  bool inWarpSpecialized = false;
};

struct MUSAInsertBarriers
    : public mlir::triton_musa::impl::MUSAInsertBarriersBase<
          MUSAInsertBarriers> {
  using Base::Base;

  void runOnOperation() override {
    FailureOr<const MUSAArchInfo *> musaArch =
        resolveMUSAArch(getOperation(), arch, "--musa-insert-barriers");
    if (failed(musaArch))
      return signalPassFailure();
    std::unique_ptr<TargetInfo> targetInfo = createTargetInfo(**musaArch);
    BarrierInserter inserter(*targetInfo);
    for (auto func : getOperation().getOps<triton::FuncOp>())
      if (failed(inserter.run(func)))
        return signalPassFailure();
  }
};

} // namespace
