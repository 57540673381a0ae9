//===- TemporaryLayoutConversion.cpp - Stand-in for LayoutConversion -----===//
//
// TEMPORARY (see the header).
//
//===----------------------------------------------------------------------===//

#include "conversion/TritonGPUToMUSA/TemporaryLayoutConversion.h"

#include "dialects/TritonGPU/IR/Dialect.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using triton_musa::LinearLayout;

namespace {
using Bases = std::vector<LinearLayout::Basis>;

std::string dimName(unsigned d) { return "dim" + std::to_string(d); }

FailureOr<LinearLayout> build(std::vector<LinearLayout::DimBases> in,
                              ArrayRef<int64_t> shape,
                              function_ref<InFlightDiagnostic()> emitError) {
  std::vector<LinearLayout::DimSize> outs;
  for (auto [d, s] : llvm::enumerate(shape))
    outs.push_back({dimName(d), int32_t(s)});
  auto ll = LinearLayout::get(in, outs);
  if (!ll) {
    std::string msg = llvm::toString(ll.takeError());
    return emitError() << "invalid linear layout: " << msg;
  }
  return std::move(*ll);
}

FailureOr<LinearLayout>
blockedToLL(ArrayRef<int64_t> shape, triton::gpu::BlockedEncodingAttr blocked,
            function_ref<InFlightDiagnostic()> emitError) {
  if (!blocked.getCgaBases().empty())
    return emitError() << "blocked layouts over several CTAs are not supported "
                          "yet";
  unsigned rank = shape.size();
  auto spt = blocked.getSizePerThread();
  auto tpw = blocked.getThreadsPerWarp();
  auto wpc = blocked.getWarpsPerCTA();
  auto order = blocked.getOrder();
  Bases reg, lane, warp, repeat;
  auto unit = [&](unsigned d, int64_t v) {
    LinearLayout::Basis b(rank, 0);
    b[d] = int32_t(v);
    return b;
  };
  for (unsigned d : order) {
    int64_t s = spt[d], t = tpw[d], w = wpc[d];
    for (int64_t v = 1; v < s; v *= 2)
      reg.push_back(unit(d, v));
    for (int64_t v = 1; v < t; v *= 2)
      lane.push_back(unit(d, s * v));
    for (int64_t v = 1; v < w; v *= 2)
      warp.push_back(unit(d, s * t * v));
    for (int64_t v = s * t * w; v < shape[d]; v *= 2)
      repeat.push_back(unit(d, v));
  }
  reg.insert(reg.end(), repeat.begin(), repeat.end());
  // A tile larger than the tensor: registers past the edge are dropped,
  // lanes and warps past it hold copies (broadcast).
  auto fits = [&](const LinearLayout::Basis &b) {
    for (unsigned d = 0; d < rank; ++d)
      if (b[d] >= shape[d])
        return false;
    return true;
  };
  Bases fittedReg;
  for (auto &b : reg)
    if (fits(b))
      fittedReg.push_back(b);
  for (Bases *bs : {&lane, &warp})
    for (auto &b : *bs)
      if (!fits(b))
        b.assign(rank, 0);
  return build({{"register", fittedReg}, {"lane", lane}, {"warp", warp},
                {"block", {}}},
               shape, emitError);
}
} // namespace

FailureOr<LinearLayout> triton_musa::temporary::toLinearLayout(
    ArrayRef<int64_t> shape, Attribute layout,
    function_ref<InFlightDiagnostic()> emitError) {
  for (int64_t s : shape)
    if (s <= 0 || !llvm::isPowerOf2_64(s))
      return emitError() << "tensor dimensions must be powers of two";
  if (auto blocked = dyn_cast<triton::gpu::BlockedEncodingAttr>(layout))
    return blockedToLL(shape, blocked, emitError);
  if (auto slice = dyn_cast<triton::gpu::SliceEncodingAttr>(layout)) {
    unsigned dim = slice.getDim();
    SmallVector<int64_t> parentShape(shape);
    parentShape.insert(parentShape.begin() + dim, 1);
    auto parent = toLinearLayout(parentShape, slice.getParent(), emitError);
    if (failed(parent))
      return failure();
    std::vector<LinearLayout::DimBases> in;
    for (const auto &[name, bases] : parent->getBases()) {
      Bases dropped;
      for (const auto &b : bases) {
        LinearLayout::Basis nb(b);
        nb.erase(nb.begin() + dim);
        dropped.push_back(nb);
      }
      in.push_back({name, dropped});
    }
    return build(in, shape, emitError);
  }
  return emitError() << "layout " << layout
                     << " is not supported by the linear-layout conversion yet";
}
