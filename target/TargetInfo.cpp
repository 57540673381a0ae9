//===- TargetInfo.cpp - What every target shares --------------------------===//

#include "target/TargetInfo.h"

#include "target/LLVMCalls.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::triton_musa;

TargetInfo::~TargetInfo() = default;

Value TargetInfo::shuffleXor(OpBuilder &b, Location loc, Value value, int mask,
                             unsigned width) const {
  return shuffle(b, loc, ShuffleKind::Xor, value, i32Const(b, loc, mask),
                 width);
}
Value TargetInfo::shuffleIdx(OpBuilder &b, Location loc, Value value,
                             Value lane, unsigned width) const {
  return shuffle(b, loc, ShuffleKind::Idx, value, lane, width);
}

void TargetInfo::declareSharedMemory(ModuleOp module) const {
  declareDynamicSharedMemory(module, getSharedAddressSpace());
}

Value TargetInfo::divideF32(OpBuilder &b, Location loc, Value x,
                            Value y) const {
  return LLVM::FDivOp::create(b, loc, x, y);
}

Value TargetInfo::exp2F32(OpBuilder &b, Location loc, Value x) const {
  return LLVM::Exp2Op::create(b, loc, x.getType(), x);
}

Value TargetInfo::getSharedMemoryBase(OpBuilder &b, Location loc) const {
  return getDynamicSharedMemoryBase(b, loc, getSharedAddressSpace());
}

LogicalResult TargetInfo::printf(OpBuilder &b, Location loc, StringRef format,
                                 ValueRange args) const {
  return emitError(loc) << "target " << getArchName()
                        << " has no device-side printf";
}

LogicalResult TargetInfo::assertFail(OpBuilder &b, Location loc,
                                     StringRef message, StringRef file,
                                     unsigned line, StringRef function) const {
  return emitError(loc) << "target " << getArchName()
                        << " has no device-side assertions";
}

FailureOr<SmallVector<Value>>
TargetInfo::wmma(OpBuilder &b, Location loc, const WMMAInstr &instr,
                 ArrayRef<Value> a, ArrayRef<Value> bOperand,
                 ArrayRef<Value> c) const {
  return emitError(loc) << "target " << getArchName()
                        << " has no WMMA instruction";
}

FailureOr<Value>
TargetInfo::sqmmaDescriptor(OpBuilder &b, Location loc,
                            const SQMMAOperandTile &tile) const {
  return emitError(loc) << "SQMMA is not available on this target ("
                        << getArchName() << ")";
}

FailureOr<SmallVector<Value>>
TargetInfo::sqmma(OpBuilder &b, Location loc, const SQMMAInstr &instr,
                  Value descA, Value descB, ArrayRef<Value> c) const {
  return emitError(loc) << "SQMMA is not available on this target ("
                        << getArchName() << ")";
}

LogicalResult TargetInfo::sqmmaWait(OpBuilder &b, Location loc) const {
  return emitError(loc) << "SQMMA is not available on this target ("
                        << getArchName() << ")";
}

FailureOr<SmallVector<Value>>
TargetInfo::sqmmaOnTiles(OpBuilder &b, Location loc, const SQMMAInstr &instr,
                         const SQMMAOperandTile &a,
                         const SQMMAOperandTile &bTile,
                         ArrayRef<Value> c) const {
  // sqmmaDescriptor takes no line: the hardware's is 256 bytes.
  for (const SQMMAOperandTile *tile : {&a, &bTile})
    if (tile->getSwizzleLineBytes() != 256)
      return emitError(loc) << "SQMMA descriptors assume a 256-byte swizzle "
                               "line, got "
                            << tile->getSwizzleLineBytes() << " bytes";
  FailureOr<Value> descA = sqmmaDescriptor(b, loc, a);
  if (failed(descA))
    return failure();
  FailureOr<Value> descB = sqmmaDescriptor(b, loc, bTile);
  if (failed(descB))
    return failure();
  return sqmma(b, loc, instr, *descA, *descB, c);
}

FailureOr<SmallVector<Value>>
TargetInfo::sqmmaWaitFor(OpBuilder &b, Location loc,
                         ArrayRef<Value> values) const {
  if (failed(sqmmaWait(b, loc)))
    return failure();
  return SmallVector<Value>(values);
}

