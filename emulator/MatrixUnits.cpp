//===- MatrixUnits.cpp - Fragment layouts of the emulated matrix units ----===//

#include "emulator/MatrixUnits.h"

#include <cmath>
#include <cstring>

using namespace mlir::triton_musa::emulator;
using mlir::musagpu::MatrixFragment;

namespace {

/// An m x n x k atom over `warpSize` threads with its owner tables sized:
/// each thread holds m*k / warpSize A, n*k / warpSize B and m*n / warpSize
/// C elements, one per register.
WMMAAtomLayout makeAtom(MatrixFragment fragment, unsigned warpSize, unsigned m,
                        unsigned n, unsigned k) {
  WMMAAtomLayout atom;
  atom.fragment = fragment;
  atom.warpSize = warpSize;
  atom.m = m, atom.n = n, atom.k = k;
  atom.aRegs = m * k / warpSize;
  atom.bRegs = n * k / warpSize;
  atom.cRegs = m * n / warpSize;
  atom.aOwner.resize(m * k);
  atom.bOwner.resize(k * n);
  atom.cRow.resize(m * n);
  atom.cCol.resize(m * n);
  return atom;
}

/// QY2 (mp_22) m32n32k16 f16/bf16 over 128 threads, MUSA-FACTS.md's last
/// section, for thread t:
///   C: row = 4(t/64) + (t/8)%4 + {0,8,16,24}, col = 8((t/32)%2) + t%8 + {0,16}
///   A: row = (t/4)%16 + {0,16},               k = 2(4(t/64) + t%4) + {0,1}
///   B: col = (t/4)%16 + {0,16},               k = 2(4(t/64) + t%4) + {0,1}
/// Register order within a thread (inferred, not stated): operands pack the
/// K pair {0,1} in one 32-bit register, so register = kPair + 2 * half16;
/// C: register = colHalf + 2 * rowQuarter (col+16 fastest, then row+8, +16).
WMMAAtomLayout buildQY2M32N32K16() {
  WMMAAtomLayout atom = makeAtom(MatrixFragment::QY2WMMA, 128, 32, 32, 16);
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

/// PH1 (mp_31) m16n16k16 and m16n16k32 f16/bf16 over 32 lanes,
/// MUSA-FACTS.md's last section, for lane l (kr = k / 4 K groups):
///   C: row = (l >> 3) + 4i, col = (l & 7) + 8j,  register j + 2i
///   A: m = (l >> 2) + 8j,   k = (l & 3) + 4i,    register i + kr j
///   B: n = (l >> 2) + 8j,   k = (l & 3) + 4i,    register i + kr j
/// The register order is the open MUSA backend's for k16 (its fragment
/// linear layouts: C registers N 8 then M 4, 8; operand registers K 4, 8
/// then M (N) 8); for k32 it is inferred, the same formula with K 4, 8, 16
/// before M (N) 8. Stated there, unconfirmed on hardware: that the
/// instruction reads its operand words in that order (two registers per
/// 32-bit word, the lower one in the low half).
WMMAAtomLayout buildPH1M16N16(unsigned k) {
  WMMAAtomLayout atom = makeAtom(MatrixFragment::PH1WMMA, 32, 16, 16, k);
  uint32_t kr = k / 4;
  for (uint32_t l = 0; l < 32; ++l) {
    for (uint32_t j = 0; j < 2; ++j)
      for (uint32_t i = 0; i < kr; ++i) {
        uint32_t nonK = (l >> 2) + 8 * j, kk = (l & 3) + 4 * i;
        FragmentSlot slot{l, i + kr * j};
        atom.aOwner[nonK * k + kk] = slot;
        atom.bOwner[kk * 16 + nonK] = slot;
      }
    for (uint32_t i = 0; i < 4; ++i)
      for (uint32_t j = 0; j < 2; ++j) {
        uint32_t reg = j + 2 * i;
        atom.cRow[l * 8 + reg] = (l >> 3) + 4 * i;
        atom.cCol[l * 8 + reg] = (l & 7) + 8 * j;
      }
  }
  return atom;
}

} // namespace

const WMMAAtomLayout *
mlir::triton_musa::emulator::lookupWMMAAtom(MatrixFragment fragment,
                                            unsigned m, unsigned n,
                                            unsigned k) {
  static const WMMAAtomLayout atoms[] = {
      buildQY2M32N32K16(), buildPH1M16N16(16), buildPH1M16N16(32)};
  for (const WMMAAtomLayout &atom : atoms)
    if (fragment == atom.fragment && m == atom.m && n == atom.n && k == atom.k)
      return &atom;
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

SQMMACoord mlir::triton_musa::emulator::sqmmaAccumulatorCoord(
    unsigned m, unsigned n, uint32_t lane, uint32_t warpInSquad, uint32_t reg) {
  uint32_t colGroups = n / 8;
  uint32_t rn = reg % colGroups, rm = reg / colGroups;
  (void)m;
  return {(lane >> 3) + 4 * warpInSquad + 16 * rm, (lane & 7) + 8 * rn};
}

bool mlir::triton_musa::emulator::encodeSQMMADescriptor(
    const SQMMADescriptor &desc, uint32_t &bits) {
  uint32_t lead = desc.leadingBytes;
  if (desc.start >= (uint64_t(1) << 18) || lead < 8 || lead > 256 ||
      (lead & (lead - 1)) != 0 || desc.granularity < 0 ||
      desc.granularity > 4 || desc.stride < 0 || desc.stride > 3)
    return false;
  uint32_t leadCode = 0;
  while ((8u << leadCode) < lead)
    ++leadCode;
  bits = uint32_t(desc.start) | ((leadCode + 1) << 18) |
         (uint32_t(desc.granularity) << 21) | (uint32_t(desc.stride) << 24);
  return true;
}

SQMMADescriptor
mlir::triton_musa::emulator::decodeSQMMADescriptor(uint32_t bits) {
  SQMMADescriptor desc;
  desc.start = bits & ((1u << 18) - 1);
  desc.leadingBytes = 8u << (((bits >> 18) & 7) - 1);
  desc.granularity = int32_t((bits >> 21) & 7);
  desc.stride = int32_t((bits >> 24) & 3);
  return desc;
}

uint64_t mlir::triton_musa::emulator::sqmmaOperandOffset(
    const SQMMADescriptor &desc, uint32_t strided, uint32_t contiguous,
    uint32_t elemBytes) {
  uint64_t a = desc.start + uint64_t(strided) * desc.leadingBytes +
               uint64_t(contiguous) * elemBytes;
  if (desc.granularity == 0)
    return a;
  uint64_t granule = uint64_t(8) << desc.granularity;
  uint64_t span = uint64_t(32) << desc.stride;
  constexpr uint64_t kLine = 256;
  return a ^ (((a / kLine) % (span / granule)) * granule);
}

float mlir::triton_musa::emulator::decodeFp8(uint8_t bits, bool e5m2) {
  bool negative = bits & 0x80;
  unsigned expBits = e5m2 ? 5 : 4, manBits = e5m2 ? 2 : 3;
  int bias = e5m2 ? 15 : 7;
  unsigned exp = (bits >> manBits) & ((1u << expBits) - 1);
  unsigned man = bits & ((1u << manBits) - 1);
  float value;
  if (e5m2 && exp == 31)
    value = man ? __builtin_nanf("") : __builtin_inff();
  else if (!e5m2 && exp == 15 && man == 7)
    value = __builtin_nanf("");
  else if (exp == 0)
    value = std::ldexp(float(man), 1 - bias - int(manBits));
  else
    value = std::ldexp(float(man | (1u << manBits)),
                       int(exp) - bias - int(manBits));
  return negative ? -value : value;
}
