//===- LoopPlan.cpp - What --musa-pipeline-loops does to one loop ---------===//
//
// See LoopPlan.h. The decisions, in order:
//  1. Which loads: the `tt.load`s, and the `tt.descriptor_load`s that go
//     through TME (tme::collectTransfers, with a loop-invariant
//     descriptor), directly in the loop body whose tile reaches an operand
//     of a dot (tt.dot, musagpu.wmma, musagpu.sqmma) through any chain of
//     ops in the loop; in a loop without such loads whose own
//     `tt.num_stages` asks for stages, all of its tile loads.
//  2. The producer stage: those loads and the backward slice of their
//     pointers, masks, `other` and indices inside the body, following
//     loop-carried values to what the previous iteration yields. It must
//     be free of memory effects (it runs `lookahead` iterations early, and
//     in the loop's last iterations for iterations that do not exist,
//     where only the copies are masked off); an op with regions counts
//     when all of its nested ops are free of effects. No loop result may
//     carry a producer value past the loop (it would be `lookahead`
//     iterations ahead).
//  3. How the tile is read: in place, when every use is an immutable
//     `ttg.local_alloc` of one type (the operand buffers
//     --musa-accelerate-matmul made for SQMMA, or Triton's promoted dot
//     operands; for a TME ring, only buffers in a TME layout), and a ring
//     of that layout keeps every slot on a swizzle period; else through
//     `ttg.local_load` from a ring in the load's register order (async
//     copies: swizzled across the banks where a WMMA fragment reads it,
//     else without swizzle) or in the target's TME layout (TME tiles).
//  4. The ring depth: num_stages slots, made shallower (down to 2) while
//     the rings of the loop exceed the shared memory left for them. With
//     shallower-for-block (the default), where SQMMAs with at most 64 KiB
//     of accumulators read in the loop and num_stages slots leave one
//     block per SM, the deepest ring that leaves two (the pass takes it
//     only where every plan of the function leaves two).
//  5. The matrix unit in flight: where an SQMMA reads a ring in place and
//     the loop carries its accumulator (also through a flattened loop's
//     tile-end reset, CarriedSQMMA), its wait moves to just before the next
//     iteration's SQMMA, so it overlaps that iteration's wait and copies;
//     those copies then need one more slot (taken only where it fits and,
//     without overlap-matrix-unit, costs no block per SM, as in a
//     flattened persistent loop: the lookahead comes first), or, for
//     short K steps where the slot would cost a block, one iteration less
//     of lookahead.
//  6. The batches: where the ring has 4 slots or more for async copies
//     (beside the slot of a matrix unit in flight), they are issued in
//     batches of several iterations' tiles, right after the wait
//     (LoopPlan::batch): under MUSA's wait-all, no copy then has less than
//     a batch of iterations to land. Measured on the proxy (tutorial 03,
//     H200, one run): 64x128x64 and 128x64x64 at 4 stages 0.85x/0.92x ->
//     0.93x/0.98x, the 2-warp WMMA configs 0.75-0.79x -> 0.82-0.84x. Where
//     the unit in flight would have to give its slot to the batch (waited
//     for before each batch), the overlap lost cost more than the batch
//     gained (128x256x64 on 8 warps 0.90x -> 0.82x): such loops keep one
//     iteration's copies at a time. With batch-beside-matrix-unit they
//     batch in 2b slots, the unit's included (LoopPlan::batchAfterUnit):
//     a batch iteration waits for the copies, puts a barrier, issues the
//     unit's next instruction, then a second barrier (after every thread's
//     wait for the previous unit) and the batch: the unit in flight is not
//     waited for earlier than in any other iteration. Measured against the
//     default in one run (H100, tutorial 03): 128x256x64 0.89x -> 0.85x,
//     fp8 256x128x128 0.95x -> 0.86x, fp8 64x256x32 0.99x -> 1.05x: off.
//  7. The unit's waits, where it stays in flight: once a round of
//     iterations, at the head of the round's first (before its copies),
//     instead of before every SQMMA (LoopPlan::unitWaitEvery). MUSA's
//     SQMMA wait completes every SQMMA of the squad, so each wait drains
//     the matrix unit; between waits the SQMMAs chain through the
//     accumulator unwaited, as a dot's K steps do. Off by default
//     (unit-waits-per-round): measured on the proxy, it gained nothing and
//     lost up to 12% on 09's TMA persistent kernel (Passes.td).
//
//===----------------------------------------------------------------------===//

#include "passes/pipeline/LoopPlan.h"

