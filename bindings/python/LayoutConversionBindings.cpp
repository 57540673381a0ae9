//===- LayoutConversionBindings.cpp - Python face of layout conversion ----===//
//
// Parses a layout attribute from its text (e.g. "#ttg.blocked<{...}>") in a
// context holding our dialects and converts it for a given shape. One
// context serves every call: loading the dialects per call would dominate.
//
//===----------------------------------------------------------------------===//

#include "bindings/python/LayoutConversionBindings.h"
#include "layouts/LayoutConversion.h"
#include "registration/InitAll.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace nb = nanobind;

namespace {

mlir::MLIRContext &getLayoutContext() {
  static std::unique_ptr<mlir::MLIRContext> context = [] {
    mlir::DialectRegistry registry;
    mlir::triton_musa::registerAllDialects(registry);
    auto ctx = std::make_unique<mlir::MLIRContext>(
        registry, mlir::MLIRContext::Threading::DISABLED);
    ctx->loadAllAvailableDialects();
    return ctx;
  }();
  return *context;
}

triton_musa::LinearLayout layoutToLinear(const std::string &text,
                                         const std::vector<int64_t> &shape) {
  mlir::MLIRContext &ctx = getLayoutContext();
  std::string messages;
  mlir::ScopedDiagnosticHandler handler(&ctx, [&](mlir::Diagnostic &diag) {
    if (!messages.empty())
      messages += "\n";
    messages += diag.str();
    for (mlir::Diagnostic &note : diag.getNotes())
      messages += "\nnote: " + note.str();
    return mlir::success();
  });
  mlir::Attribute layout = mlir::parseAttribute(text, &ctx);
  if (!layout)
    throw nb::value_error(
        ("cannot parse layout attribute '" + text + "': " + messages).c_str());
  mlir::FailureOr<triton_musa::LinearLayout> result =
      triton_musa::toLinearLayout(shape, layout, [&ctx] {
        return mlir::emitError(mlir::UnknownLoc::get(&ctx));
      });
  if (mlir::failed(result))
    throw nb::value_error(messages.empty() ? "layout conversion failed"
                                           : messages.c_str());
  return std::move(*result);
}

} // namespace

void bindLayoutConversion(nb::module_ &m) {
  m.def("layout_to_linear", &layoutToLinear, nb::arg("layout"),
        nb::arg("shape"),
        "The linear layout of a ttg/musagpu layout attribute (given as text) "
        "for a tensor of `shape`: register/lane/warp/block (distributed) or "
        "offset/block (shared) -> dim0..dim{rank-1}. Raises ValueError with "
        "the diagnostic on parse errors and unsupported layouts.");
}
