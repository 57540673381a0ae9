// scf.for / scf.if lower to LLVM branches in the same conversion; tensors
// carried around a loop travel as the struct of the thread's registers.
// RUN: musa-opt %s -split-input-file -convert-tritongpu-to-musa=arch=mp_31 -o %t.mp_31.mlir
// RUN: FileCheck %s --input-file=%t.mp_31.mlir --implicit-check-not=scf.

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @loop(
  // CHECK: llvm.br ^[[HEAD:.*]](%{{.*}}, %{{.*}} : i32, !llvm.struct<(f32, f32)>)
  // CHECK: ^[[HEAD]](%[[I:.*]]: i32, %[[ACC:.*]]: !llvm.struct<(f32, f32)>):
  // CHECK: llvm.icmp "slt" %[[I]]
  // CHECK: llvm.cond_br
  // CHECK-COUNT-2: llvm.fadd
  // CHECK: llvm.br ^[[HEAD]](%{{.*}}, %{{.*}} : i32, !llvm.struct<(f32, f32)>)
  // CHECK: llvm.cond_br
  // CHECK: llvm.return
  tt.func public @loop(%n: i32, %x: f32, %c: i1) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<256xf32, #blocked>
    %xs = tt.splat %x : f32 -> tensor<256xf32, #blocked>
    // Not a splat: a splat plus a splat stays one, and its adds would fold to one per thread.
    %range = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %init = arith.sitofp %range : tensor<256xi32, #blocked> to tensor<256xf32, #blocked>
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<256xf32, #blocked>) : i32 {
      %next = arith.addf %acc, %xs : tensor<256xf32, #blocked>
      scf.yield %next : tensor<256xf32, #blocked>
    }
    %r = scf.if %c -> (tensor<256xf32, #blocked>) {
      scf.yield %sum : tensor<256xf32, #blocked>
    } else {
      scf.yield %zero : tensor<256xf32, #blocked>
    }
    tt.return
  }
}
