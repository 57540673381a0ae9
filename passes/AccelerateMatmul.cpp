//===- AccelerateMatmul.cpp - --musa-accelerate-matmul -------------------===//
//
// Matrix-path selection: each tt.dot goes to the arch's matrix unit when its
// dtypes, shape and num_warps fit a legal instruction, else stays on FMA.
//
// Design (the plan is in Passes.td; in short):
//  * One decision per dot, made by selectDotPath from the arch table's
//    matrixUnit, the switches (enable-mma / enable-sqmma), the operand and
//    accumulator types, input_precision, the shape and num_warps. The
//    decision is either a WMMA atom with warpsPerCTA, or FMA with a reason
//    string, stored on the dot as `musa.dot_path_reason` so that
//    --musa-dot-path-report (and Python) can say why.
//  * WMMA: register operands. The dot becomes musagpu.wmma between
//    ttg.convert_layouts (operands to #musagpu.wmma_operand, accumulator to
//    #musagpu.wmma, result back). Layout conversions are lowered through the
//    linear layouts of those encodings, which also define the fragment each
//    thread hands the instruction: the WMMA lowering needs no other
//    knowledge of the fragment layout. num_warps may exceed the atoms of
//    the result: the extra warps replicate (chooseWarps). QY2's m32n32k16,
//    and on mp_31 PH1's m16n16k16 for the f16/bf16 dots SQMMA cannot take.
//  * SQMMA (mp_31): operands from shared memory. The dot becomes
//    musagpu.sqmma on two #musagpu.tme_shared buffers (the SQMMA swizzle,
//    TMESharedEncodingAttr::getForSQMMAOperand) and the accumulator
//    converted to #musagpu.sqmma, then musagpu.sqmma_wait, then the result
//    converted back. The instruction shape and warps follow the documented
//    heuristic (selectSQMMA).
//  * Accumulators: both units accumulate in f32 (s32 for s8). An f16 or
//    bf16 accumulator is widened to f32 in the unit's layout before the
//    instruction and rounded once after it, the FMA path's rounding; a K
//    loop carries it narrow in the unit's layout.
//  * Batched (rank-3) dots: the batch is the leading dim of the same
//    encodings (layouts/LayoutConversion.cpp puts warps N, M, then batch;
//    repetitions N, M, then batch); warps (squads) go to the batch first,
//    as Triton's NVIDIA path does for a batched MMA, the rest as for 2-D.
//    SQMMA operand buffers keep the batch outermost (a pipelined ring's
//    3-D slots too).
//
// SQMMA and pipelining, the ordering decision: this pass runs on loops no
// pipeliner has touched (Triton's stage stops before pipelining), so an
// operand loaded in a K loop arrives as a `tt.load` (or Triton's promotion
// `local_load(local_alloc %x)`). The operand is stored with an immutable
// ttg.local_alloc into an SQMMA buffer right after the op that defines it,
// once for all the dots that read it; --musa-pipeline-loops then turns that
// load-and-store into async copies into a ring of SQMMA buffers, read by the
// sqmma in place. Buffers are aligned to the swizzle period
// 256 * 256 / granularity bytes (MUSA-FACTS.md). The wait goes down past
// the side-effect-free ops after each sqmma (sinkWait), up to the first op
// with a memory effect, so the matrix unit overlaps index and pointer
// arithmetic.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "passes/FragmentReads.h"

#include "dialects/MUSAGPU/IR/Dialect.h"
#include "dialects/Triton/IR/Dialect.h"
#include "dialects/TritonGPU/IR/Dialect.h"
#include "target/MUSAArch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <tuple>

namespace mlir::triton_musa {
#define GEN_PASS_DEF_MUSAACCELERATEMATMUL
#include "passes/Passes.h.inc"
} // namespace mlir::triton_musa

using namespace mlir;
using namespace mlir::triton_musa;
namespace ttg = mlir::triton::gpu;
namespace mgpu = mlir::musagpu;

