//===- AccelerateMatmul.cpp - --musa-accelerate-matmul -------------------===//
//
// Matrix-path selection: each tt.dot goes to the arch's matrix unit when its
// dtypes, shape and num_warps fit a legal instruction, else stays on FMA.
//
// Design (the plan is in Passes.td; in short):
//  * One decision per dot, made by selectDotPath from the arch table's
//    matrixUnit, the switches (enable-mma / enable-sqmma), the operand and
//    accumulator types, input_precision, the shape and num_warps. The
//    decision is either a WMMA atom with warpsPerCTA, or FMA with a reason
//    string, stored on the dot as `musa.dot_path_reason` so that
//    --musa-dot-path-report (and Python) can say why.
//  * WMMA: register operands. The dot becomes musagpu.wmma between
//    ttg.convert_layouts (operands to #musagpu.wmma_operand, accumulator to
//    #musagpu.wmma, result back). Layout conversions are lowered through the
//    linear layouts of those encodings, which also define the fragment each
//    thread hands the instruction: the WMMA lowering needs no other
//    knowledge of the fragment layout.
//  * SQMMA (mp_31): chosen by the table but not lowered yet, so such dots
//    stay on FMA with that reason (never half-lowered).
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialects/MUSAGPU/IR/Dialect.h"
#include "dialects/Triton/IR/Dialect.h"
#include "dialects/TritonGPU/IR/Dialect.h"
#include "target/MUSAArch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::triton_musa {
#define GEN_PASS_DEF_MUSAACCELERATEMATMUL
#include "passes/Passes.h.inc"
} // namespace mlir::triton_musa

using namespace mlir;
using namespace mlir::triton_musa;
namespace ttg = mlir::triton::gpu;
namespace mgpu = mlir::musagpu;

