//===- HopperFragments.h - NVIDIA Hopper matrix fragments -------*- C++ -*-===//
//
// The register fragments of NVIDIA Hopper's warpgroup MMA (wgmma), as linear
// layouts: the GPU proxy's rows of the matrix-instruction catalogue run
// SQMMA as wgmma (target/ProxyTargetInfo.cpp), so an SQMMA accumulator on
// the proxy is held the way wgmma holds it, not the way PH1 does.
//
// wgmma.mma_async.m64nNk* (PTX ISA, "Matrix Fragments for wgmma"): the 4
// warps of a warpgroup compute a 64 x N tile; warp w owns rows 16w..16w+15,
// and lane l of it holds rows 16w + l/4 + 8i (i < 2), columns
// 8j + 2(l % 4) + e (e < 2, j < N/8), registers ordered j, then i, then e:
// N/2 accumulators per thread.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_LAYOUTS_HOPPERFRAGMENTS_H
#define TRITON_MUSA_LAYOUTS_HOPPERFRAGMENTS_H

#include "layouts/LinearLayout.h"

#include <cstdint>

namespace mlir::triton_musa {

/// Rows of one wgmma instruction: a warpgroup computes 64 x N.
constexpr int64_t kWGMMARows = 64;
/// Warps of a warpgroup.
constexpr int64_t kWarpgroupWarps = 4;

/// The accumulator of one warpgroup (4 warps) covering an `m` x `n` tile
/// with m / 64 wgmma.m64n<n> instructions stacked along M: "register",
/// "lane" (32) and "warp" (4) -> "dim0" (row, size m) and "dim1" (column,
/// size n). Registers hold the first instruction's n / 2 accumulators in
/// the PTX order above, then the next instruction's (rows + 64), and so on,
/// so instruction t's fragment is registers [t * n/2, (t + 1) * n/2).
/// Fails unless m is a power-of-two multiple of 64 and n a power of two
/// from 8 to 256 (the linear-layout subset of wgmma's N, multiples of 8).
llvm::Expected<LinearLayout> getWGMMAAccumulatorLayout(int64_t m, int64_t n);

} // namespace mlir::triton_musa

#endif // TRITON_MUSA_LAYOUTS_HOPPERFRAGMENTS_H
