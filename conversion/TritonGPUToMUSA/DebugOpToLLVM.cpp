//===- DebugOpToLLVM.cpp - tt.print, tt.assert -> LLVM --------------------===//
//
// tt.print prints one line per value a thread holds, as Triton's
// device_print does:
//   pid (<x>, <y>, <z>) idx (<i0>, <i1>, ...)<prefix>[(operand <k>) ]<value>
// (`idx ()` for scalars, as Triton prints them; `(operand k)` only with
// several operands;
// indices padded to the width of the largest index; integers in %i/%u, or
// 0x-prefixed zero-padded hex with `hex`, floats as %f, pointers as %p).
// With no operand, one line `pid (x, y, z)<prefix>`.
//
// tt.assert: a thread whose condition is false for any element it holds
// calls the target's assertion failure with the message and the op's
// file/line and function; a block barrier follows so that no thread runs
// ahead of a failing one.
//
// Format strings become module globals; the printing and assertion calls
// come from TargetInfo::printf / TargetInfo::assertFail.
//
//===----------------------------------------------------------------------===//

#include "conversion/TritonGPUToMUSA/LayoutIndices.h"
#include "conversion/TritonGPUToMUSA/PatternTritonGPUOpToLLVM.h"
#include "conversion/TritonGPUToMUSA/PredicatedRegion.h"
#include "conversion/TritonGPUToMUSA/Utility.h"

#include "dialects/Triton/IR/Dialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::triton_musa;

namespace {

/// printf conversion of one value of `type` (before argument promotion).
std::string getFormat(Type type, bool hex, bool isSigned, unsigned width = 0) {
  std::string widthText = width ? std::to_string(width) : "";
  if (isa<LLVM::LLVMPointerType>(type))
    return "%p";
  if (isa<FloatType>(type))
    return "%" + widthText + "f";
  unsigned bits = type.getIntOrFloatBitWidth();
  std::string length = bits > 32 ? "ll" : "";
  if (hex) {
    unsigned digits = std::max<unsigned>(1, (bits + 3) / 4);
    return "0x%0" + std::to_string(digits) + length + "x";
  }
  return "%" + widthText + length + (isSigned && bits > 1 ? "i" : "u");
}

/// Decimal digits of the largest index of a dimension of `size` elements.
unsigned getIndexWidth(int64_t size) {
  return std::to_string(std::max<int64_t>(size - 1, 0)).size();
}

/// Lowers tt.print to one printf per value held by the thread.
struct PrintOpConversion : public MUSAPattern<triton::PrintOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(triton::PrintOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> pid;
    for (unsigned d = 0; d < 3; ++d)
      pid.push_back(targetInfo.blockId(rewriter, loc, d));
    std::string pidFormat = "pid (%u, %u, %u)";

    if (op.getArgs().empty()) {
      if (failed(targetInfo.printf(rewriter, loc,
                                   pidFormat + op.getPrefix().str() + "\n",
                                   pid)))
        return failure();
      rewriter.eraseOp(op);
      return success();
    }

    ArrayRef<int32_t> isSigned = op.getIsSigned();
    unsigned numArgs = op.getArgs().size();
    for (auto [k, arg, converted] :
         llvm::enumerate(op.getArgs(), adaptor.getArgs())) {
      bool argSigned = k < isSigned.size() ? isSigned[k] != 0 : true;
      std::string prefix = op.getPrefix().str();
      if (numArgs > 1)
        prefix += "(operand " + std::to_string(k) + ") ";
      auto tensorType = dyn_cast<RankedTensorType>(arg.getType());
      SmallVector<Value> values =
          unpackLLElements(rewriter, loc, converted);
      // Hex shows the bits of a float.
      if (op.getHex())
        for (Value &v : values)
          if (isa<FloatType>(v.getType()))
            v = LLVM::BitcastOp::create(
                rewriter, loc,
                rewriter.getIntegerType(v.getType().getIntOrFloatBitWidth()),
                v);
      if (!tensorType) {
        Value v = values.front();
        std::string format = pidFormat + " idx ()" + prefix +
                             getFormat(v.getType(), op.getHex(), argSigned) +
                             "\n";
        SmallVector<Value> args(pid);
        args.push_back(v);
        if (failed(targetInfo.printf(rewriter, loc, format, args)))
          return failure();
        continue;
      }
      auto layout =
          getLinearLayout(tensorType, [&] { return op.emitError(); });
      if (failed(layout))
        return failure();
      SmallVector<SmallVector<Value>> indices =
          emitIndices(rewriter, loc, targetInfo, *layout);
      std::string idxFormat = " idx (";
      for (auto [d, size] : llvm::enumerate(tensorType.getShape()))
        idxFormat += (d ? ", %" : "%") + std::to_string(getIndexWidth(size)) +
                     "u";
      idxFormat += ")";
      for (auto [r, v] : llvm::enumerate(values)) {
        std::string format = pidFormat + idxFormat + prefix +
                             getFormat(v.getType(), op.getHex(), argSigned) +
                             "\n";
        SmallVector<Value> args(pid);
        llvm::append_range(args, indices[r]);
        args.push_back(v);
        if (failed(targetInfo.printf(rewriter, loc, format, args)))
          return failure();
      }
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// The innermost file/line location inside `loc` (through names, call
/// sites and fusions), if any.
std::optional<FileLineColLoc> findFileLine(Location loc) {
  if (auto fileLine = dyn_cast<FileLineColLoc>(loc))
    return fileLine;
  if (auto name = dyn_cast<NameLoc>(loc))
    return findFileLine(name.getChildLoc());
  if (auto callSite = dyn_cast<CallSiteLoc>(loc))
    return findFileLine(callSite.getCallee());
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (auto found = findFileLine(inner))
        return found;
  return std::nullopt;
}

/// Lowers tt.assert: the assertion fails in a thread where any element of
/// the condition it holds is false.
struct AssertOpConversion : public MUSAPattern<triton::AssertOp> {
  using MUSAPattern::MUSAPattern;

  LogicalResult
  lower(triton::AssertOp op, OpAdaptor adaptor,
        ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value failed;
    Value falseValue;
    for (Value element :
         unpackLLElements(rewriter, loc, adaptor.getCondition())) {
      if (!falseValue)
        falseValue = LLVM::ConstantOp::create(
            rewriter, loc, element.getType(),
            rewriter.getIntegerAttr(element.getType(), 0));
      Value isFalse = LLVM::ICmpOp::create(
          rewriter, loc, LLVM::ICmpPredicate::eq, element, falseValue);
      failed = failed ? LLVM::OrOp::create(rewriter, loc, failed, isFalse)
                            .getResult()
                      : isFalse;
    }
    std::string file = "unknown";
    unsigned line = 0;
    if (auto fileLine = findFileLine(loc)) {
      file = fileLine->getFilename().str();
      line = fileLine->getLine();
    }
    std::string function = "unknown";
    if (auto func = op->getParentOfType<FunctionOpInterface>())
      function = func.getName().str();
    LogicalResult reported = success();
    emitIfThen(
        rewriter, loc, failed,
        [&]() -> Value {
          reported = targetInfo.assertFail(rewriter, loc, op.getMessage(),
                                           file, line, function);
          return Value();
        },
        Value());
    if (::mlir::failed(reported))
      return failure();
    targetInfo.barrier(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::triton_musa::populateDebugOpToLLVMPatterns(
    TritonGPUToMUSATypeConverter &typeConverter, RewritePatternSet &patterns,
    const TargetInfo &targetInfo) {
  patterns.add<PrintOpConversion, AssertOpConversion>(typeConverter,
                                                      targetInfo);
}
