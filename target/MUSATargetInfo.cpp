//===- MUSATargetInfo.cpp - The MUSA GPUs' target interface ---------------===//
//
// Every MUSA architecture shares the `llvm.musa.*` vocabulary (MUSA-FACTS.md);
// what differs between them (warp size, shared memory, ballot width) comes
// from the architecture's row of the table.
//
//===----------------------------------------------------------------------===//

#include "target/CUDAStyleTargetInfo.h"
#include "target/LLVMCalls.h"
#include "target/MUSAIntrinsics.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::triton_musa;

namespace {

/// Address space of the shuffles' predicate slot and printf's buffer.
constexpr unsigned kPrivateAddressSpace = 5;

/// The i1 out-slot (addrspace 5) of the shuffles of the function around
/// the builder's insertion point, created at its entry on first use.
Value getPredicateSlot(OpBuilder &b, Location loc) {
  Operation *parent = b.getInsertionBlock()->getParentOp();
  auto func = dyn_cast<LLVM::LLVMFuncOp>(parent);
  if (!func)
    func = parent->getParentOfType<LLVM::LLVMFuncOp>();
  auto ptrTy = LLVM::LLVMPointerType::get(b.getContext(), kPrivateAddressSpace);
  auto isSlot = [&](Operation &op) {
    auto alloca = dyn_cast<LLVM::AllocaOp>(op);
    return alloca && alloca.getType() == ptrTy &&
           alloca.getElemType() == b.getI1Type();
  };
  OpBuilder::InsertionGuard guard(b);
  if (func && !func.getBody().empty()) {
    Block &entry = func.getBody().front();
    for (Operation &op : entry)
      if (isSlot(op))
        return op.getResult(0);
    b.setInsertionPointToStart(&entry);
  }
  return LLVM::AllocaOp::create(b, loc, ptrTy, b.getI1Type(),
                                i32Const(b, loc, 1));
}

/// The target interface for the MUSA GPUs (`llvm.musa.*` functions).
class MUSATargetInfo final : public CUDAStyleTargetInfo {
public:
  TargetKind getKind() const override { return TargetKind::Device; }
  /// printf and assertions as in CUDA (assumed: no public MUSA source names
  /// them), printf's argument buffer in private memory.
  explicit MUSATargetInfo(const MUSAArchInfo &arch)
      : CUDAStyleTargetInfo(arch, kPrivateAddressSpace) {}

  unsigned getPrivateAddressSpace() const override {
    return kPrivateAddressSpace;
  }

  Value threadId(OpBuilder &b, Location loc, unsigned dim) const override {
    return readSpecialRegister(b, loc, "tid", dim);
  }
  Value blockId(OpBuilder &b, Location loc, unsigned dim) const override {
    return readSpecialRegister(b, loc, "ctaid", dim);
  }
  Value numBlocks(OpBuilder &b, Location loc, unsigned dim) const override {
    return readSpecialRegister(b, loc, "nctaid", dim);
  }

  void barrier(OpBuilder &b, Location loc) const override {
    call(b, loc, "llvm.musa.barrier0", {});
  }

  FailureOr<SmallVector<Value>> wmma(OpBuilder &b, Location loc,
                                     const WMMAInstr &instr, ArrayRef<Value> a,
                                     ArrayRef<Value> bOperand,
                                     ArrayRef<Value> c) const override;

  FailureOr<Value>
  sqmmaDescriptor(OpBuilder &b, Location loc,
                  const SQMMAOperandTile &tile) const override;
  FailureOr<SmallVector<Value>> sqmma(OpBuilder &b, Location loc,
                                      const SQMMAInstr &instr, Value descA,
                                      Value descB,
                                      ArrayRef<Value> c) const override;
  /// `llvm.musa.sqmma.wait()`: no operand (MUSA-FACTS.md, last section).
  LogicalResult sqmmaWait(OpBuilder &b, Location loc) const override {
    call(b, loc, "llvm.musa.sqmma.wait", {});
    return success();
  }
  void sharedMemoryBarrier(OpBuilder &b, Location loc) const override {
    call(b, loc, "llvm.musa.syncthreads.lm", {});
  }
  void warpSync(OpBuilder &b, Location loc) const override {
    call(b, loc, "llvm.musa.syncwarp", {});
  }

