//===- ProxyTargetInfo.cpp - The GPU proxy's target interface (NVVM) ------===//
//
// The target of `--convert-tritongpu-to-musa{target=proxy}`: a test and
// measurement target that runs our pipeline's code on an NVIDIA GPU (an H200,
// sm_90). Everything above this interface is the MUSA architecture's (the
// module stays `ttg.target = "musa:mp_31"`: Triton's same TTGIR, the same
// passes making the same plan, warp 32), up to the layouts of what the
// proxy's hardware reads: its catalogue rows (SQMMA as wgmma, PH1's WMMA as
// mma.sync) and its TME buffers (TMA's swizzles, the answers of this
// interface). The hardware hooks below become NVVM:
//
//   ids        llvm.nvvm.read.ptx.sreg.{tid,ctaid,nctaid}.{x,y,z}
//   barriers   llvm.nvvm.barrier.cta.sync.aligned.all(0) (bar.sync 0, which
//              orders every memory access of the block, shared included),
//              llvm.nvvm.bar.warp.sync(full mask)
//   shuffles   llvm.nvvm.shfl.sync.{bfly,up,down,idx}.i32(mask, v, b, c),
//              c = ((32 - width) << 8) | clamp (PTX's shfl.sync segment mask
//              and clamp fields); 64-bit values as two i32
//   votes      llvm.nvvm.vote.ballot.sync(mask, pred)
//   shared     the external zero-length `global_smem` in addrspace 3 (PTX
//              dynamic shared memory, sized by the launcher)
//   printf     vprintf(format, args), assert: __assertfail (PTX system calls)
//   atomics    NVPTX syncscopes "block" / "device" / "" (system)
//
// The NVPTX export (conversion/NVPTXExport) turns the kernel markers into
// `ptx_kernel` + "nvvm.maxntid", maps `__mt_*` libdevice calls onto the
// `__nv_*` functions of libdevice.10.bc, and emits PTX.
//
// SQMMA -> wgmma (both are 4-warp MMAs on shared-memory operands with an
// asynchronous wait). One SQMMA instruction (M x N x K per squad, M a
// multiple of 64) is M/64 x K/k wgmma.mma_async.m64nNk<k> (k = 16 for
// 16-bit types, 8 for tf32, 32 for 8-bit types), between one wgmma.fence
// and one wgmma.commit_group (operand tiles the threads stored are fenced
// by their writers: fenceSharedWritesForAsyncReads; cp.async and TMA
// writes need no fence, as in Triton's own Hopper code); musagpu.sqmma_wait is
// wgmma.wait_group 0 returning the accumulators (so no read of them is
// scheduled before it). The accumulator is Hopper's fragment
// (layouts/HopperFragments.h): instruction t's registers are t's N/2.
// Operands are #musagpu.tme_shared buffers with the proxy's swizzle codes:
// 16-byte granules, a 128-byte line and a 32/64/128-byte stride S are
// exactly Hopper's 32B/64B/128B swizzles (16-byte chunk bits [4, 4 + log2
// (S/16)) XORed with address bits from 7 up), when rows are S bytes (the
// swizzle atom is 8 rows of S bytes). The 64-bit shared-memory descriptor
// (PTX ISA, "Matrix Descriptor"): start address >> 4 in bits 0-13, leading
// byte offset >> 4 in 16-29 (MN-major: the distance between S-byte pieces
// along M or N; unused K-major), stride byte offset >> 4 in 32-45 (8 rows,
// both majors), swizzle mode in 62-63 (1 = 128B, 2 = 64B, 3 = 32B).
// SQMMA's transA (A M-major) is wgmma's imm-trans-a; SQMMA's transB (B
// K-major) is wgmma's K-major B, i.e. imm-trans-b = !transB.
//
// WMMA -> mma.sync. The proxy's WMMA rows are mp_31's f16/bf16 m16n16k16
// and m16n16k32, held in the mma_sync_warp fragment: one instruction is
// 2 x K/16 mma.sync.aligned.m16n8k16.row.col.f32 (A row-major and B
// column-major in registers, as PH1's layout = 1).
//
// TME -> TMA. A host-encoded descriptor is a 128-byte CUtensorMap kernel
// parameter (align 64, grid-constant) in the layout of Triton's NVIDIA
// kernels, so Triton's CUDA launcher encodes it from the host
// TensorDescriptor with the `tensordesc_meta` the kernel's parameters
// record: a TMA tensor map fixes its box and swizzle, which MUSA's TME
// instruction takes as operands, so each descriptor parameter gets the one
// box and swizzle all its transfers use (box innermost first, swizzle as
// CU_TENSOR_MAP_SWIZZLE_*, and the element type),
// and a second box is an error (recorded in the module attribute
// "musagpu.tma_tensor_maps", {"<parameter index>": {box, swizzle,
// element}}, which the Python side reads; parameter attributes would not
// survive the LLVM IR translation quietly). Tile loads are cp.async.bulk.tensor
// completing on an mbarrier, stores the bulk-group form after a
// fence.proxy.async; commit and read wait are the bulk group's.
// MUSA's integer async-barrier ids 0..63 are an array of 64 mbarriers at
// the end of the block's shared memory (declareSharedMemory grows
// ttg.shared by it): init, expect_tx, arrive, and a try_wait.parity loop.
//
//===----------------------------------------------------------------------===//

#include "target/CUDAStyleTargetInfo.h"
#include "target/LLVMCalls.h"

#include "dialects/MUSAGPU/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::triton_musa;

