//===- MUSAIntrinsics.cpp - The table of llvm.musa.* intrinsics -----------===//
//
// Spellings from the public record (test/data/MUSA-INTRINSICS.txt, a copy of
// MUSA-INTRINSICS.txt; its source tags FT36, FT32, XLA are explained there).
//
// Attributes: `ReadNone` for what only reads ids or computes from its
// operands (may be merged, hoisted, dropped when unused); `Convergent` for
// everything else. Barriers, shuffles, votes and squad MMA involve other
// threads; the TME, async-barrier and g2s-copy intrinsics are marked the
// same because nothing public says they do not (over-marking only costs
// optimization, never correctness).
//
//===----------------------------------------------------------------------===//

#include "target/MUSAIntrinsics.h"

#include "catalogue/MatrixInstrs.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace mlir;
using namespace mlir::triton_musa;

namespace {

using Signature = MUSAIntrinsicSignature;
using SignatureResult = FailureOr<Signature>;

Type i1(MLIRContext *ctx) { return IntegerType::get(ctx, 1); }
Type i8(MLIRContext *ctx) { return IntegerType::get(ctx, 8); }
Type i16(MLIRContext *ctx) { return IntegerType::get(ctx, 16); }
Type i32(MLIRContext *ctx) { return IntegerType::get(ctx, 32); }
Type i64(MLIRContext *ctx) { return IntegerType::get(ctx, 64); }
Type f32(MLIRContext *ctx) { return Float32Type::get(ctx); }
Type ptr(MLIRContext *ctx, unsigned addressSpace) {
  return LLVM::LLVMPointerType::get(ctx, addressSpace);
}
/// One i32 for a single word, else `<words x i32>`.
Type i32Words(MLIRContext *ctx, int64_t words) {
  if (words == 1)
    return i32(ctx);
  return VectorType::get({words}, i32(ctx));
}

/// The decimal parameter `name` of an instance, if it is a positive number.
std::optional<unsigned> number(const IntrinsicParams &params, StringRef name) {
  auto it = params.find(name);
  unsigned value;
  if (it == params.end() || StringRef(it->second).getAsInteger(10, value) ||
      value == 0)
    return std::nullopt;
  return value;
}

StringRef param(const IntrinsicParams &params, StringRef name) {
  auto it = params.find(name);
  return it == params.end() ? StringRef() : StringRef(it->second);
}

SignatureResult fail(std::string &why, const Twine &reason) {
  why = reason.str();
  return failure();
}

/// A signature of only i32 operands.
Signature i32s(MLIRContext *ctx, Type result, unsigned count) {
  return Signature{result, SmallVector<Type>(count, i32(ctx))};
}

//===----------------------------------------------------------------------===//
// Signatures of the entries
//===----------------------------------------------------------------------===//

SignatureResult voidNoOperands(MLIRContext *, const IntrinsicParams &,
                               const MUSAArchInfo &, std::string &) {
  return Signature{};
}

SignatureResult specialRegister(MLIRContext *ctx, const IntrinsicParams &p,
                                const MUSAArchInfo &, std::string &why) {
  StringRef reg = param(p, "reg"), dim = param(p, "dim");
  if (!llvm::is_contained({"tid", "ctaid", "nctaid"}, reg))
    return fail(why, "special register '" + reg +
                         "' is not one we read (tid, ctaid, nctaid)");
  if (!llvm::is_contained({"x", "y", "z"}, dim))
    return fail(why, "dimension '" + dim + "' is not x, y or z");
  return Signature{i32(ctx), {}};
}

SignatureResult shuffle(MLIRContext *ctx, const IntrinsicParams &p,
                        const MUSAArchInfo &, std::string &why) {
  StringRef kind = param(p, "kind");
  if (!llvm::is_contained({"xor", "up", "down", "idx"}, kind))
    return fail(why, "shuffle kind '" + kind + "' is not xor, up, down or idx");
  // value, lane mask / delta / source lane, mask-and-clamp, i1 out-slot.
  return Signature{i32(ctx), {i32(ctx), i32(ctx), i32(ctx), ptr(ctx, 5)}};
}

SignatureResult ballot(MLIRContext *ctx, const IntrinsicParams &,
                       const MUSAArchInfo &arch, std::string &) {
  return Signature{IntegerType::get(ctx, arch.ballotBits), {i1(ctx)}};
}

SignatureResult copyGlobalToShared(MLIRContext *ctx, const IntrinsicParams &,
                                   const MUSAArchInfo &, std::string &) {
  // dst, src, bytes, prefetch size.
  return Signature{Type(), {ptr(ctx, 3), ptr(ctx, 1), i32(ctx), i32(ctx)}};
}

/// The rank `<N>` of a TME transfer: 1..5.
FailureOr<unsigned> tmeRank(const IntrinsicParams &p, std::string &why) {
  std::optional<unsigned> rank = number(p, "N");
  if (!rank || *rank > 5) {
    why = ("TME transfers have rank 1..5, not '" + param(p, "N") + "'").str();
    return failure();
  }
  return *rank;
}

SignatureResult tmeLoad(MLIRContext *ctx, const IntrinsicParams &p,
                        const MUSAArchInfo &, std::string &why) {
  FailureOr<unsigned> rank = tmeRank(p, why);
  if (failed(rank))
    return failure();
  Type dims = i32Words(ctx, *rank);
  // barrier, shared dst, descriptor address, box, position, swizzle
  // granularity/stride/line, prefetch, inner/outer persistence, L2 policy.
  Signature s{Type(), {i32(ctx), ptr(ctx, 3), i64(ctx), dims, dims}};
  s.operands.append(7, i32(ctx));
  return s;
}

SignatureResult tmeStore(MLIRContext *ctx, const IntrinsicParams &p,
                         const MUSAArchInfo &, std::string &why) {
  FailureOr<unsigned> rank = tmeRank(p, why);
  if (failed(rank))
    return failure();
  Type dims = i32Words(ctx, *rank);
  // shared src, descriptor address, box, position, swizzle
  // granularity/stride/line, inner/outer persistence, L2 policy.
  Signature s{Type(), {ptr(ctx, 3), i64(ctx), dims, dims}};
  s.operands.append(6, i32(ctx));
  return s;
}

template <unsigned Count>
SignatureResult voidOfI32s(MLIRContext *ctx, const IntrinsicParams &,
                           const MUSAArchInfo &, std::string &) {
  return i32s(ctx, Type(), Count);
}

SignatureResult sqmmaDescriptor(MLIRContext *ctx, const IntrinsicParams &p,
                                const MUSAArchInfo &, std::string &why) {
  // The first operand is the element loaded from the tile start.
  StringRef elem = param(p, "elem");
  Type first = llvm::StringSwitch<Type>(elem)
                   .Case("half", i16(ctx))
                   .Case("fp32", f32(ctx))
                   .Case("i8", i8(ctx))
                   .Default(Type());
  if (!first)
    return fail(why, "SQMMA descriptor element '" + elem +
                         "' is not half, fp32 or i8");
  // leading width in bytes, swizzle granularity, swizzle stride.
  return Signature{i32(ctx), {first, i32(ctx), i32(ctx), i32(ctx)}};
}

/// M, N, K of a `m<M>n<N>k<K>` instance.
LogicalResult shape(const IntrinsicParams &p, unsigned &m, unsigned &n,
                    unsigned &k, std::string &why) {
  std::optional<unsigned> pm = number(p, "M"), pn = number(p, "N"),
                          pk = number(p, "K");
  if (!pm || !pn || !pk) {
    why = "M, N and K must be positive numbers";
    return failure();
  }
  m = *pm, n = *pn, k = *pk;
  return success();
}

SignatureResult sqmma(MLIRContext *ctx, const IntrinsicParams &p,
                      const MUSAArchInfo &, std::string &why) {
  StringRef tag = param(p, "tag");
  if (!musagpu::getIntrinsicTagKind(musagpu::MatrixUnitKind::SQMMA, tag))
    return fail(why, "SQMMA type '" + tag + "' is not one of " +
                         musagpu::describeIntrinsicTags(
                             musagpu::MatrixUnitKind::SQMMA));
  unsigned m, n, k;
  if (failed(shape(p, m, n, k, why)))
    return failure();
  // A squad of 128 threads holds the m x n accumulator, one word per element.
  if (m * n % 128)
    return fail(why, "an SQMMA accumulator of " + Twine(m) + " x " + Twine(n) +
                         " does not split over the 128 threads of a squad");
  Type acc = VectorType::get({int64_t(m * n / 128)}, i32(ctx));
  // descA, descB, acc, transA, transB, negA, negB, scaleOut, sat, stepA,
  // stepB, stepC.
  Signature s{acc, {i32(ctx), i32(ctx), acc}};
  s.operands.append(9, i32(ctx));
  return s;
}

SignatureResult wmma(MLIRContext *ctx, const IntrinsicParams &p,
                     const MUSAArchInfo &arch, std::string &why) {
  StringRef tag = param(p, "tag");
  std::optional<musagpu::MmaElementKind> kind =
      musagpu::getIntrinsicTagKind(musagpu::MatrixUnitKind::WMMA, tag);
  if (!kind)
    return fail(why, "WMMA type '" + tag + "' is not one of " +
                         musagpu::describeIntrinsicTags(
                             musagpu::MatrixUnitKind::WMMA));
  unsigned bits = musagpu::getMmaElementBits(*kind);
  bool fp8 = *kind == musagpu::MmaElementKind::E4M3 ||
             *kind == musagpu::MmaElementKind::E5M2;
  unsigned m, n, k;
  if (failed(shape(p, m, n, k, why)))
    return failure();
  // The fragments of a warp, packed into i32 words (accumulators f32/s32).
  unsigned warp = arch.warpSize;
  if (m * k * bits % (32 * warp) || n * k * bits % (32 * warp) ||
      m * n % warp)
    return fail(why, "the operands of m" + Twine(m) + "n" + Twine(n) + "k" +
                         Twine(k) + " do not split into whole words over " +
                         Twine(warp) + " lanes");
  Type c = i32Words(ctx, m * n / warp);
  // A, B, C, sat, fmt, layout [, scaleA, scaleB, scaleInfo for fp8].
  Signature s{c,
              {i32Words(ctx, m * k * bits / 32 / warp),
               i32Words(ctx, n * k * bits / 32 / warp), c}};
  s.operands.append(fp8 ? 6 : 3, i32(ctx));
  return s;
}

SignatureResult floatToFloat(MLIRContext *ctx, const IntrinsicParams &,
                             const MUSAArchInfo &, std::string &) {
  return Signature{f32(ctx), {f32(ctx)}};
}

using CK = CalleeKind;

// clang-format off
const MUSAIntrinsicEntry kEntries[] = {
    // pattern, kind, sharedMemoryFromZero, evidence, deviation, signature
    {"llvm.musa.read.ptx.sreg.<reg>.<dim>", CK::ReadNone, false,
     "FT36 ThreadIdOpToLLVM.cpp, Utility.cpp, SPMDOpToLLVM.cpp; XLA", "",
     specialRegister},
    {"llvm.musa.barrier0", CK::Convergent, false, "FT36 TargetInfo.cpp; XLA",
     "", voidNoOperands},
    {"llvm.musa.syncthreads.lm", CK::Convergent, false,
     "FT36 TargetInfo.cpp, BarrierOpToLLVM.cpp", "", voidNoOperands},
    {"llvm.musa.syncwarp", CK::Convergent, false, "FT36 TargetInfo.cpp", "",
     voidNoOperands},
    {"llvm.musa.shfl.<kind>.sync.i32", CK::Convergent, false,
     "FT36 Utility.cpp shuffleCommon", "", shuffle},
    {"llvm.musa.vote.ballot.sync", CK::Convergent, false,
     "FT36 TargetInfo.cpp ballot (PH1: -> i32)",
     "the result has the architecture's ballot bits (MUSAArch.cpp): i32 on "
     "PH1 as the record says; i128 on QY2, whose warp has 128 lanes (no "
     "public source spells QY2's ballot; inferred from the warp size)",
     ballot},
    {"llvm.musa.memcpy.g2s", CK::Convergent, false,
     "FT36 LoadStoreOpToLLVM.cpp AsyncCopyGlobalToLocal", "",
     copyGlobalToShared},
    {"llvm.musa.memcpy.g2s.wait", CK::Convergent, false,
     "FT36 LoadStoreOpToLLVM.cpp AsyncWaitOp", "", voidNoOperands},
    {"llvm.musa.tme.ld.tile.<N>d", CK::Convergent, false,
     "FT36 MUSAOpsToLLVM.cpp; FT32", "", tmeLoad},
    {"llvm.musa.tme.st.<N>d", CK::Convergent, false,
     "FT36 MUSAOpsToLLVM.cpp; FT32", "", tmeStore},
    {"llvm.musa.tme.store.commit", CK::Convergent, false,
     "FT36 TMEStoreCommitOp", "", voidNoOperands},
    {"llvm.musa.tme.store.read.wait", CK::Convergent, false,
     "FT36 TMEStoreReadWaitOp", "", voidNoOperands},
    {"llvm.musa.async.bar.record", CK::Convergent, false,
     "FT36 MUSAOpsToLLVM.cpp BarRecordOp", "", voidOfI32s<1>},
    {"llvm.musa.async.init.arrival", CK::Convergent, false,
     "FT36 MUSAOpsToLLVM.cpp InitArrivalOp", "", voidOfI32s<3>},
    {"llvm.musa.async.add.trans", CK::Convergent, false,
     "FT36 MUSAOpsToLLVM.cpp BarrierAddTransOp", "", voidOfI32s<2>},
    {"llvm.musa.async.arrive.none.phaseid", CK::Convergent, false,
     "FT36 ArriveBarrierNoRetOp", "", voidOfI32s<1>},
    {"llvm.musa.async.wait", CK::Convergent, false, "FT36 WaitBarrierOp", "",
     voidOfI32s<2>},
    // The descriptor is computed from its operands only: side-effect free.
    {"llvm.musa.sqmma.desc.<elem>", CK::ReadNone, true,
     "FT36 DotOpToLLVM/SQMMA.cpp", "", sqmmaDescriptor},
    {"llvm.musa.sqmma.<tag>.m<M>n<N>k<K>.mma", CK::Convergent, true,
     "FT36 SQMMA.cpp, MMAContractUtils.h lookupSqmmaIntrinsic", "", sqmma},
    {"llvm.musa.sqmma.wait", CK::Convergent, false,
     "FT36 MTGPUToLLVMPass.cpp; the llc ABI probe (no operand)", "",
     voidNoOperands},
    {"llvm.musa.<tag>.m<M>n<N>k<K>.mma", CK::Convergent, false,
     "FT36 MMAContractUtils.h kWmmaIntrinsics, DotOpToLLVM/WMMA.cpp; FT32",
     "", wmma},
    // Emitted by tt.extern_elementwise for triton_musa.language.libdevice's
    // fp32 rsqrt; a pure function of its operand.
    {"llvm.musa.rsq", CK::ReadNone, false, "FT36 language/musa/libdevice.py",
     "", floatToFloat},
};
// clang-format on

/// Matches `name` against `pattern`, binding each `<param>` to the text up
/// to the literal that follows it (or to the end).
bool matchPattern(StringRef pattern, StringRef name, IntrinsicParams &params) {
  while (!pattern.empty()) {
    size_t open = pattern.find('<');
    StringRef literal = pattern.take_front(open);
    if (!name.consume_front(literal))
      return false;
    if (open == StringRef::npos)
      return name.empty();
    size_t close = pattern.find('>', open);
    StringRef key = pattern.slice(open + 1, close);
    pattern = pattern.drop_front(close + 1);
    // The value runs to the next literal character (the table has no two
    // placeholders side by side).
    size_t end = pattern.empty() ? name.size() : name.find(pattern.front());
    if (end == 0 || end == StringRef::npos)
      return false;
    params[key] = name.take_front(end).str();
    name = name.drop_front(end);
  }
  return name.empty();
}

} // namespace

