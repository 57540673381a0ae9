//===- Passes.td - TTGIR -> LLVM dialect for MUSA ----------*- tablegen -*-===//

#ifndef TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_PASSES_TD
#define TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTritonGPUToMUSA
    : Pass<"convert-tritongpu-to-musa", "mlir::ModuleOp"> {
  let summary = "Lower TritonGPU IR (tt/ttg/arith/math) to the LLVM dialect for a MUSA GPU";
  let description = [{
    Lowers a TTGIR module for a `musa:` target to the LLVM dialect. A tensor
    with a distributed layout becomes an `!llvm.struct` of the elements one
    thread holds; every index comes from the layout's linear layout
    (register, lane, warp, block -> tensor coordinates). The hardware is
    reached only through the target interface (thread and block ids,
    barriers, shuffles, votes), which emits calls to the `llvm.musa.*`
    functions of the chosen architecture (or, with `target=emulator`, calls
    into the CPU emulator's runtime that emulate that architecture's warps).

    Kernels (public `tt.func`) become `llvm.func`s marked `musa.kernel` and
    `musa.maxntidx` (= num-warps x threads-per-warp): the LLVM IR export turns
    these into calling convention 102 and `!musa.annotations`.

    The module's "ttg.threads-per-warp" must be the warp size of `arch`
    (32 on mp_31, 128 on mp_22). An op that is not lowered yet fails the pass
    with an error naming it; nothing of tt/ttg is left behind silently.

    Before:
    ```mlir
    #blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
    module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "musa:mp_31"} {
      tt.func public @k(%p: !tt.ptr<f32>) {
        %pid = tt.get_program_id x : i32
        %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
        ...
      }
    }
    ```
    After (`--convert-tritongpu-to-musa=arch=mp_31`):
    ```mlir
    llvm.func @llvm.musa.read.ptx.sreg.ctaid.x() -> i32 attributes {memory_effects = ..., no_unwind}
    llvm.func @k(%p: !llvm.ptr<1>) attributes {musa.kernel, musa.maxntidx = 128 : i32} {
      %pid = llvm.call @llvm.musa.read.ptx.sreg.ctaid.x() : () -> i32
      %tid = llvm.call @llvm.musa.read.ptx.sreg.tid.x() : () -> i32
      ... // per register r: (r's constant coordinate) | ((lane & 31) << 2 | warp << 7)
      %s = llvm.insertvalue %v0, %u[0] : !llvm.struct<(i32, i32, i32, i32)>
    }
    ```
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
  let options = [
    Option<"arch", "arch", "::mlir::triton_musa::MUSAArch",
           "::mlir::triton_musa::MUSAArch::MP31",
           "MUSA architecture to lower for: mp_31 (PH1, warp 32) or mp_22 (QY2, warp 128)",
           [{::llvm::cl::values(
             clEnumValN(::mlir::triton_musa::MUSAArch::MP31, "mp_31",
                        "PH1 (S5000), 32-thread warps"),
             clEnumValN(::mlir::triton_musa::MUSAArch::MP22, "mp_22",
                        "QY2 (S4000), 128-thread warps"))}]>,
    Option<"target", "target", "std::string", "\"musa\"",
           "What the kernel runs on: 'musa' (the GPU of `arch`, `llvm.musa.*` "
           "calls) or 'emulator' (the CPU emulator emulating `arch`: ids, "
           "barriers, shuffles, ballots and the shared-memory base become "
           "`__musa_emu_*` runtime calls, see EmulatorTargetInfo.cpp)">
  ];
}

def TestMUSATargetInfo : Pass<"test-musa-target-info", "mlir::ModuleOp"> {
  let summary = "Test only: expand `test.musa.*` placeholder ops through the target interface";
  let description = [{
    Unit test of the target interface that --convert-tritongpu-to-musa uses:
    each unregistered placeholder op is replaced by what the interface emits
    for `arch` (run with -allow-unregistered-dialect). Placeholders:
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
    Option<"arch", "arch", "::mlir::triton_musa::MUSAArch",
           "::mlir::triton_musa::MUSAArch::MP31",
           "MUSA architecture to lower for: mp_31 (PH1, warp 32) or mp_22 (QY2, warp 128)",
           [{::llvm::cl::values(
             clEnumValN(::mlir::triton_musa::MUSAArch::MP31, "mp_31",
                        "PH1 (S5000), 32-thread warps"),
             clEnumValN(::mlir::triton_musa::MUSAArch::MP22, "mp_22",
                        "QY2 (S4000), 128-thread warps"))}]>
  ];
}

#endif // TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_PASSES_TD