namespace {

/// NVPTX's generic address space, where allocas live and vprintf's
/// arguments are passed.
constexpr unsigned kGenericAddressSpace = 0;
/// Every lane of a 32-lane warp.
constexpr int64_t kFullMask = 0xffffffff;
/// Prefix of the thread, block and grid id intrinsics.
constexpr StringLiteral kSpecialRegisters = "llvm.nvvm.read.ptx.sreg";
/// Bytes of a CUtensorMap.
constexpr unsigned kTensorMapBytes = 128;
/// mbarriers for async-barrier ids 0..63, 8 bytes each.
constexpr int64_t kMBarriers = 64;
/// Module attribute: the byte offset of the mbarrier array in shared memory.
constexpr StringLiteral kMBarrierOffsetAttr = "musagpu.proxy_mbarrier_offset";
/// The block's shared-memory bytes (--musa-allocate-shared-memory's plan).
constexpr StringLiteral kSharedBytesAttr = "ttg.shared";
/// Module attribute: per tensor-map parameter, what the host encodes.
constexpr StringLiteral kTensorMapsAttr = "musagpu.tma_tensor_maps";

/// The tensor-map entry of parameter `arg` of `func` (empty if none).
NamedAttrList getTensorMap(LLVM::LLVMFuncOp func, unsigned arg) {
  auto module = func->getParentOfType<ModuleOp>();
  auto maps = module->getAttrOfType<DictionaryAttr>(kTensorMapsAttr);
  if (!maps)
    return {};
  auto entry = maps.getAs<DictionaryAttr>(std::to_string(arg));
  return entry ? NamedAttrList(entry) : NamedAttrList();
}

void setTensorMap(LLVM::LLVMFuncOp func, unsigned arg,
                  const NamedAttrList &entry) {
  auto module = func->getParentOfType<ModuleOp>();
  MLIRContext *ctx = module.getContext();
  NamedAttrList maps;
  if (auto old = module->getAttrOfType<DictionaryAttr>(kTensorMapsAttr))
    maps = NamedAttrList(old);
  maps.set(StringAttr::get(ctx, std::to_string(arg)),
           entry.getDictionary(ctx));
  module->setAttr(kTensorMapsAttr, maps.getDictionary(ctx));
}

/// Side-effecting PTX `text` on `operands` (`constraints` in LLVM's inline
/// assembly syntax), without results.
void emitPTX(OpBuilder &b, Location loc, StringRef text,
             StringRef constraints, ValueRange operands) {
  LLVM::InlineAsmOp::create(
      b, loc, LLVM::LLVMVoidType::get(b.getContext()), operands, text,
      constraints, /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      ArrayAttr());
}

/// Inline PTX `text` whose outputs are values of `results`, in order (the
/// first constraints): one Value each.
SmallVector<Value> emitPTXResults(OpBuilder &b, Location loc, StringRef text,
                                  StringRef constraints, ValueRange operands,
                                  TypeRange results, bool hasSideEffects) {
  auto result = LLVM::LLVMStructType::getLiteral(b.getContext(),
                                                 SmallVector<Type>(results));
  auto asmOp = LLVM::InlineAsmOp::create(
      b, loc, result, operands, text, constraints, hasSideEffects,
      /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      ArrayAttr());
  SmallVector<Value> values;
  for (unsigned i = 0, e = results.size(); i < e; ++i)
    values.push_back(
        LLVM::ExtractValueOp::create(b, loc, asmOp.getResult(0), int64_t(i)));
  return values;
}

/// A shared-memory pointer as the 32-bit address PTX's `.shared` operands
/// take.
Value sharedAddress(OpBuilder &b, Location loc, Value ptr) {
  return LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), ptr);
}

/// `{$first, ..., $first + n - 1}`, a PTX vector of operands.
std::string operandVector(unsigned first, unsigned n) {
  std::string text = "{";
  for (unsigned i = 0; i < n; ++i)
    text += (i ? ", $" : "$") + std::to_string(first + i);
  return text + "}";
}

class ProxyTargetInfo final : public CUDAStyleTargetInfo {
public:
  TargetKind getKind() const override { return TargetKind::Proxy; }
  /// PTX's vprintf and __assertfail system calls; printf's argument buffer
  /// is a local buffer passed generic.
  explicit ProxyTargetInfo(const MUSAArchInfo &arch)
      : CUDAStyleTargetInfo(arch, kGenericAddressSpace) {}

  std::string whyNotArch() const override {
    if (arch.warpSize == 32)
      return "";
    return ("target=proxy runs on 32-lane NVIDIA warps; " + arch.name +
            " has " + llvm::Twine(arch.warpSize) + "-thread warps")
        .str();
  }

  std::string whyNotTMEBox(ArrayRef<int64_t> box) const override {
    if (llvm::any_of(box, [](int64_t d) { return d > 256; }))
      return "the GPU proxy's TMA boxes are at most 256 elements along each "
             "dimension";
    return "";
  }

  /// Hopper's swizzle, 16 B granules on 128 B lines with the widest
  /// 32/64/128 B stride the rows fill, stored in 128 B column pieces (TMA
  /// swizzles boxes at most one stride wide); no swizzle for rows under 32
  /// bytes. The alignment is the swizzle period (at least TMA's 128 B).
  std::pair<musagpu::TMESharedEncodingAttr, int32_t>
  getTMESharedEncoding(MLIRContext *ctx, ArrayRef<int64_t> shape,
                       unsigned elementBits) const override {
    SmallVector<unsigned> order;
    for (unsigned d = shape.size(); d-- > 0;)
      order.push_back(d);
    int64_t innerBytes = shape.back() * (elementBits / 8);
    musagpu::TMESharedEncodingAttr encoding =
        innerBytes >= 32
            ? musagpu::TMESharedEncodingAttr::getForWGMMAOperand(
                  ctx, order, elementBits, innerBytes)
            : musagpu::TMESharedEncodingAttr::get(
                  ctx, musagpu::TMESwizzleGranularity::None,
                  musagpu::TMESwizzleStride::B128,
                  musagpu::TMESwizzleLine::B128, elementBits, order);
    return {encoding, int32_t(std::max<int64_t>(
                          128, encoding.getSwizzlePeriodBytes()))};
  }

  Value threadId(OpBuilder &b, Location loc, unsigned dim) const override {
    return readSpecialRegister(b, loc, kSpecialRegisters, "tid", dim);
  }
  Value warpUniform(OpBuilder &b, Location loc, Value warp) const override {
    return shuffleIdx(b, loc, warp, i32Const(b, loc, 0));
  }
  Value blockId(OpBuilder &b, Location loc, unsigned dim) const override {
    return readSpecialRegister(b, loc, kSpecialRegisters, "ctaid", dim);
  }
  Value numBlocks(OpBuilder &b, Location loc, unsigned dim) const override {
    return readSpecialRegister(b, loc, kSpecialRegisters, "nctaid", dim);
  }

  void barrier(OpBuilder &b, Location loc) const override {
    callFunction(b, loc, "llvm.nvvm.barrier.cta.sync.aligned.all", {},
                 {i32Const(b, loc, 0)}, CalleeKind::Convergent);
  }
  /// NVIDIA has no shared-memory-only block barrier; bar.sync orders both.
  void sharedMemoryBarrier(OpBuilder &b, Location loc) const override {
    barrier(b, loc);
  }
  void warpSync(OpBuilder &b, Location loc) const override {
    callFunction(b, loc, "llvm.nvvm.bar.warp.sync", {},
                 {i32Const(b, loc, kFullMask)}, CalleeKind::Convergent);
  }

  Value shuffle(OpBuilder &b, Location loc, ShuffleKind kind, Value value,
                Value offset, unsigned width) const override;