  Value shuffle(OpBuilder &b, Location loc, ShuffleKind kind, Value value,
                Value offset, unsigned width) const override;

  Value ballot(OpBuilder &b, Location loc, Value pred) const override {
    return call(b, loc, "llvm.musa.vote.ballot.sync", {pred});
  }

  /// `llvm.musa.memcpy.g2s(dst, src, bytes, prefetch = 0)` (MUSA-FACTS.md,
  /// "g2s copies"): no cache-policy operand.
  void asyncCopyGlobalToShared(OpBuilder &b, Location loc, Value dst,
                               Value src, unsigned bytes) const override {
    call(b, loc, "llvm.musa.memcpy.g2s",
         {dst, src, i32Const(b, loc, bytes), i32Const(b, loc, 0)});
  }
  void asyncCopyWait(OpBuilder &b, Location loc) const override {
    call(b, loc, "llvm.musa.memcpy.g2s.wait", {});
  }

  /// Atomics use the syncscope names of clang's GPU targets ("workgroup",
  /// "agent", "" = system), which the LLVM 14 parser accepts as they are
  /// and the export keeps. (Assumption to confirm with the MUSA llc: an
  /// NVPTX-derived backend ignores syncscopes, an AMDGPU-derived one knows
  /// exactly these names.)
  StringRef getSyncScope(MemoryScope scope) const override {
    switch (scope) {
    case MemoryScope::Block:
      return "workgroup";
    case MemoryScope::Device:
      return "agent";
    case MemoryScope::System:
      return "";
    }
    return "";
  }

  /// The device's descriptor is the 64-byte MUtensorDescriptor the host
  /// encodes with muTensorDescriptorEncode and passes by value (a
  /// grid-constant `byval` parameter); its layout is not public, so a
  /// kernel cannot build one from base, shape and strides.
  FailureOr<Value>
  getTMEDescriptorAddress(OpBuilder &b, Location loc,
                          const TMEDescriptorFields &fields) const override {
    // The TME instruction takes the address of the grid-constant parameter.
    if (fields.hostEncoded)
      return LLVM::PtrToIntOp::create(b, loc, b.getI64Type(),
                                      fields.hostEncoded)
          .getResult();
    return emitError(loc)
           << "TME on the MUSA GPU reads host-encoded MUtensorDescriptor "
              "kernel parameters; this descriptor is not one (made in the "
              "kernel, whose encoding on the device is not known for MUSA); "
              "--musa-lower-descriptors-to-tme target=musa keeps such "
              "descriptors on the path without TME";
  }

