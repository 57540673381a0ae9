//===- LoadStoreOpToLLVM.cpp - tt.load, tt.store, tt.addptr -> LLVM ------===//
//
// A masked access becomes a branch around a plain llvm.load/llvm.store (the
// MUSA backend has no predicated memory instructions in LLVM IR); a masked
// load yields `other` (or zero) on the skipped path.
//
// Accesses are issued per vector of `vec` consecutive registers, one
// predicate per vector. `vec` comes from a small axis analysis of the
// pointer (and mask) tensors, in the spirit of Triton's AxisInfo: per
// dimension, the contiguity (runs of consecutive addresses), the
// divisibility (power of two dividing the first value of each run; bytes for
// pointers, from `tt.divisibility` argument hints and constants) and the
// constancy (runs of equal values), propagated through make_range, splat,
// constants, addptr, addi, muli, broadcast, expand_dims, convert_layout,
// integer casts and the comparisons/and/or that form masks; a loop's
// induction variable is a multiple of what divides its constant lower bound
// and step (computeInductionDivisibility, before scf.for becomes branches).
// The width is
// capped by the registers the layout holds consecutively along one
// dimension, by the alignment the divisibility proves and by 16 bytes.
//
//===----------------------------------------------------------------------===//

#include "conversion/TritonGPUToMUSA/LayoutIndices.h"
#include "conversion/TritonGPUToMUSA/PatternTritonGPUOpToLLVM.h"
#include "conversion/TritonGPUToMUSA/PredicatedRegion.h"
#include "conversion/TritonGPUToMUSA/Utility.h"

#include "dialects/Triton/IR/Dialect.h"

#include "dialects/TritonGPU/IR/Dialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/bit.h"

#include <numeric>

using namespace mlir;
using namespace mlir::triton_musa;

namespace {

/// What is known about the values of an integer or pointer tensor along
/// each dimension (a scalar has rank 0 and only a divisibility).
struct AxisFacts {
  SmallVector<int64_t> contiguity;
  SmallVector<int64_t> divisibility;
  SmallVector<int64_t> constancy;
  /// Divisibility of a scalar.
  int64_t scalarDivisibility = 1;
};

/// Divisibility of an unknown non-zero value / of zero.
constexpr int64_t kUnknownDivisibility = 1;
constexpr int64_t kZeroDivisibility = int64_t(1) << 30;

int64_t powerOfTwoFactor(int64_t v) {
  if (v == 0)
    return kZeroDivisibility;
  return std::min<int64_t>(int64_t(1) << llvm::countr_zero(uint64_t(v)),
                           kZeroDivisibility);
}

int64_t gcd(int64_t a, int64_t b) { return std::gcd(a, b); }

/// Axis analysis on the TTGIR def-use chains, memoized per pattern call.
class AxisAnalysis {
public:
  AxisAnalysis(ConversionPatternRewriter &rewriter,
               const InductionDivisibility &inductions)
      : rewriter(rewriter), inductions(inductions) {}

  AxisFacts get(Value v, unsigned depth = 0) {
    if (auto it = memo.find(v); it != memo.end())
      return it->second;
    AxisFacts facts = compute(v, depth);
    memo[v] = facts;
    return facts;
  }

private:
  static AxisFacts unknown(Value v) {
    AxisFacts facts;
    if (auto type = dyn_cast<RankedTensorType>(v.getType())) {
      unsigned rank = type.getRank();
      facts.contiguity.assign(rank, 1);
      facts.divisibility.assign(rank, kUnknownDivisibility);
      facts.constancy.assign(rank, 1);
    }
    return facts;
  }

  static AxisFacts splat(RankedTensorType type, int64_t divisibility) {
    AxisFacts facts;
    facts.contiguity.assign(type.getRank(), 1);
    facts.divisibility.assign(type.getRank(), divisibility);
    facts.constancy = llvm::to_vector(type.getShape());
    facts.scalarDivisibility = divisibility;
    return facts;
  }

