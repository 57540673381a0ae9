//===- LoopPlan.cpp - What --musa-pipeline-loops does to one loop ---------===//
//
// See LoopPlan.h. The decisions, in order:
//  1. Which loads: the `tt.load`s directly in the loop body whose tile
//     reaches an operand of a dot (tt.dot, musagpu.wmma, musagpu.sqmma)
//     through any chain of ops in the loop; in a loop without such loads
//     whose own `tt.num_stages` asks for stages, all of its tile loads.
//  2. The producer stage: those loads and the backward slice of their
//     pointers, masks and `other` inside the body, following loop-carried
//     values to what the previous iteration yields. It must be free of
//     memory effects and regions (it runs `lookahead` iterations early,
//     and in the loop's last iterations for iterations that do not exist,
//     where only the copies are masked off), and no loop result may carry a
//     producer value past the loop (it would be `lookahead` iterations
//     ahead).
//  3. How the tile is read: in place, when every use is an immutable
//     `ttg.local_alloc` of one type (the operand buffers
//     --musa-accelerate-matmul made for SQMMA, or Triton's promoted dot
//     operands), and a ring of that layout keeps every slot on a swizzle
//     period; else through `ttg.local_load` from an unswizzled ring in the
//     load's register order.
//  4. The ring depth: num_stages slots, made shallower (down to 2) while
//     the rings of the loop exceed the shared memory left for them.
//  5. The matrix unit in flight: where an SQMMA reads a ring in place and
//     the loop carries its accumulator, its wait moves to just before the
//     next iteration's SQMMA, so it overlaps that iteration's wait and
//     copies; those copies then need one more slot (taken only where it
//     fits: the lookahead comes first).
//
//===----------------------------------------------------------------------===//

#include "passes/pipeline/LoopPlan.h"

#include "dialects/MUSAGPU/IR/Dialect.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::triton_musa;
using namespace mlir::triton_musa::pipeline;
namespace ttg = mlir::triton::gpu;
namespace mgpu = mlir::musagpu;

namespace {

/// Whether `use` is the A or B operand of a dot (on any unit).
bool isDotOperand(OpOperand &use) {
  Operation *user = use.getOwner();
  if (!isa<triton::DotOp, mgpu::WMMAOp, mgpu::SQMMAOp>(user))
    return false;
  return use.getOperandNumber() < 2;
}

/// Whether `value` reaches a dot operand through ops inside `loop`.
bool feedsDot(Value value, scf::ForOp loop) {
  SmallVector<Value> worklist = {value};
  llvm::DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (!loop->isProperAncestor(user))
        continue;
      if (isDotOperand(use))
        return true;
      // Through a region's yield to what it yields into: the results of an
      // scf.if, the next iteration's argument of the loop.
      if (auto yield = dyn_cast<scf::YieldOp>(user)) {
        Operation *parent = yield->getParentOp();
        unsigned idx = use.getOperandNumber();
        if (parent == loop.getOperation())
          worklist.push_back(loop.getRegionIterArgs()[idx]);
        else if (idx < parent->getNumResults())
          worklist.push_back(parent->getResult(idx));
        continue;
      }
      llvm::append_range(worklist, user->getResults());
    }
  }
  return false;
}

/// The scf.for closest around `op`.
scf::ForOp closestLoop(Operation *op) {
  return op->getParentOfType<scf::ForOp>();
}

bool isCandidateType(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getElementType().isIntOrFloat() &&
         !tensor.getElementType().isInteger(1);
}

std::string describe(Operation *op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "'" << op->getName() << "'";
  if (auto loc = dyn_cast<FileLineColLoc>(op->getLoc()))
    os << " at " << loc.getFilename().getValue() << ":" << loc.getLine();
  return s;
}

/// The register order of `layout` (fastest dimension first) where it has
/// one, else row-major.
SmallVector<unsigned> registerOrder(RankedTensorType type) {
  if (auto blocked = dyn_cast<ttg::BlockedEncodingAttr>(type.getEncoding()))
    return SmallVector<unsigned>(blocked.getOrder());
  SmallVector<unsigned> order;
  for (unsigned d = type.getRank(); d > 0; --d)
    order.push_back(d - 1);
  return order;
}

