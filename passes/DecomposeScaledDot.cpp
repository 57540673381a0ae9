//===- DecomposeScaledDot.cpp - --musa-decompose-scaled-dot --------------===//
//
// MUSA has no scaled (microscaling) matrix instruction, so tt.dot_scaled
// becomes what it means: each operand upcast to bf16 (fp16 when either
// operand is fp16, as Triton decides), multiplied by its e8m0 scale
// broadcast over its K group, then a plain tt.dot, which
// --musa-accelerate-matmul may later put on a matrix unit.
//
// The view ops that broadcast a scale (expand_dims, broadcast, reshape,
// trans) get #ttg.linear layouts derived from the operand's layout, so that
// each is a register renaming in the lowering; one ttg.convert_layout moves
// the small scale tensor into place. ttg.fp4_to_fp gets the operand's
// layout with the packed dimension doubled in registers, so that both
// halves of a byte stay in the thread that loaded it.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialects/Triton/IR/Dialect.h"
#include "dialects/TritonGPU/IR/Dialect.h"
#include "layouts/LayoutConversion.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/APFloat.h"

#include <array>

namespace mlir::triton_musa {
#define GEN_PASS_DEF_MUSADECOMPOSESCALEDDOT
#include "passes/Passes.h.inc"
} // namespace mlir::triton_musa

using namespace mlir;
using namespace mlir::triton_musa;
namespace tt = mlir::triton;
namespace ttg = mlir::triton::gpu;

namespace {

using Basis = LinearLayout::Basis;

/// The bases of a distributed layout, per input dimension (register, lane,
/// warp, block), each basis one coordinate per tensor dimension.
struct Bases {
  static constexpr std::array<const char *, 4> kNames = {kRegister, kLane,
                                                         kWarp, kBlock};
  std::array<std::vector<Basis>, 4> dims;

  static Bases of(const LinearLayout &layout) {
    Bases result;
    for (const auto &[name, bases] : layout.getBases())
      for (auto [i, known] : llvm::enumerate(kNames))
        if (name == known)
          result.dims[i] = bases;
    return result;
  }

  /// Every basis replaced by `f(basis)`.
  Bases map(llvm::function_ref<Basis(const Basis &)> f) const {
    Bases result;
    for (auto [in, out] : llvm::zip(dims, result.dims))
      for (const Basis &basis : in)
        out.push_back(f(basis));
    return result;
  }

  Attribute toEncoding(MLIRContext *ctx, unsigned rank) const {
    std::array<SmallVector<int32_t>, 4> flat;
    for (auto [in, out] : llvm::zip(dims, flat))
      for (const Basis &basis : in)
        out.append(basis.begin(), basis.end());
    return ttg::LinearEncodingAttr::get(ctx, rank, flat[0], flat[1], flat[2],
                                        flat[3]);
  }
};

FailureOr<Bases> getBases(Operation *op, RankedTensorType type) {
  auto layout = toLinearLayout(type.getShape(), type.getEncoding(),
                               [&] { return op->emitError(); });
  if (failed(layout))
    return failure();
  return Bases::of(*layout);
}

bool isFp16Format(tt::ScaleDotElemType t) {
  return t == tt::ScaleDotElemType::FP16;
}

/// Rewrites one tt.dot_scaled.
class ScaledDotDecomposer {
public:
  explicit ScaledDotDecomposer(tt::DotScaledOp op)
      : op(op), b(op), loc(op.getLoc()), ctx(op.getContext()) {}

  LogicalResult run() {
    auto resultType = cast<RankedTensorType>(op.getType());
    if (!isa_and_nonnull<ttg::BlockedEncodingAttr>(resultType.getEncoding()))
      return op.emitOpError("is decomposed for a #ttg.blocked result only, "
                            "got ")
             << resultType.getEncoding();
    computeType = isFp16Format(op.getAElemType()) ||
                          isFp16Format(op.getBElemType())
                      ? FloatType(b.getF16Type())
                      : FloatType(b.getBF16Type());
    FailureOr<Value> a = scaledOperand(0);
    if (failed(a))
      return failure();
    FailureOr<Value> bOperand = scaledOperand(1);
    if (failed(bOperand))
      return failure();
    auto dot = tt::DotOp::create(b, loc, resultType, *a, *bOperand, op.getC(),
                                 tt::InputPrecision::IEEE, 0);
    op.replaceAllUsesWith(dot.getResult());
    op.erase();
    return success();
  }

private:
  tt::DotScaledOp op;
  OpBuilder b;
  Location loc;
  MLIRContext *ctx;
  FloatType computeType;