namespace {

constexpr StringLiteral kReasonAttr = "musa.dot_path_reason";

/// The lowered rows of `unit` for `kind` on `arch` and `target` (the
/// catalogue, catalogue/MatrixInstrs.h). The device's rows are the
/// emulator's too, so the TTGIR is the same for both; the proxy has its own.
SmallVector<const mgpu::MatrixInstr *> loweredRows(mgpu::MatrixUnitKind unit,
                                                   const MUSAArchInfo &arch,
                                                   TargetKind target,
                                                   mgpu::MmaElementKind kind) {
  return mgpu::getMatrixInstrs(unit, arch.major, target, kind,
                               /*loweredOnly=*/true);
}

/// An SQMMA instruction and the operands' storage order.
struct SQMMAChoice {
  const mgpu::MatrixInstr *instr;
  /// A stored M-major / B stored K-major (see operandOrder).
  bool transA = false, transB = false;
};

struct DotPath {
  /// The chosen WMMA instruction and warps, or none (FMA, see `reason`).
  const mgpu::MatrixInstr *wmma = nullptr;
  /// The chosen SQMMA instruction (with warpsPerCTA), or none.
  std::optional<SQMMAChoice> sqmma;
  SmallVector<unsigned> warpsPerCTA;
  /// WMMA only: the operands' element type is upcast to this one first
  /// (fp8 on a unit that takes f16), or null.
  Type upcastTo;
  std::string reason;
};

DotPath stayOnFMA(std::string reason) {
  DotPath path;
  path.reason = std::move(reason);
  return path;
}

std::string typeName(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  type.print(os);
  return s;
}

/// Why a matrix unit cannot carry a dot's `accElem` accumulator (`unit`
/// names it), or nothing: s8 operands accumulate in i32; the float kinds in
/// f32, or in a narrower float (f16, bf16) that the rewrite widens to f32
/// before the instruction and rounds once after it (widenAccumulator), as
/// the FMA path sums an f16 accumulator in f32 (the units have no f16
/// accumulator, MUSA-FACTS.md).
std::optional<std::string> unsupportedAccumulator(Type accElem,
                                                  mgpu::MmaElementKind kind,
                                                  StringRef unit) {
  if (kind == mgpu::MmaElementKind::S8)
    return accElem.isInteger(32)
               ? std::nullopt
               : std::optional<std::string>(typeName(accElem) +
                                            " accumulator (" + unit.str() +
                                            " accumulates s8 in i32)");
  if (accElem.isF32() || accElem.isF16() || accElem.isBF16())
    return std::nullopt;
  return typeName(accElem) + " accumulator (" + unit.str() +
         " accumulates in f32; f16 and bf16 are widened)";
}

/// Warps over an m x n result of `atom` tiles, num_warps in all: of the
/// splits that tile the result (a power of two of warps along M, at most
/// the atom rows, the rest along N), the one whose warp reads the fewest
/// operand values per K step (m / warpsM rows of A plus n / warpsN columns
/// of B: every warp loads its own fragments from shared memory), the most
/// warps along M among equals. 32x64 on 2 warps is thus [1, 2] (32 + 32),
/// not [2, 1] (16 + 64). Where the result has fewer atoms than warps, M takes
/// one warp per atom row and N all the others, more than it has atom
/// columns: the layouts wrap those warps onto the same atoms (their warp
/// bases broadcast, layouts/LayoutConversion.cpp), so several warps compute
/// the same tile, as Triton's NVIDIA MMA layouts let warps replicate.
SmallVector<unsigned> chooseWarps(int64_t m, int64_t n,
                                  const mgpu::MatrixInstr &atom,
                                  unsigned numWarps) {
  int64_t rowsM = m / atom.m, colsN = n / atom.n;
  std::optional<std::pair<unsigned, unsigned>> best;
  int64_t bestReads = 0;
  for (unsigned wm = numWarps; wm >= 1; wm /= 2) {
    unsigned wn = numWarps / wm;
    if (wm > rowsM || wn > colsN || rowsM % wm != 0 || colsN % wn != 0)
      continue;
    int64_t reads = m / wm + n / wn;
    if (!best || reads < bestReads) {
      best = {wm, wn};
      bestReads = reads;
    }
  }
  if (best)
    return {best->first, best->second};
  unsigned wm = std::min<int64_t>(numWarps, rowsM);
  return {wm, numWarps / wm};
}

/// The storage order SQMMA reads `operand` in, over its two matrix dims:
/// the order of the shared buffer it is loaded from (a pipelined ring; a
/// batched operand's keeps the batch outermost), else A K-major and B
/// N-major (order [1, 0] for both: transA = transB = false).
SmallVector<unsigned> operandOrder(Value operand) {
  auto load = operand.getDefiningOp<ttg::LocalLoadOp>();
  if (!load)
    return {1, 0};
  Attribute encoding = load.getSrc().getType().getEncoding();
  SmallVector<unsigned> order;
  if (auto enc = dyn_cast_or_null<ttg::SwizzledSharedEncodingAttr>(encoding))
    order.assign(enc.getOrder().begin(), enc.getOrder().end());
  else if (auto enc = dyn_cast_or_null<mgpu::TMESharedEncodingAttr>(encoding))
    order.assign(enc.getOrder().begin(), enc.getOrder().end());
  unsigned rank = cast<RankedTensorType>(operand.getType()).getRank();
  if (order.size() != rank || (rank == 3 && order[2] != 0))
    return {1, 0};
  if (rank == 3)
    return {order[0] - 1, order[1] - 1};
  return order;
}

/// SQMMA for a dot whose operands and accumulator have passed the type
/// checks (MUSA-FACTS.md, last section): warpsM a multiple of 4, whole
/// squad tiles (m % (instM * warpsM / 4) == 0, n % (instN * warpsN) == 0),
/// at most 256 bytes per instruction along an operand's contiguous
/// dimension. Among the legal (instruction, warps) pairs: fewest
/// instructions per squad, then the largest instruction, then more squads
/// along M only when instM >= 32, then the smaller M, N, K (the candidates
/// are tried in that order). The candidates are the catalogue's lowered rows
/// (f16/bf16 K = 128 is none: the shipped toolchain crashes on it, so K
/// steps of 64 instead).
DotPath selectSQMMA(triton::DotOp dot, const MUSAArchInfo &arch,
                    TargetKind target, mgpu::MmaElementKind kind,
                    unsigned numWarps) {
  auto aType = cast<RankedTensorType>(dot.getA().getType());
  auto dType = cast<RankedTensorType>(dot.getD().getType());
  unsigned rank = dType.getRank();
  if (std::optional<std::string> why =
          unsupportedAccumulator(dType.getElementType(), kind, "SQMMA"))
    return stayOnFMA(*why);
  int64_t m = dType.getShape()[rank - 2], n = dType.getShape()[rank - 1];
  int64_t k = aType.getShape()[rank - 1];
  int64_t batch = rank == 3 ? dType.getShape()[0] : 1;
  if (numWarps % 4 != 0)
    return stayOnFMA(llvm::formatv("num_warps = {0} is not a multiple of 4 "
                                   "(SQMMA runs on squads of 4 warps)",
                                   numWarps)
                         .str());
  unsigned elemBytes = aType.getElementTypeBitWidth() / 8;
  SmallVector<unsigned> orderA = operandOrder(dot.getA());
  SmallVector<unsigned> orderB = operandOrder(dot.getB());
  bool transA = orderA[0] == 0, transB = orderB[0] == 0;
  SmallVector<const mgpu::MatrixInstr *> rows =
      loweredRows(mgpu::MatrixUnitKind::SQMMA, arch, target, kind);
  llvm::stable_sort(rows, [](const mgpu::MatrixInstr *x,
                             const mgpu::MatrixInstr *y) {
    return std::make_tuple(x->m, x->n, x->k) < std::make_tuple(y->m, y->n, y->k);
  });
  // Rows that read K-major operands only (the proxy's tf32/8-bit wgmma)
  // cannot take an operand stored M-major (A) or N-major (B) in a buffer it
  // is loaded from; an operand this pass stages itself is stored K-major for
  // them.
  bool orderFixedA = dot.getA().getDefiningOp<ttg::LocalLoadOp>() != nullptr;
  bool orderFixedB = dot.getB().getDefiningOp<ttg::LocalLoadOp>() != nullptr;
  bool kMajorReachable =
      (!orderFixedA || !transA) && (!orderFixedB || transB);
  bool skippedForMajor = false;
  llvm::erase_if(rows, [&](const mgpu::MatrixInstr *row) {
    bool skip = row->operandsKMajorOnly && !kMajorReachable;
    skippedForMajor |= skip;
    return skip;
  });
  std::optional<SQMMAChoice> best;
  SmallVector<unsigned> bestWarps;
  int64_t bestCount = 0;
  auto better = [&](const SQMMAChoice &c, int64_t count, unsigned warpsM) {
    if (!best || count != bestCount)
      return !best || count < bestCount;
    const mgpu::MatrixInstr &x = *c.instr, &y = *best->instr;
    int64_t size = int64_t(x.m) * x.n * x.k, bestSize = int64_t(y.m) * y.n * y.k;
    if (size != bestSize)
      return size > bestSize;
    return x.m >= 32 && warpsM > bestWarps[rank - 2];
  };
  // Batched: squads go to the batch first (each batch its own sequence of
  // 2-D instructions, as Triton's NVIDIA MMA layouts put a batched dot's
  // warps on the batch), the remaining warps tile M x N as for a 2-D dot.
  for (unsigned warpsB = std::min<int64_t>(numWarps / 4, batch);
       warpsB >= 1 && !best; warpsB /= 2) {
    if (batch % warpsB || (numWarps / warpsB) % 4)
      continue;
    unsigned mnWarps = numWarps / warpsB;
    for (unsigned warpsM = 4; warpsM <= mnWarps; warpsM *= 2) {
      if (mnWarps % warpsM)
        continue;
      unsigned squadsM = warpsM / 4, warpsN = mnWarps / warpsM;
      for (const mgpu::MatrixInstr *row : rows) {
        unsigned instM = row->m, instN = row->n, instK = row->k;
        if (m % (instM * squadsM) || n % (instN * warpsN) || k % instK)
          continue;
        SQMMAChoice c{row, transA, transB};
        if (row->operandsKMajorOnly)
          c.transA = false, c.transB = true;
        if ((c.transA ? instM : instK) * elemBytes > row->maxContiguousBytes ||
            (c.transB ? instK : instN) * elemBytes > row->maxContiguousBytes)
          continue;
        int64_t count = (m / (instM * squadsM)) * (n / (instN * warpsN)) *
                        (k / instK);
        if (better(c, count, warpsM)) {
          best = c;
          bestCount = count;
          bestWarps = {warpsM, warpsN};
          if (rank == 3)
            bestWarps.insert(bestWarps.begin(), warpsB);
        }
      }
    }
  }
  if (!best && skippedForMajor && rows.empty())
    return stayOnFMA(llvm::formatv(
                         "the target's SQMMA reads {0} operands K-major only, "
                         "and {1} is stored {2}-major",
                         mgpu::stringifyMmaElementKind(kind),
                         orderFixedA && transA ? "A" : "B",
                         orderFixedA && transA ? "M" : "N")
                         .str());
  if (!best)
    return stayOnFMA(
        llvm::formatv("no SQMMA instruction tiles {0}{1}x{2}x{3} with "
                      "num_warps = {4} in whole squads (M, N, K must be "
                      "multiples of a legal instruction, warps along M a "
                      "multiple of 4)",
                      rank == 3 ? std::to_string(batch) + "x" : std::string(),
                      m, n, k, numWarps)
            .str());
  DotPath path;
  path.sqmma = *best;
  path.warpsPerCTA = std::move(bestWarps);
  return path;
}

DotPath selectWMMA(triton::DotOp dot, const MUSAArchInfo &arch,
                   TargetKind target, mgpu::MmaElementKind kind,
                   unsigned numWarps);

/// The operand kind a WMMA runs `kind` dots in on `arch`: `kind` where
/// some of its rows are lowered; f16 for fp8 (e4m3 and e5m2 values are all
/// exact in f16, and the products of f16 operands are exact in the f32
/// accumulator, so an upcast dot is the fp8 dot) where f16 rows are; else
/// none.
std::optional<mgpu::MmaElementKind>
chooseWMMAKind(const MUSAArchInfo &arch, TargetKind target,
               mgpu::MmaElementKind kind) {
  if (!loweredRows(mgpu::MatrixUnitKind::WMMA, arch, target, kind).empty())
    return kind;
  bool fp8 =
      kind == mgpu::MmaElementKind::E4M3 || kind == mgpu::MmaElementKind::E5M2;
  if (fp8 && !loweredRows(mgpu::MatrixUnitKind::WMMA, arch, target,
                          mgpu::MmaElementKind::F16)
                  .empty())
    return mgpu::MmaElementKind::F16;
  return std::nullopt;
}

/// selectWMMA on `wmmaKind` rows for a dot of `kind` operands, which are
/// upcast first where the kinds differ.
DotPath selectWMMAWithUpcast(triton::DotOp dot, const MUSAArchInfo &arch,
                             TargetKind target, mgpu::MmaElementKind kind,
                             mgpu::MmaElementKind wmmaKind, unsigned numWarps) {
  DotPath path = selectWMMA(dot, arch, target, wmmaKind, numWarps);
  if (path.wmma && wmmaKind != kind)
    path.upcastTo = Float16Type::get(dot.getContext());
  return path;
}

DotPath selectDotPath(triton::DotOp dot, const MUSAArchInfo &arch,
                      TargetKind target, unsigned numWarps, bool enableMMA,
                      bool enableSQMMA) {
  if (!arch.matrixUnit)
    return stayOnFMA((arch.name + " has no matrix unit").str());
  if (!enableMMA)
    return stayOnFMA("matrix units disabled (ENABLE_MUSA_MMA=0)");

  auto aType = cast<RankedTensorType>(dot.getA().getType());
  auto bType = cast<RankedTensorType>(dot.getB().getType());
  Type aElem = aType.getElementType(), bElem = bType.getElementType();
  if (aElem != bElem)
    return stayOnFMA("operand types differ (" + typeName(aElem) + " x " +
               typeName(bElem) + ")");
  std::optional<mgpu::MmaElementKind> kind = mgpu::getMmaElementKind(aElem);
  if (!kind)
    return stayOnFMA(typeName(aElem) + " operands have no matrix instruction");
  if (*kind == mgpu::MmaElementKind::TF32 &&
      dot.getInputPrecision() != triton::InputPrecision::TF32)
    return stayOnFMA("f32 operands with input_precision = " +
               triton::stringifyInputPrecision(dot.getInputPrecision()).str() +
               " (only tf32 takes a matrix path)");
  if (arch.matrixUnit == mgpu::MatrixUnitKind::SQMMA) {
    DotPath path = enableSQMMA
                       ? selectSQMMA(dot, arch, target, *kind, numWarps)
                       : stayOnFMA("SQMMA disabled (MUSA_ENABLE_SQMMA=0)");
    // PH1's 32-lane WMMA takes the f16/bf16 dots that no SQMMA instruction
    // can (num_warps 1 or 2, shapes off the SQMMA tables), or all of them
    // with SQMMA switched off; fp8 ones upcast to f16.
    if (path.sqmma)
      return path;
    std::optional<mgpu::MmaElementKind> wmmaKind =
        chooseWMMAKind(arch, target, *kind);
    if (!wmmaKind)
      return path;
    DotPath wmma = selectWMMAWithUpcast(dot, arch, target, *kind, *wmmaKind,
                                        numWarps);
    if (!wmma.wmma)
      wmma.reason = path.reason + "; " + wmma.reason;
    return wmma;
  }
  std::optional<mgpu::MmaElementKind> wmmaKind =
      chooseWMMAKind(arch, target, *kind);
  return selectWMMAWithUpcast(dot, arch, target, *kind, wmmaKind.value_or(*kind),
                              numWarps);
}

/// Why no `kind` WMMA instruction of `arch` is lowered, quoting the rows.
std::string noLoweredWMMA(const MUSAArchInfo &arch, TargetKind target,
                          mgpu::MmaElementKind kind) {
  SmallVector<const mgpu::MatrixInstr *> rows = mgpu::getMatrixInstrs(
      mgpu::MatrixUnitKind::WMMA, arch.major, target, kind);
  std::string kindName = mgpu::stringifyMmaElementKind(kind).str();
  if (rows.empty())
    return arch.name.str() + " has no " + kindName + " WMMA instruction";
  std::string why = "no " + kindName + " WMMA instruction of " +
                    arch.name.str() + " is lowered (";
  // Rows of one group share their reason: name it once, after its shapes.
  for (auto it = rows.begin(); it != rows.end();) {
    auto end = std::find_if(it, rows.end(), [&](const mgpu::MatrixInstr *r) {
      return r->notLowered != (*it)->notLowered;
    });
    why += it == rows.begin() ? "" : "; ";
    for (auto s = it; s != end; ++s)
      why += (s == it ? "" : ", ") + (*s)->shapeName();
    why += ": " + (*it)->notLowered.str();
    it = end;
  }
  return why + ")";
}

/// WMMA for a dot whose operand types have passed selectDotPath's checks
/// (`kind` is set): whole instructions of a lowered row, the largest that
/// tiles the dot (PH1: m16n16k32 where K allows, as the open MUSA backend
/// prefers; fewer instructions), warps from chooseWarps.
DotPath selectWMMA(triton::DotOp dot, const MUSAArchInfo &arch,
                   TargetKind target, mgpu::MmaElementKind kind,
                   unsigned numWarps) {
  auto aType = cast<RankedTensorType>(dot.getA().getType());
  auto dType = cast<RankedTensorType>(dot.getD().getType());
  Type accElem = dType.getElementType();
  SmallVector<const mgpu::MatrixInstr *> rows =
      loweredRows(mgpu::MatrixUnitKind::WMMA, arch, target, kind);
  if (rows.empty())
    return stayOnFMA(noLoweredWMMA(arch, target, kind));
  if (std::optional<std::string> why =
          unsupportedAccumulator(accElem, kind, "WMMA"))
    return stayOnFMA(*why);
  unsigned rank = dType.getRank();
  int64_t m = dType.getShape()[rank - 2], n = dType.getShape()[rank - 1];
  int64_t k = aType.getShape()[rank - 1];
  const mgpu::MatrixInstr *atom = nullptr;
  for (const mgpu::MatrixInstr *row : rows) {
    if (m % row->m || n % row->n || k % row->k)
      continue;
    if (!atom || int64_t(row->m) * row->n * row->k >
                     int64_t(atom->m) * atom->n * atom->k)
      atom = row;
  }
  if (!atom) {
    std::string names;
    for (const mgpu::MatrixInstr *row : rows)
      names += (names.empty() ? "" : ", ") + row->shapeName();
    return stayOnFMA(llvm::formatv("shape {0}x{1}x{2} is not a multiple of "
                                   "the {3} atom{4}",
                                   m, n, k, names, rows.size() > 1 ? "s" : "")
                         .str());
  }
  SmallVector<unsigned> warps;
  if (rank == 2) {
    warps = chooseWarps(m, n, *atom, numWarps);
  } else {
    // Batched: warps go to the batch first (each batch is an independent
    // sequence of 2-D atoms, so a warp there shares no operand with another;
    // Triton's NVIDIA MMA layouts put a batched dot's warps on the batch the
    // same way), as many as it has, the rest tile M x N as for a 2-D dot.
    int64_t batch = dType.getShape()[0];
    unsigned wb = std::min<int64_t>(numWarps, batch);
    SmallVector<unsigned> mn = chooseWarps(m, n, *atom, numWarps / wb);
    warps = {wb, mn[0], mn[1]};
  }
  DotPath path;
  path.wmma = atom;
  path.warpsPerCTA = std::move(warps);
  return path;
}

/// `value` in the layout of `type`: a splat constant (an accumulator's zero
/// init, say) is rebuilt in that layout, which moves no data and needs no
/// shared-memory scratch; anything else is converted.
Value convertLayout(OpBuilder &b, Location loc, RankedTensorType type,
                    Value value) {
  DenseElementsAttr splat;
  if (matchPattern(value, m_Constant(&splat)) && splat.isSplat())
    return arith::ConstantOp::create(b, loc, type, splat.resizeSplat(type));
  return ttg::ConvertLayoutOp::create(b, loc, type, value);
}

/// Gives the buffer `load` reads a layout whose fragment reads spread over
/// the banks (FragmentReads.h), where it is an immutable `ttg.local_alloc`
/// of a tensor (Triton's promoted dot operand), read only by local_loads,
/// in a plain swizzled layout; the pipeline then rings it in that layout.
void relayoutForFragmentReads(ttg::LocalLoadOp load) {
  auto alloc = load.getSrc().getDefiningOp<ttg::LocalAllocOp>();
  if (!alloc || !alloc.getSrc() || alloc.getType().getMutableMemory() ||
      !isa<ttg::SwizzledSharedEncodingAttr>(alloc.getType().getEncoding()) ||
      !llvm::all_of(alloc->getUsers(), llvm::IsaPred<ttg::LocalLoadOp>))
    return;
  ttg::MemDescType type = alloc.getType();
  auto order = cast<ttg::SwizzledSharedEncodingAttr>(type.getEncoding()).getOrder();
  Attribute encoding = getFragmentReadEncoding(
      alloc.getContext(), type.getShape(), type.getElementTypeBitWidth(),
      order);
  alloc.getResult().setType(ttg::MemDescType::get(
      type.getShape(), type.getElementType(), encoding, type.getMemorySpace(),
      /*mutableMemory=*/false));
}

/// `value` converted to `encoding` (looking through a convert_layout that
/// produced it, so that chains collapse).
Value convertTo(OpBuilder &b, Location loc, Value value, Attribute encoding) {
  if (auto cvt = value.getDefiningOp<ttg::ConvertLayoutOp>())
    value = cvt.getSrc();
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getEncoding() == encoding)
    return value;
  auto newType =
      RankedTensorType::get(type.getShape(), type.getElementType(), encoding);
  // An operand read from shared memory (e.g. a pipelined ring buffer) for
  // this dot alone is read straight into the new layout: no scratch.
  if (auto load = value.getDefiningOp<ttg::LocalLoadOp>();
      load && load->hasOneUse()) {
    load.getResult().setType(newType);
    if (isa<mgpu::WMMAOperandEncodingAttr>(encoding))
      relayoutForFragmentReads(load);
    return load.getResult();
  }
  return convertLayout(b, loc, newType, value);
}

