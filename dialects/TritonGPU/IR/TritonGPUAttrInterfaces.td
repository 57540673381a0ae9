#ifndef TRITON_MUSA_TRITONGPU_ATTRINTERFACES_TD
#define TRITON_MUSA_TRITONGPU_ATTRINTERFACES_TD

include "mlir/IR/OpBase.td"

def TTG_LayoutEncodingTrait : AttrInterface<"LayoutEncodingTrait"> {
  let cppNamespace = "::mlir::triton::gpu";
  let description = [{
    Any `ttg` layout (distributed or shared). Other dialects (MUSAGPU) attach
    it to their encodings so that `#ttg.slice`, `#ttg.dot_op` and
    `!ttg.memdesc` accept them.
  }];
  let methods = [
    InterfaceMethod<"Rank of the tensors or buffers this layout describes.",
                    "unsigned", "getRank">,
  ];
}

def TTG_DistributedEncodingTrait : AttrInterface<"DistributedEncodingTrait"> {
  let cppNamespace = "::mlir::triton::gpu";
  let description = [{
    A layout that spreads tensor elements over the registers, lanes, warps
    and CTAs of a program. Implementors also implement LayoutEncodingTrait.
  }];
  let methods = [
    InterfaceMethod<[{
        Checks the layout against the module's launch shape (warps per CTA,
        threads per warp, CTAs per CGA). Called by the module verifier.
      }],
      "::mlir::LogicalResult", "verifyForModule",
      (ins "unsigned":$numWarps, "unsigned":$threadsPerWarp,
           "unsigned":$numCTAs,
           "::llvm::function_ref<::mlir::InFlightDiagnostic()>":$emitError),
      /*methodBody=*/"",
      /*defaultImplementation=*/[{ return ::mlir::success(); }]>,
  ];
}

def TTG_SharedEncodingTrait : AttrInterface<"SharedEncodingTrait"> {
  let cppNamespace = "::mlir::triton::gpu";
  let description = [{
    A layout of a buffer in shared memory (the encoding of `!ttg.memdesc`).
    Implementors also implement LayoutEncodingTrait.
  }];
}

#endif // TRITON_MUSA_TRITONGPU_ATTRINTERFACES_TD