  void tmeLoad(OpBuilder &b, Location loc, Value barrier,
               const TMETransfer &t) const override {
    SmallVector<Value> args{barrier, t.shared, t.descriptor};
    appendTransfer(b, loc, t, args, /*withPrefetch=*/true);
    call(b, loc, ("llvm.musa.tme.ld.tile." + Twine(t.box.size()) + "d").str(),
         args);
  }
  void tmeStore(OpBuilder &b, Location loc,
                const TMETransfer &t) const override {
    SmallVector<Value> args{t.shared, t.descriptor};
    appendTransfer(b, loc, t, args, /*withPrefetch=*/false);
    call(b, loc, ("llvm.musa.tme.st." + Twine(t.box.size()) + "d").str(), args);
  }
  void tmeStoreCommit(OpBuilder &b, Location loc) const override {
    call(b, loc, "llvm.musa.tme.store.commit", {});
  }
  void tmeStoreReadWait(OpBuilder &b, Location loc) const override {
    call(b, loc, "llvm.musa.tme.store.read.wait", {});
  }
  void asyncBarrierRecord(OpBuilder &b, Location loc,
                          unsigned count) const override {
    call(b, loc, "llvm.musa.async.bar.record", {i32Const(b, loc, count)});
  }
  void asyncBarrierInit(OpBuilder &b, Location loc, Value barrier,
                        Value arriveCount, Value phase) const override {
    call(b, loc, "llvm.musa.async.init.arrival",
         {barrier, arriveCount, phase});
  }
  void asyncBarrierExpectBytes(OpBuilder &b, Location loc, Value barrier,
                               Value bytes) const override {
    call(b, loc, "llvm.musa.async.add.trans", {barrier, bytes});
  }
  void asyncBarrierArrive(OpBuilder &b, Location loc,
                          Value barrier) const override {
    call(b, loc, "llvm.musa.async.arrive.none.phaseid", {barrier});
  }
  void asyncBarrierWait(OpBuilder &b, Location loc, Value barrier,
                        Value phase) const override {
    call(b, loc, "llvm.musa.async.wait", {barrier, phase});
  }

private:
  /// Calls the intrinsic `name` as its entry in MUSAIntrinsics.cpp says;
  /// null for a void intrinsic or when the call was refused (reported).
  Value call(OpBuilder &b, Location loc, StringRef name,
             ValueRange args) const {
    FailureOr<Value> result = callMUSAIntrinsic(b, loc, getArch(), name, args);
    return succeeded(result) ? *result : Value();
  }
  /// `llvm.musa.read.ptx.sreg.<reg>.<x|y|z>`.
  Value readSpecialRegister(OpBuilder &b, Location loc, StringRef reg,
                            unsigned dim) const {
    static const char *const kDims[] = {"x", "y", "z"};
    return call(b, loc,
                ("llvm.musa.read.ptx.sreg." + reg + "." + kDims[dim % 3]).str(),
                {});
  }
  /// An i32 for rank 1, else a <rank x i32> of `values`.
  static Value packDims(OpBuilder &b, Location loc, ArrayRef<Value> values) {
    if (values.size() == 1)
      return values.front();
    auto type = VectorType::get({int64_t(values.size())}, b.getI32Type());
    Value vector = LLVM::UndefOp::create(b, loc, type);
    for (auto [i, v] : llvm::enumerate(values))
      vector = LLVM::InsertElementOp::create(b, loc, vector, v,
                                             i32Const(b, loc, i));
    return vector;
  }
  /// blockDim, blockPos, the swizzle codes, [prefetch,] the persistence
  /// hints and the L2 policy.
  static void appendTransfer(OpBuilder &b, Location loc, const TMETransfer &t,
                             SmallVectorImpl<Value> &args, bool withPrefetch) {
    SmallVector<Value> box;
    for (int32_t d : t.box)
      box.push_back(i32Const(b, loc, d));
    args.push_back(packDims(b, loc, box));
    args.push_back(packDims(b, loc, t.coords));
    for (int32_t v : {t.swizzleGranularity, t.swizzleStride, t.swizzleLine})
      args.push_back(i32Const(b, loc, v));
    if (withPrefetch)
      args.push_back(i32Const(b, loc, t.prefetch));
    for (int32_t v : {t.innerPersist, t.outerPersist, t.l2Policy})
      args.push_back(i32Const(b, loc, v));
  }
};

Value MUSATargetInfo::shuffle(OpBuilder &b, Location loc, ShuffleKind kind,
                              Value value, Value offset, unsigned width) const {
  if (width == 0)
    width = getWarpSize();
  static constexpr ShuffleIntrinsics kShuffles = {
      "llvm.musa.shfl.xor.sync.i32", "llvm.musa.shfl.up.sync.i32",
      "llvm.musa.shfl.down.sync.i32", "llvm.musa.shfl.idx.sync.i32"};
  StringRef fn = kShuffles.get(kind);
  // The segment mask is encoded against 128 lanes on every MUSA arch; `up`
  // clamps at the segment start, so its low (clamp) field is 0.
  int64_t clamp = getShuffleClamp(kind, width);
  Value maskAndClamp = i32Const(b, loc, ((int64_t(128) - width) << 7) | clamp);

  // The intrinsic reports through a private-memory i1 whether the source
  // lane was in range; nobody reads it, so one slot per function, in the
  // entry block where LLVM promotes allocas, serves every shuffle.
  Value predSlot = getPredicateSlot(b, loc);

  return shuffleInChunks(b, loc, value, /*chunkBits=*/32, [&](Value v32) {
    return call(b, loc, fn, {v32, offset, maskAndClamp, predSlot});
  });
}

} // namespace