/// A narrow float accumulator (f16, bf16; see unsupportedAccumulator) in
/// the unit's layout, widened to the f32 the instruction accumulates in; any
/// other accumulator as it is. A splat (a zero init) folds to an f32 splat.
Value widenAccumulator(OpBuilder &b, Location loc, Value acc) {
  auto type = cast<RankedTensorType>(acc.getType());
  Type elem = type.getElementType();
  if (!isa<FloatType>(elem) || elem.isF32())
    return acc;
  Value wide =
      b.createOrFold<arith::ExtFOp>(loc, type.clone(b.getF32Type()), acc);
  if (Operation *narrow = acc.getDefiningOp();
      narrow && narrow->use_empty() && isMemoryEffectFree(narrow))
    narrow->erase();
  return wide;
}

/// The unit's result `d` rounded once to the accumulator type `accType` the
/// dot had (widenAccumulator's inverse; round to nearest even).
Value roundToAccumulatorType(OpBuilder &b, Location loc, Value d,
                             Type accType) {
  if (d.getType() == accType)
    return d;
  return arith::TruncFOp::create(b, loc, accType, d);
}

/// Replaces `dot` by `result`, then erases what fed its operands and is
/// now unused: the conversions into the FMA operand layouts or local_loads
/// the unit's operands replaced, and an immutable buffer whose last load
/// went.
void replaceDot(triton::DotOp dot, Value result) {
  SmallVector<Operation *> inputs = {dot.getA().getDefiningOp()};
  if (dot.getB().getDefiningOp() != inputs.front())
    inputs.push_back(dot.getB().getDefiningOp());
  dot.getD().replaceAllUsesWith(result);
  dot.erase();
  for (Operation *input : inputs) {
    if (!isa_and_nonnull<ttg::ConvertLayoutOp, ttg::LocalLoadOp>(input) ||
        !input->use_empty())
      continue;
    Operation *source = input->getOperand(0).getDefiningOp();
    input->erase();
    if (isa_and_nonnull<ttg::MemDescTransOp>(source) && source->use_empty()) {
      Operation *transposed = source->getOperand(0).getDefiningOp();
      source->erase();
      source = transposed;
    }
    if (isa_and_nonnull<ttg::LocalAllocOp>(source) && source->use_empty())
      source->erase();
  }
}

