//===- LLVM14Compat.h - Make an LLVM 22 module readable by LLVM 14 -------===//
//
// The MUSA SDK's `llc` is LLVM 14. Our module is built and optimized by
// LLVM 22, whose IR has grown since. Two steps bring it back:
//
// 1. makeLLVM14Compatible (LLVM14Compat.cpp) edits the module in memory:
//    - instruction flags newer than 14 are cleared: `nneg` (zext, uitofp),
//      `disjoint` (or), `samesign` (icmp), `nuw`/`nsw` on trunc, GEP
//      `nuw`/`nusw`/`inrange` (only `inbounds` stays), fast-math flags on
//      fptrunc/fpext; also in constant expressions;
//    - attributes LLVM 14 does not know are dropped (`range`, `nofpclass`,
//      `initializes`, `writable`, `dead_on_unwind`, `dead_on_return`, ...:
//      everything outside LLVM 14's attribute list); `memory(...)` is widened
//      to the nearest effect LLVM 14 can spell, `captures(...)` other than
//      `captures(none)` is dropped;
//    - metadata kinds that LLVM 22 fixes but LLVM 14 did not are dropped;
//      debug records are dropped;
//    - intrinsics: `llvm.lifetime.*` get back their i64 size argument,
//      `llvm.masked.{load,store,gather,scatter}` their i32 alignment
//      argument; `llvm.scmp`/`llvm.ucmp` are expanded to compares,
//      `llvm.ldexp` to exact multiplications by powers of two,
//      `llvm.is.fpclass` to integer tests on the bits; any other
//      intrinsic LLVM 14 does not have, and atomicrmw operations newer than
//      14, are reported as errors naming them.
// 2. printLLVM14Module (LLVM14Print.cpp) prints the module and respells what
//    is only syntax: `splat (T v)` -> `<T v, T v, ...>`, `memory(...)` ->
//    readnone/readonly/writeonly/argmemonly/inaccessiblememonly/
//    inaccessiblemem_or_argmemonly, `captures(none)` -> `nocapture`; then
//    checks that no token newer than LLVM 14 is left.
//
// Step 2 relies on step 1: without it the module's text is not LLVM 14 IR.
//
//===----------------------------------------------------------------------===//
#ifndef TRITON_MUSA_CONVERSION_LLVMIREXPORT_LLVM14COMPAT_H
#define TRITON_MUSA_CONVERSION_LLVMIREXPORT_LLVM14COMPAT_H

#include "llvm/Support/Error.h"

#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace mlir::triton_musa {

/// Rewrites `module` in place (see the file comment). The module no longer
/// passes LLVM 22's verifier afterwards (e.g. lifetime intrinsics take their
/// LLVM 14 signature): print it with printLLVM14Module and drop it.
llvm::Error makeLLVM14Compatible(llvm::Module &module);

/// Prints a module prepared by makeLLVM14Compatible as LLVM 14 IR text.
llvm::Expected<std::string> printLLVM14Module(const llvm::Module &module);

} // namespace mlir::triton_musa

#endif // TRITON_MUSA_CONVERSION_LLVMIREXPORT_LLVM14COMPAT_H
