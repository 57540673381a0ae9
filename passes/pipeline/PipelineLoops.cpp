//===- PipelineLoops.cpp - --musa-pipeline-loops --------------------------===//
//
// The one software pipeliner of the MUSA stages. Per scf.for, the planner
// (LoopPlan.cpp) decides; this file expands the plan:
//
//  1. In place, in the loop as it is: each planned `tt.load` becomes a copy
//     into slot `it % slots` of its ring (`ttg.memdesc_index`,
//     `ttg.async_copy_global_to_local`, `ttg.async_commit_group`: the
//     producer), and its readers read slot `it % slots` (the consumer):
//     `ttg.local_load`, or the slot itself where the tile was only copied
//     into a matrix unit's operand buffer. `it` = (iv - lb) / step is
//     computed separately for each stage from the induction variable. The
//     consumer starts with the wait: `musagpu.async_copy_wait` in every
//     `waitEvery`-th iteration, then a block barrier in every iteration.
//  2. MLIR's scf pipelining (scf::pipelineForLoop) with two stages: the
//     producer in stage 0, the consumer in stage `lookahead`. The schedule
//     orders the kernel as: wait, copies for iteration i + lookahead, then
//     the compute of iteration i, so the copies overlap the compute. The
//     prologue issues the first `lookahead` iterations' copies; no epilogue
//     is peeled: in the last iterations the producer's copies are masked
//     off (predicateCopy) and its pure ops run harmlessly.
//  3. After the loop, a `ttg.async_wait` (nothing is in flight by then; it
//     ends the rings' lifetime for --musa-allocate-shared-memory) and the
//     rings' deallocation, after the waits of SQMMAs kept in flight
//     (keepInFlight, done on the loop before the expansion).
//
// Why wait before the copies: a MUSA g2s wait completes every copy the
// thread started (AsyncCopyOpToLLVM.cpp). Waiting after issuing iteration
// i + lookahead's copies would wait for them too; waiting before, in
// iteration i, lands the tiles of iterations i .. i + lookahead - 1, so the
// next `lookahead` iterations need no wait.
//
//===----------------------------------------------------------------------===//

#include "passes/IfResults.h"
#include "passes/Passes.h"
#include "passes/SharedMemoryBuffers.h"
#include "passes/TMETransfers.h"
#include "passes/pipeline/Expansion.h"
#include "passes/pipeline/LoopPlan.h"
#include "passes/pipeline/WarpSpecialize.h"

#include "dialects/MUSAGPU/IR/Dialect.h"
#include "dialects/Triton/IR/Dialect.h"
#include "dialects/TritonGPU/IR/Dialect.h"
#include "target/MUSAArch.h"
#include "target/TargetInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::triton_musa {
#define GEN_PASS_DEF_MUSAPIPELINELOOPS
#include "passes/Passes.h.inc"
} // namespace mlir::triton_musa

using namespace mlir;
using namespace mlir::triton_musa;
using namespace mlir::triton_musa::pipeline;
namespace ttg = mlir::triton::gpu;
namespace mgpu = mlir::musagpu;

