//===- Ops.cpp - ttg operations -------------------------------------------===//

#include "dialects/TritonGPU/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::triton::gpu;

static int64_t numElements(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

/// Shape and element type of a tensor and a buffer must agree.
static LogicalResult verifyTensorMatchesMemDesc(Operation *op,
                                                RankedTensorType tensor,
                                                MemDescType memdesc) {
  if (tensor.getShape() != memdesc.getShape())
    return op->emitOpError("tensor shape must match the memdesc shape");
  if (tensor.getElementType() != memdesc.getElementType())
    return op->emitOpError(
        "tensor element type must match the memdesc element type");
  return success();
}

//===----------------------------------------------------------------------===//
// AsyncCopyGlobalToLocalOp
//===----------------------------------------------------------------------===//

// Keywords of tt's CacheModifier and EvictionPolicy enums, by i32 value.
static constexpr StringLiteral kCacheModifiers[] = {"none", "ca", "cg", "wb",
                                                    "cs",   "wt", "cv"};
static constexpr StringLiteral kEvictionPolicies[] = {
    "evict_normal", "evict_first", "evict_last"};

static ParseResult parseEnumKeyword(OpAsmParser &parser,
                                    ArrayRef<StringLiteral> keywords,
                                    IntegerAttr &value) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  const auto *it = llvm::find(keywords, keyword);
  if (it == keywords.end())
    return parser.emitError(loc, "unknown keyword '") << keyword << "'";
  value = parser.getBuilder().getI32IntegerAttr(it - keywords.begin() + 1);
  return success();
}

// $src `,` $result (`mask` $mask)? (`other` $other)?
//   oilist(`cacheModifier` `=` KW | `evictionPolicy` `=` KW)
//   attr-dict `:` type($src) `->` type($result)
ParseResult AsyncCopyGlobalToLocalOp::parse(OpAsmParser &parser,
                                            OperationState &result) {
  OpAsmParser::UnresolvedOperand src, dst, mask, other;
  bool hasMask = false, hasOther = false;
  if (parser.parseOperand(src) || parser.parseComma() ||
      parser.parseOperand(dst))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("mask"))) {
    hasMask = true;
    if (parser.parseOperand(mask))
      return failure();
  }
  if (succeeded(parser.parseOptionalKeyword("other"))) {
    hasOther = true;
    if (parser.parseOperand(other))
      return failure();
  }
  IntegerAttr cache, evict;
  while (true) {
    if (!cache && succeeded(parser.parseOptionalKeyword("cacheModifier"))) {
      if (parser.parseEqual() ||
          parseEnumKeyword(parser, kCacheModifiers, cache))
        return failure();
      continue;
    }
    if (!evict && succeeded(parser.parseOptionalKeyword("evictionPolicy"))) {
      if (parser.parseEqual() ||
          parseEnumKeyword(parser, kEvictionPolicies, evict))
        return failure();
      continue;
    }
    break;
  }
  if (parser.parseOptionalAttrDict(result.attributes))
    return failure();
  if (cache)
    result.addAttribute("cache", cache);
  if (evict)
    result.addAttribute("evict", evict);
  Type srcType;
  MemDescType dstType;
  if (parser.parseColon() || parser.parseType(srcType) ||
      parser.parseArrow() || parser.parseCustomTypeWithFallback(dstType))
    return failure();
  if (parser.resolveOperand(src, srcType, result.operands) ||
      parser.resolveOperand(dst, dstType, result.operands))
    return failure();
  // mask is tensor<...xi1> of the pointer shape/layout; other the pointee.
  auto srcTensor = dyn_cast<RankedTensorType>(srcType);
  if (!srcTensor)
    return parser.emitError(parser.getNameLoc(), "src must be a ranked tensor");
  if (hasMask &&
      parser.resolveOperand(mask,
                            RankedTensorType::get(srcTensor.getShape(),
                                                  parser.getBuilder().getI1Type(),
                                                  srcTensor.getEncoding()),
                            result.operands))
    return failure();
  if (hasOther &&
      parser.resolveOperand(other,
                            RankedTensorType::get(srcTensor.getShape(),
                                                  dstType.getElementType(),
                                                  srcTensor.getEncoding()),
                            result.operands))
    return failure();
  result.addAttribute(
      AsyncCopyGlobalToLocalOp::getOperandSegmentSizesAttrName(result.name),
      parser.getBuilder().getDenseI32ArrayAttr(
          {1, 1, hasMask ? 1 : 0, hasOther ? 1 : 0}));
  result.addTypes(AsyncTokenType::get(parser.getContext()));
  return success();
}