  /// div.full.f32 (2 ulp over the full range), as Triton's NVIDIA backend
  /// lowers `/` on f32; NVPTX would make LLVM's fdiv the IEEE div.rn.f32, a
  /// reciprocal, Newton steps and a slow path per division.
  Value divideF32(OpBuilder &b, Location loc, Value x, Value y) const override {
    return callFunction(b, loc, "llvm.nvvm.div.full", b.getF32Type(), {x, y},
                        CalleeKind::ReadNone);
  }
  /// ex2.approx.ftz.f32, as Triton's NVIDIA backend lowers tl.exp2 (its
  /// libdevice's exp2f with flush-to-zero); without .ftz ptxas adds a
  /// compare and two multiplies around each one (Liger's cross entropy:
  /// 0.90x -> 0.95x of Triton with .ftz).
  Value exp2F32(OpBuilder &b, Location loc, Value x) const override {
    return callFunction(b, loc, "llvm.nvvm.ex2.approx.ftz.f32",
                        b.getF32Type(),
                        {x}, CalleeKind::ReadNone);
  }
  Value loadGlobalIf(OpBuilder &b, Location loc, Type type, Value ptr,
                     Value pred, Value other) const override;
  bool storeGlobalIf(OpBuilder &b, Location loc, Value value, Value ptr,
                     Value pred) const override;
  Value ballot(OpBuilder &b, Location loc, Value pred) const override {
    return callFunction(b, loc, "llvm.nvvm.vote.ballot.sync",
                        getBallotType(b.getContext()),
                        {i32Const(b, loc, kFullMask), pred},
                        CalleeKind::Convergent);
  }

  /// cp.async (sm_80+): 16-byte copies take the `.cg` form, which bypasses
  /// L1 (measured on the H200: a 4096^3 fp16 matmul goes from 388 to 516
  /// TFLOP/s); 4 and 8 bytes exist only as `.ca`. MUSA's g2s has no cache
  /// level, so this is the proxy's own fact. wait.all completes the calling
  /// thread's copies, as the MUSA g2s wait does.
  void asyncCopyGlobalToShared(OpBuilder &b, Location loc, Value dst,
                               Value src, unsigned bytes) const override {
    std::string form = bytes == 16 ? "cg" : "ca";
    callFunction(b, loc,
                 "llvm.nvvm.cp.async." + form + ".shared.global." +
                     std::to_string(bytes),
                 {}, {dst, src}, CalleeKind::SideEffects);
  }
  /// cp.async's source-size form: 0 bytes read where `pred` is off, the
  /// rest of the copy zero-filled (as Triton's NVIDIA lowering masks).
  bool asyncCopyGlobalToSharedOrZero(OpBuilder &b, Location loc, Value dst,
                                     Value src, unsigned bytes,
                                     Value pred) const override {
    std::string form = bytes == 16 ? "cg" : "ca";
    Value size = LLVM::SelectOp::create(b, loc, pred, i32Const(b, loc, bytes),
                                        i32Const(b, loc, 0));
    callFunction(b, loc,
                 "llvm.nvvm.cp.async." + form + ".shared.global." +
                     std::to_string(bytes) + ".s",
                 {}, {dst, src, size}, CalleeKind::SideEffects);
    return true;
  }
  void asyncCopyWait(OpBuilder &b, Location loc) const override {
    callFunction(b, loc, "llvm.nvvm.cp.async.wait.all", {}, {},
                 CalleeKind::SideEffects);
  }
  bool asyncCopyWaitIf(OpBuilder &b, Location loc,
                       Value pred) const override {
    // Predicated rather than branched over: a branch splits the pipelined
    // loop's body, which ptxas then schedules block by block (a 4096^3
    // matmul measured 2% slower with the branch).
    emitPTX(b, loc, "@$0 cp.async.wait_all;", "b", {pred});
    return true;
  }

  unsigned getTMEDescriptorBytes() const override { return kTensorMapBytes; }
  void declareSharedMemory(ModuleOp module) const override;
  FailureOr<Value>
  getTMEDescriptorAddress(OpBuilder &b, Location loc,
                          const TMEDescriptorFields &fields) const override;
  void fenceSharedWritesForAsyncReads(OpBuilder &b,
                                      Location loc) const override {
    emitPTX(b, loc, "fence.proxy.async.shared::cta;", "", {});
  }
  void tmeLoad(OpBuilder &b, Location loc, Value barrier,
               const TMETransfer &transfer) const override;
  void tmeStore(OpBuilder &b, Location loc,
                const TMETransfer &transfer) const override;
  void tmeStoreCommit(OpBuilder &b, Location loc) const override {
    emitPTX(b, loc, "cp.async.bulk.commit_group;", "", {});
  }
  void tmeStoreReadWait(OpBuilder &b, Location loc) const override {
    emitPTX(b, loc, "cp.async.bulk.wait_group.read 0;", "", {});
  }
  /// The mbarriers are always there: nothing to reserve.
  void asyncBarrierRecord(OpBuilder &, Location, unsigned) const override {}
  void asyncBarrierInit(OpBuilder &b, Location loc, Value barrier,
                        Value arriveCount, Value phase) const override;
  void asyncBarrierExpectBytes(OpBuilder &b, Location loc, Value barrier,
                               Value bytes) const override {
    emitPTX(b, loc, "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [$0], $1;",
            "r,r", {mbarrier(b, loc, barrier), bytes});
  }
  void asyncBarrierArrive(OpBuilder &b, Location loc,
                          Value barrier) const override {
    emitPTX(b, loc, "mbarrier.arrive.shared::cta.b64 _, [$0];", "r",
            {mbarrier(b, loc, barrier)});
  }
  void asyncBarrierWait(OpBuilder &b, Location loc, Value barrier,
                        Value phase) const override {
    emitPTX(b, loc,
            "{\n.reg .pred done;\nwait_${:uid}:\n"
            "mbarrier.try_wait.parity.shared::cta.b64 done, [$0], $1;\n"
            "@!done bra wait_${:uid};\n}",
            "r,r", {mbarrier(b, loc, barrier), phase});
  }

  /// A WMMA row of the proxy (mma_sync_warp fragment) as mma.sync.m16n8k16.
  FailureOr<SmallVector<Value>> wmma(OpBuilder &b, Location loc,
                                     const WMMAInstr &instr, ArrayRef<Value> a,
                                     ArrayRef<Value> bOperand,
                                     ArrayRef<Value> c) const override;