namespace {

constexpr StringLiteral kNumStagesAttr = "tt.num_stages";

/// The end of a loop's remark where the user asked for warp specialization
/// (`tl.range(..., warp_specialize=True)`) and the loop runs on every warp,
/// `why`.
std::string warpSpecializationNote(Operation *loop, StringRef why) {
  if (!loop->hasAttr(kWarpSpecializeAttr))
    return "";
  return ("; warp_specialize is not done: " + why).str();
}

/// The note for a loop that is not pipelined at all.
std::string warpSpecializationNote(Operation *loop) {
  return warpSpecializationNote(loop, "the loop is not pipelined");
}

/// Whether `op` is the issue of a TME tile of a ring (rewriteLoads): an
/// scf.if around the expect, the tme_load and the arrive.
bool isTMEIssue(Operation *op) {
  auto ifOp = dyn_cast<scf::IfOp>(op);
  return ifOp && !ifOp.thenBlock()->getOps<mgpu::TMELoadOp>().empty();
}

/// `tileLoad` as an async copy of `ptr` (masked by `mask`, `other` where
/// masked off) into `into`, with its cache and eviction hints, and the
/// commit of its group. Returns the copy and the commit.
std::pair<Operation *, Operation *> copyTile(OpBuilder &b,
                                             triton::LoadOp tileLoad,
                                             Value into, Value ptr,
                                             Value mask, Value other) {
  Location loc = tileLoad.getLoc();
  auto token = ttg::AsyncTokenType::get(b.getContext());
  auto copy = ttg::AsyncCopyGlobalToLocalOp::create(
      b, loc, token, ptr, into, mask, other,
      b.getI32IntegerAttr(static_cast<int32_t>(tileLoad.getCache())),
      b.getI32IntegerAttr(static_cast<int32_t>(tileLoad.getEvict())));
  auto commit = ttg::AsyncCommitGroupOp::create(b, loc, token,
                                                ValueRange{copy.getToken()});
  return {copy, commit};
}

/// Whether `op` is a batch of copies (issueInBatches).
bool isCopyBatch(Operation *op) {
  auto ifOp = dyn_cast<scf::IfOp>(op);
  return ifOp &&
         !ifOp.thenBlock()->getOps<ttg::AsyncCopyGlobalToLocalOp>().empty();
}

/// Decision 6 of the plan: at the end of the body (the producer stage, for
/// iteration j), `scf.if j % batch == 0` around the wait for every copy in
/// flight, a block barrier, and the copies of iterations j .. j + batch - 1
/// into their slots (batchAfterUnit: the barrier and the copies; the
/// consumer's head waits). The addresses of iteration j + w are the producer's
/// ops cloned with the induction variable w steps on and the loop-carried
/// values w iterations on (each clone reads the previous one's yields).
/// Every copy is masked off past the loop's end, so the batch needs no
/// predicate of its own: its wait is for the tiles of iterations that do
/// exist.
void issueInBatches(LoopPlan &plan, ArrayRef<Value> rings,
                    OpBuilder::Listener *listener) {
  scf::ForOp loop = plan.loop;
  Location loc = loop.getLoc();
  Block *body = loop.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  OpBuilder b(yield, listener);
  Value it = iterationNumber(b, loop);
  Value issue = isMultipleOf(b, loc, it, plan.batch);
  auto batch = scf::IfOp::create(b, loc, issue, /*withElse=*/false);
  b.setInsertionPointToStart(batch.thenBlock());
  // batchAfterUnit: the consumer's head waited; this barrier follows every
  // thread's wait for the unit of the previous iteration, whose slot the
  // batch refills.
  if (!plan.batchAfterUnit)
    mgpu::AsyncCopyWaitOp::create(b, loc, Value());
  ttg::LocalBarrierOp::create(b, loc);

  Value iv = loop.getInductionVar();
  Value slots = i32Constant(b, loc, plan.slots);
  IRMapping mapping;
  for (unsigned w = 0; w < plan.batch; ++w) {
    if (w > 0) {
      // Iteration j + w: the producer's ops again, one iteration on.
      IRMapping next;
      Value steps = arith::MulIOp::create(
          b, loc, loop.getStep(),
          arith::ConstantOp::create(
              b, loc, b.getIntegerAttr(loop.getStep().getType(), w)));
      next.map(iv, arith::AddIOp::create(b, loc, iv, steps));
      for (auto [arg, yielded] :
           llvm::zip(loop.getRegionIterArgs(), yield.getOperands()))
        next.map(arg, mapping.lookupOrDefault(yielded));
      for (Operation &op : body->without_terminator())
        if (plan.producer.contains(&op) &&
            !isa<triton::LoadOp, triton::DescriptorLoadOp>(op))
          b.clone(op, next);
      mapping = std::move(next);
    }
    Value ivW = mapping.lookupOrDefault(iv);
    Value inLoop = arith::CmpIOp::create(
        b, loc,
        loop.getUnsignedCmp() ? arith::CmpIPredicate::ult
                              : arith::CmpIPredicate::slt,
        ivW, loop.getUpperBound());
    Value slot = arith::RemUIOp::create(
        b, loc, arith::AddIOp::create(b, loc, it, i32Constant(b, loc, w)),
        slots);
    for (auto [ringed, ring] : llvm::zip(plan.loads, rings)) {
      auto tileLoad = cast<triton::LoadOp>(ringed.load);
      Location loadLoc = tileLoad.getLoc();
      auto into = ttg::MemDescIndexOp::create(b, loadLoc, ringed.slotType,
                                              ring, slot);
      Value ptr = mapping.lookupOrDefault(tileLoad.getPtr());
      auto ptrType = cast<RankedTensorType>(ptr.getType());
      Value mask = triton::SplatOp::create(
          b, loadLoc,
          RankedTensorType::get(ptrType.getShape(), b.getI1Type(),
                                ptrType.getEncoding()),
          inLoop);
      if (Value old = tileLoad.getMask())
        mask = arith::AndIOp::create(b, loadLoc, mapping.lookupOrDefault(old),
                                     mask);
      Value other = tileLoad.getOther()
                        ? mapping.lookupOrDefault(tileLoad.getOther())
                        : Value();
      copyTile(b, tileLoad, into, ptr, mask, other);
    }
  }
}

/// Step 1 for one loop: rewrites the planned loads in place; returns the
/// rings, allocated before the loop. The TME rings' barriers are
/// `firstBarrier` on, `plan.slots` per ring, initialized before the loop.
SmallVector<Value> rewriteLoads(LoopPlan &plan, Stages &stages,
                                int32_t firstBarrier) {
  scf::ForOp loop = plan.loop;
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  stages.producer.insert(plan.producer.begin(), plan.producer.end());
  SmallVector<Value> rings;
  for (RingedLoad &ringed : plan.loads) {
    rings.push_back(allocateRing(b, ringed, plan.slots));
  }
  // Each loop run starts its TME barriers in phase 0. In an enclosing
  // loop, every thread must be past its last wait on them first.
  SmallVector<Value> barrierBases;
  if (plan.countTMERings() != 0 && loop->getParentOfType<LoopLikeOpInterface>())
    ttg::LocalBarrierOp::create(b, loc);
  Value one = i32Constant(b, loc, 1), zero = i32Constant(b, loc, 0);
  Value yes = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  int32_t nextBarrier = firstBarrier;
  for (RingedLoad &ringed : plan.loads) {
    if (!ringed.viaTME) {
      barrierBases.push_back(Value());
      continue;
    }
    barrierBases.push_back(i32Constant(b, loc, nextBarrier));
    for (unsigned slot = 0; slot < plan.slots; ++slot)
      mgpu::AsyncBarrierInitOp::create(
          b, loc, i32Constant(b, loc, nextBarrier + slot), one, zero);
    nextBarrier += plan.slots;
  }

  // The iteration numbers and slots of both stages, and the consumer's
  // wait: for the copies in every `waitEvery`-th iteration; a TME slot's
  // barrier completes a phase each time the ring comes round to it.
  b.setInsertionPointToStart(loop.getBody());
  SmallVector<Operation *> producerOps;
  Value producerSlot, consumerSlot, consumerPhase;
  if (plan.batch == 1) {
    Recorder recorder(producerOps);
    b.setListener(&recorder);
    producerSlot = arith::RemUIOp::create(b, loc, iterationNumber(b, loop),
                                          i32Constant(b, loc, plan.slots));
    b.setListener(nullptr);
  }
  {
    Recorder recorder(stages.consumerHead, loop.getBody());
    b.setListener(&recorder);
    Value it = iterationNumber(b, loop);
    Value slots = i32Constant(b, loc, plan.slots);
    consumerSlot = arith::RemUIOp::create(b, loc, it, slots);
    if (plan.countTMERings() != 0)
      consumerPhase = arith::AndIOp::create(
          b, loc, arith::DivUIOp::create(b, loc, it, slots), one);
    if (plan.batchAfterUnit) {
      // The batch's tiles landed, for every thread, before the unit reads
      // the first; the unit in flight keeps running meanwhile.
      Value due = isMultipleOf(b, loc, it, plan.batch);
      auto wait = scf::IfOp::create(b, loc, due, /*withElse=*/false);
      OpBuilder inside = OpBuilder::atBlockBegin(wait.thenBlock());
      mgpu::AsyncCopyWaitOp::create(inside, loc, Value());
      ttg::LocalBarrierOp::create(inside, loc);
    }
    if (plan.hasCopies() && plan.batch == 1) {
      Value waits;
      if (plan.waitEvery > 1)
        waits = isMultipleOf(b, loc, it, plan.waitEvery);
      mgpu::AsyncCopyWaitOp::create(b, loc, waits);
      ttg::LocalBarrierOp::create(b, loc);
    }
    b.setListener(nullptr);
  }
  stages.producer.insert(producerOps.begin(), producerOps.end());

  if (plan.batch > 1) {
    // The batch and what its condition is computed from: the producer.
    SmallVector<Operation *> created;
    Recorder recorder(created, loop.getBody());
    issueInBatches(plan, rings, &recorder);
    stages.producer.insert(created.begin(), created.end());
  }
  for (auto [ringed, ring, barrierBase] :
       llvm::zip(plan.loads, rings, barrierBases)) {
    Operation *load = ringed.load;
    Location loadLoc = load->getLoc();
    b.setInsertionPoint(load);
    ttg::MemDescType slotType = ringed.slotType;
    if (plan.batch > 1) {
      // Copied by the batch; here only read.
    } else if (auto tileLoad = dyn_cast<triton::LoadOp>(load)) {
      auto into = ttg::MemDescIndexOp::create(b, loadLoc, slotType, ring,
                                              producerSlot);
      stages.producer.insert(into);
      auto [copy, commit] =
          copyTile(b, tileLoad, into, tileLoad.getPtr(), tileLoad.getMask(),
                   tileLoad.getOther());
      stages.producer.insert(copy);
      stages.producer.insert(commit);
    } else {
      // The tile's bytes on the slot's barrier, the TME load, the arrival:
      // one issue, predicated as a whole past the loop's end.
      auto into = ttg::MemDescIndexOp::create(b, loadLoc, slotType, ring,
                                              producerSlot);
      stages.producer.insert(into);
      auto descLoad = cast<triton::DescriptorLoadOp>(load);
      RankedTensorType tile = ringed.getTileType();
      Value bar = arith::AddIOp::create(b, loadLoc, barrierBase, producerSlot);
      // Its condition is the predicate of the iteration it issues for.
      auto issue = scf::IfOp::create(b, loadLoc, yes, /*withElse=*/false);
      OpBuilder inside = OpBuilder::atBlockBegin(issue.thenBlock());
      Value bytes = i32Constant(inside, loadLoc, tme::getTileBytes(tile));
      mgpu::AsyncBarrierExpectBytesOp::create(inside, loadLoc, bar, bytes);
      mgpu::TMELoadOp::create(
          inside, loadLoc, descLoad.getDesc(),
          tme::innermostFirst(descLoad.getIndices()), into, bar,
          inside.getDenseI32ArrayAttr(tme::getBox(tile)));
      mgpu::AsyncBarrierArriveOp::create(inside, loadLoc, bar);
      stages.producer.insert(bar.getDefiningOp());
      stages.producer.insert(issue);
      Value waitBar =
          arith::AddIOp::create(b, loadLoc, barrierBase, consumerSlot);
      mgpu::AsyncBarrierWaitOp::create(b, loadLoc, waitBar, consumerPhase);
    }
    stages.producer.erase(load);

    auto from = ttg::MemDescIndexOp::create(b, loadLoc, slotType, ring,
                                            consumerSlot);
    readSlot(b, ringed, from.getResult());
    load->erase();
  }
  return rings;
}

/// A producer op of an iteration past the loop's end, made harmless by
/// `pred`: copies are masked off, a TME issue is skipped, everything else
/// is pure.
Operation *predicateProducerOp(RewriterBase &rewriter, Operation *op,
                               Value pred) {
  if (isCopyBatch(op))
    return op; // its copies are masked off past the loop's end already
  if (isTMEIssue(op)) {
    auto issue = cast<scf::IfOp>(op);
    rewriter.modifyOpInPlace(
        issue, [&] { issue.getConditionMutable().assign(pred); });
    return issue;
  }
  auto copy = dyn_cast<ttg::AsyncCopyGlobalToLocalOp>(op);
  if (!copy)
    return isa<ttg::AsyncCommitGroupOp>(op) || isMemoryEffectFree(op)
               ? op
               : nullptr;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(copy);
  auto srcType = cast<RankedTensorType>(copy.getSrc().getType());
  auto maskType = RankedTensorType::get(
      srcType.getShape(), rewriter.getI1Type(), srcType.getEncoding());
  Value mask = triton::SplatOp::create(rewriter, copy.getLoc(), maskType, pred);
  if (Value old = copy.getMask())
    mask = arith::AndIOp::create(rewriter, copy.getLoc(), old, mask);
  rewriter.modifyOpInPlace(copy, [&] { copy.getMaskMutable().assign(mask); });
  return copy;
}

/// Step 2: the schedule, then MLIR's expansion.
FailureOr<scf::ForOp> expand(LoopPlan &plan, const Stages &stages,
                             RewriterBase &rewriter) {
  std::vector<std::pair<Operation *, unsigned>> schedule;
  unsigned last = plan.lookahead;
  llvm::DenseSet<Operation *> head(stages.consumerHead.begin(),
                                   stages.consumerHead.end());
  for (Operation *op : stages.consumerHead)
    schedule.push_back({op, last});
  auto addProducer = [&] {
    for (Operation &op : plan.loop.getBody()->without_terminator())
      if (stages.producer.contains(&op))
        schedule.push_back({&op, 0});
  };
  // The copies go before the compute, which they overlap; a batch beside
  // the unit in flight refills the slots of the unit the head waited for,
  // after the unit's next instruction is issued (at the end of the body),
  // and copiesAfterUnit puts one iteration's copies right after the last
  // SQMMA and a barrier, so the unit runs while they issue (and before a
  // tile's epilogue in a flattened persistent loop).
  // (The planner takes copiesAfterUnit only for SQMMAs in the body.) The
  // barrier follows every thread's wait for the unit whose slot the copies
  // refill (each thread waited just before issuing the next).
  Operation *afterUnitBarrier = nullptr;
  if (plan.copiesAfterUnit) {
    Operation *lastUnit = plan.inFlight.front().sqmma;
    for (const CarriedSQMMA &carried : plan.inFlight)
      if (lastUnit->isBeforeInBlock(carried.sqmma))
        lastUnit = carried.sqmma;
    OpBuilder b(lastUnit->getContext());
    b.setInsertionPointAfter(lastUnit);
    afterUnitBarrier = ttg::LocalBarrierOp::create(b, lastUnit->getLoc());
  }
  if (!plan.batchAfterUnit && !plan.copiesAfterUnit)
    addProducer();
  for (Operation &op : plan.loop.getBody()->without_terminator()) {
    if (!stages.producer.contains(&op) && !head.contains(&op))
      schedule.push_back({&op, last});
    if (&op == afterUnitBarrier)
      addProducer();
  }
  if (plan.batchAfterUnit)
    addProducer();

  scf::PipeliningOption options;
  options.getScheduleFn =
      [schedule](scf::ForOp, std::vector<std::pair<Operation *, unsigned>> &s) {
        s = schedule;
      };
  options.peelEpilogue = false;
  options.supportDynamicLoops = true;
  options.predicateFn = predicateProducerOp;
  rewriter.setInsertionPoint(plan.loop);
  return scf::pipelineForLoop(rewriter, plan.loop, options);
}

/// Shared memory the loop's rings may take: the arch's, less what is live
/// while the loop runs besides them (scratch sizes are the same for every
/// target kind of an arch; --musa-allocate-shared-memory computes them with
/// the device's TargetInfo):
///  - the buffers allocated outside the loop and used in it;
///  - the buffers allocated in its body other than tiles straight from a
///    load (which the rings replace);
///  - the largest scratch of an op in it (a layout conversion through
///    shared memory, a reduction);
///  - the TME buffers --musa-lower-descriptors-to-tme will allocate around
///    it: one per descriptor store, and per descriptor load not directly
///    in this loop's body, around the outermost loop of each
///    (tme::getBufferScope; a load another plan rings counts too, on the
///    safe side).
int64_t ringBudget(scf::ForOp loop, const MUSAArchInfo &arch,
                   const TargetInfo &targetInfo,
                   const tme::TransferReasons *transfers) {
  auto func = loop->getParentOfType<FunctionOpInterface>();
  if (!func)
    return arch.maxSharedMemoryBytes;
  // Sizes as --musa-allocate-shared-memory counts them; one it cannot
  // compute is the allocator's to report.
  ScopedDiagnosticHandler quiet(loop->getContext(),
                                [](Diagnostic &) { return success(); });
  auto ownedBuffer = [&](Operation *op) -> std::optional<OwnedBuffer> {
    FailureOr<std::optional<OwnedBuffer>> owned =
        getOwnedBuffer(op, targetInfo);
    return succeeded(owned) ? *owned : std::nullopt;
  };
  auto bytesOf = [&](ttg::LocalAllocOp alloc) -> int64_t {
    std::optional<OwnedBuffer> owned = ownedBuffer(alloc);
    return owned ? owned->bytes : 0;
  };
  int64_t live = 0;
  func->walk([&](ttg::LocalAllocOp alloc) {
    if (loop->isAncestor(alloc)) {
      Value src = alloc.getSrc();
      if (!src || (!src.getDefiningOp<triton::LoadOp>() &&
                   !src.getDefiningOp<triton::DescriptorLoadOp>()))
        live += bytesOf(alloc);
      return;
    }
    bool usedInLoop = llvm::any_of(alloc->getUsers(), [&](Operation *user) {
      return loop->isProperAncestor(user);
    });
    if (usedInLoop)
      live += bytesOf(alloc);
  });
  int64_t scratch = 0;
  loop.walk([&](Operation *op) {
    if (isa<ttg::LocalAllocOp>(op))
      return;
    if (std::optional<OwnedBuffer> owned = ownedBuffer(op);
        owned && owned->isScratch)
      scratch = std::max<int64_t>(scratch, owned->bytes);
  });
  if (transfers)
    for (auto &[op, why] : *transfers) {
      // This loop's own loads are its rings (or stay where they are only
      // when the loop is not pipelined at all).
      if (!why.empty() || (isa<triton::DescriptorLoadOp>(op) &&
                           op->getParentOp() == loop.getOperation()))
        continue;
      if (!tme::getBufferScope(op)->isAncestor(loop))
        continue;
      Value tile = isa<triton::DescriptorStoreOp>(op) ? op->getOperand(1)
                                                      : op->getResult(0);
      live += tme::getTileBytes(cast<RankedTensorType>(tile.getType()));
    }
  return std::max<int64_t>(
      0, int64_t(arch.maxSharedMemoryBytes) - live - scratch);
}

struct MUSAPipelineLoops
    : public mlir::triton_musa::impl::MUSAPipelineLoopsBase<MUSAPipelineLoops> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<const MUSAArchInfo *> arch =
        resolveMUSAArch(module, this->arch, "--musa-pipeline-loops");
    if (failed(arch))
      return signalPassFailure();
    // Which descriptor tiles TME moves, per function, decided before any
    // loop changes (--musa-lower-descriptors-to-tme decides the same).
    std::unique_ptr<TargetInfo> targetInfo = createTargetInfo(**arch, target);
    DenseMap<Operation *, tme::TransferReasons> transfers;
    if ((*arch)->hasTME)
      for (auto func : module.getOps<triton::FuncOp>())
        transfers[func] =
            tme::collectTransfers(func, *targetInfo, /*remarkOthers=*/false);
    // Every loop planned first (innermost first, a post-order walk; the
    // loops a plan takes hold no loop, so no plan touches another's), so
    // that each function knows whether it has async copies before its
    // first TME ring takes barrier ids.
    SmallVector<scf::ForOp> loops;
    module.walk([&](scf::ForOp loop) { loops.push_back(loop); });
    PlanSwitches switches;
    switches.overlapMatrixUnit = overlapMatrixUnit;
    switches.batchBesideMatrixUnit = batchBesideMatrixUnit;
    switches.shallowerForBlock = shallowerForBlock;
    switches.unitWaitsPerRound = unitWaitsPerRound;
    switches.copiesAfterUnit = copiesAfterUnit;
    PlanSwitches keepingDepth = switches;
    keepingDepth.shallowerForBlock = false;
    auto planOne = [&](scf::ForOp loop, const PlanSwitches &planSwitches,
                       std::string &whyNot) -> FailureOr<LoopPlan> {
      int stages = numStages;
      auto asked = loop->getAttrOfType<IntegerAttr>(kNumStagesAttr);
      if (asked)
        stages = asked.getInt();
      auto func = loop->getParentOfType<triton::FuncOp>();
      auto it = func ? transfers.find(func) : transfers.end();
      const tme::TransferReasons *reasons =
          it == transfers.end() ? nullptr : &it->second;
      return planLoop(loop, stages, bool(asked), planSwitches,
                      (*arch)->maxSharedMemoryBytes,
                      ringBudget(loop, **arch, *targetInfo, reasons), reasons,
                      *targetInfo, whyNot);
    };
    // Every loop planned with shallower-for-block first. A ring made
    // shallower for a second block per SM buys it only where every plan of
    // its function holds at most half the shared memory; elsewhere the
    // function's loops are planned again at their num_stages.
    struct Planned {
      FailureOr<LoopPlan> plan;
      std::string whyNot;
    };
    std::vector<Planned> planned;
    DenseSet<Operation *> keepDepth;
    for (scf::ForOp loop : loops) {
      Planned &one = planned.emplace_back(Planned{failure(), ""});
      one.plan = planOne(loop, switches, one.whyNot);
      if (succeeded(one.plan) &&
          2 * one.plan->sharedBytes > (*arch)->maxSharedMemoryBytes)
        keepDepth.insert(loop->getParentOfType<triton::FuncOp>());
    }
    std::vector<LoopPlan> plans;
    DenseMap<Operation *, bool> hasCopies;
    for (auto [loop, one] : llvm::zip_equal(loops, planned)) {
      auto func = loop->getParentOfType<triton::FuncOp>();
      if (shallowerForBlock && keepDepth.contains(func))
        one.plan = planOne(loop, keepingDepth, one.whyNot);
      FailureOr<LoopPlan> &plan = one.plan;
      std::string &whyNot = one.whyNot;
      if (failed(plan)) {
        if (!whyNot.empty())
          loop->emitRemark() << "loop not pipelined: " << whyNot
                             << warpSpecializationNote(loop);
        continue;
      }
      if (func) {
        // Copies the function has already, or that a plan adds.
        auto [entry, first] = hasCopies.try_emplace(func, false);
        if (first)
          entry->second = tme::hasAsyncCopies(func);
        entry->second |= plan->hasCopies();
      }
      plans.push_back(std::move(*plan));
    }
    IRRewriter rewriter(&getContext());
    for (LoopPlan &plan : plans)
      if (failed(expandPlan(plan, hasCopies, *targetInfo, rewriter)))
        return signalPassFailure();
  }

