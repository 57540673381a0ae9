//===- MatrixInstrs.cpp - The catalogue of matrix instructions ------------===//
//
// Facts from MUSA-FACTS.md and MUSA-INTRINSICS.txt. The rows are written as
// groups (one unit, architecture, kind list and reason, over a list of
// shapes) and expanded once into one row per (kind, shape).
//
//===----------------------------------------------------------------------===//

#include "catalogue/MatrixInstrs.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

using namespace mlir::musagpu;
using llvm::ArrayRef;
using llvm::StringRef;

StringRef mlir::musagpu::stringifyMmaElementKind(MmaElementKind kind) {
  switch (kind) {
  case MmaElementKind::F16:
    return "f16";
  case MmaElementKind::BF16:
    return "bf16";
  case MmaElementKind::TF32:
    return "tf32";
  case MmaElementKind::S8:
    return "s8";
  case MmaElementKind::E4M3:
    return "e4m3";
  case MmaElementKind::E5M2:
    return "e5m2";
  }
  llvm_unreachable("unknown MmaElementKind");
}

unsigned mlir::musagpu::getMmaElementBits(MmaElementKind kind) {
  switch (kind) {
  case MmaElementKind::F16:
  case MmaElementKind::BF16:
    return 16;
  case MmaElementKind::TF32:
    return 32;
  case MmaElementKind::S8:
  case MmaElementKind::E4M3:
  case MmaElementKind::E5M2:
    return 8;
  }
  llvm_unreachable("unknown MmaElementKind");
}

StringRef mlir::musagpu::stringifyMatrixUnitKind(MatrixUnitKind unit) {
  switch (unit) {
  case MatrixUnitKind::SQMMA:
    return "sqmma";
  case MatrixUnitKind::WMMA:
    return "wmma";
  }
  llvm_unreachable("unknown MatrixUnitKind");
}

StringRef mlir::musagpu::stringifyMatrixFragment(MatrixFragment fragment) {
  switch (fragment) {
  case MatrixFragment::None:
    return "none";
  case MatrixFragment::QY2WMMA:
    return "qy2_wmma";
  case MatrixFragment::PH1WMMA:
    return "ph1_wmma";
  case MatrixFragment::SQMMASquad:
    return "sqmma_squad";
  case MatrixFragment::WGMMAWarpgroup:
    return "wgmma_warpgroup";
  case MatrixFragment::MmaSyncWarp:
    return "mma_sync_warp";
  }
  llvm_unreachable("unknown MatrixFragment");
}

std::optional<MatrixFragment>
mlir::musagpu::symbolizeMatrixFragment(StringRef name) {
  for (MatrixFragment fragment :
       {MatrixFragment::None, MatrixFragment::QY2WMMA, MatrixFragment::PH1WMMA,
        MatrixFragment::SQMMASquad, MatrixFragment::WGMMAWarpgroup,
        MatrixFragment::MmaSyncWarp})
    if (stringifyMatrixFragment(fragment) == name)
      return fragment;
  return std::nullopt;
}

unsigned mlir::musagpu::getFragmentThreads(MatrixFragment fragment) {
  switch (fragment) {
  case MatrixFragment::None:
    return 0;
  case MatrixFragment::QY2WMMA:
  case MatrixFragment::SQMMASquad:
  case MatrixFragment::WGMMAWarpgroup:
    return 128;
  case MatrixFragment::PH1WMMA:
  case MatrixFragment::MmaSyncWarp:
    return 32;
  }
  llvm_unreachable("unknown MatrixFragment");
}

