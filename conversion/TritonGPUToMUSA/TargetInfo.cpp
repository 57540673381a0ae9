//===- TargetInfo.cpp - MUSA implementations of the target interface -----===//
//
// mp_31 and mp_22 share the `llvm.musa.*` vocabulary (MUSA-FACTS.md); they
// differ in warp size, shared-memory size and ballot width.
//
//===----------------------------------------------------------------------===//

#include "conversion/TritonGPUToMUSA/TargetInfo.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::triton_musa;

TargetInfo::~TargetInfo() = default;

static Value i32Const(OpBuilder &b, Location loc, int64_t v) {
  return LLVM::ConstantOp::create(b, loc, b.getI32Type(),
                                  b.getI32IntegerAttr(v));
}

Value TargetInfo::shuffleXor(OpBuilder &b, Location loc, Value value, int mask,
                             unsigned width) const {
  return shuffle(b, loc, ShuffleKind::Xor, value, i32Const(b, loc, mask),
                 width);
}
Value TargetInfo::shuffleUp(OpBuilder &b, Location loc, Value value, int delta,
                            unsigned width) const {
  return shuffle(b, loc, ShuffleKind::Up, value, i32Const(b, loc, delta),
                 width);
}
Value TargetInfo::shuffleDown(OpBuilder &b, Location loc, Value value,
                              int delta, unsigned width) const {
  return shuffle(b, loc, ShuffleKind::Down, value, i32Const(b, loc, delta),
                 width);
}
Value TargetInfo::shuffleIdx(OpBuilder &b, Location loc, Value value,
                             Value lane, unsigned width) const {
  return shuffle(b, loc, ShuffleKind::Idx, value, lane, width);
}

LogicalResult TargetInfo::printf(OpBuilder &b, Location loc, StringRef format,
                                 ValueRange args) const {
  return emitError(loc) << "target " << getArchName()
                        << " has no device-side printf";
}

LogicalResult TargetInfo::assertFail(OpBuilder &b, Location loc,
                                     StringRef message, StringRef file,
                                     unsigned line, StringRef function) const {
  return emitError(loc) << "target " << getArchName()
                        << " has no device-side assertions";
}