mgpu::WMMAOp rewriteToWMMA(triton::DotOp dot, const MUSAArchInfo &arch,
                   const DotPath &path) {
  MLIRContext *ctx = dot.getContext();
  const mgpu::MatrixInstr &atom = *path.wmma;
  // The encoding names the fragment only where it is not the device's.
  auto acc = mgpu::WMMAEncodingAttr::get(
      ctx, arch.major, arch.minor, path.warpsPerCTA, {atom.m, atom.n, atom.k},
      atom.isFor(TargetKind::Device) ? mgpu::MatrixFragment::None
                                     : atom.fragment);
  auto opA = mgpu::WMMAOperandEncodingAttr::get(ctx, 0, acc);
  auto opB = mgpu::WMMAOperandEncodingAttr::get(ctx, 1, acc);
  OpBuilder b(dot);
  Location loc = dot.getLoc();
  Value a = convertTo(b, loc, dot.getA(), opA);
  Value bb = convertTo(b, loc, dot.getB(), opB);
  if (path.upcastTo) {
    // In the fragment layout, after the operands' reads: exact (see
    // chooseWMMAKind), so no rounding mode.
    auto upcast = [&](Value v) -> Value {
      auto type = cast<RankedTensorType>(v.getType());
      return triton::FpToFpOp::create(b, loc, type.clone(path.upcastTo), v,
                                      triton::RoundingModeAttr());
    };
    a = upcast(a);
    bb = upcast(bb);
  }
  Value c = convertTo(b, loc, dot.getC(), acc);
  Type accType = c.getType(); // widenAccumulator may erase c's splat
  Value wideC = widenAccumulator(b, loc, c);
  auto wmma = mgpu::WMMAOp::create(b, loc, wideC.getType(), a, bb, wideC);
  auto dType = cast<RankedTensorType>(dot.getD().getType());
  Value d = ttg::ConvertLayoutOp::create(
      b, loc, dType, roundToAccumulatorType(b, loc, wmma.getD(), accType));
  replaceDot(dot, d);
  return wmma;
}