  /// The wgmma descriptor of `tile` (i64).
  FailureOr<Value> sqmmaDescriptor(OpBuilder &b, Location loc,
                                   const SQMMAOperandTile &tile) const override;
  /// An SQMMA instruction that is one wgmma (64 rows, one wgmma K step).
  FailureOr<SmallVector<Value>> sqmma(OpBuilder &b, Location loc,
                                      const SQMMAInstr &instr, Value descA,
                                      Value descB,
                                      ArrayRef<Value> c) const override;
  FailureOr<SmallVector<Value>>
  sqmmaOnTiles(OpBuilder &b, Location loc, const SQMMAInstr &instr,
               const SQMMAOperandTile &a, const SQMMAOperandTile &bTile,
               ArrayRef<Value> c) const override;
  LogicalResult sqmmaWait(OpBuilder &b, Location loc) const override;
  FailureOr<SmallVector<Value>>
  sqmmaWaitFor(OpBuilder &b, Location loc,
               ArrayRef<Value> values) const override;

  /// The 32-bit shared address of the mbarrier of async-barrier id
  /// `barrier` (i32).
  Value mbarrier(OpBuilder &b, Location loc, Value barrier) const;
  /// Records on the descriptor parameter `transfer` uses the box and
  /// swizzle its tensor map is encoded with; fails (reported) on a second
  /// box or a swizzle TMA does not have.
  LogicalResult recordTensorMap(OpBuilder &b, Location loc,
                                const TMETransfer &transfer) const;

  StringRef getSyncScope(MemoryScope scope) const override {
    switch (scope) {
    case MemoryScope::Block:
      return "block";
    case MemoryScope::Device:
      return "device";
    case MemoryScope::System:
      return "";
    }
    return "";
  }
};

/// How a global access of `type` moves as PTX registers: `words` of
/// `wordType` (b32 words for 4, 8 and 16 bytes, one b16 for 2), or none.
struct GlobalAccessWords {
  Type wordType;
  unsigned words;

  /// ".b32", ".b16": the type of one word's move.
  std::string wordSuffix() const {
    return ".b" + std::to_string(wordType.getIntOrFloatBitWidth());
  }
  /// ".b32", ".v2.b32", ...: the type of the whole access.
  std::string accessSuffix() const {
    return (words > 1 ? ".v" + std::to_string(words) : "") + wordSuffix();
  }
  /// The inline-assembly register class of one word.
  StringRef constraint() const {
    return wordType.getIntOrFloatBitWidth() == 16 ? "h" : "r";
  }
};

std::optional<GlobalAccessWords> getGlobalAccessWords(Type type) {
  unsigned bits = 0;
  if (auto vector = dyn_cast<VectorType>(type))
    bits = vector.getNumElements() * vector.getElementTypeBitWidth();
  else if (type.isIntOrFloat())
    bits = type.getIntOrFloatBitWidth();
  MLIRContext *ctx = type.getContext();
  if (bits == 16)
    return GlobalAccessWords{IntegerType::get(ctx, 16), 1};
  if (bits == 32 || bits == 64 || bits == 128)
    return GlobalAccessWords{IntegerType::get(ctx, 32), bits / 32};
  return std::nullopt;
}

/// `value` (of an access type) as its PTX words, and back.
SmallVector<Value> toWords(OpBuilder &b, Location loc, Value value,
                           const GlobalAccessWords &words) {
  if (words.words == 1)
    return {LLVM::BitcastOp::create(b, loc, words.wordType, value)};
  auto vector = VectorType::get({int64_t(words.words)}, words.wordType);
  Value cast = LLVM::BitcastOp::create(b, loc, vector, value);
  SmallVector<Value> out;
  for (unsigned i = 0; i < words.words; ++i)
    out.push_back(LLVM::ExtractElementOp::create(b, loc, cast,
                                                 i32Const(b, loc, i)));
  return out;
}

/// "{$1, $2}" for `count` operands from `first`, or "$1" for one.
std::string operandList(unsigned first, unsigned count) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (count > 1)
    os << "{";
  for (unsigned i = 0; i < count; ++i)
    os << (i ? ", " : "") << "$" << (first + i);
  if (count > 1)
    os << "}";
  return text;
}

// Triton's NVIDIA backend predicates masked accesses the same way; a branch
// around a plain access lets LLVM sink the stored values' computation into
// each branch, and ptxas then keeps what the other branches need live
// across it (Liger's SwiGLU backward: 68 registers against 58, one block
// per SM instead of two).
Value ProxyTargetInfo::loadGlobalIf(OpBuilder &b, Location loc, Type type,
                                    Value ptr, Value pred,
                                    Value other) const {
  std::optional<GlobalAccessWords> words = getGlobalAccessWords(type);
  if (!words)
    return Value();
  // Outputs $0..$n-1 start as `other` ($n+2..), then the predicated load
  // ($n: the predicate, $n+1: the address) overwrites them.
  unsigned n = words->words;
  std::string text;
  llvm::raw_string_ostream os(text);
  for (unsigned i = 0; i < n; ++i)
    os << "mov" << words->wordSuffix() << " $" << i
       << ", $" << (n + 2 + i) << ";\n";
  os << "@$" << n << " ld.global" << words->accessSuffix() << " "
     << operandList(0, n) << ", [$" << (n + 1) << "];";
  std::string constraints;
  for (unsigned i = 0; i < n; ++i)
    constraints += "=" + words->constraint().str() + ",";
  constraints += "b,l";
  for (unsigned i = 0; i < n; ++i)
    constraints += "," + words->constraint().str();
  SmallVector<Value> operands{pred, ptr};
  llvm::append_range(operands, toWords(b, loc, other, *words));
  Type resultType =
      n == 1 ? words->wordType
             : LLVM::LLVMStructType::getLiteral(
                   b.getContext(), SmallVector<Type>(n, words->wordType));
  auto asmOp = LLVM::InlineAsmOp::create(
      b, loc, resultType, operands, text, constraints,
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      ArrayAttr());
  if (n == 1)
    return LLVM::BitcastOp::create(b, loc, type, asmOp.getResult(0));
  auto vector = VectorType::get({int64_t(n)}, words->wordType);
  Value packed = LLVM::UndefOp::create(b, loc, vector);
  for (unsigned i = 0; i < n; ++i)
    packed = LLVM::InsertElementOp::create(
        b, loc, packed,
        LLVM::ExtractValueOp::create(b, loc, asmOp.getResult(0), int64_t(i)),
        i32Const(b, loc, i));
  return LLVM::BitcastOp::create(b, loc, type, packed);
}

bool ProxyTargetInfo::storeGlobalIf(OpBuilder &b, Location loc, Value value,
                                    Value ptr, Value pred) const {
  std::optional<GlobalAccessWords> words = getGlobalAccessWords(value.getType());
  if (!words)
    return false;
  unsigned n = words->words;
  std::string text = "@$0 st.global" + words->accessSuffix() + " [$1], " +
                     operandList(2, n) + ";";
  std::string constraints = "b,l";
  for (unsigned i = 0; i < n; ++i)
    constraints += "," + words->constraint().str();
  SmallVector<Value> operands{pred, ptr};
  llvm::append_range(operands, toWords(b, loc, value, *words));
  emitPTX(b, loc, text, constraints, operands);
  return true;
}

