//===- TestPasses.h - Test-only passes of musa-opt --------------*- C++ -*-===//

#ifndef TRITON_MUSA_TEST_LIB_TESTPASSES_H
#define TRITON_MUSA_TEST_LIB_TESTPASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::triton_musa {

#define GEN_PASS_DECL
#include "test/lib/TestPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "test/lib/TestPasses.h.inc"

} // namespace mlir::triton_musa

#endif // TRITON_MUSA_TEST_LIB_TESTPASSES_H
