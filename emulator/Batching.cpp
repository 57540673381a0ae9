//===- Batching.cpp - Runs of stores and shuffles as one call -------------===//
//
// A store or a warp shuffle is a turn of every thread of the block or warp
// (lockstep, see the top of RuntimeState.h), a fiber switch each. These
// passes turn a thread's runs of them into one runtime call per run
// (kStoreBatch, kShuffleBatch), with what each thread observes unchanged.
//
//===----------------------------------------------------------------------===//

#include "emulator/Instrumentation.h"

#include "target/EmulatorABI.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include <cstddef>

using namespace mlir::triton_musa;
using namespace mlir::triton_musa::emulator;
namespace abi = mlir::triton_musa::emulator_abi;
using abi::kGlobalAddressSpace;
using abi::kSharedAddressSpace;

/// A global or shared store the runtime can carry out from a batch record:
/// simple (not volatile or atomic), of a whole number of bytes, at most 16.
static llvm::StoreInst *batchableStore(llvm::Instruction &inst,
                                       const llvm::DataLayout &dl) {
  auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst);
  if (!store || !store->isSimple())
    return nullptr;
  unsigned as = store->getPointerAddressSpace();
  if (as != kGlobalAddressSpace && as != kSharedAddressSpace)
    return nullptr;
  llvm::Type *type = store->getValueOperand()->getType();
  llvm::TypeSize bits = dl.getTypeSizeInBits(type);
  if (bits.isScalable() || bits.getFixedValue() % 8 != 0 ||
      dl.getTypeStoreSize(type).getFixedValue() > sizeof(abi::StoreBatchRecord::value))
    return nullptr;
  return store;
}

/// Straight-line computation that touches no memory and has no effect (no
/// terminator, phi or alloca): what the batching of shuffles and of stores
/// may move across the calls they make.
static bool touchesNothing(const llvm::Instruction &inst) {
  if (inst.isTerminator() || llvm::isa<llvm::PHINode, llvm::AllocaInst>(inst))
    return false;
  return !inst.mayReadOrWriteMemory() && !inst.mayHaveSideEffects();
}

/// Computation that may stay between the stores of a batch, or move above
/// one (from a masked store's block): it touches nothing and cannot trap.
static bool isSpeculatablePure(const llvm::Instruction &inst) {
  return touchesNothing(inst) && llvm::isSafeToSpeculativelyExecute(&inst);
}

/// The store of `br`'s masked-store pattern, as MLIR's lowering of a masked
/// store leaves it: `br %mask, %then, %join` where %then holds only pure
/// computation, the store and `br %join`, and %join is entered from these
/// two blocks only and has no phi.
static llvm::StoreInst *maskedStore(llvm::BranchInst *br,
                                    const llvm::DataLayout &dl) {
  if (!br->isConditional())
    return nullptr;
  llvm::BasicBlock *from = br->getParent(), *then = br->getSuccessor(0),
                   *join = br->getSuccessor(1);
  if (then == from || join == from || then == join ||
      then->getSinglePredecessor() != from ||
      llvm::isa<llvm::PHINode>(join->front()) || !join->hasNPredecessors(2))
    return nullptr;
  auto *thenBr = llvm::dyn_cast<llvm::BranchInst>(then->getTerminator());
  if (!thenBr || thenBr->isConditional() || thenBr->getSuccessor(0) != join)
    return nullptr;
  llvm::StoreInst *store = nullptr;
  for (llvm::Instruction &inst : *then) {
    if (&inst == thenBr)
      break;
    if (llvm::StoreInst *candidate = batchableStore(inst, dl); candidate && !store) {
      store = candidate;
      continue;
    }
    if (!isSpeculatablePure(inst))
      return nullptr;
  }
  return store;
}

