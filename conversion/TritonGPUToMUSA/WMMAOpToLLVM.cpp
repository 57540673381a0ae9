//===- WMMAOpToLLVM.cpp - musagpu.wmma -> LLVM ----------------------------===//
//
// musagpu.wmma's operands and accumulator carry #musagpu.wmma_operand and
// #musagpu.wmma encodings, whose linear layouts put one instruction's
// fragment in the lowest register bits (layouts/LayoutConversion.cpp): a
// thread's registers are whole fragments, one per atom it takes part in.
// The atom a fragment belongs to is L(register = first register of the
// fragment, lane = 0, warp = 0) divided by the atom's extent (the batch
// index, for a rank-3 dot, as is). For each accumulator fragment (batch bt,
// atom row mt, column nt) the lowering chains the instructions over K:
//
//   acc(bt, mt, nt) = wmma(A(bt, mt, kt), B(bt, kt, nt), acc(bt, mt, nt))
//                                                    for kt = 0, 1, ...
//
// A batched dot is thus, per batch, the same sequence of 2-D atoms; which
// warps and registers hold which batch is the encodings' business
// (warpsPerCTA[0] warps along the batch, further batches in registers).
// With more warps than atoms the warps past the atoms replicate: their warp
// bases are zero, so they hold the same fragments as a lower warp and issue
// the same instructions (the conversions out of #musagpu.wmma store one
// copy, the owner warp's).
//
// The instruction itself is the target's (TargetInfo::wmma): an
// `llvm.musa.*mma` call on the GPU, a runtime call on the emulator,
// mma.sync on the GPU proxy (whose rows have their own fragment).
//
//===----------------------------------------------------------------------===//

#include "conversion/TritonGPUToMUSA/LayoutIndices.h"
#include "conversion/TritonGPUToMUSA/PatternTritonGPUOpToLLVM.h"
#include "conversion/TritonGPUToMUSA/Utility.h"

#include "dialects/MUSAGPU/IR/Dialect.h"

#include <map>
#include <tuple>

using namespace mlir;
using namespace mlir::triton_musa;