private:
  /// The warp-specialized expansion (WarpSpecialize.cpp), or the loop left
  /// as it is where the function has too few async barriers left.
  LogicalResult specialize(LoopPlan &plan,
                           const DenseMap<Operation *, bool> &hasCopies) {
    scf::ForOp loop = plan.loop;
    auto func = loop->getParentOfType<triton::FuncOp>();
    int32_t needed = countWarpSpecializedBarriers(plan);
    FailureOr<int32_t> first =
        tme::reserveAsyncBarrierIds(func, needed, hasCopies.lookup(func));
    if (failed(first)) {
      loop->emitRemark()
          << "loop not pipelined: its warp-specialized rings need " << needed
          << " async barriers, more than the function has left (ids up to "
          << tme::kMaxAsyncBarrierId << ")";
      return success();
    }
    unsigned tiles = plan.loads.size();
    InFlightDiagnostic remark = loop->emitRemark();
    remark << "loop warp-specialized: a producer warp issues " << tiles
           << (tiles == 1 ? " load" : " loads")
           << " as TME tiles into rings of " << plan.slots
           << " slots, the kernel's warps consume them with SQMMA in flight "
              "into the next iteration, async barriers "
           << *first << ".." << *first + needed - 1 << " (full, empty)";
    remark.report();
    expandWarpSpecialized(plan, *first);
    return success();
  }

  LogicalResult expandPlan(LoopPlan &plan,
                           const DenseMap<Operation *, bool> &hasCopies,
                           const TargetInfo &targetInfo,
                           IRRewriter &rewriter) {
    scf::ForOp loop = plan.loop;
    Location loc = loop.getLoc();
    std::string specialization;
    if (loop->hasAttr(kWarpSpecializeAttr) || warpSpecializeAll) {
      std::string why = whyNotWarpSpecialized(plan, targetInfo);
      if (why.empty())
        return specialize(plan, hasCopies);
      specialization = warpSpecializationNote(loop, why);
    }
    // The TME rings' barrier ids: one per slot.
    int32_t firstBarrier = 0;
    if (unsigned tmeRings = plan.countTMERings()) {
      auto func = loop->getParentOfType<triton::FuncOp>();
      bool keepIdForCopies = hasCopies.lookup(func);
      int32_t needed = int32_t(tmeRings * plan.slots);
      FailureOr<int32_t> first =
          tme::reserveAsyncBarrierIds(func, needed, keepIdForCopies);
      if (failed(first)) {
        loop->emitRemark()
            << "loop not pipelined: its TME rings need " << needed
            << " async barriers, more than the function has left (ids up to "
            << tme::kMaxAsyncBarrierId << ")" << specialization;
        return success();
      }
      firstBarrier = *first;
    }
    unsigned numCopies = plan.loads.size() - plan.countTMERings();
    unsigned numTiles = plan.countTMERings(), inPlace = 0;
    for (const RingedLoad &ringed : plan.loads)
      inPlace += !ringed.inPlaceAllocs.empty();
    // The user's facts about the loop-carried values (`tl.multiple_of` on
    // them: `tt.divisibility_arg<i>` and the like) hold for the pipelined
    // loop's, which keeps the iter_args in their order.
    SmallVector<NamedAttribute> hints;
    for (NamedAttribute attr : loop->getDiscardableAttrs())
      if (attr.getName().strref().starts_with("tt.") &&
          attr.getName().strref().contains("_arg"))
        hints.push_back(attr);
    Stages expansion;
    SmallVector<Operation *> finalWaits = keepInFlight(plan, expansion);
    SmallVector<Value> rings = rewriteLoads(plan, expansion, firstBarrier);
    FailureOr<scf::ForOp> pipelined = expand(plan, expansion, rewriter);
    if (failed(pipelined))
      return emitError(loc) << "--musa-pipeline-loops: the loop's pipeline "
                               "expansion failed";
    for (NamedAttribute hint : hints)
      (*pipelined)->setAttr(hint.getName(), hint.getValue());
    OpBuilder b(pipelined->getContext());
    // After the last SQMMA's wait: it reads the rings until then.
    b.setInsertionPointAfter(finalWaits.empty() ? pipelined->getOperation()
                                                : finalWaits.back());
    if (numCopies != 0)
      ttg::AsyncWaitOp::create(b, loc,
                               ttg::AsyncTokenType::get(b.getContext()),
                               ValueRange(), uint32_t(0));
    for (Value ring : rings)
      ttg::LocalDeallocOp::create(b, loc, ring);
    InFlightDiagnostic remark = (*pipelined)->emitRemark();
    auto loads = [](unsigned n) {
      return n == 1 ? std::string("1 load") : std::to_string(n) + " loads";
    };
    remark << "loop pipelined: ";
    if (numCopies != 0)
      remark << loads(numCopies) << " as async copies";
    if (numCopies != 0 && numTiles != 0)
      remark << " and ";
    if (numTiles != 0)
      remark << loads(numTiles) << " as TME tiles";
    remark << " (" << inPlace << " read in place), rings of " << plan.slots
           << " slots, " << (numCopies != 0 ? "copies" : "tiles")
           << " issued " << plan.lookahead << " iteration"
           << (plan.lookahead == 1 ? "" : "s") << " ahead";
    if (plan.batch > 1)
      remark << " in batches of " << plan.batch << " iterations' tiles";
    if (plan.batchAfterUnit || plan.copiesAfterUnit)
      remark << " after the matrix unit's next instruction";
    if (numCopies != 0)
      remark << ", a wait every " << plan.waitEvery << " iteration"
             << (plan.waitEvery == 1 ? "" : "s");
    if (!plan.inFlight.empty())
      remark << ", the matrix unit in flight into the next iteration";
    if (plan.unitWaitEvery > 1)
      remark << " and waited for every " << plan.unitWaitEvery
             << " iterations";
    if (!plan.adjustment.empty())
      remark << " (" << plan.adjustment << ")";
    remark << specialization;
    return success();
  }
};

} // namespace
