//===- DotOpToLLVM.cpp - tt.dot on the FMA path -> LLVM ------------------===//
//
// The FMA path: A and B are in #ttg.dot_op layouts whose parent is the
// #ttg.blocked layout of the accumulator. Such an operand layout gives each
// thread, for every (batch, m) (resp. (batch, n)) it holds of the result,
// the whole K extent in registers, so a dot is a per-thread, fully unrolled
// K loop of multiply-adds:
//
//   d[r] = c[r];  for k in 0..K-1:  d[r] = fmuladd(a[(b, m, k)], b[(b, k, n)], d[r])
//
// where (b, m, n) are the coordinates of accumulator register r. Which
// register of A (B) holds (b, m, k) ((b, k, n)) comes from the linear
// layouts: the lane and warp parts of A must match the result's on (b, m)
// and be 0 on k (similarly for B), then the register parts are matched by
// coordinates. Nothing moves between threads.
//
// Unrolled in full, a big dot is M x N x K multiply-adds per thread in
// straight-line code (128x128x64 over 128 threads: 8192, 3 MB of LLVM IR and
// minutes in LLVM and ptxas). Past kMaxUnrolledProducts the K loop stays a
// loop: the thread's operand values are stored once, unconverted, into two
// per-thread arrays (A as [k][row slot], B as [k][column slot]), and an LLVM
// loop over K, its body unrolled over a chunk of kLoopBodyProducts products,
// loads and widens them by index and carries the accumulators as block
// arguments:
//
//   ^loop(%k, %acc...):   d[r] = fmuladd(A[k + j][row(r)], B[k + j][col(r)], d[r])
//                         for j in 0..chunk-1, every r
//     llvm.cond_br %k + chunk < K, ^loop(%k + chunk, %d...), ^rest
//                        {loop_annotation = unroll disabled}
//
// The product's code then grows with M x N per thread, not M x N x K (the
// stores grow with the operands, M x K + K x N). Each accumulator still
// adds its products in K order 0..K-1, as the unrolled form does, so both
// give bit-identical results.
//
// Operands are widened to the accumulation type first, exactly
// (FloatConversion.h): f16/bf16/fp8 -> f32, i8 -> i32 by sign extension.
// A float accumulator narrower than f32 (out_dtype = f16) is accumulated in
// f32 too and rounded (rtne) once at the end, as matrix units do within an
// instruction and as NumPy does: rounding after each of K multiply-adds made
// a 64-deep f16 dot up to 8x less accurate than one final rounding.
//
//===----------------------------------------------------------------------===//

#include "conversion/TritonGPUToMUSA/FloatConversion.h"
#include "conversion/TritonGPUToMUSA/LayoutIndices.h"
#include "conversion/TritonGPUToMUSA/PatternTritonGPUOpToLLVM.h"
#include "conversion/TritonGPUToMUSA/Utility.h"

#include "dialects/Triton/IR/Dialect.h"
#include "dialects/TritonGPU/IR/Dialect.h"
#include "target/LLVMCalls.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"

#include <algorithm>
#include <map>

using namespace mlir;
using namespace mlir::triton_musa;
using mlir::triton_musa::LinearLayout;

