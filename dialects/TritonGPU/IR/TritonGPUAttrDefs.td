#ifndef TRITON_MUSA_TRITONGPU_ATTRDEFS_TD
#define TRITON_MUSA_TRITONGPU_ATTRDEFS_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/TensorEncoding.td"
include "dialects/TritonGPU/IR/TritonGPUDialect.td"
include "dialects/TritonGPU/IR/TritonGPUAttrInterfaces.td"

class TTG_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<TritonGPU_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

// Bases of a linear layout (one input dimension) are stored flattened:
// `rank` consecutive integers per basis. This keeps the storage a plain
// ArrayRef; the C++ accessors rebuild the nested form.
defvar TTG_FlatBases = ArrayRefParameter<"int32_t", "flattened bases">;

class TTG_DistributedAttr<string name, string attrMnemonic>
    : TTG_Attr<name, attrMnemonic, [
        DeclareAttrInterfaceMethods<TTG_LayoutEncodingTrait>,
        DeclareAttrInterfaceMethods<TTG_DistributedEncodingTrait, ["verifyForModule"]>,
        DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]>;

class TTG_SharedAttr<string name, string attrMnemonic>
    : TTG_Attr<name, attrMnemonic, [
        DeclareAttrInterfaceMethods<TTG_LayoutEncodingTrait>,
        TTG_SharedEncodingTrait]>;

//===----------------------------------------------------------------------===//
// Distributed layouts
//===----------------------------------------------------------------------===//