/// Fills `ringed`'s read mode, slot type and alignment (decision 3).
void chooseSlot(RingedLoad &ringed) {
  MLIRContext *ctx = ringed.load.getContext();
  auto type = cast<RankedTensorType>(ringed.load.getType());
  Attribute smem = ttg::SharedMemorySpaceAttr::get(ctx);
  ringed.slotBytes = type.getNumElements() * type.getElementTypeBitWidth() / 8;

  SmallVector<ttg::LocalAllocOp> allocs;
  ttg::MemDescType allocType;
  bool allAllocs = !ringed.load->use_empty();
  for (Operation *user : ringed.load->getUsers()) {
    auto alloc = dyn_cast<ttg::LocalAllocOp>(user);
    if (!alloc || alloc->getBlock() != ringed.load->getBlock() ||
        (allocType && alloc.getType() != allocType)) {
      allAllocs = false;
      break;
    }
    allocType = alloc.getType();
    allocs.push_back(alloc);
  }
  if (allAllocs) {
    int64_t alignment = 16;
    for (ttg::LocalAllocOp alloc : allocs)
      alignment = std::max<int64_t>(alignment, alloc.getAlignment().value_or(0));
    // A swizzle on absolute addresses is the same in every slot only when
    // each slot starts on a period.
    auto tme = dyn_cast<mgpu::TMESharedEncodingAttr>(allocType.getEncoding());
    if (!tme || ringed.slotBytes % tme.getSwizzlePeriodBytes() == 0) {
      ringed.inPlaceAllocs = std::move(allocs);
      ringed.alignment = alignment;
      ringed.slotType = ttg::MemDescType::get(
          allocType.getShape(), allocType.getElementType(),
          allocType.getEncoding(), smem, /*mutableMemory=*/true);
      return;
    }
  }
  auto plain = ttg::SwizzledSharedEncodingAttr::get(ctx, 1, 1, 1,
                                                    registerOrder(type));
  ringed.slotType = ttg::MemDescType::get(type.getShape(),
                                          type.getElementType(), plain, smem,
                                          /*mutableMemory=*/true);
  ringed.alignment = 16;
}

/// Decision 2: the producer stage of `loads` in `loop`, or why there is
/// none.
LogicalResult collectProducer(scf::ForOp loop, ArrayRef<RingedLoad> loads,
                              llvm::DenseSet<Operation *> &producer,
                              std::string &whyNot) {
  Block *body = loop.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  llvm::SetVector<Value> worklist;
  llvm::DenseSet<unsigned> carried; // iter_arg numbers the producer reads
  for (const RingedLoad &ringed : loads) {
    producer.insert(ringed.load);
    for (Value operand : ringed.load->getOperands())
      worklist.insert(operand);
  }
  for (unsigned i = 0; i < worklist.size(); ++i) {
    Value v = worklist[i];
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() != body || arg == loop.getInductionVar())
        continue;
      unsigned idx = arg.getArgNumber() - 1;
      carried.insert(idx);
      worklist.insert(yield.getOperand(idx));
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (def->getBlock() != body) {
      if (loop->isProperAncestor(def)) {
        whyNot = "the address of a load comes out of " +
                 describe(def->getParentOp() == loop ? def
                                                     : def->getParentOp());
        return failure();
      }
      continue; // defined outside the loop
    }
    if (isa<triton::LoadOp>(def)) {
      whyNot = "the address of a load depends on the load " + describe(def);
      return failure();
    }
    if (producer.contains(def))
      continue;
    // An op with regions (the scf.if of a flattened persistent loop that
    // moves to the next tile) is free of side effects where all of its
    // nested ops are; it moves whole, with what its regions read.
    if (!isMemoryEffectFree(def)) {
      whyNot = "the address of a load depends on " + describe(def) +
               ", which is not free of side effects";
      return failure();
    }
    producer.insert(def);
    for (Value operand : def->getOperands())
      worklist.insert(operand);
    visitUsedValuesDefinedAbove(def->getRegions(), [&](OpOperand *use) {
      worklist.insert(use->get());
    });
  }
  for (unsigned idx : carried) {
    if (!loop.getResult(idx).use_empty()) {
      whyNot = llvm::formatv("its result #{0} carries a value the copies "
                             "compute ahead of the iteration and is used "
                             "after the loop",
                             idx)
                   .str();
      return failure();
    }
  }
  return success();
}

/// Whether `sqmma`'s operands are slots of the planned rings (through
/// memdesc views) or buffers made before the loop: nothing else in the loop
/// (a TME ring, a tile the loop stores) may be rewritten while the SQMMA of
/// the previous iteration still reads it.
bool readsOnlyRingsOrInvariants(mgpu::SQMMAOp sqmma,
                                ArrayRef<RingedLoad> loads, scf::ForOp loop) {
  auto fromRing = [&](Value operand) {
    while (Operation *def = operand.getDefiningOp()) {
      if (!loop->isProperAncestor(def))
        return true;
      if (isa<ttg::MemDescTransOp, ttg::MemDescReshapeOp>(def)) {
        operand = def->getOperand(0);
        continue;
      }
      return llvm::any_of(loads, [&](const RingedLoad &ringed) {
        return llvm::is_contained(ringed.inPlaceAllocs, def);
      });
    }
    return !loop->isAncestor(operand.getParentBlock()->getParentOp());
  };
  return fromRing(sqmma.getA()) && fromRing(sqmma.getB());
}

} // namespace

