//===- LinearLayoutBindings.cpp - Python face of LinearLayout -------------===//
//
// A thin wrapper: dimensions travel as ordered dicts {name: size} and bases
// as {input name: [[coordinate per output dim], ...]}; llvm::Error becomes
// ValueError carrying the engine's message.
//
//===----------------------------------------------------------------------===//

#include "bindings/python/LinearLayoutBindings.h"
#include "layouts/HopperFragments.h"
#include "layouts/LinearLayout.h"

#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <utility>
#include <vector>

namespace nb = nanobind;
using mlir::triton_musa::LinearLayout;

namespace {

/// Returns the value or raises ValueError with the error's message.
template <typename T> T unwrap(llvm::Expected<T> value) {
  if (!value)
    throw nb::value_error(llvm::toString(value.takeError()).c_str());
  return std::move(*value);
}

/// nb::cast, with a TypeError that says what was expected on failure.
template <typename T> T castOrThrow(nb::handle value, const char *expected) {
  try {
    return nb::cast<T>(value);
  } catch (const nb::cast_error &) {
    throw nb::type_error(
        (std::string("linear layout: expected ") + expected + ", got " +
         nb::cast<std::string>(nb::repr(value)))
            .c_str());
  }
}

template <typename Pairs> nb::dict toDict(const Pairs &pairs) {
  nb::dict dict;
  for (const auto &[name, value] : pairs)
    dict[nb::str(name.c_str())] = value;
  return dict;
}

std::vector<LinearLayout::DimBases> basesFromDict(const nb::dict &bases) {
  std::vector<LinearLayout::DimBases> dims;
  for (auto [name, list] : bases)
    dims.push_back(
        {castOrThrow<std::string>(name, "an input dimension name (str)"),
         castOrThrow<std::vector<LinearLayout::Basis>>(
             list, "a list of bases (lists of int32)")});
  return dims;
}

/// Accepts {name: size}, [(name, size), ...] or [name, ...] (sizes
/// inferred) and builds the layout accordingly.
LinearLayout buildLayout(const nb::dict &bases, const nb::handle &outDims,
                         bool requireSurjective) {
  std::vector<LinearLayout::DimBases> dims = basesFromDict(bases);
  llvm::Expected<LinearLayout> layout = [&]() -> llvm::Expected<LinearLayout> {
    if (nb::isinstance<nb::dict>(outDims))
      return LinearLayout::get(
          dims, castOrThrow<std::vector<LinearLayout::DimSize>>(
                    nb::borrow<nb::dict>(outDims).items(),
                    "out_dims as {name: size}"));
    if (!nb::isinstance<nb::sequence>(outDims))
      throw nb::type_error("linear layout: out_dims must be {name: size}, "
                           "[(name, size), ...] or [name, ...]");
    std::vector<std::string> names;
    std::vector<LinearLayout::DimSize> sized;
    for (nb::handle item : outDims) {
      if (nb::isinstance<nb::str>(item))
        names.push_back(nb::cast<std::string>(item));
      else
        sized.push_back(castOrThrow<LinearLayout::DimSize>(
            item, "an output dimension name or (name, size)"));
    }
    if (!names.empty() && !sized.empty())
      throw nb::value_error("linear layout: out_dims mixes bare names with "
                            "(name, size) pairs");
    if (!sized.empty())
      return LinearLayout::get(dims, sized);
    return LinearLayout::get(dims, names);
  }();
  LinearLayout result = unwrap(std::move(layout));
  if (requireSurjective && !result.isSurjective())
    throw nb::value_error(("linear layout: not surjective:\n" +
                           result.toString())
                              .c_str());
  return result;
}

nb::dict basesToDict(const LinearLayout &layout) {
  nb::dict dict;
  for (const auto &[name, bases] : layout.getBases()) {
    nb::list list;
    for (const LinearLayout::Basis &basis : bases) {
      nb::list coordinates;
      for (int32_t coordinate : basis)
        coordinates.append(coordinate);
      list.append(coordinates);
    }
    dict[nb::str(name.c_str())] = list;
  }
  return dict;
}

} // namespace