namespace {

namespace mgpu = mlir::musagpu;

/// An atom's position: (batch, row tile, column tile); batch is 0 for a
/// rank-2 dot.
using AtomPos = std::tuple<int32_t, int32_t, int32_t>;

/// The fragments of a tensor, by atom position: the index of each
/// fragment's first register.
using FragmentIndex = std::map<AtomPos, unsigned>;

FailureOr<FragmentIndex> indexFragments(const LinearLayout &layout,
                                        unsigned fragmentRegs, int32_t rowSize,
                                        int32_t colSize) {
  FragmentIndex index;
  unsigned regs = layout.getInDimSize(kRegister);
  if (regs % fragmentRegs)
    return failure();
  for (unsigned r = 0; r < regs; r += fragmentRegs) {
    SmallVector<int32_t> c = applyLayout(layout, {{kRegister, int32_t(r)}});
    size_t rank = c.size();
    int32_t batch = rank == 3 ? c[0] : 0;
    int32_t row = c[rank - 2], col = c[rank - 1];
    if (row % rowSize || col % colSize)
      return failure();
    index.try_emplace({batch, row / rowSize, col / colSize}, r);
  }
  return index;
}

/// Lowers musagpu.wmma to one TargetInfo::wmma per (atom, K step).
struct WMMAOpConversion : public MUSAPattern<mgpu::WMMAOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult lower(mgpu::WMMAOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto aType = cast<RankedTensorType>(op.getA().getType());
    auto bType = cast<RankedTensorType>(op.getB().getType());
    auto dType = cast<RankedTensorType>(op.getD().getType());
    auto enc = cast<mgpu::WMMAEncodingAttr>(dType.getEncoding());
    int32_t m = enc.getInstrM(), n = enc.getInstrN(), k = enc.getInstrK();
    unsigned warpSize = targetInfo.getWarpSize();
    if (enc.getThreadsPerWarp() != warpSize)
      return op.emitError() << "#musagpu.wmma for " << enc.getThreadsPerWarp()
                            << "-thread warps on " << targetInfo.getArchName()
                            << " (" << warpSize << "-thread warps)";
    // The target's row of the instruction in the catalogue (the emulator
    // shares the device's); the target takes its name and kinds from it.
    std::optional<mgpu::MmaElementKind> kind =
        mgpu::getMmaElementKind(aType.getElementType());
    const mgpu::MatrixInstr *row =
        kind ? mgpu::lookupMatrixInstr(mgpu::MatrixUnitKind::WMMA,
                                       enc.getVersionMajor(),
                                       targetInfo.getKind(), *kind, m, n, k)
             : nullptr;
    if (!row || !row->isLowered())
      return op.emitError()
             << "no WMMA lowering for " << aType.getElementType() << " x "
             << bType.getElementType() << " -> " << dType.getElementType()
             << " m" << m << "n" << n << "k" << k << " on "
             << targetInfo.getArchName()
             << (row ? ": " + row->notLowered.str() : std::string());
    // The layouts must hold the values as the target's instruction does.
    if (row->fragment != enc.getResolvedFragment())
      return op.emitError()
             << "#musagpu.wmma with the "
             << mgpu::stringifyMatrixFragment(enc.getResolvedFragment())
             << " fragment, but " << targetInfo.getArchName() << "'s "
             << row->describe() << " holds the "
             << mgpu::stringifyMatrixFragment(row->fragment) << " fragment";
    unsigned aRegs = m * k / warpSize, bRegs = k * n / warpSize,
             cRegs = m * n / warpSize;

    auto emitError = [&] { return op.emitError(); };
    auto la = getLinearLayout(aType, emitError);
    auto lb = getLinearLayout(bType, emitError);
    auto lc = getLinearLayout(dType, emitError);
    if (failed(la) || failed(lb) || failed(lc))
      return failure();
    FailureOr<FragmentIndex> aIndex = indexFragments(*la, aRegs, m, k);
    FailureOr<FragmentIndex> bIndex = indexFragments(*lb, bRegs, k, n);
    FailureOr<FragmentIndex> cIndex = indexFragments(*lc, cRegs, m, n);
    if (failed(aIndex) || failed(bIndex) || failed(cIndex))
      return op.emitError() << "'musagpu.wmma' operand layouts do not split "
                               "into whole m"
                            << m << "n" << n << "k" << k << " fragments";

    SmallVector<Value> a = unpackLLElements(rewriter, loc, adaptor.getA());
    SmallVector<Value> b = unpackLLElements(rewriter, loc, adaptor.getB());
    SmallVector<Value> acc = unpackLLElements(rewriter, loc, adaptor.getC());
    WMMAInstr instr{*row};
    int32_t kSteps = aType.getShape().back() / k;
    for (auto [pos, cBase] : *cIndex) {
      auto [bt, mt, nt] = pos;
      ArrayRef<Value> c(acc.begin() + cBase, cRegs);
      SmallVector<Value> d(c.begin(), c.end());
      for (int32_t kt = 0; kt < kSteps; ++kt) {
        auto ai = aIndex->find({bt, mt, kt}), bi = bIndex->find({bt, kt, nt});
        if (ai == aIndex->end() || bi == bIndex->end())
          return op.emitError()
                 << "'musagpu.wmma': a thread lacks the operand fragments "
                    "of its accumulator tile ("
                 << (dType.getRank() == 3 ? std::to_string(bt) + ", " : "")
                 << mt << ", " << nt << ") at K step " << kt;
        FailureOr<SmallVector<Value>> next = targetInfo.wmma(
            rewriter, loc, instr, ArrayRef<Value>(a).slice(ai->second, aRegs),
            ArrayRef<Value>(b).slice(bi->second, bRegs), d);
        if (failed(next))
          return failure();
        d = std::move(*next);
      }
      llvm::copy(d, acc.begin() + cBase);
    }
    Type structType = getTypeConverter()->convertType(dType);
    if (!structType)
      return failure();
    rewriter.replaceOp(op, packLLElements(rewriter, loc, acc, structType));
    return success();
  }
};

} // namespace

void mlir::triton_musa::populateWMMAOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo) {
  patterns.add<WMMAOpConversion>(typeConverter, targetInfo);
}