/// Replaces each run of two or more global and shared stores of a thread,
/// with nothing but pure computation and masked-store branches between them
/// (MLIR's lowering of one tl.store of several registers, or of consecutive
/// tl.store), by one kStoreBatch call: every store is a turn for each thread
/// of the block (lockstep, see the top of RuntimeState.h), the batch is one.
/// The stores' values and addresses go to a record array, each masked one
/// with its mask; the runtime checks them, and carries them out after every
/// converged lane has logged its own, in statement order (MemoryChecks.cpp).
/// Runs before instrumentMemoryAccesses, which checks the stores left.
void emulator::batchStores(llvm::Module &module, const llvm::Function &kernel) {
  llvm::LLVMContext &ctx = module.getContext();
  const llvm::DataLayout &dl = module.getDataLayout();
  auto *i8 = llvm::Type::getInt8Ty(ctx);
  auto *i32 = llvm::Type::getInt32Ty(ctx);
  auto *i64 = llvm::Type::getInt64Ty(ctx);
  auto *ptrTy = llvm::PointerType::get(ctx, 0);
  constexpr uint64_t kRecordBytes = sizeof(abi::StoreBatchRecord);
  struct Item {
    llvm::StoreInst *store;
    llvm::BranchInst *mask; // the masked store's branch, or null
    llvm::Value *enabled;   // its mask (the branch's condition), or null
  };
  struct Run {
    llvm::SmallVector<Item> items;
    llvm::Instruction *end = nullptr; // the batch goes before it
  };
  for (llvm::Function &fn : module) {
    if (fn.isDeclaration())
      continue;
    llvm::SmallVector<Run> runs;
    llvm::SmallPtrSet<llvm::BasicBlock *, 32> scanned;
    for (llvm::BasicBlock &start : fn) {
      if (scanned.contains(&start))
        continue;
      Run run;
      auto finish = [&](llvm::Instruction *end) {
        if (run.items.size() > 1) {
          run.end = end;
          runs.push_back(std::move(run));
        }
        run = Run();
      };
      // Follows straight-line code (blocks entered from their predecessor
      // only) and masked-store branches from `start`.
      llvm::BasicBlock *bb = &start;
      llvm::BasicBlock::iterator it = bb->begin();
      while (bb) {
        scanned.insert(bb);
        for (; !it->isTerminator(); ++it) {
          if (llvm::StoreInst *store = batchableStore(*it, dl)) {
            run.items.push_back({store, nullptr, nullptr});
            continue;
          }
          if (isSpeculatablePure(*it))
            continue;
          finish(&*it);
        }
        auto *br = llvm::dyn_cast<llvm::BranchInst>(bb->getTerminator());
        llvm::BasicBlock *next = nullptr;
        if (br && !br->isConditional()) {
          llvm::BasicBlock *succ = br->getSuccessor(0);
          if (succ != &fn.getEntryBlock() && succ->getSinglePredecessor() == bb &&
              !scanned.contains(succ))
            next = succ;
        } else if (br) {
          if (llvm::StoreInst *store = maskedStore(br, dl);
              store && !scanned.contains(br->getSuccessor(1))) {
            run.items.push_back({store, br, br->getCondition()});
            scanned.insert(br->getSuccessor(0));
            next = br->getSuccessor(1);
          }
        }
        if (!next) {
          finish(bb->getTerminator());
          break;
        }
        bb = next;
        it = bb->begin();
      }
    }
    if (runs.empty())
      continue;
    PointerProvenance provenance(kernel);
    size_t most = 0;
    for (const Run &run : runs)
      most = std::max(most, run.items.size());
    llvm::IRBuilder<> entry(&*fn.getEntryBlock().getFirstInsertionPt());
    llvm::AllocaInst *records = entry.CreateAlloca(
        llvm::ArrayType::get(i8, most * kRecordBytes), nullptr,
        "store.batch");
    records->setAlignment(llvm::Align(alignof(abi::StoreBatchRecord)));
    llvm::FunctionCallee batch = module.getOrInsertFunction(
        abi::kStoreBatch, llvm::Type::getVoidTy(ctx), i32, ptrTy, ptrTy);
    for (Run &run : runs) {
      // Static facts per store: bytes, alignment, check kind, space.
      llvm::SmallVector<llvm::Constant *> info;
      for (const Item &item : run.items) {
        llvm::StoreInst *store = item.store;
        bool shared = store->getPointerAddressSpace() == kSharedAddressSpace;
        int32_t kind = int32_t(abi::AccessKind::Store);
        if (!shared && provenance.mayBeLoaded(store->getPointerOperand()))
          kind |= abi::kLoadedPointerAccess;
        uint64_t bytes =
            dl.getTypeStoreSize(store->getValueOperand()->getType()).getFixedValue();
        for (uint64_t field : {bytes, uint64_t(store->getAlign().value()),
                               uint64_t(uint32_t(kind)), uint64_t(shared)})
          info.push_back(llvm::ConstantInt::get(i32, field));
      }
      auto *infoType = llvm::ArrayType::get(i32, info.size());
      auto *infoArray = new llvm::GlobalVariable(
          module, infoType, /*isConstant=*/true,
          llvm::GlobalValue::PrivateLinkage,
          llvm::ConstantArray::get(infoType, info), "store.batch.info");
      // The masked stores' blocks fold into the straight line (their pure
      // computation moves above the branch, the branch goes).
      for (const Item &item : run.items) {
        if (!item.mask)
          continue;
        llvm::BasicBlock *then = item.mask->getSuccessor(0),
                         *join = item.mask->getSuccessor(1);
        for (llvm::Instruction &inst :
             llvm::make_early_inc_range(llvm::make_range(
                 then->begin(), then->getTerminator()->getIterator())))
          if (&inst != item.store)
            inst.moveBefore(item.mask->getIterator());
        item.store->moveBefore(item.mask->getIterator());
        join->removePredecessor(then);
        llvm::BranchInst::Create(join, item.mask->getIterator());
        item.mask->eraseFromParent();
        then->eraseFromParent();
      }
      llvm::IRBuilder<> b(run.end);
      for (auto [i, item] : llvm::enumerate(run.items)) {
        llvm::StoreInst *store = item.store;
        auto field = [&](uint64_t offset) {
          return b.CreateConstInBoundsGEP1_64(i8, records,
                                              i * kRecordBytes + offset);
        };
        b.CreateAlignedStore(b.CreatePtrToInt(store->getPointerOperand(), i64),
                             field(offsetof(abi::StoreBatchRecord, address)),
                             llvm::Align(8));
        llvm::Value *enabled =
            item.enabled ? b.CreateZExt(item.enabled, i64) : b.getInt64(1);
        b.CreateAlignedStore(enabled, field(offsetof(abi::StoreBatchRecord, enabled)),
                             llvm::Align(8));
        b.CreateAlignedStore(store->getValueOperand(),
                             field(offsetof(abi::StoreBatchRecord, value)),
                             llvm::Align(1));
      }
      b.CreateCall(batch, {b.getInt32(run.items.size()), infoArray, records});
      for (const Item &item : run.items)
        item.store->eraseFromParent();
    }
  }
}

