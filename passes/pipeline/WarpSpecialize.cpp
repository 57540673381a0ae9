//===- WarpSpecialize.cpp - A planned loop as producer and consumers ------===//
//
// The warp-specialized form of a plan (WarpSpecialize.h), for iteration it
// of a loop with rings of S slots, slot = it % S, round = it / S:
//
//   producer warp (partition 0):
//     wait empty[slot] (parity (round & 1) ^ 1); expect the tiles' bytes
//     on full[slot]; one TME load per ring into the slot; arrive on
//     full[slot]
//   consumer warps (the default region, the kernel's num_warps):
//     wait full[slot] (parity round & 1); wait for the SQMMA of it - 1
//     (kept in flight, decision 5); each warp then arrives on
//     empty[(it - 1) % S]; issue the SQMMA of it on the slot
//
// full[s] counts one arrival (the producer's) and the tiles' bytes; empty[s]
// counts the consumer warps. Both start in phase 0; a wait for parity p
// returns once the phase in progress has the other parity, so the
// producer's first round (parity 1 on empty) finds every slot free, and
// its round r waits for the consumers' release in round r - 1.
// Every warp runs the code before the loop (the partition's captures, the
// barriers' initialization and its block barrier); the producer warp
// returns at its loop's end (WarpSpecializeOpToLLVM.cpp).
//
//===----------------------------------------------------------------------===//

#include "passes/pipeline/WarpSpecialize.h"

#include "passes/SharedMemoryBuffers.h"
#include "passes/TMETransfers.h"
#include "passes/pipeline/Expansion.h"

#include "dialects/MUSAGPU/IR/Dialect.h"
#include "dialects/Triton/IR/Dialect.h"
#include "dialects/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

#include <functional>

using namespace mlir;
using namespace mlir::triton_musa;
using namespace mlir::triton_musa::pipeline;
namespace ttg = mlir::triton::gpu;
namespace mgpu = mlir::musagpu;

namespace {

/// Whether `op` reads or writes tensors (or shared buffers) in memory.
bool accessesTensorMemory(Operation *op) {
  if (isMemoryEffectFree(op))
    return false;
  auto isTensorLike = [](Type type) {
    return isa<RankedTensorType, ttg::MemDescType>(type);
  };
  return llvm::any_of(op->getOperandTypes(), isTensorLike) ||
         llvm::any_of(op->getResultTypes(), isTensorLike);
}

/// "'op'" for a remark.
std::string quoted(Operation *op) {
  return ("'" + op->getName().getStringRef() + "'").str();
}

/// The loads of `plan` and the buffers they are stored into.
llvm::DenseSet<Operation *> getRingedOps(const LoopPlan &plan) {
  llvm::DenseSet<Operation *> ops;
  for (const RingedLoad &ringed : plan.loads) {
    ops.insert(ringed.load);
    for (ttg::LocalAllocOp alloc : ringed.inPlaceAllocs)
      ops.insert(alloc);
  }
  return ops;
}

unsigned getModuleNumWarps(Operation *op) {
  auto launch = ttg::getModuleLaunchInfo(op->getParentOfType<ModuleOp>());
  return launch ? launch->numWarps : 0;
}

} // namespace

