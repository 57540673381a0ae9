//===- Instrumentation.cpp - Access checks and instruction counts ---------===//
//
// The instrumentation every emulated kernel gets before it is optimized: a
// runtime check before each global and shared load, store and atomic
// (inline against the thread's FastBounds where LockstepPlan finds that no
// switch to the other threads is due, with the pointers PointerProvenance
// cannot trace to a parameter marked for the live-tensor lookup), divisions
// that cannot trap, and, for benchmarks, an instruction counter per block.
//
//===----------------------------------------------------------------------===//

#include "emulator/Instrumentation.h"
#include "emulator/HostMath.h"

#include "target/EmulatorABI.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace mlir::triton_musa;
using namespace mlir::triton_musa::emulator;
namespace abi = mlir::triton_musa::emulator_abi;
using abi::kGlobalAddressSpace;
using abi::kSharedAddressSpace;

/// Whether values of `type` hold pointers (structs and vectors of them).
static bool holdsPointers(llvm::Type *type) {
  if (type->isPointerTy())
    return true;
  if (auto *vec = llvm::dyn_cast<llvm::VectorType>(type))
    return holdsPointers(vec->getElementType());
  if (auto *array = llvm::dyn_cast<llvm::ArrayType>(type))
    return holdsPointers(array->getElementType());
  if (auto *st = llvm::dyn_cast<llvm::StructType>(type))
    return llvm::any_of(st->elements(), holdsPointers);
  return false;
}

/// For `inttoptr(x)`: pushes the pointers whose ptrtoint the integer
/// arithmetic `x` offsets; false if it offsets none (the integer came
/// from memory, a parameter or a constant).
static bool integerBases(llvm::Value *x,
                         llvm::SmallVectorImpl<llvm::Value *> &work) {
  llvm::SmallPtrSet<llvm::Value *, 16> visited;
  llvm::SmallVector<llvm::Value *> ints = {x};
  bool based = false;
  while (!ints.empty()) {
    llvm::Value *v = ints.pop_back_val();
    if (!visited.insert(v).second)
      continue;
    auto *op = llvm::dyn_cast<llvm::Operator>(v);
    if (!op)
      continue;
    switch (op->getOpcode()) {
    case llvm::Instruction::PtrToInt:
      work.push_back(op->getOperand(0));
      based = true;
      break;
    case llvm::Instruction::Add:
    case llvm::Instruction::Sub:
    case llvm::Instruction::Or:
    case llvm::Instruction::And:
    case llvm::Instruction::Xor:
    case llvm::Instruction::ZExt:
    case llvm::Instruction::SExt:
    case llvm::Instruction::Trunc:
    case llvm::Instruction::Freeze:
    case llvm::Instruction::PHI:
    case llvm::Instruction::Select:
      for (llvm::Value *in : op->operands())
        if (in->getType()->isIntegerTy() &&
            in->getType()->getIntegerBitWidth() >= 32)
          ints.push_back(in);
      break;
    default:
      break;
    }
  }
  return based;
}

/// Pushes the values `v` (a pointer, or a struct or vector holding
/// pointers) is computed from; false if `v` itself may hold any address.
static bool operands(llvm::Value *v, llvm::SmallVectorImpl<llvm::Value *> &work,
                     const llvm::Function &kernel) {
  if (auto *arg = llvm::dyn_cast<llvm::Argument>(v))
    return arg->getType()->isPointerTy() && arg->getParent() == &kernel;
  if (llvm::isa<llvm::ConstantPointerNull, llvm::UndefValue,
                llvm::ConstantAggregateZero>(v))
    return true;
  if (auto *gep = llvm::dyn_cast<llvm::GEPOperator>(v)) {
    work.push_back(gep->getPointerOperand());
    return true;
  }
  if (auto *cast = llvm::dyn_cast<llvm::Operator>(v)) {
    unsigned op = cast->getOpcode();
    if (op == llvm::Instruction::BitCast ||
        op == llvm::Instruction::AddrSpaceCast ||
        op == llvm::Instruction::Freeze) {
      work.push_back(cast->getOperand(0));
      return true;
    }
    if (op == llvm::Instruction::IntToPtr)
      return integerBases(cast->getOperand(0), work);
  }
  if (auto *phi = llvm::dyn_cast<llvm::PHINode>(v)) {
    for (llvm::Value *in : phi->incoming_values())
      work.push_back(in);
    return true;
  }
  if (auto *select = llvm::dyn_cast<llvm::SelectInst>(v)) {
    work.push_back(select->getTrueValue());
    work.push_back(select->getFalseValue());
    return true;
  }
  if (llvm::isa<llvm::InsertValueInst, llvm::InsertElementInst,
                llvm::ShuffleVectorInst, llvm::ConstantAggregate>(v)) {
    for (llvm::Value *op : llvm::cast<llvm::User>(v)->operands())
      if (holdsPointers(op->getType()))
        work.push_back(op);
    return true;
  }
  if (auto *extract = llvm::dyn_cast<llvm::ExtractValueInst>(v)) {
    work.push_back(extract->getAggregateOperand());
    return true;
  }
  if (auto *extract = llvm::dyn_cast<llvm::ExtractElementInst>(v)) {
    work.push_back(extract->getVectorOperand());
    return true;
  }
  return false; // a load, a call, an integer parameter, ...
}

