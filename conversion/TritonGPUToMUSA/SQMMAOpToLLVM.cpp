//===- SQMMAOpToLLVM.cpp - musagpu.sqmma / sqmma_wait -> LLVM -------------===//
//
// musagpu.sqmma reads A and B from shared buffers in #musagpu.tme_shared
// (the SQMMA swizzle) and keeps the accumulator in #musagpu.sqmma, whose
// linear layout (layouts/LayoutConversion.cpp, sqmmaTile) puts one
// instruction's fragment of a squad in m*n/128 consecutive registers. For
// each such fragment the lowering finds the tile it covers: its register
// part L(r, 0, 0) (a compile-time repetition offset) plus the squad's offset
// L(0, 0, warp with the two in-squad bits cleared) (run time). Then per K
// step it builds one descriptor per operand tile and chains the
// instructions through the accumulator:
//
//   acc(mt, nt) = sqmma(desc A(mt, kt), desc B(kt, nt), acc(mt, nt))
//
// A batched (rank-3) dot is the same per batch: the accumulator layout
// gives each fragment its batch too (squads along the batch, further
// batches in registers), and the operand buffers hold one 2-D operand per
// batch, batch outermost (order [inner, outer, 0]), so batch b's tile is
// addressed as rows b * outerExtent + r of one tall 2-D buffer.
//
// f16/bf16 instructions have K <= 64, so a K = 128 tile is two K = 64
// steps (MUSA-FACTS.md: the shipped toolchain crashes on K = 128).
// Operand tiles the threads store (ttg.local_alloc with a source,
// ttg.local_store) are fenced by their writers for the matrix unit's reads
// (markSQMMAOperandWrites, TargetInfo::fenceSharedWritesForAsyncReads), not
// at every sqmma: a ring only async copies fill needs none, and a tile
// stored once before a loop is fenced once.
//
// Each instruction goes to TargetInfo::sqmmaOnTiles with its two operand
// tiles (a target may issue it as several smaller instructions: the proxy's
// wgmma); musagpu.sqmma_wait lowers to one TargetInfo::sqmmaWaitFor on the
// accumulators after the chain.
//
// An operand tile starts at the unswizzled element offset of its first
// element in the buffer (the #musagpu.tme_shared "dense" order: rows of at
// most one piece, 256 bytes (128 with a 128-byte swizzle line), along the
// contiguous dimension, further pieces after all rows): for logical
// coordinates (inner, outer)
//   (inner / piece) * (outerExtent * piece) + outer * piece + inner % piece,
// the descriptor's leading stride is piece * elementBytes, and the hardware
// applies the buffer's swizzle to the absolute addresses it reads (so
// buffers are aligned to the swizzle period, see AccelerateMatmul.cpp).
//
//===----------------------------------------------------------------------===//

#include "conversion/TritonGPUToMUSA/LayoutIndices.h"
#include "conversion/TritonGPUToMUSA/PatternTritonGPUOpToLLVM.h"
#include "conversion/TritonGPUToMUSA/Utility.h"

#include "dialects/MUSAGPU/IR/Dialect.h"
#include "dialects/TritonGPU/IR/Dialect.h"

#include <array>
#include <map>

using namespace mlir;
using namespace mlir::triton_musa;

namespace {

namespace mgpu = mlir::musagpu;
namespace ttg = mlir::triton::gpu;

/// How one operand buffer is addressed (see the file comment).
struct OperandBuffer {
  Value base;
  Type elementType;
  unsigned elementBytes;
  /// Logical dims [row, col] of the operand: inner is the contiguous one.
  unsigned innerDim, outerDim;
  int64_t outerExtent, piece;
  /// Batches of a rank-3 buffer (1 for rank 2).
  int64_t batches;
  int32_t granularity, stride, line;