std::string pipeline::whyNotWarpSpecialized(const LoopPlan &plan,
                                            const TargetInfo &targetInfo) {
  scf::ForOp loop = plan.loop;
  if (!targetInfo.hasTME())
    return targetInfo.getArchName().str() +
           " has no tensor memory engine and async barriers for a producer "
           "warp";
  for (const RingedLoad &ringed : plan.loads) {
    if (!ringed.viaTME)
      return "a load of the loop is not a TME tile (the producer warp "
             "issues whole tiles)";
    if (ringed.inPlaceAllocs.empty())
      return "a tile of the loop is read into registers, not by the matrix "
             "unit in place";
  }
  // (The plan may leave the SQMMA unwaited for in flight or not; the
  // consumer always keeps it in flight.)
  SmallVector<CarriedSQMMA> carried = findCarriedSQMMAs(loop);
  if (carried.size() != 1)
    return "the loop does not carry exactly one SQMMA accumulator";
  if (carried.front().reset)
    return "its SQMMA's tile ends inside the loop (a flattened persistent "
           "loop), which is not specialized yet";
  auto func = dyn_cast<triton::FuncOp>(loop->getParentOp());
  if (!func || !func.isPublic())
    return "the loop is not directly in a kernel's body (the producer warp "
           "returns from the kernel at its end)";
  if (getModuleNumWarps(loop) == 0)
    return "the module has no \"ttg.num-warps\"";

  // The producer warp runs the code before the loop as well.
  for (Operation &op : func.getBody().front()) {
    if (&op == loop.getOperation())
      break;
    Operation *touching = nullptr;
    op.walk([&](Operation *inner) {
      if (accessesTensorMemory(inner))
        touching = inner;
    });
    if (touching)
      return quoted(touching) +
             " before the loop accesses memory with a tensor, which the "
             "producer warp would repeat";
  }

  // The producer's ops: the tiles' coordinates from the induction variable
  // and values defined before the loop only.
  Block *body = loop.getBody();
  llvm::DenseSet<Operation *> ringed = getRingedOps(plan);
  for (Operation &op : body->without_terminator()) {
    if (!plan.producer.contains(&op))
      continue;
    for (Value operand : op.getOperands()) {
      if (operand == loop.getInductionVar())
        continue;
      Operation *def = operand.getDefiningOp();
      if (!def && operand.getParentBlock() == body)
        return "the tiles' coordinates are carried by the loop";
      if (def && loop->isAncestor(def) && !plan.producer.contains(def))
        return "the tiles' coordinates depend on " + quoted(def) +
               " of the loop's compute";
    }
  }
  // The consumer warps cannot wait for the whole block in the loop: no
  // memory effects, and no op exchanging values through shared memory
  // (a layout conversion, a cross-warp reduction), whose lowering does.
  // (Sizes it cannot compute are --musa-allocate-shared-memory's to report.)
  ScopedDiagnosticHandler quiet(loop->getContext(),
                                [](Diagnostic &) { return success(); });
  for (Operation &op : body->without_terminator()) {
    if (plan.producer.contains(&op) || ringed.contains(&op) ||
        isa<mgpu::SQMMAOp, mgpu::SQMMAWaitOp>(op))
      continue;
    Operation *effect = nullptr, *exchange = nullptr;
    op.walk([&](Operation *inner) {
      if (!isMemoryEffectFree(inner))
        effect = inner;
      FailureOr<std::optional<OwnedBuffer>> owned =
          getOwnedBuffer(inner, targetInfo);
      if (succeeded(owned) && *owned && (*owned)->isScratch &&
          (*owned)->bytes > 0)
        exchange = inner;
    });
    if (effect)
      return quoted(effect) + " in the loop's body has memory effects the "
                              "consumer warps would order with a block "
                              "barrier";
    if (exchange)
      return quoted(exchange) +
             " in the loop's body exchanges values through shared memory, "
             "which the consumer warps would order with a block barrier";
  }
  return "";
}

int32_t pipeline::countWarpSpecializedBarriers(const LoopPlan &plan) {
  return int32_t(2 * plan.slots);
}