  /// `tt.divisibility` of a kernel argument: the argument's converted value
  /// is an argument of the llvm.func that replaces the tt.func of the same
  /// name, whose attributes are still readable during the conversion.
  int64_t getArgumentDivisibility(BlockArgument arg) {
    auto remapped = dyn_cast_or_null<BlockArgument>(
        rewriter.getRemappedValue(arg));
    if (!remapped)
      return kUnknownDivisibility;
    Block *block = remapped.getOwner();
    auto func = dyn_cast_or_null<LLVM::LLVMFuncOp>(block->getParentOp());
    if (!func || !block->isEntryBlock())
      return kUnknownDivisibility;
    auto module = func->getParentOfType<ModuleOp>();
    if (!module)
      return kUnknownDivisibility;
    for (auto ttFunc : module.getOps<triton::FuncOp>()) {
      if (ttFunc.getName() != func.getName() ||
          ttFunc.getNumArguments() != func.getNumArguments())
        continue;
      if (auto attr = ttFunc.getArgAttrOfType<IntegerAttr>(
              remapped.getArgNumber(), "tt.divisibility"))
        return std::max<int64_t>(1, powerOfTwoFactor(attr.getInt()));
    }
    return kUnknownDivisibility;
  }

  static unsigned getPointeeBytes(Type type) {
    auto ptrType = dyn_cast<triton::PointerType>(getElementTypeOrSelf(type));
    if (!ptrType || !ptrType.getPointeeType().isIntOrFloat())
      return 0;
    return std::max<unsigned>(
        1, ptrType.getPointeeType().getIntOrFloatBitWidth() / 8);
  }

  /// a + b (addptr scales b by `scale` bytes).
  static AxisFacts add(const AxisFacts &a, const AxisFacts &b, int64_t scale) {
    AxisFacts facts;
    facts.scalarDivisibility =
        gcd(a.scalarDivisibility, b.scalarDivisibility * scale);
    for (unsigned d = 0; d < a.contiguity.size(); ++d) {
      facts.contiguity.push_back(std::max(gcd(a.contiguity[d], b.constancy[d]),
                                          gcd(a.constancy[d],
                                              b.contiguity[d])));
      facts.divisibility.push_back(
          gcd(a.divisibility[d], b.divisibility[d] * scale));
      facts.constancy.push_back(gcd(a.constancy[d], b.constancy[d]));
    }
    return facts;
  }

  AxisFacts compute(Value v, unsigned depth) {
    if (depth > 64)
      return unknown(v);
    auto tensorType = dyn_cast<RankedTensorType>(v.getType());
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (tensorType)
        return unknown(v);
      AxisFacts facts;
      auto induction = inductions.find(v);
      facts.scalarDivisibility = induction != inductions.end()
                                     ? induction->second
                                     : getArgumentDivisibility(arg);
      return facts;
    }
    Operation *op = v.getDefiningOp();
    if (!op)
      return unknown(v);
    auto operand = [&](unsigned i) {
      return get(op->getOperand(i), depth + 1);
    };

    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      if (auto intAttr = dyn_cast<IntegerAttr>(constant.getValue())) {
        AxisFacts facts;
        facts.scalarDivisibility = powerOfTwoFactor(intAttr.getInt());
        return facts;
      }
      auto dense = dyn_cast<SplatElementsAttr>(constant.getValue());
      if (tensorType && dense &&
          isa<IntegerType>(tensorType.getElementType()))
        return splat(tensorType,
                     powerOfTwoFactor(
                         dense.getSplatValue<APInt>().getSExtValue()));
      return unknown(v);
    }
    if (!tensorType) {
      // Scalars: only the divisibility matters (the value is splatted).
      AxisFacts facts;
      if (isa<arith::MulIOp>(op))
        facts.scalarDivisibility =
            std::min(kZeroDivisibility, operand(0).scalarDivisibility *
                                            operand(1).scalarDivisibility);
      else if (isa<arith::AddIOp>(op))
        facts.scalarDivisibility = gcd(operand(0).scalarDivisibility,
                                       operand(1).scalarDivisibility);
      else if (isa<triton::AddPtrOp>(op))
        facts.scalarDivisibility =
            gcd(operand(0).scalarDivisibility,
                operand(1).scalarDivisibility * getPointeeBytes(v.getType()));
      else if (isa<arith::ExtSIOp, arith::ExtUIOp>(op))
        facts.scalarDivisibility = operand(0).scalarDivisibility;
      return facts;
    }

