//===- MatrixInstrs.h - The catalogue of matrix instructions ----*- C++ -*-===//
//
// Every matrix instruction the compiler knows, one row each: which unit,
// which architectures and lowering targets, operand and accumulator kinds,
// M x N x K, whether we lower it (or why not), the intrinsic's name stem,
// the fragment (register layout of the operands and the accumulator) and
// the operand constraints. The verifiers' legal shapes, the matrix-path
// selection and its report, the linear layouts, the targets' intrinsic
// names and the emulator's atom lookup all read it; adding an instruction
// is one row (plus, for a new fragment, its layout in layouts/ and its
// owner table in emulator/MatrixUnits.cpp, which stays an independent
// oracle written from the hardware's formulas).
//
// Pure data: no MLIR types. It sits below every other component (library
// MUSAMatrixInstrs): the dialect's verifiers, target/, the passes and
// emulator/ read it, and it reads none of them.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_CATALOGUE_MATRIXINSTRS_H
#define TRITON_MUSA_CATALOGUE_MATRIXINSTRS_H

#include "catalogue/TargetKind.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::musagpu {

using triton_musa::TargetKind;

/// Element types of the matrix instructions' A and B (f32 operands are read
/// as tf32). The values are the emulator ABI's `kind` codes (EmulatorABI.h).
enum class MmaElementKind : uint8_t { F16, BF16, TF32, S8, E4M3, E5M2 };
/// "f16", "bf16", "tf32", "s8", "e4m3", "e5m2".
llvm::StringRef stringifyMmaElementKind(MmaElementKind kind);
/// Bits of one element in memory (tf32: 32).
unsigned getMmaElementBits(MmaElementKind kind);

/// Element type of the accumulator.
enum class MmaAccKind : uint8_t { F32, S32 };

/// The hardware unit an instruction runs on.
enum class MatrixUnitKind : uint8_t {
  /// MUSA four-warp squad MMA, operands from shared memory (mp_31).
  SQMMA,
  /// MUSA warp MMA, register operands.
  WMMA,
};
/// "sqmma", "wmma".
llvm::StringRef stringifyMatrixUnitKind(MatrixUnitKind unit);

/// The element kind of the intrinsic type tag `tag` of `unit`
/// (`llvm.musa.<tag>.m<M>n<N>k<K>.mma` for WMMA, `llvm.musa.sqmma.<tag>...`
/// for SQMMA: "fmma", "ffmma", "smma", "imma", "e4m3", ...), or none.
std::optional<MmaElementKind> getIntrinsicTagKind(MatrixUnitKind unit,
                                                  llvm::StringRef tag);
/// The tags of `unit`, in the order of the kinds: "fmma, bfmma, ...".
std::string describeIntrinsicTags(MatrixUnitKind unit);

/// The fragment of an instruction: which thread holds which element of A,
/// B and C in which register. layouts/LayoutConversion.cpp builds the linear
/// layout of each, emulator/MatrixUnits.cpp has its owner tables.
enum class MatrixFragment : uint8_t {
  /// Not known (a row we do not lower).
  None,
  /// QY2 (128-thread warps) m32n32k16, 16-bit operands (MUSA-FACTS.md).
  QY2WMMA,
  /// PH1 (32-lane warps) WMMA, 16-bit operands: the open MUSA backend's
  /// fragment, a formula in M, N and K (layouts/LayoutConversion.cpp).
  PH1WMMA,
  /// SQMMA accumulator of a four-warp squad; operands in shared memory.
  SQMMASquad,
  /// The GPU proxy's SQMMA rows, run as NVIDIA wgmma: the accumulator of a
  /// four-warp warpgroup as wgmma holds it (layouts/HopperFragments.h),
  /// operands in shared memory in Hopper's 32/64/128-byte swizzles.
  WGMMAWarpgroup,
  /// The GPU proxy's PH1 WMMA rows, run as NVIDIA mma.sync.m16n8k16 (one
  /// per 8 columns and 16 K): a warp holds each m16n8k16 piece as mma.sync
  /// does (PTX ISA, "Matrix Fragments for mma.m16n8k16"); the pieces of one
  /// instruction follow each other in registers (layouts/LayoutConversion.cpp).
  MmaSyncWarp,
};
llvm::StringRef stringifyMatrixFragment(MatrixFragment fragment);
/// The fragment `name` spells (stringifyMatrixFragment's inverse), if any.
std::optional<MatrixFragment> symbolizeMatrixFragment(llvm::StringRef name);
/// Threads that hold one instance of `fragment` (a warp; 128 for a squad).
unsigned getFragmentThreads(MatrixFragment fragment);

