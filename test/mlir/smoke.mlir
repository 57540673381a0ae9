// RUN: musa-opt %s | FileCheck %s
// RUN: not musa-opt %s --unknown-pass-flag 2>&1 | FileCheck %s --check-prefix=ERR

// CHECK-LABEL: func.func @add
// CHECK: arith.addi
func.func @add(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  return %0 : i32
}
// ERR: Unknown command line argument