std::unique_ptr<TargetInfo>
mlir::triton_musa::createMUSATargetInfo(const MUSAArchInfo &arch) {
  return std::make_unique<MUSATargetInfo>(arch);
}

/// Packs 16-bit values two per i32 (the first in the low half) into a
/// vector of i32, or bitcasts 32-bit values one per i32.
static Value packI32Vector(OpBuilder &b, Location loc, ArrayRef<Value> values) {
  Type i32 = b.getI32Type();
  unsigned bits = values.front().getType().getIntOrFloatBitWidth();
  unsigned perWord = 32 / bits;
  unsigned words = values.size() / perWord;
  auto vecType = VectorType::get({int64_t(words)}, i32);
  Value vec = LLVM::UndefOp::create(b, loc, vecType);
  for (unsigned w = 0; w < words; ++w) {
    Value word;
    if (perWord == 1) {
      word = values[w].getType() == i32
                 ? values[w]
                 : LLVM::BitcastOp::create(b, loc, i32, values[w]).getResult();
    } else {
      auto pairType = VectorType::get({int64_t(perWord)}, values[0].getType());
      Value pair = LLVM::UndefOp::create(b, loc, pairType);
      for (unsigned i = 0; i < perWord; ++i)
        pair = LLVM::InsertElementOp::create(b, loc, pair,
                                             values[w * perWord + i],
                                             i32Const(b, loc, i));
      word = LLVM::BitcastOp::create(b, loc, i32, pair);
    }
    vec = LLVM::InsertElementOp::create(b, loc, vec, word, i32Const(b, loc, w));
  }
  return vec;
}

/// The inverse of packI32Vector for 32-bit values: element i of the i32
/// vector `packed`, bitcast to the type of `like[i]`.
static SmallVector<Value> unpackI32Vector(OpBuilder &b, Location loc,
                                          Value packed, ArrayRef<Value> like) {
  SmallVector<Value> values;
  for (auto [i, v] : llvm::enumerate(like)) {
    Value word =
        LLVM::ExtractElementOp::create(b, loc, packed, i32Const(b, loc, i));
    values.push_back(v.getType().isInteger(32)
                         ? word
                         : LLVM::BitcastOp::create(b, loc, v.getType(), word)
                               .getResult());
  }
  return values;
}

/// Whether this target lowers `row` (the catalogue's): a row of the
/// device that we lower.
static LogicalResult checkRow(Location loc, const musagpu::MatrixInstr &row,
                              StringRef arch) {
  if (row.isLowered() && row.isFor(TargetKind::Device))
    return success();
  return emitError(loc) << "no lowering for " << row.describe() << " on "
                        << arch
                        << (row.isLowered() ? ": not a device instruction"
                                            : ": " + row.notLowered.str());
}

