//===- Emulator.cpp - LLVM dialect -> host JIT for the CPU emulator -------===//

#include "emulator/Emulator.h"
#include "emulator/HostMath.h"

#include "conversion/LLVMIRExport/LLVMIRExport.h"
#include "registration/InitAll.h"
#include "target/EmulatorABI.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <cstring>
#include <mutex>

using namespace mlir;
using namespace mlir::triton_musa;
using namespace mlir::triton_musa::emulator;

namespace {

namespace abi = mlir::triton_musa::emulator_abi;
using abi::kGlobalAddressSpace;
using abi::kSharedAddressSpace;

//===----------------------------------------------------------------------===//
// Host helpers the generated code may call (half/bfloat conversions that
// x86 lowers to libcalls), so that no particular libgcc is needed.
//===----------------------------------------------------------------------===//

#if defined(__x86_64__) && (defined(__FLT16_MAX__) || defined(__clang__))
#define TRITON_MUSA_EMU_HALF 1
uint16_t floatToBFloatBits(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u)
    return uint16_t((u >> 16) | 0x40); // quiet NaN
  u += 0x7fffu + ((u >> 16) & 1);      // round to nearest even
  return uint16_t(u >> 16);
}
_Float16 bitsAsHalf(uint16_t bits) {
  _Float16 h;
  std::memcpy(&h, &bits, 2);
  return h;
}
extern "C" {
// bfloat travels in the same register as half on x86-64.
static _Float16 emuTruncSFBF2(float x) {
  return bitsAsHalf(floatToBFloatBits(x));
}
static _Float16 emuTruncDFBF2(double x) {
  // Through float: exact enough except for double-rounding ties.
  return bitsAsHalf(floatToBFloatBits(float(x)));
}
static float emuExtendHFSF2(_Float16 h) { return float(h); }
static double emuExtendHFDF2(_Float16 h) { return double(h); }
static _Float16 emuTruncSFHF2(float x) { return _Float16(x); }
static _Float16 emuTruncDFHF2(double x) { return _Float16(x); }
}
#endif

std::vector<std::pair<const char *, void *>> hostHelperSymbols() {
  std::vector<std::pair<const char *, void *>> symbols;
#ifdef TRITON_MUSA_EMU_HALF
  symbols = {
      {"__truncsfbf2", reinterpret_cast<void *>(&emuTruncSFBF2)},
      {"__truncdfbf2", reinterpret_cast<void *>(&emuTruncDFBF2)},
      {"__extendhfsf2", reinterpret_cast<void *>(&emuExtendHFSF2)},
      {"__extendhfdf2", reinterpret_cast<void *>(&emuExtendHFDF2)},
      {"__truncsfhf2", reinterpret_cast<void *>(&emuTruncSFHF2)},
      {"__truncdfhf2", reinterpret_cast<void *>(&emuTruncDFHF2)},
  };
#endif
  return symbols;
}

/// Host code generation settings for instrumented kernels, which have
/// thousands of blocks (access checks, masked copies) and long runs of
/// address arithmetic. LLVM exposes these only as command-line options; this
/// library's LLVM generates host code only for the emulator. Measured on
/// Liger's fused MoE up-projection (16k lines of host IR, on an AMD EPYC host)
/// the JIT took 5.3 s with the first alone, 2.4 s with all, and no
/// bench/emulator.py kernel runs slower:
///  - no region splitting in the greedy register allocator (it grows a live
///    range's split region block by block within a complexity budget): half
///    of the code generation of a 25k-instruction grouped-GEMM kernel;
///  - no CodeGenPrepare promotion of extensions into loads (it tries every
///    extension of an address chain and undoes most of them);
///  - no machine instruction scheduling, before or after register allocation
///    (quadratic in a block's memory accesses; the host CPUs reorder out of
///    order anyway; on AMD hosts the post-RA scheduler alone was a quarter of
///    the code generation).
void tuneHostCodeGeneration() {
  llvm::DenseMap<llvm::StringRef, llvm::cl::Option *> &options =
      llvm::cl::getRegisteredOptions();
  for (auto [name, value] :
       {std::pair("grow-region-complexity-budget", "0"),
        std::pair("disable-cgp-ext-ld-promotion", "true"),
        std::pair("enable-misched", "false"),
        std::pair("post-RA-scheduler", "false")}) {
    auto it = options.find(name);
    // Position 1, as if given on a command line: some passes honour an
    // option only where it was (getPosition() > 0).
    if (it != options.end())
      it->second->addOccurrence(1, it->first, value);
  }
}

void initializeHostTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
    tuneHostCodeGeneration();
  });
}

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::string paramKind(llvm::Type *type) {
  if (type->isPointerTy())
    return "ptr";
  if (type->isIntegerTy())
    return "i" + std::to_string(type->getIntegerBitWidth());
  if (type->isHalfTy())
    return "f16";
  if (type->isBFloatTy())
    return "bf16";
  if (type->isFloatTy())
    return "f32";
  if (type->isDoubleTy())
    return "f64";
  return "";
}

/// Which global pointers may not derive from a kernel parameter: the
/// accesses the runtime may accept inside a live tensor that is not an
/// argument (see kLoadedPointerAccess). A pointer derives from a parameter
/// when every value it is computed from, back through address arithmetic
/// (a GEP's base, an inttoptr of integer arithmetic over a ptrtoint), casts,
/// phis, selects and the structs and vectors the lowering packs pointers
/// in, is a pointer parameter of the kernel or null. Anything else it
/// reaches (a loaded pointer or integer, an integer parameter, a parameter
/// of a function the kernel calls, a call) may hold any address.
class PointerProvenance {
public:
  explicit PointerProvenance(const llvm::Function &kernel) : kernel(kernel) {}

  bool mayBeLoaded(llvm::Value *ptr) {
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

private:
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

  const llvm::Function &kernel;
  llvm::DenseMap<llvm::Value *, bool> cache;
};

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

/// A check call before every global and shared load, store and atomic.
void instrumentMemoryAccesses(llvm::Module &module,
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
void batchStores(llvm::Module &module, const llvm::Function &kernel) {
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
void batchWarpShuffles(llvm::Module &module) {
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

/// Integer division by zero (and INT_MIN / -1) traps on x86 but not on a
/// GPU, where masked-off lanes routinely divide by the `other` value 0: such
/// divisions divide by 1 instead (the result is undefined either way).
void guardIntegerDivisions(llvm::Module &module) {
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
void instrumentInstructionCount(llvm::Module &module) {
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

/// `void __musa_emu_entry(const i64 *slots)` calling `kernel` with parameter
/// i read from slot i.
void addEntryTrampoline(llvm::Module &module, llvm::Function &kernel) {
  llvm::LLVMContext &ctx = module.getContext();
  auto *ptrTy = llvm::PointerType::get(ctx, 0);
  auto *fnTy =
      llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptrTy}, false);
  auto *entry = llvm::Function::Create(fnTy, llvm::Function::ExternalLinkage,
                                       abi::kEntry, module);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", entry));
  llvm::Value *slots = entry->getArg(0);
  llvm::SmallVector<llvm::Value *> args;
  for (llvm::Argument &param : kernel.args()) {
    llvm::Value *slot = b.CreateConstInBoundsGEP1_64(
        b.getInt8Ty(), slots, 8 * param.getArgNo());
    args.push_back(b.CreateAlignedLoad(param.getType(), slot, llvm::Align(1)));
  }
  // Not inlined: the instruction counter skips the trampoline's own code.
  b.CreateCall(&kernel, args)->setIsNoInline();
  b.CreateRetVoid();
}

void optimize(llvm::Module &module, llvm::TargetMachine &tm, unsigned level) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(&tm);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::OptimizationLevel opt = level == 0   ? llvm::OptimizationLevel::O0
                                : level == 1 ? llvm::OptimizationLevel::O1
                                : level == 2 ? llvm::OptimizationLevel::O2
                                             : llvm::OptimizationLevel::O3;
  llvm::ModulePassManager mpm =
      level == 0 ? pb.buildO0DefaultPipeline(opt)
                 : pb.buildPerModuleDefaultPipeline(opt);
  mpm.run(module, mam);
}

} // namespace

EmulatedKernel::~EmulatedKernel() = default;

llvm::Expected<std::unique_ptr<EmulatedKernel>>
EmulatedKernel::load(const std::string &llvmDialectText,
                     const LoadOptions &options) {
  initializeHostTarget();
  std::unique_ptr<EmulatedKernel> kernel(new EmulatedKernel());

  // Parse the LLVM-dialect module, collecting diagnostics for the error.
  DialectRegistry registry;
  registerAllDialects(registry);
  registerLLVMIRExportTranslations(registry);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  std::string diagnostics;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    diagnostics += "\n" + diag.str();
    return success();
  });
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(llvmDialectText, ParserConfig(&context));
  if (!module)
    return makeError("emulator: cannot parse the kernel module:" +
                     diagnostics);

  auto intAttr = [&](StringRef name) -> uint64_t {
    if (auto attr = (*module)->getAttrOfType<IntegerAttr>(name))
      return attr.getValue().getZExtValue();
    return 0;
  };
  kernel->numWarps = unsigned(intAttr("ttg.num-warps"));
  kernel->warpSize = unsigned(intAttr("ttg.threads-per-warp"));
  kernel->sharedBytes = intAttr("ttg.shared");