namespace {

/// What the callee of an `llvm.musa.*` call may do; it decides the attributes
/// of the declaration and of each call.
enum class CalleeKind {
  /// Reads a special register: no memory effects, never unwinds, so CSE and
  /// LICM may move or merge it.
  ReadNone,
  /// Barrier, shuffle or vote: must not be made control dependent on more or
  /// fewer values (convergent).
  Convergent,
};

/// Returns the external declaration of `name` in the module around the
/// builder's insertion point, declaring it on first use.
LLVM::LLVMFuncOp getOrDeclare(OpBuilder &b, StringRef name, Type result,
                              ArrayRef<Type> args, CalleeKind kind) {
  Operation *anchor = b.getInsertionBlock()->getParentOp();
  auto module = isa<ModuleOp>(anchor) ? cast<ModuleOp>(anchor)
                                      : anchor->getParentOfType<ModuleOp>();
  if (auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return fn;
  MLIRContext *ctx = b.getContext();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto fnType = LLVM::LLVMFunctionType::get(result, args);
  auto fn = LLVM::LLVMFuncOp::create(b, UnknownLoc::get(ctx), name, fnType);
  fn.setNoUnwindAttr(b.getUnitAttr());
  if (kind == CalleeKind::ReadNone) {
    auto none = LLVM::ModRefInfo::NoModRef;
    fn.setMemoryEffectsAttr(LLVM::MemoryEffectsAttr::get(
        ctx, {none, none, none, none, none, none}));
  } else {
    fn.setConvergentAttr(b.getUnitAttr());
  }
  return fn;
}

Value callMusa(OpBuilder &b, Location loc, StringRef name, Type result,
               ValueRange args, CalleeKind kind) {
  SmallVector<Type> argTypes(args.getTypes());
  Type resultType = result ? result : LLVM::LLVMVoidType::get(b.getContext());
  LLVM::LLVMFuncOp fn = getOrDeclare(b, name, resultType, argTypes, kind);
  auto call = LLVM::CallOp::create(b, loc, fn, args);
  call.setNoUnwind(true);
  if (kind == CalleeKind::Convergent)
    call.setConvergent(true);
  else
    call.setMemoryEffectsAttr(fn.getMemoryEffectsAttr());
  return result ? call.getResult() : Value();
}

/// Where `value` goes through a 32-bit shuffle: i32 as is, narrower
/// integers and floats widened, 64-bit values as two halves.
Value shuffle32(OpBuilder &b, Location loc, StringRef fn, Value v32,
                Value offset, Value maskAndClamp, Value predSlot) {
  return callMusa(b, loc, fn, b.getI32Type(),
                  {v32, offset, maskAndClamp, predSlot},
                  CalleeKind::Convergent);
}

/// The i1 out-slot (addrspace 5) of the shuffles of the function around
/// the builder's insertion point, created at its entry on first use.
Value getPredicateSlot(OpBuilder &b, Location loc) {
  Operation *parent = b.getInsertionBlock()->getParentOp();
  auto func = dyn_cast<LLVM::LLVMFuncOp>(parent);
  if (!func)
    func = parent->getParentOfType<LLVM::LLVMFuncOp>();
  auto ptrTy = LLVM::LLVMPointerType::get(b.getContext(), 5);
  auto isSlot = [&](Operation &op) {
    auto alloca = dyn_cast<LLVM::AllocaOp>(op);
    return alloca && alloca.getType() == ptrTy &&
           alloca.getElemType() == b.getI1Type();
  };
  OpBuilder::InsertionGuard guard(b);
  if (func && !func.getBody().empty()) {
    Block &entry = func.getBody().front();
    for (Operation &op : entry)
      if (isSlot(op))
        return op.getResult(0);
    b.setInsertionPointToStart(&entry);
  }
  return LLVM::AllocaOp::create(b, loc, ptrTy, b.getI1Type(),
                                i32Const(b, loc, 1));
}

/// The module around the builder's insertion point.
ModuleOp getParentModule(OpBuilder &b) {
  Operation *anchor = b.getInsertionBlock()->getParentOp();
  return isa<ModuleOp>(anchor) ? cast<ModuleOp>(anchor)
                               : anchor->getParentOfType<ModuleOp>();
}

/// A C library-like device function (`vprintf`, `__assertfail`): external,
/// never unwinds, no other attribute (it has side effects).
LLVM::LLVMFuncOp getOrDeclareRuntime(OpBuilder &b, StringRef name,
                                     Type result, ArrayRef<Type> args) {
  ModuleOp module = getParentModule(b);
  if (auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return fn;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto fn = LLVM::LLVMFuncOp::create(
      b, UnknownLoc::get(b.getContext()), name,
      LLVM::LLVMFunctionType::get(result, args));
  fn.setNoUnwindAttr(b.getUnitAttr());
  return fn;
}

/// Generic (addrspace 0) pointer to a NUL-terminated copy of `text` held in
/// a constant module global `<prefix>_<n>` in global memory (addrspace 1);
/// identical strings share one global.
Value getGlobalString(OpBuilder &b, Location loc, StringRef prefix,
                      StringRef text) {
  ModuleOp module = getParentModule(b);
  MLIRContext *ctx = b.getContext();
  std::string contents = (text + Twine('\0')).str();
  constexpr unsigned kGlobalAddressSpace = 1;
  LLVM::GlobalOp global;
  for (auto existing : module.getOps<LLVM::GlobalOp>()) {
    auto value = dyn_cast_or_null<StringAttr>(existing.getValueOrNull());
    if (existing.getSymName().starts_with(prefix) && existing.getConstant() &&
        value && value.getValue() == contents) {
      global = existing;
      break;
    }
  }
  if (!global) {
    std::string name;
    for (unsigned n = 0;; ++n) {
      name = (prefix + "_" + Twine(n)).str();
      if (!module.lookupSymbol(name))
        break;
    }
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    auto type = LLVM::LLVMArrayType::get(b.getI8Type(), contents.size());
    global = LLVM::GlobalOp::create(
        b, UnknownLoc::get(ctx), type, /*isConstant=*/true,
        LLVM::Linkage::Internal, name, b.getStringAttr(contents),
        /*alignment=*/1, kGlobalAddressSpace);
  }
  Value ptr = LLVM::AddressOfOp::create(
      b, loc, LLVM::LLVMPointerType::get(ctx, kGlobalAddressSpace),
      global.getSymName());
  return LLVM::AddrSpaceCastOp::create(b, loc, LLVM::LLVMPointerType::get(ctx),
                                       ptr);
}

/// A slot of `type` in private memory, allocated once at the entry of the
/// function around the builder's insertion point (so that a print in a loop
/// does not grow the stack), as a generic pointer.
Value getEntryAlloca(OpBuilder &b, Location loc, Type type) {
  Operation *parent = b.getInsertionBlock()->getParentOp();
  auto func = dyn_cast<LLVM::LLVMFuncOp>(parent);
  if (!func)
    func = parent->getParentOfType<LLVM::LLVMFuncOp>();
  auto privatePtr = LLVM::LLVMPointerType::get(b.getContext(), 5);
  Value slot;
  {
    OpBuilder::InsertionGuard guard(b);
    if (func && !func.getBody().empty())
      b.setInsertionPointToStart(&func.getBody().front());
    slot = LLVM::AllocaOp::create(b, loc, privatePtr, type,
                                  i32Const(b, loc, 1));
  }
  return LLVM::AddrSpaceCastOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()), slot);
}

/// The target interface for the MUSA GPUs (`llvm.musa.*` functions).
class MUSATargetInfo : public TargetInfo {
public:
  unsigned getGlobalAddressSpace() const override { return 1; }
  unsigned getSharedAddressSpace() const override { return 3; }

