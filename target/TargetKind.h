//===- TargetKind.h - What the lowering runs on ------------------*- C++ -*-===//
//
// A header of its own so that the matrix-instruction catalogue
// (dialects/MUSAGPU/IR/MatrixInstrs.h) can key rows by it without the target
// interface.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_TARGET_TARGETKIND_H
#define TRITON_MUSA_TARGET_TARGETKIND_H

namespace mlir::triton_musa {

/// What the lowering runs on: the MUSA GPU itself, the CPU emulator
/// (emulator/) emulating that GPU's warps, or the GPU proxy: an NVIDIA GPU
/// (NVVM) running the code compiled for that MUSA architecture, to measure
/// it and run it under real concurrency (32-lane warps only).
enum class TargetKind { Device, Emulator, Proxy };

} // namespace mlir::triton_musa

#endif // TRITON_MUSA_TARGET_TARGETKIND_H