namespace {

namespace ttg = mlir::triton::gpu;

// Errors read "'tt.dot' is not supported by ... yet <why>", the form the
// corpus test recognises as "not lowered yet".
constexpr StringLiteral kUnsupported =
    " is not supported by --convert-tritongpu-to-musa yet";

/// Products (accumulators x K) per thread up to which the K loop is unrolled
/// in full: small dots stay straight-line code that LLVM schedules freely.
constexpr int64_t kMaxUnrolledProducts = 2048;
/// Products per iteration of the K loop emitted past that: enough to hide
/// the loop's overhead, small enough to keep the body compact.
constexpr int64_t kLoopBodyProducts = 512;

/// The register of the current thread that holds each coordinate tuple of a
/// layout (register part only, L(r, 0, 0, 0); the first of duplicates).
using RegisterIndex = std::map<SmallVector<int32_t>, unsigned>;

RegisterIndex indexRegisters(const LinearLayout &layout) {
  RegisterIndex index;
  for (unsigned r = 0, e = layout.getInDimSize(kRegister); r < e; ++r)
    index.try_emplace(applyLayout(layout, {{kRegister, int32_t(r)}}), r);
  return index;
}

/// Checks that every lane/warp bit moves the operand exactly as it moves
/// the result on the shared dimensions, and not at all along K: then the
/// thread holding accumulator (b, m, n) holds A(b, m, :) and B(b, :, n).
bool threadsAgree(const LinearLayout &operand, const LinearLayout &result,
                  unsigned kDim, unsigned otherDim) {
  unsigned rank = result.getNumOutDims();
  for (StringRef name : {kLane, kWarp, kBlock}) {
    unsigned bits = std::max(operand.getInDimSizeLog2(name),
                             result.getInDimSizeLog2(name));
    for (unsigned i = 0; i < bits; ++i) {
      auto at = [&](const LinearLayout &l) {
        if (int32_t(i) >= l.getInDimSizeLog2(name))
          return SmallVector<int32_t>(rank, 0);
        return applyLayout(l, {{name.str(), int32_t(1) << i}});
      };
      SmallVector<int32_t> o = at(operand), c = at(result);
      if (o[kDim] != 0)
        return false;
      for (unsigned d = 0; d < rank; ++d)
        if (d != kDim && d != otherDim && o[d] != c[d])
          return false;
      // The operand's non-K dimension is the result's dimension otherDim.
      if (o[otherDim] != c[otherDim])
        return false;
    }
  }
  return true;
}

/// Widens an operand element (LLVM value `v` of builtin element type
/// `srcType`) to the accumulation type `accType` (a builtin type).
FailureOr<Value> widen(OpBuilder &b, Location loc, Value v, Type srcType,
                       Type accType) {
  if (srcType == accType)
    return v;
  if (auto accInt = dyn_cast<IntegerType>(accType)) {
    auto srcInt = dyn_cast<IntegerType>(srcType);
    if (!srcInt || srcInt.getWidth() > accInt.getWidth())
      return failure();
    // Triton's integer dots are signed (int8 x int8 -> int32).
    return LLVM::SExtOp::create(b, loc, accType, v).getResult();
  }
  auto srcFloat = dyn_cast<FloatType>(srcType);
  auto accFloat = cast<FloatType>(accType);
  if (!srcFloat || !isSupportedFloatFormat(srcFloat) ||
      !isSupportedFloatFormat(accFloat))
    return failure();
  // Exact: every supported operand format is a subset of the accumulator's
  // (checked by the caller through the bit widths).
  return emitFloatConversion(b, loc, v, srcFloat, accFloat, /*rtz=*/false);
}

/// Where one operand's values sit for the accumulators of the thread: the
/// distinct rows of A (columns of B) it multiplies, as slots, and for each
/// slot and k the operand register holding it.
struct OperandSlots {
  /// Per accumulator register, its slot.
  SmallVector<unsigned> slotOf;
  /// Per slot, per k, the operand register.
  SmallVector<SmallVector<unsigned>> registers;
};

/// Collects the slots of an operand, `kAt` being the dimension of the
/// result's coordinates that the operand indexes by k. Fails if a thread
/// does not hold the operand elements of its accumulators.
FailureOr<OperandSlots> collectSlots(const LinearLayout &result,
                                     const RegisterIndex &operand,
                                     unsigned kAt, int64_t numK) {
  OperandSlots slots;
  std::map<SmallVector<int32_t>, unsigned> slotIndex;
  for (unsigned r = 0, e = result.getInDimSize(kRegister); r < e; ++r) {
    SmallVector<int32_t> key = applyLayout(result, {{kRegister, int32_t(r)}});
    key[kAt] = 0;
    auto [it, inserted] = slotIndex.try_emplace(key, slots.registers.size());
    slots.slotOf.push_back(it->second);
    if (!inserted)
      continue;
    SmallVector<unsigned> &regs = slots.registers.emplace_back();
    for (int32_t k = 0; k < numK; ++k) {
      key[kAt] = k;
      auto found = operand.find(key);
      if (found == operand.end())
        return failure();
      regs.push_back(found->second);
    }
  }
  return slots;
}

/// One FMA dot being emitted: the thread's operand and accumulator values,
/// where each accumulator's operands sit (the slots), and the two ways of
/// emitting the products, fully unrolled (emitUnrolled) or as an LLVM loop
/// over K (emitKLoop). Both add each accumulator's products in K order.
class FMADotEmitter {
public:
  FMADotEmitter(triton::DotOp op, ConversionPatternRewriter &rewriter,
                const TargetInfo &targetInfo, Type accScalar, Type workScalar,
                const OperandSlots &aSlots, const OperandSlots &bSlots,
                SmallVector<Value> aRaw, SmallVector<Value> bRaw)
      : op(op), rewriter(rewriter), targetInfo(targetInfo), loc(op.getLoc()),
        aScalar(cast<RankedTensorType>(op.getA().getType()).getElementType()),
        bScalar(cast<RankedTensorType>(op.getB().getType()).getElementType()),
        accScalar(accScalar), workScalar(workScalar),
        isInt(isa<IntegerType>(accScalar)),
        numK(cast<RankedTensorType>(op.getA().getType()).getShape().back()),
        aSlots(aSlots),
        bSlots(bSlots), aRaw(std::move(aRaw)), bRaw(std::move(bRaw)),
        aWide(this->aRaw.size()), bWide(this->bRaw.size()) {}

