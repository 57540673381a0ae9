//===- MUSAIntrinsics.h - The table of llvm.musa.* intrinsics ---*- C++ -*-===//
//
// Every `llvm.musa.*` function the compiler may emit has one entry in the
// table in MUSAIntrinsics.cpp: its LLVM signature and what it may do (the
// attributes of its declaration and calls). Nothing else decides either: the
// MUSA target declares its calls from the entry (callMUSAIntrinsic checks the
// operands against it), and the LLVM IR export refuses any `llvm.musa.*`
// declaration the table does not give, and applies the entry's attributes.
//
// An entry is a single name or a family whose name has parameters, e.g.
// `llvm.musa.tme.ld.tile.<N>d`; the types of an instance are computed from
// its parameters (and, for WMMA, from the architecture's warp size). The
// table is checked against the public record of MUSA's spellings
// (test/data/MUSA-INTRINSICS.txt) by test/python/test_musa_intrinsics.py.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_TARGET_MUSAINTRINSICS_H
#define TRITON_MUSA_TARGET_MUSAINTRINSICS_H

#include "target/LLVMCalls.h"
#include "target/MUSAArch.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Types.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <string>

namespace mlir::triton_musa {

/// Unit attribute the MUSA target puts on a module that calls an intrinsic
/// whose entry says `sharedMemoryFromZero`: llc must then place shared
/// memory at address 0 (`-mtgpu-alloc-shared-memory-from-zero=1`).
inline constexpr llvm::StringLiteral kSharedMemoryFromZeroAttrName =
    "musagpu.shared_memory_from_zero";

/// The parameters of a family instance, by placeholder name ("N", "tag").
using IntrinsicParams = llvm::StringMap<std::string>;

/// The LLVM signature of one intrinsic: `result` null for void.
struct MUSAIntrinsicSignature {
  Type result;
  SmallVector<Type> operands;
};

/// One entry of the table.
struct MUSAIntrinsicEntry {
  /// The name, with `<param>` placeholders for a family.
  StringRef pattern;
  /// What a call may do: the attributes of the declaration and its calls.
  CalleeKind kind;
  /// Calling it requires shared memory to start at address 0 (SQMMA
  /// descriptors encode absolute shared addresses, MUSA-FACTS.md).
  bool sharedMemoryFromZero;
  /// Where the public record (test/data/MUSA-INTRINSICS.txt) shows the
  /// spelling, and for each deliberate difference from it the evidence for
  /// ours. Empty `deviation`: the entry agrees with the record.
  StringRef evidence;
  StringRef deviation;
  /// The signature of the instance with `params` on `arch`; fails with the
  /// reason in `why` for parameters the family does not have.
  FailureOr<MUSAIntrinsicSignature> (*signature)(MLIRContext *ctx,
                                                 const IntrinsicParams &params,
                                                 const MUSAArchInfo &arch,
                                                 std::string &why);
};

/// Every entry of the table.
ArrayRef<MUSAIntrinsicEntry> getMUSAIntrinsicEntries();

/// One intrinsic resolved on an architecture.
struct MUSAIntrinsic {
  const MUSAIntrinsicEntry *entry;
  MUSAIntrinsicSignature signature;
};

/// The intrinsic `name` on `arch`; fails with the reason in `why` when no
/// entry has the name (or the family not those parameters).
FailureOr<MUSAIntrinsic> lookupMUSAIntrinsic(MLIRContext *ctx, StringRef name,
                                             const MUSAArchInfo &arch,
                                             std::string &why);

/// `signature` as an `llvm.func` type.
LLVM::LLVMFunctionType getFunctionType(MLIRContext *ctx,
                                       const MUSAIntrinsicSignature &signature);

/// `type` as LLVM IR spells it ("i32", "float", "<4 x i32>",
/// "ptr addrspace(3)"; "void" for null), the spelling of the public record.
std::string getLLVMTypeSpelling(Type type);

/// Calls `name` on `arch` with `args`, declared (on first use) and called
/// with the attributes of its entry; reports at `loc` and fails when the
/// table has no such intrinsic or `args` do not have its operand types.
/// Returns the result, null for a void intrinsic.
FailureOr<Value> callMUSAIntrinsic(OpBuilder &b, Location loc,
                                   const MUSAArchInfo &arch, StringRef name,
                                   ValueRange args);

} // namespace mlir::triton_musa

#endif // TRITON_MUSA_TARGET_MUSAINTRINSICS_H
