//===- HopperFragments.cpp - NVIDIA Hopper matrix fragments ---------------===//

#include "layouts/HopperFragments.h"

#include "llvm/Support/MathExtras.h"

#include <string>
#include <vector>

using namespace mlir::triton_musa;

llvm::Expected<LinearLayout>
mlir::triton_musa::getWGMMAAccumulatorLayout(int64_t m, int64_t n) {
  if (m < kWGMMARows || m % kWGMMARows || !llvm::isPowerOf2_64(m / kWGMMARows))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "a wgmma accumulator tile has a power-of-two multiple of 64 rows, "
        "got " +
        std::to_string(m));
  if (n < 8 || n > 256 || !llvm::isPowerOf2_64(n))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "a wgmma accumulator tile (as a linear layout) has a power-of-two "
        "number of columns from 8 to 256, got " +
        std::to_string(n));
  using Basis = LinearLayout::Basis;
  auto row = [](int32_t r) { return Basis{r, 0}; };
  auto col = [](int32_t c) { return Basis{0, c}; };
  // Register r = e + 2i + 4j (+ (n/2) t for instruction t): e the column's
  // low bit, i the second group of 8 rows, j the 8-column group.
  std::vector<Basis> registers = {col(1), row(8)};
  for (int32_t c = 8; c < n; c *= 2)
    registers.push_back(col(c));
  for (int32_t r = kWGMMARows; r < m; r *= 2)
    registers.push_back(row(r));
  // Lane l: column 2 (l % 4), row l / 4.
  std::vector<Basis> lanes = {col(2), col(4), row(1), row(2), row(4)};
  // Warp w of the warpgroup: rows 16w.
  std::vector<Basis> warps = {row(16), row(32)};
  std::vector<LinearLayout::DimBases> bases = {
      {kRegister, registers}, {kLane, lanes}, {kWarp, warps}};
  std::vector<LinearLayout::DimSize> outDims = {{"dim0", int32_t(m)},
                                                {"dim1", int32_t(n)}};
  return LinearLayout::get(bases, outDims);
}
