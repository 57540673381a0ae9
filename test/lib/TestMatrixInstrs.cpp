//===- TestMatrixInstrs.cpp - --test-musa-matrix-instrs -------------------===//
//
// Test only: every lowered row of the matrix-instruction catalogue has a
// linear layout for its fragment and is accepted by each target it names
// (see TestPasses.td).
//
//===----------------------------------------------------------------------===//

#include "test/lib/TestPasses.h"

#include "dialects/MUSAGPU/IR/Dialect.h"
#include "layouts/LayoutConversion.h"
#include "target/TargetInfo.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::triton_musa {
#define GEN_PASS_DEF_TESTMUSAMATRIXINSTRS
#include "test/lib/TestPasses.h.inc"
} // namespace mlir::triton_musa

using namespace mlir;
using namespace mlir::triton_musa;
namespace mgpu = mlir::musagpu;

namespace {

Type elementType(MLIRContext *ctx, mgpu::MmaElementKind kind) {
  Builder b(ctx);
  switch (kind) {
  case mgpu::MmaElementKind::F16:
    return b.getF16Type();
  case mgpu::MmaElementKind::BF16:
    return b.getBF16Type();
  case mgpu::MmaElementKind::TF32:
    return b.getF32Type();
  case mgpu::MmaElementKind::S8:
    return b.getI8Type();
  case mgpu::MmaElementKind::E4M3:
    return b.getType<Float8E4M3FNType>();
  case mgpu::MmaElementKind::E5M2:
    return b.getType<Float8E5M2Type>();
  }
  llvm_unreachable("unknown MmaElementKind");
}

/// The accumulator layout of `row` on `arch` (one warp, or one squad), and
/// the operand layouts of a WMMA row; the accumulators per thread, or an
/// error message.
FailureOr<unsigned> checkLayouts(ModuleOp module, const MUSAArchInfo &arch,
                                 const mgpu::MatrixInstr &row) {
  MLIRContext *ctx = module.getContext();
  auto emitError = [&] { return module.emitError(); };
  int64_t m = row.m, n = row.n, k = row.k;
  if (row.unit == mgpu::MatrixUnitKind::SQMMA) {
    auto acc = mgpu::SQMMAEncodingAttr::get(ctx, arch.major, arch.minor,
                                            {4, 1}, {row.m, row.n, row.k},
                                            row.fragment);
    return getNumElementsPerThread({m, n}, acc, emitError);
  }
  auto acc = mgpu::WMMAEncodingAttr::get(
      ctx, arch.major, arch.minor, {1, 1}, {row.m, row.n, row.k},
      row.isFor(TargetKind::Device) ? mgpu::MatrixFragment::None
                                    : row.fragment);
  for (unsigned opIdx : {0u, 1u}) {
    auto operand = mgpu::WMMAOperandEncodingAttr::get(ctx, opIdx, acc);
    SmallVector<int64_t> shape =
        opIdx == 0 ? SmallVector<int64_t>{m, k} : SmallVector<int64_t>{k, n};
    FailureOr<unsigned> regs = getNumElementsPerThread(shape, operand, emitError);
    if (failed(regs))
      return failure();
    if (*regs != shape[0] * shape[1] / arch.warpSize)
      return module.emitError()
             << row.describe() << ": operand " << opIdx << " holds " << *regs
             << " values per thread, not " << shape[0] * shape[1] / arch.warpSize;
  }
  return getNumElementsPerThread({m, n}, acc, emitError);
}

/// Issues `row` through `target` in a fresh function; the callees it
/// called, or failure (the target reported why).
FailureOr<std::string> issue(ModuleOp module, const TargetInfo &target,
                             const mgpu::MatrixInstr &row, unsigned index) {
  MLIRContext *ctx = module.getContext();
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(module.getBody());
  Location loc = module.getLoc();
  auto func = LLVM::LLVMFuncOp::create(
      b, loc, ("row_" + Twine(index)).str(),
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {}));
  b.setInsertionPointToStart(func.addEntryBlock(b));
  auto values = [&](Type type, int64_t count) {
    SmallVector<Value> v;
    for (int64_t i = 0; i < count; ++i)
      v.push_back(LLVM::UndefOp::create(b, loc, type));
    return v;
  };
  Type acc = row.c == mgpu::MmaAccKind::S32 ? Type(b.getI32Type())
                                            : Type(b.getF32Type());
  unsigned threads = mgpu::getFragmentThreads(row.fragment);
  SmallVector<Value> c = values(acc, row.m * row.n / threads);
  LogicalResult issued = failure();
  if (row.unit == mgpu::MatrixUnitKind::SQMMA &&
      target.getKind() == TargetKind::Proxy) {
    // The proxy issues an instruction from its operand tiles (several
    // wgmma): A K-major, B N-major (K-major where the row reads only that),
    // in the swizzle their rows fill.
    unsigned bytes = mgpu::getMmaElementBits(row.a) / 8;
    auto tile = [&](unsigned innerBytes, unsigned rows) {
      SQMMAOperandTile t;
      t.tileStart = LLVM::UndefOp::create(b, loc, LLVM::LLVMPointerType::get(ctx, 3));
      t.elementType = elementType(ctx, row.a);
      t.leadingBytes = std::min(128u, innerBytes);
      t.swizzleGranularity = int32_t(mgpu::TMESwizzleGranularity::B16);
      t.swizzleStride = t.leadingBytes == 128  ? int32_t(mgpu::TMESwizzleStride::B128)
                        : t.leadingBytes == 64 ? int32_t(mgpu::TMESwizzleStride::B64)
                                               : int32_t(mgpu::TMESwizzleStride::B32);
      t.swizzleLine = int32_t(mgpu::TMESwizzleLine::B128);
      t.pieceStrideBytes = innerBytes > 128 ? int64_t(rows) * 128 : 0;
      return t;
    };
    SQMMAInstr instr{row};
    instr.transB = row.operandsKMajorOnly;
    SQMMAOperandTile bTile = instr.transB ? tile(row.k * bytes, row.n)
                                          : tile(row.n * bytes, row.k);
    FailureOr<SmallVector<Value>> d = target.sqmmaOnTiles(
        b, loc, instr, tile(row.k * bytes, row.m), bTile, c);
    issued = success(succeeded(d));
  } else if (row.unit == mgpu::MatrixUnitKind::SQMMA) {
    SmallVector<Value> desc = values(b.getI32Type(), 2);
    issued = target.sqmma(b, loc, SQMMAInstr{row}, desc[0], desc[1], c);
  } else {
    Type elem = elementType(ctx, row.a);
    issued = target.wmma(b, loc, WMMAInstr{row},
                         values(elem, row.m * row.k / threads),
                         values(elem, row.k * row.n / threads), c);
  }
  LLVM::ReturnOp::create(b, loc, ValueRange());
  if (failed(issued))
    return failure();
  // Calls by callee name; inline assembly (the proxy's wgmma and mma.sync)
  // by its matrix instruction's opcode.
  std::string callees;
  func.walk([&](Operation *op) {
    std::string name;
    if (auto call = dyn_cast<LLVM::CallOp>(op); call && call.getCallee())
      name = call.getCallee()->str();
    else if (auto asmOp = dyn_cast<LLVM::InlineAsmOp>(op)) {
      StringRef text = asmOp.getAsmString();
      size_t at = text.find("wgmma.");
      if (at == StringRef::npos)
        at = text.find("mma.sync.");
      if (at == StringRef::npos)
        return;
      name = text.drop_front(at).take_until([](char ch) { return ch == ' '; }).str();
    }
    if (!name.empty())
      callees += (callees.empty() ? "" : " ") + name;
  });
  func.erase();
  return callees;
}