  /// The descriptor fields of the tile of batch `batch` whose first element
  /// is at `coords` (i32 values, in the operand's [row, col] order). A
  /// rank-3 buffer has the batch outermost but inside the 256-byte pieces
  /// (order [inner, outer, batch]): as a 2-D buffer of batches *
  /// outerExtent outer rows, batch b's row r is row b * outerExtent + r.
  SQMMAOperandTile tileAt(OpBuilder &b, Location loc, Value batch,
                          ArrayRef<Value> coords) const {
    Type i32 = b.getI32Type();
    auto c = [&](int64_t v) {
      return LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(v));
    };
    Value inner = coords[innerDim];
    Value outer = LLVM::AddOp::create(
        b, loc, LLVM::MulOp::create(b, loc, batch, c(outerExtent)),
        coords[outerDim]);
    int64_t rows = batches * outerExtent;
    Value pieceIdx = LLVM::UDivOp::create(b, loc, inner, c(piece));
    Value inPiece = LLVM::URemOp::create(b, loc, inner, c(piece));
    Value offset = LLVM::AddOp::create(
        b, loc,
        LLVM::MulOp::create(b, loc, pieceIdx, c(rows * piece)),
        LLVM::AddOp::create(b, loc, LLVM::MulOp::create(b, loc, outer, c(piece)),
                            inPiece));
    Value bytes = LLVM::MulOp::create(b, loc, offset, c(elementBytes));
    Value ptr = LLVM::GEPOp::create(b, loc, base.getType(), b.getI8Type(),
                                    base, ValueRange{bytes});
    return SQMMAOperandTile{ptr,         elementType,
                            unsigned(piece * elementBytes),
                            granularity, stride,
                            line,        rows * piece * elementBytes};
  }
};

/// The addressing of `memdesc` (lowered to `base`), or an error at `op`.
FailureOr<OperandBuffer> getOperandBuffer(Operation *op, StringRef name,
                                          Value base, ttg::MemDescType type,
                                          bool innerIsRow) {
  auto enc = dyn_cast<mgpu::TMESharedEncodingAttr>(type.getEncoding());
  if (!enc)
    return op->emitError() << "'musagpu.sqmma' operand " << name
                           << " must be in a #musagpu.tme_shared buffer (the "
                              "SQMMA swizzle), got "
                           << type;
  ArrayRef<int64_t> fullShape = type.getShape();
  ArrayRef<int64_t> shape = fullShape.take_back(2);
  ArrayRef<unsigned> fullOrder = enc.getOrder();
  // A rank-3 operand's buffer holds the batch outermost; its row and column
  // order, shifted to [0, 2), is that of a 2-D operand.
  bool batched = fullOrder.size() == 3 && fullShape.size() == 3;
  SmallVector<unsigned> order;
  if (batched && fullOrder[2] == 0)
    order = {fullOrder[0] - 1, fullOrder[1] - 1};
  else if (!batched)
    order.assign(fullOrder.begin(), fullOrder.end());
  auto printOrder = [&](InFlightDiagnostic &diag) -> InFlightDiagnostic & {
    diag << "[";
    llvm::interleaveComma(fullOrder, diag);
    return diag << "]";
  };
  if (order.size() != 2 || (order[0] == 0) != innerIsRow) {
    InFlightDiagnostic diag = op->emitError()
                              << "'musagpu.sqmma' operand " << name
                              << ": the buffer's order ";
    printOrder(diag) << (batched ? " does not keep the batch outermost or "
                                   "does not match the op's trans flag"
                                 : " does not match the op's trans flag");
    return diag;
  }
  OperandBuffer buffer;
  buffer.base = base;
  buffer.elementType = type.getElementType();
  buffer.elementBytes = type.getElementTypeBitWidth() / 8;
  buffer.innerDim = order[0];
  buffer.outerDim = order[1];
  buffer.outerExtent = shape[buffer.outerDim];
  buffer.batches = batched ? fullShape[0] : 1;
  buffer.piece = std::min<int64_t>(shape[buffer.innerDim],
                                   enc.getPieceBytes() / buffer.elementBytes);
  buffer.granularity = int32_t(enc.getSwizzleGranularity());
  buffer.stride = int32_t(enc.getSwizzleStride());
  buffer.line = int32_t(enc.getSwizzleLine());
  return buffer;
}