  /// Straight-line code: every product of every accumulator.
  LogicalResult emitUnrolled(SmallVector<Value> &acc);
  /// The operands stored once into per-thread arrays, then an LLVM loop
  /// over K whose body unrolls a chunk of K steps (see the file comment).
  LogicalResult emitKLoop(SmallVector<Value> &acc);

private:
  /// Operand register `r`, widened once, on first use.
  FailureOr<Value> operand(SmallVector<Value> &wide, ArrayRef<Value> raw,
                           unsigned r, Type scalar) {
    if (!wide[r]) {
      FailureOr<Value> v = widen(rewriter, loc, raw[r], scalar, workScalar);
      if (failed(v))
        return failure();
      wide[r] = *v;
    }
    return wide[r];
  }
  Value multiplyAdd(Value x, Value y, Value sum) {
    if (isInt)
      return LLVM::AddOp::create(rewriter, loc, sum,
                                 LLVM::MulOp::create(rewriter, loc, x, y));
    return LLVM::FMulAddOp::create(rewriter, loc, x, y, sum);
  }
  LogicalResult reportWidening() {
    return op.emitError() << "'tt.dot'" << kUnsupported
                          << " for operands converted to " << workScalar;
  }
  FailureOr<Value> widenAccumulator(Value init) {
    return widen(rewriter, loc, init, accScalar, workScalar);
  }
  Value roundAccumulator(Value sum) {
    if (workScalar == accScalar)
      return sum;
    return emitFloatConversion(rewriter, loc, sum, cast<FloatType>(workScalar),
                               cast<FloatType>(accScalar), /*rtz=*/false);
  }
  /// Stores the thread's values of one operand as they are (widening them
  /// here would cost code per value; in the loop it is per slot of a chunk)
  /// into an entry-block array laid out [k][slot], so that one iteration
  /// reads contiguous slots.
  Value spill(const OperandSlots &slots, ArrayRef<Value> raw);
  /// The `count` operand values of K step `j` from row `rowBase`, widened.
  LogicalResult loadStep(Value rowBase, Type element, Type scalar,
                         int64_t count, int64_t j,
                         SmallVectorImpl<Value> &values);

