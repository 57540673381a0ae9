//===- Passes.td - TTGIR -> LLVM dialect for MUSA ----------*- tablegen -*-===//

#ifndef TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_PASSES_TD
#define TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_PASSES_TD

include "mlir/Pass/PassBase.td"
include "target/TargetPassOptions.td"

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

    The architecture is the module's `ttg.target` unless `arch=` overrides
    it; the module's "ttg.threads-per-warp" must be the warp size of `arch`
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
    MUSAArchOption,
    MUSATargetOption<
           "What the kernel runs on: 'musa' (the GPU of `arch`, `llvm.musa.*` "
           "calls) or 'emulator' (the CPU emulator emulating `arch`: ids, "
           "barriers, shuffles, ballots and the shared-memory base become "
           "`__musa_emu_*` runtime calls, see EmulatorTargetInfo.cpp) or "
           "'proxy' (an NVIDIA GPU running `arch`'s code: NVVM ids, "
           "barriers, shuffles and votes, see ProxyTargetInfo.cpp)">
  ];
}

#endif // TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_PASSES_TD
