//===- LoopPlan.h - What --musa-pipeline-loops does to one loop -*- C++ -*-===//
//
// The planner of the software pipeline: per scf.for, which loads become
// asynchronous copies into a ring of shared-memory slots, how deep the ring
// is, how far ahead the copies are issued, how often the loop waits for
// them, and which ops compute their addresses (the producer stage). Or, for
// a loop it leaves alone, why. Descriptor loads that TME can move are
// ringed as TME tiles, each slot with its own async barrier. The plan reads
// the IR and changes nothing; PipelineLoops.cpp expands it.
//
// One meaning of num_stages (the loop's `tt.num_stages`, else the pass's
// option): a load is issued num_stages - 1 iterations before the iteration
// that reads it, into a ring of num_stages slots. The slot beyond the
// lookahead is the one the current iteration reads while the copies for a
// later iteration are already in flight (the copies are issued before the
// compute that reads the ring, whether that is a local_load or a matrix
// unit reading the slot in place).
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_PASSES_PIPELINE_LOOPPLAN_H
#define TRITON_MUSA_PASSES_PIPELINE_LOOPPLAN_H

#include "dialects/Triton/IR/Dialect.h"
#include "dialects/TritonGPU/IR/Dialect.h"
#include "passes/TMETransfers.h"
#include "target/MUSAArch.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseSet.h"

#include <string>

namespace mlir::triton_musa::pipeline {

/// One load of the loop that goes into a ring: a `tt.load` as async
/// copies, or a `tt.descriptor_load` as TME tiles.
struct RingedLoad {
  Operation *load;
  /// A TME tile per slot, tracked by an async barrier per slot.
  bool viaTME = false;
  /// The immutable `ttg.local_alloc`s of the loaded tile (a matrix unit's
  /// operand buffers, Triton's promoted dot operands), all of one type: the
  /// ring takes their layout and their readers read the ring slot in place.
  /// Empty: the ring has a plain shared layout and the tile is read back
  /// into registers with `ttg.local_load`.
  SmallVector<triton::gpu::LocalAllocOp> inPlaceAllocs;
  /// One slot of the ring.
  triton::gpu::MemDescType slotType;
  int64_t slotBytes = 0;
  /// Byte alignment of the ring (and of every slot).
  int64_t alignment = 16;