void ProxyTargetInfo::declareSharedMemory(ModuleOp module) const {
  CUDAStyleTargetInfo::declareSharedMemory(module);
  bool usesBarriers = false;
  module.walk([&](Operation *op) {
    if (op->getName().getStringRef() == "musagpu.async_barrier_init")
      usesBarriers = true;
  });
  if (!usesBarriers)
    return;
  auto shared = module->getAttrOfType<IntegerAttr>(kSharedBytesAttr);
  int64_t offset = llvm::alignTo(shared ? shared.getInt() : 0, 8);
  Builder b(module.getContext());
  module->setAttr(kMBarrierOffsetAttr, b.getI32IntegerAttr(offset));
  module->setAttr(kSharedBytesAttr,
                  b.getI32IntegerAttr(offset + 8 * kMBarriers));
}

Value ProxyTargetInfo::mbarrier(OpBuilder &b, Location loc,
                                Value barrier) const {
  auto module =
      b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
  auto offset = module->getAttrOfType<IntegerAttr>(kMBarrierOffsetAttr);
  Value base = sharedAddress(b, loc, getSharedMemoryBase(b, loc));
  Value byteOffset = LLVM::AddOp::create(
      b, loc, i32Const(b, loc, offset ? offset.getInt() : 0),
      LLVM::MulOp::create(b, loc, barrier, i32Const(b, loc, 8)));
  return LLVM::AddOp::create(b, loc, base, byteOffset);
}

FailureOr<Value> ProxyTargetInfo::getTMEDescriptorAddress(
    OpBuilder &b, Location loc, const TMEDescriptorFields &fields) const {
  auto arg = dyn_cast_or_null<BlockArgument>(fields.hostEncoded);
  if (!arg)
    return emitError(loc)
           << "TMA on the GPU proxy reads tensor maps the host encodes "
              "(kernel arguments); this descriptor is not one";
  if (auto func = dyn_cast<LLVM::LLVMFuncOp>(arg.getOwner()->getParentOp())) {
    NamedAttrList entry = getTensorMap(func, arg.getArgNumber());
    entry.set("element", TypeAttr::get(fields.elementType));
    setTensorMap(func, arg.getArgNumber(), entry);
  }
  if (fields.padNaN)
    return emitError(loc) << "NaN padding of out-of-bounds TMA reads is not "
                             "supported on the GPU proxy";
  return LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), fields.hostEncoded)
      .getResult();
}

LogicalResult
ProxyTargetInfo::recordTensorMap(OpBuilder &b, Location loc,
                                 const TMETransfer &t) const {
  namespace mgpu = mlir::musagpu;
  auto granularity = mgpu::TMESwizzleGranularity(t.swizzleGranularity);
  auto stride = mgpu::TMESwizzleStride(t.swizzleStride);
  auto line = mgpu::TMESwizzleLine(t.swizzleLine);
  int32_t swizzle = 0; // CU_TENSOR_MAP_SWIZZLE_NONE
  if (granularity != mgpu::TMESwizzleGranularity::None) {
    if (granularity != mgpu::TMESwizzleGranularity::B16 ||
        line != mgpu::TMESwizzleLine::B128 ||
        stride == mgpu::TMESwizzleStride::B256)
      return emitError(loc)
             << "the GPU proxy's TMA swizzles 16-byte granules on 128-byte "
                "lines (32/64/128-byte strides); this TME transfer asks for "
                "granularity "
             << mgpu::stringifyTMESwizzleGranularity(granularity)
             << ", stride " << mgpu::stringifyTMESwizzleStride(stride)
             << ", line " << mgpu::stringifyTMESwizzleLine(line);
    swizzle = stride == mgpu::TMESwizzleStride::B32   ? 1
              : stride == mgpu::TMESwizzleStride::B64 ? 2
                                                      : 3;
  }
  auto ptrToInt = t.descriptor.getDefiningOp<LLVM::PtrToIntOp>();
  auto arg = ptrToInt ? dyn_cast<BlockArgument>(ptrToInt.getArg()) : nullptr;
  auto func =
      arg ? dyn_cast<LLVM::LLVMFuncOp>(arg.getOwner()->getParentOp()) : nullptr;
  if (!func)
    return emitError(loc) << "a TMA transfer whose tensor map is not a "
                             "kernel parameter";
  unsigned i = arg.getArgNumber();
  auto box = DenseI32ArrayAttr::get(b.getContext(), t.box);
  auto swizzleAttr = b.getI32IntegerAttr(swizzle);
  NamedAttrList entry = getTensorMap(func, i);
  auto oldBox = dyn_cast_or_null<DenseI32ArrayAttr>(entry.get("box"));
  auto oldSwizzle = dyn_cast_or_null<IntegerAttr>(entry.get("swizzle"));
  if (oldBox && (oldBox != box || oldSwizzle != swizzleAttr))
    return emitError(loc)
           << "descriptor parameter " << i << " is moved in boxes "
           << oldBox << " (swizzle " << oldSwizzle.getInt() << ") and " << box
           << " (swizzle " << swizzle
           << "); a TMA tensor map, which the host encodes once, has one box "
              "and swizzle";
  entry.set("box", box);
  entry.set("swizzle", swizzleAttr);
  setTensorMap(func, i, entry);
  return success();
}

void ProxyTargetInfo::tmeLoad(OpBuilder &b, Location loc, Value barrier,
                              const TMETransfer &t) const {
  if (failed(recordTensorMap(b, loc, t)))
    return;
  unsigned rank = t.box.size();
  std::string text = "cp.async.bulk.tensor." + std::to_string(rank) +
                     "d.shared::cluster.global.tile.mbarrier::complete_tx::"
                     "bytes [$0], [$1, " +
                     operandVector(2, rank) + "], [$" +
                     std::to_string(2 + rank) + "];";
  std::string constraints = "r,l";
  for (unsigned i = 0; i < rank; ++i)
    constraints += ",r";
  constraints += ",r";
  SmallVector<Value> operands{sharedAddress(b, loc, t.shared), t.descriptor};
  operands.append(t.coords.begin(), t.coords.end());
  operands.push_back(mbarrier(b, loc, barrier));
  emitPTX(b, loc, text, constraints, operands);
}

