//===- ConvertTritonGPUToMUSA.cpp - --convert-tritongpu-to-musa ----------===//
//
// Thin driver: checks the module against the target, rejects what no
// pattern lowers (naming the op), then runs one full conversion to the LLVM
// dialect with the pattern families of PatternTritonGPUOpToLLVM.h.
//
//===----------------------------------------------------------------------===//

#include "conversion/TritonGPUToMUSA/Passes.h"

#include "conversion/TritonGPUToMUSA/LayoutIndices.h"
#include "conversion/TritonGPUToMUSA/PatternTritonGPUOpToLLVM.h"
#include "target/Scratch.h"
#include "target/TargetInfo.h"
#include "conversion/TritonGPUToMUSA/TypeConverter.h"

#include "dialects/Triton/IR/Dialect.h"
#include "dialects/TritonGPU/IR/Dialect.h"

#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::triton_musa {
#define GEN_PASS_DEF_CONVERTTRITONGPUTOMUSA
#include "conversion/TritonGPUToMUSA/Passes.h.inc"
} // namespace mlir::triton_musa

using namespace mlir;
using namespace mlir::triton_musa;

namespace {


/// Ops that can never be lowered for MUSA, with the reason.
std::optional<StringRef> getNeverSupportedReason(Operation *op) {
  if (isa<triton::ElementwiseInlineAsmOp>(op))
    return StringRef("PTX inline assembly cannot run on MUSA");
  return std::nullopt;
}

/// Reports every op that no pattern lowers (once per op name) and every
/// tensor whose layout has no linear layout yet. Diagnosing here, before
/// the conversion, names the op instead of a generic legalization failure.
LogicalResult checkSupported(ModuleOp module, RewritePatternSet &patterns) {
  llvm::StringSet<> lowered;
  for (const auto &pattern : patterns.getNativePatterns())
    if (std::optional<OperationName> root = pattern->getRootKind())
      lowered.insert(root->getStringRef());

  bool ok = true;
  llvm::StringSet<> reported;
  // Pre-order, skipping the body of a rejected op: its terminators (e.g.
  // tt.reduce.return) would only repeat the news.
  module.walk<WalkOrder::PreOrder>([&](Operation *op) -> WalkResult {
    if (op == module.getOperation() || isa<LLVM::LLVMDialect>(op->getDialect()))
      return WalkResult::advance();
    StringRef name = op->getName().getStringRef();
    if (std::optional<StringRef> reason = getNeverSupportedReason(op)) {
      op->emitError() << "'" << name << "': " << *reason;
      ok = false;
      return WalkResult::skip();
    }
    // Terminators such as scf.yield go with their parent's pattern (the
    // nearest that is not a terminator itself: ttg.warp_return's parent is
    // the holder of ttg.warp_specialize's partitions).
    Operation *owner = op;
    while (owner->hasTrait<OpTrait::IsTerminator>() && owner->getParentOp())
      owner = owner->getParentOp();
    bool loweredWithParent =
        owner != op && lowered.contains(owner->getName().getStringRef());
    if (!lowered.contains(name) && !loweredWithParent) {
      if (reported.insert(name).second)
        op->emitError() << "'" << name << "' is not supported by " << kPassFlag
                        << " yet";
      ok = false;
      return WalkResult::skip();
    }
    // One diagnostic per op: its first tensor type without a usable layout.
    SmallVector<Type> types(op->getOperandTypes());
    llvm::append_range(types, op->getResultTypes());
    for (Region &region : op->getRegions())
      for (Block &block : region)
        llvm::append_range(types, block.getArgumentTypes());
    for (Type type : types) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (tensor && failed(getLinearLayout(tensor, [&] {
            return op->emitError() << "'" << name << "' on " << tensor << ": ";
          }))) {
        ok = false;
        return WalkResult::skip();
      }
    }
    return WalkResult::advance();
  });
  return success(ok);
}

/// Loop metadata Triton puts on a loop (`tl.range(..., disable_licm=True)`,
/// `tl.condition(..., disable_licm=True)`: the discardable attribute
/// `llvm.loop_annotation` on scf.for/scf.while) reaches the loop's back edge
/// through the SCF and ControlFlow lowerings still as a discardable
/// attribute, which the LLVM IR translation ignores: it becomes the
/// branch's own `loop_annotation` (!llvm.loop metadata in LLVM IR).
void adoptLoopAnnotations(ModuleOp module) {
  constexpr StringLiteral kName = "llvm.loop_annotation";
  module.walk([&](Operation *op) {
    auto annotation = op->getAttrOfType<LLVM::LoopAnnotationAttr>(kName);
    if (!annotation)
      return;
    if (auto br = dyn_cast<LLVM::BrOp>(op))
      br.setLoopAnnotationAttr(annotation);
    else if (auto condBr = dyn_cast<LLVM::CondBrOp>(op))
      condBr.setLoopAnnotationAttr(annotation);
    else
      return;
    op->removeDiscardableAttr(kName);
  });
}