bool PointerProvenance::mayBeLoaded(llvm::Value *ptr) {
  auto known = cache.find(ptr);
  if (known != cache.end())
    return known->second;
  llvm::SmallPtrSet<llvm::Value *, 32> visited;
  llvm::SmallVector<llvm::Value *> work = {ptr};
  bool loaded = false;
  while (!work.empty() && !loaded) {
    llvm::Value *v = work.pop_back_val();
    if (!visited.insert(v).second)
      continue;
    auto it = cache.find(v);
    if (it != cache.end()) {
      loaded = it->second;
      continue;
    }
    loaded = !operands(v, work, kernel);
  }
  if (loaded) {
    cache[ptr] = true;
  } else {
    // Nothing reachable from `ptr` may be loaded: true of every value seen.
    for (llvm::Value *v : visited)
      cache[v] = false;
  }
  return loaded;
}

namespace {

/// Which memory accesses of a function need the runtime to switch fibers
/// first (see the top of RuntimeState.h). The runtime switches at such an
/// access so that every thread's earlier accesses happen before any
/// thread's next one. Between two loads nothing can tell the orders apart
/// (a load observes only stores), so a load needs the switch only where a
/// store or another effect on memory may have happened since the last one:
/// the plan walks each function's control flow with the state "clean" (since
/// the last switch or block barrier, this thread only loaded) or "dirty" (it
/// stored, or called something that may write memory), dirty winning where
/// paths meet. A load switches when the state is dirty; a store or atomic
/// always switches (another thread's earlier load of the same statement
/// must come first) and leaves the state dirty. Converged threads then
/// take turns at the same statements as with a switch at every access, and
/// every result a kernel can observe is the same.
class LockstepPlan {
public:
  enum class Effect { None, Load, Store, BlockBarrier, Switch, Unknown };