  RankedTensorType getTileType() const {
    return cast<RankedTensorType>(load->getResult(0).getType());
  }
  /// The `ttg.convert_layout` that is the tile's only use, or null: the
  /// ring's `ttg.local_load` then reads straight into its layout.
  triton::gpu::ConvertLayoutOp getOnlyConversion() const;
};

/// An SQMMA whose accumulator the loop carries: `acc` (an iter_arg) ->
/// `musagpu.sqmma` -> `musagpu.sqmma_wait` -> yielded back into `acc`,
/// the wait's result used by nothing else; or, in a flattened persistent
/// loop, yielded through `arith.select %last, %zero, %w` (the reset at a
/// tile's end), the wait's result otherwise read only in the then-region
/// of an `scf.if %last` (the tile's epilogue) of the same block.
struct CarriedSQMMA {
  Operation *sqmma;
  Operation *wait;
  unsigned iterArg;
  /// The tile-end form: the select and the epilogue's scf.if; null else.
  Operation *reset = nullptr;
  Operation *epilogue = nullptr;
};

/// The SQMMAs of `loop` that can stay in flight into the next iteration
/// (their wait moved to just before the next one is issued).
SmallVector<CarriedSQMMA> findCarriedSQMMAs(scf::ForOp loop);

struct LoopPlan {
  scf::ForOp loop;
  /// Iterations a copy is issued ahead of its reader (num_stages - 1).
  unsigned lookahead = 0;
  /// Slots per ring: lookahead + 1, and one more where the matrix unit
  /// stays in flight (the extra slot, or one iteration less of lookahead).
  unsigned slots = 0;
  /// The loop's SQMMAs stay in flight into the next iteration: each waits
  /// for the previous one just before it is issued, so an SQMMA overlaps
  /// the next iteration's wait and copies, which then must not refill the
  /// slot it reads (one more slot per ring, or the copies issued one
  /// iteration less ahead).
  SmallVector<CarriedSQMMA> inFlight;
  /// The loop waits for its copies in every `waitEvery`-th iteration: a MUSA
  /// wait completes every copy the thread started, so one wait covers the
  /// next `lookahead` iterations' tiles.
  unsigned waitEvery = 1;
  /// Copies issued in batches: every `batch`-th iteration waits, then
  /// issues the copies of `batch` iterations at once (lookahead = waitEvery
  /// = batch). Issued one iteration's copies at a time, a wait would also
  /// wait for the copies of the iteration before, in flight for one
  /// iteration only; in batches, every copy has `batch` iterations to land.
  /// 1: the copies of one iteration in each iteration.
  unsigned batch = 1;
  /// Batches beside the matrix unit in flight in 2 * batch slots, the
  /// unit's included: a batch iteration waits for the copies and puts a
  /// barrier, issues the unit's next instruction (waiting, as every
  /// iteration does, for the one in flight just before), then a second
  /// barrier and the batch, into the slots the waited-for units read.
  bool batchAfterUnit = false;
  /// One iteration's copies at a time, issued after the matrix unit's next
  /// instruction and a barrier instead of before it: they refill the slot
  /// of the unit every thread waited for just before (no slot of its own
  /// for the unit in flight), and the unit runs while they are issued and
  /// their addresses computed.
  bool copiesAfterUnit = false;
  /// The SQMMAs in flight are waited for in every `unitWaitEvery`-th
  /// iteration only, at its head (before its copies are issued); the
  /// SQMMAs of the iterations between chain through the accumulator
  /// unwaited, as a dot's K steps do. MUSA's SQMMA wait completes every
  /// SQMMA of the squad, so the matrix unit drains at each wait: once a
  /// round instead of once an iteration. The copies of an iteration then
  /// must not refill the slots of the SQMMAs issued since the last wait
  /// (slots >= lookahead + unitWaitEvery; a batch iteration waits anyway).
  unsigned unitWaitEvery = 1;
  SmallVector<RingedLoad> loads;
  /// Ops of the body that compute what the copies read (addresses, masks,
  /// `other`) and the copies' loads themselves: the producer stage, issued
  /// `lookahead` iterations early. Every other op is the consumer stage.
  llvm::DenseSet<Operation *> producer;
  /// Whether some ring is filled by async copies (which the loop waits
  /// for with `waitEvery`; TME rings wait on their slots' barriers).
  bool hasCopies() const {
    return llvm::any_of(loads, [](const RingedLoad &l) { return !l.viaTME; });
  }
  unsigned countTMERings() const {
    return llvm::count_if(loads, [](const RingedLoad &l) { return l.viaTME; });
  }
  /// What the plan changed from what was asked (a ring made shallower to
  /// fit the shared memory), for the loop's remark.
  std::string adjustment;
  /// Shared memory the loop holds: its rings and what is live beside them
  /// (a ring made shallower for a second block per SM pays only where
  /// every loop of the function holds at most half).
  int64_t sharedBytes = 0;
};

/// The planner's switches (the pass options of the same names).
struct PlanSwitches {
  /// The loop's SQMMAs stay in flight into the next iteration where the
  /// rings have room for the extra slot and it costs no block per SM, or,
  /// with `overlapMatrixUnit`, wherever the slot fits.
  bool overlapMatrixUnit = false;
  /// Batches also where only the unit's slot makes room for them
  /// (LoopPlan::batchAfterUnit).
  bool batchBesideMatrixUnit = false;
  /// Where SQMMAs with at most 64 KiB of accumulators read in the loop and
  /// num_stages slots leave one block per SM, the deepest ring (>= 2 slots)
  /// that leaves two (not in a flattened persistent loop, which runs one
  /// anyway).
  bool shallowerForBlock = true;
  /// The SQMMAs in flight waited for once a round of iterations
  /// (LoopPlan::unitWaitEvery), not once an iteration.
  bool unitWaitsPerRound = false;
  /// One iteration's copies issued after the unit in flight
  /// (LoopPlan::copiesAfterUnit).
  bool copiesAfterUnit = false;
};

/// The plan for `loop` at `numStages` (`explicitStages`: the loop's own
/// `tt.num_stages` asked for them), or the reason it stays as it is.
/// `sharedBudget` is the shared memory, in bytes, the rings may take.
/// Returns failure with `whyNot` empty for a loop that has no load to
/// pipeline (nothing to say about it).
/// `sharedMemory` is the arch's per block.
/// `tmeTransfers`: the function's descriptor transfers and why each stays
/// without TME (null without TME): the descriptor loads that go through
/// TME are ringed as TME tiles in `targetInfo`'s layout.
FailureOr<LoopPlan> planLoop(scf::ForOp loop, int numStages,
                             bool explicitStages,
                             const PlanSwitches &switches,
                             int64_t sharedMemory, int64_t sharedBudget,
                             const tme::TransferReasons *tmeTransfers,
                             const TargetInfo &targetInfo,
                             std::string &whyNot);

/// Whether a load of `loop`'s body (directly or nested) feeds a dot's
/// operand: the loops the planner owes a plan or a remark.
bool hasLoadFeedingDot(scf::ForOp loop);

} // namespace mlir::triton_musa::pipeline

#endif // TRITON_MUSA_PASSES_PIPELINE_LOOPPLAN_H