void AsyncCopyGlobalToLocalOp::print(OpAsmPrinter &p) {
  p << " " << getSrc() << ", " << getResult();
  if (getMask())
    p << " mask " << getMask();
  if (getOther())
    p << " other " << getOther();
  uint32_t cache = getCache(), evict = getEvict();
  if (cache != 1 && cache >= 1 && cache <= std::size(kCacheModifiers))
    p << " cacheModifier = " << kCacheModifiers[cache - 1];
  if (evict != 1 && evict >= 1 && evict <= std::size(kEvictionPolicies))
    p << " evictionPolicy = " << kEvictionPolicies[evict - 1];
  SmallVector<StringRef> elided = {getOperandSegmentSizesAttrName()};
  // Out-of-range enum values (only reachable from generic IR) stay in the
  // dictionary instead of being lost.
  if (cache == 1 || (cache >= 1 && cache <= std::size(kCacheModifiers)))
    elided.push_back(getCacheAttrName());
  if (evict == 1 || (evict >= 1 && evict <= std::size(kEvictionPolicies)))
    elided.push_back(getEvictAttrName());
  NamedAttrList attrs(getOperation()->getAttrDictionary());
  if (!getIsVolatile())
    elided.push_back(getIsVolatileAttrName());
  if (getContiguity() == 1)
    elided.push_back(getContiguityAttrName());
  p.printOptionalAttrDict(attrs.getAttrs(), elided);
  p << " : " << getSrc().getType() << " -> ";
  p.printStrippedAttrOrType(getResult().getType());
}

LogicalResult AsyncCopyGlobalToLocalOp::verify() {
  auto srcTy = cast<RankedTensorType>(getSrc().getType());
  MemDescType dstTy = getResult().getType();
  if (!dstTy.getMutableMemory())
    return emitOpError("destination memdesc must be mutable");
  if (srcTy.getShape() != dstTy.getShape())
    return emitOpError("pointer tensor shape must match the memdesc shape");
  if (getCache() < 1 || getCache() > std::size(kCacheModifiers))
    return emitOpError("invalid cache modifier ") << getCache();
  if (getEvict() < 1 || getEvict() > std::size(kEvictionPolicies))
    return emitOpError("invalid eviction policy ") << getEvict();
  return success();
}

//===----------------------------------------------------------------------===//
// Async / shared-memory ops
//===----------------------------------------------------------------------===//

LogicalResult AsyncWaitOp::verify() {
  if (getNum() < 0)
    return emitOpError("num must be non-negative");
  return success();
}

LogicalResult LocalAllocOp::verify() {
  MemDescType type = getResult().getType();
  if (type.getAllocShape() != type.getShape())
    return emitOpError("alloc shape must match the shape of the result");
  if (!getSrc()) {
    if (!type.getMutableMemory())
      return emitOpError("uninitialised buffer must be mutable");
    return success();
  }
  return verifyTensorMatchesMemDesc(
      *this, cast<RankedTensorType>(getSrc().getType()), type);
}

LogicalResult LocalLoadOp::verify() {
  return verifyTensorMatchesMemDesc(*this, getResult().getType(),
                                    getSrc().getType());
}

LogicalResult LocalStoreOp::verify() {
  if (!getDst().getType().getMutableMemory())
    return emitOpError("cannot store into immutable memory");
  return verifyTensorMatchesMemDesc(*this, getSrc().getType(),
                                    getDst().getType());
}

//===----------------------------------------------------------------------===//
// Memory descriptor views
//===----------------------------------------------------------------------===//

static LogicalResult verifySameMemory(Operation *op, MemDescType src,
                                      MemDescType dst) {
  if (src.getMemorySpace() != dst.getMemorySpace())
    return op->emitOpError("source and result must be in the same memory space");
  if (src.getMutableMemory() != dst.getMutableMemory())
    return op->emitOpError("source and result must agree on mutability");
  return success();
}

LogicalResult MemDescIndexOp::verify() {
  MemDescType src = getSrc().getType(), dst = getResult().getType();
  if (src.getShape().size() < 2)
    return emitOpError("source must have rank >= 2");
  if (dst.getShape() != src.getShape().drop_front())
    return emitOpError("result shape must be the source shape without its "
                       "leading dimension");
  if (src.getElementType() != dst.getElementType())
    return emitOpError("source and result element types must match");
  if (src.getAllocShape() != src.getShape() ||
      dst.getAllocShape() != dst.getShape())
    return emitOpError("alloc shape must match shape for both result and src");
  return verifySameMemory(*this, src, dst);
}