  void declareSharedMemory(ModuleOp module) const override;
  Value getSharedMemoryBase(OpBuilder &b, Location loc) const override;

  Value threadId(OpBuilder &b, Location loc, unsigned dim) const override {
    return readSpecial(b, loc, "tid", dim);
  }
  Value blockId(OpBuilder &b, Location loc, unsigned dim) const override {
    return readSpecial(b, loc, "ctaid", dim);
  }
  Value numBlocks(OpBuilder &b, Location loc, unsigned dim) const override {
    return readSpecial(b, loc, "nctaid", dim);
  }

  void barrier(OpBuilder &b, Location loc) const override {
    callMusa(b, loc, "llvm.musa.barrier0", {}, {}, CalleeKind::Convergent);
  }
  void sharedMemoryBarrier(OpBuilder &b, Location loc) const override {
    callMusa(b, loc, "llvm.musa.syncthreads.lm", {}, {},
             CalleeKind::Convergent);
  }
  void warpSync(OpBuilder &b, Location loc) const override {
    callMusa(b, loc, "llvm.musa.syncwarp", {}, {}, CalleeKind::Convergent);
  }

  Value shuffle(OpBuilder &b, Location loc, ShuffleKind kind, Value value,
                Value offset, unsigned width) const override;

  Value ballot(OpBuilder &b, Location loc, Value pred) const override {
    return callMusa(b, loc, "llvm.musa.vote.ballot.sync",
                    getBallotType(b.getContext()), {pred},
                    CalleeKind::Convergent);
  }

  /// Atomics use the syncscope names of clang's GPU targets ("workgroup",
  /// "agent", "" = system), which the LLVM 14 parser accepts as they are
  /// and the export keeps. (Assumption to confirm with the MUSA llc: an
  /// NVPTX-derived backend ignores syncscopes, an AMDGPU-derived one knows
  /// exactly these names.)
  StringRef getSyncScope(MemoryScope scope) const override {
    switch (scope) {
    case MemoryScope::Block:
      return "workgroup";
    case MemoryScope::Device:
      return "agent";
    case MemoryScope::System:
      return "";
    }
    return "";
  }

