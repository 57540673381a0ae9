//===- FuncOpToLLVM.cpp - tt.func, tt.return, tt.call -> LLVM ------------===//
//
// Public functions are kernels. MLIR's LLVM dialect cannot spell calling
// convention 102 (its CConv enum ends at 101), so a kernel carries the
// discardable markers of LLVMIRExport.h, which the LLVM IR export turns into
// cc 102 and `!musa.annotations`:
//   musa.kernel   (unit) -> cc 102, !{ptr @k, !"kernel", i32 1}
//   musa.maxntidx (i32)  -> !{ptr @k, !"maxntidx", i32 N}, N = warps x lanes
//
// A `!tt.tensordesc` kernel argument the host passes as a 64-byte
// MUtensorDescriptor (marked `musagpu.tme_descriptor` by
// --musa-lower-descriptors-to-tme) is converted like any descriptor (the
// TME ops take its address, TMEOpToLLVM.cpp); once the whole module is
// converted, finalizeTMEDescriptorParameters makes it the parameter the
// host passes: `ptr byval([64 x i8]) align 64` with `musa.grid_constant`,
// which the LLVM IR export turns into a `!musa.annotations` entry (on the
// GPU proxy a 128-byte CUtensorMap, align 64, "nvvm.grid_constant").
//
//===----------------------------------------------------------------------===//

#include "conversion/LLVMIRExport/LLVMIRExport.h"
#include "conversion/TritonGPUToMUSA/PatternTritonGPUOpToLLVM.h"
#include "conversion/TritonGPUToMUSA/Utility.h"

#include "dialects/Triton/IR/Dialect.h"
#include "dialects/TritonGPU/IR/Dialect.h"

#include "target/TargetInfo.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"

using namespace mlir;
using namespace mlir::triton_musa;

