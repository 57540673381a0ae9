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

#include "catalogue/MatrixInstrs.h"

#include <cstdint>
#include <vector>

namespace mlir::triton_musa::emulator {

/// Where an element of a fragment lives: thread (lane) and register index.
struct FragmentSlot {
  uint32_t lane = 0, reg = 0;
};

/// The fragment layouts of one WMMA atom.
struct WMMAAtomLayout {
  musagpu::MatrixFragment fragment;
  unsigned warpSize, m, n, k;
  /// Owner of A[row][kk] at row * k + kk, of B[kk][col] at kk * n + col.
  std::vector<FragmentSlot> aOwner, bOwner;
  /// Registers per thread of A, B and C.
  unsigned aRegs, bRegs, cRegs;
  /// C coordinates (row, col) of register r of `lane`: cRow/cCol[lane * cRegs + r].
  std::vector<uint32_t> cRow, cCol;
};

/// The atom m x n x k of `fragment` (the catalogue's fragment id,
/// MatrixInstrs.h), or null when the emulator has no owner tables for it.
const WMMAAtomLayout *lookupWMMAAtom(musagpu::MatrixFragment fragment,
                                     unsigned m, unsigned n, unsigned k);

//===----------------------------------------------------------------------===//
// SQMMA (mp_31)
//===----------------------------------------------------------------------===//

/// Tensor coordinates of accumulator register `reg` of `lane` in warp
/// `warpInSquad` (0..3) of a squad for an m x n SQMMA instruction
/// (MUSA-FACTS.md, last section: row = (l >> 3) + 4w + 16 rm,
/// col = (l & 7) + 8 rn, reg = rn + (n / 8) rm).
struct SQMMACoord {
  uint32_t row, col;
};
SQMMACoord sqmmaAccumulatorCoord(unsigned m, unsigned n, uint32_t lane,
                                 uint32_t warpInSquad, uint32_t reg);

/// A decoded emulator SQMMA descriptor (EmulatorABI.h).
struct SQMMADescriptor {
  /// Byte offset of the tile start from the block's shared memory.
  uint64_t start = 0;
  uint32_t leadingBytes = 0;
  /// TME swizzle codes: granularity NONE/16/32/64/128 B = 0..4, stride
  /// 32/64/128/256 B = 0..3; the line is 256 B.
  int32_t granularity = 0, stride = 0;
};
/// Encodes; false when a field does not fit (offset >= 2^18, a leading
/// stride that is not a power of two in [8, 256], a code out of range).
bool encodeSQMMADescriptor(const SQMMADescriptor &desc, uint32_t &bits);
SQMMADescriptor decodeSQMMADescriptor(uint32_t bits);

/// Byte offset in shared memory of the operand element at `strided` rows
/// (the non-contiguous dimension) and `contiguous` elements from the tile
/// start: the unswizzled address start + strided * leading + contiguous *
/// elemBytes, then the TME swizzle on the absolute address (the G-byte
/// granule index within each S-byte span XOR the 256-byte line index mod
/// S / G).
uint64_t sqmmaOperandOffset(const SQMMADescriptor &desc, uint32_t strided,
                            uint32_t contiguous, uint32_t elemBytes);

/// Value of an fp8 number (`e5m2` false: e4m3fn, no infinities; true: e5m2).
float decodeFp8(uint8_t bits, bool e5m2);

/// Value of a 16-bit float (`bf16` false: IEEE half; true: bfloat16).
float decode16BitFloat(uint16_t bits, bool bf16);

} // namespace mlir::triton_musa::emulator

#endif // TRITON_MUSA_EMULATOR_MATRIXUNITS_H