struct TestMUSAMatrixInstrs
    : public mlir::triton_musa::impl::TestMUSAMatrixInstrsBase<
          TestMUSAMatrixInstrs> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    unsigned index = 0;
    for (const MUSAArchInfo &arch : getMUSAArchs())
      for (const mgpu::MatrixInstr &row : mgpu::getMatrixInstrs()) {
        if (!row.isLowered() || row.archMajor != arch.major)
          continue;
        FailureOr<unsigned> regs = checkLayouts(module, arch, row);
        if (failed(regs))
          return signalPassFailure();
        unsigned threads = mgpu::getFragmentThreads(row.fragment);
        if (*regs != row.m * row.n / threads) {
          module.emitError() << row.describe() << ": " << *regs
                             << " accumulators per thread, not "
                             << row.m * row.n / threads;
          return signalPassFailure();
        }
        for (auto [kind, name] :
             {std::pair{TargetKind::Device, "musa"},
              std::pair{TargetKind::Emulator, "emulator"},
              std::pair{TargetKind::Proxy, "proxy"}}) {
          if (!row.isFor(kind))
            continue;
          std::unique_ptr<TargetInfo> target = createTargetInfo(arch, kind);
          FailureOr<std::string> callees = issue(module, *target, row, index++);
          if (failed(callees))
            return signalPassFailure();
          module.emitRemark() << arch.name << " " << row.describe()
                              << ": fragment "
                              << mgpu::stringifyMatrixFragment(row.fragment)
                              << " (" << *regs << " accumulators per thread), "
                              << name << " calls " << *callees;
        }
      }
  }
};

} // namespace