    unsigned rank = tensorType.getRank();
    ArrayRef<int64_t> shape = tensorType.getShape();
    if (auto range = dyn_cast<triton::MakeRangeOp>(op)) {
      AxisFacts facts;
      facts.contiguity = {shape[0]};
      facts.divisibility = {powerOfTwoFactor(range.getStart())};
      facts.constancy = {1};
      return facts;
    }
    if (isa<triton::SplatOp>(op))
      return splat(tensorType, operand(0).scalarDivisibility);
    if (isa<triton::AddPtrOp>(op)) {
      unsigned bytes = getPointeeBytes(v.getType());
      if (!bytes)
        return unknown(v);
      return add(operand(0), operand(1), bytes);
    }
    if (isa<arith::AddIOp>(op))
      return add(operand(0), operand(1), 1);
    if (isa<arith::MulIOp>(op)) {
      AxisFacts a = operand(0), b = operand(1);
      AxisFacts facts;
      for (unsigned d = 0; d < rank; ++d) {
        facts.contiguity.push_back(1);
        facts.divisibility.push_back(std::min(
            kZeroDivisibility, a.divisibility[d] * b.divisibility[d]));
        facts.constancy.push_back(gcd(a.constancy[d], b.constancy[d]));
      }
      return facts;
    }
    if (isa<triton::gpu::ConvertLayoutOp, arith::ExtSIOp, arith::ExtUIOp>(op))
      return operand(0);
    if (auto broadcast = dyn_cast<triton::BroadcastOp>(op)) {
      AxisFacts facts = operand(0);
      auto srcShape = cast<RankedTensorType>(broadcast.getSrc().getType())
                          .getShape();
      for (unsigned d = 0; d < rank; ++d)
        if (srcShape[d] == 1 && shape[d] != 1) {
          facts.contiguity[d] = 1;
          facts.constancy[d] = shape[d];
        }
      return facts;
    }
    if (auto expand = dyn_cast<triton::ExpandDimsOp>(op)) {
      AxisFacts facts = operand(0);
      int64_t divisibility = kZeroDivisibility;
      for (int64_t div : facts.divisibility)
        divisibility = gcd(divisibility, div);
      unsigned axis = expand.getAxis();
      facts.contiguity.insert(facts.contiguity.begin() + axis, 1);
      facts.divisibility.insert(facts.divisibility.begin() + axis,
                                divisibility);
      facts.constancy.insert(facts.constancy.begin() + axis, 1);
      return facts;
    }
    if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
      AxisFacts a = operand(0), b = operand(1);
      bool ordered = cmp.getPredicate() != arith::CmpIPredicate::eq &&
                     cmp.getPredicate() != arith::CmpIPredicate::ne;
      AxisFacts facts = unknown(v);
      for (unsigned d = 0; d < rank; ++d) {
        int64_t constancy = gcd(a.constancy[d], b.constancy[d]);
        // x < c with x running up by one from multiples of D and c a
        // multiple of E: constant over aligned blocks of min(D, E).
        if (ordered) {
          if (b.constancy[d] == shape[d])
            constancy = std::max(constancy, gcd(a.contiguity[d],
                                                gcd(a.divisibility[d],
                                                    b.divisibility[d])));
          if (a.constancy[d] == shape[d])
            constancy = std::max(constancy, gcd(b.contiguity[d],
                                                gcd(b.divisibility[d],
                                                    a.divisibility[d])));
        }
        facts.constancy[d] = constancy;
      }
      return facts;
    }
    if (isa<arith::AndIOp, arith::OrIOp, arith::XOrIOp>(op)) {
      AxisFacts a = operand(0), b = operand(1);
      AxisFacts facts = unknown(v);
      for (unsigned d = 0; d < rank; ++d)
        facts.constancy[d] = gcd(a.constancy[d], b.constancy[d]);
      return facts;
    }
    return unknown(v);
  }

  ConversionPatternRewriter &rewriter;
  const InductionDivisibility &inductions;
  llvm::DenseMap<Value, AxisFacts> memo;
};

