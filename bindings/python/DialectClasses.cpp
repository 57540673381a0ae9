//===- DialectClasses.cpp - Python classes of tt/ttg attributes and types -===//
//
// `!tt.ptr`, `!tt.tensordesc`, `!ttg.memdesc` and the layout attributes users
// read from TTGIR, as MLIR Python attribute/type subclasses: isinstance,
// casting constructors, field properties, `get` builders. They are registered
// as the bindings' downcasts, so `op.attributes[...]` and `value.type` come
// back as these classes. Built into the aggregate library, so `unwrap` sees
// the one MLIR of `triton_musa.mlir`.
//
//===----------------------------------------------------------------------===//

#include "bindings/python/DialectClasses.h"
#include "dialects/Triton/IR/Dialect.h"
#include "dialects/TritonGPU/IR/Dialect.h"

#include "mlir/Bindings/Python/NanobindAdaptors.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/Diagnostics.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace nb = nanobind;
using namespace mlir;
using mlir::python::nanobind_adaptors::mlir_attribute_subclass;
using mlir::python::nanobind_adaptors::mlir_type_subclass;
namespace ttg = mlir::triton::gpu;

namespace {

template <typename T> bool isaAttr(MlirAttribute attr) {
  return isa<T>(unwrap(attr));
}
template <typename T> MlirTypeID attrTypeID() { return wrap(TypeID::get<T>()); }
template <typename T> bool isaType(MlirType type) {
  return isa<T>(unwrap(type));
}
template <typename T> MlirTypeID typeTypeID() { return wrap(TypeID::get<T>()); }

template <typename T> T attr(MlirAttribute a) { return cast<T>(unwrap(a)); }
template <typename T> T type(MlirType t) { return cast<T>(unwrap(t)); }

std::vector<unsigned> list(ArrayRef<unsigned> values) {
  return {values.begin(), values.end()};
}
std::vector<int64_t> list(ArrayRef<int64_t> values) {
  return {values.begin(), values.end()};
}

/// The context of an explicit `context=` argument, else the one of the
/// enclosing `with Context():`.
MLIRContext *contextOf(nb::object context) {
  if (context.is_none())
    context = nb::module_::import_(MAKE_MLIR_PYTHON_QUALNAME("ir"))
                  .attr("Context")
                  .attr("current");
  return unwrap(nb::cast<MlirContext>(context));
}

void bindTT(nb::module_ &m) {
  mlir_type_subclass(m, "PointerType", isaType<triton::PointerType>,
                     typeTypeID<triton::PointerType>)
      .def_classmethod(
          "get",
          [](nb::object cls, MlirType pointee, int addressSpace) {
            return cls(wrap(Type(
                triton::PointerType::get(unwrap(pointee), addressSpace))));
          },
          nb::arg("cls"), nb::arg("pointee_type"),
          nb::arg("address_space") = 1,
          "!tt.ptr<pointee_type, address_space> (1: global memory).")
      .def_property_readonly("pointee_type",
                             [](MlirType self) {
                               return wrap(
                                   type<triton::PointerType>(self)
                                       .getPointeeType());
                             })
      .def_property_readonly("address_space", [](MlirType self) {
        return type<triton::PointerType>(self).getAddressSpace();
      });

  mlir_type_subclass(m, "TensorDescType", isaType<triton::TensorDescType>,
                     typeTypeID<triton::TensorDescType>)
      .def_property_readonly("block_type", [](MlirType self) {
        return wrap(Type(type<triton::TensorDescType>(self).getBlockType()));
      });
}

void bindTTG(nb::module_ &m) {
  mlir_attribute_subclass(m, "BlockedEncodingAttr",
                          isaAttr<ttg::BlockedEncodingAttr>,
                          attrTypeID<ttg::BlockedEncodingAttr>)
      .def_classmethod(
          "get",
          [](nb::object cls, std::vector<unsigned> sizePerThread,
             std::vector<unsigned> threadsPerWarp,
             std::vector<unsigned> warpsPerCTA, std::vector<unsigned> order,
             nb::object context) {
            MLIRContext *ctx = contextOf(context);
            std::string message;
            ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
              message = diag.str();
              return success();
            });
            auto layout = ttg::BlockedEncodingAttr::getChecked(
                [ctx] { return emitError(UnknownLoc::get(ctx)); }, ctx,
                ArrayRef<unsigned>(sizePerThread),
                ArrayRef<unsigned>(threadsPerWarp),
                ArrayRef<unsigned>(warpsPerCTA), ArrayRef<unsigned>(order),
                ArrayRef<int32_t>());
            if (!layout)
              throw std::invalid_argument("invalid #ttg.blocked: " + message);
            return cls(wrap(Attribute(layout)));
          },
          nb::arg("cls"), nb::arg("size_per_thread"),
          nb::arg("threads_per_warp"), nb::arg("warps_per_cta"),
          nb::arg("order"), nb::arg("context") = nb::none(),
          "#ttg.blocked<{...}> for one CTA.")
      .def_property_readonly("size_per_thread",
                             [](MlirAttribute self) {
                               return list(attr<ttg::BlockedEncodingAttr>(self)
                                               .getSizePerThread());
                             })
      .def_property_readonly("threads_per_warp",
                             [](MlirAttribute self) {
                               return list(attr<ttg::BlockedEncodingAttr>(self)
                                               .getThreadsPerWarp());
                             })
      .def_property_readonly("warps_per_cta",
                             [](MlirAttribute self) {
                               return list(attr<ttg::BlockedEncodingAttr>(self)
                                               .getWarpsPerCTA());
                             })
      .def_property_readonly("order", [](MlirAttribute self) {
        return list(attr<ttg::BlockedEncodingAttr>(self).getOrder());
      });

  mlir_attribute_subclass(m, "SliceEncodingAttr",
                          isaAttr<ttg::SliceEncodingAttr>,
                          attrTypeID<ttg::SliceEncodingAttr>)
      .def_property_readonly(
          "dim",
          [](MlirAttribute self) {
            return attr<ttg::SliceEncodingAttr>(self).getDim();
          })
      .def_property_readonly("parent", [](MlirAttribute self) {
        return wrap(attr<ttg::SliceEncodingAttr>(self).getParent());
      });

  mlir_attribute_subclass(m, "DotOperandEncodingAttr",
                          isaAttr<ttg::DotOperandEncodingAttr>,
                          attrTypeID<ttg::DotOperandEncodingAttr>)
      .def_property_readonly(
          "op_idx",
          [](MlirAttribute self) {
            return attr<ttg::DotOperandEncodingAttr>(self).getOpIdx();
          })
      .def_property_readonly(
          "parent",
          [](MlirAttribute self) {
            return wrap(attr<ttg::DotOperandEncodingAttr>(self).getParent());
          })
      .def_property_readonly("k_width", [](MlirAttribute self) {
        return attr<ttg::DotOperandEncodingAttr>(self).getKWidth();
      });

  mlir_attribute_subclass(m, "SwizzledSharedEncodingAttr",
                          isaAttr<ttg::SwizzledSharedEncodingAttr>,
                          attrTypeID<ttg::SwizzledSharedEncodingAttr>)
      .def_property_readonly(
          "vec",
          [](MlirAttribute self) {
            return attr<ttg::SwizzledSharedEncodingAttr>(self).getVec();
          })
      .def_property_readonly(
          "per_phase",
          [](MlirAttribute self) {
            return attr<ttg::SwizzledSharedEncodingAttr>(self).getPerPhase();
          })
      .def_property_readonly(
          "max_phase",
          [](MlirAttribute self) {
            return attr<ttg::SwizzledSharedEncodingAttr>(self).getMaxPhase();
          })
      .def_property_readonly("order", [](MlirAttribute self) {
        return list(attr<ttg::SwizzledSharedEncodingAttr>(self).getOrder());
      });

  mlir_type_subclass(m, "MemDescType", isaType<ttg::MemDescType>,
                     typeTypeID<ttg::MemDescType>)
      .def_property_readonly(
          "shape",
          [](MlirType self) {
            return list(type<ttg::MemDescType>(self).getShape());
          })
      .def_property_readonly(
          "alloc_shape",
          [](MlirType self) {
            return list(type<ttg::MemDescType>(self).getAllocShape());
          })
      .def_property_readonly(
          "element_type",
          [](MlirType self) {
            return wrap(type<ttg::MemDescType>(self).getElementType());
          })
      .def_property_readonly(
          "encoding",
          [](MlirType self) {
            return wrap(type<ttg::MemDescType>(self).getEncoding());
          })
      .def_property_readonly(
          "memory_space",
          [](MlirType self) {
            return wrap(type<ttg::MemDescType>(self).getMemorySpace());
          })
      .def_property_readonly("mutable", [](MlirType self) {
        return type<ttg::MemDescType>(self).getMutableMemory();
      });
}

} // namespace

void bindDialectClasses(nb::module_ &m) {
  m.def(
      "_register_dialect_classes",
      [](const std::string &dialect, nb::module_ target) {
        if (dialect == "tt")
          bindTT(target);
        else if (dialect == "ttg")
          bindTTG(target);
        else
          throw std::invalid_argument("no Python classes for dialect '" +
                                      dialect + "'");
      },
      nb::arg("dialect"), nb::arg("module"),
      "Defines the attribute/type classes of `dialect` (tt, ttg) in `module`.");
}