namespace {

using Kind = MmaElementKind;

struct Shape {
  unsigned m, n, k;
};

/// Rows of one unit and architecture over `kinds` x `shapes` (SQMMA:
/// `shapes` x `ks`, its M x N and K tables being independent).
struct Group {
  MatrixUnitKind unit;
  unsigned archMajor;
  uint8_t targets;
  std::initializer_list<Kind> kinds;
  std::initializer_list<Shape> shapes;
  /// SQMMA: the K values (shapes' k is ignored); empty: the shapes' own k.
  std::initializer_list<unsigned> ks;
  StringRef notLowered;
  MatrixFragment fragment;
  bool operandsKMajorOnly = false;
};

/// The intrinsic name stem of `kind` on `unit` (MUSA-INTRINSICS.txt).
StringRef stemOf(MatrixUnitKind unit, Kind kind) {
  bool sq = unit == MatrixUnitKind::SQMMA;
  switch (kind) {
  case Kind::F16:
    return sq ? "sqmma.fmma" : "ffmma";
  case Kind::BF16:
    return sq ? "sqmma.bfmma" : "bfmma";
  case Kind::TF32:
    return sq ? "sqmma.tfmma" : "tfmma";
  case Kind::S8:
    return sq ? "sqmma.smma" : "imma";
  case Kind::E4M3:
    return sq ? "sqmma.e4m3" : "e4m3";
  case Kind::E5M2:
    return sq ? "sqmma.e5m2" : "e5m2";
  }
  llvm_unreachable("unknown MmaElementKind");
}

// SQMMA M x N (MUSA-FACTS.md): f16/bf16/s8/e4m3/e5m2, and the tf32 subset.
constexpr std::initializer_list<Shape> kSQMMAMN = {
    {32, 32, 0}, {32, 64, 0},  {32, 128, 0}, {16, 64, 0},
    {64, 16, 0}, {64, 32, 0},  {64, 64, 0},  {64, 128, 0},
    {128, 32, 0}, {128, 64, 0}, {128, 128, 0}};
constexpr std::initializer_list<Shape> kSQMMATF32MN = {
    {16, 64, 0}, {32, 32, 0}, {32, 64, 0},   {64, 16, 0},
    {64, 32, 0}, {64, 64, 0}, {128, 64, 0}, {128, 128, 0}};

// The proxy's SQMMA rows: the mp_31 shapes wgmma can run (M a multiple of
// its 64 rows; N is a multiple of 8 up to 256 for every SQMMA shape).
constexpr std::initializer_list<Shape> kProxySQMMAMN = {
    {64, 16, 0},  {64, 32, 0},  {64, 64, 0}, {64, 128, 0},
    {128, 32, 0}, {128, 64, 0}, {128, 128, 0}};
constexpr std::initializer_list<Shape> kProxySQMMATF32MN = {
    {64, 16, 0}, {64, 32, 0}, {64, 64, 0}, {128, 64, 0}, {128, 128, 0}};

constexpr StringRef kUnconfirmedQY2 =
    "no public source confirms this QY2 atom (MUSA-FACTS.md: only f16/bf16 "
    "m32n32k16)";
constexpr StringRef kNoPH1Selection =
    "not selected: its fragment is not checked in layouts/ and the emulator "
    "yet";
constexpr StringRef kNoPH1TF32 =
    "no tf32 WMMA fragment (32-bit operands) in layouts/ and the emulator yet";
constexpr StringRef kNoPH1Int8 =
    "no 8-bit WMMA fragment (four values per 32-bit word) in layouts/ and the "
    "emulator yet";

// f16/bf16 K = 128 on SQMMA is not a row: the MUSA 5.2 toolchain crashes on
// it, so the selection issues K = 64 twice and the verifier refuses it with
// that reason (Ops.cpp).
const Group kGroups[] = {
    // SQMMA (mp_31): every legal instruction is lowered.
    {MatrixUnitKind::SQMMA, 3, kDeviceAndEmulator, {Kind::F16, Kind::BF16},
     kSQMMAMN, {16, 32, 64}, "", MatrixFragment::SQMMASquad},
    {MatrixUnitKind::SQMMA, 3, kDeviceAndEmulator, {Kind::TF32}, kSQMMATF32MN,
     {8, 16, 32}, "", MatrixFragment::SQMMASquad},
    {MatrixUnitKind::SQMMA, 3, kDeviceAndEmulator,
     {Kind::S8, Kind::E4M3, Kind::E5M2}, kSQMMAMN, {32, 64, 128}, "",
     MatrixFragment::SQMMASquad},
    // The GPU proxy's SQMMA (run as wgmma, target/ProxyTargetInfo.cpp):
    // f16/bf16, whose wgmma reads both majors; tf32 and 8-bit, whose wgmma
    // reads K-major operands only (PTX ISA: no imm-trans for them).
    {MatrixUnitKind::SQMMA, 3, targetBit(TargetKind::Proxy),
     {Kind::F16, Kind::BF16}, kProxySQMMAMN, {16, 32, 64}, "",
     MatrixFragment::WGMMAWarpgroup},
    {MatrixUnitKind::SQMMA, 3, targetBit(TargetKind::Proxy), {Kind::TF32},
     kProxySQMMATF32MN, {8, 16, 32}, "", MatrixFragment::WGMMAWarpgroup,
     /*operandsKMajorOnly=*/true},
    {MatrixUnitKind::SQMMA, 3, targetBit(TargetKind::Proxy),
     {Kind::S8, Kind::E4M3, Kind::E5M2}, kProxySQMMAMN, {32, 64, 128}, "",
     MatrixFragment::WGMMAWarpgroup, /*operandsKMajorOnly=*/true},
    // QY2 WMMA (128-thread warps).
    {MatrixUnitKind::WMMA, 2, kDeviceAndEmulator, {Kind::F16, Kind::BF16},
     {{32, 32, 16}}, {}, "", MatrixFragment::QY2WMMA},
    {MatrixUnitKind::WMMA, 2, kDeviceAndEmulator, {Kind::TF32}, {{32, 32, 8}},
     {}, kUnconfirmedQY2, MatrixFragment::None},
    {MatrixUnitKind::WMMA, 2, kDeviceAndEmulator, {Kind::S8}, {{32, 32, 32}},
     {}, kUnconfirmedQY2, MatrixFragment::None},
    // PH1 WMMA (32-lane warps), the shapes of the open MUSA backend.
    {MatrixUnitKind::WMMA, 3, kDeviceAndEmulator, {Kind::F16, Kind::BF16},
     {{16, 8, 8}, {16, 8, 16}, {8, 16, 16}}, {}, kNoPH1Selection,
     MatrixFragment::PH1WMMA},
    {MatrixUnitKind::WMMA, 3, kDeviceAndEmulator, {Kind::F16, Kind::BF16},
     {{16, 16, 16}, {16, 16, 32}}, {}, "", MatrixFragment::PH1WMMA},
    {MatrixUnitKind::WMMA, 3, kDeviceAndEmulator, {Kind::TF32},
     {{16, 8, 4}, {16, 8, 8}, {16, 16, 16}}, {}, kNoPH1TF32,
     MatrixFragment::PH1WMMA},
    {MatrixUnitKind::WMMA, 3, kDeviceAndEmulator,
     {Kind::S8, Kind::E4M3, Kind::E5M2},
     {{8, 16, 16}, {16, 8, 16}, {16, 16, 16}, {16, 16, 32}, {16, 16, 64}}, {},
     kNoPH1Int8, MatrixFragment::PH1WMMA},
    // The GPU proxy's PH1 WMMA (run as mma.sync.m16n8k16,
    // target/ProxyTargetInfo.cpp): the f16/bf16 shapes mp_31 lowers, so that
    // the selection picks the same atom on both.
    {MatrixUnitKind::WMMA, 3, targetBit(TargetKind::Proxy),
     {Kind::F16, Kind::BF16}, {{16, 16, 16}, {16, 16, 32}}, {}, "",
     MatrixFragment::MmaSyncWarp},
};

std::vector<MatrixInstr> expand() {
  std::vector<MatrixInstr> rows;
  for (const Group &g : kGroups)
    for (Kind kind : g.kinds) {
      bool sq = g.unit == MatrixUnitKind::SQMMA;
      auto add = [&](unsigned m, unsigned n, unsigned k) {
        rows.push_back(MatrixInstr{
            g.unit, g.archMajor, g.targets, kind, kind,
            kind == Kind::S8 ? MmaAccKind::S32 : MmaAccKind::F32, m, n, k,
            g.notLowered, stemOf(g.unit, kind), g.fragment,
            sq ? OperandSource::SharedMemory : OperandSource::Registers,
            sq ? 256u : 0u, g.operandsKMajorOnly});
      };
      for (Shape s : g.shapes) {
        if (g.ks.size() == 0)
          add(s.m, s.n, s.k);
        else
          for (unsigned k : g.ks)
            add(s.m, s.n, k);
      }
    }
  return rows;
}

} // namespace

