#ifndef TRITON_MUSA_TRITONGPU_TYPES_TD
#define TRITON_MUSA_TRITONGPU_TYPES_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"
include "dialects/TritonGPU/IR/TritonGPUDialect.td"

class TTG_TypeDef<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<TritonGPU_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def TTG_MemDescType : TTG_TypeDef<"MemDesc", "memdesc", [ShapedTypeInterface]> {
  let summary = "descriptor of a buffer in shared memory";
  let description = [{
    A view of a buffer: logical `shape`, element type, a shared-memory
    `encoding`, a memory space, whether it may be written (`mutable`), and the
    shape of the whole allocation it is a view of (printed only when it
    differs from `shape`, e.g. after `ttg.memdesc_subslice`). The encoding
    rank equals the shape rank, or is one less for multi-buffered
    allocations whose leading dimension indexes the buffers.

    ```mlir
    !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    !ttg.memdesc<32x16xf16, #shared, #smem, mutable, 32x32>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t">:$shape,
    "::mlir::Type":$elementType,
    "::mlir::Attribute":$encoding,
    "::mlir::Attribute":$memorySpace,
    "bool":$mutableMemory,
    ArrayRefParameter<"int64_t">:$allocShape
  );
  let builders = [
    TypeBuilderWithInferredContext<(ins
        "::llvm::ArrayRef<int64_t>":$shape, "::mlir::Type":$elementType,
        "::mlir::Attribute":$encoding, "::mlir::Attribute":$memorySpace,
        CArg<"bool", "false">:$mutableMemory), [{
      return $_get(elementType.getContext(), shape, elementType, encoding,
                   memorySpace, mutableMemory, shape);
    }]>,
    TypeBuilderWithInferredContext<(ins
        "::llvm::ArrayRef<int64_t>":$shape, "::mlir::Type":$elementType,
        "::mlir::Attribute":$encoding, "::mlir::Attribute":$memorySpace,
        "bool":$mutableMemory, "::llvm::ArrayRef<int64_t>":$allocShape), [{
      return $_get(elementType.getContext(), shape, elementType, encoding,
                   memorySpace, mutableMemory, allocShape);
    }]>
  ];
  let extraClassDeclaration = [{
    // ShapedTypeInterface.
    bool hasRank() const { return true; }
    MemDescType cloneWith(std::optional<::llvm::ArrayRef<int64_t>> shape,
                          ::mlir::Type elementType) const;
  }];
  let genVerifyDecl = 1;
  let hasCustomAssemblyFormat = 1;
}

def TTG_AsyncToken : TTG_TypeDef<"AsyncToken", "async.token"> {
  let summary = "token ordering asynchronous copies and waits";
  let description = [{
    Produced by `ttg.async_copy_global_to_local` and `ttg.async_commit_group`,
    consumed by `ttg.async_wait` and `ttg.local_load`.

    ```mlir
    %t = ttg.async_commit_group tokens %c
    ```
  }];
}

#endif // TRITON_MUSA_TRITONGPU_TYPES_TD
