//===- ProxyTargetInfo.cpp - The GPU proxy's target interface (NVVM) ------===//
//
// The target of `--convert-tritongpu-to-musa{target=proxy}`: a test and
// measurement target that runs our pipeline's code on an NVIDIA GPU (an H200,
// sm_90). Everything above this interface is the MUSA architecture's (the
// module stays `ttg.target = "musa:mp_31"`: same TTGIR, same passes, same
// layouts, warp 32); only the hardware hooks below become NVVM:
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
// Matrix paths (later, when the matrix/TME issues land): this class is where
// their hooks go for the proxy: `musagpu` SQMMA -> wgmma (both are 4-warp
// shared-memory-operand MMAs with an async wait), TME tile loads -> TMA
// (cp.async.bulk.tensor), and MUSA's integer async-barrier ids -> an array of
// mbarriers in shared memory indexed by the id, carved out of `global_smem`
// by declareSharedMemory.
//
//===----------------------------------------------------------------------===//

#include "target/CUDAStyleTargetInfo.h"
#include "target/LLVMCalls.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

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

class ProxyTargetInfo final : public CUDAStyleTargetInfo {
public:
  /// PTX's vprintf and __assertfail system calls; printf's argument buffer
  /// is a local buffer passed generic.
  explicit ProxyTargetInfo(const MUSAArchInfo &arch)
      : CUDAStyleTargetInfo(arch, kGenericAddressSpace) {}

  Value threadId(OpBuilder &b, Location loc, unsigned dim) const override {
    return readSpecialRegister(b, loc, kSpecialRegisters, "tid", dim);
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

  Value ballot(OpBuilder &b, Location loc, Value pred) const override {
    return callFunction(b, loc, "llvm.nvvm.vote.ballot.sync",
                        getBallotType(b.getContext()),
                        {i32Const(b, loc, kFullMask), pred},
                        CalleeKind::Convergent);
  }

  /// cp.async (sm_80+): the `.ca` form copies 4, 8 or 16 bytes; wait.all
  /// completes the calling thread's copies, as the MUSA g2s wait does.
  void asyncCopyGlobalToShared(OpBuilder &b, Location loc, Value dst,
                               Value src, unsigned bytes) const override {
    callFunction(b, loc,
                 "llvm.nvvm.cp.async.ca.shared.global." + std::to_string(bytes),
                 {}, {dst, src}, CalleeKind::SideEffects);
  }
  void asyncCopyWait(OpBuilder &b, Location loc) const override {
    callFunction(b, loc, "llvm.nvvm.cp.async.wait.all", {}, {},
                 CalleeKind::SideEffects);
  }

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

} // namespace

std::unique_ptr<TargetInfo>
mlir::triton_musa::createProxyTargetInfo(const MUSAArchInfo &arch) {
  return std::make_unique<ProxyTargetInfo>(arch);
}
