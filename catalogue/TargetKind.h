//===- TargetKind.h - What the lowering runs on ------------------*- C++ -*-===//
//
// Beside the matrix-instruction catalogue (catalogue/MatrixInstrs.h), which
// keys its rows by it: below the dialects and the target interface, which
// both read it.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_CATALOGUE_TARGETKIND_H
#define TRITON_MUSA_CATALOGUE_TARGETKIND_H

namespace mlir::triton_musa {

/// What the lowering runs on: the MUSA GPU itself, the CPU emulator
/// (emulator/) emulating that GPU's warps, or the GPU proxy: an NVIDIA GPU
/// (NVVM) running the code compiled for that MUSA architecture, to measure
/// it and run it under real concurrency (32-lane warps only).
enum class TargetKind { Device, Emulator, Proxy };

} // namespace mlir::triton_musa

#endif // TRITON_MUSA_CATALOGUE_TARGETKIND_H