/// Lowers musagpu.sqmma to TargetInfo::sqmmaDescriptor/sqmma calls.
struct SQMMAOpConversion : public MUSAPattern<mgpu::SQMMAOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult lower(mgpu::SQMMAOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto aType = cast<ttg::MemDescType>(op.getA().getType());
    auto bType = cast<ttg::MemDescType>(op.getB().getType());
    auto dType = cast<RankedTensorType>(op.getD().getType());
    unsigned rank = dType.getRank();
    auto enc = cast<mgpu::SQMMAEncodingAttr>(dType.getEncoding());
    std::optional<mgpu::MmaElementKind> kind =
        mgpu::getMmaElementKind(aType.getElementType());
    if (!kind)
      return op.emitError() << "'musagpu.sqmma' on " << aType.getElementType()
                            << " operands";
    // The catalogue's row for this target (the emulator's are the
    // device's; the proxy has its own, with wgmma's fragment).
    const mgpu::MatrixInstr *row = mgpu::lookupMatrixInstr(
        mgpu::MatrixUnitKind::SQMMA, enc.getVersionMajor(),
        targetInfo.getKind(), *kind, enc.getInstrM(), enc.getInstrN(),
        enc.getInstrK());
    if (!row || !row->isLowered())
      return op.emitError()
             << "no SQMMA lowering for " << aType.getElementType() << " m"
             << enc.getInstrM() << "n" << enc.getInstrN() << "k"
             << enc.getInstrK() << " on this target"
             << (row ? ": " + row->notLowered.str() : std::string());
    if (row->fragment != enc.getFragment())
      return op.emitError()
             << "the accumulator's fragment "
             << mgpu::stringifyMatrixFragment(enc.getFragment())
             << " is not the one this target's SQMMA holds ("
             << mgpu::stringifyMatrixFragment(row->fragment)
             << "): --musa-accelerate-matmul ran for another target";
    SQMMAInstr instr{*row, op.getTransA(), op.getTransB()};
    // A [M, K] is inner-major along M when transposed; B [K, N] along K.
    FailureOr<OperandBuffer> a = getOperandBuffer(
        op, "A", adaptor.getA(), aType, /*innerIsRow=*/op.getTransA());
    FailureOr<OperandBuffer> b = getOperandBuffer(
        op, "B", adaptor.getB(), bType, /*innerIsRow=*/op.getTransB());
    if (failed(a) || failed(b))
      return failure();

    auto emitError = [&] { return op.emitError(); };
    FailureOr<LinearLayout> lc = getLinearLayout(dType, emitError);
    if (failed(lc))
      return failure();
    unsigned fragment = instr.row.m * instr.row.n / 128;
    unsigned regs = lc->getInDimSize(kRegister);
    if (regs % fragment)
      return op.emitError() << "'musagpu.sqmma': " << regs
                            << " accumulator registers per thread are not "
                               "whole m"
                            << instr.row.m << "n" << instr.row.n << " fragments";

    // The squad's tile offset: the warp bits above the four warps of a
    // squad (the in-squad bits only move rows within the instruction).
    Type i32 = rewriter.getI32Type();
    auto c = [&](int64_t v) -> Value {
      return LLVM::ConstantOp::create(rewriter, loc, i32,
                                      rewriter.getI32IntegerAttr(v));
    };
    // (Warp-uniform: what a squad's operand address is computed from.)
    Value warp;
    if (lc->getInDimSize(kWarp) > 4)
      warp = targetInfo.warpUniform(
          rewriter, loc, emitLaneAndWarpId(rewriter, loc, targetInfo).second);
    // Coordinates are [batch, row, col]; a rank-2 dot has batch 0.
    Value squad[3] = {c(0), c(0), c(0)};
    auto coords3 = [&](ArrayRef<int32_t> coords) {
      return rank == 3 ? std::array<int32_t, 3>{coords[0], coords[1], coords[2]}
                       : std::array<int32_t, 3>{0, coords[0], coords[1]};
    };
    for (int32_t bit = 2; (1 << bit) < lc->getInDimSize(kWarp); ++bit) {
      std::array<int32_t, 3> basis =
          coords3(applyLayout(*lc, {{kWarp, 1 << bit}}));
      Value set = LLVM::AndOp::create(
          rewriter, loc, LLVM::LShrOp::create(rewriter, loc, warp, c(bit)),
          c(1));
      for (unsigned d = 0; d < 3; ++d)
        squad[d] = LLVM::AddOp::create(
            rewriter, loc, squad[d],
            LLVM::MulOp::create(rewriter, loc, set, c(basis[d])));
    }

    SmallVector<Value> acc = unpackLLElements(rewriter, loc, adaptor.getC());
    int64_t kSteps = aType.getShape().back() / instr.row.k;
    for (unsigned first = 0; first < regs; first += fragment) {
      std::array<int32_t, 3> rep =
          coords3(applyLayout(*lc, {{kRegister, int32_t(first)}}));
      if (rep[1] % int32_t(instr.row.m) || rep[2] % int32_t(instr.row.n))
        return op.emitError() << "'musagpu.sqmma': accumulator register "
                              << first << " does not start an m" << instr.row.m
                              << "n" << instr.row.n << " fragment";
      Value batch = LLVM::AddOp::create(rewriter, loc, squad[0], c(rep[0]));
      Value row = LLVM::AddOp::create(rewriter, loc, squad[1], c(rep[1]));
      Value col = LLVM::AddOp::create(rewriter, loc, squad[2], c(rep[2]));
      SmallVector<Value> d(acc.begin() + first,
                           acc.begin() + first + fragment);
      for (int64_t kt = 0; kt < kSteps; ++kt) {
        Value k0 = c(kt * instr.row.k);
        SQMMAOperandTile tileA = a->tileAt(rewriter, loc, batch, {row, k0});
        SQMMAOperandTile tileB = b->tileAt(rewriter, loc, batch, {k0, col});
        FailureOr<SmallVector<Value>> next = targetInfo.sqmmaOnTiles(
            rewriter, loc, instr, tileA, tileB, d);
        if (failed(next))
          return failure();
        d = std::move(*next);
      }
      llvm::copy(d, acc.begin() + first);
    }
    Type structType = getTypeConverter()->convertType(dType);
    if (!structType)
      return failure();
    rewriter.replaceOp(op, packLLElements(rewriter, loc, acc, structType));
    return success();
  }
};

