// Errors are located diagnostics and a non-zero exit, never a crash.
// RUN: not musa-translate --musa-to-llvmir %s 2>&1 | FileCheck %s --check-prefix=NOKERNEL
// RUN: not musa-translate --musa-to-llvmir --musa-arch=mp_99 %s 2>&1 | FileCheck %s --check-prefix=ARCH
// RUN: not musa-translate --musa-to-llvmir --opt-level=4 %s 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not musa-translate --musa-to-llvmir --libdevice=%t.missing.bc %S/Inputs/exp10.mlir 2>&1 | FileCheck %s --check-prefix=LIBDEVICE
// RUN: not musa-translate --musa-to-llvmir %S/Inputs/exp10.mlir 2>&1 | FileCheck %s --check-prefix=EXP10
// RUN: not musa-translate --musa-to-llvmir %S/Inputs/atomic-fmax.mlir 2>&1 | FileCheck %s --check-prefix=ATOMIC
// RUN: not musa-translate --musa-to-llvmir %S/Inputs/unknown-intrinsic.mlir 2>&1 | FileCheck %s --check-prefix=INTRINSIC
// Without the compatibility step the same module exports.
// RUN: musa-translate --musa-to-llvmir --no-llvm14-compat %S/Inputs/exp10.mlir | FileCheck %s --check-prefix=LLVM22

// NOKERNEL: errors.mlir:[[@LINE+5]]:3: error: 'musa.maxntidx' on 'f', which is not marked 'musa.kernel'
// ARCH: errors.mlir:[[@LINE+3]]:1: error: --musa-to-llvmir: unknown MUSA architecture 'mp_99'; supported: mp_22, mp_31
// OPT: errors.mlir:[[@LINE+2]]:1: error: optimization level 4 is not in 0..3
// LIBDEVICE: exp10.mlir:1:1: error: libdevice '{{.*}}missing.bc' does not exist
module {
  llvm.func @f() attributes {musa.maxntidx = 128 : i32} {
    llvm.return
  }
}
// EXP10: exp10.mlir:1:1: error: LLVM 14 compatibility: intrinsic 'llvm.exp10.f32' has no LLVM 14 equivalent
// INTRINSIC: unknown-intrinsic.mlir:3:3: error: 'llvm.musa.vote.ballot.sync' is declared as !llvm.func<i128 (i1)>, but the MUSA intrinsic table (target/MUSAIntrinsics.cpp) gives !llvm.func<i32 (i1)> (mp_31)
// INTRINSIC-NOT: error
// ATOMIC: atomic-fmax.mlir:1:1: error: LLVM 14 compatibility: atomicrmw fmax has no LLVM 14 equivalent
// LLVM22: call float @llvm.exp10.f32(
