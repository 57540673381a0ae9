//===- MatrixUnits.cpp - Fragment layouts of the emulated matrix units ----===//

#include "emulator/MatrixUnits.h"

#include <cstring>

using namespace mlir::triton_musa::emulator;

namespace {

/// QY2 (mp_22) m32n32k16 f16/bf16 over 128 threads, MUSA-FACTS.md's last
/// section, for thread t:
///   C: row = 4(t/64) + (t/8)%4 + {0,8,16,24}, col = 8((t/32)%2) + t%8 + {0,16}
///   A: row = (t/4)%16 + {0,16},               k = 2(4(t/64) + t%4) + {0,1}
///   B: col = (t/4)%16 + {0,16},               k = 2(4(t/64) + t%4) + {0,1}
/// Register order within a thread (inferred, not stated): operands pack the
/// K pair {0,1} in one 32-bit register, so register = kPair + 2 * half16;
/// C: register = colHalf + 2 * rowQuarter (col+16 fastest, then row+8, +16).
WMMAAtomLayout buildQY2M32N32K16() {
  WMMAAtomLayout atom;
  atom.warpSize = 128;
  atom.m = 32, atom.n = 32, atom.k = 16;
  atom.aRegs = 4, atom.bRegs = 4, atom.cRegs = 8;
  atom.aOwner.resize(32 * 16);
  atom.bOwner.resize(16 * 32);
  atom.cRow.resize(128 * 8);
  atom.cCol.resize(128 * 8);
  for (uint32_t t = 0; t < 128; ++t) {
    for (uint32_t half = 0; half < 2; ++half)
      for (uint32_t pair = 0; pair < 2; ++pair) {
        uint32_t nonK = (t / 4) % 16 + 16 * half;
        uint32_t kk = 2 * (4 * (t / 64) + t % 4) + pair;
        FragmentSlot slot{t, pair + 2 * half};
        atom.aOwner[nonK * 16 + kk] = slot;
        atom.bOwner[kk * 32 + nonK] = slot;
      }
    for (uint32_t quarter = 0; quarter < 4; ++quarter)
      for (uint32_t colHalf = 0; colHalf < 2; ++colHalf) {
        uint32_t reg = colHalf + 2 * quarter;
        atom.cRow[t * 8 + reg] = 4 * (t / 64) + (t / 8) % 4 + 8 * quarter;
        atom.cCol[t * 8 + reg] = 8 * ((t / 32) % 2) + t % 8 + 16 * colHalf;
      }
  }
  return atom;
}

} // namespace

const WMMAAtomLayout *
mlir::triton_musa::emulator::lookupWMMAAtom(unsigned warpSize, unsigned m,
                                            unsigned n, unsigned k) {
  static const WMMAAtomLayout qy2 = buildQY2M32N32K16();
  if (warpSize == qy2.warpSize && m == qy2.m && n == qy2.n && k == qy2.k)
    return &qy2;
  return nullptr;
}

float mlir::triton_musa::emulator::decode16BitFloat(uint16_t bits, bool bf16) {
  uint32_t word;
  if (bf16) {
    word = uint32_t(bits) << 16;
  } else {
    uint32_t sign = uint32_t(bits & 0x8000) << 16;
    uint32_t exp = (bits >> 10) & 0x1f, man = bits & 0x3ff;
    if (exp == 0x1f) {
      word = sign | 0x7f800000u | (man << 13);
    } else if (exp != 0) {
      word = sign | ((exp + 112) << 23) | (man << 13);
    } else if (man == 0) {
      word = sign;
    } else {
      // Subnormal half: normalize.
      int e = -1;
      do {
        man <<= 1;
        ++e;
      } while (!(man & 0x400));
      word = sign | (uint32_t(112 - e) << 23) | ((man & 0x3ff) << 13);
    }
  }
  float value;
  std::memcpy(&value, &word, sizeof(value));
  return value;
}
