#ifndef TRITON_MUSA_MUSAGPU_DIALECT_TD
#define TRITON_MUSA_MUSAGPU_DIALECT_TD

include "mlir/IR/OpBase.td"

def MUSAGPU_Dialect : Dialect {
  let name = "musagpu";
  let cppNamespace = "::mlir::musagpu";
  let summary = "Moore Threads MUSA GPU encodings and operations";
  let description = [{
    The `musagpu` dialect models what is specific to MUSA GPUs below TTGIR:

    * encodings: the SQMMA accumulator layout (`#musagpu.sqmma`, mp_31/PH1),
      the WMMA accumulator and operand layouts (`#musagpu.wmma`,
      `#musagpu.wmma_operand`, mp_22/QY2 and mp_31), and the TME-swizzled
      shared-memory encoding (`#musagpu.tme_shared`);
    * the tensor memory engine (TME, the TMA analogue of PH1): tile loads and
      stores between global memory and shared memory;
    * async barriers, which on MUSA are small integer ids, not shared-memory
      objects (unlike NVIDIA mbarriers);
    * matrix instructions: SQMMA (4-warp "squad" MMA reading A and B from
      shared memory, mp_31) and WMMA (register operands);
    * async global->shared copies (8 to 64-bit elements).

    Every legality rule the verifiers enforce comes from the target facts in
    `shared/MUSA-FACTS.md`; rules marked "inferred" come from public MUSA
    code generators and are not stated by a vendor document.

    Shared-memory operands are "shared buffers": a `!ttg.memdesc` in
    `#ttg.shared_memory` (TTGIR), or a `memref` in address space 3. The
    encodings implement the ttg layout interfaces, so `!ttg.memdesc` takes
    `#musagpu.tme_shared` and `#ttg.dot_op`/`#ttg.slice` take the MMA
    layouts as parents.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::triton::gpu::TritonGPUDialect"];
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    /// Defined in Attrs.cpp, next to the attribute storage classes.
    void registerAttributes();
  }];
}

class MUSAGPU_Op<string mnemonic, list<Trait> traits = []>
    : Op<MUSAGPU_Dialect, mnemonic, traits>;

#endif // TRITON_MUSA_MUSAGPU_DIALECT_TD
