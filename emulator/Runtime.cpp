//===- Runtime.cpp - The runtime functions by name ------------------------===//
//
// runtimeSymbols(): the runtime functions by the names of
// target/EmulatorABI.h, each file of the runtime contributing its own
// (RuntimeState.h lists them); and the device's printf and assertions,
// which need no state of the runtime.
//
//===----------------------------------------------------------------------===//

#include "emulator/RuntimeState.h"

#include <cstdarg>
#include <cstdio>

using namespace mlir::triton_musa::emulator;
using namespace mlir::triton_musa::emulator::runtime;

extern "C" {

/// Device printf: one whole line per call, under a lock so that lines of
/// threads of blocks running in parallel do not interleave.
static int32_t emuPrintf(const char *format, ...) {
  static std::mutex printMutex;
  std::lock_guard<std::mutex> lock(printMutex);
  va_list args;
  va_start(args, format);
  int result = std::vfprintf(stdout, format, args);
  va_end(args);
  std::fflush(stdout);
  return int32_t(result);
}

/// A failed tl.device_assert: stops the block; the launch reports it.
static void emuAssertFail(const char *message, const char *file, int32_t line,
                          const char *function) {
  failThread(llvm::formatv("device assertion failed: {0} at {1}:{2} in {3}",
                           message, file, line, function)
                 .str());
}

} // extern "C"

std::vector<std::pair<const char *, void *>>
mlir::triton_musa::emulator::runtimeSymbols() {
  RuntimeSymbols symbols = {
      {abi::kPrintf.data(), reinterpret_cast<void *>(&emuPrintf)},
      {abi::kAssertFail.data(), reinterpret_cast<void *>(&emuAssertFail)},
  };
  appendSynchronizationSymbols(symbols);
  appendMemoryCheckSymbols(symbols);
  appendAsyncBarrierSymbols(symbols);
  appendMatrixMultiplySymbols(symbols);
  return symbols;
}