static ParseResult parseOffsets(OpAsmParser &parser, DenseI32ArrayAttr &attr) {
  SmallVector<int32_t> offsets;
  if (parser.parseCommaSeparatedList([&]() -> ParseResult {
        int32_t v;
        if (parser.parseInteger(v))
          return failure();
        offsets.push_back(v);
        return success();
      }))
    return failure();
  attr = parser.getBuilder().getDenseI32ArrayAttr(offsets);
  return success();
}

static void printOffsets(OpAsmPrinter &p, Operation *, DenseI32ArrayAttr attr) {
  llvm::interleaveComma(attr.asArrayRef(), p);
}

LogicalResult MemDescSubsliceOp::verify() {
  MemDescType src = getSrc().getType(), dst = getResult().getType();
  ArrayRef<int32_t> offsets = getOffsets();
  if (offsets.size() != src.getShape().size() ||
      dst.getShape().size() != src.getShape().size())
    return emitOpError("offsets, source and result must have the same rank");
  for (auto [offset, srcDim, dstDim] :
       llvm::zip(offsets, src.getShape(), dst.getShape()))
    if (offset < 0 || offset + dstDim > srcDim)
      return emitOpError("subslice exceeds the source shape");
  if (src.getElementType() != dst.getElementType())
    return emitOpError("source and result element types must match");
  if (dst.getAllocShape() != src.getAllocShape())
    return emitOpError("result alloc shape must be the source alloc shape");
  return verifySameMemory(*this, src, dst);
}

