//===- EmulatorTargetInfo.cpp - The CPU emulator's target interface -------===//
//
// The target of `--convert-tritongpu-to-musa{target=emulator}`: the same
// lowering as for the device, but every hardware hook becomes a call into
// the CPU emulator's runtime (emulator/Runtime.h documents each function):
//
//   i32  __musa_emu_thread_id(i32 dim)      i32 __musa_emu_block_id(i32 dim)
//   i32  __musa_emu_num_blocks(i32 dim)     ptr<3> __musa_emu_shared_base()
//   void __musa_emu_barrier()               void __musa_emu_shared_barrier()
//   void __musa_emu_warp_sync()
//   i64  __musa_emu_shuffle(i32 kind, i64 value, i32 offset, i32 width)
//   i64  __musa_emu_ballot(i1 pred, i32 word)
//   i32  __musa_emu_printf(ptr format, ...)
//   void __musa_emu_assert_fail(ptr message, ptr file, i32 line, ptr function)
//
// The runtime runs each GPU thread as a fiber; a call that synchronizes
// (barriers, shuffles, ballots) switches fibers, so every such call is
// convergent. Warp semantics (size, ballot width) follow the emulated arch.
//
//===----------------------------------------------------------------------===//

#include "conversion/TritonGPUToMUSA/TargetInfo.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::triton_musa;

namespace {

/// How a runtime function behaves, which decides its attributes.
enum class RuntimeCallKind {
  /// Reads the calling fiber's ids: pure within one GPU thread.
  Pure,
  /// Synchronizes with other fibers (switches fibers): convergent.
  Collective,
};

Value i32Constant(OpBuilder &b, Location loc, int64_t v) {
  return LLVM::ConstantOp::create(b, loc, b.getI32Type(),
                                  b.getI32IntegerAttr(v));
}

/// Calls the runtime function `name`, declaring it in the enclosing module
/// on first use.
Value callRuntime(OpBuilder &b, Location loc, StringRef name, Type result,
                  ValueRange args, RuntimeCallKind kind) {
  MLIRContext *ctx = b.getContext();
  Operation *anchor = b.getInsertionBlock()->getParentOp();
  auto module = isa<ModuleOp>(anchor) ? cast<ModuleOp>(anchor)
                                      : anchor->getParentOfType<ModuleOp>();
  Type resultType = result ? result : LLVM::LLVMVoidType::get(ctx);
  auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
  if (!fn) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    SmallVector<Type> argTypes(args.getTypes());
    fn = LLVM::LLVMFuncOp::create(
        b, UnknownLoc::get(ctx), name,
        LLVM::LLVMFunctionType::get(resultType, argTypes));
    fn.setNoUnwindAttr(b.getUnitAttr());
    if (kind == RuntimeCallKind::Pure) {
      auto none = LLVM::ModRefInfo::NoModRef;
      fn.setMemoryEffectsAttr(LLVM::MemoryEffectsAttr::get(
          ctx, {none, none, none, none, none, none}));
      fn.setWillReturnAttr(b.getUnitAttr());
    } else {
      fn.setConvergentAttr(b.getUnitAttr());
    }
  }
  auto call = LLVM::CallOp::create(b, loc, fn, args);
  call.setNoUnwind(true);
  if (kind == RuntimeCallKind::Collective)
    call.setConvergent(true);
  else
    call.setMemoryEffectsAttr(fn.getMemoryEffectsAttr());
  return result ? call.getResult() : Value();
}

/// Generic pointer to a NUL-terminated copy of `text` in a private constant
/// module global `<prefix>_<n>` (host memory: address space 0); identical
/// strings share one global.
Value getHostString(OpBuilder &b, Location loc, StringRef prefix,
                    StringRef text) {
  MLIRContext *ctx = b.getContext();
  Operation *anchor = b.getInsertionBlock()->getParentOp();
  auto module = isa<ModuleOp>(anchor) ? cast<ModuleOp>(anchor)
                                      : anchor->getParentOfType<ModuleOp>();
  std::string contents = (text + Twine('\0')).str();
  LLVM::GlobalOp global;
  unsigned count = 0;
  for (auto existing : module.getOps<LLVM::GlobalOp>()) {
    if (!existing.getSymName().starts_with(prefix))
      continue;
    ++count;
    auto value = dyn_cast_or_null<StringAttr>(existing.getValueOrNull());
    if (existing.getConstant() && value && value.getValue() == contents)
      global = existing;
  }
  if (!global) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    auto type = LLVM::LLVMArrayType::get(b.getI8Type(), contents.size());
    global = LLVM::GlobalOp::create(
        b, UnknownLoc::get(ctx), type, /*isConstant=*/true,
        LLVM::Linkage::Internal, (prefix + "_" + Twine(count)).str(),
        b.getStringAttr(contents), /*alignment=*/1, /*addrSpace=*/0);
  }
  return LLVM::AddressOfOp::create(b, loc, global);
}

