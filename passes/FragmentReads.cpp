//===- FragmentReads.cpp - Buffers read into register fragments -----------===//

#include "passes/FragmentReads.h"

#include "dialects/TritonGPU/IR/Dialect.h"

#include <algorithm>

using namespace mlir;
namespace ttg = mlir::triton::gpu;

Attribute mlir::triton_musa::getFragmentReadEncoding(MLIRContext *ctx,
                                                     ArrayRef<int64_t> shape,
                                                     unsigned elementBits,
                                                     ArrayRef<unsigned> order) {
  constexpr int64_t kChunkBytes = 16, kBankGroups = 8;
  int64_t elementBytes = std::max<int64_t>(1, elementBits / 8);
  int64_t rowBytes = shape[order.front()] * elementBytes;
  unsigned vec = kChunkBytes / elementBytes;
  unsigned maxPhase =
      std::clamp<int64_t>(rowBytes / kChunkBytes, 1, kBankGroups);
  unsigned perPhase = kBankGroups / maxPhase;
  return ttg::SwizzledSharedEncodingAttr::get(ctx, vec, perPhase, maxPhase,
                                              order);
}
