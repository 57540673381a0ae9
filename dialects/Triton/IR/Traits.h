//===- Traits.h - Op traits shared by the tt and ttg dialects ------------===//
//
// Triton-specific structural checks that MLIR's builtin traits do not cover:
// tensor encodings must agree, and tensor sizes must be what Triton's front
// end can produce. Encodings are compared as opaque attributes so that these
// traits do not depend on the ttg dialect.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_DIALECTS_TRITON_IR_TRAITS_H
#define TRITON_MUSA_DIALECTS_TRITON_IR_TRAITS_H

#include "mlir/IR/OpDefinition.h"
#include "mlir/Support/LLVM.h"

namespace mlir {
namespace triton {
/// Largest number of elements a Triton tensor may have.
constexpr int64_t kMaxTensorNumElements = 1 << 20;

LogicalResult verifySameEncoding(Operation *op, bool includeResults);
LogicalResult verifyTensorSizes(Operation *op);
} // namespace triton

namespace OpTrait {
namespace triton {

template <typename ConcreteType>
class SameOperandsAndResultEncoding
    : public TraitBase<ConcreteType, SameOperandsAndResultEncoding> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return ::mlir::triton::verifySameEncoding(op, /*includeResults=*/true);
  }
};

template <typename ConcreteType>
class SameOperandsEncoding
    : public TraitBase<ConcreteType, SameOperandsEncoding> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return ::mlir::triton::verifySameEncoding(op, /*includeResults=*/false);
  }
};

template <typename ConcreteType>
class TensorSizeTrait : public TraitBase<ConcreteType, TensorSizeTrait> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return ::mlir::triton::verifyTensorSizes(op);
  }
};

} // namespace triton
} // namespace OpTrait
} // namespace mlir

#endif // TRITON_MUSA_DIALECTS_TRITON_IR_TRAITS_H