void bindLinearLayout(nb::module_ &m) {
  auto cls = nb::class_<LinearLayout>(
      m, "LinearLayout",
      "A GF(2)-linear map from named input dimensions (register, lane, warp, "
      "block, offset, ...) to named output dimensions (dim0, dim1, ...), all "
      "of power-of-two size. Product: the right operand is the "
      "more-significant part of shared dimensions. Reshape: row-major, the "
      "last dimension most minor.")
      .def(
          "__init__",
          [](LinearLayout *self, const nb::dict &bases,
             const nb::handle &outDims, bool requireSurjective) {
            new (self)
                LinearLayout(buildLayout(bases, outDims, requireSurjective));
          },
          nb::arg("bases"), nb::arg("out_dims"),
          nb::arg("require_surjective") = false,
          "bases: {in_dim: [[coordinate per out dim], ...]} (basis i is the "
          "image of in_dim = 2**i); out_dims: {name: size}, [(name, size)] "
          "or [name] to infer each size from the bases.")
      .def_static(
          "identity_1d",
          [](int32_t size, const std::string &inDim, const std::string &outDim) {
            return unwrap(LinearLayout::identity1D(size, inDim, outDim));
          },
          nb::arg("size"), nb::arg("in_dim"), nb::arg("out_dim"),
          "L(x) = x for x < size.")
      .def_static(
          "zeros_1d",
          [](int32_t size, const std::string &inDim, const std::string &outDim,
             int32_t outDimSize) {
            return unwrap(
                LinearLayout::zeros1D(size, inDim, outDim, outDimSize));
          },
          nb::arg("size"), nb::arg("in_dim"), nb::arg("out_dim"),
          nb::arg("out_dim_size") = 1, "L(x) = 0 for x < size (broadcast).")
      .def_static(
          "strided_1d",
          [](int32_t size, int32_t stride, const std::string &inDim,
             const std::string &outDim) {
            return unwrap(
                LinearLayout::strided1D(size, stride, inDim, outDim));
          },
          nb::arg("size"), nb::arg("stride"), nb::arg("in_dim"),
          nb::arg("out_dim"),
          "L(x) = stride * x for x < size; stride is a power of two.")
      .def_static("empty", &LinearLayout::empty,
                  "The layout with no dimensions (neutral for product).")
      .def_prop_ro("bases", &basesToDict,
                   "{in_dim: [[coordinate per out dim], ...]}, in order.")
      .def_prop_ro(
          "in_dims",
          [](const LinearLayout &self) { return toDict(self.getInDims()); },
          "{in_dim: size}, in order.")
      .def_prop_ro(
          "out_dims",
          [](const LinearLayout &self) { return toDict(self.getOutDims()); },
          "{out_dim: size}, in order.")
      .def(
          "in_dim_size",
          [](const LinearLayout &self, const std::string &name) {
            if (!self.hasInDim(name))
              throw nb::value_error(
                  ("linear layout: no input dimension '" + name + "'")
                      .c_str());
            return self.getInDimSize(name);
          },
          nb::arg("name"), "Size of an input dimension.")
      .def(
          "out_dim_size",
          [](const LinearLayout &self, const std::string &name) {
            if (!self.hasOutDim(name))
              throw nb::value_error(
                  ("linear layout: no output dimension '" + name + "'")
                      .c_str());
            return self.getOutDimSize(name);
          },
          nb::arg("name"), "Size of an output dimension.")
      .def("total_in_dim_size", &LinearLayout::getTotalInDimSize,
           "Product of the input dimension sizes.")
      .def("total_out_dim_size", &LinearLayout::getTotalOutDimSize,
           "Product of the output dimension sizes.")
      .def("rank", &LinearLayout::getRank,
           "Rank over GF(2): log2 of the image size.")
      .def("is_surjective", &LinearLayout::isSurjective)
      .def("is_injective", &LinearLayout::isInjective)
      .def("is_invertible", &LinearLayout::isInvertible)
      .def("num_consecutive_in_out", &LinearLayout::getNumConsecutiveInOut,
           "How many consecutive values of the first input map to "
           "consecutive values of the first output.")
      .def(
          "free_variable_masks",
          [](const LinearLayout &self) {
            return toDict(self.getFreeVariableMasks());
          },
          "{in_dim: mask} of input bits whose image is a XOR of earlier "
          "bits' images (duplicates and broadcasts).")
      .def(
          "apply",
          [](const LinearLayout &self, const nb::dict &inputs) {
            return toDict(unwrap(
                self.apply(castOrThrow<std::vector<LinearLayout::DimValue>>(
                    inputs.items(), "inputs as {in_dim: int32}"))));
          },
          nb::arg("inputs"),
          "Evaluates {in_dim: value} (every input) to {out_dim: value}.")
      .def(
          "compose",
          [](const LinearLayout &self, const LinearLayout &outer) {
            return unwrap(self.compose(outer));
          },
          nb::arg("outer"), "outer(self(x)).")
      .def(
          "invert",
          [](const LinearLayout &self) { return unwrap(self.invert()); },
          "The inverse of a bijective layout.")
      .def(
          "pseudoinvert",
          [](const LinearLayout &self) { return unwrap(self.pseudoinvert()); },
          "A right inverse P of a surjective layout: self(P(y)) == y.")
      .def_static(
          "invert_and_compose",
          [](const LinearLayout &a, const LinearLayout &b) {
            return unwrap(mlir::triton_musa::invertAndCompose(a, b));
          },
          nb::arg("a"), nb::arg("b"),
          "C with a(C(x)) == b(x): converts b's indices to a's.")
      .def(
          "product",
          [](const LinearLayout &self, const LinearLayout &other) {
            return unwrap(self * other);
          },
          nb::arg("other"), "self * other (other is more significant).")
      .def(
          "__mul__",
          [](const LinearLayout &self, const LinearLayout &other) {
            return unwrap(self * other);
          },
          nb::is_operator())
      .def(
          "sublayout",
          [](const LinearLayout &self, const std::vector<std::string> &ins,
             const std::vector<std::string> &outs) {
            return unwrap(self.sublayout(ins, outs));
          },
          nb::arg("in_dims"), nb::arg("out_dims"),
          "Only these inputs (others fixed at 0) and outputs.")
      .def(
          "sublayout_is_zero",
          [](const LinearLayout &self, const std::vector<std::string> &ins,
             const std::vector<std::string> &outs) {
            return unwrap(self.sublayoutIsZero(ins, outs));
          },
          nb::arg("in_dims"), nb::arg("out_dims"))
      .def(
          "transpose_ins",
          [](const LinearLayout &self, const std::vector<std::string> &order) {
            return unwrap(self.transposeIns(order));
          },
          nb::arg("order"))
      .def(
          "transpose_outs",
          [](const LinearLayout &self, const std::vector<std::string> &order) {
            return unwrap(self.transposeOuts(order));
          },
          nb::arg("order"))
      .def(
          "reshape_ins",
          [](const LinearLayout &self,
             const std::vector<LinearLayout::DimSize> &dims) {
            return unwrap(self.reshapeIns(dims));
          },
          nb::arg("dims"), "New [(in_dim, size)], row-major.")
      .def(
          "reshape_outs",
          [](const LinearLayout &self,
             const std::vector<LinearLayout::DimSize> &dims) {
            return unwrap(self.reshapeOuts(dims));
          },
          nb::arg("dims"), "New [(out_dim, size)], row-major.")
      .def(
          "__eq__",
          [](const LinearLayout &self, const LinearLayout &other) {
            return self == other;
          },
          nb::is_operator())
      .def(
          "__ne__",
          [](const LinearLayout &self, const LinearLayout &other) {
            return self != other;
          },
          nb::is_operator())
      .def("__repr__",
           [](const LinearLayout &self) {
             return "LinearLayout(" + self.toString() + ")";
           })
      .def("__str__", &LinearLayout::toString);
  // Equal layouts would hash differently by identity: make them unhashable.
  cls.attr("__hash__") = nb::none();

  m.def(
      "wgmma_accumulator_layout",
      [](int64_t rows, int64_t cols) {
        return unwrap(mlir::triton_musa::getWGMMAAccumulatorLayout(rows, cols));
      },
      nb::arg("m"), nb::arg("n"),
      "The accumulator of one warpgroup over an m x n tile of "
      "wgmma.m64n<n> instructions stacked along M (the GPU proxy's SQMMA "
      "fragment): register/lane/warp -> dim0 (row), dim1 (column).");
}