def TTG_BlockedEncodingAttr : TTG_DistributedAttr<"BlockedEncoding", "blocked"> {
  let summary = "tensor split into per-thread tiles, tiled over lanes, warps and CTAs";
  let description = [{
    Each thread owns a `sizePerThread` tile; `threadsPerWarp` tiles form a
    warp tile, `warpsPerCTA` warp tiles a CTA tile, repeated to cover the
    tensor. `order` lists the dimensions from fastest to slowest varying.
    The optional `CGALayout` gives the bases that map the CTA index of a
    cluster onto tensor dimensions (absent for a single CTA).

    ```mlir
    #blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8],
                             warpsPerCTA = [4, 1], order = [1, 0]}>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"unsigned">:$sizePerThread,
    ArrayRefParameter<"unsigned">:$threadsPerWarp,
    ArrayRefParameter<"unsigned">:$warpsPerCTA,
    ArrayRefParameter<"unsigned", "dimensions, fastest first">:$order,
    TTG_FlatBases:$cgaBases
  );
  let builders = [
    AttrBuilder<(ins "::llvm::ArrayRef<unsigned>":$sizePerThread,
                     "::llvm::ArrayRef<unsigned>":$threadsPerWarp,
                     "::llvm::ArrayRef<unsigned>":$warpsPerCTA,
                     "::llvm::ArrayRef<unsigned>":$order), [{
      return $_get(context, sizePerThread, threadsPerWarp, warpsPerCTA, order,
                   ::llvm::ArrayRef<int32_t>());
    }]>
  ];
  let extraClassDeclaration = [{
    /// CGA bases, one rank-sized vector per CTA-index bit.
    ::llvm::SmallVector<::llvm::SmallVector<int32_t>> getCGALayout() const;
    unsigned getNumCTAs() const;
  }];
  let genVerifyDecl = 1;
  let hasCustomAssemblyFormat = 1;
}

def TTG_SliceEncodingAttr : TTG_DistributedAttr<"SliceEncoding", "slice"> {
  let summary = "parent layout with one dimension removed";
  let description = [{
    The layout of a tensor obtained by reducing (or expanding) dimension
    `dim` of a tensor with layout `parent`. The tensor rank is the parent
    rank minus one.

    ```mlir
    tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    ```
  }];
  let parameters = (ins "unsigned":$dim, "::mlir::Attribute":$parent);
  let genVerifyDecl = 1;
  let hasCustomAssemblyFormat = 1;
}

def TTG_DotOperandEncodingAttr : TTG_DistributedAttr<"DotOperandEncoding", "dot_op"> {
  let summary = "layout of an operand of tt.dot, derived from the result layout";
  let description = [{
    Operand `opIdx` (0 = A, 1 = B) of a `tt.dot` whose result has layout
    `parent`. `kWidth` (contiguous K elements per thread) is only meaningful
    for matrix-core parents and is printed only when non-zero.

    ```mlir
    tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    ```
  }];
  let parameters = (ins "unsigned":$opIdx, "::mlir::Attribute":$parent,
                        DefaultValuedParameter<"unsigned", "0">:$kWidth);
  let genVerifyDecl = 1;
  let hasCustomAssemblyFormat = 1;
}

def TTG_LinearEncodingAttr : TTG_DistributedAttr<"LinearEncoding", "linear"> {
  let summary = "distributed layout given as a linear map over GF(2)";
  let description = [{
    Each of the input dimensions `register`, `lane`, `warp` and `block` has
    one basis per bit of its index; a basis is the tensor coordinate reached
    by that bit alone, and coordinates of several bits combine by XOR. A basis
    moves along at most one dimension (it is zero or a power of two there).

    ```mlir
    #linear = #ttg.linear<{register = [[0, 1]], lane = [[0, 2], [0, 4], [1, 0],
                           [2, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>
    ```
  }];
  let parameters = (ins "unsigned":$layoutRank, TTG_FlatBases:$registerBases,
                        TTG_FlatBases:$laneBases, TTG_FlatBases:$warpBases,
                        TTG_FlatBases:$blockBases);
  let extraClassDeclaration = [{
    ::llvm::SmallVector<::llvm::SmallVector<int32_t>> getRegisterBasisList() const;
    ::llvm::SmallVector<::llvm::SmallVector<int32_t>> getLaneBasisList() const;
    ::llvm::SmallVector<::llvm::SmallVector<int32_t>> getWarpBasisList() const;
    ::llvm::SmallVector<::llvm::SmallVector<int32_t>> getBlockBasisList() const;
    /// Tensor extent per dimension covered by the bases (powers of two).
    ::llvm::SmallVector<int64_t> getCoveredShape() const;
  }];
  let genVerifyDecl = 1;
  let hasCustomAssemblyFormat = 1;
}

//===----------------------------------------------------------------------===//
// Shared-memory layouts
//===----------------------------------------------------------------------===//

def TTG_SwizzledSharedEncodingAttr
    : TTG_SharedAttr<"SwizzledSharedEncoding", "swizzled_shared"> {
  let summary = "shared-memory layout with XOR swizzling of vectors";
  let description = [{
    Rows (along `order[0]`) are stored contiguously; groups of `vec`
    elements are XOR-permuted by the row's phase, where `perPhase` rows share
    a phase and there are `maxPhase` phases. `vec = perPhase = maxPhase = 1`
    is unswizzled.

    ```mlir
    #shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
    ```
  }];
  let parameters = (ins "unsigned":$vec, "unsigned":$perPhase,
                        "unsigned":$maxPhase,
                        ArrayRefParameter<"unsigned">:$order,
                        TTG_FlatBases:$cgaBases);
  let builders = [
    AttrBuilder<(ins "unsigned":$vec, "unsigned":$perPhase,
                     "unsigned":$maxPhase,
                     "::llvm::ArrayRef<unsigned>":$order), [{
      return $_get(context, vec, perPhase, maxPhase, order,
                   ::llvm::ArrayRef<int32_t>());
    }]>
  ];
  let genVerifyDecl = 1;
  let hasCustomAssemblyFormat = 1;
}

def TTG_AMDRotatingSharedEncodingAttr
    : TTG_SharedAttr<"AMDRotatingSharedEncoding", "amd_rotating_shared"> {
  let summary = "swizzled shared layout whose phase also rotates per block of rows";
  let description = [{
    Same parameters as `#ttg.swizzled_shared`; parsed so that any 3.6 module
    loads, not produced for MUSA targets.

    ```mlir
    #ttg.amd_rotating_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
    ```
  }];
  let parameters = (ins "unsigned":$vec, "unsigned":$perPhase,
                        "unsigned":$maxPhase,
                        ArrayRefParameter<"unsigned">:$order,
                        TTG_FlatBases:$cgaBases);
  let genVerifyDecl = 1;
  let hasCustomAssemblyFormat = 1;
}

def TTG_NVMMASharedEncodingAttr
    : TTG_SharedAttr<"NVMMASharedEncoding", "nvmma_shared"> {
  let summary = "shared layout of tensor-core / bulk-copy swizzle modes";
  let description = [{
    The 32/64/128-byte swizzle patterns used by bulk tensor copies
    (descriptors). `rank` is printed only when it is not 2 and there is no
    `CGALayout`; `fp4Padded` only when true.

    ```mlir
    #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
    ```
  }];
  let parameters = (ins "unsigned":$swizzlingByteWidth, "bool":$transposed,
                        "unsigned":$elementBitWidth, "bool":$fp4Padded,
                        "unsigned":$layoutRank, TTG_FlatBases:$cgaBases);
  let extraClassDeclaration = [{
    /// Swizzle parameters in `#ttg.swizzled_shared` terms.
    unsigned getVec() const;
    unsigned getPerPhase() const;
    unsigned getMaxPhase() const;
  }];
  let genVerifyDecl = 1;
  let hasCustomAssemblyFormat = 1;
}

def TTG_PaddedSharedEncodingAttr
    : TTG_SharedAttr<"PaddedSharedEncoding", "padded_shared"> {
  let summary = "shared layout with padding inserted every interval elements";
  let description = [{
    After every `interval` elements, `padding` elements are skipped (one pair
    per entry). The element order is a linear map from the `offset` (and
    `block`) index to tensor coordinates; an identity map is printed in the
    short form `order = [...], shape = [...]`.

    ```mlir
    #shared = #ttg.padded_shared<[32:+4, 64:+8] {order = [1, 0], shape = [32, 32]}>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"unsigned">:$intervals,
                        ArrayRefParameter<"unsigned">:$paddings,
                        "unsigned":$layoutRank, TTG_FlatBases:$offsetBases,
                        TTG_FlatBases:$blockBases);
  let extraClassDeclaration = [{
    /// Order of dimensions along the offset bases (fastest first).
    ::llvm::SmallVector<unsigned> getOrder() const;
    /// Extent per dimension covered by the offset and block bases.
    ::llvm::SmallVector<int64_t> getCoveredShape() const;
  }];
  let genVerifyDecl = 1;
  let hasCustomAssemblyFormat = 1;
}

def TTG_SharedLinearEncodingAttr
    : TTG_SharedAttr<"SharedLinearEncoding", "shared_linear"> {
  let summary = "shared layout given as a linear map from offset to coordinates";
  let description = [{
    Element `offset` of the buffer holds the tensor coordinate given by the
    XOR of the `offset` bases of its set bits. `block` bases (for clusters)
    are printed only when non-empty. `alignment` is the buffer alignment in
    bytes.

    ```mlir
    #ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0], [2, 0]]}, alignment = 16>
    ```
  }];
  let parameters = (ins "unsigned":$layoutRank, TTG_FlatBases:$offsetBases,
                        TTG_FlatBases:$blockBases, "unsigned":$alignment);
  let genVerifyDecl = 1;
  let hasCustomAssemblyFormat = 1;
}

def TTG_SharedMemorySpaceAttr : TTG_Attr<"SharedMemorySpace", "shared_memory"> {
  let summary = "memory space of shared memory buffers";
  let description = [{
    ```mlir
    #smem = #ttg.shared_memory
    ```
  }];
}

#endif // TRITON_MUSA_TRITONGPU_ATTRDEFS_TD
