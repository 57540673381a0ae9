#ifndef TRITON_MUSA_TRITONGPU_OPS_TD
#define TRITON_MUSA_TRITONGPU_OPS_TD

include "dialects/TritonGPU/IR/TritonGPUDialect.td"
include "dialects/TritonGPU/IR/TritonGPUAttrDefs.td"
include "dialects/TritonGPU/IR/TritonGPUTypes.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

// Memory-effect resources: keep shared-memory effects apart from global
// memory so that later passes can reorder across them.
def TTG_SharedMemory : Resource<"::mlir::triton::gpu::SharedMemory">;
def TTG_GlobalMemory : Resource<"::mlir::triton::gpu::GlobalMemory">;

class TTG_Op<string mnemonic, list<Trait> traits = []>
    : Op<TritonGPU_Dialect, mnemonic, traits>;

// The `tt` dialect owns !tt.ptr; ttg ops only need to know that a value is a
// ranked tensor (of pointers, of i1, ...), which the tt verifiers refine.
defvar TTG_Tensor = AnyRankedTensor;

//===----------------------------------------------------------------------===//
// Layout conversion
//===----------------------------------------------------------------------===//

def TTG_ConvertLayoutOp : TTG_Op<"convert_layout", [
    SameOperandsAndResultShape, SameOperandsAndResultElementType, Pure]> {
  let summary = "redistribute a tensor to another layout";
  let description = [{
    Same values, same shape and element type, different distribution over
    threads. Lowering may go through shared memory.

    ```mlir
    %1 = ttg.convert_layout %0 : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<32xi32, #blocked1>
    ```
  }];
  let arguments = (ins TTG_Tensor:$src);
  let results = (outs TTG_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

//===----------------------------------------------------------------------===//
// Asynchronous copies
//===----------------------------------------------------------------------===//

def TTG_AsyncCopyGlobalToLocalOp : TTG_Op<"async_copy_global_to_local", [
    AttrSizedOperandSegments]> {
  let summary = "start an asynchronous copy from global to shared memory";
  let description = [{
    Like `tt.load` with the destination a shared-memory buffer instead of a
    distributed tensor. The data is visible only after the copy's group was
    committed (`ttg.async_commit_group`) and waited for (`ttg.async_wait`).
    `cacheModifier`/`evictionPolicy` print as keywords, `contiguity` (elements
    per vector) and `isVolatile` in the attribute dictionary; defaults are
    omitted. The result type is printed without the `!ttg.` prefix, as
    Triton does.

    ```mlir
    %t = ttg.async_copy_global_to_local %ptrs, %buf mask %m cacheModifier = ca
        : tensor<32x32x!tt.ptr<f16>, #blocked> -> <32x32xf16, #shared, #smem, mutable>
    ```
  }];
  let arguments = (ins
    Arg<TTG_Tensor, "", [MemRead<TTG_GlobalMemory>]>:$src,
    Arg<TTG_MemDescType, "", [MemWrite<TTG_SharedMemory>]>:$result,
    Optional<TTG_Tensor>:$mask,
    Optional<AnyType>:$other,
    // Same i32 encoding as tt's CacheModifier / EvictionPolicy enums.
    DefaultValuedAttr<I32Attr, "1">:$cache,
    DefaultValuedAttr<I32Attr, "1">:$evict,
    DefaultValuedAttr<BoolAttr, "false">:$isVolatile,
    DefaultValuedAttr<I32Attr, "1">:$contiguity
  );
  let results = (outs TTG_AsyncToken:$token);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def TTG_AsyncCommitGroupOp : TTG_Op<"async_commit_group"> {
  let summary = "close the current group of asynchronous copies";
  let description = [{
    ```mlir
    %g = ttg.async_commit_group tokens %t0, %t1
    ```
  }];
  let arguments = (ins Variadic<TTG_AsyncToken>:$inputTokens);
  let results = (outs TTG_AsyncToken:$asyncToken);
  let assemblyFormat = "(`tokens` $inputTokens^)? attr-dict";
}

def TTG_AsyncWaitOp : TTG_Op<"async_wait"> {
  let summary = "wait until at most `num` copy groups are outstanding";
  let description = [{
    Does not synchronise the CTA; combine with `ttg.local_barrier` for that.

    ```mlir
    %w = ttg.async_wait %g {num = 0 : i32}
    ```
  }];
  let arguments = (ins Variadic<TTG_AsyncToken>:$asyncToken, I32Attr:$num);
  let results = (outs TTG_AsyncToken:$retToken);
  let assemblyFormat = "($asyncToken^)? attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

def TTG_LocalAllocOp : TTG_Op<"local_alloc", [
    MemoryEffects<[MemAlloc<TTG_SharedMemory>]>]> {
  let summary = "allocate a shared-memory buffer, optionally initialised";
  let description = [{
    Without `src` the buffer must be mutable; with `src` the tensor's shape
    and element type must match the buffer.

    ```mlir
    %0 = ttg.local_alloc %t : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
    %1 = ttg.local_alloc : () -> !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>
    ```
  }];
  let arguments = (ins Optional<TTG_Tensor>:$src,
                       OptionalAttr<I32Attr>:$alignment);
  let results = (outs TTG_MemDescType:$result);
  let assemblyFormat = "($src^)? attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def TTG_LocalDeallocOp : TTG_Op<"local_dealloc"> {
  let summary = "release a shared-memory buffer";
  let description = [{
    Optional: a buffer is otherwise dead after its last use.

    ```mlir
    ttg.local_dealloc %0 : !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    ```
  }];
  let arguments = (ins Arg<TTG_MemDescType, "", [MemFree<TTG_SharedMemory>]>:$src);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src))";
}

def TTG_LocalLoadOp : TTG_Op<"local_load"> {
  let summary = "load a shared-memory buffer into a distributed tensor";
  let description = [{
    ```mlir
    %t = ttg.local_load %buf token %w : !ttg.memdesc<64x32xf16, #shared, #smem> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    ```
  }];
  let arguments = (ins Arg<TTG_MemDescType, "", [MemRead<TTG_SharedMemory>]>:$src,
                       Optional<TTG_AsyncToken>:$token);
  let results = (outs TTG_Tensor:$result);
  let assemblyFormat = [{
    $src (`token` $token^)? attr-dict `:` qualified(type($src)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TTG_LocalStoreOp : TTG_Op<"local_store"> {
  let summary = "store a distributed tensor into a mutable shared-memory buffer";
  let description = [{
    ```mlir
    ttg.local_store %t, %buf : tensor<64x32xf16, #blocked> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    ```
  }];
  let arguments = (ins TTG_Tensor:$src,
                       Arg<TTG_MemDescType, "", [MemWrite<TTG_SharedMemory>]>:$dst);
  let assemblyFormat = "$src `,` $dst attr-dict `:` type($src) `->` qualified(type($dst))";
  let hasVerifier = 1;
}

def TTG_LocalBarrierOp : TTG_Op<"local_barrier", [
    MemoryEffects<[MemRead<TTG_SharedMemory>, MemWrite<TTG_SharedMemory>]>]> {
  let summary = "CTA-wide barrier ordering shared-memory accesses";
  let description = [{
    ```mlir
    ttg.local_barrier
    ```
  }];
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Memory descriptor views
//===----------------------------------------------------------------------===//

def TTG_MemDescIndexOp : TTG_Op<"memdesc_index", [Pure]> {
  let summary = "view of one buffer of a multi-buffered allocation";
  let description = [{
    Drops the leading dimension: element `index` along dimension 0.

    ```mlir
    %1 = ttg.memdesc_index %0[%i] : !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
    ```
  }];
  let arguments = (ins TTG_MemDescType:$src, I32:$index);
  let results = (outs TTG_MemDescType:$result);
  let assemblyFormat = [{
    $src `[` $index `]` attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TTG_MemDescSubsliceOp : TTG_Op<"memdesc_subslice", [Pure]> {
  let summary = "view of a static sub-tile of a buffer";
  let description = [{
    The view starts at the constant `offsets`; the result keeps the
    allocation shape of the source.

    ```mlir
    %1 = ttg.memdesc_subslice %0[0, 16] : !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x16xf16, #shared, #smem, mutable, 32x32>
    ```
  }];
  let arguments = (ins TTG_MemDescType:$src, DenseI32ArrayAttr:$offsets);
  let results = (outs TTG_MemDescType:$result);
  let assemblyFormat = [{
    $src `[` custom<Offsets>($offsets) `]` attr-dict `:` qualified(type($src))
    `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TTG_MemDescTransOp : TTG_Op<"memdesc_trans", [Pure, SameOperandsAndResultElementType]> {
  let summary = "transposed view of a buffer";
  let description = [{
    ```mlir
    %1 = ttg.memdesc_trans %0 {order = array<i32: 1, 0>} : !ttg.memdesc<32x64xf16, #shared, #smem> -> !ttg.memdesc<64x32xf16, #shared1, #smem>
    ```
  }];
  let arguments = (ins TTG_MemDescType:$src, DenseI32ArrayAttr:$order);
  let results = (outs TTG_MemDescType:$result);
  let assemblyFormat = [{
    $src attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TTG_MemDescReshapeOp : TTG_Op<"memdesc_reshape", [Pure, SameOperandsAndResultElementType]> {
  let summary = "view of a buffer with another shape and the same element count";
  let description = [{
    ```mlir
    %1 = ttg.memdesc_reshape %0 : !ttg.memdesc<32x32xf16, #shared, #smem> -> !ttg.memdesc<1024xf16, #shared1, #smem>
    ```
  }];
  let arguments = (ins TTG_MemDescType:$src);
  let results = (outs TTG_MemDescType:$result);
  let assemblyFormat = [{
    $src attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TTG_MemDescReinterpretOp : TTG_Op<"memdesc_reinterpret", [Pure]> {
  let summary = "view of a buffer with another shape and element type";
  let description = [{
    Only valid on a whole (contiguous) allocation.

    ```mlir
    %1 = ttg.memdesc_reinterpret %0 : !ttg.memdesc<32x32xf16, #shared, #smem> -> !ttg.memdesc<16x32xf32, #shared, #smem>
    ```
  }];
  let arguments = (ins TTG_MemDescType:$src);
  let results = (outs TTG_MemDescType:$result);
  let assemblyFormat = [{
    $src attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Misc
//===----------------------------------------------------------------------===//

def TTG_Fp4ToFpOp : TTG_Op<"fp4_to_fp", [Pure]> {
  let summary = "unpack fp4 (e2m1) pairs stored in i8 into floats";
  let description = [{
    The low nibble of each i8 is the first element; `axis` is the dimension
    along which the pairs are packed (it doubles in the result).

    ```mlir
    %1 = ttg.fp4_to_fp %0 {axis = 1 : i32} : tensor<32x16xi8, #linear> -> tensor<32x32xbf16, #linear1>
    ```
  }];
  let arguments = (ins RankedTensorOf<[I8]>:$src, I32Attr:$axis);
  let results = (outs RankedTensorOf<[AnyFloat]>:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TTG_GlobalScratchAllocOp : TTG_Op<"global_scratch_alloc"> {
  let summary = "allocate a global-memory buffer private to the program";
  let description = [{
    ```mlir
    %p = ttg.global_scratch_alloc {alignment = 8 : i32, nbytes = 100 : i32} : !tt.ptr<i8>
    ```
  }];
  let arguments = (ins I32Attr:$nbytes, I32Attr:$alignment,
                       OptionalAttr<UnitAttr>:$third_party_allocation,
                       OptionalAttr<UnitAttr>:$shared_cluster_state);
  let results = (outs Arg<AnyType, "", [MemAlloc<TTG_GlobalMemory>]>:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
}

def TTG_PredicateStageOp : TTG_Op<"predicate_stage", [
    Pure, AllTypesMatch<["iv", "ub", "step"]>]> {
  let summary = "predicate of a software-pipeline stage";
  let description = [{
    ```mlir
    %p = ttg.predicate_stage %iv, %ub, %step maxStage 2 stage 1 : i32 -> i1
    ```
  }];
  let arguments = (ins AnySignlessIntegerOrIndex:$iv,
                       AnySignlessIntegerOrIndex:$ub,
                       AnySignlessIntegerOrIndex:$step,
                       I32Attr:$maxStage, I32Attr:$stage);
  let results = (outs I1:$result);
  let assemblyFormat = [{
    $iv `,` $ub `,` $step `maxStage` $maxStage `stage` $stage attr-dict `:` type($iv) `->` type($result)
  }];
}

def TTG_MaskOp : TTG_Op<"mask", [SingleBlock]> {
  let summary = "region executed under a predicate (pipeliner)";
  let description = [{
    Has no custom syntax in Triton 3.6; it prints in generic form.

    ```mlir
    %r = "ttg.mask"(%p) ({
      ttg.mask.return %v : i32
    }) : (i1) -> i32
    ```
  }];
  let arguments = (ins I1:$pred);
  let results = (outs Variadic<AnyType>:$result);
  let regions = (region SizedRegion<1>:$region);
}

def TTG_MaskReturnOp : TTG_Op<"mask.return", [
    HasParent<"MaskOp">, Pure, Terminator, ReturnLike]> {
  let summary = "terminator of ttg.mask";
  let description = [{
    ```mlir
    ttg.mask.return %v : i32
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "$result attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Warp specialization
//===----------------------------------------------------------------------===//

def TTG_WarpSpecializeOp : TTG_Op<"warp_specialize", [RecursiveMemoryEffects]> {
  let summary = "run different code on different warp groups";
  let description = [{
    The `default` region runs on the current warps and may capture values;
    each `partitionN` region runs on `num_warps(K)` extra warps and receives
    the explicit captures as block arguments. The partition regions live in
    a nested `ttg.warp_specialize.partitions` op (they are isolated from
    above) but print inline.

    ```mlir
    %0 = ttg.warp_specialize(%a) attributes {requestedRegisters = array<i32: 24>}
    default {
      ttg.warp_yield %a : i32
    }
    partition0(%arg0: i32) num_warps(4) {
      ttg.warp_return
    } : (i32) -> i32
    ```
  }];
  let arguments = (ins DenseI32ArrayAttr:$partitionNumWarps,
                       OptionalAttr<DenseI32ArrayAttr>:$warpGroupStartIds,
                       OptionalAttr<DenseI32ArrayAttr>:$requestedRegisters,
                       OptionalAttr<DenseI32ArrayAttr>:$actualRegisters);
  let results = (outs Variadic<AnyType>:$defaultPassthrough);
  let regions = (region MinSizedRegion<1>:$defaultRegion,
                        SizedRegion<1>:$partitionOpHolder);
  let extraClassDeclaration = [{
    /// The nested op holding the partition regions, or null if malformed.
    WarpSpecializePartitionsOp getPartitionOp();
  }];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def TTG_WarpSpecializePartitionsOp : TTG_Op<"warp_specialize.partitions", [
    IsolatedFromAbove, RecursiveMemoryEffects, Terminator,
    HasParent<"WarpSpecializeOp">]> {
  let summary = "holder of the isolated partition regions of ttg.warp_specialize";
  let description = [{
    Printed as part of its parent `ttg.warp_specialize`.

    ```mlir
    partition0(%arg0: i32) num_warps(4) { ttg.warp_return }
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$explicitCaptures);
  let regions = (region VariadicRegion<MinSizedRegion<1>>:$partitionRegions);
  let hasVerifier = 1;
}

def TTG_WarpYieldOp : TTG_Op<"warp_yield", [
    Pure, Terminator, ReturnLike, HasParent<"WarpSpecializeOp">]> {
  let summary = "terminator of the default region of ttg.warp_specialize";
  let description = [{
    ```mlir
    ttg.warp_yield %a, %b : i32, tensor<32xbf16, #blocked>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^)? attr-dict (`:` type($values)^)?";
  let hasVerifier = 1;
}

def TTG_WarpReturnOp : TTG_Op<"warp_return", [
    Pure, Terminator, ReturnLike, HasParent<"WarpSpecializePartitionsOp">]> {
  let summary = "terminator of a partition region of ttg.warp_specialize";
  let description = [{
    ```mlir
    ttg.warp_return
    ```
  }];
  let assemblyFormat = "attr-dict";
}

#endif // TRITON_MUSA_TRITONGPU_OPS_TD