SmallVector<CarriedSQMMA>
mlir::triton_musa::pipeline::findCarriedSQMMAs(scf::ForOp loop) {
  SmallVector<CarriedSQMMA> found;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (auto sqmma : loop.getBody()->getOps<mgpu::SQMMAOp>()) {
    auto arg = dyn_cast<BlockArgument>(sqmma.getC());
    if (!arg || arg.getOwner() != loop.getBody() || arg.getArgNumber() == 0 ||
        !arg.hasOneUse() || !sqmma.getD().hasOneUse())
      continue;
    auto wait = dyn_cast<mgpu::SQMMAWaitOp>(*sqmma.getD().user_begin());
    if (!wait || wait->getNumResults() != 1 || !wait->getResult(0).hasOneUse() ||
        *wait->getResult(0).user_begin() != yield.getOperation())
      continue;
    unsigned idx = arg.getArgNumber() - 1;
    if (yield.getOperand(idx) != wait->getResult(0))
      continue;
    found.push_back({sqmma, wait, idx});
  }
  return found;
}

bool mlir::triton_musa::pipeline::hasLoadFeedingDot(scf::ForOp loop) {
  bool found = false;
  loop.getBody()->walk([&](triton::LoadOp load) {
    if (closestLoop(load) == loop && isCandidateType(load.getType()) &&
        feedsDot(load.getResult(), loop))
      found = true;
  });
  return found;
}

FailureOr<LoopPlan>
mlir::triton_musa::pipeline::planLoop(scf::ForOp loop, int numStages,
                                      bool explicitStages,
                                      bool overlapMatrixUnit,
                                      int64_t sharedBudget,
                                      std::string &whyNot) {
  whyNot.clear();
  // Loads that feed no dot are pipelined only where the user asked for
  // stages on the loop itself (`tl.range(..., num_stages=n)`).
  bool dotLoads = hasLoadFeedingDot(loop);
  bool askedLoads =
      !dotLoads && explicitStages &&
      llvm::any_of(loop.getBody()->getOps<triton::LoadOp>(),
                   [](triton::LoadOp load) {
                     return isCandidateType(load.getType());
                   });
  if (!dotLoads && !askedLoads)
    return failure();
  if (numStages <= 1) {
    whyNot = llvm::formatv("num_stages is {0}", numStages).str();
    return failure();
  }
  LoopPlan plan;
  plan.loop = loop;
  // Decision 1.
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (isa<LoopLikeOpInterface>(op)) {
      whyNot = "it holds a nested loop";
      return failure();
    }
    auto load = dyn_cast<triton::LoadOp>(op);
    if (!load || !isCandidateType(load.getType()) ||
        (dotLoads && !feedsDot(load.getResult(), loop)))
      continue;
    if (load.getIsVolatile()) {
      whyNot = "the load " + describe(load) + " is volatile";
      return failure();
    }
    plan.loads.push_back(RingedLoad{load});
  }
  if (plan.loads.empty()) {
    whyNot = "the loads that feed its dots are inside nested regions";
    return failure();
  }
  // Decision 2.
  if (failed(collectProducer(loop, plan.loads, plan.producer, whyNot)))
    return failure();
  // Decisions 3 to 5.
  unsigned slots = unsigned(numStages);
  bool readInPlace = false;
  for (RingedLoad &ringed : plan.loads) {
    chooseSlot(ringed);
    readInPlace |= !ringed.inPlaceAllocs.empty();
  }
  auto ringBytes = [&](unsigned n) {
    int64_t total = 0;
    for (const RingedLoad &ringed : plan.loads)
      total += llvm::alignTo(ringed.slotBytes * n, ringed.alignment);
    return total;
  };
  // Decision 5 first: it costs a slot, and the lookahead is what the user
  // asked for.
  if (overlapMatrixUnit && readInPlace &&
      ringBytes(slots + 1) <= sharedBudget)
    for (const CarriedSQMMA &carried : findCarriedSQMMAs(loop))
      if (readsOnlyRingsOrInvariants(cast<mgpu::SQMMAOp>(carried.sqmma),
                                     plan.loads, loop))
        plan.inFlight.push_back(carried);
  while (slots > 2 && ringBytes(slots) > sharedBudget)
    --slots;
  if (ringBytes(slots) > sharedBudget) {
    whyNot = llvm::formatv("rings of {0} slots need {1} bytes of shared "
                           "memory, more than the {2} left for them",
                           slots, ringBytes(slots), sharedBudget)
                 .str();
    return failure();
  }
  if (slots != unsigned(numStages))
    plan.adjustment = llvm::formatv("{0} slots instead of num_stages = {1} "
                                    "to fit {2} bytes of shared memory",
                                    slots, numStages, sharedBudget)
                          .str();
  plan.lookahead = slots - 1;
  plan.slots = slots + (plan.inFlight.empty() ? 0 : 1);
  plan.waitEvery = plan.lookahead;
  return plan;
}