  /// What `inst` does to the other threads' view of memory.
  static Effect classify(const llvm::Instruction &inst) {
    auto space = [](const llvm::Value *ptr) {
      unsigned as = ptr->getType()->getPointerAddressSpace();
      return as == kGlobalAddressSpace || as == kSharedAddressSpace;
    };
    if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst))
      return space(load->getPointerOperand()) ? Effect::Load : Effect::None;
    if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst))
      return space(store->getPointerOperand()) ? Effect::Store : Effect::None;
    if (auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&inst))
      return space(rmw->getPointerOperand()) ? Effect::Store : Effect::None;
    if (auto *cas = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&inst))
      return space(cas->getPointerOperand()) ? Effect::Store : Effect::None;
    auto *call = llvm::dyn_cast<llvm::CallBase>(&inst);
    if (!call)
      return Effect::None;
    const llvm::Function *callee = call->getCalledFunction();
    if (!callee)
      return Effect::Unknown;
    llvm::StringRef name = callee->getName();
    if (name == abi::kBarrier || name == abi::kSharedBarrier)
      return Effect::BlockBarrier;
    // The batch ends with the thread's turn and every pending store done.
    if (name == abi::kStoreBatch)
      return Effect::Switch;
    // Ids and warp collectives touch no memory another thread can see.
    if (name == abi::kThreadId || name == abi::kBlockId ||
        name == abi::kNumBlocks || name == abi::kSharedBase ||
        name == abi::kShuffle || name == abi::kBallot ||
        name == abi::kWarpSync || name == abi::kSQMMADesc ||
        name == abi::kCount)
      return Effect::None;
    if (name.starts_with("__musa_emu_"))
      return Effect::Unknown; // TME, async copies and barriers, MMA, printf
    if (callee->isIntrinsic())
      return call->mayWriteToMemory() ? Effect::Unknown : Effect::None;
    if (callee->isDeclaration() && hostPureFunctions().contains(name))
      return Effect::None;
    return call->onlyReadsMemory() ? Effect::None : Effect::Unknown;
  }

  /// Plans `fn`: the kernel starts clean (all threads start together);
  /// any other function starts dirty, as its callers are unknown here.
  LockstepPlan(const llvm::Function &fn, bool isKernel) {
    if (fn.isDeclaration())
      return;
    llvm::DenseMap<const llvm::BasicBlock *, bool> dirtyIn;
    llvm::SmallVector<const llvm::BasicBlock *> work;
    dirtyIn[&fn.getEntryBlock()] = !isKernel;
    work.push_back(&fn.getEntryBlock());
    while (!work.empty()) {
      const llvm::BasicBlock *bb = work.pop_back_val();
      bool dirty = transfer(*bb, dirtyIn[bb], /*record=*/false);
      for (const llvm::BasicBlock *succ : llvm::successors(bb)) {
        auto [it, inserted] = dirtyIn.try_emplace(succ, dirty);
        if (inserted || (dirty && !it->second)) {
          it->second = it->second || dirty;
          work.push_back(succ);
        }
      }
    }
    for (const llvm::BasicBlock &bb : fn)
      if (auto it = dirtyIn.find(&bb); it != dirtyIn.end())
        transfer(bb, it->second, /*record=*/true);
  }

  /// Whether the access `inst` (a global or shared load, store or atomic)
  /// must wait for the other threads' turns.
  bool needsSwitch(const llvm::Instruction *inst) const {
    return !unswitched.contains(inst);
  }

private:
  /// The state after `bb` entered with `dirty`; with `record`, notes the
  /// accesses that need no switch.
  bool transfer(const llvm::BasicBlock &bb, bool dirty, bool record) {
    for (const llvm::Instruction &inst : bb) {
      switch (classify(inst)) {
      case Effect::None:
        break;
      case Effect::Load:
        if (!dirty && record)
          unswitched.insert(&inst);
        dirty = false;
        break;
      case Effect::Store:
      case Effect::Unknown:
        dirty = true;
        break;
      case Effect::BlockBarrier:
      case Effect::Switch:
        dirty = false;
        break;
      }
    }
    return dirty;
  }

  /// The declarations the JIT binds to host code that touches no kernel
  /// memory (libdevice math, half and bfloat conversions).
  static const llvm::StringSet<> &hostPureFunctions() {
    static const llvm::StringSet<> names = [] {
      llvm::StringSet<> set;
      for (auto [name, address] : hostMathSymbols())
        set.insert(name);
      for (auto [name, address] : hostHelperSymbols())
        set.insert(name);
      return set;
    }();
    return names;
  }

  llvm::SmallPtrSet<const llvm::Instruction *, 32> unswitched;
};

} // namespace

