//===- PatternTritonGPUOpToLLVM.h - Pattern families ------------*- C++ -*-===//
//
// Private to --convert-tritongpu-to-musa: the base of every pattern, and one
// populate function per op family, each in its own <Family>OpToLLVM.cpp.
// Patterns reach the hardware only through `targetInfo`.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_PATTERNTRITONGPUOPTOLLVM_H
#define TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_PATTERNTRITONGPUOPTOLLVM_H

#include "conversion/TritonGPUToMUSA/AxisAnalysis.h"
#include "conversion/TritonGPUToMUSA/TypeConverter.h"
#include "conversion/TritonGPUToMUSA/Utility.h"
#include "target/TargetInfo.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::triton_musa {

/// The base of the lowering's patterns: holds the target and reports errors
/// one way (lowerOrReport); a pattern writes only its lowering, `lower`.
template <typename SourceOp>
class MUSAPattern : public ConvertOpToLLVMPattern<SourceOp> {
public:
  using OpAdaptor = typename ConvertOpToLLVMPattern<SourceOp>::OpAdaptor;

  MUSAPattern(const LLVMTypeConverter &typeConverter,
              const TargetInfo &targetInfo, PatternBenefit benefit = 1)
      : ConvertOpToLLVMPattern<SourceOp>(typeConverter, benefit),
        targetInfo(targetInfo) {}

  LogicalResult
  matchAndRewrite(SourceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    return lowerOrReport(op, *this->getTypeConverter(), rewriter,
                         [&] { return lower(op, adaptor, rewriter); });
  }

protected:
  /// Lowers `op`; reports an error before failing where the op is not
  /// supported.
  virtual LogicalResult lower(SourceOp op, OpAdaptor adaptor,
                              ConversionPatternRewriter &rewriter) const = 0;

  const TargetInfo &targetInfo;
};

/// Patterns of the tensor ops that must win over upstream scalar patterns
/// for the same op (arith/math on tensors) use this benefit.
constexpr unsigned kTensorPatternBenefit = 10;

/// tt.func, tt.return, tt.call.
void populateFuncOpToLLVMPatterns(TritonGPUToMUSATypeConverter &typeConverter,
                                  RewritePatternSet &patterns,
                                  const TargetInfo &targetInfo);
/// After the conversion: host-encoded TME descriptor kernel arguments become
/// `ptr byval([64 x i8]) align 64` grid-constant parameters (FuncOpToLLVM.cpp).
LogicalResult finalizeTMEDescriptorParameters(ModuleOp module,
                                               unsigned descriptorBytes);

/// tt.get_program_id, tt.get_num_programs.
void populateSPMDOpToLLVMPatterns(TritonGPUToMUSATypeConverter &typeConverter,
                                  RewritePatternSet &patterns,
                                  const TargetInfo &targetInfo);

/// tt.make_range.
void populateMakeRangeOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo);

/// tt.splat, tt.unsplat and the view ops (register-only cases).
void populateViewOpToLLVMPatterns(TritonGPUToMUSATypeConverter &typeConverter,
                                  RewritePatternSet &patterns,
                                  const TargetInfo &targetInfo);

/// gpu.barrier, ttg.local_barrier.
void populateBarrierOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo);

/// tt.load, tt.store (pointers and tensors of pointers), tt.addptr. The
/// vector width of an access comes from the axis analysis, which reads
/// `loopFacts`.
void populateLoadStoreOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo, const LoopFacts &loopFacts);

/// arith/math elementwise ops and arith.constant on tensors; the scalar
/// arith/math -> LLVM patterns of upstream MLIR; tt.bitcast, tt.int_to_ptr,
/// tt.ptr_to_int, tt.mulhiui, tt.precise_sqrt, tt.precise_divf. Registers
/// the axis analysis proves equal are computed once.
void populateElementwiseOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo, const LoopFacts &loopFacts);

/// ttg.convert_layout (register, warp-shuffle or shared-memory paths).
void populateConvertLayoutOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo);

/// ttg.local_alloc/local_load/local_store/local_dealloc, memdesc views.
void populateMemoryOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo);

/// ttg.async_copy_global_to_local, ttg.async_commit_group, ttg.async_wait
/// (per-thread g2s copies, as wide as `loopFacts` allows;
/// AsyncCopyOpToLLVM.cpp).
void populateAsyncCopyOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo, const LoopFacts &loopFacts);

/// tt.reduce (in-thread, within a warp by shuffles, across warps through shared memory).
void populateReduceOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo);

/// tt.scan.
void populateScanOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo);

/// tt.gather.
void populateGatherOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo);

/// tt.dot on the FMA path.
void populateDotOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo);

/// musagpu.wmma (the WMMA path chosen by --musa-accelerate-matmul).
void populateWMMAOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo);
/// musagpu.sqmma, musagpu.sqmma_wait (the SQMMA path chosen by
/// --musa-accelerate-matmul).
void populateSQMMAOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo);

/// Marks, before the conversion, each ttg.local_alloc with a source and
/// ttg.local_store whose buffer a musagpu.sqmma may read (through memdesc
/// views; every such write where an sqmma operand's buffer is not known),
/// with the unit attribute kSQMMAOperandWriteAttr: their lowering ends in
/// TargetInfo::fenceSharedWritesForAsyncReads.
void markSQMMAOperandWrites(ModuleOp module);
inline constexpr llvm::StringLiteral kSQMMAOperandWriteAttr =
    "musagpu.sqmma_operand_write";
/// tt.atomic_rmw, tt.atomic_cas.
void populateAtomicOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo);

/// tt.histogram.
void populateHistogramOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo);

/// tt.print, tt.assert.
void populateDebugOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo);

/// tt.make_tensor_descriptor, tt.descriptor_load/store/gather/scatter/reduce (without TME).
void populateDescriptorOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo);

/// ttg.warp_specialize: the block's warps past the module's num-warps run
/// the partitions, then return; the others run the default region.
void populateWarpSpecializeOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo);

/// Before the conversion: checks that each ttg.warp_specialize lies
/// directly in a kernel's body and that neither its default region nor a
/// partition holds an op that lowers to a block barrier (reports and fails
/// otherwise), and marks each partition's ops with its first thread
/// (kPartitionFirstThreadAttr).
LogicalResult prepareWarpSpecializedRegions(ModuleOp module);

/// On an op of a warp-specialized partition (set before the conversion):
/// the partition's first thread, which issues what thread 0
/// issues for the block elsewhere (a TME load, an async-barrier arrival).
constexpr StringLiteral kPartitionFirstThreadAttr =
    "musagpu.partition_first_thread";

/// musagpu TME tile loads/stores and async barriers (architectures with TME).
void populateTMEOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo);

} // namespace mlir::triton_musa

#endif // TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_PATTERNTRITONGPUOPTOLLVM_H