#include "dialects/MUSAGPU/IR/Dialect.h"
#include "passes/FragmentReads.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::triton_musa;
using namespace mlir::triton_musa::pipeline;
namespace ttg = mlir::triton::gpu;
namespace mgpu = mlir::musagpu;

/// The accumulator registers, per block, of the SQMMAs in a loop past which
/// a second block per SM is not sought (decision 4a).
constexpr int64_t kMaxAccumulatorBytesForBlock = 64 * 1024;

ttg::ConvertLayoutOp RingedLoad::getOnlyConversion() const {
  return load->hasOneUse() ? dyn_cast<ttg::ConvertLayoutOp>(*load->user_begin())
                           : ttg::ConvertLayoutOp();
}

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

/// A `tt.load` or `tt.descriptor_load` of a tile a ring can hold.
bool isTileLoad(Operation *op) {
  return isa<triton::LoadOp, triton::DescriptorLoadOp>(op) &&
         isCandidateType(op->getResult(0).getType());
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

/// Whether `ringed`'s tile is only converted into a WMMA register fragment,
/// which the ring's `ttg.local_load` then reads directly.
bool readIntoWMMAFragment(const RingedLoad &ringed) {
  ttg::ConvertLayoutOp cvt = ringed.getOnlyConversion();
  return cvt && isa<mgpu::WMMAOperandEncodingAttr>(cvt.getType().getEncoding());
}

/// Whether every SQMMA that reads `alloc` is waited for in its own block:
/// the copies of a later iteration may then refill the slot it reads.
bool sqmmasDoneInIteration(ttg::LocalAllocOp alloc) {
  SmallVector<Value> views = {alloc.getResult()};
  while (!views.empty()) {
    Value view = views.pop_back_val();
    for (Operation *user : view.getUsers()) {
      if (isa<ttg::MemDescTransOp, ttg::MemDescReshapeOp>(user)) {
        views.push_back(user->getResult(0));
        continue;
      }
      if (isa<mgpu::SQMMAOp>(user) &&
          llvm::none_of(user->getUsers(), [&](Operation *u) {
            return isa<mgpu::SQMMAWaitOp>(u) &&
                   u->getBlock() == user->getBlock();
          }))
        return false;
    }
  }
  return true;
}

/// Fills `ringed`'s read mode, slot type and alignment (decision 3).
void chooseSlot(RingedLoad &ringed, const TargetInfo &targetInfo) {
  MLIRContext *ctx = ringed.load->getContext();
  RankedTensorType type = ringed.getTileType();
  Attribute smem = ttg::SharedMemorySpaceAttr::get(ctx);
  ringed.slotBytes = type.getNumElements() * type.getElementTypeBitWidth() / 8;

  SmallVector<ttg::LocalAllocOp> allocs;
  ttg::MemDescType allocType;
  bool allAllocs = !ringed.load->use_empty();
  for (Operation *user : ringed.load->getUsers()) {
    auto alloc = dyn_cast<ttg::LocalAllocOp>(user);
    if (!alloc || alloc->getBlock() != ringed.load->getBlock() ||
        (allocType && alloc.getType() != allocType) ||
        !sqmmasDoneInIteration(alloc)) {
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
    // each slot starts on a period. TME writes only its own layouts.
    auto tme = dyn_cast<mgpu::TMESharedEncodingAttr>(allocType.getEncoding());
    if (ringed.viaTME)
      alignment = std::max<int64_t>(alignment, 128); // TME's (TMA's) own
    if ((tme || !ringed.viaTME) &&
        (!tme || ringed.slotBytes % tme.getSwizzlePeriodBytes() == 0)) {
      ringed.inPlaceAllocs = std::move(allocs);
      ringed.alignment = alignment;
      ringed.slotType = ttg::MemDescType::get(
          allocType.getShape(), allocType.getElementType(),
          allocType.getEncoding(), smem, /*mutableMemory=*/true);
      return;
    }
  }
  Attribute encoding;
  if (ringed.viaTME) {
    auto [tmeEncoding, alignment] = targetInfo.getTMESharedEncoding(
        ctx, type.getShape(), type.getElementTypeBitWidth());
    encoding = tmeEncoding;
    ringed.alignment = alignment;
  } else if (readIntoWMMAFragment(ringed)) {
    encoding = getFragmentReadEncoding(ctx, type.getShape(),
                                       type.getElementTypeBitWidth(),
                                       registerOrder(type));
    ringed.alignment = 16;
  } else {
    encoding = ttg::SwizzledSharedEncodingAttr::get(ctx, 1, 1, 1,
                                                    registerOrder(type));
    ringed.alignment = 16;
  }
  ringed.slotType = ttg::MemDescType::get(type.getShape(),
                                          type.getElementType(), encoding,
                                          smem, /*mutableMemory=*/true);
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
    if (isa<triton::LoadOp, triton::DescriptorLoadOp>(def)) {
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
    if (!wait || wait->getNumResults() != 1)
      continue;
    unsigned idx = arg.getArgNumber() - 1;
    Value done = wait->getResult(0);
    if (done.hasOneUse() && *done.user_begin() == yield.getOperation() &&
        yield.getOperand(idx) == done) {
      found.push_back({sqmma, wait, idx});
      continue;
    }
    // The tile-end form.
    auto reset = yield.getOperand(idx).getDefiningOp<arith::SelectOp>();
    DenseElementsAttr zero;
    if (!reset || reset->getBlock() != loop.getBody() ||
        reset.getFalseValue() != done || !reset->hasOneUse() ||
        !matchPattern(reset.getTrueValue(), m_Constant(&zero)) ||
        !zero.isSplat() || isa<ShapedType>(reset.getCondition().getType()))
      continue;
    scf::IfOp epilogue;
    bool matches = true;
    for (Operation *user : done.getUsers()) {
      if (user == reset.getOperation())
        continue;
      Operation *top = loop.getBody()->findAncestorOpInBlock(*user);
      auto ifOp = dyn_cast_or_null<scf::IfOp>(top);
      if (!ifOp || ifOp.getCondition() != reset.getCondition() ||
          (epilogue && ifOp != epilogue) ||
          !ifOp.getThenRegion().isAncestor(user->getParentRegion())) {
        matches = false;
        break;
      }
      epilogue = ifOp;
    }
    if (matches && epilogue && reset->isBeforeInBlock(epilogue))
      found.push_back({sqmma, wait, idx, reset, epilogue});
  }
  return found;
}

bool mlir::triton_musa::pipeline::hasLoadFeedingDot(scf::ForOp loop) {
  bool found = false;
  loop.getBody()->walk([&](Operation *op) {
    if (isTileLoad(op) && closestLoop(op) == loop &&
        feedsDot(op->getResult(0), loop))
      found = true;
  });
  return found;
}

FailureOr<LoopPlan>
mlir::triton_musa::pipeline::planLoop(scf::ForOp loop, int numStages,
                                      bool explicitStages,
                                      const PlanSwitches &switches,
                                      int64_t sharedMemory,
                                      int64_t sharedBudget,
                                      const tme::TransferReasons *tmeTransfers,
                                      const TargetInfo &targetInfo,
                                      std::string &whyNot) {
  whyNot.clear();
  // Loads that feed no dot are pipelined only where the user asked for
  // stages on the loop itself (`tl.range(..., num_stages=n)`).
  bool dotLoads = hasLoadFeedingDot(loop);
  bool askedLoads =
      !dotLoads && explicitStages &&
      llvm::any_of(loop.getBody()->without_terminator(),
                   [](Operation &op) { return isTileLoad(&op); });
  if (!dotLoads && !askedLoads)
    return failure();
  if (numStages <= 1) {
    whyNot = llvm::formatv("num_stages is {0}", numStages).str();
    return failure();
  }
  LoopPlan plan;
  plan.loop = loop;
  // Decision 1.
  std::string whyNotTME; // of the first descriptor load left out
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (isa<LoopLikeOpInterface>(op)) {
      whyNot = "it holds a nested loop";
      return failure();
    }
    if (!isTileLoad(&op) || (dotLoads && !feedsDot(op.getResult(0), loop)))
      continue;
    if (auto load = dyn_cast<triton::LoadOp>(op)) {
      if (load.getIsVolatile()) {
        whyNot = "the load " + describe(load) + " is volatile";
        return failure();
      }
      plan.loads.push_back(RingedLoad{load});
      continue;
    }
    // A descriptor load: TME tiles where it goes through TME; else it
    // stays where it is (the global loads of the path without TME).
    auto load = cast<triton::DescriptorLoadOp>(op);
    std::string why = "the arch has no TME";
    if (tmeTransfers) {
      auto it = tmeTransfers->find(load);
      why = it == tmeTransfers->end() ? "it is not a TME transfer"
                                      : it->second;
    }
    if (why.empty() && !loop.isDefinedOutsideOfLoop(load.getDesc()))
      why = "its descriptor is made inside the loop";
    if (!why.empty()) {
      if (whyNotTME.empty())
        whyNotTME = "the descriptor load " + describe(load) +
                    " stays without TME: " + why;
      continue;
    }
    plan.loads.push_back(RingedLoad{load, /*viaTME=*/true});
  }
  if (plan.loads.empty()) {
    whyNot = whyNotTME.empty()
                 ? "the loads that feed its dots are inside nested regions"
                 : whyNotTME;
    return failure();
  }
  // Decision 2.
  if (failed(collectProducer(loop, plan.loads, plan.producer, whyNot)))
    return failure();
  // Decisions 3 to 5.
  unsigned slots = unsigned(numStages);
  bool readInPlace = false;
  for (RingedLoad &ringed : plan.loads) {
    chooseSlot(ringed, targetInfo);
    readInPlace |= !ringed.inPlaceAllocs.empty();
    // TME swizzles absolute addresses: every slot must start on a period.
    auto tmeLayout =
        dyn_cast<mgpu::TMESharedEncodingAttr>(ringed.slotType.getEncoding());
    if (ringed.viaTME && tmeLayout &&
        ringed.slotBytes % tmeLayout.getSwizzlePeriodBytes() != 0) {
      whyNot = llvm::formatv("a TME slot of {0} bytes of {1} is not a whole "
                             "number of its {2}-byte swizzle period",
                             ringed.slotBytes, describe(ringed.load),
                             tmeLayout.getSwizzlePeriodBytes())
                   .str();
      return failure();
    }
  }
  auto ringBytes = [&](unsigned n) {
    int64_t total = 0;
    for (const RingedLoad &ringed : plan.loads)
      total += llvm::alignTo(ringed.slotBytes * n, ringed.alignment);
    return total;
  };
  // Decision 5 first: it costs a slot, and the lookahead is what the user
  // asked for. By default only where the slot costs no block per SM (a
  // block of 1 per SM already, as a 128x256 tile or a persistent kernel):
  // measured on the proxy, halving the blocks costs more than the overlap
  // gains.
  int64_t others = sharedMemory - sharedBudget; // live beside the rings
  auto blocksPerSM = [&](unsigned n) {
    return sharedMemory / std::max<int64_t>(1, others + ringBytes(n));
  };
  SmallVector<CarriedSQMMA> carried = findCarriedSQMMAs(loop);
  // A flattened persistent loop (its accumulator reset at each tile's end)
  // runs on a grid of one block per SM: a slot more costs no block there.
  bool persistent = llvm::any_of(
      carried, [](const CarriedSQMMA &c) { return c.reset != nullptr; });
  // Decision 4a: a second block per SM before depth. MUSA's SQMMA wait
  // completes every SQMMA of the squad, so the matrix unit drains at each
  // wait unless another block's SQMMAs fill it. Not where the SQMMAs'
  // accumulators hold more than kMaxAccumulatorBytesForBlock a block: their
  // registers leave room for one block whatever the shared memory holds.
  // Measured on the proxy (H100, one run, tutorials 03 and 06): 4-warp
  // tiles gained (06 D 128 64x64 at 3 stages 0.60x -> 0.91x, at 4 0.72x ->
  // 1.04x; fp8 128x128x128 0.81x -> 1.00x, 256x64x128 0.87x -> 1.10x),
  // 8-warp 128x256 and 256x128 tiles (128 KiB of accumulators) lost
  // (0.89x -> 0.79x, fp8 0.95x -> 0.83x).
  int64_t accumulatorBytes = 0;
  for (Operation &op : loop.getBody()->without_terminator())
    if (auto sqmma = dyn_cast<mgpu::SQMMAOp>(op)) {
      auto acc = cast<RankedTensorType>(sqmma->getResult(0).getType());
      accumulatorBytes +=
          acc.getNumElements() * acc.getElementTypeBitWidth() / 8;
    }
  if (switches.shallowerForBlock && accumulatorBytes != 0 &&
      accumulatorBytes <= kMaxAccumulatorBytesForBlock && !persistent &&
      ringBytes(slots) <= sharedBudget && blocksPerSM(slots) == 1) {
    for (unsigned fewer = slots - 1; fewer >= 2; --fewer) {
      if (blocksPerSM(fewer) < 2)
        continue;
      plan.adjustment = llvm::formatv("{0} slots instead of num_stages = {1} "
                                      "for a second block per SM",
                                      fewer, numStages)
                            .str();
      slots = fewer;
      break;
    }
  }
  bool freeSlot =
      persistent || blocksPerSM(slots + 1) == blocksPerSM(slots);
  // Where the extra slot would cost a block per SM, a unit with short K
  // steps (at most 64 bytes of K per row) stays in flight within the
  // num_stages slots instead: the copies go one iteration less ahead (at
  // least one, so num_stages >= 3). Measured on the proxy (tutorial 03,
  // 4 stages, one run): 16-bit K steps of 32 gained up to 5% (128x128x32
  // 0.85x -> 0.90x), K steps of 64 lost up to 10% (128x32x64), where the
  // deeper prefetch is worth more than the overlap.
  auto shortKStep = [](const CarriedSQMMA &c) {
    auto a = cast<ttg::MemDescType>(c.sqmma->getOperand(0).getType());
    return a.getShape().back() * a.getElementTypeBitWidth() / 8 <= 64;
  };
  bool withinStages = !switches.overlapMatrixUnit && !freeSlot && slots >= 3 &&
                      !carried.empty() && llvm::all_of(carried, shortKStep);
  bool extraSlot = (switches.overlapMatrixUnit || freeSlot) &&
                   ringBytes(slots + 1) <= sharedBudget;
  // copies-after-unit: the copies follow the unit's next instruction and a
  // barrier after every thread's wait for the one before, so they may
  // refill that one's slot: the unit stays in flight at no slot and no
  // lookahead (one barrier more an iteration); an extra slot that costs no
  // block is one more iteration of lookahead.
  bool afterUnit = switches.copiesAfterUnit && !switches.unitWaitsPerRound &&
                   !carried.empty() &&
                   llvm::all_of(carried, [&](const CarriedSQMMA &c) {
                     return c.sqmma->getBlock() == loop.getBody();
                   });
  if ((extraSlot || withinStages || afterUnit) && readInPlace)
    for (const CarriedSQMMA &one : carried)
      if (readsOnlyRingsOrInvariants(cast<mgpu::SQMMAOp>(one.sqmma),
                                     plan.loads, loop))
        plan.inFlight.push_back(one);
  while (slots > 2 && ringBytes(slots) > sharedBudget)
    --slots;
  if (ringBytes(slots) > sharedBudget) {
    whyNot = llvm::formatv("rings of {0} slots need {1} bytes of shared "
                           "memory, more than the {2} left for them",
                           slots, ringBytes(slots), sharedBudget)
                 .str();
    return failure();
  }
  if (slots != unsigned(numStages) && plan.adjustment.empty())
    plan.adjustment = llvm::formatv("{0} slots instead of num_stages = {1} "
                                    "to fit {2} bytes of shared memory",
                                    slots, numStages, sharedBudget)
                          .str();
  // In flight within the slots: one iteration less of lookahead, which a
  // ring made shallower to fit may not have.
  afterUnit = afterUnit && !plan.inFlight.empty();
  bool shortened = !plan.inFlight.empty() && !extraSlot && !afterUnit;
  if (shortened && slots < 3) {
    plan.inFlight.clear();
    shortened = false;
  }
  plan.slots = slots + (!plan.inFlight.empty() && extraSlot ? 1 : 0);
  plan.lookahead =
      afterUnit ? plan.slots - 1 : slots - 1 - (shortened ? 1 : 0);
  plan.waitEvery = plan.lookahead;
  // Decision 6, the batches (async copies only: TME slots have their own
  // barriers). A batch of b iterations' tiles issued b iterations ahead
  // takes 2b slots, and a matrix unit in flight keeps its own slot. (Not
  // with copies after the unit, which take one iteration's at a time.)
  if (plan.countTMERings() == 0 && !afterUnit) {
    bool inFlight = !plan.inFlight.empty();
    unsigned total = plan.slots;
    bool batchAfter = false;
    unsigned batch = (total - (inFlight ? 1 : 0)) / 2;
    if (batch < 2 && inFlight && switches.batchBesideMatrixUnit) {
      batch = total / 2;
      batchAfter = true;
    }
    if (batch >= 2) {
      plan.batch = batch;
      plan.lookahead = batch;
      plan.waitEvery = batch;
      plan.batchAfterUnit = batchAfter;
      plan.slots = 2 * batch + (inFlight && !batchAfter ? 1 : 0);
    }
  }
  // Decision 7, the unit's waits: once a round where the unit is in flight
  // (not beside a batch issued after it, which refills the slots of the
  // unit waited for just before). A batch iteration's copies come after
  // the head's wait, so a round of `batch` iterations refills no slot in
  // use; one iteration's copies at a time may refill only slots past the
  // lookahead that the SQMMAs since the last wait do not read.
  if (switches.unitWaitsPerRound && !plan.inFlight.empty() &&
      !plan.batchAfterUnit)
    plan.unitWaitEvery =
        plan.batch > 1 ? plan.batch : plan.slots - plan.lookahead;
  plan.copiesAfterUnit = afterUnit;
  plan.sharedBytes = others + ringBytes(plan.slots);
  return plan;
}