std::unique_ptr<TargetInfo>
mlir::triton_musa::createTargetInfo(const MUSAArchInfo &arch,
                                    TargetKind kind) {
  if (kind == TargetKind::Emulator)
    return createEmulatorTargetInfo(arch);
  if (kind == TargetKind::Proxy)
    return createProxyTargetInfo(arch);
  return createMUSATargetInfo(arch);
}

// TME and async barriers: only targets with TME implement them.
static InFlightDiagnostic emitNoTME(Location loc, StringRef archName,
                                    StringRef what) {
  return emitError(loc) << "target " << archName << " has no TME (" << what
                        << ")";
}

FailureOr<Value>
TargetInfo::getTMEDescriptorAddress(OpBuilder &b, Location loc,
                                    const TMEDescriptorFields &fields) const {
  return emitNoTME(loc, getArchName(), "tensor descriptors");
}
void TargetInfo::tmeLoad(OpBuilder &b, Location loc, Value barrier,
                         const TMETransfer &transfer) const {
  emitNoTME(loc, getArchName(), "tile loads");
}
void TargetInfo::tmeStore(OpBuilder &b, Location loc,
                          const TMETransfer &transfer) const {
  emitNoTME(loc, getArchName(), "tile stores");
}
void TargetInfo::tmeStoreCommit(OpBuilder &b, Location loc) const {
  emitNoTME(loc, getArchName(), "store commits");
}
void TargetInfo::tmeStoreReadWait(OpBuilder &b, Location loc) const {
  emitNoTME(loc, getArchName(), "store waits");
}
void TargetInfo::asyncBarrierRecord(OpBuilder &b, Location loc,
                                    unsigned count) const {
  emitNoTME(loc, getArchName(), "async barriers");
}
void TargetInfo::asyncBarrierInit(OpBuilder &b, Location loc, Value barrier,
                                  Value arriveCount, Value phase) const {
  emitNoTME(loc, getArchName(), "async barriers");
}
void TargetInfo::asyncBarrierExpectBytes(OpBuilder &b, Location loc,
                                         Value barrier, Value bytes) const {
  emitNoTME(loc, getArchName(), "async barriers");
}
void TargetInfo::asyncBarrierArrive(OpBuilder &b, Location loc,
                                    Value barrier) const {
  emitNoTME(loc, getArchName(), "async barriers");
}
void TargetInfo::asyncBarrierWait(OpBuilder &b, Location loc, Value barrier,
                                  Value phase) const {
  emitNoTME(loc, getArchName(), "async barriers");
}

/// The device's layout of a TME buffer: the box stored densely, innermost
/// dimension fastest, with the canonical swizzle (MUSA-FACTS.md:
/// granularity 16/32/64 B, stride = line = 256 B) whose period (line x
/// stride / granularity) fits the buffer, the smallest granularity first;
/// no swizzle for buffers smaller than 1 KiB.
std::pair<musagpu::TMESharedEncodingAttr, int32_t>
TargetInfo::getTMESharedEncoding(MLIRContext *ctx, ArrayRef<int64_t> shape,
                                 unsigned elementBits) const {
  namespace mgpu = mlir::musagpu;
  int64_t bytes = elementBits / 8;
  for (int64_t d : shape)
    bytes *= d;
  SmallVector<unsigned> order;
  for (unsigned d = shape.size(); d-- > 0;)
    order.push_back(d);
  for (auto [granularity, granuleBytes] :
       {std::pair{mgpu::TMESwizzleGranularity::B16, 16},
        std::pair{mgpu::TMESwizzleGranularity::B32, 32},
        std::pair{mgpu::TMESwizzleGranularity::B64, 64}}) {
    int64_t period = 256 * (256 / granuleBytes);
    if (bytes >= period && granuleBytes >= int64_t(elementBits / 8))
      return {mgpu::TMESharedEncodingAttr::get(
                  ctx, granularity, mgpu::TMESwizzleStride::B256,
                  mgpu::TMESwizzleLine::B256, elementBits, order),
              int32_t(period)};
  }
  return {mgpu::TMESharedEncodingAttr::get(
              ctx, mgpu::TMESwizzleGranularity::None,
              mgpu::TMESwizzleStride::B256, mgpu::TMESwizzleLine::B256,
              elementBits, order),
          128};
}