ArrayRef<MUSAIntrinsicEntry> mlir::triton_musa::getMUSAIntrinsicEntries() {
  return kEntries;
}

FailureOr<MUSAIntrinsic>
mlir::triton_musa::lookupMUSAIntrinsic(MLIRContext *ctx, StringRef name,
                                       const MUSAArchInfo &arch,
                                       std::string &why) {
  std::string familyWhy;
  for (const MUSAIntrinsicEntry &entry : kEntries) {
    IntrinsicParams params;
    if (!matchPattern(entry.pattern, name, params))
      continue;
    std::string reason;
    FailureOr<Signature> signature =
        entry.signature(ctx, params, arch, reason);
    if (succeeded(signature))
      return MUSAIntrinsic{&entry, std::move(*signature)};
    if (familyWhy.empty())
      familyWhy = ("it is named like '" + entry.pattern + "', but " + reason)
                      .str();
  }
  why = familyWhy.empty()
            ? "no entry of the MUSA intrinsic table "
              "(target/MUSAIntrinsics.cpp) has that name"
            : familyWhy;
  return failure();
}

LLVM::LLVMFunctionType
mlir::triton_musa::getFunctionType(MLIRContext *ctx,
                                   const MUSAIntrinsicSignature &signature) {
  Type result =
      signature.result ? signature.result : LLVM::LLVMVoidType::get(ctx);
  return LLVM::LLVMFunctionType::get(result, signature.operands);
}