ArrayRef<MatrixInstr> mlir::musagpu::getMatrixInstrs() {
  static const std::vector<MatrixInstr> rows = expand();
  return rows;
}

std::string MatrixInstr::shapeName() const {
  return ("m" + llvm::Twine(m) + "n" + llvm::Twine(n) + "k" + llvm::Twine(k))
      .str();
}

std::string MatrixInstr::getIntrinsicName() const {
  return ("llvm.musa." + stem + "." + shapeName() + ".mma").str();
}

std::string MatrixInstr::describe() const {
  return (stringifyMatrixUnitKind(unit) + " " + stringifyMmaElementKind(a) +
          " x " + stringifyMmaElementKind(b) + " -> " +
          (c == MmaAccKind::S32 ? "s32" : "f32") + " " + shapeName() +
          " on mp_" + llvm::Twine(archMajor) + "x")
      .str();
}

static bool matches(const MatrixInstr &row, MatrixUnitKind unit,
                    unsigned archMajor, TargetKind target,
                    MmaElementKind kind) {
  return row.unit == unit && row.archMajor == archMajor && row.isFor(target) &&
         row.a == kind;
}

const MatrixInstr *mlir::musagpu::lookupMatrixInstr(
    MatrixUnitKind unit, unsigned archMajor, TargetKind target,
    MmaElementKind kind, unsigned m, unsigned n, unsigned k) {
  for (const MatrixInstr &row : getMatrixInstrs())
    if (matches(row, unit, archMajor, target, kind) && row.m == m &&
        row.n == n && row.k == k)
      return &row;
  return nullptr;
}