LogicalResult MemDescTransOp::verify() {
  MemDescType src = getSrc().getType(), dst = getResult().getType();
  ArrayRef<int32_t> order = getOrder();
  ArrayRef<int64_t> shape = src.getShape();
  if (order.size() != shape.size())
    return emitOpError("order must have one entry per dimension");
  SmallVector<bool> seen(order.size(), false);
  SmallVector<int64_t> expected;
  for (int32_t d : order) {
    if (d < 0 || size_t(d) >= order.size() || seen[d])
      return emitOpError("order must be a permutation of 0..rank-1");
    seen[d] = true;
    expected.push_back(shape[d]);
  }
  if (dst.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError("result shape must be the permuted source shape");
  return verifySameMemory(*this, src, dst);
}

LogicalResult MemDescReshapeOp::verify() {
  MemDescType src = getSrc().getType(), dst = getResult().getType();
  if (numElements(src.getShape()) != numElements(dst.getShape()))
    return emitOpError("source and result must have the same number of "
                       "elements");
  return verifySameMemory(*this, src, dst);
}

LogicalResult MemDescReinterpretOp::verify() {
  MemDescType src = getSrc().getType(), dst = getResult().getType();
  if (src.getAllocShape() != src.getShape())
    return emitOpError("cannot reinterpret a subview; reinterpret the whole "
                       "allocation");
  if (src.getMemorySpace() != dst.getMemorySpace())
    return emitOpError("source and result must be in the same memory space");
  return success();
}

//===----------------------------------------------------------------------===//
// Fp4ToFpOp
//===----------------------------------------------------------------------===//

LogicalResult Fp4ToFpOp::verify() {
  auto srcTy = cast<RankedTensorType>(getSrc().getType());
  auto dstTy = cast<RankedTensorType>(getResult().getType());
  int32_t axis = getAxis();
  if (axis < 0 || axis >= srcTy.getRank())
    return emitOpError("axis out of range");
  if (srcTy.getRank() != dstTy.getRank())
    return emitOpError("source and result must have the same rank");
  for (int64_t d = 0; d < srcTy.getRank(); ++d) {
    int64_t expected = srcTy.getDimSize(d) * (d == axis ? 2 : 1);
    if (dstTy.getDimSize(d) != expected)
      return emitOpError("result dimension ")
             << d << " must be " << expected;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Warp specialization
//===----------------------------------------------------------------------===//

WarpSpecializePartitionsOp WarpSpecializeOp::getPartitionOp() {
  Region &holder = getPartitionOpHolder();
  if (holder.empty() || holder.front().empty())
    return {};
  return dyn_cast<WarpSpecializePartitionsOp>(holder.front().front());
}

ParseResult WarpSpecializeOp::parse(OpAsmParser &parser,
                                    OperationState &result) {
  SMLoc capturesLoc = parser.getCurrentLocation();
  SmallVector<OpAsmParser::UnresolvedOperand> captures;
  if (parser.parseOperandList(captures, OpAsmParser::Delimiter::Paren) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes) ||
      parser.parseKeyword("default"))
    return failure();
  Region *defaultRegion = result.addRegion();
  if (parser.parseRegion(*defaultRegion))
    return failure();

  SmallVector<std::unique_ptr<Region>> partitions;
  SmallVector<int32_t> numWarps;
  StringRef keyword;
  SMLoc keywordLoc = parser.getCurrentLocation();
  while (succeeded(parser.parseOptionalKeyword(&keyword))) {
    std::string expected = "partition" + std::to_string(partitions.size());
    if (keyword != expected)
      return parser.emitError(keywordLoc, "expected '") << expected << "'";
    SmallVector<OpAsmParser::Argument> args;
    int32_t warps;
    auto region = std::make_unique<Region>();
    if (parser.parseArgumentList(args, OpAsmParser::Delimiter::Paren,
                                 /*allowType=*/true) ||
        parser.parseKeyword("num_warps") || parser.parseLParen() ||
        parser.parseInteger(warps) || parser.parseRParen() ||
        parser.parseRegion(*region, args))
      return failure();
    numWarps.push_back(warps);
    partitions.push_back(std::move(region));
    keywordLoc = parser.getCurrentLocation();
  }

  FunctionType type;
  if (parser.parseColonType(type) ||
      parser.resolveOperands(captures, type.getInputs(), capturesLoc,
                             result.operands))
    return failure();
  result.addTypes(type.getResults());
  result.addAttribute(getPartitionNumWarpsAttrName(result.name),
                      parser.getBuilder().getDenseI32ArrayAttr(numWarps));

  // Captures and partition regions belong to the nested holder op.
  Region *holder = result.addRegion();
  Block *block = new Block();
  holder->push_back(block);
  OperationState holderState(result.location,
                             WarpSpecializePartitionsOp::getOperationName());
  holderState.addOperands(result.operands);
  for (std::unique_ptr<Region> &region : partitions)
    holderState.addRegion(std::move(region));
  OpBuilder builder(parser.getContext());
  builder.setInsertionPointToStart(block);
  builder.create(holderState);
  result.operands.clear();
  return success();
}

void WarpSpecializeOp::print(OpAsmPrinter &p) {
  WarpSpecializePartitionsOp partitions = getPartitionOp();
  ValueRange captures;
  if (partitions)
    captures = partitions.getExplicitCaptures();
  p << "(" << captures << ")";
  p.printOptionalAttrDictWithKeyword(getOperation()->getAttrDictionary().getValue(),
                                     {getPartitionNumWarpsAttrName()});
  p.printNewline();
  p << "default ";
  p.printRegion(getDefaultRegion(), /*printEntryBlockArgs=*/false);
  if (partitions) {
    ArrayRef<int32_t> numWarps = getPartitionNumWarps();
    for (auto [i, region] : llvm::enumerate(partitions.getPartitionRegions())) {
      p.printNewline();
      p << "partition" << i << "(";
      llvm::interleaveComma(region.getArguments(), p, [&](BlockArgument arg) {
        p.printRegionArgument(arg);
      });
      p << ") num_warps(" << (i < numWarps.size() ? numWarps[i] : 0) << ") ";
      p.printRegion(region, /*printEntryBlockArgs=*/false);
    }
  }
  p << " : ";
  p.printFunctionalType(captures.getTypes(), getResultTypes());
}

LogicalResult WarpSpecializeOp::verify() {
  WarpSpecializePartitionsOp partitions = getPartitionOp();
  if (!partitions)
    return emitOpError("expected a ttg.warp_specialize.partitions op holding "
                       "the partition regions");
  if (getPartitionNumWarps().size() != partitions.getNumRegions())
    return emitOpError("has ")
           << partitions.getNumRegions() << " partitions but "
           << getPartitionNumWarps().size() << " partition warp counts";
  for (int32_t warps : getPartitionNumWarps())
    if (warps <= 0 || !llvm::isPowerOf2_32(warps))
      return emitOpError("partition warp counts must be powers of two");
  for (auto attr : {getWarpGroupStartIdsAttr(), getRequestedRegistersAttr(),
                    getActualRegistersAttr()})
    if (attr && attr.size() != getPartitionNumWarps().size())
      return emitOpError("per-partition attributes must have one entry per "
                         "partition");
  return success();
}

LogicalResult WarpSpecializePartitionsOp::verify() {
  for (Region &region : getPartitionRegions()) {
    if (region.getArgumentTypes() != getExplicitCaptures().getTypes())
      return emitOpError("partition region arguments must match the captures");
    if (!isa<WarpReturnOp>(region.front().back()))
      return emitOpError("partition regions must end in ttg.warp_return");
  }
  return success();
}

LogicalResult WarpYieldOp::verify() {
  auto parent = cast<WarpSpecializeOp>((*this)->getParentOp());
  if (getValues().getTypes() != parent.getResultTypes())
    return emitOpError("operand types must match the ttg.warp_specialize "
                       "result types");
  return success();
}

#define GET_OP_CLASSES
#include "dialects/TritonGPU/IR/TritonGPUOps.cpp.inc"
