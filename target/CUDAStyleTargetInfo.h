//===- CUDAStyleTargetInfo.h - Targets with CUDA's runtime -----*- C++ -*-===//
//
// The MUSA GPUs and the GPU proxy (NVVM) share CUDA's device runtime
// conventions: printf through `vprintf` and assertions through
// `__assertfail`, their strings in global memory (they differ in the address
// space of printf's argument buffer), and i32 shuffle intrinsics per kind
// that clamp the source lane to the segment.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_TARGET_CUDASTYLETARGETINFO_H
#define TRITON_MUSA_TARGET_CUDASTYLETARGETINFO_H

#include "target/LLVMCalls.h"
#include "target/TargetInfo.h"

namespace mlir::triton_musa {

class CUDAStyleTargetInfo : public TargetInfo {
public:
  CUDAStyleTargetInfo(const MUSAArchInfo &arch,
                      unsigned printfBufferAddressSpace)
      : TargetInfo(arch), printfBufferAddressSpace(printfBufferAddressSpace) {}

  /// `i32 vprintf(ptr format, ptr args)`, `args` pointing at the promoted
  /// arguments laid out as a C struct (see emitVprintf).
  LogicalResult printf(OpBuilder &b, Location loc, StringRef format,
                       ValueRange args) const override {
    return emitVprintf(b, loc, format, args, getGlobalAddressSpace(),
                       printfBufferAddressSpace);
  }

  /// `void __assertfail(ptr message, ptr file, i32 line, ptr function,
  /// i64 charSize)`, which reports and traps.
  LogicalResult assertFail(OpBuilder &b, Location loc, StringRef message,
                           StringRef file, unsigned line,
                           StringRef function) const override {
    emitAssertFail(b, loc, message, file, line, function,
                   getGlobalAddressSpace());
    return success();
  }

protected:
  /// The names of a target's i32 shuffle intrinsics, one per kind.
  struct ShuffleIntrinsics {
    StringLiteral xorName, upName, downName, idxName;

    StringRef get(ShuffleKind kind) const {
      switch (kind) {
      case ShuffleKind::Xor:
        return xorName;
      case ShuffleKind::Up:
        return upName;
      case ShuffleKind::Down:
        return downName;
      case ShuffleKind::Idx:
        return idxName;
      }
      llvm_unreachable("unknown shuffle kind");
    }
  };

  /// The source lane a shuffle in segments of `width` lanes clamps to: the
  /// segment's last lane, or its first (0) for `up`.
  static int64_t getShuffleClamp(ShuffleKind kind, unsigned width) {
    return kind == ShuffleKind::Up ? 0 : int64_t(width) - 1;
  }

private:
  unsigned printfBufferAddressSpace;
};

} // namespace mlir::triton_musa

#endif // TRITON_MUSA_TARGET_CUDASTYLETARGETINFO_H
