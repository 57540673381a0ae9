//===- TestPasses.td - Test-only passes of musa-opt --------*- tablegen -*-===//
//
// Passes that exist to unit-test the compiler's pieces from lit; linked into
// musa-opt only, never into the Python module.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_TEST_LIB_TESTPASSES_TD
#define TRITON_MUSA_TEST_LIB_TESTPASSES_TD

include "mlir/Pass/PassBase.td"
include "target/TargetPassOptions.td"

def TestMUSATargetInfo : Pass<"test-musa-target-info", "mlir::ModuleOp"> {
  let summary = "Test only: expand `test.musa.*` placeholder ops through the target interface";
  let description = [{
    Unit test of the target interface that --convert-tritongpu-to-musa uses:
    each unregistered placeholder op is replaced by what the interface emits
    for the module's architecture (`ttg.target`, or `arch=`; run with
    -allow-unregistered-dialect). Placeholders:
    `test.musa.{thread_id,block_id,num_blocks}` {dim}, `test.musa.barrier`,
    `test.musa.shared_memory_barrier`, `test.musa.warp_sync`,
    `test.musa.shuffle`(value, offset) {kind = "xor"|"up"|"down"|"idx",
    width (optional)}, `test.musa.ballot`(pred).

    Before:
    ```mlir
    llvm.func @f(%v: f64, %o: i32) -> f64 {
      %r = "test.musa.shuffle"(%v, %o) {kind = "xor", width = 16 : i32} : (f64, i32) -> f64
      llvm.return %r : f64
    }
    ```
    After (`arch=mp_31`): the f64 split into two i32 halves, each through
    `llvm.call @llvm.musa.shfl.xor.sync.i32(%half, %o, %c14351, %slot)` with
    maskAndClamp = ((128 - 16) << 7) | 15, then recombined.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
  let options = [
    MUSAArchOption
  ];
}

def TestMUSAMatrixInstrs : Pass<"test-musa-matrix-instrs", "mlir::ModuleOp"> {
  let summary = "Test only: check every lowered row of the matrix-instruction catalogue";
  let description = [{
    Walks every row of the catalogue (catalogue/MatrixInstrs.h)
    that we lower, on every architecture of the table with the row's
    capability major, and checks two of its three readers: that layouts/
    builds the linear layouts of the row's accumulator and operand
    fragments (each thread holding m * n / threads accumulators), and that
    each target the row names (musa, emulator, proxy) issues the instruction
    on placeholder fragment values (the proxy from placeholder operand tiles,
    as several wgmma; remarks list calls and wgmma opcodes in order). One remark per row and target, on the
    module:
    `<row>: fragment <id> (<n> accumulators per thread), <target> calls <callee>`,
    or an error naming what failed. The emulator's owner tables are checked
    from Python (test/python/test_matrix_instrs.py), which reads these
    remarks.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect",
                           "mlir::musagpu::MUSAGPUDialect"];
}

#endif // TRITON_MUSA_TEST_LIB_TESTPASSES_TD