  LogicalResult printf(OpBuilder &b, Location loc, StringRef format,
                       ValueRange args) const override;
  LogicalResult assertFail(OpBuilder &b, Location loc, StringRef message,
                           StringRef file, unsigned line,
                           StringRef function) const override;

private:
  static Value readSpecial(OpBuilder &b, Location loc, StringRef reg,
                           unsigned dim) {
    static const char *const kDims[] = {"x", "y", "z"};
    std::string name =
        ("llvm.musa.read.ptx.sreg." + reg + "." + kDims[dim % 3]).str();
    return callMusa(b, loc, name, b.getI32Type(), {}, CalleeKind::ReadNone);
  }
};

Value MUSATargetInfo::shuffle(OpBuilder &b, Location loc, ShuffleKind kind,
                              Value value, Value offset, unsigned width) const {
  if (width == 0)
    width = getWarpSize();
  StringRef fn;
  switch (kind) {
  case ShuffleKind::Xor:
    fn = "llvm.musa.shfl.xor.sync.i32";
    break;
  case ShuffleKind::Up:
    fn = "llvm.musa.shfl.up.sync.i32";
    break;
  case ShuffleKind::Down:
    fn = "llvm.musa.shfl.down.sync.i32";
    break;
  case ShuffleKind::Idx:
    fn = "llvm.musa.shfl.idx.sync.i32";
    break;
  }
  // The segment mask is encoded against 128 lanes on every MUSA arch; `up`
  // clamps at the segment start, so its low (clamp) field is 0.
  int64_t clamp = kind == ShuffleKind::Up ? 0 : int64_t(width) - 1;
  Value maskAndClamp = i32Const(b, loc, ((int64_t(128) - width) << 7) | clamp);

  // The intrinsic reports through a private-memory i1 whether the source
  // lane was in range; nobody reads it, so one slot per function, in the
  // entry block where LLVM promotes allocas, serves every shuffle.
  Value predSlot = getPredicateSlot(b, loc);

  Type type = value.getType();
  Type i32 = b.getI32Type();
  unsigned bits = type.getIntOrFloatBitWidth();
  Type intType = b.getIntegerType(bits);
  Value asInt =
      type.isInteger()
          ? value
          : LLVM::BitcastOp::create(b, loc, intType, value).getResult();
  Value result;
  if (bits == 64) {
    // Two 32-bit shuffles, low half first.
    Type i64 = b.getI64Type();
    Value lo = LLVM::TruncOp::create(b, loc, i32, asInt);
    Value hi = LLVM::TruncOp::create(
        b, loc, i32,
        LLVM::LShrOp::create(
            b, loc, asInt,
            LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(32))));
    lo = shuffle32(b, loc, fn, lo, offset, maskAndClamp, predSlot);
    hi = shuffle32(b, loc, fn, hi, offset, maskAndClamp, predSlot);
    Value wideLo = LLVM::ZExtOp::create(b, loc, i64, lo);
    Value wideHi = LLVM::ShlOp::create(
        b, loc, LLVM::ZExtOp::create(b, loc, i64, hi),
        LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(32)));
    result = LLVM::OrOp::create(b, loc, wideLo, wideHi);
  } else {
    Value v32 = bits == 32
                    ? asInt
                    : LLVM::ZExtOp::create(b, loc, i32, asInt).getResult();
    result = shuffle32(b, loc, fn, v32, offset, maskAndClamp, predSlot);
    if (bits != 32)
      result = LLVM::TruncOp::create(b, loc, intType, result);
  }
  if (!type.isInteger())
    result = LLVM::BitcastOp::create(b, loc, type, result);
  return result;
}

/// Device printf as in CUDA (assumed: no public MUSA source names it):
/// `i32 vprintf(ptr format, ptr args)`, `args` pointing at the arguments
/// laid out as a C struct after the default argument promotions (integers
/// narrower than 32 bits to i32, floats to double).
LogicalResult MUSATargetInfo::printf(OpBuilder &b, Location loc,
                                     StringRef format, ValueRange args) const {
  MLIRContext *ctx = b.getContext();
  auto genericPtr = LLVM::LLVMPointerType::get(ctx);
  Value formatPtr = getGlobalString(b, loc, "printfFormat", format);
  SmallVector<Value> promoted;
  for (Value arg : args) {
    Type type = arg.getType();
    if (auto intType = dyn_cast<IntegerType>(type)) {
      if (intType.getWidth() < 32)
        arg = LLVM::ZExtOp::create(b, loc, b.getI32Type(), arg);
      else if (intType.getWidth() > 64)
        return emitError(loc) << "printf of " << type << " is not supported";
    } else if (isa<FloatType>(type)) {
      if (type.getIntOrFloatBitWidth() > 64)
        return emitError(loc) << "printf of " << type << " is not supported";
      if (!type.isF64())
        arg = LLVM::FPExtOp::create(b, loc, b.getF64Type(), arg);
    } else if (!isa<LLVM::LLVMPointerType>(type)) {
      return emitError(loc) << "printf of " << type << " is not supported";
    }
    promoted.push_back(arg);
  }
  Value buffer;
  if (promoted.empty()) {
    buffer = LLVM::ZeroOp::create(b, loc, genericPtr);
  } else {
    SmallVector<Type> fieldTypes;
    for (Value v : promoted)
      fieldTypes.push_back(v.getType());
    auto structType = LLVM::LLVMStructType::getLiteral(ctx, fieldTypes);
    buffer = getEntryAlloca(b, loc, structType);
    for (auto [i, v] : llvm::enumerate(promoted)) {
      Value field = LLVM::GEPOp::create(
          b, loc, genericPtr, structType, buffer,
          ArrayRef<LLVM::GEPArg>{int32_t(0), int32_t(i)});
      LLVM::StoreOp::create(b, loc, v, field);
    }
  }
  LLVM::LLVMFuncOp fn = getOrDeclareRuntime(b, "vprintf", b.getI32Type(),
                                            {genericPtr, genericPtr});
  LLVM::CallOp::create(b, loc, fn, ValueRange{formatPtr, buffer});
  return success();
}

