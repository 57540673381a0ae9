//===- AxisAnalysis.cpp - Contiguity, divisibility, constancy -----------===//

#include "conversion/TritonGPUToMUSA/AxisAnalysis.h"
#include "conversion/TritonGPUToMUSA/LayoutIndices.h"

#include "dialects/Triton/IR/Dialect.h"
#include "dialects/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/bit.h"

#include <numeric>

using namespace mlir;
using namespace mlir::triton_musa;

namespace {

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

/// What divides every value of `facts` along dimension `d`: the
/// divisibility holds only for the first value of a run longer than 1.
int64_t getEveryValueDivisibility(const AxisFacts &facts, unsigned d) {
  return facts.contiguity[d] > 1 ? kUnknownDivisibility
                                 : facts.divisibility[d];
}

AxisFacts unknown(Value v) {
  AxisFacts facts;
  if (auto type = dyn_cast<RankedTensorType>(v.getType())) {
    unsigned rank = type.getRank();
    facts.contiguity.assign(rank, 1);
    facts.divisibility.assign(rank, kUnknownDivisibility);
    facts.constancy.assign(rank, 1);
  }
  return facts;
}

AxisFacts splat(RankedTensorType type, int64_t divisibility) {
  AxisFacts facts;
  facts.contiguity.assign(type.getRank(), 1);
  facts.divisibility.assign(type.getRank(), divisibility);
  facts.constancy = llvm::to_vector(type.getShape());
  facts.scalarDivisibility = divisibility;
  return facts;
}

unsigned getPointeeBytes(Type type) {
  auto ptrType = dyn_cast<triton::PointerType>(getElementTypeOrSelf(type));
  if (!ptrType || !ptrType.getPointeeType().isIntOrFloat())
    return 0;
  return std::max<unsigned>(
      1, ptrType.getPointeeType().getIntOrFloatBitWidth() / 8);
}

/// a + b (addptr scales b by `scale` bytes).
AxisFacts add(const AxisFacts &a, const AxisFacts &b, int64_t scale) {
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

} // namespace

AxisFacts AxisAnalysis::get(Value v, unsigned depth) {
  if (auto it = memo.find(v); it != memo.end())
    return it->second;
  AxisFacts facts = compute(v, depth);
  memo[v] = facts;
  return facts;
}

/// `tt.divisibility` of a kernel argument: the argument's converted value
/// is an argument of the llvm.func that replaces the tt.func of the same
/// name, whose attributes are still readable during the conversion.
int64_t AxisAnalysis::getArgumentDivisibility(BlockArgument arg) {
  if (!rewriter) {
    // Before the conversion: the argument of the tt.func itself.
    auto func = dyn_cast_or_null<triton::FuncOp>(arg.getOwner()->getParentOp());
    if (!func || !arg.getOwner()->isEntryBlock())
      return kUnknownDivisibility;
    if (auto attr = func.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(),
                                                       "tt.divisibility"))
      return std::max<int64_t>(1, powerOfTwoFactor(attr.getInt()));
    return kUnknownDivisibility;
  }
  auto remapped = dyn_cast_or_null<BlockArgument>(
      rewriter->getRemappedValue(arg));
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

AxisFacts AxisAnalysis::compute(Value v, unsigned depth) {
  if (depth > 64)
    return unknown(v);
  auto tensorType = dyn_cast<RankedTensorType>(v.getType());
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (auto carried = loopFacts.carried.find(v);
        carried != loopFacts.carried.end())
      return carried->second;
    if (tensorType)
      return unknown(v);
    AxisFacts facts;
    auto induction = loopFacts.inductionDivisibility.find(v);
    facts.scalarDivisibility = induction != loopFacts.inductionDivisibility.end()
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
    if (tensorType && dense)
      return splat(tensorType, kUnknownDivisibility);
    return unknown(v);
  }
  if (!tensorType) {
    // Scalars: only the divisibility matters (the value is splatted).
    AxisFacts facts;
    if (isa<arith::MulIOp>(op))
      facts.scalarDivisibility =
          std::min(kZeroDivisibility, operand(0).scalarDivisibility *
                                          operand(1).scalarDivisibility);
    else if (isa<arith::AddIOp, arith::SubIOp>(op))
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
  if (isa<arith::SubIOp>(op)) {
    // x - y: runs of x stay runs where y is constant over them.
    AxisFacts a = operand(0), b = operand(1);
    AxisFacts facts;
    for (unsigned d = 0; d < rank; ++d) {
      facts.contiguity.push_back(gcd(a.contiguity[d], b.constancy[d]));
      facts.divisibility.push_back(gcd(a.divisibility[d], b.divisibility[d]));
      facts.constancy.push_back(gcd(a.constancy[d], b.constancy[d]));
    }
    return facts;
  }
  if (isa<arith::RemSIOp, arith::RemUIOp>(op)) {
    // x % n with n constant along a dimension and a multiple of D there: an
    // aligned block of D values of a run of x (starting at a multiple of D)
    // never wraps, and starts at a multiple of D. As Triton's axis analysis,
    // signed remainders are taken as unsigned ones (x >= 0: offsets).
    AxisFacts a = operand(0), b = operand(1);
    AxisFacts facts = unknown(v);
    for (unsigned d = 0; d < rank; ++d) {
      facts.constancy[d] = gcd(a.constancy[d], b.constancy[d]);
      if (b.constancy[d] != shape[d])
        continue;
      facts.contiguity[d] = gcd(a.contiguity[d], b.divisibility[d]);
      facts.divisibility[d] = gcd(a.divisibility[d], b.divisibility[d]);
    }
    return facts;
  }
  if (isa<arith::MulIOp>(op)) {
    AxisFacts a = operand(0), b = operand(1);
    AxisFacts facts;
    for (unsigned d = 0; d < rank; ++d) {
      facts.contiguity.push_back(1);
      facts.divisibility.push_back(
          std::min(kZeroDivisibility, getEveryValueDivisibility(a, d) *
                                          getEveryValueDivisibility(b, d)));
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
    // The new dimension's one value: any of the source's.
    int64_t divisibility = kZeroDivisibility;
    for (unsigned d = 0; d < facts.divisibility.size(); ++d)
      divisibility = gcd(divisibility, getEveryValueDivisibility(facts, d));
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
  // Any other pure elementwise op (and/or/xor of masks, select, float
  // math, casts) is constant where all its tensor operands are.
  if (op->hasTrait<OpTrait::Elementwise>() && op->getNumResults() == 1 &&
      op->getNumRegions() == 0 && isMemoryEffectFree(op)) {
    AxisFacts facts = unknown(v);
    facts.constancy.assign(shape.begin(), shape.end());
    for (Value input : op->getOperands()) {
      auto inputType = dyn_cast<RankedTensorType>(input.getType());
      if (!inputType)
        continue;
      if (inputType.getShape() != shape)
        return unknown(v);
      AxisFacts inputFacts = get(input, depth + 1);
      for (unsigned d = 0; d < rank; ++d)
        facts.constancy[d] = gcd(facts.constancy[d], inputFacts.constancy[d]);
    }
    return facts;
  }
  return unknown(v);
}

namespace {

/// What holds for both `a` and `b` (values of one loop-carried value in
/// different iterations): aligned runs of the gcd of both lengths.
AxisFacts meet(const AxisFacts &a, const AxisFacts &b) {
  AxisFacts facts;
  facts.scalarDivisibility = gcd(a.scalarDivisibility, b.scalarDivisibility);
  for (unsigned d = 0; d < a.contiguity.size(); ++d) {
    facts.contiguity.push_back(gcd(a.contiguity[d], b.contiguity[d]));
    facts.divisibility.push_back(gcd(a.divisibility[d], b.divisibility[d]));
    facts.constancy.push_back(gcd(a.constancy[d], b.constancy[d]));
  }
  return facts;
}

/// Rounds of the loop-carried fixpoint before giving up (each round only
/// lowers facts, and a carried pointer settles in two).
constexpr unsigned kCarriedRounds = 8;

/// `facts` of iter_arg `idx` of `loop` raised to what the user asserts of
/// it in every iteration: `tl.multiple_of` / `tl.max_contiguous` /
/// `tl.max_constancy` on a loop-carried value are the loop's attributes
/// `tt.divisibility_arg<idx>`, `tt.contiguity_arg<idx>`, `tt.constancy_arg<idx>`.
AxisFacts withHints(scf::ForOp loop, unsigned idx, AxisFacts facts) {
  auto raise = [&](StringRef name, SmallVector<int64_t> &values,
                   int64_t *scalar) {
    auto hint = loop->getAttrOfType<DenseIntElementsAttr>(
        (name + Twine(idx)).str());
    if (!hint)
      return;
    SmallVector<int64_t> asserted;
    for (const APInt &v : hint.getValues<APInt>())
      asserted.push_back(v.getSExtValue());
    if (asserted.size() == values.size())
      for (auto [value, h] : llvm::zip(values, asserted))
        value = std::max(value, h);
    else if (values.empty() && scalar && asserted.size() == 1)
      *scalar = std::max(*scalar, asserted.front());
  };
  raise("tt.divisibility_arg", facts.divisibility, &facts.scalarDivisibility);
  raise("tt.contiguity_arg", facts.contiguity, nullptr);
  raise("tt.constancy_arg", facts.constancy, nullptr);
  return facts;
}

/// The facts of `loop`'s iter_args: start from the initial values, then
/// meet each with what the body yields given the current facts, until
/// nothing changes; the user's hints hold throughout.
void computeCarriedFacts(scf::ForOp loop, LoopFacts &facts) {
  Block *body = loop.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  SmallVector<BlockArgument> args(loop.getRegionIterArgs());
  {
    AxisAnalysis outside(nullptr, facts);
    for (auto [idx, arg, init] : llvm::enumerate(args, loop.getInitArgs()))
      facts.carried[arg] = withHints(loop, idx, outside.get(init));
  }
  for (unsigned round = 0; round < kCarriedRounds; ++round) {
    AxisAnalysis inside(nullptr, facts);
    SmallVector<AxisFacts> next;
    bool changed = false;
    for (auto [idx, arg, yielded] :
         llvm::enumerate(args, yield.getOperands())) {
      AxisFacts current = facts.carried[arg];
      AxisFacts met =
          withHints(loop, idx, meet(current, inside.get(yielded)));
      changed |= !(met == current);
      next.push_back(std::move(met));
    }
    for (auto [arg, met] : llvm::zip(args, next))
      facts.carried[arg] = std::move(met);
    if (!changed)
      return;
  }
  for (auto [idx, arg] : llvm::enumerate(args))
    facts.carried[arg] = withHints(loop, idx, unknown(arg));
}

} // namespace

LoopFacts mlir::triton_musa::computeLoopFacts(ModuleOp module) {
  LoopFacts facts;
  // Outer loops first: an inner loop's initial values may be an outer
  // loop's carried values.
  module->walk<WalkOrder::PreOrder>([&](scf::ForOp loop) {
    APInt lower, step;
    if (matchPattern(loop.getLowerBound(), m_ConstantInt(&lower)) &&
        matchPattern(loop.getStep(), m_ConstantInt(&step))) {
      // iv = lower + k * step: a multiple of every power of two dividing
      // both.
      int64_t divisibility = std::min(powerOfTwoFactor(lower.getSExtValue()),
                                      powerOfTwoFactor(step.getSExtValue()));
      if (divisibility > 1)
        facts.inductionDivisibility[loop.getInductionVar()] = divisibility;
    }
    computeCarriedFacts(loop, facts);
  });
  return facts;
}

unsigned mlir::triton_musa::getAccessVectorWidth(
    Value ptr, Value mask, ConversionPatternRewriter &rewriter,
    const LoopFacts &loopFacts) {
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
  AxisAnalysis analysis(rewriter, loopFacts);
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