namespace {

constexpr StringLiteral kReasonAttr = "musa.dot_path_reason";

/// A WMMA instruction this backend lowers, for one warp size and element
/// kind. QY2 (128-thread warps): only f16/bf16 m32n32k16 is confirmed by a
/// public source (MUSA-FACTS.md, last section); its tf32 32x32x8 and s8
/// 32x32x32 atoms are not, so those dtypes stay on FMA.
struct WMMAAtom {
  unsigned warpSize;
  mgpu::MmaElementKind kind;
  unsigned m, n, k;
};
constexpr WMMAAtom kWMMAAtoms[] = {
    {128, mgpu::MmaElementKind::F16, 32, 32, 16},
    {128, mgpu::MmaElementKind::BF16, 32, 32, 16},
};

struct DotPath {
  /// The chosen WMMA atom and warps, or none (FMA, see `reason`).
  std::optional<WMMAAtom> wmma;
  SmallVector<unsigned> warpsPerCTA;
  std::string reason;
};

DotPath stayOnFMA(std::string reason) {
  DotPath path;
  path.reason = std::move(reason);
  return path;
}

std::string typeName(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  type.print(os);
  return s;
}

/// The most warps along M (a power of two, at most the number of atom rows)
/// such that the rest fit along N; empty when num_warps cannot tile the
/// result with whole atoms.
SmallVector<unsigned> chooseWarps(int64_t m, int64_t n, const WMMAAtom &atom,
                                  unsigned numWarps) {
  int64_t rowsM = m / atom.m, colsN = n / atom.n;
  for (unsigned wm = numWarps; wm >= 1; wm /= 2) {
    unsigned wn = numWarps / wm;
    if (wm <= rowsM && wn <= colsN && rowsM % wm == 0 && colsN % wn == 0)
      return {wm, wn};
  }
  return {};
}

DotPath selectDotPath(triton::DotOp dot, const MUSAArchInfo &arch,
                      unsigned numWarps, bool enableMMA, bool enableSQMMA) {
  if (arch.matrixUnit == MatrixUnit::None)
    return stayOnFMA((arch.name + " has no matrix unit").str());
  if (!enableMMA)
    return stayOnFMA("matrix units disabled (ENABLE_MUSA_MMA=0)");
  if (arch.matrixUnit == MatrixUnit::SQMMA)
    return stayOnFMA(enableSQMMA
                   ? "SQMMA lowering not implemented yet"
                   : "SQMMA disabled (MUSA_ENABLE_SQMMA=0) and no other "
                     "matrix path on " +
                         arch.name.str());

  auto aType = cast<RankedTensorType>(dot.getA().getType());
  auto bType = cast<RankedTensorType>(dot.getB().getType());
  auto dType = cast<RankedTensorType>(dot.getD().getType());
  Type aElem = aType.getElementType(), bElem = bType.getElementType();
  Type accElem = dType.getElementType();
  if (aElem != bElem)
    return stayOnFMA("operand types differ (" + typeName(aElem) + " x " +
               typeName(bElem) + ")");
  std::optional<mgpu::MmaElementKind> kind = mgpu::getMmaElementKind(aElem);
  if (!kind)
    return stayOnFMA(typeName(aElem) + " operands have no matrix instruction");
  if (*kind == mgpu::MmaElementKind::TF32 &&
      dot.getInputPrecision() != triton::InputPrecision::TF32)
    return stayOnFMA("f32 operands with input_precision = " +
               triton::stringifyInputPrecision(dot.getInputPrecision()).str() +
               " (only tf32 takes a matrix path)");
  if (*kind == mgpu::MmaElementKind::E4M3 ||
      *kind == mgpu::MmaElementKind::E5M2)
    return stayOnFMA("fp8 operands need mp_31's SQMMA");
  const WMMAAtom *atom = nullptr;
  for (const WMMAAtom &candidate : kWMMAAtoms)
    if (candidate.warpSize == arch.warpSize && candidate.kind == *kind)
      atom = &candidate;
  if (!atom)
    return stayOnFMA("no confirmed " + mgpu::stringifyMmaElementKind(*kind).str() +
               " WMMA atom on " + arch.name.str() +
               " (MUSA-FACTS.md: only f16/bf16 m32n32k16)");
  bool intKind = *kind == mgpu::MmaElementKind::S8;
  if (intKind ? !accElem.isInteger(32) : !accElem.isF32())
    return stayOnFMA(typeName(accElem) + " accumulator (WMMA accumulates in " +
               (intKind ? "i32" : "f32") + ")");
  if (dType.getRank() != 2)
    return stayOnFMA("batched (rank-3) dot not on a matrix path yet");
  int64_t m = dType.getShape()[0], n = dType.getShape()[1];
  int64_t k = aType.getShape()[1];
  if (m % atom->m || n % atom->n || k % atom->k)
    return stayOnFMA(llvm::formatv("shape {0}x{1}x{2} is not a multiple of the "
                             "m{3}n{4}k{5} atom",
                             m, n, k, atom->m, atom->n, atom->k)
                   .str());
  SmallVector<unsigned> warps = chooseWarps(m, n, *atom, numWarps);
  if (warps.empty())
    return stayOnFMA(llvm::formatv("num_warps = {0} cannot tile {1}x{2} with "
                             "{3}x{4} atoms, one per warp at least",
                             numWarps, m, n, atom->m, atom->n)
                   .str());
  DotPath path;
  path.wmma = *atom;
  path.warpsPerCTA = std::move(warps);
  return path;
}

/// `value` in the layout of `type`: a splat constant (an accumulator's zero
/// init, say) is rebuilt in that layout, which moves no data and needs no
/// shared-memory scratch; anything else is converted.
Value convertLayout(OpBuilder &b, Location loc, RankedTensorType type,
                    Value value) {
  DenseElementsAttr splat;
  if (matchPattern(value, m_Constant(&splat)) && splat.isSplat())
    return arith::ConstantOp::create(b, loc, type, splat.resizeSplat(type));
  return ttg::ConvertLayoutOp::create(b, loc, type, value);
}

/// `value` converted to `encoding` (looking through a convert_layout that
/// produced it, so that chains collapse).
Value convertTo(OpBuilder &b, Location loc, Value value, Attribute encoding) {
  if (auto cvt = value.getDefiningOp<ttg::ConvertLayoutOp>())
    value = cvt.getSrc();
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getEncoding() == encoding)
    return value;
  auto newType =
      RankedTensorType::get(type.getShape(), type.getElementType(), encoding);
  // An operand read from shared memory (e.g. a pipelined ring buffer) for
  // this dot alone is read straight into the new layout: no scratch.
  if (auto load = value.getDefiningOp<ttg::LocalLoadOp>();
      load && load->hasOneUse()) {
    load.getResult().setType(newType);
    return load.getResult();
  }
  return convertLayout(b, loc, newType, value);
}

