//===- LLVM14Compat.cpp - In-memory rewrites for the LLVM 14 llc ----------===//
//
// Deliberate API edits that turn an LLVM 22 module into one whose printed
// form LLVM 14 reads (the rules are listed in LLVM14Compat.h).
//
//===----------------------------------------------------------------------===//

#include "conversion/LLVMIRExport/LLVM14Compat.h"

#include "llvm/ADT/FloatingPointMode.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/ModRef.h"

#include <cmath>

using namespace llvm;

namespace {

const StringSet<> &llvm14Intrinsics() {
  static const StringSet<> names = {
#define LLVM14_INTRINSIC(NAME) NAME,
#include "conversion/LLVMIRExport/LLVM14Names.def"
  };
  return names;
}

const StringSet<> &llvm14Attributes() {
  static const StringSet<> names = {
#define LLVM14_ATTRIBUTE(NAME) NAME,
#include "conversion/LLVMIRExport/LLVM14Names.def"
  };
  return names;
}

/// Metadata kinds this LLVM fixes that LLVM 14 did not (custom kinds, which
/// LLVM 14 also accepts, stay).
const StringSet<> &post14MetadataKinds() {
  static const StringSet<> names = [] {
    StringSet<> llvm14 = {
#define LLVM14_MD_KIND(NAME) NAME,
#include "conversion/LLVMIRExport/LLVM14Names.def"
    };
    StringSet<> current = {
#define LLVM_FIXED_MD_KIND(ENUM, NAME, VALUE) NAME,
#include "llvm/IR/FixedMetadataKinds.def"
#undef LLVM_FIXED_MD_KIND
    };
    StringSet<> post14;
    for (const auto &entry : current)
      if (!llvm14.contains(entry.getKey()))
        post14.insert(entry.getKey());
    return post14;
  }();
  return names;
}

/// True if LLVM 14 has an intrinsic `name` (possibly with type suffixes).
bool isLLVM14Intrinsic(StringRef name) {
  const StringSet<> &known = llvm14Intrinsics();
  // Overloaded names append ".<type>" suffixes: try every dot prefix.
  for (StringRef prefix = name; !prefix.empty();
       prefix = prefix.rsplit('.').first) {
    if (known.contains(prefix))
      return true;
    if (!prefix.contains('.'))
      break;
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Intrinsics
//===----------------------------------------------------------------------===//

/// Replaces the declaration `oldDecl` by one of type `newType` (same name)
/// and each call by one with the arguments `makeArgs` returns. Used where
/// LLVM 14's signature differs; the new declaration does not verify under
/// LLVM 22, which is why this step runs last.
void resignIntrinsic(
    Function &oldDecl, FunctionType *newType, AttributeList attrs,
    function_ref<SmallVector<Value *>(CallInst &, IRBuilder<> &)> makeArgs) {
  Module &module = *oldDecl.getParent();
  Function *newDecl = Function::Create(newType, oldDecl.getLinkage(),
                                       oldDecl.getAddressSpace(), "", &module);
  newDecl->setAttributes(attrs);
  for (User *user : make_early_inc_range(oldDecl.users())) {
    auto *call = cast<CallInst>(user);
    IRBuilder<> builder(call);
    SmallVector<Value *> args = makeArgs(*call, builder);
    CallInst *newCall = builder.CreateCall(newDecl, args);
    newCall->takeName(call);
    call->replaceAllUsesWith(newCall);
    call->eraseFromParent();
  }
  std::string name = oldDecl.getName().str();
  oldDecl.eraseFromParent();
  newDecl->setName(name);
}

/// `llvm.lifetime.{start,end}(ptr)` -> LLVM 14's `(i64 size, ptr)`; the
/// size is the alloca's (LLVM 22 allows lifetime markers only on allocas),
/// -1 ("unknown") for dynamic ones.
void resignLifetime(Function &decl) {
  LLVMContext &ctx = decl.getContext();
  const DataLayout &dl = decl.getParent()->getDataLayout();
  Type *i64 = Type::getInt64Ty(ctx);
  Type *ptrType = decl.getFunctionType()->getParamType(0);
  auto *type = FunctionType::get(Type::getVoidTy(ctx), {i64, ptrType}, false);
  AttrBuilder fnAttrs(ctx);
  fnAttrs.addAttribute(Attribute::NoUnwind);
  fnAttrs.addAttribute(Attribute::WillReturn);
  fnAttrs.addMemoryAttr(MemoryEffects::argMemOnly());
  AttrBuilder sizeAttrs(ctx), ptrAttrs(ctx);
  sizeAttrs.addAttribute(Attribute::ImmArg);
  ptrAttrs.addCapturesAttr(CaptureInfo::none());
  AttributeList attrs = AttributeList::get(
      ctx, AttributeSet::get(ctx, fnAttrs), AttributeSet(),
      {AttributeSet::get(ctx, sizeAttrs), AttributeSet::get(ctx, ptrAttrs)});
  resignIntrinsic(decl, type, attrs, [&](CallInst &call, IRBuilder<> &) {
    Value *ptr = call.getArgOperand(0);
    int64_t size = -1;
    if (auto *alloca = dyn_cast<AllocaInst>(ptr->stripPointerCasts()))
      if (std::optional<TypeSize> bytes = alloca->getAllocationSize(dl))
        if (!bytes->isScalable())
          size = static_cast<int64_t>(bytes->getFixedValue());
    return SmallVector<Value *>{ConstantInt::getSigned(i64, size), ptr};
  });
}

/// Masked memory intrinsics took their alignment as an i32 argument (at
/// `alignPos`) until LLVM 22 moved it to an `align` attribute on the pointer
/// argument (at `ptrPos`).
void resignMasked(Function &decl, unsigned ptrPos, unsigned alignPos) {
  LLVMContext &ctx = decl.getContext();
  Type *i32 = Type::getInt32Ty(ctx);
  SmallVector<Type *> params(decl.getFunctionType()->params());
  params.insert(params.begin() + alignPos, i32);
  auto *type =
      FunctionType::get(decl.getReturnType(), params, /*isVarArg=*/false);
  AttributeList old = decl.getAttributes();
  SmallVector<AttributeSet> paramAttrs;
  for (unsigned i = 0, e = decl.arg_size(); i < e; ++i)
    paramAttrs.push_back(old.getParamAttrs(i).removeAttribute(
        ctx, Attribute::Alignment));
  AttrBuilder immArg(ctx);
  immArg.addAttribute(Attribute::ImmArg);
  paramAttrs.insert(paramAttrs.begin() + alignPos,
                    AttributeSet::get(ctx, immArg));
  AttributeList attrs =
      AttributeList::get(ctx, old.getFnAttrs(), old.getRetAttrs(), paramAttrs);
  resignIntrinsic(decl, type, attrs, [&](CallInst &call, IRBuilder<> &) {
    MaybeAlign align = call.getParamAlign(ptrPos);
    SmallVector<Value *> args(call.args());
    args.insert(args.begin() + alignPos,
                ConstantInt::get(i32, align ? align->value() : 1));
    return args;
  });
}

/// `llvm.scmp`/`llvm.ucmp` (LLVM 19) -> zext(a > b) - zext(a < b).
void expandThreeWayCompare(Function &decl, bool isSigned) {
  for (User *user : make_early_inc_range(decl.users())) {
    auto *call = cast<CallInst>(user);
    IRBuilder<> builder(call);
    Value *lhs = call->getArgOperand(0), *rhs = call->getArgOperand(1);
    Value *greater = builder.CreateICmp(
        isSigned ? CmpInst::ICMP_SGT : CmpInst::ICMP_UGT, lhs, rhs);
    Value *less = builder.CreateICmp(
        isSigned ? CmpInst::ICMP_SLT : CmpInst::ICMP_ULT, lhs, rhs);
    Type *type = call->getType();
    Value *result = builder.CreateSub(builder.CreateZExt(greater, type),
                                      builder.CreateZExt(less, type));
    result->takeName(call);
    call->replaceAllUsesWith(result);
    call->eraseFromParent();
  }
  decl.eraseFromParent();
}

/// x * 2^n computed exactly for an IEEE type with exponent bias `bias` and
/// `mantissa` stored mantissa bits: musl's scalbn, with selects for its
/// branches. Big scales are applied in steps of 2^bias, small ones in steps
/// of 2^(1-bias+mantissa+1), which keep the intermediates from rounding
/// before the final multiplication.
Value *emitScalbn(IRBuilder<> &builder, Value *x, Value *n, int bias,
                  int mantissa) {
  Type *type = x->getType();
  Type *expType = n->getType();
  auto expConst = [&](int64_t v) {
    return ConstantInt::getSigned(expType, v);
  };
  int minExp = 1 - bias;
  int smallStep = -minExp - (mantissa + 1);
  Constant *big = ConstantFP::get(type, std::ldexp(1.0, bias));
  Constant *small = ConstantFP::get(type, std::ldexp(1.0, -smallStep));
  auto step = [&](Value *&y, Value *&e, bool up) {
    Value *cond = up ? builder.CreateICmpSGT(e, expConst(bias))
                     : builder.CreateICmpSLT(e, expConst(minExp));
    y = builder.CreateSelect(cond, builder.CreateFMul(y, up ? big : small), y);
    e = builder.CreateSelect(
        cond, builder.CreateAdd(e, expConst(up ? -bias : smallStep)), e);
  };
  Value *y = x, *e = n;
  step(y, e, /*up=*/true);
  step(y, e, /*up=*/true);
  step(y, e, /*up=*/false);
  step(y, e, /*up=*/false);
  e = builder.CreateBinaryIntrinsic(Intrinsic::smin, e, expConst(bias));
  e = builder.CreateBinaryIntrinsic(Intrinsic::smax, e, expConst(minExp));
  // 2^e built from its bits: e + bias is a normal exponent field.
  unsigned bits = type->getScalarSizeInBits();
  Type *intType = type->getWithNewType(builder.getIntNTy(bits));
  Value *field = builder.CreateZExtOrTrunc(
      builder.CreateAdd(e, expConst(bias)), intType);
  Value *scale = builder.CreateBitCast(
      builder.CreateShl(field, ConstantInt::get(intType, mantissa)), type);
  return builder.CreateFMul(y, scale);
}

/// `llvm.ldexp` (LLVM 16; InstCombine forms it from x * exp2(sitofp n)).
/// half and bfloat go through float, where the result is exact.
Error expandLdexp(Function &decl) {
  Type *type = decl.getReturnType();
  Type *scalar = type->getScalarType();
  if (!scalar->isHalfTy() && !scalar->isBFloatTy() && !scalar->isFloatTy() &&
      !scalar->isDoubleTy())
    return createStringError(inconvertibleErrorCode(),
                             "intrinsic '" + decl.getName() +
                                 "' has no LLVM 14 equivalent");
  for (User *user : make_early_inc_range(decl.users())) {
    auto *call = cast<CallInst>(user);
    IRBuilder<> builder(call);
    Value *x = call->getArgOperand(0), *n = call->getArgOperand(1);
    Value *result;
    if (scalar->isDoubleTy()) {
      result = emitScalbn(builder, x, n, 1023, 52);
    } else if (scalar->isFloatTy()) {
      result = emitScalbn(builder, x, n, 127, 23);
    } else {
      Type *floatType = type->getWithNewType(builder.getFloatTy());
      result = builder.CreateFPTrunc(
          emitScalbn(builder, builder.CreateFPExt(x, floatType), n, 127, 23),
          type);
    }
    result->takeName(call);
    call->replaceAllUsesWith(result);
    call->eraseFromParent();
  }
  decl.eraseFromParent();
  return Error::success();
}

/// `llvm.is.fpclass` (LLVM 16; InstCombine forms it from fcmp chains such as
/// isinf || isnan) -> integer tests on the bits, exact for every class.
Error expandIsFPClass(Function &decl) {
  Type *valueType = decl.getFunctionType()->getParamType(0);
  Type *scalar = valueType->getScalarType();
  if (!scalar->isIEEELikeFPTy())
    return createStringError(inconvertibleErrorCode(),
                             "intrinsic '" + decl.getName() +
                                 "' has no LLVM 14 equivalent");
  const fltSemantics &sem = scalar->getFltSemantics();
  unsigned width = scalar->getPrimitiveSizeInBits();
  APInt inf = APFloat::getInf(sem).bitcastToAPInt();
  APInt quiet = APFloat::getQNaN(sem).bitcastToAPInt();
  APInt minNormal = APFloat::getSmallestNormalized(sem).bitcastToAPInt();
  APInt signMask = APInt::getSignMask(width);
  for (User *user : make_early_inc_range(decl.users())) {
    auto *call = cast<CallInst>(user);
    auto mask = static_cast<FPClassTest>(
        cast<ConstantInt>(call->getArgOperand(1))->getZExtValue());
    IRBuilder<> b(call);
    Type *intType = valueType->getWithNewType(b.getIntNTy(width));
    auto c = [&](const APInt &v) { return ConstantInt::get(intType, v); };
    Value *bits = b.CreateBitCast(call->getArgOperand(0), intType);
    Value *abs = b.CreateAnd(bits, c(~signMask));
    Value *negative = b.CreateICmpSLT(bits, ConstantInt::get(intType, 0));
    Value *positive = b.CreateNot(negative);
    Value *isNaN = b.CreateICmpUGT(abs, c(inf));
    Value *isQNaN = b.CreateICmpUGE(abs, c(quiet));
    // Each class with the sign condition it needs, or none for NaNs.
    struct Class {
      FPClassTest test;
      Value *cond;
      Value *sign;
    };
    Value *isInf = b.CreateICmpEQ(abs, c(inf));
    Value *isZero = b.CreateICmpEQ(abs, ConstantInt::get(intType, 0));
    Value *isSub = b.CreateICmpULT(b.CreateSub(abs, ConstantInt::get(intType, 1)),
                                   c(minNormal - 1));
    Value *isNormal = b.CreateICmpULT(b.CreateSub(abs, c(minNormal)),
                                      c(inf - minNormal));
    Class classes[] = {
        {fcSNan, b.CreateAnd(isNaN, b.CreateNot(isQNaN)), nullptr},
        {fcQNan, isQNaN, nullptr},
        {fcNegInf, isInf, negative},
        {fcPosInf, isInf, positive},
        {fcNegNormal, isNormal, negative},
        {fcPosNormal, isNormal, positive},
        {fcNegSubnormal, isSub, negative},
        {fcPosSubnormal, isSub, positive},
        {fcNegZero, isZero, negative},
        {fcPosZero, isZero, positive}};
    Value *result = ConstantInt::getFalse(call->getType());
    for (const Class &cls : classes)
      if (mask & cls.test)
        result = b.CreateOr(result, cls.sign ? b.CreateAnd(cls.cond, cls.sign)
                                             : cls.cond);
    result->takeName(call);
    call->replaceAllUsesWith(result);
    call->eraseFromParent();
  }
  decl.eraseFromParent();
  return Error::success();
}

Error rewriteIntrinsics(Module &module) {
  // Resigning appends declarations: walk a snapshot.
  SmallVector<Function *> intrinsics;
  for (Function &func : module)
    if (func.isIntrinsic() && !func.getName().starts_with("llvm.musa."))
      intrinsics.push_back(&func);
  for (Function *declPtr : intrinsics) {
    Function &decl = *declPtr;
    switch (decl.getIntrinsicID()) {
    case Intrinsic::lifetime_start:
    case Intrinsic::lifetime_end:
      resignLifetime(decl);
      continue;
    case Intrinsic::masked_load:
    case Intrinsic::masked_gather:
      resignMasked(decl, /*ptrPos=*/0, /*alignPos=*/1);
      continue;
    case Intrinsic::masked_store:
    case Intrinsic::masked_scatter:
      resignMasked(decl, /*ptrPos=*/1, /*alignPos=*/2);
      continue;
    case Intrinsic::scmp:
      expandThreeWayCompare(decl, /*isSigned=*/true);
      continue;
    case Intrinsic::ucmp:
      expandThreeWayCompare(decl, /*isSigned=*/false);
      continue;
    case Intrinsic::ldexp:
      if (Error error = expandLdexp(decl))
        return error;
      continue;
    case Intrinsic::is_fpclass:
      if (Error error = expandIsFPClass(decl))
        return error;
      continue;
    default:
      break;
    }
    if (decl.use_empty()) {
      decl.eraseFromParent();
      continue;
    }
    if (!isLLVM14Intrinsic(decl.getName()))
      return createStringError(inconvertibleErrorCode(),
                               "intrinsic '" + decl.getName() +
                                   "' has no LLVM 14 equivalent");
  }
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Instruction flags
//===----------------------------------------------------------------------===//

/// LLVM 14 knows only `inbounds` among the GEP flags.
GEPNoWrapFlags llvm14GEPFlags(GEPNoWrapFlags flags) {
  return flags.isInBounds() ? GEPNoWrapFlags::inBounds()
                            : GEPNoWrapFlags::none();
}

Error clearNewInstructionFlags(Module &module) {
  for (Function &func : module) {
    for (Instruction &inst : instructions(func)) {
      if (isa<ZExtInst, UIToFPInst>(inst))
        inst.setNonNeg(false);
      else if (auto *disjoint = dyn_cast<PossiblyDisjointInst>(&inst))
        disjoint->setIsDisjoint(false);
      else if (auto *icmp = dyn_cast<ICmpInst>(&inst))
        icmp->setSameSign(false);
      else if (isa<TruncInst>(inst)) {
        inst.setHasNoUnsignedWrap(false);
        inst.setHasNoSignedWrap(false);
      } else if (auto *gep = dyn_cast<GetElementPtrInst>(&inst))
        gep->setNoWrapFlags(llvm14GEPFlags(gep->getNoWrapFlags()));
      else if (isa<FPTruncInst, FPExtInst>(inst))
        inst.setFastMathFlags(FastMathFlags());
      else if (auto *rmw = dyn_cast<AtomicRMWInst>(&inst)) {
        if (rmw->getOperation() > AtomicRMWInst::FSub)
          return createStringError(
              inconvertibleErrorCode(),
              "atomicrmw " +
                  AtomicRMWInst::getOperationName(rmw->getOperation()) +
                  " has no LLVM 14 equivalent");
      }
      // Debug records print as `#dbg_*` lines LLVM 14 cannot read.
      inst.dropDbgRecords();
    }
  }
  return Error::success();
}

/// Constant GEP expressions with flags beyond `inbounds` or an `inrange`,
/// innermost first, so that rebuilding one never invalidates another.
void collectNewConstantGEPs(Constant *constant,
                            SmallPtrSetImpl<Constant *> &visited,
                            SetVector<ConstantExpr *> &found) {
  if (!visited.insert(constant).second)
    return;
  for (Value *operand : constant->operands())
    if (auto *inner = dyn_cast<Constant>(operand))
      collectNewConstantGEPs(inner, visited, found);
  auto *gep = dyn_cast<GEPOperator>(constant);
  if (!gep || !isa<ConstantExpr>(constant))
    return;
  if (gep->getNoWrapFlags() != llvm14GEPFlags(gep->getNoWrapFlags()) ||
      gep->getInRange())
    found.insert(cast<ConstantExpr>(constant));
}

void clearNewConstantFlags(Module &module) {
  SmallPtrSet<Constant *, 32> visited;
  SetVector<ConstantExpr *> found;
  for (GlobalVariable &global : module.globals())
    if (global.hasInitializer())
      collectNewConstantGEPs(global.getInitializer(), visited, found);
  for (Function &func : module)
    for (Instruction &inst : instructions(func))
      for (Value *operand : inst.operands())
        if (auto *constant = dyn_cast<Constant>(operand);
            constant && !isa<GlobalValue>(constant))
          collectNewConstantGEPs(constant, visited, found);
  for (ConstantExpr *expr : found) {
    auto *gep = cast<GEPOperator>(expr);
    SmallVector<Constant *> indices;
    for (Value *index : gep->indices())
      indices.push_back(cast<Constant>(index));
    Constant *replacement = ConstantExpr::getGetElementPtr(
        gep->getSourceElementType(), cast<Constant>(gep->getPointerOperand()),
        indices, llvm14GEPFlags(gep->getNoWrapFlags()));
    expr->replaceAllUsesWith(replacement);
  }
}

//===----------------------------------------------------------------------===//
// Attributes and metadata
//===----------------------------------------------------------------------===//

/// The smallest effect LLVM 14 can spell that contains `effects`: one
/// mod/ref kind over all memory, argument memory, inaccessible memory, or
/// both of the latter.
MemoryEffects llvm14MemoryEffects(MemoryEffects effects) {
  ModRefInfo all = effects.getModRef();
  bool otherLocations = false;
  for (IRMemLocation loc : MemoryEffects::locations())
    if (loc != IRMemLocation::ArgMem && loc != IRMemLocation::InaccessibleMem &&
        isModOrRefSet(effects.getModRef(loc)))
      otherLocations = true;
  if (all == ModRefInfo::NoModRef)
    return MemoryEffects::none();
  if (otherLocations)
    return MemoryEffects(all);
  bool arg = isModOrRefSet(effects.getModRef(IRMemLocation::ArgMem));
  bool inaccessible =
      isModOrRefSet(effects.getModRef(IRMemLocation::InaccessibleMem));
  if (arg && inaccessible)
    return MemoryEffects::inaccessibleOrArgMemOnly(all);
  return arg ? MemoryEffects::argMemOnly(all)
             : MemoryEffects::inaccessibleMemOnly(all);
}

AttributeSet legalizeAttributes(LLVMContext &ctx, AttributeSet attrs) {
  AttrBuilder builder(ctx);
  for (Attribute attr : attrs) {
    if (attr.isStringAttribute()) {
      builder.addAttribute(attr);
      continue;
    }
    Attribute::AttrKind kind = attr.getKindAsEnum();
    if (kind == Attribute::Memory) {
      MemoryEffects effects = llvm14MemoryEffects(attr.getMemoryEffects());
      if (effects != MemoryEffects::unknown())
        builder.addMemoryAttr(effects);
    } else if (kind == Attribute::Captures) {
      // Only `captures(none)` has an LLVM 14 spelling (nocapture).
      if (attr.getCaptureInfo() == CaptureInfo::none())
        builder.addAttribute(attr);
    } else if (kind == Attribute::UWTable) {
      builder.addUWTableAttr(UWTableKind::Default);
    } else if (llvm14Attributes().contains(
                   Attribute::getNameFromAttrKind(kind))) {
      builder.addAttribute(attr);
    }
  }
  return AttributeSet::get(ctx, builder);
}

AttributeList legalizeAttributes(LLVMContext &ctx, AttributeList list,
                                 unsigned numParams) {
  SmallVector<AttributeSet> params;
  for (unsigned i = 0; i < numParams; ++i)
    params.push_back(legalizeAttributes(ctx, list.getParamAttrs(i)));
  return AttributeList::get(ctx, legalizeAttributes(ctx, list.getFnAttrs()),
                            legalizeAttributes(ctx, list.getRetAttrs()),
                            params);
}

void dropNewMetadata(Module &module) {
  SmallVector<StringRef> kindNames;
  module.getContext().getMDKindNames(kindNames);
  auto dropFrom = [&](auto &holder) {
    SmallVector<std::pair<unsigned, MDNode *>> attached;
    holder.getAllMetadata(attached);
    for (auto [kind, node] : attached)
      if (post14MetadataKinds().contains(kindNames[kind]))
        holder.setMetadata(kind, nullptr);
  };
  for (GlobalVariable &global : module.globals())
    dropFrom(global);
  for (Function &func : module) {
    dropFrom(func);
    for (Instruction &inst : instructions(func))
      dropFrom(inst);
  }
}

void legalizeAllAttributes(Module &module) {
  LLVMContext &ctx = module.getContext();
  for (Function &func : module) {
    func.setAttributes(
        legalizeAttributes(ctx, func.getAttributes(), func.arg_size()));
    for (Instruction &inst : instructions(func))
      if (auto *call = dyn_cast<CallBase>(&inst))
        call->setAttributes(legalizeAttributes(ctx, call->getAttributes(),
                                               call->arg_size()));
  }
}

} // namespace

Error mlir::triton_musa::makeLLVM14Compatible(Module &module) {
  if (Error error = rewriteIntrinsics(module))
    return error;
  if (Error error = clearNewInstructionFlags(module))
    return error;
  clearNewConstantFlags(module);
  legalizeAllAttributes(module);
  dropNewMetadata(module);
  return Error::success();
}