void ProxyTargetInfo::tmeStore(OpBuilder &b, Location loc,
                               const TMETransfer &t) const {
  if (failed(recordTensorMap(b, loc, t)))
    return;
  unsigned rank = t.box.size();
  std::string text = "cp.async.bulk.tensor." + std::to_string(rank) +
                     "d.global.shared::cta.tile.bulk_group [$0, " +
                     operandVector(1, rank) + "], [$" +
                     std::to_string(1 + rank) + "];";
  std::string constraints = "l";
  for (unsigned i = 0; i < rank; ++i)
    constraints += ",r";
  constraints += ",r";
  SmallVector<Value> operands{t.descriptor};
  operands.append(t.coords.begin(), t.coords.end());
  operands.push_back(sharedAddress(b, loc, t.shared));
  emitPTX(b, loc, text, constraints, operands);
}

void ProxyTargetInfo::asyncBarrierInit(OpBuilder &b, Location loc,
                                       Value barrier, Value arriveCount,
                                       Value phase) const {
  // An mbarrier starts in phase 0.
  auto constant = phase.getDefiningOp<LLVM::ConstantOp>();
  auto value = constant ? dyn_cast<IntegerAttr>(constant.getValue()) : nullptr;
  if (!value || value.getInt() != 0) {
    emitError(loc) << "the GPU proxy's mbarriers start in phase 0; this "
                      "async barrier is initialized in another phase";
    return;
  }
  emitPTX(b, loc, "mbarrier.init.shared::cta.b64 [$0], $1;", "r,r",
          {mbarrier(b, loc, barrier), arriveCount});
  // The tensor memory engine (the async proxy) completes transactions on it.
  emitPTX(b, loc, "fence.mbarrier_init.release.cluster;", "", {});
}

Value ProxyTargetInfo::shuffle(OpBuilder &b, Location loc, ShuffleKind kind,
                               Value value, Value offset,
                               unsigned width) const {
  if (width == 0)
    width = getWarpSize();
  static constexpr ShuffleIntrinsics kShuffles = {
      "llvm.nvvm.shfl.sync.bfly.i32", "llvm.nvvm.shfl.sync.up.i32",
      "llvm.nvvm.shfl.sync.down.i32", "llvm.nvvm.shfl.sync.idx.i32"};
  StringRef fn = kShuffles.get(kind);
  // c[12:8] masks the lane bits that pick the segment, c[4:0] clamps the
  // source lane: the segment's last lane, or its first for `up`.
  int64_t clamp = getShuffleClamp(kind, width);
  Value c = i32Const(b, loc, ((int64_t(32) - width) << 8) | clamp);
  Value mask = i32Const(b, loc, kFullMask);
  return shuffleInChunks(b, loc, value, /*chunkBits=*/32, [&](Value v32) {
    return callFunction(b, loc, fn, b.getI32Type(), {mask, v32, offset, c},
                        CalleeKind::Convergent);
  });
}


//===----------------------------------------------------------------------===//
// SQMMA as wgmma
//===----------------------------------------------------------------------===//

/// What wgmma takes for one SQMMA element kind.
struct WGMMAType {
  /// PTX operand and accumulator types.
  StringLiteral operand, accumulator;
  /// K of one instruction.
  unsigned k;
  /// Operands may be M/N-major (imm-trans-a/b); otherwise K-major only, and
  /// the instruction has no transpose (nor, for integers, scale) operands.
  bool transposable;
  bool integer;
};

WGMMAType getWGMMAType(musagpu::MmaElementKind kind) {
  switch (kind) {
  case musagpu::MmaElementKind::F16:
    return {"f16", "f32", 16, true, false};
  case musagpu::MmaElementKind::BF16:
    return {"bf16", "f32", 16, true, false};
  case musagpu::MmaElementKind::TF32:
    return {"tf32", "f32", 8, false, false};
  case musagpu::MmaElementKind::S8:
    return {"s8", "s32", 32, false, true};
  case musagpu::MmaElementKind::E4M3:
    return {"e4m3", "f32", 32, false, false};
  case musagpu::MmaElementKind::E5M2:
    return {"e5m2", "f32", 32, false, false};
  }
  llvm_unreachable("unknown SQMMA kind");
}

/// The widest field of a descriptor (start address, byte offsets): 14 bits
/// of a 16-byte unit.
constexpr int64_t kDescriptorFieldLimit = int64_t(1) << 18;

FailureOr<Value>
ProxyTargetInfo::sqmmaDescriptor(OpBuilder &b, Location loc,
                                 const SQMMAOperandTile &tile) const {
  int64_t granule = tile.getSwizzleGranularityBytes();
  int64_t span = tile.getSwizzleStrideBytes();
  if (granule != 16 || tile.getSwizzleLineBytes() != 128 || span > 128)
    return emitError(loc)
           << "the GPU proxy's wgmma needs operand buffers in Hopper's "
              "swizzles (16-byte granularity, 128-byte line, 32/64/128-byte "
              "stride), got granularity "
           << granule << ", stride " << span << ", line "
           << tile.getSwizzleLineBytes() << " bytes";
  if (tile.leadingBytes != span)
    return emitError(loc) << "the GPU proxy's wgmma needs operand rows as "
                             "wide as the swizzle ("
                          << span << " bytes), got " << tile.leadingBytes
                          << "-byte rows";
  int64_t pieceStride = tile.pieceStrideBytes;
  if (pieceStride % 16 || pieceStride >= kDescriptorFieldLimit)
    return emitError(loc) << "the GPU proxy's wgmma descriptor cannot hold a "
                          << pieceStride << "-byte distance between pieces";
  // 128B, 64B, 32B swizzle: modes 1, 2, 3.
  int64_t mode = span == 128 ? 1 : span == 64 ? 2 : 3;
  // K-major operands ignore the leading byte offset (PTX: assumed 1).
  int64_t leading = pieceStride == 0 ? 1 : pieceStride >> 4;
  int64_t strideField = (8 * int64_t(tile.leadingBytes)) >> 4;
  uint64_t fields = (uint64_t(leading) << 16) | (uint64_t(strideField) << 32) |
                    (uint64_t(mode) << 62);
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  Value address = LLVM::PtrToIntOp::create(b, loc, i32, tile.tileStart);
  Value start = LLVM::AndOp::create(
      b, loc, LLVM::LShrOp::create(b, loc, address, i32Const(b, loc, 4)),
      i32Const(b, loc, 0x3fff));
  Value constant = LLVM::ConstantOp::create(
      b, loc, i64, b.getI64IntegerAttr(int64_t(fields)));
  return LLVM::OrOp::create(b, loc, LLVM::ZExtOp::create(b, loc, i64, start),
                            constant)
      .getResult();
}