  /// Operand `opIdx` upcast to the compute type, scaled, in the dot's
  /// operand layout.
  FailureOr<Value> scaledOperand(unsigned opIdx) {
    Value v = opIdx == 0 ? op.getA() : op.getB();
    Value scale = opIdx == 0 ? op.getAScale() : op.getBScale();
    tt::ScaleDotElemType format =
        opIdx == 0 ? op.getAElemType() : op.getBElemType();
    auto type = cast<RankedTensorType>(v.getType());
    unsigned rank = type.getRank();
    unsigned kDim = opIdx == 0 ? rank - 1 : rank - 2;

    FailureOr<Value> upcast = upcastOperand(v, format, opIdx, kDim);
    if (failed(upcast))
      return failure();
    v = *upcast;
    if (scale) {
      FailureOr<Value> scaled = applyScale(v, scale, opIdx, kDim);
      if (failed(scaled))
        return failure();
      v = *scaled;
    }
    // Into the dot operand layout through shared memory, in the form
    // Triton's passes give every other dot's operands (an unswizzled
    // ttg.local_alloc read by ttg.local_load), which the matrix-path
    // selection reads as shared-memory operands.
    auto vType = cast<RankedTensorType>(v.getType());
    auto operandEncoding = ttg::DotOperandEncodingAttr::get(
        ctx, opIdx, cast<RankedTensorType>(op.getType()).getEncoding(), 0);
    SmallVector<unsigned> order = llvm::to_vector(
        llvm::reverse(llvm::seq<unsigned>(vType.getRank())));
    auto shared = ttg::SwizzledSharedEncodingAttr::get(ctx, 1, 1, 1, order);
    auto memType = ttg::MemDescType::get(
        vType.getShape(), vType.getElementType(), shared,
        ttg::SharedMemorySpaceAttr::get(ctx));
    Value buffer = ttg::LocalAllocOp::create(b, loc, memType, v, nullptr);
    return ttg::LocalLoadOp::create(
               b, loc, vType.cloneWithEncoding(operandEncoding), buffer,
               Value())
        .getResult();
  }

