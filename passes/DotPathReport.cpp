//===- DotPathReport.cpp - --musa-dot-path-report ------------------------===//
//
// One remark per dot after --musa-accelerate-matmul: for a dot on a matrix
// unit the catalogue row of its instruction (MatrixInstr::describe(), e.g.
// "wmma f16 x f16 -> f32 m32n32k16 on mp_2x") and how it is tiled; for fma
// the selection's reason (`musa.dot_path_reason`). Python reads these
// remarks (lowering.dot_path_report).
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialects/MUSAGPU/IR/Dialect.h"
#include "catalogue/MatrixInstrs.h"
#include "dialects/Triton/IR/Dialect.h"
#include "dialects/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::triton_musa {
#define GEN_PASS_DEF_MUSADOTPATHREPORT
#include "passes/Passes.h.inc"
} // namespace mlir::triton_musa

using namespace mlir;
using namespace mlir::triton_musa;
namespace mgpu = mlir::musagpu;
namespace ttg = mlir::triton::gpu;

namespace {

/// "MxNxK a -> acc" of a dot with operands `a`, `b` and result `d`.
std::string describeDot(Value a, Value d) {
  auto aType = cast<ShapedType>(a.getType());
  auto dType = cast<RankedTensorType>(d.getType());
  std::string s;
  llvm::raw_string_ostream os(s);
  ArrayRef<int64_t> shape = dType.getShape();
  for (int64_t dim : shape.drop_back(2))
    os << dim << "x";
  os << shape[shape.size() - 2] << "x" << shape.back() << "x"
     << aType.getShape().back() << " " << aType.getElementType() << " -> "
     << dType.getElementType();
  return s;
}

/// The value standing for a matrix unit's dot result `unitResult`: the
/// unit accumulates in f32, and a narrow float accumulator (f16, bf16) is
/// rounded once after it (--musa-accelerate-matmul's arith.truncf).
Value dotResult(Value unitResult) {
  for (Operation *user : unitResult.getUsers())
    if (auto round = dyn_cast<arith::TruncFOp>(user))
      return round.getResult();
  return unitResult;
}

/// ", accumulating in f32" where `unitResult` is rounded to a narrower type.
StringRef widenedNote(Value unitResult) {
  return dotResult(unitResult) != unitResult ? ", accumulating in f32" : "";
}

/// The catalogue row of the `unit` instruction `instr` (M, N, K) on
/// capability `versionMajor` for A elements `aElt`, as the catalogue
/// describes it. The rows of one instruction for different targets describe
/// alike, so the first target that has it is taken. The op verifiers accept
/// only catalogued shapes; a missing row is said, not hidden.
std::string quoteRow(mgpu::MatrixUnitKind unit, unsigned versionMajor,
                     Type aElt, ArrayRef<unsigned> instr) {
  if (std::optional<mgpu::MmaElementKind> kind = mgpu::getMmaElementKind(aElt))
    for (TargetKind target :
         {TargetKind::Device, TargetKind::Emulator, TargetKind::Proxy})
      if (const mgpu::MatrixInstr *row = mgpu::lookupMatrixInstr(
              unit, versionMajor, target, *kind, instr[0], instr[1], instr[2]))
        return row->describe();
  return llvm::formatv("{0} m{1}n{2}k{3} (not in the catalogue)",
                       mgpu::stringifyMatrixUnitKind(unit), instr[0], instr[1],
                       instr[2])
      .str();
}

/// The operand before --musa-accelerate-matmul's upcast (fp8 operands of
/// a unit that takes f16), or `operand`.
Value beforeUpcast(Value operand) {
  if (auto upcast = operand.getDefiningOp<triton::FpToFpOp>())
    return upcast.getSrc();
  return operand;
}

Type elementType(Value operand) {
  return cast<ShapedType>(operand.getType()).getElementType();
}

std::string list(ArrayRef<unsigned> values) {
  std::string s = "[";
  for (auto [i, v] : llvm::enumerate(values))
    s += (i ? ", " : "") + std::to_string(v);
  return s + "]";
}

struct MUSADotPathReport
    : public mlir::triton_musa::impl::MUSADotPathReportBase<
          MUSADotPathReport> {
  using Base::Base;

  void runOnOperation() override {
    getOperation().walk([](Operation *op) {
      if (auto wmma = dyn_cast<mgpu::WMMAOp>(op)) {
        auto enc = cast<mgpu::WMMAEncodingAttr>(
            cast<RankedTensorType>(wmma.getD().getType()).getEncoding());
        Value a = beforeUpcast(wmma.getA());
        InFlightDiagnostic remark = op->emitRemark();
        remark << "dot " << describeDot(a, dotResult(wmma.getD())) << ": "
               << quoteRow(mgpu::MatrixUnitKind::WMMA, enc.getVersionMajor(),
                           elementType(wmma.getA()), enc.getInstrShape())
               << ", warpsPerCTA " << list(enc.getWarpsPerCTA());
        if (a != wmma.getA()) {
          std::string upcast;
          llvm::raw_string_ostream(upcast) << elementType(wmma.getA());
          remark << ", operands upcast to " << upcast;
        }
        remark << widenedNote(wmma.getD());
      } else if (auto sqmma = dyn_cast<mgpu::SQMMAOp>(op)) {
        auto enc = cast<mgpu::SQMMAEncodingAttr>(
            cast<RankedTensorType>(sqmma.getD().getType()).getEncoding());
        // The result the dot's users see comes out of the wait.
        Value result = sqmma.getD();
        for (OpOperand &use : sqmma.getD().getUses())
          if (auto wait = dyn_cast<mgpu::SQMMAWaitOp>(use.getOwner()))
            result = wait->getResult(use.getOperandNumber());
        op->emitRemark() << "dot "
                         << describeDot(sqmma.getA(), dotResult(result))
                         << ": "
                         << quoteRow(mgpu::MatrixUnitKind::SQMMA,
                                     enc.getVersionMajor(),
                                     elementType(sqmma.getA()),
                                     enc.getInstrShape())
                         << ", warpsPerCTA "
                         << list(enc.getWarpsPerCTA()) << ", A "
                         << (sqmma.getTransA() ? "M" : "K") << "-major, B "
                         << (sqmma.getTransB() ? "K" : "N") << "-major"
                         << (isa_and_nonnull<ttg::MemDescIndexOp>(
                                 sqmma.getA().getDefiningOp())
                                 ? ", operands from the pipelined buffers"
                                 : "")
                         << widenedNote(result);
      } else if (auto dot = dyn_cast<triton::DotOp>(op)) {
        auto reason = dot->getAttrOfType<StringAttr>("musa.dot_path_reason");
        op->emitRemark() << "dot " << describeDot(dot.getA(), dot.getD())
                         << ": fma ("
                         << (reason ? reason.getValue()
                                    : "--musa-accelerate-matmul did not run")
                         << ")";
      }
    });
  }
};

} // namespace