/// Two 16-bit values in one i32, `low` in the low half (as mma.sync reads
/// a register pair of a fragment).
static Value packPair(OpBuilder &b, Location loc, Value low, Value high) {
  auto pairType = VectorType::get({2}, low.getType());
  Value pair = LLVM::UndefOp::create(b, loc, pairType);
  pair = LLVM::InsertElementOp::create(b, loc, pair, low, i32Const(b, loc, 0));
  pair = LLVM::InsertElementOp::create(b, loc, pair, high, i32Const(b, loc, 1));
  return LLVM::BitcastOp::create(b, loc, b.getI32Type(), pair);
}

/// Registers of one m16n8k16 piece per thread: A, B (16-bit values) and C.
constexpr unsigned kPieceA = 8, kPieceB = 4, kPieceC = 4;

/// mma.sync.aligned.m16n8k16.row.col.f32.<t>.<t>.f32 on one piece: `a` (8
/// values), `b` (4) and `c` (4 f32) in the PTX ISA's fragment order.
static SmallVector<Value> emitMmaSync(OpBuilder &b, Location loc,
                                      StringRef type, ArrayRef<Value> a,
                                      ArrayRef<Value> bOperand,
                                      ArrayRef<Value> c) {
  SmallVector<Value> operands;
  for (unsigned i = 0; i < kPieceA; i += 2)
    operands.push_back(packPair(b, loc, a[i], a[i + 1]));
  for (unsigned i = 0; i < kPieceB; i += 2)
    operands.push_back(packPair(b, loc, bOperand[i], bOperand[i + 1]));
  operands.append(c.begin(), c.end());
  // $0-$3 the results, $4-$7 A, $8-$9 B, $10-$13 C.
  std::string text =
      ("mma.sync.aligned.m16n8k16.row.col.f32." + type + "." + type +
       ".f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, "
       "{$10, $11, $12, $13};")
          .str();
  return emitPTXResults(b, loc, text, "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f",
                        operands, SmallVector<Type>(kPieceC, b.getF32Type()),
                        /*hasSideEffects=*/false);
}

/// An m16n16k<k> WMMA instruction is (k / 16) x 2 mma.sync.m16n8k16. The
/// mma_sync_warp fragment (layouts/LayoutConversion.cpp) puts each piece's
/// values in contiguous registers: A's K step kt at [8 kt, 8 kt + 8), B's
/// (column half nh, K step kt) at [4 (K/16 nh + kt), +4), C's half nh at
/// [4 nh, 4 nh + 4).
FailureOr<SmallVector<Value>>
ProxyTargetInfo::wmma(OpBuilder &b, Location loc, const WMMAInstr &instr,
                      ArrayRef<Value> a, ArrayRef<Value> bOperand,
                      ArrayRef<Value> c) const {
  const musagpu::MatrixInstr &row = instr.row;
  bool sixteenBit = row.a == musagpu::MmaElementKind::F16 ||
                    row.a == musagpu::MmaElementKind::BF16;
  if (!row.isLowered() || !row.isFor(TargetKind::Proxy) ||
      row.fragment != musagpu::MatrixFragment::MmaSyncWarp || !sixteenBit ||
      row.m != 16 || row.n != 16 || row.k % 16)
    return emitError(loc) << "the GPU proxy has no mma.sync form of "
                          << row.describe();
  unsigned kSteps = row.k / 16;
  if (a.size() != kPieceA * kSteps || bOperand.size() != 2 * kPieceB * kSteps ||
      c.size() != 2 * kPieceC)
    return emitError(loc) << "an " << row.describe()
                          << " takes " << kPieceA * kSteps << " A, "
                          << 2 * kPieceB * kSteps << " B and " << 2 * kPieceC
                          << " C values per thread, got " << a.size() << ", "
                          << bOperand.size() << " and " << c.size();
  StringRef type = getWGMMAType(row.a).operand;
  SmallVector<Value> d(c);
  for (unsigned nh = 0; nh < 2; ++nh) {
    MutableArrayRef<Value> acc =
        MutableArrayRef<Value>(d).slice(nh * kPieceC, kPieceC);
    for (unsigned kt = 0; kt < kSteps; ++kt) {
      SmallVector<Value> next = emitMmaSync(
          b, loc, type, a.slice(kt * kPieceA, kPieceA),
          bOperand.slice((nh * kSteps + kt) * kPieceB, kPieceB), acc);
      llvm::copy(next, acc.begin());
    }
  }
  return d;
}

/// One wgmma.mma_async.m64n<n>k<k> on descriptors `descA`, `descB` and the
/// calling thread's n / 2 accumulators `c` (tied to the results).
static SmallVector<Value> emitWGMMA(OpBuilder &b, Location loc,
                                    const WGMMAType &type, unsigned n,
                                    bool transA, bool transB, Value descA,
                                    Value descB, ArrayRef<Value> c) {
  // Operands are numbered outputs first, then every input: the tied
  // accumulators $regs..$2regs-1, then descA, descB and scale-d's value.
  unsigned regs = c.size();
  unsigned descAIndex = 2 * regs;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "{\n.reg .pred p;\nsetp.ne.b32 p, $" << descAIndex + 2
     << ", 0;\nwgmma.mma_async.sync.aligned.m64n" << n << "k" << type.k << "."
     << type.accumulator << "." << type.operand << "." << type.operand << " {";
  for (unsigned i = 0; i < regs; ++i)
    os << (i ? ", " : "") << "$" << i;
  os << "}, $" << descAIndex << ", $" << descAIndex + 1 << ", p";
  if (!type.integer)
    os << ", 1, 1";
  if (type.transposable)
    os << ", " << int(transA) << ", " << int(!transB);
  os << ";\n}";
  char reg = type.integer ? 'r' : 'f';
  std::string constraints;
  for (unsigned i = 0; i < regs; ++i)
    constraints += std::string(i ? "," : "") + "=" + reg;
  for (unsigned i = 0; i < regs; ++i)
    constraints += "," + std::to_string(i);
  constraints += ",l,l,r";
  SmallVector<Value> operands(c);
  operands.append({descA, descB, i32Const(b, loc, 1)});
  return emitPTXResults(b, loc, text, constraints, operands,
                        SmallVector<Type>(regs, c.front().getType()),
                        /*hasSideEffects=*/true);
}

/// Checks that wgmma can run `instr`: M a multiple of 64, K of whole wgmma
/// steps, the majors the element type allows, c of the instruction's size.
static LogicalResult checkWGMMA(Location loc, const SQMMAInstr &instr,
                                const WGMMAType &type, size_t accumulators) {
  if (instr.row.m % 64 || instr.row.k % type.k || instr.row.n % 8 || instr.row.n > 256)
    return emitError(loc) << "the GPU proxy's wgmma cannot run an m"
                          << instr.row.m << "n" << instr.row.n << "k" << instr.row.k
                          << " SQMMA instruction on " << type.operand
                          << " (wgmma: 64 rows per warpgroup, N a multiple of "
                             "8 up to 256, K steps of "
                          << type.k << ")";
  if (!type.transposable && (instr.transA || !instr.transB))
    return emitError(loc) << "the GPU proxy's wgmma takes " << type.operand
                          << " operands K-major only";
  if (accumulators != instr.row.m * instr.row.n / 128)
    return emitError(loc) << "an m" << instr.row.m << "n" << instr.row.n
                          << " SQMMA instruction has "
                          << instr.row.m * instr.row.n / 128
                          << " accumulators per thread, got " << accumulators;
  return success();
}