/// The target interface of the CPU emulator emulating `arch`.
class EmulatorTargetInfo final : public TargetInfo {
public:
  explicit EmulatorTargetInfo(MUSAArch arch) : arch(arch) {}

  StringRef getArchName() const override {
    return arch == MUSAArch::MP31 ? "mp_31" : "mp_22";
  }
  unsigned getWarpSize() const override {
    return arch == MUSAArch::MP31 ? 32 : 128;
  }
  unsigned getMaxSharedMemoryBytes() const override {
    return arch == MUSAArch::MP31 ? 196608 : 73728;
  }
  unsigned getGlobalAddressSpace() const override { return 1; }
  unsigned getSharedAddressSpace() const override { return 3; }

  /// The runtime hands each block its buffer; nothing to declare.
  void declareSharedMemory(ModuleOp) const override {}
  Value getSharedMemoryBase(OpBuilder &b, Location loc) const override {
    auto ptrType =
        LLVM::LLVMPointerType::get(b.getContext(), getSharedAddressSpace());
    return callRuntime(b, loc, "__musa_emu_shared_base", ptrType, {},
                       RuntimeCallKind::Pure);
  }

  Value threadId(OpBuilder &b, Location loc, unsigned dim) const override {
    return readId(b, loc, "__musa_emu_thread_id", dim);
  }
  Value blockId(OpBuilder &b, Location loc, unsigned dim) const override {
    return readId(b, loc, "__musa_emu_block_id", dim);
  }
  Value numBlocks(OpBuilder &b, Location loc, unsigned dim) const override {
    return readId(b, loc, "__musa_emu_num_blocks", dim);
  }

  void barrier(OpBuilder &b, Location loc) const override {
    callRuntime(b, loc, "__musa_emu_barrier", {}, {},
                RuntimeCallKind::Collective);
  }
  void sharedMemoryBarrier(OpBuilder &b, Location loc) const override {
    callRuntime(b, loc, "__musa_emu_shared_barrier", {}, {},
                RuntimeCallKind::Collective);
  }
  void warpSync(OpBuilder &b, Location loc) const override {
    callRuntime(b, loc, "__musa_emu_warp_sync", {}, {},
                RuntimeCallKind::Collective);
  }

  /// Any value of at most 64 bits travels as an i64 through one collective.
  Value shuffle(OpBuilder &b, Location loc, ShuffleKind kind, Value value,
                Value offset, unsigned width) const override {
    if (width == 0)
      width = getWarpSize();
    Type type = value.getType();
    unsigned bits = type.getIntOrFloatBitWidth();
    Type intType = b.getIntegerType(bits);
    Type i64 = b.getI64Type();
    Value asInt =
        type.isInteger()
            ? value
            : LLVM::BitcastOp::create(b, loc, intType, value).getResult();
    Value wide = bits == 64
                     ? asInt
                     : LLVM::ZExtOp::create(b, loc, i64, asInt).getResult();
    Value result = callRuntime(
        b, loc, "__musa_emu_shuffle", i64,
        {i32Constant(b, loc, static_cast<int64_t>(kind)), wide, offset,
         i32Constant(b, loc, width)},
        RuntimeCallKind::Collective);
    if (bits != 64)
      result = LLVM::TruncOp::create(b, loc, intType, result);
    if (!type.isInteger())
      result = LLVM::BitcastOp::create(b, loc, type, result);
    return result;
  }