struct ConvertTritonGPUToMUSA
    : public mlir::triton_musa::impl::ConvertTritonGPUToMUSABase<
          ConvertTritonGPUToMUSA> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    FailureOr<const MUSAArchInfo *> musaArch =
        resolveMUSAArch(module, arch, kPassFlag);
    if (failed(musaArch))
      return signalPassFailure();
    std::unique_ptr<TargetInfo> targetInfo = createTargetInfo(**musaArch, target);
    if (std::string why = targetInfo->whyNotArch(); !why.empty()) {
      module.emitError() << kPassFlag << ": " << why;
      return signalPassFailure();
    }

    auto launch = triton::gpu::getModuleLaunchInfo(module);
    if (!launch) {
      module.emitError() << kPassFlag
                         << " needs the module attributes \"ttg.num-warps\" "
                            "and \"ttg.threads-per-warp\"";
      return signalPassFailure();
    }
    if (launch->threadsPerWarp != targetInfo->getWarpSize()) {
      module.emitError() << "\"ttg.threads-per-warp\" = "
                         << launch->threadsPerWarp << " does not match arch "
                         << targetInfo->getArchName() << ", whose warps have "
                         << targetInfo->getWarpSize() << " threads";
      return signalPassFailure();
    }
    if (launch->numCTAs != 1) {
      module.emitError() << "\"ttg.num-ctas\" = " << launch->numCTAs
                         << " (clusters) is not supported by " << kPassFlag
                         << " yet";
      return signalPassFailure();
    }

    // arith's rounding divisions (ceildivsi, ceildivui, floordivsi: Triton's
    // loop flattening leaves them) become the plain integer ops the
    // patterns below lower, on scalars and tensors alike.
    // Only those ops are rewritten: the greedy driver would otherwise also
    // fold and simplify the rest of the module.
    {
      SmallVector<Operation *> divisions;
      module.walk([&](Operation *op) {
        if (isa<arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp>(
                op))
          divisions.push_back(op);
      });
      RewritePatternSet expansions(ctx);
      arith::populateCeilFloorDivExpandOpsPatterns(expansions);
      GreedyRewriteConfig config;
      config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
      if (!divisions.empty() &&
          failed(applyOpPatternsGreedily(divisions, std::move(expansions),
                                         config)))
        return signalPassFailure();
    }

    LowerToLLVMOptions options(ctx);
    TritonGPUToMUSATypeConverter typeConverter(ctx, options, *targetInfo);
    RewritePatternSet patterns(ctx);
    populateFuncOpToLLVMPatterns(typeConverter, patterns, *targetInfo);
    populateSPMDOpToLLVMPatterns(typeConverter, patterns, *targetInfo);
    populateMakeRangeOpToLLVMPatterns(typeConverter, patterns, *targetInfo);
    populateViewOpToLLVMPatterns(typeConverter, patterns, *targetInfo);
    LoopFacts loopFacts = computeLoopFacts(module);
    populateLoadStoreOpToLLVMPatterns(typeConverter, patterns, *targetInfo,
                                      loopFacts);
    populateBarrierOpToLLVMPatterns(typeConverter, patterns, *targetInfo);
    populateElementwiseOpToLLVMPatterns(typeConverter, patterns, *targetInfo,
                                        loopFacts);
    populateConvertLayoutOpToLLVMPatterns(typeConverter, patterns, *targetInfo);
    populateMemoryOpToLLVMPatterns(typeConverter, patterns, *targetInfo);
    populateAsyncCopyOpToLLVMPatterns(typeConverter, patterns, *targetInfo,
                                      loopFacts);
    populateReduceOpToLLVMPatterns(typeConverter, patterns, *targetInfo);
    populateScanOpToLLVMPatterns(typeConverter, patterns, *targetInfo);
    populateGatherOpToLLVMPatterns(typeConverter, patterns, *targetInfo);
    populateDotOpToLLVMPatterns(typeConverter, patterns, *targetInfo);
    populateWMMAOpToLLVMPatterns(typeConverter, patterns, *targetInfo);
    populateSQMMAOpToLLVMPatterns(typeConverter, patterns, *targetInfo);
    populateAtomicOpToLLVMPatterns(typeConverter, patterns, *targetInfo);
    populateHistogramOpToLLVMPatterns(typeConverter, patterns, *targetInfo);
    populateDebugOpToLLVMPatterns(typeConverter, patterns, *targetInfo);
    populateDescriptorOpToLLVMPatterns(typeConverter, patterns, *targetInfo);
    populateTMEOpToLLVMPatterns(typeConverter, patterns, *targetInfo);
    populateWarpSpecializeOpToLLVMPatterns(typeConverter, patterns,
                                           *targetInfo);
    // Structured control flow becomes branches, then LLVM branches, in the
    // same conversion (block arguments carry the converted tensor structs).
    populateSCFToControlFlowConversionPatterns(patterns);
    cf::populateControlFlowToLLVMConversionPatterns(typeConverter, patterns);
    ub::populateUBToLLVMConversionPatterns(typeConverter, patterns);

    if (failed(checkSupported(module, patterns)) ||
        failed(prepareWarpSpecializedRegions(module)))
      return signalPassFailure();

    markSQMMAOperandWrites(module);

    // Buffers handed out by --musa-allocate-shared-memory live at offsets
    // from one per-block base that the target declares.
    if (auto bytes = module->getAttrOfType<IntegerAttr>(kSharedMemorySizeAttr);
        bytes && bytes.getInt() > 0)
      targetInfo->declareSharedMemory(module);

    // A pattern that reports an error may still be followed by a fallback
    // that "succeeds"; any error during the conversion fails the pass.
    bool sawError = false;
    ScopedDiagnosticHandler watch(ctx, [&](Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Error)
        sawError = true;
      return failure(); // Let the diagnostic through.
    });

    ConversionTarget target(*ctx);
    target.addLegalDialect<LLVM::LLVMDialect>();
    target.addLegalOp<ModuleOp>();
    if (failed(applyFullConversion(module, target, std::move(patterns))) ||
        sawError)
      return signalPassFailure();
    if (failed(finalizeTMEDescriptorParameters(
            module, targetInfo->getTMEDescriptorBytes())))
      return signalPassFailure();
    adoptLoopAnnotations(module);
  }
};

} // namespace