/// Lowers musagpu.sqmma_wait to TargetInfo::sqmmaWaitFor on the elements
/// of its tensor operands; its results are its operands, as the wait
/// returns them.
struct SQMMAWaitOpConversion : public MUSAPattern<mgpu::SQMMAWaitOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult lower(mgpu::SQMMAWaitOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // Every tensor operand's elements, one list; other operands pass as is.
    SmallVector<Value> elements;
    SmallVector<size_t> counts;
    for (auto [orig, lowered] :
         llvm::zip_equal(op.getInputs(), adaptor.getInputs())) {
      if (!isa<RankedTensorType>(orig.getType())) {
        counts.push_back(0);
        continue;
      }
      SmallVector<Value> part = unpackLLElements(rewriter, loc, lowered);
      counts.push_back(part.size());
      elements.append(part);
    }
    FailureOr<SmallVector<Value>> waited =
        targetInfo.sqmmaWaitFor(rewriter, loc, elements);
    if (failed(waited))
      return failure();
    SmallVector<Value> results;
    size_t next = 0;
    for (auto [orig, lowered, count] :
         llvm::zip_equal(op.getInputs(), adaptor.getInputs(), counts)) {
      if (!isa<RankedTensorType>(orig.getType())) {
        results.push_back(lowered);
        continue;
      }
      ArrayRef<Value> part = ArrayRef<Value>(*waited).slice(next, count);
      next += count;
      results.push_back(isa<LLVM::LLVMStructType>(lowered.getType())
                            ? packLLElements(rewriter, loc, part,
                                             lowered.getType())
                            : part.front());
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

/// The local_alloc whose buffer `memdesc` views through memdesc views, or
/// null where it comes from anything else (a block argument, an scf result).
static ttg::LocalAllocOp getViewedAlloc(Value memdesc) {
  while (Operation *def = memdesc.getDefiningOp()) {
    if (auto alloc = dyn_cast<ttg::LocalAllocOp>(def))
      return alloc;
    if (!isa<ttg::MemDescIndexOp, ttg::MemDescTransOp, ttg::MemDescSubsliceOp,
             ttg::MemDescReshapeOp, ttg::MemDescReinterpretOp>(def))
      return {};
    memdesc = def->getOperand(0);
  }
  return {};
}

void mlir::triton_musa::markSQMMAOperandWrites(ModuleOp module) {
  llvm::SmallPtrSet<Operation *, 8> operandBuffers;
  bool unknownOperand = false;
  module.walk([&](mgpu::SQMMAOp sqmma) {
    for (Value operand : {sqmma.getA(), sqmma.getB()}) {
      if (ttg::LocalAllocOp alloc = getViewedAlloc(operand))
        operandBuffers.insert(alloc);
      else
        unknownOperand = true;
    }
  });
  if (operandBuffers.empty() && !unknownOperand)
    return;
  auto mark = [&](Operation *writer, Value buffer) {
    ttg::LocalAllocOp alloc = getViewedAlloc(buffer);
    if (unknownOperand || !alloc || operandBuffers.contains(alloc))
      writer->setAttr(kSQMMAOperandWriteAttr,
                      UnitAttr::get(module.getContext()));
  };
  module.walk([&](Operation *op) {
    if (auto alloc = dyn_cast<ttg::LocalAllocOp>(op)) {
      if (alloc.getSrc())
        mark(op, alloc.getResult());
    } else if (auto store = dyn_cast<ttg::LocalStoreOp>(op)) {
      mark(op, store.getDst());
    }
  });
}

void mlir::triton_musa::populateSQMMAOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo) {
  patterns.add<SQMMAOpConversion, SQMMAWaitOpConversion>(typeConverter,
                                                          targetInfo);
}