  Type getBallotType(MLIRContext *ctx) const override {
    return IntegerType::get(ctx, getWarpSize());
  }
  /// One collective per 64-lane word of the ballot, low word first.
  Value ballot(OpBuilder &b, Location loc, Value pred) const override {
    Type i64 = b.getI64Type();
    unsigned bits = getWarpSize();
    Type resultType = getBallotType(b.getContext());
    Value result;
    for (unsigned word = 0; word * 64 < bits; ++word) {
      Value part = callRuntime(b, loc, "__musa_emu_ballot", i64,
                               {pred, i32Constant(b, loc, word)},
                               RuntimeCallKind::Collective);
      if (bits < 64) {
        result = LLVM::TruncOp::create(b, loc, resultType, part);
        break;
      }
      if (bits > 64) {
        part = LLVM::ZExtOp::create(b, loc, resultType, part);
        if (word)
          part = LLVM::ShlOp::create(
              b, loc, part,
              LLVM::ConstantOp::create(
                  b, loc, resultType,
                  b.getIntegerAttr(resultType, 64 * word)));
      }
      result = result ? LLVM::OrOp::create(b, loc, result, part).getResult()
                      : part;
    }
    return result;
  }

  /// A C varargs call of the runtime's printf (default argument promotions:
  /// integers narrower than 32 bits to i32, floats to double).
  LogicalResult printf(OpBuilder &b, Location loc, StringRef format,
                       ValueRange args) const override {
    MLIRContext *ctx = b.getContext();
    auto ptrType = LLVM::LLVMPointerType::get(ctx);
    SmallVector<Value> operands{getHostString(b, loc, "printfFormat", format)};
    for (Value arg : args) {
      Type type = arg.getType();
      if (auto intType = dyn_cast<IntegerType>(type)) {
        if (intType.getWidth() > 64)
          return emitError(loc) << "printf of " << type << " is not supported";
        if (intType.getWidth() < 32)
          arg = LLVM::ZExtOp::create(b, loc, b.getI32Type(), arg);
      } else if (isa<FloatType>(type)) {
        if (type.getIntOrFloatBitWidth() > 64)
          return emitError(loc) << "printf of " << type << " is not supported";
        if (!type.isF64())
          arg = LLVM::FPExtOp::create(b, loc, b.getF64Type(), arg);
      } else if (auto argPtr = dyn_cast<LLVM::LLVMPointerType>(type)) {
        if (argPtr.getAddressSpace() != 0)
          arg = LLVM::AddrSpaceCastOp::create(b, loc, ptrType, arg);
      } else {
        return emitError(loc) << "printf of " << type << " is not supported";
      }
      operands.push_back(arg);
    }
    auto module = getModule(b);
    constexpr StringLiteral name = "__musa_emu_printf";
    auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
    if (!fn) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(module.getBody());
      fn = LLVM::LLVMFuncOp::create(
          b, UnknownLoc::get(ctx), name,
          LLVM::LLVMFunctionType::get(b.getI32Type(), {ptrType},
                                      /*isVarArg=*/true));
      fn.setNoUnwindAttr(b.getUnitAttr());
    }
    LLVM::CallOp::create(b, loc, fn, operands);
    return success();
  }

  LogicalResult assertFail(OpBuilder &b, Location loc, StringRef message,
                           StringRef file, unsigned line,
                           StringRef function) const override {
    callRuntime(b, loc, "__musa_emu_assert_fail", {},
                {getHostString(b, loc, "assertMessage", message),
                 getHostString(b, loc, "assertFile", file),
                 i32Constant(b, loc, line),
                 getHostString(b, loc, "assertFunction", function)},
                RuntimeCallKind::Collective);
    return success();
  }

private:
  static ModuleOp getModule(OpBuilder &b) {
    Operation *anchor = b.getInsertionBlock()->getParentOp();
    return isa<ModuleOp>(anchor) ? cast<ModuleOp>(anchor)
                                 : anchor->getParentOfType<ModuleOp>();
  }

  static Value readId(OpBuilder &b, Location loc, StringRef fn, unsigned dim) {
    return callRuntime(b, loc, fn, b.getI32Type(), {i32Constant(b, loc, dim)},
                       RuntimeCallKind::Pure);
  }

  MUSAArch arch;
};

} // namespace

std::unique_ptr<TargetInfo>
mlir::triton_musa::createEmulatorTargetInfo(MUSAArch arch) {
  return std::make_unique<EmulatorTargetInfo>(arch);
}
