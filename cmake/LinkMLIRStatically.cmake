# The xtc LLVM build links MLIR against the libLLVM shared library. We link
# LLVM statically instead (and hide its symbols in the Python module) so that
# our copy never meets libtriton's or another MLIR's in one process.
set(LLVM_LINK_LLVM_DYLIB OFF)
llvm_map_components_to_libnames(TRITON_MUSA_LLVM_STATIC_LIBS
  support core demangle targetparser binaryformat irreader asmparser
  bitreader bitwriter linker passes transformutils analysis frontendopenmp)

get_property(_imported DIRECTORY PROPERTY IMPORTED_TARGETS)
foreach(_tgt IN LISTS _imported)
  if(NOT _tgt MATCHES "^MLIR")
    continue()
  endif()
  # INTERFACE_LINK_LIBRARIES for ordinary links; MLIR_AGGREGATE_DEP_LIBS_IMPORTED
  # for the aggregate C API library of the Python bindings (AddMLIR.cmake).
  foreach(_prop INTERFACE_LINK_LIBRARIES MLIR_AGGREGATE_DEP_LIBS_IMPORTED)
    get_target_property(_libs ${_tgt} ${_prop})
    if(_libs AND "LLVM" IN_LIST _libs)
      list(TRANSFORM _libs REPLACE "^LLVM$" "${TRITON_MUSA_LLVM_STATIC_LIBS}")
      set_target_properties(${_tgt} PROPERTIES ${_prop} "${_libs}")
    endif()
  endforeach()
endforeach()