/// Keeps a K loop's accumulator in the matrix unit's layout: where the
/// accumulator operand `accOperand` (of musagpu.wmma / musagpu.sqmma) is an
/// scf.for iter_arg used only by its conversion into that layout, and
/// `accResult` (the op's result, after the SQMMA wait) is converted back
/// only to be yielded into the same iter_arg, the loop carries the WMMA layout itself
/// and the two conversions move out of the loop (before it: the init; after
/// it: the result).
void carryAccumulatorInLayout(OpOperand &accOperand, Value accResult) {
  // A widened accumulator: the loop carries the narrow type in the unit's
  // layout, widened and rounded in each iteration as without a loop.
  if (auto widen = accOperand.get().getDefiningOp<arith::ExtFOp>()) {
    auto round = accResult.hasOneUse()
                     ? dyn_cast<arith::TruncFOp>(*accResult.user_begin())
                     : arith::TruncFOp();
    if (round && widen->hasOneUse())
      carryAccumulatorInLayout(widen->getOpOperand(0), round.getResult());
    return;
  }
  auto toAcc = accOperand.get().getDefiningOp<ttg::ConvertLayoutOp>();
  if (!toAcc || !accResult.hasOneUse())
    return;
  auto arg = dyn_cast<BlockArgument>(toAcc.getSrc());
  auto loop = arg ? dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp())
                  : scf::ForOp();
  if (!loop || arg.getArgNumber() == 0 || !arg.hasOneUse() ||
      !toAcc->hasOneUse() || toAcc->getParentOp() != loop)
    return;
  unsigned idx = arg.getArgNumber() - 1;
  auto back = dyn_cast<ttg::ConvertLayoutOp>(*accResult.user_begin());
  if (!back || !back->hasOneUse())
    return;
  auto yield = dyn_cast<scf::YieldOp>(*back->user_begin());
  if (!yield || yield->getParentOp() != loop ||
      yield.getOperand(idx) != back.getResult() ||
      llvm::count(yield->getOperands(), back.getResult()) != 1)
    return;
  Type accType = accOperand.get().getType();
  Type plainType = arg.getType();
  OpBuilder b(loop);
  OpOperand &init = loop.getInitArgsMutable()[idx];
  init.set(convertLayout(b, loop.getLoc(), cast<RankedTensorType>(accType),
                        init.get()));
  arg.setType(accType);
  toAcc.getResult().replaceAllUsesWith(arg);
  toAcc.erase();
  yield->setOperand(idx, accResult);
  back.erase();
  Value result = loop.getResult(idx);
  result.setType(accType);
  // The conversion back goes right before the result's first use: the
  // pipeliner's final wait and buffer deallocations after the loop then come
  // first, so its shared-memory scratch does not add to the live ring buffers.
  b.setInsertionPointAfter(loop);
  for (Operation *op = loop->getNextNode(); op; op = op->getNextNode())
    if (llvm::any_of(op->getOperands(),
                     [&](Value operand) { return operand == result; }) ||
        op->getNumRegions() != 0) {
      b.setInsertionPoint(op);
      break;
    }
  auto out = ttg::ConvertLayoutOp::create(b, loop.getLoc(), plainType, result);
  result.replaceAllUsesExcept(out.getResult(), out);
}