/// Replaces each run of warp shuffles in a basic block that do not depend on
/// one another, with nothing but pure computation between them, by one
/// kShuffleBatch call (kShuffleBatchUniform where all have the same kind,
/// offset and width): a shuffle costs every lane of the warp a fiber switch,
/// a batch costs one per lane for the whole run (Triton's scans and
/// reductions shuffle every register of a thread with the same offset one
/// after the other). The computation between the shuffles moves to either
/// side of the batch: what uses a shuffle's result after it, the rest
/// before. Each lane still sees every shuffle's exact result; only the
/// number of turns changes, and lanes that diverged before a batch are
/// reported by the runtime.
void emulator::batchWarpShuffles(llvm::Module &module) {
  llvm::Function *shuffle = module.getFunction(abi::kShuffle);
  if (!shuffle)
    return;
  llvm::LLVMContext &ctx = module.getContext();
  auto *i32 = llvm::Type::getInt32Ty(ctx);
  auto *i64 = llvm::Type::getInt64Ty(ctx);
  auto *ptr = llvm::PointerType::get(ctx, 0);
  llvm::FunctionCallee batch = module.getOrInsertFunction(
      abi::kShuffleBatch, llvm::Type::getVoidTy(ctx), i32, ptr, ptr);
  llvm::FunctionCallee uniformBatch =
      module.getOrInsertFunction(abi::kShuffleBatchUniform,
                                 llvm::Type::getVoidTy(ctx), i32, i32, i32, i32,
                                 ptr);
  auto isShuffle = [&](const llvm::Instruction &inst) {
    auto *call = llvm::dyn_cast<llvm::CallInst>(&inst);
    return call && call->getCalledFunction() == shuffle;
  };
  // Instructions that may move across a shuffle: no memory, no calls (but
  // intrinsics that touch nothing), no control flow.
  auto isPure = [](const llvm::Instruction &inst) {
    if (auto *call = llvm::dyn_cast<llvm::CallBase>(&inst)) {
      const llvm::Function *callee = call->getCalledFunction();
      if (!callee || !callee->isIntrinsic())
        return false;
    }
    return touchesNothing(inst);
  };
  for (llvm::Function &fn : module) {
    if (fn.isDeclaration())
      continue;
    llvm::SmallVector<std::pair<llvm::SmallVector<llvm::CallInst *>,
                                llvm::SmallVector<llvm::Instruction *>>>
        runs;
    for (llvm::BasicBlock &bb : fn) {
      llvm::SmallVector<llvm::CallInst *> run;
      // The instructions between the run's first and last shuffle that use a
      // shuffle's result of the run, directly or not.
      llvm::SmallVector<llvm::Instruction *> after;
      llvm::SmallPtrSet<const llvm::Value *, 32> tainted;
      auto finish = [&]() {
        if (run.size() > 1) {
          // Dependent computation after the last shuffle stays after it.
          while (!after.empty() && !after.back()->comesBefore(run.back()))
            after.pop_back();
          runs.emplace_back(run, after);
        }
        run.clear();
        after.clear();
        tainted.clear();
      };
      for (llvm::Instruction &inst : bb) {
        auto uses = [&]() {
          return llvm::any_of(inst.operands(), [&](const llvm::Use &u) {
            return tainted.contains(u.get());
          });
        };
        if (isShuffle(inst)) {
          if (uses())
            finish();
          run.push_back(llvm::cast<llvm::CallInst>(&inst));
          tainted.insert(&inst);
          continue;
        }
        if (run.empty())
          continue;
        if (!isPure(inst)) {
          finish();
          continue;
        }
        if (uses()) {
          tainted.insert(&inst);
          after.push_back(&inst);
        }
      }
      finish();
    }
    if (runs.empty())
      continue;
    // One pair of arrays serves every run of the function.
    size_t arraySize = 0;
    for (auto &[run, after] : runs)
      arraySize = std::max(arraySize, run.size());
    llvm::IRBuilder<> entry(&*fn.getEntryBlock().getFirstInsertionPt());
    llvm::AllocaInst *opsArray =
        entry.CreateAlloca(i32, entry.getInt32(3 * arraySize));
    llvm::AllocaInst *valuesArray =
        entry.CreateAlloca(i64, entry.getInt32(arraySize));
    for (auto &[run, after] : runs) {
      llvm::CallInst *first = run.front(), *last = run.back();
      llvm::Instruction *afterLast = last->getNextNode();
      // Independent computation between the shuffles moves above the first,
      // dependent one below the last.
      llvm::SmallPtrSet<llvm::Instruction *, 32> moveDown(after.begin(),
                                                          after.end());
      llvm::SmallPtrSet<llvm::Instruction *, 32> members(run.begin(), run.end());
      for (llvm::Instruction *inst = first->getNextNode(); inst != last;) {
        llvm::Instruction *next = inst->getNextNode();
        if (!members.contains(inst) && !moveDown.contains(inst))
          inst->moveBefore(first->getIterator());
        inst = next;
      }
      for (llvm::Instruction *inst : after)
        inst->moveBefore(afterLast->getIterator());
      llvm::IRBuilder<> b(first);
      // Operands: 0 kind, 1 value, 2 offset, 3 width.
      bool uniform = llvm::all_of(run, [&](llvm::CallInst *call) {
        return call->getArgOperand(0) == first->getArgOperand(0) &&
               call->getArgOperand(2) == first->getArgOperand(2) &&
               call->getArgOperand(3) == first->getArgOperand(3);
      });
      for (auto [i, call] : llvm::enumerate(run)) {
        if (!uniform) {
          b.CreateStore(call->getArgOperand(0),
                        b.CreateConstInBoundsGEP1_64(i32, opsArray, 3 * i));
          b.CreateStore(call->getArgOperand(2), b.CreateConstInBoundsGEP1_64(
                                                    i32, opsArray, 3 * i + 1));
          b.CreateStore(call->getArgOperand(3), b.CreateConstInBoundsGEP1_64(
                                                    i32, opsArray, 3 * i + 2));
        }
        b.CreateStore(call->getArgOperand(1),
                      b.CreateConstInBoundsGEP1_64(i64, valuesArray, i));
      }
      if (uniform)
        b.CreateCall(uniformBatch,
                     {b.getInt32(run.size()), first->getArgOperand(0),
                      first->getArgOperand(2), first->getArgOperand(3),
                      valuesArray});
      else
        b.CreateCall(batch, {b.getInt32(run.size()), opsArray, valuesArray});
      for (auto [i, call] : llvm::enumerate(run)) {
        llvm::Value *result = b.CreateLoad(
            i64, b.CreateConstInBoundsGEP1_64(i64, valuesArray, i));
        call->replaceAllUsesWith(result);
      }
      for (llvm::CallInst *call : run)
        call->eraseFromParent();
    }
  }
}