/// `llvm.musa.<stem>.m<M>n<N>k<K>.mma(<i32 x n> a, <i32 x n> b, <i32 x n> c,
/// i32 sat = 1, i32 fmt = 1, i32 layout)`, the name from the row
/// (MUSA-FACTS.md, last section; sat and fmt as the open MUSA backend passes
/// them). The fragments hold K-adjacent operand pairs in one register for
/// both A and B, i.e. A row-major and B column-major: layout = 1 (inferred
/// from the stated encoding `(A col-major ? 2 : 0) | (B col-major ? 1 : 0)`).
FailureOr<SmallVector<Value>>
MUSATargetInfo::wmma(OpBuilder &b, Location loc, const WMMAInstr &instr,
                     ArrayRef<Value> a, ArrayRef<Value> bOperand,
                     ArrayRef<Value> c) const {
  if (failed(checkRow(loc, instr.row, getArchName())))
    return failure();
  Value packedC = packI32Vector(b, loc, c);
  FailureOr<Value> result = callMUSAIntrinsic(
      b, loc, getArch(), instr.row.getIntrinsicName(),
      {packI32Vector(b, loc, a), packI32Vector(b, loc, bOperand), packedC,
       i32Const(b, loc, 1), i32Const(b, loc, 1), i32Const(b, loc, 1)});
  if (failed(result))
    return failure();
  // Accumulator words are bitcast back to c's types (f32, i32).
  return unpackI32Vector(b, loc, *result, c);
}

/// `llvm.musa.sqmma.desc.{half,fp32,i8}(elem, leadingStrideBytes, sg, ss)`
/// (MUSA-FACTS.md, last section): the first operand is the element *loaded*
/// from the tile start (i16 for 16-bit types, float for tf32, i8 for 8-bit
/// types); the backend takes the address from that load.
FailureOr<Value>
MUSATargetInfo::sqmmaDescriptor(OpBuilder &b, Location loc,
                                const SQMMAOperandTile &tile) const {
  unsigned bits = tile.elementType.getIntOrFloatBitWidth();
  StringRef suffix;
  Type loaded;
  if (bits == 16) {
    suffix = "half";
    loaded = b.getI16Type();
  } else if (bits == 32) {
    suffix = "fp32";
    loaded = b.getF32Type();
  } else if (bits == 8) {
    suffix = "i8";
    loaded = b.getI8Type();
  } else {
    return emitError(loc) << "no SQMMA descriptor for " << tile.elementType
                          << " elements";
  }
  Value elem = LLVM::LoadOp::create(b, loc, loaded, tile.tileStart);
  return callMUSAIntrinsic(b, loc, getArch(),
                           ("llvm.musa.sqmma.desc." + suffix).str(),
                           {elem, i32Const(b, loc, tile.leadingBytes),
                            i32Const(b, loc, tile.swizzleGranularity),
                            i32Const(b, loc, tile.swizzleStride)});
}

/// `llvm.musa.sqmma.<kind>.m<M>n<N>k<K>.mma(descA, descB, <n x i32> acc,
/// transA, transB, aNeg = 0, bNeg = 0, scaleOut = 1, sat = 0, stepA = 0,
/// stepB = 0, stepC = 0) -> <n x i32>`, the name from the row, accumulators
/// bitcast to i32; the
/// operand values are the ones the open MUSA backend passes (scaleOut = 1
/// accumulates there; MUTLASS's naming of that value is unresolved).
FailureOr<SmallVector<Value>>
MUSATargetInfo::sqmma(OpBuilder &b, Location loc, const SQMMAInstr &instr,
                      Value descA, Value descB, ArrayRef<Value> c) const {
  if (failed(checkRow(loc, instr.row, getArchName())))
    return failure();
  std::string name = instr.row.getIntrinsicName();
  Value packedC = packI32Vector(b, loc, c);
  FailureOr<Value> result = callMUSAIntrinsic(
      b, loc, getArch(), name,
      {descA, descB, packedC, i32Const(b, loc, instr.transA),
       i32Const(b, loc, instr.transB), i32Const(b, loc, 0),
       i32Const(b, loc, 0), i32Const(b, loc, 1), i32Const(b, loc, 0),
       i32Const(b, loc, 0), i32Const(b, loc, 0), i32Const(b, loc, 0)});
  if (failed(result))
    return failure();
  return unpackI32Vector(b, loc, *result, c);
}