/// Device assertion failure as in CUDA (assumed: no public MUSA source names
/// it): `void __assertfail(ptr message, ptr file, i32 line, ptr function,
/// i64 charSize)`, which reports and traps.
LogicalResult MUSATargetInfo::assertFail(OpBuilder &b, Location loc,
                                         StringRef message, StringRef file,
                                         unsigned line,
                                         StringRef function) const {
  MLIRContext *ctx = b.getContext();
  auto genericPtr = LLVM::LLVMPointerType::get(ctx);
  Value messagePtr = getGlobalString(b, loc, "assertMessage", message);
  Value filePtr = getGlobalString(b, loc, "assertFile", file);
  Value functionPtr = getGlobalString(b, loc, "assertFunction", function);
  LLVM::LLVMFuncOp fn = getOrDeclareRuntime(
      b, "__assertfail", LLVM::LLVMVoidType::get(ctx),
      {genericPtr, genericPtr, b.getI32Type(), genericPtr, b.getI64Type()});
  Value charSize = LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                                            b.getI64IntegerAttr(1));
  LLVM::CallOp::create(
      b, loc, fn,
      ValueRange{messagePtr, filePtr, i32Const(b, loc, line), functionPtr,
                 charSize});
  return success();
}

/// The block's shared memory: one external, zero-length array in addrspace 3
/// whose size the driver sets at launch (as for NVIDIA's dynamic shared
/// memory), so the kernel's need is only known to the launcher.
constexpr StringLiteral kSharedMemoryGlobal = "global_smem";

void MUSATargetInfo::declareSharedMemory(ModuleOp module) const {
  if (module.lookupSymbol(kSharedMemoryGlobal))
    return;
  OpBuilder b(module.getBodyRegion());
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), 0);
  LLVM::GlobalOp::create(b, module.getLoc(), type, /*isConstant=*/false,
                         LLVM::Linkage::External, kSharedMemoryGlobal,
                         /*value=*/Attribute(), /*alignment=*/16,
                         getSharedAddressSpace());
}

Value MUSATargetInfo::getSharedMemoryBase(OpBuilder &b, Location loc) const {
  auto ptrType =
      LLVM::LLVMPointerType::get(b.getContext(), getSharedAddressSpace());
  return LLVM::AddressOfOp::create(b, loc, ptrType, kSharedMemoryGlobal);
}

/// PH1 (S5000): 32-thread warps, 192 KiB of shared memory per block.
class MP31TargetInfo final : public MUSATargetInfo {
public:
  StringRef getArchName() const override { return "mp_31"; }
  unsigned getWarpSize() const override { return 32; }
  unsigned getMaxSharedMemoryBytes() const override { return 196608; }
  Type getBallotType(MLIRContext *ctx) const override {
    return IntegerType::get(ctx, 32);
  }
};

/// QY2 (S4000): 128-thread warps, 72 KiB of shared memory per block.
class MP22TargetInfo final : public MUSATargetInfo {
public:
  StringRef getArchName() const override { return "mp_22"; }
  unsigned getWarpSize() const override { return 128; }
  unsigned getMaxSharedMemoryBytes() const override { return 73728; }
  // One bit per lane of a 128-lane warp (inferred: no public source gives
  // the ballot's result type on mp_22).
  Type getBallotType(MLIRContext *ctx) const override {
    return IntegerType::get(ctx, 128);
  }
};

} // namespace

std::unique_ptr<TargetInfo>
mlir::triton_musa::createTargetInfo(MUSAArch arch, TargetKind kind) {
  if (kind == TargetKind::Emulator)
    return createEmulatorTargetInfo(arch);
  switch (arch) {
  case MUSAArch::MP31:
    return std::make_unique<MP31TargetInfo>();
  case MUSAArch::MP22:
    return std::make_unique<MP22TargetInfo>();
  }
  return nullptr;
}
