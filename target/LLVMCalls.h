//===- LLVMCalls.h - Calls, declarations and globals for targets -*- C++ -*-===//
//
// What every implementation of the target interface needs to emit calls:
// one get-or-declare of external functions (checking the type of an existing
// declaration), string constants as module globals, C printf argument
// promotion, entry-block allocas, and the splitting of a shuffled value into
// the integer chunks a shuffle primitive moves.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_TARGET_LLVMCALLS_H
#define TRITON_MUSA_TARGET_LLVMCALLS_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace mlir::triton_musa {

/// An i32 `llvm.mlir.constant`.
Value i32Const(OpBuilder &b, Location loc, int64_t value);

/// The module around the builder's insertion point.
ModuleOp getParentModule(OpBuilder &b);

/// What an external callee may do; it decides the attributes of its
/// declaration and of each call.
enum class CalleeKind {
  /// Reads ids of the calling thread: no memory effects, returns, never
  /// unwinds; CSE and LICM may merge or move it.
  ReadNone,
  /// Barrier, shuffle, vote or anything that synchronizes threads: must not
  /// be made control dependent on more or fewer values (convergent).
  Convergent,
  /// A library routine with side effects (printf, assert): never unwinds.
  SideEffects,
};

/// The external function `name` of `type` in the module around the builder,
/// declared on first use. An existing symbol of another type is reported at
/// `loc` (which fails the pass) and null is returned.
LLVM::LLVMFuncOp getOrDeclareFunction(OpBuilder &b, Location loc,
                                      StringRef name,
                                      LLVM::LLVMFunctionType type,
                                      CalleeKind kind);

/// Calls the external function `name` (declared from the argument types and
/// `result`, null for void) with the call attributes `kind` asks for.
/// Returns the result, or null for a void callee or on a type clash.
Value callFunction(OpBuilder &b, Location loc, StringRef name, Type result,
                   ValueRange args, CalleeKind kind);

/// Generic pointer to a NUL-terminated copy of `text` held in an internal
/// constant global `<prefix>_<n>` of address space `addressSpace`;
/// identical strings share one global.
Value getGlobalString(OpBuilder &b, Location loc, StringRef prefix,
                      StringRef text, unsigned addressSpace);

/// A slot of `type` in address space `addressSpace`, allocated once at the
/// entry of the function around the builder (so a call in a loop does not
/// grow the stack).
Value getEntryAlloca(OpBuilder &b, Location loc, Type type,
                     unsigned addressSpace);

/// C's default argument promotions for printf: integers narrower than 32
/// bits zero-extended to i32, floats extended to f64, pointers cast to the
/// generic address space. Fails (reporting at `loc`) on wider integers and
/// floats or other types.
FailureOr<SmallVector<Value>> promotePrintfArguments(OpBuilder &b,
                                                     Location loc,
                                                     ValueRange args);

/// Reads the i32 special register `<prefix>.<reg>.<x|y|z>` (`dim` 0, 1, 2),
/// e.g. `llvm.nvvm.read.ptx.sreg.tid.x`, through its read-none intrinsic.
Value readSpecialRegister(OpBuilder &b, Location loc, StringRef prefix,
                          StringRef reg, unsigned dim);

/// Moves `value` (an integer or float of at most 64 bits) through
/// `shuffleChunk`, which shuffles one integer of `chunkBits`: narrower values
/// are zero-extended to one chunk, wider ones split into chunks, low first.
Value shuffleInChunks(OpBuilder &b, Location loc, Value value,
                      unsigned chunkBits,
                      llvm::function_ref<Value(Value chunk)> shuffleChunk);

/// CUDA-style device printf, `i32 vprintf(ptr format, ptr args)`: the
/// format a global string in `stringAddressSpace`, `args` the promoted
/// arguments laid out as a C struct in an entry-block buffer of
/// `bufferAddressSpace` (passed as a generic pointer; null without
/// arguments). Fails (reporting at `loc`) on an argument printf cannot take.
LogicalResult emitVprintf(OpBuilder &b, Location loc, StringRef format,
                          ValueRange args, unsigned stringAddressSpace,
                          unsigned bufferAddressSpace);

/// CUDA-style `void __assertfail(ptr message, ptr file, i32 line,
/// ptr function, i64 charSize)`, which reports and traps; the strings are
/// globals in `stringAddressSpace`.
void emitAssertFail(OpBuilder &b, Location loc, StringRef message,
                    StringRef file, unsigned line, StringRef function,
                    unsigned stringAddressSpace);

/// The block's shared memory as one external, zero-length array
/// `global_smem` in `addressSpace`, whose size the launcher sets (as for
/// NVIDIA's dynamic shared memory): declared once per module, and a pointer
/// to its byte 0.
void declareDynamicSharedMemory(ModuleOp module, unsigned addressSpace);
Value getDynamicSharedMemoryBase(OpBuilder &b, Location loc,
                                 unsigned addressSpace);

} // namespace mlir::triton_musa

#endif // TRITON_MUSA_TARGET_LLVMCALLS_H