/// A check call before every global and shared load, store and atomic.
void emulator::instrumentMemoryAccesses(llvm::Module &module,
                              const llvm::Function &kernel) {
  llvm::LLVMContext &ctx = module.getContext();
  const llvm::DataLayout &dl = module.getDataLayout();
  auto *i64 = llvm::Type::getInt64Ty(ctx);
  auto *i32 = llvm::Type::getInt32Ty(ctx);
  llvm::FunctionCallee checkGlobal = module.getOrInsertFunction(
      abi::kCheckGlobal, llvm::Type::getVoidTy(ctx),
      llvm::PointerType::get(ctx, kGlobalAddressSpace), i64, i64, i32);
  llvm::FunctionCallee checkShared = module.getOrInsertFunction(
      abi::kCheckShared, llvm::Type::getVoidTy(ctx),
      llvm::PointerType::get(ctx, kSharedAddressSpace), i64, i64, i32);
  llvm::FunctionCallee checkGlobalNoSwitch = module.getOrInsertFunction(
      abi::kCheckGlobalNoSwitch, checkGlobal.getFunctionType());
  llvm::FunctionCallee checkSharedNoSwitch = module.getOrInsertFunction(
      abi::kCheckSharedNoSwitch, checkShared.getFunctionType());
  // Asynchronous copies whose source may be a loaded pointer are renamed.
  llvm::SmallDenseMap<const llvm::Function *, llvm::FunctionCallee, 2>
      asyncCopyFromLoaded;
  for (auto [name, loadedName] :
       {std::pair(abi::kAsyncCopy.data(), abi::kAsyncCopyFromLoadedPointer),
        std::pair(abi::kAsyncCopyOrZero.data(),
                  abi::kAsyncCopyOrZeroFromLoadedPointer)})
    if (llvm::Function *copy = module.getFunction(name))
      asyncCopyFromLoaded[copy] =
          module.getOrInsertFunction(loadedName, copy->getFunctionType());
  llvm::FunctionCallee fastBounds = module.getOrInsertFunction(
      abi::kFastBounds, llvm::PointerType::get(ctx, 0));
  struct Access {
    llvm::Instruction *inst;
    llvm::Value *ptr;
    uint64_t bytes, align;
    int32_t kindBits;
    bool global, switches;
  };
  for (llvm::Function &fn : module) {
    PointerProvenance provenance(kernel);
    LockstepPlan plan(fn, &fn == &kernel);
    llvm::SmallVector<Access> accesses;
    for (llvm::BasicBlock &bb : fn) {
      for (llvm::Instruction &inst : bb) {
        if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst)) {
          // The source of an asynchronous copy is checked by the runtime.
          auto renamed = asyncCopyFromLoaded.find(call->getCalledFunction());
          if (renamed != asyncCopyFromLoaded.end() &&
              provenance.mayBeLoaded(call->getArgOperand(1)))
            call->setCalledFunction(renamed->second);
          continue;
        }
        llvm::Value *ptr = nullptr;
        llvm::Type *accessType = nullptr;
        llvm::Align align(1);
        abi::AccessKind kind = abi::AccessKind::Load;
        if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst)) {
          ptr = load->getPointerOperand();
          accessType = load->getType();
          align = load->getAlign();
        } else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst)) {
          ptr = store->getPointerOperand();
          accessType = store->getValueOperand()->getType();
          align = store->getAlign();
          kind = abi::AccessKind::Store;
        } else if (auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&inst)) {
          ptr = rmw->getPointerOperand();
          accessType = rmw->getValOperand()->getType();
          align = rmw->getAlign();
          kind = abi::AccessKind::Atomic;
        } else if (auto *cas = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&inst)) {
          ptr = cas->getPointerOperand();
          accessType = cas->getCompareOperand()->getType();
          align = cas->getAlign();
          kind = abi::AccessKind::Atomic;
        }
        if (!ptr)
          continue;
        unsigned addressSpace = ptr->getType()->getPointerAddressSpace();
        if (addressSpace != kGlobalAddressSpace &&
            addressSpace != kSharedAddressSpace)
          continue;
        bool global = addressSpace == kGlobalAddressSpace;
        int32_t kindBits = int32_t(kind);
        if (global && provenance.mayBeLoaded(ptr))
          kindBits |= abi::kLoadedPointerAccess;
        accesses.push_back(
            {&inst, ptr, dl.getTypeStoreSize(accessType).getFixedValue(),
             align.value(), kindBits, global, plan.needsSwitch(&inst)});
      }
    }
    // The checks that switch call the runtime. Those that do not first test
    // the access against the thread's FastBounds inline and call the check
    // only outside them, where it reports errors, margins and live buffers
    // (or finds the next buffer).
    llvm::Value *bounds = nullptr;
    for (const Access &access : accesses) {
      llvm::Value *args[] = {access.ptr,
                             llvm::ConstantInt::get(i64, access.bytes),
                             llvm::ConstantInt::get(i64, access.align),
                             llvm::ConstantInt::get(i32, access.kindBits)};
      if (access.switches) {
        llvm::IRBuilder<> b(access.inst);
        b.CreateCall(access.global ? checkGlobal : checkShared, args);
        continue;
      }
      if (!bounds) {
        llvm::IRBuilder<> entry(&*fn.getEntryBlock().getFirstInsertionPt());
        bounds = entry.CreateCall(fastBounds);
      }
      llvm::IRBuilder<> b(access.inst);
      unsigned field = access.global ? 0 : 2; // FastBounds' lo, then hi
      llvm::Value *lo = b.CreateLoad(
          i64, b.CreateConstInBoundsGEP1_64(i64, bounds, field));
      llvm::Value *hi = b.CreateLoad(
          i64, b.CreateConstInBoundsGEP1_64(i64, bounds, field + 1));
      llvm::Value *addr = b.CreatePtrToInt(access.ptr, i64);
      llvm::Value *inside = b.CreateAnd(
          b.CreateICmpUGE(addr, lo),
          b.CreateICmpULE(b.CreateAdd(addr, args[1]), hi));
      if (access.align > 1)
        inside = b.CreateAnd(
            inside,
            b.CreateICmpEQ(b.CreateAnd(addr, access.align - 1), b.getInt64(0)));
      llvm::Instruction *slow = llvm::SplitBlockAndInsertIfThen(
          b.CreateNot(inside), access.inst, /*Unreachable=*/false,
          llvm::MDBuilder(ctx).createBranchWeights(1, 1 << 20));
      llvm::IRBuilder<>(slow).CreateCall(
          access.global ? checkGlobalNoSwitch : checkSharedNoSwitch, args);
    }
  }
}