/// Bit of `kind` in MatrixInstr::targets.
constexpr uint8_t targetBit(TargetKind kind) {
  return uint8_t(1u << unsigned(kind));
}
constexpr uint8_t kDeviceAndEmulator =
    targetBit(TargetKind::Device) | targetBit(TargetKind::Emulator);

/// Where the instruction reads A and B.
enum class OperandSource : uint8_t { Registers, SharedMemory };

/// One matrix instruction: d (m x n, `c`) = a (m x k) * b (k x n) + c.
struct MatrixInstr {
  MatrixUnitKind unit;
  /// The architectures: every capability `archMajor`.x (2: mp_2x/QY2,
  /// 3: mp_3x/PH1), as the encodings' `versionMajor` names them.
  unsigned archMajor;
  /// Targets that take this row (targetBit of each): the proxy can have its
  /// own rows, with their own fragments, for the same architecture.
  uint8_t targets;
  MmaElementKind a, b;
  MmaAccKind c;
  unsigned m, n, k;
  /// Empty when we lower the instruction; else why not (quoted by the
  /// matrix-path selection's report).
  llvm::StringRef notLowered;
  /// The intrinsic's name between `llvm.musa.` and `.m<M>n<N>k<K>.mma`
  /// ("sqmma.fmma", "ffmma"); getIntrinsicName builds the full name.
  llvm::StringRef stem;
  MatrixFragment fragment;
  OperandSource operands;
  /// Operand swizzle constraints (SQMMA): per instruction an operand's
  /// contiguous dimension spans at most this many bytes (one 256-byte
  /// swizzle line; the proxy's rows keep mp_31's limit, so that both pick
  /// the same instructions); 0: no constraint.
  unsigned maxContiguousBytes;
  /// Both operands must be stored K-major (A [M, K] with K contiguous, B
  /// with K contiguous): the proxy's tf32 and 8-bit wgmma have no transpose.
  bool operandsKMajorOnly = false;

  bool isLowered() const { return notLowered.empty(); }
  bool isFor(TargetKind target) const { return targets & targetBit(target); }
  /// "m16n16k32".
  std::string shapeName() const;
  /// `llvm.musa.<stem>.m<M>n<N>k<K>.mma`.
  std::string getIntrinsicName() const;
  /// "wmma f16 x f16 -> f32 m16n16k16 on mp_3x", for messages.
  std::string describe() const;
};

/// Every row, SQMMA first.
llvm::ArrayRef<MatrixInstr> getMatrixInstrs();

/// The row of (unit, architecture major, target, A/B kind, m, n, k), or
/// null. The accumulator kind follows from A (s8: s32, else f32).
const MatrixInstr *lookupMatrixInstr(MatrixUnitKind unit, unsigned archMajor,
                                     TargetKind target, MmaElementKind kind,
                                     unsigned m, unsigned n, unsigned k);

/// All rows of (unit, architecture major, target, A/B kind), in table
/// order; only the lowered ones with `loweredOnly`.
llvm::SmallVector<const MatrixInstr *>
getMatrixInstrs(MatrixUnitKind unit, unsigned archMajor, TargetKind target,
                MmaElementKind kind, bool loweredOnly = false);

/// `target`'s fragment of the `unit` instructions m x n x k on
/// `threads`-thread warps (the WMMA encodings and the emulator ABI name an
/// instruction so), or None when no row of `target` has one. Rows of one
/// shape share their fragment across element kinds of one width (checked by
/// test_matrix_instrs.py); the proxy's rows name theirs in the encoding.
MatrixFragment lookupFragment(MatrixUnitKind unit, TargetKind target,
                              unsigned threads, unsigned m, unsigned n,
                              unsigned k);

/// The lowering target whose rows hold values in `fragment` (an encoding
/// names its fragment only where it is not the device's: None is the
/// device's, and the emulator runs the device's rows).
TargetKind getFragmentTarget(MatrixFragment fragment);

/// "16x64, 32x32, ..." (M x N of `rows`, without repeats, table order).
std::string describeMN(llvm::ArrayRef<const MatrixInstr *> rows);
/// "32x32x16, ..." (M x N x K of `rows`, without repeats, table order).
std::string describeMNK(llvm::ArrayRef<const MatrixInstr *> rows);

} // namespace mlir::musagpu

#endif // TRITON_MUSA_CATALOGUE_MATRIXINSTRS_H