  FailureOr<Value> upcastOperand(Value v, tt::ScaleDotElemType format,
                                 unsigned opIdx, unsigned kDim) {
    auto type = cast<RankedTensorType>(v.getType());
    Type elem = type.getElementType();
    switch (format) {
    case tt::ScaleDotElemType::E2M1: {
      if (!elem.isInteger(8))
        return op.emitOpError("e2m1 operand ")
               << opIdx << " must be packed in i8, got " << elem;
      unsigned rank = type.getRank();
      bool kPack = opIdx == 0 ? op.getLhsKPack() : op.getRhsKPack();
      unsigned axis = kPack ? kDim : (opIdx == 0 ? rank - 2 : rank - 1);
      FailureOr<Bases> bases = getBases(op, type);
      if (failed(bases))
        return failure();
      // Doubled along `axis`: register bit 0 picks the nibble, the source's
      // bases move two elements per byte.
      Bases unpacked = bases->map([&](const Basis &basis) {
        Basis result = basis;
        result[axis] *= 2;
        return result;
      });
      Basis nibble(rank, 0);
      nibble[axis] = 1;
      unpacked.dims[0].insert(unpacked.dims[0].begin(), nibble);
      SmallVector<int64_t> shape(type.getShape());
      shape[axis] *= 2;
      auto resultType = RankedTensorType::get(shape, computeType,
                                              unpacked.toEncoding(ctx, rank));
      return ttg::Fp4ToFpOp::create(b, loc, resultType, v,
                                    b.getI32IntegerAttr(axis))
          .getResult();
    }
    case tt::ScaleDotElemType::E4M3:
    case tt::ScaleDotElemType::E5M2: {
      bool e4m3 = format == tt::ScaleDotElemType::E4M3;
      Type fp8 = e4m3 ? Type(b.getType<Float8E4M3FNType>())
                      : Type(b.getType<Float8E5M2Type>());
      if (elem.isInteger(8))
        v = tt::BitcastOp::create(b, loc, type.clone(fp8), v);
      else if (elem != fp8)
        return op.emitOpError("operand ")
               << opIdx << " of format " << tt::stringifyEnum(format)
               << " must hold " << fp8 << " or i8, got " << elem;
      return tt::FpToFpOp::create(b, loc, type.clone(computeType), v,
                                  tt::RoundingModeAttr())
          .getResult();
    }
    case tt::ScaleDotElemType::BF16:
    case tt::ScaleDotElemType::FP16: {
      if (elem == computeType)
        return v;
      // bf16 next to an fp16 operand: narrowed like Triton does (rtne).
      return tt::FpToFpOp::create(b, loc, type.clone(computeType), v, rtne())
          .getResult();
    }
    case tt::ScaleDotElemType::E2M3:
    case tt::ScaleDotElemType::E3M2:
      break;
    }
    return op.emitOpError("operand ")
           << opIdx << " of format " << tt::stringifyEnum(format)
           << " (fp6) is not supported on MUSA: there is no fp6 upcast";
  }

  /// `v` (compute type, layout L) times 2^(scale - 127) broadcast over each
  /// scale's K group; a 0xFF scale makes the group NaN unless fastMath.
  FailureOr<Value> applyScale(Value v, Value scale, unsigned opIdx,
                              unsigned kDim) {
    auto vType = cast<RankedTensorType>(v.getType());
    auto scaleType = cast<RankedTensorType>(scale.getType());
    unsigned rank = vType.getRank();
    if (!scaleType.getElementType().isInteger(8))
      return op.emitOpError("scale of operand ")
             << opIdx << " must be e8m0 in i8, got "
             << scaleType.getElementType()
             << " (float scales are not supported on MUSA)";
    int64_t k = vType.getDimSize(kDim);
    int64_t groups = scaleType.getDimSize(rank - 1);
    if (groups <= 0 || k % groups != 0)
      return op.emitOpError("scale of operand ")
             << opIdx << " has " << groups << " groups, which do not divide K ("
             << k << ")";
    int64_t factor = k / groups;

    // The scale as f32 bits: the exponent field is the e8m0 value; 0 is
    // 2^-127, an f32 subnormal.
    auto i32Type = scaleType.clone(b.getI32Type());
    Value bits = arith::ExtUIOp::create(b, loc, i32Type, scale);
    bits = arith::ShLIOp::create(b, loc, bits, splatI32(i32Type, 23));
    Value isZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         bits, splatI32(i32Type, 0));
    bits = arith::SelectOp::create(b, loc, isZero,
                                   splatI32(i32Type, 0x00400000), bits);
    Value factorF32 =
        arith::BitcastOp::create(b, loc, scaleType.clone(b.getF32Type()), bits);
    // Exact for bf16 (same exponent range); fp16 rounds to its own range.
    Value factorValue = tt::FpToFpOp::create(
        b, loc, scaleType.clone(computeType), factorF32, rtne());
    if (!op.getFastMath()) {
      auto i8Type = scaleType.clone(b.getI8Type());
      Value isNan = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::eq, scale,
          arith::ConstantOp::create(
              b, loc, i8Type, DenseElementsAttr::get(i8Type, APInt(8, 0xFF))));
      auto fType = scaleType.clone(computeType);
      Value nan = arith::ConstantOp::create(
          b, loc, fType,
          DenseElementsAttr::get(
              fType, APFloat::getNaN(computeType.getFloatSemantics())));
      factorValue = arith::SelectOp::create(b, loc, isNan, nan, factorValue);
    }