mgpu::WMMAOp rewriteToWMMA(triton::DotOp dot, const MUSAArchInfo &arch,
                   const DotPath &path) {
  MLIRContext *ctx = dot.getContext();
  const WMMAAtom &atom = *path.wmma;
  auto acc = mgpu::WMMAEncodingAttr::get(ctx, arch.major, arch.minor,
                                         path.warpsPerCTA,
                                         {atom.m, atom.n, atom.k});
  auto opA = mgpu::WMMAOperandEncodingAttr::get(ctx, 0, acc);
  auto opB = mgpu::WMMAOperandEncodingAttr::get(ctx, 1, acc);
  OpBuilder b(dot);
  Location loc = dot.getLoc();
  Value a = convertTo(b, loc, dot.getA(), opA);
  Value bb = convertTo(b, loc, dot.getB(), opB);
  Value c = convertTo(b, loc, dot.getC(), acc);
  auto wmma = mgpu::WMMAOp::create(b, loc, c.getType(), a, bb, c);
  auto dType = cast<RankedTensorType>(dot.getD().getType());
  Value d = ttg::ConvertLayoutOp::create(b, loc, dType, wmma.getD());
  SmallVector<Operation *> inputs = {dot.getA().getDefiningOp(),
                                     dot.getB().getDefiningOp()};
  dot.getD().replaceAllUsesWith(d);
  dot.erase();
  // The FMA operand conversions convertTo looked through are dead now.
  for (Operation *input : inputs)
    if (isa_and_nonnull<ttg::ConvertLayoutOp>(input) && input->use_empty())
      input->erase();
  return wmma;
}

/// Keeps a K loop's accumulator in the #musagpu.wmma layout: where the
/// accumulator `acc` of `wmma` is an scf.for iter_arg used only by its
/// conversion into `wmma`, and `wmma`'s result is converted back only to be
/// yielded into the same iter_arg, the loop carries the WMMA layout itself
/// and the two conversions move out of the loop (before it: the init; after
/// it: the result).
void carryAccumulatorInLayout(mgpu::WMMAOp wmma) {
  auto toAcc = wmma.getC().getDefiningOp<ttg::ConvertLayoutOp>();
  if (!toAcc || !wmma.getD().hasOneUse())
    return;
  auto arg = dyn_cast<BlockArgument>(toAcc.getSrc());
  auto loop = arg ? dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp())
                  : scf::ForOp();
  if (!loop || arg.getArgNumber() == 0 || !arg.hasOneUse() ||
      !toAcc->hasOneUse() || toAcc->getParentOp() != loop)
    return;
  unsigned idx = arg.getArgNumber() - 1;
  auto back = dyn_cast<ttg::ConvertLayoutOp>(*wmma.getD().user_begin());
  if (!back || !back->hasOneUse())
    return;
  auto yield = dyn_cast<scf::YieldOp>(*back->user_begin());
  if (!yield || yield->getParentOp() != loop ||
      yield.getOperand(idx) != back.getResult() ||
      llvm::count(yield->getOperands(), back.getResult()) != 1)
    return;
  Type accType = wmma.getC().getType();
  Type plainType = arg.getType();
  OpBuilder b(loop);
  OpOperand &init = loop.getInitArgsMutable()[idx];
  init.set(convertLayout(b, loop.getLoc(), cast<RankedTensorType>(accType),
                        init.get()));
  arg.setType(accType);
  toAcc.getResult().replaceAllUsesWith(arg);
  toAcc.erase();
  yield->setOperand(idx, wmma.getD());
  back.erase();
  Value result = loop.getResult(idx);
  result.setType(accType);
  // The conversion back goes right before the result's first use: the
  // pipeliner's final wait and buffer deallocations after the loop then come
  // first, so its shared-memory scratch does not add to the live ring buffers.
  b.setInsertionPointAfter(loop);
  for (Operation *op = loop->getNextNode(); op; op = op->getNextNode())
    if (llvm::any_of(op->getOperands(),
                     [&](Value operand) { return operand == result; }) ||
        op->getNumRegions() != 0) {
      b.setInsertionPoint(op);
      break;
    }
  auto out = ttg::ConvertLayoutOp::create(b, loop.getLoc(), plainType, result);
  result.replaceAllUsesExcept(out.getResult(), out);
}

struct MUSAAccelerateMatmul
    : public mlir::triton_musa::impl::MUSAAccelerateMatmulBase<
          MUSAAccelerateMatmul> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<const MUSAArchInfo *> arch =
        resolveMUSAArch(module, this->arch, "--musa-accelerate-matmul");
    if (failed(arch))
      return signalPassFailure();
    std::optional<ttg::ModuleLaunchInfo> launch =
        ttg::getModuleLaunchInfo(module);
    if (!launch) {
      module.emitError("--musa-accelerate-matmul: the module has no "
                       "ttg.num-warps / ttg.threads-per-warp");
      return signalPassFailure();
    }
    SmallVector<triton::DotOp> dots;
    module.walk([&](triton::DotOp dot) { dots.push_back(dot); });
    for (triton::DotOp dot : dots) {
      DotPath path = selectDotPath(dot, **arch, launch->numWarps, enableMMA,
                                   enableSQMMA);
      if (path.wmma) {
        carryAccumulatorInLayout(rewriteToWMMA(dot, **arch, path));
        continue;
      }
      dot->setAttr(kReasonAttr, StringAttr::get(dot.getContext(), path.reason));
    }
  }
};

} // namespace