/// Registers accessed together by one memory instruction: consecutive
/// registers that hold consecutive elements of one dimension, as far as the
/// addresses are contiguous and aligned and the mask is constant over them.
unsigned getVectorWidth(Value ptr, Value mask,
                        ConversionPatternRewriter &rewriter,
                        const InductionDivisibility &inductions) {
  auto type = dyn_cast<RankedTensorType>(ptr.getType());
  if (!type)
    return 1;
  auto ptrType = dyn_cast<triton::PointerType>(type.getElementType());
  if (!ptrType || !ptrType.getPointeeType().isIntOrFloat())
    return 1;
  unsigned bits = ptrType.getPointeeType().getIntOrFloatBitWidth();
  if (bits < 8)
    return 1;
  int64_t bytes = bits / 8;
  auto layout = getLinearLayout(type, [] { return InFlightDiagnostic(); });
  if (failed(layout))
    return 1;
  // The dimension register 1 steps along, and how many leading register
  // bases step 1, 2, 4, ... along it alone.
  int64_t numRegisters = layout->getInDimSize(kRegister);
  if (numRegisters < 2)
    return 1;
  SmallVector<int32_t> first = applyLayout(*layout, {{kRegister, 1}});
  int dim = -1;
  for (auto [d, c] : llvm::enumerate(first))
    if (c == 1)
      dim = d;
  if (dim < 0)
    return 1;
  int64_t registers = 1;
  for (int32_t bit = 1; bit < numRegisters; bit <<= 1) {
    SmallVector<int32_t> coords = applyLayout(*layout, {{kRegister, bit}});
    SmallVector<int32_t> expected(coords.size(), 0);
    expected[dim] = bit;
    if (coords != expected)
      break;
    registers = int64_t(bit) * 2;
  }
  AxisAnalysis analysis(rewriter, inductions);
  AxisFacts facts = analysis.get(ptr);
  int64_t vec = std::min<int64_t>(registers, 16 / bytes);
  vec = std::min(vec, facts.contiguity[dim]);
  vec = std::min(vec, std::max<int64_t>(1, facts.divisibility[dim] / bytes));
  if (mask && isa<RankedTensorType>(mask.getType()))
    vec = std::min(vec, analysis.get(mask).constancy[dim]);
  vec = int64_t(1) << llvm::Log2_64(std::max<int64_t>(1, vec));
  // A vector's registers must hold c, c + 1, ..., c + vec - 1 with c a
  // multiple of vec: no other basis may touch the low bits along `dim`.
  auto touchesLowBits = [&](int64_t width) {
    for (const auto &[name, bases] : layout->getBases())
      for (auto [i, basis] : llvm::enumerate(bases)) {
        if (name == kRegister && (int64_t(1) << i) < width)
          continue;
        if (basis[dim] & (width - 1))
          return true;
      }
    return false;
  };
  while (vec > 1 && touchesLowBits(vec))
    vec /= 2;
  return vec;
}

/// The vector of `type` holding `elements`, built from undef by inserting
/// them in order.
Value buildVector(OpBuilder &b, Location loc, Type type,
                  ArrayRef<Value> elements) {
  Value vector = LLVM::UndefOp::create(b, loc, type);
  for (auto [j, element] : llvm::enumerate(elements))
    vector = LLVM::InsertElementOp::create(b, loc, vector, element,
                                           i32Const(b, loc, j));
  return vector;
}

unsigned getAlignment(Type type) {
  return std::max<unsigned>(1, type.getIntOrFloatBitWidth() / 8);
}

