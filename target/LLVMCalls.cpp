//===- LLVMCalls.cpp - Calls, declarations and globals for targets --------===//

#include "target/LLVMCalls.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/Twine.h"

using namespace mlir;
using namespace mlir::triton_musa;

Value mlir::triton_musa::i32Const(OpBuilder &b, Location loc, int64_t value) {
  return LLVM::ConstantOp::create(b, loc, b.getI32Type(),
                                  b.getI32IntegerAttr(value));
}

ModuleOp mlir::triton_musa::getParentModule(OpBuilder &b) {
  Operation *anchor = b.getInsertionBlock()->getParentOp();
  if (auto module = dyn_cast<ModuleOp>(anchor))
    return module;
  return anchor->getParentOfType<ModuleOp>();
}

static LLVM::LLVMFuncOp getParentFunction(OpBuilder &b) {
  Operation *anchor = b.getInsertionBlock()->getParentOp();
  if (auto func = dyn_cast<LLVM::LLVMFuncOp>(anchor))
    return func;
  return anchor->getParentOfType<LLVM::LLVMFuncOp>();
}

LLVM::LLVMFuncOp mlir::triton_musa::getOrDeclareFunction(
    OpBuilder &b, Location loc, StringRef name, LLVM::LLVMFunctionType type,
    CalleeKind kind) {
  ModuleOp module = getParentModule(b);
  if (Operation *existing = module.lookupSymbol(name)) {
    auto fn = dyn_cast<LLVM::LLVMFuncOp>(existing);
    if (fn && fn.getFunctionType() == type)
      return fn;
    emitError(loc) << "cannot declare '" << name << "' as " << type
                   << ": the module already defines that symbol"
                   << (fn ? " with another type" : "");
    return nullptr;
  }
  MLIRContext *ctx = b.getContext();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto fn = LLVM::LLVMFuncOp::create(b, UnknownLoc::get(ctx), name, type);
  fn.setNoUnwindAttr(b.getUnitAttr());
  switch (kind) {
  case CalleeKind::ReadNone: {
    auto none = LLVM::ModRefInfo::NoModRef;
    fn.setMemoryEffectsAttr(LLVM::MemoryEffectsAttr::get(
        ctx, {none, none, none, none, none, none}));
    fn.setWillReturnAttr(b.getUnitAttr());
    break;
  }
  case CalleeKind::Convergent:
    fn.setConvergentAttr(b.getUnitAttr());
    break;
  case CalleeKind::SideEffects:
    break;
  }
  return fn;
}

Value mlir::triton_musa::callFunction(OpBuilder &b, Location loc,
                                      StringRef name, Type result,
                                      ValueRange args, CalleeKind kind) {
  SmallVector<Type> argTypes(args.getTypes());
  Type resultType = result ? result : LLVM::LLVMVoidType::get(b.getContext());
  LLVM::LLVMFuncOp fn = getOrDeclareFunction(
      b, loc, name, LLVM::LLVMFunctionType::get(resultType, argTypes), kind);
  if (!fn)
    return Value();
  auto call = LLVM::CallOp::create(b, loc, fn, args);
  if (kind != CalleeKind::SideEffects)
    call.setNoUnwind(true);
  if (kind == CalleeKind::Convergent)
    call.setConvergent(true);
  else if (kind == CalleeKind::ReadNone)
    call.setMemoryEffectsAttr(fn.getMemoryEffectsAttr());
  return result ? call.getResult() : Value();
}