void pipeline::expandWarpSpecialized(LoopPlan &plan, int32_t firstBarrier) {
  scf::ForOp loop = plan.loop;
  Location loc = loop.getLoc();
  MLIRContext *ctx = loop.getContext();
  unsigned slots = plan.slots;
  unsigned consumerWarps = getModuleNumWarps(loop);
  int32_t emptyBase = firstBarrier + int32_t(slots);
  plan.inFlight = findCarriedSQMMAs(loop);
  OpBuilder b(loop);

  // The rings, and the barriers of their slots, before the loop.
  SmallVector<Value> rings;
  int64_t tileBytes = 0;
  for (RingedLoad &ringed : plan.loads) {
    rings.push_back(allocateRing(b, ringed, slots));
    tileBytes += tme::getTileBytes(ringed.getTileType());
  }
  Value one = i32Constant(b, loc, 1), zero = i32Constant(b, loc, 0);
  Value consumers = i32Constant(b, loc, consumerWarps);
  for (unsigned slot = 0; slot < slots; ++slot)
    mgpu::AsyncBarrierInitOp::create(
        b, loc, i32Constant(b, loc, firstBarrier + slot), one, zero);
  for (unsigned slot = 0; slot < slots; ++slot)
    mgpu::AsyncBarrierInitOp::create(
        b, loc, i32Constant(b, loc, emptyBase + slot), consumers, zero);

  // The producer's captures: what its ops read from before the loop, but
  // constants and descriptors the kernel makes (their lowering traces a
  // descriptor to its tt.make_tensor_descriptor), which it makes itself,
  // after what they read (`remade` in def-before-use order).
  Block *body = loop.getBody();
  SmallVector<Operation *> producerOps;
  llvm::SetVector<Value> captures;
  llvm::SetVector<Operation *> remade;
  std::function<void(Value)> capture = [&](Value value) {
    Operation *def = value.getDefiningOp();
    if (def && remade.contains(def))
      return;
    if (def && def->hasTrait<OpTrait::ConstantLike>()) {
      remade.insert(def);
    } else if (def && isa<triton::MakeTensorDescOp>(def)) {
      for (Value operand : def->getOperands())
        capture(operand);
      remade.insert(def);
    } else {
      captures.insert(value);
    }
  };
  capture(loop.getLowerBound());
  capture(loop.getUpperBound());
  capture(loop.getStep());
  for (Value ring : rings)
    captures.insert(ring);
  for (Operation &op : body->without_terminator()) {
    if (!plan.producer.contains(&op))
      continue;
    producerOps.push_back(&op);
    op.walk([&](Operation *inner) {
      for (Value operand : inner->getOperands())
        if (!loop->isAncestor(operand.getParentRegion()->getParentOp()))
          capture(operand);
    });
  }

  // The op itself, the loop moved into its default region.
  OperationState state(loc, ttg::WarpSpecializeOp::getOperationName());
  state.addTypes(loop.getResultTypes());
  state.addAttribute("partitionNumWarps", b.getDenseI32ArrayAttr({1}));
  Region *defaultRegion = state.addRegion();
  Region *holder = state.addRegion();
  defaultRegion->push_back(new Block());
  holder->push_back(new Block());
  auto specialized = cast<ttg::WarpSpecializeOp>(b.create(state));
  loop->replaceAllUsesWith(specialized.getResults());
  Block &defaultBlock = specialized.getDefaultRegion().front();
  loop->moveBefore(&defaultBlock, defaultBlock.end());
  OpBuilder atEnd = OpBuilder::atBlockEnd(&defaultBlock);
  ttg::WarpYieldOp::create(atEnd, loc, loop.getResults());

  // The producer partition.
  OpBuilder inHolder =
      OpBuilder::atBlockEnd(&specialized.getPartitionOpHolder().front());
  OperationState partitionState(
      loc, ttg::WarpSpecializePartitionsOp::getOperationName());
  partitionState.addOperands(captures.getArrayRef());
  Region *partitionRegion = partitionState.addRegion();
  auto *entry = new Block();
  partitionRegion->push_back(entry);
  IRMapping mapping;
  for (Value value : captures)
    mapping.map(value, entry->addArgument(value.getType(), value.getLoc()));
  inHolder.create(partitionState);

  OpBuilder p = OpBuilder::atBlockBegin(entry);
  for (Operation *op : remade)
    p.clone(*op, mapping);
  auto producerLoop = scf::ForOp::create(
      p, loc, mapping.lookup(loop.getLowerBound()),
      mapping.lookup(loop.getUpperBound()), mapping.lookup(loop.getStep()));
  ttg::WarpReturnOp::create(p, loc);
  mapping.map(loop.getInductionVar(), producerLoop.getInductionVar());
  p.setInsertionPoint(producerLoop.getBody()->getTerminator());
  Value it = iterationNumber(p, producerLoop);
  Value numSlots = i32Constant(p, loc, slots);
  Value slot = arith::RemUIOp::create(p, loc, it, numSlots);
  Value pOne = i32Constant(p, loc, 1);
  Value freed = arith::XOrIOp::create(
      p, loc,
      arith::AndIOp::create(p, loc,
                            arith::DivUIOp::create(p, loc, it, numSlots),
                            pOne),
      pOne);
  mgpu::AsyncBarrierWaitOp::create(
      p, loc,
      arith::AddIOp::create(p, loc, i32Constant(p, loc, emptyBase), slot),
      freed);
  Value full =
      arith::AddIOp::create(p, loc, i32Constant(p, loc, firstBarrier), slot);
  mgpu::AsyncBarrierExpectBytesOp::create(p, loc, full,
                                          i32Constant(p, loc, tileBytes));
  llvm::DenseMap<Operation *, Value> ringOf;
  for (auto [ringed, ring] : llvm::zip_equal(plan.loads, rings))
    ringOf[ringed.load] = mapping.lookup(ring);
  for (Operation *op : producerOps) {
    auto load = dyn_cast<triton::DescriptorLoadOp>(op);
    if (!load) {
      p.clone(*op, mapping);
      continue;
    }
    const RingedLoad &ringed = *llvm::find_if(
        plan.loads, [&](const RingedLoad &r) { return r.load == op; });
    auto into = ttg::MemDescIndexOp::create(p, load.getLoc(), ringed.slotType,
                                            ringOf.lookup(op), slot);
    SmallVector<Value> indices;
    for (Value index : load.getIndices())
      indices.push_back(mapping.lookup(index));
    mgpu::TMELoadOp::create(
        p, load.getLoc(), mapping.lookup(load.getDesc()),
        tme::innermostFirst(indices), into, full,
        p.getDenseI32ArrayAttr(tme::getBox(ringed.getTileType())));
  }
  mgpu::AsyncBarrierArriveOp::create(p, loc, full);

  // The consumer: the loop itself, reading the slots in place.
  OpBuilder c = OpBuilder::atBlockBegin(body);
  Value cit = iterationNumber(c, loop);
  Value cSlots = i32Constant(c, loc, slots);
  Value cSlot = arith::RemUIOp::create(c, loc, cit, cSlots);
  Value cPhase = arith::AndIOp::create(
      c, loc, arith::DivUIOp::create(c, loc, cit, cSlots),
      i32Constant(c, loc, 1));
  mgpu::AsyncBarrierWaitOp::create(
      c, loc,
      arith::AddIOp::create(c, loc, i32Constant(c, loc, firstBarrier), cSlot),
      cPhase);
  // (The views first: `c` inserts before the body's first op, a load.)
  SmallVector<Value> views;
  for (auto [ringed, ring] : llvm::zip_equal(plan.loads, rings))
    views.push_back(ttg::MemDescIndexOp::create(c, ringed.load->getLoc(),
                                                ringed.slotType, ring, cSlot));
  for (auto [ringed, view] : llvm::zip_equal(plan.loads, views)) {
    readSlot(c, ringed, view);
    ringed.load->erase();
  }
  // The producer's ops nothing of the consumer reads any more (the loads
  // are gone already).
  llvm::DenseSet<Operation *> erased;
  for (const RingedLoad &ringed : plan.loads)
    erased.insert(ringed.load);
  for (Operation *op : llvm::reverse(producerOps))
    if (!erased.contains(op) && op->use_empty())
      op->erase();

  // The unit's wait before each issue, where the slot is released: the
  // producer's ring needs no wait once a round (decision 7).
  plan.unitWaitEvery = 1;
  Stages unused;
  SmallVector<Operation *> finalWaits = keepInFlight(plan, unused);
  // Once its SQMMA is waited for (just before the next one is issued),
  // each consumer warp releases the previous iteration's slot.
  auto sqmma = cast<mgpu::SQMMAOp>(plan.inFlight.front().sqmma);
  c.setInsertionPointAfter(sqmma.getC().getDefiningOp());
  Value started = arith::CmpIOp::create(c, loc, arith::CmpIPredicate::ugt,
                                        cit, i32Constant(c, loc, 0));
  auto release = scf::IfOp::create(c, loc, started, /*withElse=*/false);
  OpBuilder r = OpBuilder::atBlockBegin(release.thenBlock());
  Value previous = arith::RemUIOp::create(
      r, loc,
      arith::AddIOp::create(r, loc, cit, i32Constant(r, loc, slots - 1)),
      cSlots);
  mgpu::AsyncBarrierArriveOp::create(
      r, loc,
      arith::AddIOp::create(r, loc, i32Constant(r, loc, emptyBase), previous),
      /*perWarp=*/true);
  (void)finalWaits;

  b.setInsertionPointAfter(specialized);
  for (Value ring : rings)
    ttg::LocalDeallocOp::create(b, loc, ring);

  ModuleOp module = loop->getParentOfType<ModuleOp>();
  int64_t total = consumerWarps + 1;
  if (auto old = module->getAttrOfType<IntegerAttr>("ttg.total-num-warps"))
    total = std::max(total, old.getInt());
  module->setAttr("ttg.total-num-warps",
                  IntegerAttr::get(IntegerType::get(ctx, 32), total));
}