/// Lowers tt.addptr to one llvm.getelementptr per element.
struct AddPtrOpConversion : public MUSAPattern<triton::AddPtrOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(triton::AddPtrOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto ptrType =
        cast<triton::PointerType>(getElementTypeOrSelf(op.getType()));
    Type elementType =
        getTypeConverter()->convertType(ptrType.getPointeeType());
    Type llvmPtrType = getTypeConverter()->convertType(ptrType);
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!elementType || !llvmPtrType || !resultType)
      return failure();
    if (!isa<RankedTensorType>(op.getType())) {
      rewriter.replaceOpWithNewOp<LLVM::GEPOp>(op, llvmPtrType, elementType,
                                               adaptor.getPtr(),
                                               ValueRange(adaptor.getOffset()));
      return success();
    }
    SmallVector<Value> ptrs = unpackLLElements(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> offsets =
        unpackLLElements(rewriter, loc, adaptor.getOffset());
    SmallVector<Value> results;
    for (auto [ptr, offset] : llvm::zip_equal(ptrs, offsets))
      results.push_back(LLVM::GEPOp::create(
          rewriter, loc, llvmPtrType, elementType, ptr, ValueRange(offset)));
    rewriter.replaceOp(op, packLLElements(rewriter, loc, results, resultType));
    return success();
  }
};

/// Lowers tt.load of a pointer or a tensor of pointers (mask and other
/// supported) to global loads.
struct LoadOpConversion : public MUSAPattern<triton::LoadOp> {
  LoadOpConversion(const LLVMTypeConverter &converter, const TargetInfo &targetInfo,
                   const InductionDivisibility &inductions)
      : MUSAPattern(converter, targetInfo), inductions(inductions) {}

  LogicalResult
  lower(triton::LoadOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (triton::isTensorPointerType(op.getPtr().getType()))
      return op.emitError("'tt.load' of a block pointer is not supported by "
                          "--convert-tritongpu-to-musa yet");
    Type valueType = getElementTypeOrSelf(op.getType());
    Type elementType = getTypeConverter()->convertType(valueType);
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!elementType || !resultType)
      return failure();

    SmallVector<Value> ptrs = unpackLLElements(rewriter, loc, adaptor.getPtr());
    unsigned n = ptrs.size();
    SmallVector<Value> masks, others;
    if (adaptor.getMask())
      masks = unpackOrSplat(rewriter, loc, adaptor.getMask(), n);
    if (adaptor.getOther())
      others = unpackOrSplat(rewriter, loc, adaptor.getOther(), n);

    unsigned vec =
        getVectorWidth(op.getPtr(), op.getMask(), rewriter, inductions);
    Type accessType =
        vec == 1 ? elementType : VectorType::get({int64_t(vec)}, elementType);
    unsigned alignment = getAlignment(elementType) * vec;
    SmallVector<Value> loaded;
    for (unsigned i = 0; i < n; i += vec) {
      auto load = [&]() -> Value {
        return LLVM::LoadOp::create(rewriter, loc, accessType, ptrs[i],
                                    alignment, op.getIsVolatile());
      };
      Value v;
      if (masks.empty()) {
        v = load();
      } else {
        Value otherValue;
        if (others.empty()) {
          otherValue = LLVM::ZeroOp::create(rewriter, loc, accessType);
        } else if (vec == 1) {
          otherValue = others[i];
        } else {
          otherValue = buildVector(rewriter, loc, accessType,
                                   ArrayRef<Value>(others).slice(i, vec));
        }
        // A vector shares one mask: the width only grows where the mask is
        // constant over it.
        if (!op.getIsVolatile())
          v = targetInfo.loadGlobalIf(rewriter, loc, accessType, ptrs[i],
                                      masks[i], otherValue);
        if (!v)
          v = emitIfThen(rewriter, loc, masks[i], load, otherValue);
      }
      if (vec == 1) {
        loaded.push_back(v);
        continue;
      }
      for (unsigned j = 0; j < vec; ++j)
        loaded.push_back(LLVM::ExtractElementOp::create(
            rewriter, loc, v, i32Const(rewriter, loc, j)));
    }
    if (!isa<RankedTensorType>(op.getType()))
      rewriter.replaceOp(op, loaded.front());
    else
      rewriter.replaceOp(op, packLLElements(rewriter, loc, loaded, resultType));
    return success();
  }

  const InductionDivisibility &inductions;
};

