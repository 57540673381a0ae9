// tt.func / tt.return / tt.call. Kernels carry the markers the LLVM IR export
// turns into cc 102 and !musa.annotations (maxntidx = num-warps x warp size).
// mp_22 inputs (same functions, 128-thread warps) are in Inputs/.
// RUN: musa-opt %s -split-input-file -convert-tritongpu-to-musa=arch=mp_31 -o %t.mp_31.mlir
// RUN: FileCheck %s --check-prefixes=CHECK,MP31 --input-file=%t.mp_31.mlir
// RUN: musa-opt %S/Inputs/func.mp_22.mlir -split-input-file -convert-tritongpu-to-musa=arch=mp_22 -o %t.mp_22.mlir
// RUN: FileCheck %s --check-prefixes=CHECK,MP22 --input-file=%t.mp_22.mlir

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @kernel(
  // CHECK-SAME: %{{.*}}: !llvm.ptr<1>, %{{.*}}: i32)
  // CHECK-NOT: tt.divisibility
  // MP31-SAME: attributes {musa.kernel, musa.maxntidx = 128 : i32}
  // MP22-SAME: attributes {musa.kernel, musa.maxntidx = 512 : i32}
  // CHECK: llvm.return
  tt.func public @kernel(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) attributes {noinline = false} {
    tt.return
  }
}

// -----

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // A device function Triton did not inline: internal, noinline, no kernel
  // markers; its caller passes and returns plain LLVM values.
  // CHECK-LABEL: llvm.func internal @helper(%{{.*}}: f32) -> f32
  // CHECK-SAME: no_inline
  // CHECK-NOT: musa.kernel
  // CHECK: llvm.return %{{.*}} : f32
  tt.func private @helper(%x: f32) -> f32 attributes {noinline = true} {
    tt.return %x : f32
  }
  // CHECK-LABEL: llvm.func @caller(
  // MP31-SAME: musa.maxntidx = 256 : i32
  // MP22-SAME: musa.maxntidx = 1024 : i32
  // CHECK: llvm.call @helper(%{{.*}}) : (f32) -> f32
  tt.func public @caller(%x: f32) {
    %y = tt.call @helper(%x) : (f32) -> f32
    tt.return
  }
}

// -----

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "musa:mp_31", "ttg.threads-per-warp" = 32 : i32} {
  // Several results travel as one struct.
  // CHECK-LABEL: llvm.func internal @pair(%{{.*}}: i32, %{{.*}}: f32) -> !llvm.struct<(i32, f32)>
  // CHECK: llvm.insertvalue
  // CHECK: llvm.insertvalue
  // CHECK: llvm.return %{{.*}} : !llvm.struct<(i32, f32)>
  tt.func private @pair(%a: i32, %b: f32) -> (i32, f32) attributes {noinline = true} {
    tt.return %a, %b : i32, f32
  }
  // CHECK-LABEL: llvm.func @use_pair(
  // CHECK: %[[R:.*]] = llvm.call @pair(%{{.*}}, %{{.*}}) : (i32, f32) -> !llvm.struct<(i32, f32)>
  // CHECK: llvm.extractvalue %[[R]][0]
  // CHECK: llvm.extractvalue %[[R]][1]
  tt.func public @use_pair(%a: i32, %b: f32) {
    %x, %y = tt.call @pair(%a, %b) : (i32, f32) -> (i32, f32)
    tt.return
  }
}
