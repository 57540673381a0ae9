//===- LayoutConversionBindings.cpp - Python face of layout conversion ----===//
//
// Parses a layout attribute from its text (e.g. "#ttg.blocked<{...}>") in a
// context holding our dialects and converts it for a given shape. One
// context serves every call: loading the dialects per call would dominate.
//
//===----------------------------------------------------------------------===//

#include "bindings/python/LayoutConversionBindings.h"
#include "dialects/TritonGPU/IR/Dialect.h"
#include "layouts/LayoutConversion.h"
#include "registration/InitAll.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Bindings/Python/NanobindAdaptors.h"
#include "mlir/CAPI/IR.h"
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

/// Collects the context's diagnostics while alive.
class DiagnosticText {
public:
  explicit DiagnosticText(mlir::MLIRContext &ctx)
      : handler(&ctx, [this](mlir::Diagnostic &diag) {
          if (!messages.empty())
            messages += "\n";
          messages += diag.str();
          for (mlir::Diagnostic &note : diag.getNotes())
            messages += "\nnote: " + note.str();
          return mlir::success();
        }) {}

  std::string messages;

private:
  mlir::ScopedDiagnosticHandler handler;
};

mlir::triton_musa::LinearLayout layoutToLinear(const std::string &text,
                                         const std::vector<int64_t> &shape) {
  mlir::MLIRContext &ctx = getLayoutContext();
  DiagnosticText diagnostics(ctx);
  std::string &messages = diagnostics.messages;
  mlir::Attribute layout = mlir::parseAttribute(text, &ctx);
  if (!layout)
    throw nb::value_error(
        ("cannot parse layout attribute '" + text + "': " + messages).c_str());
  mlir::FailureOr<mlir::triton_musa::LinearLayout> result =
      mlir::triton_musa::toLinearLayout(shape, layout, [&ctx] {
        return mlir::emitError(mlir::UnknownLoc::get(&ctx));
      });
  if (mlir::failed(result))
    throw nb::value_error(messages.empty() ? "layout conversion failed"
                                           : messages.c_str());
  return std::move(*result);
}

/// The same for a layout attribute of the bindings (triton_musa.mlir.ir).
mlir::triton_musa::LinearLayout
attributeToLinear(MlirAttribute attribute, const std::vector<int64_t> &shape) {
  mlir::Attribute layout = unwrap(attribute);
  mlir::MLIRContext *ctx = layout.getContext();
  DiagnosticText diagnostics(*ctx);
  mlir::FailureOr<mlir::triton_musa::LinearLayout> result =
      mlir::triton_musa::toLinearLayout(shape, layout, [ctx] {
        return mlir::emitError(mlir::UnknownLoc::get(ctx));
      });
  if (mlir::failed(result))
    throw nb::value_error(diagnostics.messages.empty()
                              ? "layout conversion failed"
                              : diagnostics.messages.c_str());
  return std::move(*result);
}

/// The layout of a tensor or !ttg.memdesc type given as text.
mlir::triton_musa::LinearLayout typeToLinear(const std::string &text) {
  mlir::MLIRContext &ctx = getLayoutContext();
  DiagnosticText diagnostics(ctx);
  mlir::Type type = mlir::parseType(text, &ctx);
  if (!type)
    throw nb::value_error(("cannot parse type '" + text +
                           "': " + diagnostics.messages)
                              .c_str());
  mlir::FailureOr<mlir::triton_musa::LinearLayout> result = mlir::failure();
  if (auto tensor = mlir::dyn_cast<mlir::RankedTensorType>(type))
    result = mlir::triton_musa::toLinearLayout(tensor);
  else if (auto memdesc = mlir::dyn_cast<mlir::triton::gpu::MemDescType>(type))
    result = mlir::triton_musa::toLinearLayout(memdesc);
  else
    throw nb::value_error(("'" + text +
                           "' is neither a ranked tensor nor a !ttg.memdesc")
                              .c_str());
  if (mlir::failed(result))
    throw nb::value_error(diagnostics.messages.empty()
                              ? "layout conversion failed"
                              : diagnostics.messages.c_str());
  return std::move(*result);
}

} // namespace

void bindLayoutConversion(nb::module_ &m) {
  m.def("layout_to_linear", &attributeToLinear, nb::arg("layout"),
        nb::arg("shape"),
        "The linear layout of a layout attribute of triton_musa.mlir.ir for a "
        "tensor of `shape`.");
  m.def("layout_to_linear", &layoutToLinear, nb::arg("layout"),
        nb::arg("shape"),
        "The linear layout of a ttg/musagpu layout attribute (given as text) "
        "for a tensor of `shape`: register/lane/warp/block (distributed) or "
        "offset/block (shared) -> dim0..dim{rank-1}. Raises ValueError with "
        "the diagnostic on parse errors and unsupported layouts.");
  m.def("type_to_linear", &typeToLinear, nb::arg("type"),
        "The linear layout of a tensor type (its encoding over its shape) or "
        "of a !ttg.memdesc (its encoding over the allocation shape, without "
        "a multi-buffer leading dimension), given as text. Raises ValueError "
        "with the diagnostic.");
}
