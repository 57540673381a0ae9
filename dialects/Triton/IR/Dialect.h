//===- Dialect.h - The tt dialect (Triton 3.6 IR) ------------------------===//
//
// The one header to include for the tt dialect: dialect, types, enums, traits
// and ops.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_DIALECTS_TRITON_IR_DIALECT_H
#define TRITON_MUSA_DIALECTS_TRITON_IR_DIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialects/Triton/IR/Traits.h"

#include "dialects/Triton/IR/TritonDialect.h.inc"
#include "dialects/Triton/IR/TritonEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/Triton/IR/TritonTypes.h.inc"

namespace mlir {
namespace triton {

/// The memory resource of global loads, stores and atomics.
struct GlobalMemory : public SideEffects::Resource::Base<GlobalMemory> {
  StringRef getName() final { return "<GlobalMemory>"; }
};

/// True for a pointer whose pointee is a ranked tensor (a block pointer).
bool isTensorPointerType(Type type);

/// `!tt.ptr<T>` -> `T`; a tensor of pointers -> the tensor of pointees (same
/// shape and encoding). Any other type is returned unchanged, so the result
/// is never null: callers compare it and report a mismatch.
Type getPointeeType(Type type);

/// An i1 type with the shape and encoding of `type` (plain i1 for scalars
/// and block pointers).
Type getI1SameShape(Type type);

/// `!tt.ptr<tensor<..xT>, as>` -> `!tt.ptr<T, as>`; other types unchanged.
Type getBlockPointerBaseType(Type type);

} // namespace triton
} // namespace mlir

#define GET_OP_CLASSES
#include "dialects/Triton/IR/TritonOps.h.inc"

#endif // TRITON_MUSA_DIALECTS_TRITON_IR_DIALECT_H
