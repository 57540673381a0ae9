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
  get_target_property(_libs ${_tgt} INTERFACE_LINK_LIBRARIES)
  if(_libs AND "LLVM" IN_LIST _libs)
    list(TRANSFORM _libs REPLACE "^LLVM$" "${TRITON_MUSA_LLVM_STATIC_LIBS}")
    set_target_properties(${_tgt} PROPERTIES INTERFACE_LINK_LIBRARIES "${_libs}")
  endif()
endforeach()