llvm::SmallVector<const MatrixInstr *>
mlir::musagpu::getMatrixInstrs(MatrixUnitKind unit, unsigned archMajor,
                               TargetKind target, MmaElementKind kind,
                               bool loweredOnly) {
  llvm::SmallVector<const MatrixInstr *> rows;
  for (const MatrixInstr &row : getMatrixInstrs())
    if (matches(row, unit, archMajor, target, kind) &&
        (!loweredOnly || row.isLowered()))
      rows.push_back(&row);
  return rows;
}

MatrixFragment mlir::musagpu::lookupFragment(MatrixUnitKind unit,
                                             TargetKind target,
                                             unsigned threads, unsigned m,
                                             unsigned n, unsigned k) {
  for (const MatrixInstr &row : getMatrixInstrs())
    if (row.unit == unit && row.isFor(target) && row.m == m && row.n == n &&
        row.k == k && row.fragment != MatrixFragment::None &&
        getFragmentThreads(row.fragment) == threads)
      return row.fragment;
  return MatrixFragment::None;
}

template <typename Key>
static std::string describeUnique(ArrayRef<const MatrixInstr *> rows,
                                  Key key) {
  std::string s;
  llvm::raw_string_ostream os(s);
  std::vector<std::string> seen;
  for (const MatrixInstr *row : rows) {
    std::string name = key(*row);
    if (llvm::is_contained(seen, name))
      continue;
    os << (seen.empty() ? "" : ", ") << name;
    seen.push_back(std::move(name));
  }
  return s;
}

std::string mlir::musagpu::describeMN(ArrayRef<const MatrixInstr *> rows) {
  return describeUnique(rows, [](const MatrixInstr &r) {
    return (llvm::Twine(r.m) + "x" + llvm::Twine(r.n)).str();
  });
}

std::string mlir::musagpu::describeMNK(ArrayRef<const MatrixInstr *> rows) {
  return describeUnique(rows, [](const MatrixInstr &r) {
    return (llvm::Twine(r.m) + "x" + llvm::Twine(r.n) + "x" + llvm::Twine(r.k))
        .str();
  });
}

/// The intrinsic type tag of `kind` on `unit`: its stem without the unit.
static StringRef tagOf(MatrixUnitKind unit, Kind kind) {
  StringRef stem = stemOf(unit, kind);
  stem.consume_front("sqmma.");
  return stem;
}

std::optional<MmaElementKind>
mlir::musagpu::getIntrinsicTagKind(MatrixUnitKind unit, StringRef tag) {
  for (unsigned i = 0; i <= unsigned(Kind::E5M2); ++i)
    if (tagOf(unit, Kind(i)) == tag)
      return Kind(i);
  return std::nullopt;
}

std::string mlir::musagpu::describeIntrinsicTags(MatrixUnitKind unit) {
  std::string s;
  for (unsigned i = 0; i <= unsigned(Kind::E5M2); ++i)
    s += (i ? ", " : "") + tagOf(unit, Kind(i)).str();
  return s;
}

TargetKind mlir::musagpu::getFragmentTarget(MatrixFragment fragment) {
  for (const MatrixInstr &row : getMatrixInstrs())
    if (fragment != MatrixFragment::None && row.fragment == fragment &&
        !row.isFor(TargetKind::Device))
      return TargetKind::Proxy;
  return TargetKind::Device;
}