namespace {

/// Lowers tt.func to llvm.func: kernels (public) get the MUSA kernel
/// markers, other functions internal linkage.
struct FuncOpConversion : public MUSAPattern<triton::FuncOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(triton::FuncOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    const LLVMTypeConverter *converter = getTypeConverter();
    FunctionType type = op.getFunctionType();
    TypeConverter::SignatureConversion signature(type.getNumInputs());
    auto llvmType = dyn_cast_or_null<LLVM::LLVMFunctionType>(
        converter->convertFunctionSignature(type, /*isVariadic=*/false,
                                            /*useBarePtrCallConv=*/false,
                                            signature));
    if (!llvmType)
      return op.emitError("cannot convert the signature ")
             << type << " to LLVM types";

    auto func =
        LLVM::LLVMFuncOp::create(rewriter, op.getLoc(), op.getName(), llvmType);
    if (op.isPublic()) {
      auto launch =
          triton::gpu::getModuleLaunchInfo(op->getParentOfType<ModuleOp>());
      if (!launch)
        return op.emitError("the module has no \"ttg.num-warps\" and "
                            "\"ttg.threads-per-warp\"");
      func->setAttr(kKernelAttrName, rewriter.getUnitAttr());
      func->setAttr(kMaxNTidXAttrName,
                    rewriter.getI32IntegerAttr(launch->totalNumWarps *
                                               launch->threadsPerWarp));
    } else {
      func.setLinkage(LLVM::Linkage::Internal);
      if (auto noinline = op->getAttrOfType<BoolAttr>("noinline");
          noinline && noinline.getValue())
        func.setNoInline(true);
    }
    // Argument hints (tt.divisibility, ...) feed TTGIR analyses that already
    // ran; only non-Triton attributes carry over.
    for (unsigned i = 0, e = op.getNumArguments(); i < e; ++i)
      if (DictionaryAttr attrs = op.getArgAttrDict(i))
        for (NamedAttribute attr : attrs)
          if (!attr.getName().strref().starts_with("tt."))
            func.setArgAttr(i, attr.getName(), attr.getValue());

    rewriter.inlineRegionBefore(op.getBody(), func.getBody(), func.end());
    if (failed(rewriter.convertRegionTypes(&func.getBody(), *converter,
                                           &signature)))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

/// Lowers tt.return to llvm.return (several values as one struct).
struct ReturnOpConversion : public MUSAPattern<triton::ReturnOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(triton::ReturnOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    ValueRange values = adaptor.getSrcs();
    if (values.size() <= 1) {
      rewriter.replaceOpWithNewOp<LLVM::ReturnOp>(op, values);
      return success();
    }
    Type packed = getTypeConverter()->packFunctionResults(op.getOperandTypes());
    if (!packed)
      return failure();
    Value result = packLLElements(rewriter, op.getLoc(), values, packed);
    rewriter.replaceOpWithNewOp<LLVM::ReturnOp>(op, result);
    return success();
  }
};

/// Lowers tt.call of a device function to llvm.call.
struct CallOpConversion : public MUSAPattern<triton::CallOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(triton::CallOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Type> resultTypes;
    if (op.getNumResults() > 0) {
      Type packed =
          getTypeConverter()->packFunctionResults(op.getResultTypes());
      if (!packed)
        return failure();
      resultTypes.push_back(packed);
    }
    auto call = LLVM::CallOp::create(rewriter, loc, resultTypes,
                                     op.getCalleeAttr(), adaptor.getOperands());
    if (op.getNumResults() <= 1) {
      rewriter.replaceOp(op, call->getResults());
      return success();
    }
    SmallVector<Value> results =
        unpackLLElements(rewriter, loc, call.getResult());
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void mlir::triton_musa::populateFuncOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo) {
  patterns.add<FuncOpConversion, ReturnOpConversion, CallOpConversion>(
      typeConverter, targetInfo);
}

LogicalResult mlir::triton_musa::finalizeTMEDescriptorParameters(
    ModuleOp module, unsigned descriptorBytes) {
  MLIRContext *ctx = module.getContext();
  auto byvalType = LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8),
                                            descriptorBytes);
  auto generic = LLVM::LLVMPointerType::get(ctx);
  WalkResult result = module.walk([&](LLVM::LLVMFuncOp func) {
    SmallVector<Type> inputs(func.getFunctionType().getParams());
    bool changed = false;
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
      if (!func.getArgAttr(i, kTMEDescriptorArgAttrName))
        continue;
      if (!func->hasAttr(kKernelAttrName)) {
        func.emitError() << "argument " << i << " of '" << func.getName()
                         << "' is a host-encoded TME descriptor, which only "
                            "kernels receive";
        return WalkResult::interrupt();
      }
      // The kernel only ever takes the parameter's address (the TME
      // instruction's descriptor operand); any other use would read the
      // opaque descriptor as a tensor address.
      BlockArgument arg = func.getArgument(i);
      for (Operation *user : arg.getUsers())
        if (!isa<LLVM::PtrToIntOp>(user)) {
          user->emitError()
              << "'" << user->getName()
              << "' uses the host-encoded TME descriptor parameter " << i
              << " of '" << func.getName()
              << "' as a tensor address; only TME ops may use it";
          return WalkResult::interrupt();
        }
      arg.setType(generic);
      inputs[i] = generic;
      func.removeArgAttr(i, StringAttr::get(ctx, kTMEDescriptorArgAttrName));
      func.setArgAttr(i, LLVM::LLVMDialect::getByValAttrName(),
                      TypeAttr::get(byvalType));
      func.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                      IntegerAttr::get(IntegerType::get(ctx, 64),
                                       kTMEDescriptorBytes));
      func.setArgAttr(i, kGridConstantAttrName, UnitAttr::get(ctx));
      changed = true;
    }
    if (changed)
      func.setFunctionType(LLVM::LLVMFunctionType::get(
          func.getFunctionType().getReturnType(), inputs,
          func.getFunctionType().isVarArg()));
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}
