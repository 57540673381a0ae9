//===- MatrixUnits.h - Fragment layouts of the emulated matrix units ------===//
//
// The emulator's definition of what a warp-level MMA instruction does: which
// thread holds which element of A, B and C in which register. It is written
// from MUSA-FACTS.md's formulas, independently of the compiler's linear
// layouts (layouts/LayoutConversion.cpp), so that a compiler whose layouts
// disagree with the hardware's computes wrong results in the emulator too.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_EMULATOR_MATRIXUNITS_H
#define TRITON_MUSA_EMULATOR_MATRIXUNITS_H

#include <cstdint>
#include <vector>

namespace mlir::triton_musa::emulator {

/// Where an element of a fragment lives: thread (lane) and register index.
struct FragmentSlot {
  uint32_t lane = 0, reg = 0;
};

/// The fragment layouts of one WMMA atom.
struct WMMAAtomLayout {
  unsigned warpSize, m, n, k;
  /// Owner of A[row][kk] at row * k + kk, of B[kk][col] at kk * n + col.
  std::vector<FragmentSlot> aOwner, bOwner;
  /// Registers per thread of A, B and C.
  unsigned aRegs, bRegs, cRegs;
  /// C coordinates (row, col) of register r of `lane`: cRow/cCol[lane * cRegs + r].
  std::vector<uint32_t> cRow, cCol;
};

/// The atom m x n x k on warps of `warpSize` threads, or null when the
/// emulator does not know its fragment layouts.
const WMMAAtomLayout *lookupWMMAAtom(unsigned warpSize, unsigned m, unsigned n,
                                     unsigned k);

/// Value of a 16-bit float (`bf16` false: IEEE half; true: bfloat16).
float decode16BitFloat(uint16_t bits, bool bf16);

} // namespace mlir::triton_musa::emulator

#endif // TRITON_MUSA_EMULATOR_MATRIXUNITS_H
