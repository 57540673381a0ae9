//===- WarpSpecialize.h - A planned loop as producer and consumers -*- C++ -*-===//
//
// The warp-specialized expansion of a plan (mp_31): one producer warp
// streams the loop's TME tiles into the rings, the kernel's warps consume
// them with SQMMA, and two async barriers per slot order them ("full": the
// tiles landed; "empty": every consumer warp is done reading the slot).
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_PASSES_PIPELINE_WARPSPECIALIZE_H
#define TRITON_MUSA_PASSES_PIPELINE_WARPSPECIALIZE_H

#include "passes/pipeline/LoopPlan.h"
#include "target/TargetInfo.h"

#include <string>

namespace mlir::triton_musa::pipeline {

/// The loop attribute of `tl.range(..., warp_specialize=True)`.
constexpr StringLiteral kWarpSpecializeAttr = "tt.warp_specialize";

/// Why `plan`'s loop cannot run warp-specialized for `targetInfo`, or ""
/// when it can.
std::string whyNotWarpSpecialized(const LoopPlan &plan,
                                  const TargetInfo &targetInfo);

/// Async barrier ids the warp-specialized expansion of `plan` takes.
int32_t countWarpSpecializedBarriers(const LoopPlan &plan);

/// Rewrites `plan`'s loop (one whyNotWarpSpecialized accepts) into a
/// `ttg.warp_specialize`: the loop in the default region, reading the ring
/// slots in place after waiting for their full barriers and releasing each
/// slot once its SQMMA is waited for; a one-warp partition with the loop's
/// TME loads, waiting for a slot's empty barrier before refilling it. The
/// barriers are ids `firstBarrier` on. Sets the module's
/// "ttg.total-num-warps".
void expandWarpSpecialized(LoopPlan &plan, int32_t firstBarrier);

} // namespace mlir::triton_musa::pipeline

#endif // TRITON_MUSA_PASSES_PIPELINE_WARPSPECIALIZE_H