Value mlir::triton_musa::getGlobalString(OpBuilder &b, Location loc,
                                         StringRef prefix, StringRef text,
                                         unsigned addressSpace) {
  ModuleOp module = getParentModule(b);
  MLIRContext *ctx = b.getContext();
  std::string contents = (text + Twine('\0')).str();
  LLVM::GlobalOp global;
  for (auto existing : module.getOps<LLVM::GlobalOp>()) {
    auto value = dyn_cast_or_null<StringAttr>(existing.getValueOrNull());
    if (existing.getSymName().starts_with(prefix) && existing.getConstant() &&
        existing.getAddrSpace() == addressSpace && value &&
        value.getValue() == contents) {
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
        /*alignment=*/1, addressSpace);
  }
  Value ptr = LLVM::AddressOfOp::create(b, loc, global);
  if (addressSpace == 0)
    return ptr;
  return LLVM::AddrSpaceCastOp::create(b, loc, LLVM::LLVMPointerType::get(ctx),
                                       ptr);
}

Value mlir::triton_musa::getEntryAlloca(OpBuilder &b, Location loc, Type type,
                                        unsigned addressSpace) {
  LLVM::LLVMFuncOp func = getParentFunction(b);
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), addressSpace);
  OpBuilder::InsertionGuard guard(b);
  if (func && !func.getBody().empty())
    b.setInsertionPointToStart(&func.getBody().front());
  return LLVM::AllocaOp::create(b, loc, ptrType, type, i32Const(b, loc, 1));
}

FailureOr<SmallVector<Value>>
mlir::triton_musa::promotePrintfArguments(OpBuilder &b, Location loc,
                                          ValueRange args) {
  auto genericPtr = LLVM::LLVMPointerType::get(b.getContext());
  SmallVector<Value> promoted;
  for (Value arg : args) {
    Type type = arg.getType();
    bool supported = true;
    if (auto intType = dyn_cast<IntegerType>(type)) {
      supported = intType.getWidth() <= 64;
      if (intType.getWidth() < 32)
        arg = LLVM::ZExtOp::create(b, loc, b.getI32Type(), arg);
    } else if (isa<FloatType>(type)) {
      supported = type.getIntOrFloatBitWidth() <= 64;
      if (supported && !type.isF64())
        arg = LLVM::FPExtOp::create(b, loc, b.getF64Type(), arg);
    } else if (auto ptrType = dyn_cast<LLVM::LLVMPointerType>(type)) {
      if (ptrType.getAddressSpace() != 0)
        arg = LLVM::AddrSpaceCastOp::create(b, loc, genericPtr, arg);
    } else {
      supported = false;
    }
    if (!supported)
      return emitError(loc) << "printf of " << type << " is not supported";
    promoted.push_back(arg);
  }
  return promoted;
}

Value mlir::triton_musa::readSpecialRegister(OpBuilder &b, Location loc,
                                             StringRef prefix, StringRef reg,
                                             unsigned dim) {
  static const char *const kDims[] = {"x", "y", "z"};
  std::string name = (prefix + "." + reg + "." + kDims[dim % 3]).str();
  return callFunction(b, loc, name, b.getI32Type(), {}, CalleeKind::ReadNone);
}

Value mlir::triton_musa::shuffleInChunks(
    OpBuilder &b, Location loc, Value value, unsigned chunkBits,
    llvm::function_ref<Value(Value chunk)> shuffleChunk) {
  Type type = value.getType();
  unsigned bits = type.getIntOrFloatBitWidth();
  Type intType = b.getIntegerType(bits);
  Type chunkType = b.getIntegerType(chunkBits);
  Value asInt = type.isInteger()
                    ? value
                    : LLVM::BitcastOp::create(b, loc, intType, value).getResult();
  Value result;
  if (bits <= chunkBits) {
    Value chunk = bits == chunkBits
                      ? asInt
                      : LLVM::ZExtOp::create(b, loc, chunkType, asInt).getResult();
    result = shuffleChunk(chunk);
    if (bits != chunkBits)
      result = LLVM::TruncOp::create(b, loc, intType, result);
  } else {
    for (unsigned low = 0; low < bits; low += chunkBits) {
      Value shifted = asInt;
      if (low)
        shifted = LLVM::LShrOp::create(
            b, loc, asInt,
            LLVM::ConstantOp::create(b, loc, intType,
                                     b.getIntegerAttr(intType, low)));
      Value chunk = shuffleChunk(LLVM::TruncOp::create(b, loc, chunkType, shifted));
      Value wide = LLVM::ZExtOp::create(b, loc, intType, chunk);
      if (low)
        wide = LLVM::ShlOp::create(
            b, loc, wide,
            LLVM::ConstantOp::create(b, loc, intType,
                                     b.getIntegerAttr(intType, low)));
      result = result ? LLVM::OrOp::create(b, loc, result, wide).getResult()
                      : wide;
    }
  }
  if (!type.isInteger())
    result = LLVM::BitcastOp::create(b, loc, type, result);
  return result;
}