  triton::DotOp op;
  ConversionPatternRewriter &rewriter;
  const TargetInfo &targetInfo;
  Location loc;
  Type aScalar, bScalar, accScalar, workScalar;
  bool isInt;
  int64_t numK;
  const OperandSlots &aSlots, &bSlots;
  SmallVector<Value> aRaw, bRaw;
  SmallVector<Value> aWide, bWide;
};

LogicalResult FMADotEmitter::emitUnrolled(SmallVector<Value> &acc) {
  for (unsigned r = 0, e = acc.size(); r < e; ++r) {
    FailureOr<Value> sum = widenAccumulator(acc[r]);
    if (failed(sum))
      return failure();
    ArrayRef<unsigned> aRegs = aSlots.registers[aSlots.slotOf[r]];
    ArrayRef<unsigned> bRegs = bSlots.registers[bSlots.slotOf[r]];
    for (int64_t k = 0; k < numK; ++k) {
      FailureOr<Value> x = operand(aWide, aRaw, aRegs[k], aScalar);
      FailureOr<Value> y = operand(bWide, bRaw, bRegs[k], bScalar);
      if (failed(x) || failed(y))
        return reportWidening();
      *sum = multiplyAdd(*x, *y, *sum);
    }
    acc[r] = roundAccumulator(*sum);
  }
  return success();
}

Value FMADotEmitter::spill(const OperandSlots &slots, ArrayRef<Value> raw) {
  int64_t numSlots = slots.registers.size();
  Type element = raw.front().getType();
  Value array = getEntryAlloca(
      rewriter, loc, LLVM::LLVMArrayType::get(element, numK * numSlots),
      targetInfo.getPrivateAddressSpace());
  cast<LLVM::AllocaOp>(array.getDefiningOp()).setAlignment(16);
  for (int64_t k = 0; k < numK; ++k)
    for (int64_t s = 0; s < numSlots; ++s) {
      Value at = LLVM::GEPOp::create(
          rewriter, loc, array.getType(), element, array,
          ArrayRef<LLVM::GEPArg>{int32_t(k * numSlots + s)},
          LLVM::GEPNoWrapFlags::inbounds);
      LLVM::StoreOp::create(rewriter, loc, raw[slots.registers[s][k]], at);
    }
  return array;
}

LogicalResult FMADotEmitter::loadStep(Value rowBase, Type element,
                                      Type scalar, int64_t count, int64_t j,
                                      SmallVectorImpl<Value> &values) {
  for (int64_t s = 0; s < count; ++s) {
    Value at = LLVM::GEPOp::create(
        rewriter, loc, rowBase.getType(), element, rowBase,
        ArrayRef<LLVM::GEPArg>{int32_t(j * count + s)},
        LLVM::GEPNoWrapFlags::inbounds);
    Value v = LLVM::LoadOp::create(rewriter, loc, element, at);
    FailureOr<Value> wide = widen(rewriter, loc, v, scalar, workScalar);
    if (failed(wide))
      return failure();
    values.push_back(*wide);
  }
  return success();
}

LogicalResult FMADotEmitter::emitKLoop(SmallVector<Value> &acc) {
  Value aArray = spill(aSlots, aRaw), bArray = spill(bSlots, bRaw);

  SmallVector<Value> sums;
  for (Value init : acc) {
    FailureOr<Value> sum = widenAccumulator(init);
    if (failed(sum))
      return failure();
    sums.push_back(*sum);
  }

  // The largest chunk of K within the body's budget that divides K.
  int64_t chunk =
      std::clamp<int64_t>(kLoopBodyProducts / int64_t(acc.size()), 1, numK);
  while (numK % chunk != 0)
    --chunk;

  // before -> ^loop(k = 0, sums) -> ... -> rest, where the op was.
  Type i32 = rewriter.getI32Type();
  Block *before = rewriter.getInsertionBlock();
  Block *rest = rewriter.splitBlock(before, rewriter.getInsertionPoint());
  SmallVector<Type> carried(1, i32);
  carried.append(sums.size(), workScalar);
  Block *loop = rewriter.createBlock(
      rest, carried, SmallVector<Location>(carried.size(), loc));
  rewriter.setInsertionPointToEnd(before);
  SmallVector<Value> initial{LLVM::ConstantOp::create(
      rewriter, loc, i32, rewriter.getI32IntegerAttr(0))};
  initial.append(sums);
  LLVM::BrOp::create(rewriter, loc, initial, loop);

  rewriter.setInsertionPointToStart(loop);
  Value k = loop->getArgument(0);
  for (unsigned r = 0, e = sums.size(); r < e; ++r)
    sums[r] = loop->getArgument(r + 1);
  // Row k of an array, then constant offsets from it.
  auto row = [&](Value array, Type element, int64_t numSlots) -> Value {
    Value offset = LLVM::MulOp::create(
        rewriter, loc, k,
        LLVM::ConstantOp::create(rewriter, loc, i32,
                                 rewriter.getI32IntegerAttr(numSlots)));
    return LLVM::GEPOp::create(rewriter, loc, array.getType(), element, array,
                               ArrayRef<LLVM::GEPArg>{offset},
                               LLVM::GEPNoWrapFlags::inbounds);
  };
  int64_t numASlots = aSlots.registers.size();
  int64_t numBSlots = bSlots.registers.size();
  Type aElement = aRaw.front().getType(), bElement = bRaw.front().getType();
  Value aRow = row(aArray, aElement, numASlots);
  Value bRow = row(bArray, bElement, numBSlots);
  for (int64_t j = 0; j < chunk; ++j) {
    SmallVector<Value> x, y;
    if (failed(loadStep(aRow, aElement, aScalar, numASlots, j, x)) ||
        failed(loadStep(bRow, bElement, bScalar, numBSlots, j, y)))
      return reportWidening();
    for (unsigned r = 0, e = sums.size(); r < e; ++r)
      sums[r] =
          multiplyAdd(x[aSlots.slotOf[r]], y[bSlots.slotOf[r]], sums[r]);
  }
  Value next = LLVM::AddOp::create(
      rewriter, loc, k,
      LLVM::ConstantOp::create(rewriter, loc, i32,
                               rewriter.getI32IntegerAttr(chunk)));
  Value more = LLVM::ICmpOp::create(
      rewriter, loc, LLVM::ICmpPredicate::slt, next,
      LLVM::ConstantOp::create(rewriter, loc, i32,
                               rewriter.getI32IntegerAttr(numK)));
  SmallVector<Value> carriedNext{next};
  carriedNext.append(sums);
  // LLVM would otherwise unroll the loop again, in full.
  MLIRContext *ctx = rewriter.getContext();
  auto unroll = LLVM::LoopUnrollAttr::get(
      ctx, /*disable=*/rewriter.getBoolAttr(true), {}, {}, {}, {}, {}, {});
  auto annotation = LLVM::LoopAnnotationAttr::get(
      ctx, {}, {}, {}, unroll, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {});
  LLVM::CondBrOp::create(rewriter, loc, more, carriedNext, ValueRange(),
                         /*branch_weights=*/{}, annotation, loop, rest);
  // The loop's last values dominate rest: it is only reached from there.
  rewriter.setInsertionPointToStart(rest);
  for (unsigned r = 0, e = acc.size(); r < e; ++r)
    acc[r] = roundAccumulator(sums[r]);
  return success();
}

/// Whether the dot's element types have an exact FMA path: float operands
/// no wider than a float accumulator (f16/bf16/fp8/f32/f64 combinations
/// Triton builds), integer operands no wider than an integer accumulator.
bool isSupportedOperand(Type operand, Type accScalar) {
  if (isa<IntegerType>(accScalar))
    return isa<IntegerType>(operand) &&
           operand.getIntOrFloatBitWidth() <= accScalar.getIntOrFloatBitWidth();
  if (!isa<FloatType>(accScalar) || !isa<FloatType>(operand) ||
      !isSupportedFloatFormat(accScalar) || !isSupportedFloatFormat(operand))
    return false;
  if (operand == accScalar)
    return true;
  // Widening must be exact: the operand has fewer mantissa bits and no
  // more exponent range (bf16 only into f32/f64).
  auto in = cast<FloatType>(operand), acc = cast<FloatType>(accScalar);
  return in.getFPMantissaWidth() <= acc.getFPMantissaWidth() &&
         in.getWidth() < acc.getWidth() && !(in.isBF16() && acc.isF16());
}

/// Lowers tt.dot with #ttg.dot_op<{parent = #ttg.blocked}> operands to
/// per-thread multiply-adds (llvm.intr.fmuladd, or mul + add for integers).
///
/// inputPrecision (tf32, tf32x3, bf16x3, bf16x6, ieee) does not change the
/// result here: on the FMA path every f32 product is computed in full f32
/// precision, which is what ieee asks and at least as precise as the
/// others. maxNumImpreciseAcc only concerns reduced-precision fp8 MMA
/// accumulation and is ignored: FMA accumulates in at least f32.
struct DotOpConversion : public MUSAPattern<triton::DotOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(triton::DotOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto aType = cast<RankedTensorType>(op.getA().getType());
    auto bType = cast<RankedTensorType>(op.getB().getType());
    auto dType = cast<RankedTensorType>(op.getD().getType());
    auto blocked = dyn_cast_or_null<ttg::BlockedEncodingAttr>(
        dType.getEncoding());
    if (!blocked)
      return op.emitError() << "'tt.dot'" << kUnsupported
                            << " with a result in layout "
                            << dType.getEncoding()
                            << " (the FMA path needs #ttg.blocked)";
    RankedTensorType operandTypes[] = {aType, bType};
    for (auto [idx, type] : llvm::enumerate(operandTypes)) {
      auto dot = dyn_cast_or_null<ttg::DotOperandEncodingAttr>(
          type.getEncoding());
      if (!dot || dot.getOpIdx() != idx || dot.getParent() != blocked)
        return op.emitError()
               << "'tt.dot'" << kUnsupported << " with operand "
               << (idx == 0 ? "A" : "B") << " in layout " << type.getEncoding()
               << " (the FMA path needs #ttg.dot_op<{opIdx = " << idx
               << ", parent = " << blocked << "}>)";
    }

    Type accType = getTypeConverter()->convertType(dType.getElementType());
    if (!accType)
      return failure();
    Type accScalar = dType.getElementType();
    for (Type operand : {aType.getElementType(), bType.getElementType()})
      if (!isSupportedOperand(operand, accScalar))
        return op.emitError() << "'tt.dot'" << kUnsupported << " for "
                              << operand << " operands into " << accScalar
                              << " accumulators";

    auto emitError = [&] { return op.emitError(); };
    auto la = getLinearLayout(aType, emitError);
    auto lb = getLinearLayout(bType, emitError);
    auto lc = getLinearLayout(dType, emitError);
    if (failed(la) || failed(lb) || failed(lc))
      return failure();
    unsigned rank = dType.getRank();
    unsigned mDim = rank - 2, nDim = rank - 1;
    int64_t numK = aType.getShape()[rank - 1];
    // A is [.., M, K]: K at nDim, M at mDim. B is [.., K, N]: K at mDim.
    if (!threadsAgree(*la, *lc, /*kDim=*/nDim, /*otherDim=*/mDim) ||
        !threadsAgree(*lb, *lc, /*kDim=*/mDim, /*otherDim=*/nDim))
      return op.emitError()
             << "'tt.dot'" << kUnsupported
             << " where the operand layouts do not give each thread the rows "
                "and columns of its accumulators";

    // A is indexed by k where the result has n, B where it has m.
    FailureOr<OperandSlots> aSlots =
        collectSlots(*lc, indexRegisters(*la), nDim, numK);
    FailureOr<OperandSlots> bSlots =
        collectSlots(*lc, indexRegisters(*lb), mDim, numK);
    if (failed(aSlots) || failed(bSlots))
      return op.emitError()
             << "'tt.dot'" << kUnsupported
             << " where a thread does not hold the operand elements of its "
                "accumulators";

    SmallVector<Value> aRaw = unpackLLElements(rewriter, loc, adaptor.getA());
    SmallVector<Value> bRaw = unpackLLElements(rewriter, loc, adaptor.getB());
    SmallVector<Value> acc = unpackLLElements(rewriter, loc, adaptor.getC());

    // Narrow float accumulators are summed in f32 and rounded once.
    Type workScalar = accScalar;
    if (!isa<IntegerType>(accType) && accScalar.getIntOrFloatBitWidth() < 32)
      workScalar = rewriter.getF32Type();

    FMADotEmitter emitter(op, rewriter, targetInfo, accScalar, workScalar,
                          *aSlots, *bSlots, std::move(aRaw), std::move(bRaw));
    if (failed(int64_t(acc.size()) * numK <= kMaxUnrolledProducts
                   ? emitter.emitUnrolled(acc)
                   : emitter.emitKLoop(acc)))
      return failure();
    Type structType = getTypeConverter()->convertType(dType);
    if (!structType)
      return failure();
    rewriter.replaceOp(op, packLLElements(rewriter, loc, acc, structType));
    return success();
  }
};

} // namespace

void mlir::triton_musa::populateDotOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo) {
  patterns.add<DotOpConversion>(typeConverter, targetInfo);
}