/// Integer division by zero (and INT_MIN / -1) traps on x86 but not on a
/// GPU, where masked-off lanes routinely divide by the `other` value 0: such
/// divisions divide by 1 instead (the result is undefined either way).
void emulator::guardIntegerDivisions(llvm::Module &module) {
  for (llvm::Function &fn : module) {
    for (llvm::BasicBlock &bb : fn) {
      for (llvm::Instruction &inst : llvm::make_early_inc_range(bb)) {
        auto *div = llvm::dyn_cast<llvm::BinaryOperator>(&inst);
        if (!div)
          continue;
        unsigned op = div->getOpcode();
        bool isSigned =
            op == llvm::Instruction::SDiv || op == llvm::Instruction::SRem;
        if (!isSigned && op != llvm::Instruction::UDiv &&
            op != llvm::Instruction::URem)
          continue;
        llvm::Value *lhs = div->getOperand(0), *rhs = div->getOperand(1);
        if (auto *c = llvm::dyn_cast<llvm::ConstantInt>(rhs))
          if (!c->isZero() && !(isSigned && c->isMinusOne()))
            continue;
        llvm::Type *type = rhs->getType();
        llvm::IRBuilder<> b(div);
        llvm::Value *bad =
            b.CreateICmpEQ(rhs, llvm::Constant::getNullValue(type));
        if (isSigned) {
          unsigned bits = type->getScalarSizeInBits();
          llvm::Value *overflow = b.CreateAnd(
              b.CreateICmpEQ(lhs,
                             llvm::ConstantInt::get(
                                 type, llvm::APInt::getSignedMinValue(bits))),
              b.CreateICmpEQ(rhs, llvm::Constant::getAllOnesValue(type)));
          bad = b.CreateOr(bad, overflow);
        }
        div->setOperand(
            1, b.CreateSelect(bad, llvm::ConstantInt::get(type, 1), rhs));
      }
    }
  }
}

/// A call adding each basic block's instruction count (runtime calls
/// excluded) to the executed total, at the block's start.
void emulator::instrumentInstructionCount(llvm::Module &module) {
  llvm::LLVMContext &ctx = module.getContext();
  auto *i64 = llvm::Type::getInt64Ty(ctx);
  llvm::FunctionCallee count = module.getOrInsertFunction(
      abi::kCount, llvm::Type::getVoidTy(ctx), i64);
  for (llvm::Function &fn : module) {
    if (fn.isDeclaration() || fn.getName() == abi::kEntry)
      continue;
    for (llvm::BasicBlock &bb : fn) {
      uint64_t n = 0;
      for (llvm::Instruction &inst : bb) {
        if (llvm::isa<llvm::PHINode, llvm::DbgInfoIntrinsic>(inst))
          continue;
        if (auto *call = llvm::dyn_cast<llvm::CallBase>(&inst))
          if (llvm::Function *callee = call->getCalledFunction())
            if (callee->getName() == abi::kCheckGlobal ||
                callee->getName() == abi::kCheckShared ||
                callee->getName() == abi::kCheckGlobalNoSwitch ||
                callee->getName() == abi::kCheckSharedNoSwitch)
              continue;
        ++n;
      }
      llvm::IRBuilder<> b(&*bb.getFirstInsertionPt());
      b.CreateCall(count, {llvm::ConstantInt::get(i64, n)});
    }
  }
}