LogicalResult mlir::triton_musa::emitVprintf(OpBuilder &b, Location loc,
                                             StringRef format, ValueRange args,
                                             unsigned stringAddressSpace,
                                             unsigned bufferAddressSpace) {
  MLIRContext *ctx = b.getContext();
  auto genericPtr = LLVM::LLVMPointerType::get(ctx);
  Value formatPtr =
      getGlobalString(b, loc, "printfFormat", format, stringAddressSpace);
  FailureOr<SmallVector<Value>> promoted = promotePrintfArguments(b, loc, args);
  if (failed(promoted))
    return failure();
  Value buffer;
  if (promoted->empty()) {
    buffer = LLVM::ZeroOp::create(b, loc, genericPtr);
  } else {
    SmallVector<Type> fieldTypes;
    for (Value v : *promoted)
      fieldTypes.push_back(v.getType());
    auto structType = LLVM::LLVMStructType::getLiteral(ctx, fieldTypes);
    buffer = getEntryAlloca(b, loc, structType, bufferAddressSpace);
    if (bufferAddressSpace != 0)
      buffer = LLVM::AddrSpaceCastOp::create(b, loc, genericPtr, buffer);
    for (auto [i, v] : llvm::enumerate(*promoted)) {
      Value field = LLVM::GEPOp::create(
          b, loc, genericPtr, structType, buffer,
          ArrayRef<LLVM::GEPArg>{int32_t(0), int32_t(i)});
      LLVM::StoreOp::create(b, loc, v, field);
    }
  }
  callFunction(b, loc, "vprintf", b.getI32Type(), {formatPtr, buffer},
               CalleeKind::SideEffects);
  return success();
}

void mlir::triton_musa::emitAssertFail(OpBuilder &b, Location loc,
                                       StringRef message, StringRef file,
                                       unsigned line, StringRef function,
                                       unsigned stringAddressSpace) {
  Value messagePtr =
      getGlobalString(b, loc, "assertMessage", message, stringAddressSpace);
  Value filePtr =
      getGlobalString(b, loc, "assertFile", file, stringAddressSpace);
  Value functionPtr =
      getGlobalString(b, loc, "assertFunction", function, stringAddressSpace);
  Value charSize = LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                                            b.getI64IntegerAttr(1));
  callFunction(b, loc, "__assertfail", Type(),
               {messagePtr, filePtr, i32Const(b, loc, line), functionPtr,
                charSize},
               CalleeKind::SideEffects);
}

static constexpr StringLiteral kDynamicSharedMemory = "global_smem";

void mlir::triton_musa::declareDynamicSharedMemory(ModuleOp module,
                                                   unsigned addressSpace) {
  if (module.lookupSymbol(kDynamicSharedMemory))
    return;
  OpBuilder b(module.getBodyRegion());
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), 0);
  LLVM::GlobalOp::create(b, module.getLoc(), type, /*isConstant=*/false,
                         LLVM::Linkage::External, kDynamicSharedMemory,
                         /*value=*/Attribute(), /*alignment=*/16,
                         addressSpace);
}

Value mlir::triton_musa::getDynamicSharedMemoryBase(OpBuilder &b, Location loc,
                                                    unsigned addressSpace) {
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), addressSpace);
  return LLVM::AddressOfOp::create(b, loc, ptrType, kDynamicSharedMemory);
}