/// Lowers tt.store of a pointer or a tensor of pointers (mask supported) to
/// global stores; of the threads (and registers) holding copies of an
/// element only one writes it.
struct StoreOpConversion : public MUSAPattern<triton::StoreOp> {
  StoreOpConversion(const LLVMTypeConverter &converter, const TargetInfo &targetInfo,
                    const InductionDivisibility &inductions)
      : MUSAPattern(converter, targetInfo), inductions(inductions) {}

  LogicalResult
  lower(triton::StoreOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (triton::isTensorPointerType(op.getPtr().getType()))
      return op.emitError("'tt.store' of a block pointer is not supported by "
                          "--convert-tritongpu-to-musa yet");
    Type elementType = getTypeConverter()->convertType(
        getElementTypeOrSelf(op.getValue().getType()));
    if (!elementType)
      return failure();

    SmallVector<Value> ptrs = unpackLLElements(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> values =
        unpackLLElements(rewriter, loc, adaptor.getValue());
    unsigned n = ptrs.size();
    SmallVector<Value> masks;
    if (adaptor.getMask())
      masks = unpackOrSplat(rewriter, loc, adaptor.getMask(), n);

    Value owner;
    int32_t duplicateRegisters = 0;
    if (auto type = dyn_cast<RankedTensorType>(op.getPtr().getType())) {
      auto layout = getLinearLayout(type, [&] { return op.emitError(); });
      if (failed(layout))
        return failure();
      owner = emitOwnerPredicate(rewriter, loc, targetInfo, *layout);
      duplicateRegisters = getDuplicateRegisterMask(*layout);
    } else {
      // A scalar store happens once per program, as in Triton: thread 0 of
      // the block issues it. (If every thread stored, a program's
      // `tl.store(p, tl.load(p) + 1)` would add once per thread that loads
      // after another's store.)
      Value tid = targetInfo.threadId(rewriter, loc, 0);
      Value zero = i32Const(rewriter, loc, 0);
      owner = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                   tid, zero);
    }

    unsigned vec =
        getVectorWidth(op.getPtr(), op.getMask(), rewriter, inductions);
    unsigned alignment = getAlignment(elementType) * vec;
    for (unsigned i = 0; i < n; i += vec) {
      if (i & duplicateRegisters)
        continue;
      Value value = values[i];
      if (vec > 1) {
        value = buildVector(rewriter, loc,
                            VectorType::get({int64_t(vec)}, elementType),
                            ArrayRef<Value>(values).slice(i, vec));
      }
      auto store = [&]() -> Value {
        LLVM::StoreOp::create(rewriter, loc, value, ptrs[i], alignment);
        return Value();
      };
      Value pred = andPredicates(rewriter, loc, owner,
                                 masks.empty() ? Value() : masks[i]);
      if (!pred || !targetInfo.storeGlobalIf(rewriter, loc, value, ptrs[i],
                                             pred))
        emitIfThen(rewriter, loc, pred, store, Value());
    }
    rewriter.eraseOp(op);
    return success();
  }

  const InductionDivisibility &inductions;
};

} // namespace

InductionDivisibility
mlir::triton_musa::computeInductionDivisibility(ModuleOp module) {
  InductionDivisibility inductions;
  module.walk([&](scf::ForOp loop) {
    APInt lower, step;
    if (!matchPattern(loop.getLowerBound(), m_ConstantInt(&lower)) ||
        !matchPattern(loop.getStep(), m_ConstantInt(&step)))
      return;
    // iv = lower + k * step: a multiple of every power of two dividing both.
    int64_t divisibility = std::min(powerOfTwoFactor(lower.getSExtValue()),
                                    powerOfTwoFactor(step.getSExtValue()));
    if (divisibility > 1)
      inductions[loop.getInductionVar()] = divisibility;
  });
  return inductions;
}

void mlir::triton_musa::populateLoadStoreOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo, const InductionDivisibility &inductions) {
  patterns.add<AddPtrOpConversion>(typeConverter, targetInfo);
  patterns.add<LoadOpConversion, StoreOpConversion>(typeConverter, targetInfo,
                                                    inductions);
}