void setAlignment(ttg::LocalAllocOp alloc, int64_t alignment) {
  int64_t current = alloc.getAlignment().value_or(0);
  if (alignment > current)
    alloc->setAttr("alignment",
                   IntegerAttr::get(IntegerType::get(alloc.getContext(), 32),
                                    alignment));
}

/// `encoding` of a memdesc_trans result (permutation `order`: result dim d
/// is source dim order[d]) as seen on its source: the same bytes, the
/// source's dims from fastest to slowest.
mgpu::TMESharedEncodingAttr
encodingBeforeTranspose(mgpu::TMESharedEncodingAttr encoding,
                        ArrayRef<int32_t> order) {
  SmallVector<unsigned> sourceOrder;
  for (unsigned dim : encoding.getOrder())
    sourceOrder.push_back(order[dim]);
  return mgpu::TMESharedEncodingAttr::get(
      encoding.getContext(), encoding.getSwizzleGranularity(),
      encoding.getSwizzleStride(), encoding.getSwizzleLine(),
      encoding.getElementBitWidth(), sourceOrder);
}

/// The SQMMA buffers stored so far, per (stored tensor, encoding): a tensor
/// that feeds several dots (`a` and `b` of `tl.dot(a, b, acc)` and
/// `tl.dot(a, b, out_dtype=...)`) is stored once.
using SQMMABufferCache = llvm::DenseMap<std::pair<Value, Attribute>, Value>;