    FailureOr<Value> broadcast =
        broadcastScale(factorValue, vType, opIdx, factor);
    if (failed(broadcast))
      return failure();
    return arith::MulFOp::create(b, loc, v, *broadcast).getResult();
  }

  /// The scale ([.., rows, groups], as tt.dot_scaled takes it for both
  /// operands) broadcast to `vType`: expand_dims, broadcast over the group,
  /// reshape to [.., rows, K], and for the rhs a transpose to [.., K, N].
  FailureOr<Value> broadcastScale(Value scale, RankedTensorType vType,
                                  unsigned opIdx, int64_t factor) {
    unsigned rank = vType.getRank();
    FailureOr<Bases> vBases = getBases(op, vType);
    if (failed(vBases))
      return failure();
    // The layout of the scale at [.., rows, K]: v's, with the last two
    // dimensions swapped for the rhs.
    auto swapLast = [&](const Basis &basis) {
      Basis result = basis;
      std::swap(result[rank - 2], result[rank - 1]);
      return result;
    };
    Bases rowsByK = opIdx == 0 ? *vBases : vBases->map(swapLast);
    // [.., rows, groups, factor]: a K coordinate splits into group and
    // offset in the group (bases are powers of two, so one of them is 0).
    Bases grouped = rowsByK.map([&](const Basis &basis) {
      Basis result = basis;
      int32_t kCoord = result[rank - 1];
      result[rank - 1] = kCoord / factor;
      result.push_back(kCoord % factor);
      return result;
    });
    Attribute groupedEncoding = grouped.toEncoding(ctx, rank + 1);

    auto scaleType = cast<RankedTensorType>(scale.getType());
    SmallVector<int64_t> expandedShape(scaleType.getShape());
    expandedShape.push_back(1);
    SmallVector<int64_t> groupedShape(scaleType.getShape());
    groupedShape.push_back(factor);
    SmallVector<int64_t> rowsByKShape(scaleType.getShape());
    rowsByKShape.back() *= factor;
    Type elem = scaleType.getElementType();

    // The one data movement: the scale into the slice of the grouped layout.
    auto sliceEncoding =
        ttg::SliceEncodingAttr::get(ctx, rank, groupedEncoding);
    Value x = ttg::ConvertLayoutOp::create(
        b, loc, scaleType.cloneWithEncoding(sliceEncoding), scale);
    x = tt::ExpandDimsOp::create(
        b, loc, RankedTensorType::get(expandedShape, elem, groupedEncoding), x,
        b.getI32IntegerAttr(rank));
    x = tt::BroadcastOp::create(
        b, loc, RankedTensorType::get(groupedShape, elem, groupedEncoding), x);
    // The lhs reshapes straight into v's type (whose layout rowsByK is).
    auto rowsByKType =
        opIdx == 0 ? vType
                   : RankedTensorType::get(rowsByKShape, elem,
                                           rowsByK.toEncoding(ctx, rank));
    x = tt::ReshapeOp::create(b, loc, rowsByKType, x);
    if (opIdx == 1) {
      SmallVector<int32_t> order = llvm::to_vector(llvm::seq<int32_t>(rank));
      std::swap(order[rank - 2], order[rank - 1]);
      x = tt::TransOp::create(b, loc, vType, x, b.getDenseI32ArrayAttr(order));
    }
    return x;
  }

  tt::RoundingModeAttr rtne() {
    return tt::RoundingModeAttr::get(ctx, tt::RoundingMode::RTNE);
  }

  Value splatI32(RankedTensorType type, int32_t value) {
    return arith::ConstantOp::create(
        b, loc, type, DenseElementsAttr::get(type, APInt(32, value)));
  }
};

struct MUSADecomposeScaledDot
    : public mlir::triton_musa::impl::MUSADecomposeScaledDotBase<
          MUSADecomposeScaledDot> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<tt::DotScaledOp> dots;
    getOperation().walk([&](tt::DotScaledOp op) { dots.push_back(op); });
    for (tt::DotScaledOp op : dots)
      if (failed(ScaledDotDecomposer(op).run()))
        return signalPassFailure();
  }
};

} // namespace
