//===- Emulator.h - Load a kernel for the CPU emulator ---------*- C++ -*-===//
//
// The CPU emulator runs kernels compiled by the same pipeline as for the
// device, lowered with `--convert-tritongpu-to-musa{target=emulator}` (so
// hardware hooks are calls into emulator/Runtime.h). Loading one:
//
//  1. parses the LLVM-dialect module and translates it to LLVM IR for the
//     host (triple and data layout of the machine running Python);
//  2. instruments it: a bounds and alignment check before every global
//     (addrspace 1) and shared (addrspace 3) load, store and atomic (inline
//     against the thread's FastBounds where no fiber switch is due); integer
//     divisions by zero divide by 1 instead of trapping (as on a GPU, masked
//     lanes may divide by their `other` 0); and, if asked, a counter of the
//     instructions each basic block executes;
//  3. adds the entry trampoline `void __musa_emu_entry(const i64 *slots)`
//     that reads each kernel parameter from its 8-byte slot (integers and
//     floats in the low bytes, little endian; pointers as addresses);
//  4. optimizes at O2, turns each run of independent warp shuffles into one
//     exchange (batchWarpShuffles), compiles to an object file for the host
//     CPU (without the vector bf16 conversions that flush subnormals) and links
//     it with ORC (LLJIT), resolving runtime functions to the runtime and
//     everything else (libm) in the process.
//
// The object file and what the launcher needs to know of the kernel form
// its cache image (getCacheImage): loadCached links an image again without
// parsing, instrumenting or compiling anything, so that a process whose
// Triton cache holds the image (emulator_launcher.py) does not compile the
// kernel again. An image is only valid for the library that wrote it and a
// host of the same CPU (getHostTarget).
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_EMULATOR_EMULATOR_H
#define TRITON_MUSA_EMULATOR_EMULATOR_H

#include "emulator/Runtime.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm::orc {
class LLJIT;
} // namespace llvm::orc

namespace mlir::triton_musa::emulator {

struct LoadOptions {
  /// Count executed LLVM IR instructions (slower; for benchmarks).
  bool countInstructions = false;
  /// Optimization level of the host code, 0..3.
  unsigned optLevel = 2;
  /// Generate the host code without optimizing it (LLVM's fast instruction
  /// selection and register allocation) after the IR pipeline of `optLevel`:
  /// two to seven times cheaper to compile, the code 10-40% slower. The
  /// launcher uses it for a kernel's first launches.
  bool fastCodeGeneration = false;
};

/// A kernel JIT-compiled for the host, ready to launch.
class EmulatedKernel {
public:
  /// Loads the single kernel (`musa.kernel` function) of `llvmDialectText`.
  static llvm::Expected<std::unique_ptr<EmulatedKernel>>
  load(const std::string &llvmDialectText, const LoadOptions &options);
  /// Links a kernel from a cache image written by getCacheImage.
  static llvm::Expected<std::unique_ptr<EmulatedKernel>>
  loadCached(llvm::StringRef image);
  ~EmulatedKernel();

  /// The kernel's cache image: its metadata, host IR and object file.
  std::string getCacheImage() const;
  /// The host the object code is compiled for: triple, CPU and features.
  static std::string getHostTarget();

  const std::string &getName() const { return name; }
  /// Parameter kinds in order: "ptr", "i1", "i8", "i16", "i32", "i64",
  /// "f16", "bf16", "f32", "f64".
  const std::vector<std::string> &getParamKinds() const { return params; }
  /// From the module attributes "ttg.num-warps", "ttg.threads-per-warp",
  /// "ttg.shared" (0 where absent).
  unsigned getNumWarps() const { return numWarps; }
  unsigned getWarpSize() const { return warpSize; }
  uint64_t getSharedBytes() const { return sharedBytes; }
  /// The host LLVM IR after instrumentation and optimization.
  const std::string &getHostIR() const { return hostIR; }

  /// Runs the kernel; `slots` holds one 8-byte slot per parameter.
  llvm::Expected<LaunchStats> launch(const std::vector<uint64_t> &slots,
                                     LaunchConfig config) const;

private:
  EmulatedKernel() = default;
  /// Links `objectCode` and looks up the entry trampoline.
  llvm::Error link();

  std::string name;
  std::vector<std::string> params;
  unsigned numWarps = 0, warpSize = 0;
  uint64_t sharedBytes = 0;
  std::string hostIR;
  std::string objectCode;
  std::unique_ptr<llvm::orc::LLJIT> jit;
  EntryFn entry = nullptr;
};

} // namespace mlir::triton_musa::emulator

#endif // TRITON_MUSA_EMULATOR_EMULATOR_H
