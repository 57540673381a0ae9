// The vector-add TTGIR lowered for the CPU emulator
// (--convert-tritongpu-to-musa{target=emulator}): the same lowering as for
// the device, with the ids read from the emulator runtime instead of
// llvm.musa.* special registers; the kernel keeps its marker and the module
// its "ttg.*" launch attributes, which the emulator reads.
// RUN: musa-opt %S/Inputs/add.mp_31.mlir "-convert-tritongpu-to-musa=arch=mp_31 target=emulator" -o %t.mp_31.mlir
// RUN: FileCheck %s --check-prefixes=CHECK,MP31 --input-file=%t.mp_31.mlir --implicit-check-not=llvm.musa.
// RUN: musa-opt %S/Inputs/add.mp_22.mlir "-convert-tritongpu-to-musa=arch=mp_22 target=emulator" -o %t.mp_22.mlir
// RUN: FileCheck %s --check-prefixes=CHECK,MP22 --input-file=%t.mp_22.mlir --implicit-check-not=llvm.musa.
// RUN: not musa-opt %S/Inputs/add.mp_31.mlir "-convert-tritongpu-to-musa=arch=mp_31 target=cpu" 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: unknown target 'cpu'; expected 'musa', 'emulator' or 'proxy'

// CHECK: module attributes {{{.*}}"ttg.num-warps" = 4 : i32
// MP31-SAME: "ttg.threads-per-warp" = 32 : i32
// MP22-SAME: "ttg.threads-per-warp" = 128 : i32
// CHECK-NOT: tt.func
// CHECK-NOT: tt.load
// CHECK-DAG: llvm.func @__musa_emu_thread_id(i32) -> i32
// CHECK-DAG: llvm.func @__musa_emu_block_id(i32) -> i32
// CHECK-LABEL: llvm.func @add_kernel(
// CHECK-SAME: attributes {musa.kernel
// CHECK: %[[X:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[PID:.*]] = llvm.call @__musa_emu_block_id(%[[X]])
// CHECK: llvm.mul %[[PID]], %{{.*}} : i32
// CHECK: llvm.call @__musa_emu_thread_id(%{{.*}})
// MP31-COUNT-16: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// MP22-COUNT-4: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// MP31-COUNT-8: llvm.fadd %{{.*}}, %{{.*}} : f32
// MP22-COUNT-2: llvm.fadd %{{.*}}, %{{.*}} : f32