std::string mlir::triton_musa::getLLVMTypeSpelling(Type type) {
  if (!type || isa<LLVM::LLVMVoidType>(type))
    return "void";
  if (auto vector = dyn_cast<VectorType>(type))
    return "<" + std::to_string(vector.getNumElements()) + " x " +
           getLLVMTypeSpelling(vector.getElementType()) + ">";
  if (auto pointer = dyn_cast<LLVM::LLVMPointerType>(type))
    return pointer.getAddressSpace() == 0
               ? std::string("ptr")
               : "ptr addrspace(" +
                     std::to_string(pointer.getAddressSpace()) + ")";
  if (type.isF16())
    return "half";
  if (type.isBF16())
    return "bfloat";
  if (type.isF32())
    return "float";
  if (type.isF64())
    return "double";
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

FailureOr<Value> mlir::triton_musa::callMUSAIntrinsic(OpBuilder &b,
                                                      Location loc,
                                                      const MUSAArchInfo &arch,
                                                      StringRef name,
                                                      ValueRange args) {
  std::string why;
  FailureOr<MUSAIntrinsic> intrinsic =
      lookupMUSAIntrinsic(b.getContext(), name, arch, why);
  if (failed(intrinsic))
    return emitError(loc) << "cannot call '" << name << "' on " << arch.name
                          << ": " << why;
  const SmallVector<Type> &operands = intrinsic->signature.operands;
  if (args.size() != operands.size())
    return emitError(loc) << "'" << name << "' takes " << operands.size()
                          << " operands (target/MUSAIntrinsics.cpp), not "
                          << args.size();
  for (auto [i, arg, expected] : llvm::enumerate(args, operands))
    if (arg.getType() != expected)
      return emitError(loc) << "operand " << i << " of '" << name << "' is "
                            << arg.getType() << ", the MUSA intrinsic table "
                            << "(target/MUSAIntrinsics.cpp) says " << expected;
  if (intrinsic->entry->sharedMemoryFromZero)
    getParentModule(b)->setAttr(kSharedMemoryFromZeroAttrName,
                                b.getUnitAttr());
  Value result = callFunction(b, loc, name, intrinsic->signature.result, args,
                              intrinsic->entry->kind);
  // A symbol of that name with another type was reported by callFunction.
  if (!result && intrinsic->signature.result)
    return failure();
  return result;
}