/// `tensor` stored into a buffer in `encoding`: right after the op that
/// defines it, once (the buffer dominates every dot that reads it, and a
/// loop-invariant operand is stored outside the loop); a block argument is
/// stored at the dot, for that dot alone.
Value storeSQMMAOperand(OpBuilder &b, Location loc, Value tensor,
                        mgpu::TMESharedEncodingAttr encoding,
                        SQMMABufferCache &cache) {
  Operation *def = tensor.getDefiningOp();
  std::pair<Value, Attribute> key{tensor, encoding};
  if (Value buffer = def ? cache.lookup(key) : Value())
    return buffer;
  OpBuilder::InsertionGuard guard(b);
  if (def)
    b.setInsertionPointAfter(def);
  auto type = cast<RankedTensorType>(tensor.getType());
  auto memType = ttg::MemDescType::get(
      type.getShape(), type.getElementType(), encoding,
      ttg::SharedMemorySpaceAttr::get(b.getContext()));
  auto alloc = ttg::LocalAllocOp::create(b, loc, memType, tensor);
  setAlignment(alloc, encoding.getSwizzlePeriodBytes());
  if (def)
    cache[key] = alloc.getResult();
  return alloc.getResult();
}

/// Operand `opIdx` of `dot` as a shared buffer in `encoding`: a copy of the
/// tensor it holds.
Value toSQMMAOperand(OpBuilder &b, Location loc, Value operand,
                     mgpu::TMESharedEncodingAttr encoding,
                     SQMMABufferCache &cache) {
  // An operand Triton promoted through an immutable buffer
  // (`local_load(local_alloc %x)`): %x itself is stored, once for all the
  // dots that read it, and the old buffer goes with its last load.
  if (auto load = operand.getDefiningOp<ttg::LocalLoadOp>())
    if (auto alloc = load.getSrc().getDefiningOp<ttg::LocalAllocOp>();
        alloc && alloc.getSrc())
      return storeSQMMAOperand(b, loc, alloc.getSrc(), encoding, cache);
  // Triton's transpose in shared memory (`tl.trans`, `.T`:
  // `local_load(memdesc_trans(local_alloc %x))`): %x is stored in the
  // layout seen through the transpose, and the sqmma reads the transposed
  // view.
  if (auto load = operand.getDefiningOp<ttg::LocalLoadOp>())
    if (auto trans = load.getSrc().getDefiningOp<ttg::MemDescTransOp>())
      if (auto alloc = trans.getSrc().getDefiningOp<ttg::LocalAllocOp>();
          alloc && alloc.getSrc()) {
        Value buffer = storeSQMMAOperand(
            b, loc, alloc.getSrc(),
            encodingBeforeTranspose(encoding, trans.getOrder()), cache);
        auto bufferType = cast<ttg::MemDescType>(buffer.getType());
        auto viewType = ttg::MemDescType::get(
            trans.getType().getShape(), bufferType.getElementType(), encoding,
            bufferType.getMemorySpace(), bufferType.getMutableMemory());
        return ttg::MemDescTransOp::create(b, loc, viewType, buffer,
                                           trans.getOrder());
      }
  // Store the tensor in its own layout, not the FMA operand layout (which
  // replicates each row or column across threads).
  if (auto cvt = operand.getDefiningOp<ttg::ConvertLayoutOp>())
    operand = cvt.getSrc();
  return storeSQMMAOperand(b, loc, operand, encoding, cache);
}

