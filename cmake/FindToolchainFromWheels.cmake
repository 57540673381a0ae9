# Locate MLIR/LLVM 22 CMake packages from the xtc-* wheels of the running
# Python unless MLIR_DIR / LLVM_DIR are given (e.g. Debian's llvm-22-dev).
if(NOT Python3_EXECUTABLE AND Python_EXECUTABLE)
  set(Python3_EXECUTABLE "${Python_EXECUTABLE}")
endif()
find_package(Python3 COMPONENTS Interpreter REQUIRED)

function(_triton_musa_wheel_dir dist subdir out)
  execute_process(
    COMMAND "${Python3_EXECUTABLE}" -c
      "import importlib.metadata as m; print(m.distribution('${dist}').locate_file('${subdir}'))"
    OUTPUT_VARIABLE dir OUTPUT_STRIP_TRAILING_WHITESPACE
    RESULT_VARIABLE rc ERROR_QUIET)
  if(rc EQUAL 0 AND EXISTS "${dir}")
    set(${out} "${dir}" PARENT_SCOPE)
  endif()
endfunction()

if(NOT MLIR_DIR)
  _triton_musa_wheel_dir(xtc-mlir-dev mlir/lib/cmake/mlir wheel_mlir_dir)
  if(wheel_mlir_dir)
    set(MLIR_DIR "${wheel_mlir_dir}" CACHE PATH "MLIR CMake package directory")
  endif()
endif()
if(NOT LLVM_DIR)
  _triton_musa_wheel_dir(xtc-llvm-dev llvm/lib/cmake/llvm wheel_llvm_dir)
  if(wheel_llvm_dir)
    set(LLVM_DIR "${wheel_llvm_dir}" CACHE PATH "LLVM CMake package directory")
  endif()
endif()