  SmallVector<LLVM::LLVMFuncOp> kernels;
  module->walk([&](LLVM::LLVMFuncOp fn) {
    if (fn->hasAttr(kKernelAttrName))
      kernels.push_back(fn);
  });
  if (kernels.size() != 1)
    return makeError("emulator: expected one kernel (an llvm.func marked '" +
                     kKernelAttrName + "') in the module, found " +
                     llvm::Twine(kernels.size()));
  kernel->name = kernels.front().getName().str();
  if (kernel->numWarps == 0 || kernel->warpSize == 0)
    return makeError("emulator: kernel '" + kernel->name +
                     "' lacks the module attributes \"ttg.num-warps\" and "
                     "\"ttg.threads-per-warp\"");

  // Translate for the host.
  auto llvmContext = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*module, *llvmContext, kernel->name);
  if (!llvmModule)
    return makeError("emulator: cannot translate kernel '" + kernel->name +
                     "' to LLVM IR:" + diagnostics);

  auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!jtmb)
    return jtmb.takeError();
  jtmb->setCodeGenOptLevel(options.fastCodeGeneration
                               ? llvm::CodeGenOptLevel::None
                               : llvm::CodeGenOptLevel::Default);
  // The vector f32 -> bf16 conversions of these extensions flush subnormals
  // to zero whatever MXCSR says: the scalar conversion (a libcall, see
  // hostHelperSymbols) rounds them like a GPU.
  for (const char *feature : {"-avx512bf16", "-avxneconvert"})
    jtmb->getFeatures().AddFeature(feature);
  auto tm = jtmb->createTargetMachine();
  if (!tm)
    return tm.takeError();
  llvmModule->setDataLayout((*tm)->createDataLayout());
  llvmModule->setTargetTriple((*tm)->getTargetTriple());

  llvm::Function *kernelFn = llvmModule->getFunction(kernel->name);
  if (!kernelFn)
    return makeError("emulator: kernel '" + kernel->name +
                     "' vanished in the translation");
  for (llvm::Argument &param : kernelFn->args()) {
    std::string kind = paramKind(param.getType());
    if (kind.empty()) {
      std::string typeText;
      llvm::raw_string_ostream os(typeText);
      param.getType()->print(os);
      return makeError("emulator: kernel '" + kernel->name + "' parameter " +
                       llvm::Twine(param.getArgNo()) + " has type " +
                       typeText + ", which the launcher cannot pass");
    }
    kernel->params.push_back(kind);
  }

  batchStores(*llvmModule, *kernelFn);
  instrumentMemoryAccesses(*llvmModule, *kernelFn);
  guardIntegerDivisions(*llvmModule);
  addEntryTrampoline(*llvmModule, *kernelFn);
  {
    std::string problems;
    llvm::raw_string_ostream os(problems);
    if (llvm::verifyModule(*llvmModule, &os))
      return makeError("emulator: the host module of '" + kernel->name +
                       "' is invalid: " + problems);
  }
  optimize(*llvmModule, **tm, options.optLevel);
  batchWarpShuffles(*llvmModule);
  if (options.countInstructions)
    instrumentInstructionCount(*llvmModule);
  {
    llvm::raw_string_ostream os(kernel->hostIR);
    llvmModule->print(os, nullptr);
  }
  {
    llvm::raw_string_ostream os(kernel->objectCode);
    llvm::buffer_ostream object(os);
    llvm::legacy::PassManager codegen;
    if ((*tm)->addPassesToEmitFile(codegen, object, nullptr,
                                   llvm::CodeGenFileType::ObjectFile))
      return makeError("emulator: the host target cannot emit object files");
    codegen.run(*llvmModule);
  }
  if (llvm::Error err = kernel->link())
    return std::move(err);
  return kernel;
}