/// Moves `wait` down its block past the side-effect-free ops that follow
/// it (index and pointer arithmetic, memdesc views), so the matrix unit
/// overlaps them: it stops at the first op that uses the accumulator, has
/// any memory effect (a copy refilling the ring slot the sqmma reads, a
/// load, a barrier, another sqmma), has regions, or ends the block.
void sinkWait(mgpu::SQMMAWaitOp wait) {
  Operation *stop = wait->getNextNode();
  auto usesWait = [&](Operation *op) {
    return llvm::any_of(op->getOperands(), [&](Value v) {
      return v.getDefiningOp() == wait.getOperation();
    });
  };
  while (stop && !stop->hasTrait<OpTrait::IsTerminator>() &&
         stop->getNumRegions() == 0 && isMemoryEffectFree(stop) &&
         !usesWait(stop))
    stop = stop->getNextNode();
  if (stop && stop != wait->getNextNode())
    wait->moveBefore(stop);
}

void rewriteToSQMMA(triton::DotOp dot, const MUSAArchInfo &arch,
                    const DotPath &path, SQMMABufferCache &cache) {
  MLIRContext *ctx = dot.getContext();
  const SQMMAChoice &choice = *path.sqmma;
  const mgpu::MatrixInstr &row = *choice.instr;
  auto acc = mgpu::SQMMAEncodingAttr::get(ctx, arch.major, arch.minor,
                                          path.warpsPerCTA,
                                          {row.m, row.n, row.k}, row.fragment);
  auto aType = cast<RankedTensorType>(dot.getA().getType());
  auto bType = cast<RankedTensorType>(dot.getB().getType());
  unsigned bits = aType.getElementTypeBitWidth();
  // A batched operand's buffer keeps the batch outermost: batch b's 2-D
  // operand follows batch b - 1's (SQMMAOpToLLVM.cpp addresses it so).
  unsigned rank = cast<RankedTensorType>(dot.getD().getType()).getRank();
  auto orderOf = [&](bool innerIsRow) {
    SmallVector<unsigned> order = innerIsRow
                                      ? SmallVector<unsigned>{rank - 2, rank - 1}
                                      : SmallVector<unsigned>{rank - 1, rank - 2};
    if (rank == 3)
      order.push_back(0);
    return order;
  };
  // Bytes along an operand's contiguous dimension (its whole tile: the
  // proxy's swizzle is the widest that rows of that many bytes fill).
  auto innerBytes = [&](RankedTensorType type, bool innerIsRow) {
    return type.getShape()[innerIsRow ? rank - 2 : rank - 1] * bits / 8;
  };
  auto encA = mgpu::TMESharedEncodingAttr::getForMatrixOperand(
      ctx, row.fragment, 0, orderOf(choice.transA), bits,
      innerBytes(aType, choice.transA));
  auto encB = mgpu::TMESharedEncodingAttr::getForMatrixOperand(
      ctx, row.fragment, 1, orderOf(choice.transB), bits,
      innerBytes(bType, choice.transB));
  OpBuilder b(dot);
  Location loc = dot.getLoc();
  Value a = toSQMMAOperand(b, loc, dot.getA(), encA, cache);
  Value bb = toSQMMAOperand(b, loc, dot.getB(), encB, cache);
  Value c = convertTo(b, loc, dot.getC(), acc);
  Type accType = c.getType(); // widenAccumulator may erase c's splat
  Value wideC = widenAccumulator(b, loc, c);
  auto sqmma = mgpu::SQMMAOp::create(b, loc, wideC.getType(), a, bb, wideC,
                                     choice.transA, choice.transB);
  auto wait = mgpu::SQMMAWaitOp::create(b, loc, ValueRange{sqmma.getD()});
  auto dType = cast<RankedTensorType>(dot.getD().getType());
  Value d = ttg::ConvertLayoutOp::create(
      b, loc, dType,
      roundToAccumulatorType(b, loc, wait.getResult(0), accType));
  replaceDot(dot, d);
  carryAccumulatorInLayout(sqmma.getCMutable(), wait.getResult(0));
  sinkWait(wait);
}

struct MUSAAccelerateMatmul
    : public mlir::triton_musa::impl::MUSAAccelerateMatmulBase<
          MUSAAccelerateMatmul> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<const MUSAArchInfo *> arch =
        resolveMUSAArch(module, this->arch, "--musa-accelerate-matmul");
    if (failed(arch))
      return signalPassFailure();
    std::optional<ttg::ModuleLaunchInfo> launch =
        ttg::getModuleLaunchInfo(module);
    if (!launch) {
      module.emitError("--musa-accelerate-matmul: the module has no "
                       "ttg.num-warps / ttg.threads-per-warp");
      return signalPassFailure();
    }
    SQMMABufferCache sqmmaBuffers;
    SmallVector<triton::DotOp> dots;
    module.walk([&](triton::DotOp dot) { dots.push_back(dot); });
    for (triton::DotOp dot : dots) {
      DotPath path = selectDotPath(dot, **arch, target, launch->numWarps, enableMMA,
                                   enableSQMMA);
      if (path.wmma) {
        mgpu::WMMAOp wmma = rewriteToWMMA(dot, **arch, path);
        carryAccumulatorInLayout(wmma.getCMutable(), wmma.getD());
        continue;
      }
      if (path.sqmma) {
        rewriteToSQMMA(dot, **arch, path, sqmmaBuffers);
        continue;
      }
      dot->setAttr(kReasonAttr, StringAttr::get(dot.getContext(), path.reason));
    }
  }
};

} // namespace