FailureOr<SmallVector<Value>>
ProxyTargetInfo::sqmma(OpBuilder &b, Location loc, const SQMMAInstr &instr,
                       Value descA, Value descB, ArrayRef<Value> c) const {
  WGMMAType type = getWGMMAType(instr.row.a);
  if (failed(checkWGMMA(loc, instr, type, c.size())))
    return failure();
  if (instr.row.m != 64 || instr.row.k != type.k)
    return emitError(loc) << "the GPU proxy issues an m" << instr.row.m << "n"
                          << instr.row.n << "k" << instr.row.k
                          << " SQMMA instruction as several wgmma, from its "
                             "operand tiles (sqmmaOnTiles), not from two "
                             "descriptors";
  callFunction(b, loc, "llvm.nvvm.wgmma.fence.sync.aligned", {}, {},
               CalleeKind::Convergent);
  SmallVector<Value> d = emitWGMMA(b, loc, type, instr.row.n, instr.transA,
                                   instr.transB, descA, descB, c);
  callFunction(b, loc, "llvm.nvvm.wgmma.commit_group.sync.aligned", {}, {},
               CalleeKind::Convergent);
  return d;
}

/// Byte offset in an operand tile of the element `contiguous` elements
/// along its contiguous dimension and `row` rows along the other one.
static int64_t tileOffset(const SQMMAOperandTile &tile, int64_t contiguous,
                          int64_t row) {
  int64_t elementBytes = tile.elementType.getIntOrFloatBitWidth() / 8;
  int64_t rowElements = tile.leadingBytes / elementBytes;
  return contiguous / rowElements * tile.pieceStrideBytes +
         contiguous % rowElements * elementBytes + row * tile.leadingBytes;
}

FailureOr<SmallVector<Value>>
ProxyTargetInfo::sqmmaOnTiles(OpBuilder &b, Location loc,
                              const SQMMAInstr &instr,
                              const SQMMAOperandTile &a,
                              const SQMMAOperandTile &bTile,
                              ArrayRef<Value> c) const {
  WGMMAType type = getWGMMAType(instr.row.a);
  if (failed(checkWGMMA(loc, instr, type, c.size())))
    return failure();
  // The descriptor of the sub-tile `offset` bytes into `tile`: the tile's
  // own plus offset / 16 in the start address field, as ptxas adds it to a
  // descriptor in uniform registers. Exact: offsets are multiples of 16 and
  // a shared address (below 2^18) plus one stays inside the 14-bit field.
  FailureOr<Value> baseA = sqmmaDescriptor(b, loc, a);
  FailureOr<Value> baseB = sqmmaDescriptor(b, loc, bTile);
  if (failed(baseA) || failed(baseB))
    return failure();
  auto descriptorAt = [&](Value base, int64_t offset) -> Value {
    if (offset == 0)
      return base;
    assert(offset % 16 == 0 && "wgmma sub-tiles start on 16-byte units");
    return LLVM::AddOp::create(
        b, loc, base,
        LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                                 b.getI64IntegerAttr(offset >> 4)));
  };
  unsigned perWGMMA = instr.row.n / 2;
  SmallVector<Value> d(c);
  callFunction(b, loc, "llvm.nvvm.wgmma.fence.sync.aligned", {}, {},
               CalleeKind::Convergent);
  for (unsigned mt = 0; mt < instr.row.m / 64; ++mt) {
    MutableArrayRef<Value> acc =
        MutableArrayRef<Value>(d).slice(mt * perWGMMA, perWGMMA);
    for (unsigned kt = 0; kt < instr.row.k / type.k; ++kt) {
      int64_t m0 = mt * 64, k0 = kt * type.k;
      // A [M, K]: K contiguous unless transA; B [K, N]: N contiguous unless
      // transB.
      int64_t offsetA = instr.transA ? tileOffset(a, m0, k0)
                                     : tileOffset(a, k0, m0);
      int64_t offsetB = instr.transB ? tileOffset(bTile, k0, 0)
                                     : tileOffset(bTile, 0, k0);
      SmallVector<Value> next = emitWGMMA(
          b, loc, type, instr.row.n, instr.transA, instr.transB,
          descriptorAt(*baseA, offsetA), descriptorAt(*baseB, offsetB), acc);
      llvm::copy(next, acc.begin());
    }
  }
  callFunction(b, loc, "llvm.nvvm.wgmma.commit_group.sync.aligned", {}, {},
               CalleeKind::Convergent);
  return d;
}

LogicalResult ProxyTargetInfo::sqmmaWait(OpBuilder &b, Location loc) const {
  callFunction(b, loc, "llvm.nvvm.wgmma.wait_group.sync.aligned", {},
               {LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                                         b.getI64IntegerAttr(0))},
               CalleeKind::Convergent);
  return success();
}

/// wgmma.wait_group 0 as inline assembly whose operands are tied to its
/// results: the accumulators are written asynchronously, and only the
/// results of the wait may be read.
FailureOr<SmallVector<Value>>
ProxyTargetInfo::sqmmaWaitFor(OpBuilder &b, Location loc,
                              ArrayRef<Value> values) const {
  if (values.empty()) {
    if (failed(sqmmaWait(b, loc)))
      return failure();
    return SmallVector<Value>();
  }
  std::string outputs, inputs;
  SmallVector<Type> types;
  for (auto [i, v] : llvm::enumerate(values)) {
    Type type = v.getType();
    char reg;
    if (type.isF32())
      reg = 'f';
    else if (type.isInteger(32))
      reg = 'r';
    else
      return emitError(loc) << "the GPU proxy's wgmma wait holds f32 or i32 "
                               "accumulators, got "
                            << type;
    outputs += std::string(i ? "," : "") + "=" + reg;
    inputs += "," + std::to_string(i);
    types.push_back(type);
  }
  return emitPTXResults(b, loc, "wgmma.wait_group.sync.aligned 0;",
                        outputs + inputs, values, types,
                        /*hasSideEffects=*/true);
}

} // namespace

std::unique_ptr<TargetInfo>
mlir::triton_musa::createProxyTargetInfo(const MUSAArchInfo &arch) {
  return std::make_unique<ProxyTargetInfo>(arch);
}