llvm::Error EmulatedKernel::link() {
  initializeHostTarget();
  auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!jtmb)
    return jtmb.takeError();
  // JIT: runtime functions resolve to the runtime, the rest to the process.
  auto built = llvm::orc::LLJITBuilder()
                   .setJITTargetMachineBuilder(std::move(*jtmb))
                   .create();
  if (!built)
    return built.takeError();
  std::unique_ptr<llvm::orc::LLJIT> lljit = std::move(*built);
  llvm::orc::JITDylib &dylib = lljit->getMainJITDylib();
  auto processSymbols =
      llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
          lljit->getDataLayout().getGlobalPrefix());
  if (!processSymbols)
    return processSymbols.takeError();
  dylib.addGenerator(std::move(*processSymbols));
  llvm::orc::SymbolMap symbols;
  auto define = [&](const char *symbol, void *address) {
    symbols[lljit->mangleAndIntern(symbol)] = {
        llvm::orc::ExecutorAddr::fromPtr(address),
        llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable};
  };
  for (auto [symbol, address] : runtimeSymbols())
    define(symbol, address);
  for (auto [symbol, address] : hostHelperSymbols())
    define(symbol, address);
  for (auto [symbol, address] : hostMathSymbols())
    define(symbol, address);
  if (llvm::Error err =
          dylib.define(llvm::orc::absoluteSymbols(std::move(symbols))))
    return err;
  if (llvm::Error err = lljit->addObjectFile(llvm::MemoryBuffer::getMemBufferCopy(
          objectCode, name + ".o")))
    return err;
  auto found = lljit->lookup(abi::kEntry);
  if (!found)
    return makeError("emulator: cannot JIT-compile kernel '" + name +
                     "': " + llvm::toString(found.takeError()));
  entry = found->toPtr<EntryFn>();
  jit = std::move(lljit);
  return llvm::Error::success();
}

std::string EmulatedKernel::getHostTarget() {
  initializeHostTarget();
  std::string host = llvm::sys::getProcessTriple() + " " +
                     llvm::sys::getHostCPUName().str();
  std::vector<std::string> features;
  for (const auto &[feature, enabled] : llvm::sys::getHostCPUFeatures())
    if (enabled)
      features.push_back(feature.str());
  llvm::sort(features);
  for (const std::string &feature : features)
    host += " +" + feature;
  return host;
}

// The cache image: a header line, then one field per line (the name, the
// launch numbers, the parameter kinds), then the host IR's and the object
// file's sizes and bytes.
static constexpr llvm::StringLiteral kCacheImageMagic = "triton-musa emulator image 1";

std::string EmulatedKernel::getCacheImage() const {
  std::string image;
  llvm::raw_string_ostream os(image);
  os << kCacheImageMagic << "\n" << name << "\n"
     << numWarps << " " << warpSize << " " << sharedBytes << "\n"
     << llvm::join(params, ",") << "\n"
     << hostIR.size() << " " << objectCode.size() << "\n"
     << hostIR << objectCode;
  return image;
}

llvm::Expected<std::unique_ptr<EmulatedKernel>>
EmulatedKernel::loadCached(llvm::StringRef image) {
  auto bad = [](const llvm::Twine &why) {
    return makeError("emulator: not a kernel cache image (" + why + ")");
  };
  auto line = [&]() {
    auto [head, rest] = image.split('\n');
    image = rest;
    return head;
  };
  if (line() != kCacheImageMagic)
    return bad("no header");
  std::unique_ptr<EmulatedKernel> kernel(new EmulatedKernel());
  kernel->name = line().str();
  llvm::SmallVector<llvm::StringRef> numbers, kinds;
  line().split(numbers, ' ');
  uint64_t irBytes = 0, objectBytes = 0;
  if (numbers.size() != 3 || numbers[0].getAsInteger(10, kernel->numWarps) ||
      numbers[1].getAsInteger(10, kernel->warpSize) ||
      numbers[2].getAsInteger(10, kernel->sharedBytes))
    return bad("launch numbers");
  llvm::StringRef kindLine = line();
  if (!kindLine.empty())
    kindLine.split(kinds, ',');
  for (llvm::StringRef kind : kinds)
    kernel->params.push_back(kind.str());
  llvm::SmallVector<llvm::StringRef> sizes;
  line().split(sizes, ' ');
  if (sizes.size() != 2 || sizes[0].getAsInteger(10, irBytes) ||
      sizes[1].getAsInteger(10, objectBytes) ||
      image.size() != irBytes + objectBytes)
    return bad("sizes");
  kernel->hostIR = image.take_front(irBytes).str();
  kernel->objectCode = image.drop_front(irBytes).str();
  if (llvm::Error err = kernel->link())
    return std::move(err);
  return kernel;
}

llvm::Expected<LaunchStats>
EmulatedKernel::launch(const std::vector<uint64_t> &slots,
                       LaunchConfig config) const {
  if (slots.size() != params.size())
    return makeError("kernel '" + name + "' takes " +
                     llvm::Twine(params.size()) + " parameters, got " +
                     llvm::Twine(slots.size()));
  config.kernelName = name;
  if (config.numThreads == 0)
    config.numThreads = numWarps * warpSize;
  if (config.warpSize == 0)
    config.warpSize = warpSize;
  config.sharedBytes = std::max(config.sharedBytes, sharedBytes);
  return emulator::launch(entry, slots, config);
}
