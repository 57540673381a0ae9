//===- Instrumentation.h - The emulator's passes over host IR ---*- C++ -*-===//
//
// Private to emulator/: the passes Emulator.cpp runs over a kernel's host
// LLVM IR before and after optimizing it (Emulator.h lists the steps).
// Instrumentation.cpp checks every global and shared access and counts
// executed instructions; Batching.cpp turns runs of stores and of warp
// shuffles into one runtime call each. What they insert is named in
// target/EmulatorABI.h, the runtime's side of the contract.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_EMULATOR_INSTRUMENTATION_H
#define TRITON_MUSA_EMULATOR_INSTRUMENTATION_H

#include "llvm/ADT/DenseMap.h"

#include <utility>
#include <vector>

namespace llvm {
class Function;
class Module;
class Value;
} // namespace llvm

namespace mlir::triton_musa::emulator {

/// Which global pointers may not derive from a kernel parameter: the
/// accesses the runtime may accept inside a live tensor that is not an
/// argument (see kLoadedPointerAccess). A pointer derives from a parameter
/// when every value it is computed from, back through address arithmetic
/// (a GEP's base, an inttoptr of integer arithmetic over a ptrtoint), casts,
/// phis, selects and the structs and vectors the lowering packs pointers
/// in, is a pointer parameter of the kernel or null. Anything else it
/// reaches (a loaded pointer or integer, an integer parameter, a parameter
/// of a function the kernel calls, a call) may hold any address.
class PointerProvenance {
public:
  explicit PointerProvenance(const llvm::Function &kernel) : kernel(kernel) {}

  bool mayBeLoaded(llvm::Value *ptr);

private:
  const llvm::Function &kernel;
  llvm::DenseMap<llvm::Value *, bool> cache;
};

/// A check call before every global and shared load, store and atomic
/// (switching to the other threads first where LockstepPlan says so).
void instrumentMemoryAccesses(llvm::Module &module,
                              const llvm::Function &kernel);
/// Runs of stores of a thread as one kStoreBatch call each; runs before
/// instrumentMemoryAccesses.
void batchStores(llvm::Module &module, const llvm::Function &kernel);
/// Runs of independent warp shuffles as one kShuffleBatch call each; runs
/// after the optimization.
void batchWarpShuffles(llvm::Module &module);
/// Integer divisions by zero (and INT_MIN / -1) divide by 1 instead.
void guardIntegerDivisions(llvm::Module &module);
/// A call adding each basic block's instruction count to the total.
void instrumentInstructionCount(llvm::Module &module);

/// The host helpers Emulator.cpp binds (half and bfloat conversions), which
/// touch no kernel memory.
std::vector<std::pair<const char *, void *>> hostHelperSymbols();

} // namespace mlir::triton_musa::emulator

#endif // TRITON_MUSA_EMULATOR_INSTRUMENTATION_H
