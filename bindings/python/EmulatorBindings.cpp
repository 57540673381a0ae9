//===- EmulatorBindings.cpp - Python face of the CPU emulator -------------===//

#include "bindings/python/EmulatorBindings.h"

#include "emulator/Emulator.h"
#include "emulator/HostMath.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/unique_ptr.h>
#include <nanobind/stl/vector.h>

#include <cstring>
#include <stdexcept>

namespace nb = nanobind;
using namespace mlir::triton_musa::emulator;

namespace {

/// Raised (as `_musa_mlir.EmulatorError`) for load and launch failures.
struct EmulatorError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

template <typename T> T unwrap(llvm::Expected<T> value) {
  if (!value)
    throw EmulatorError(llvm::toString(value.takeError()));
  return std::move(*value);
}

/// `LaunchConfig::liveBuffers` calling the Python callable `fn`: borrowed
/// (the launch's caller holds it), so copies of the lookup made without the
/// GIL touch no reference count. Called from a thread of the runtime's.
LiveBufferLookup lookUpLiveBuffers(PyObject *fn) {
  return [fn]() -> llvm::Expected<std::vector<Buffer>> {
    nb::gil_scoped_acquire gil;
    try {
      std::vector<Buffer> buffers;
      for (auto &[base, bytes, name] :
           nb::cast<std::vector<std::tuple<uint64_t, uint64_t, std::string>>>(
               nb::handle(fn)()))
        buffers.push_back({base, bytes, name});
      return buffers;
    } catch (const std::exception &e) {
      return llvm::createStringError(e.what());
    }
  };
}

} // namespace

void bindEmulator(nb::module_ &m) {
  nb::exception<EmulatorError>(m, "EmulatorError", PyExc_RuntimeError);

  nb::class_<EmulatedKernel>(m, "EmulatedKernel",
                             "A kernel JIT-compiled for the CPU emulator.")
      .def_prop_ro("name", &EmulatedKernel::getName)
      .def_prop_ro("param_kinds", &EmulatedKernel::getParamKinds,
                   "Kinds of the kernel parameters: 'ptr', 'i1'..'i64', "
                   "'f16', 'bf16', 'f32', 'f64'.")
      .def_prop_ro("num_warps", &EmulatedKernel::getNumWarps)
      .def_prop_ro("warp_size", &EmulatedKernel::getWarpSize)
      .def_prop_ro("shared_bytes", &EmulatedKernel::getSharedBytes)
      .def_prop_ro("host_ir", &EmulatedKernel::getHostIR,
                   "The instrumented, optimized host LLVM IR.")
      .def(
          "cache_image",
          [](const EmulatedKernel &kernel) {
            std::string image = kernel.getCacheImage();
            return nb::bytes(image.data(), image.size());
          },
          "The kernel's cache image (metadata, host IR, object file), which "
          "emulator_load_cached links again without compiling.")
      .def(
          "launch",
          [](const EmulatedKernel &kernel,
             std::tuple<uint32_t, uint32_t, uint32_t> grid, nb::bytes slots,
             std::vector<std::tuple<uint64_t, uint64_t, std::string>> buffers,
             unsigned numWorkers, uint64_t stackBytes, bool raceCheck,
             nb::object liveBuffers) {
            if (slots.size() % 8 != 0)
              throw std::invalid_argument(
                  "slots must hold a multiple of 8 bytes");
            std::vector<uint64_t> words(slots.size() / 8);
            std::memcpy(words.data(), slots.c_str(), slots.size());
            LaunchConfig config;
            config.grid = {std::get<0>(grid), std::get<1>(grid),
                           std::get<2>(grid)};
            for (auto &[base, bytes, name] : buffers)
              config.buffers.push_back({base, bytes, name});
            config.numWorkers = numWorkers;
            config.stackBytes = stackBytes;
            config.raceCheck = raceCheck;
            if (!liveBuffers.is_none())
              config.liveBuffers = lookUpLiveBuffers(liveBuffers.ptr());
            llvm::Expected<LaunchStats> stats = [&] {
              nb::gil_scoped_release release;
              return kernel.launch(words, config);
            }();
            LaunchStats result = unwrap(std::move(stats));
            return std::make_tuple(result.instructions, result.blocks);
          },
          nb::arg("grid"), nb::arg("slots"), nb::arg("buffers"),
          nb::arg("num_workers") = 0, nb::arg("stack_bytes") = 0,
          nb::arg("race_check") = false, nb::arg("live_buffers").none() = nb::none(),
          "Runs the kernel over `grid` (x, y, z). `slots` packs one 8-byte "
          "little-endian slot per parameter; `buffers` lists (base, bytes, "
          "name) of the memory it may access. Returns (instructions, "
          "blocks); raises EmulatorError naming the kernel, program id, "
          "thread and address of a bad access. `race_check` reports "
          "conflicting shared-memory accesses between two barriers. "
          "`live_buffers`, a callable returning more (base, bytes, name), "
          "is called once, on the first access outside every buffer, and "
          "names the other memory the kernel may access (the launcher's "
          "live torch CPU tensors, for pointers loaded from memory).");

  m.def(
      "emulator_load",
      [](const std::string &text, bool countInstructions, unsigned optLevel,
         bool fastCodegen) {
        LoadOptions options;
        options.countInstructions = countInstructions;
        options.optLevel = optLevel > 3 ? 3 : optLevel;
        options.fastCodeGeneration = fastCodegen;
        return unwrap(EmulatedKernel::load(text, options));
      },
      nb::arg("llvm_dialect"), nb::arg("count_instructions") = false,
      nb::arg("opt_level") = 2, nb::arg("fast_codegen") = false,
      "JIT-compiles the kernel of an LLVM-dialect module lowered for the "
      "emulator target; raises EmulatorError. `fast_codegen` generates the "
      "host code without optimizing it (cheaper to compile, slower to run).");

  m.def(
      "emulator_load_cached",
      [](nb::bytes image) {
        return unwrap(EmulatedKernel::loadCached(
            llvm::StringRef(image.c_str(), image.size())));
      },
      nb::arg("image"),
      "Links a kernel from its cache_image() (written by this library on a "
      "host of the same CPU); raises EmulatorError for a bad image.");

  m.def(
      "emulator_host_target",
      [] { return EmulatedKernel::getHostTarget(); },
      "The host the emulator compiles for: triple, CPU and its features "
      "(part of the object cache's key).");

  m.def(
      "emulator_host_math_symbols",
      [] {
        std::vector<std::string> names;
        for (auto [name, address] : hostMathSymbols())
          names.emplace_back(name);
        return names;
      },
      "The libdevice symbols the emulator binds to host implementations.");
}
